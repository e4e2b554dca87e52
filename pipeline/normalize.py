"""One engine draft (field -> verbatim span) -> one ``ZoneRecord`` in SI units and UTC.

Every field goes through its own pure normaliser (``coords``, ``units``, ``polygon``, ``times``, ``schedule``).
A field that cannot be read never raises: it becomes a review reason ``"<field> '<raw>': <why>"`` and the rest of
the record is still filled, so one bad value costs one reason, not the message.
"""

from __future__ import annotations

import math
import re
from datetime import date, datetime, timedelta, timezone
from functools import lru_cache

from airspace.core.contract import PLACE_FIELDS, ZoneDraft
from airspace.core.records import (
    NM_TO_M,
    CircleGeometry,
    NamedGeometry,
    PolygonGeometry,
    SpanModel,
    Window,
    ZoneRecord,
)
from airspace.parser.coords import find_coords, parse_coord
from airspace.parser.distwords import diameter_at, read_distance, seemeile
from airspace.parser.endates import DAY_RANGE as EN_DAY_RANGE
from airspace.parser.endates import HOURS as EN_HOURS
from airspace.parser.endates import after_duration, day_range_spans, hours_minutes, read_en_time
from airspace.parser.eudates import DAILY as EU_DAILY
from airspace.parser.eudates import day_hours, nearest_day, read_eu_time, window_minutes
from airspace.parser.header import qline_limit_field
from airspace.parser.localtime import LOCAL_MARK, MARK_AFTER, fixed_offset, zone_at
from airspace.parser.partial_time import complete_cn_day, complete_time, is_partial, is_warning
from airspace.parser.places import clause_fragment, named_kind, place_name
from airspace.parser.polygon import (
    HULL_ORDER_NOTE,
    MalformedVertex,
    area_points,
    hull_order,
    list_break,
    ring_problems,
    seen_points,
)
from airspace.parser.schedule import expand_schedule
from airspace.parser.textnorm import damaged_number_at, shown
from airspace.parser.times import (
    IDEOGRAPH,
    YEAR_WRITTEN,
    local_window,
    message_year,
    page_year,
    parse_date,
    parse_time,
    text_zone,
)
from airspace.parser.tzplace import local_instant_at, local_instant_named, local_window_at
from airspace.parser.units import (
    negative_before,
    parse_distance_m,
    parse_limit,
    parse_limit_range,
    parse_qline_limit,
)


def _show(raw: str, limit: int = 60) -> str:
    s = " ".join(raw.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _fail(rec: ZoneRecord, field: str, raw: str, exc: Exception) -> None:
    rec.review(f"{field} '{_show(raw)}': {exc}")


def _centroid(points: list[tuple[float, float]]) -> tuple[float, float]:
    """Mean position (longitudes averaged on the circle, so rings across ±180 work)."""
    lat = sum(p[0] for p in points) / len(points)
    x = sum(math.cos(math.radians(p[1])) for p in points)
    y = sum(math.sin(math.radians(p[1])) for p in points)
    return lat, math.degrees(math.atan2(y, x))


def _geometry(rec: ZoneRecord, v: dict[str, str]) -> tuple[float, float] | None:
    """Fill ``rec.geometry``; return a representative position (for SR/SS) or None."""
    radius_m: float | None = None
    if v.get("radius") is not None:
        sp = rec.spans.get("radius")
        try:
            if sp is not None and negative_before(rec.text, sp.start):
                raise ValueError(f"the radius is written with a minus sign ('-{_show(v['radius'])}'): a negative "
                                 f"distance, not {_show(v['radius'])}")
            if (german := seemeile(v["radius"], rec.text)) is not None:
                radius_m = german[0]
                _infer(rec, german[1])  # the notice's own convention: a note
            else:
                radius_m = parse_distance_m(v["radius"])
        except ValueError as exc:
            try:  # a count in words, a bare "mile" (the warning's nautical mile, else the statute mile: inferred)
                radius_m, how = read_distance(v["radius"], rec.text)
                if how:
                    _infer(rec, how, sure=False)  # which mile the message means is a reading, not a statement
            except ValueError:
                _fail(rec, "radius", v["radius"], exc)
        if radius_m is not None and sp is not None and (d := diameter_at(rec.text, sp.start, sp.end)) is not None:
            radius_m /= 2  # the message gives the area's width: the radius is half of it, by its own words
            _infer(rec, f"radius {radius_m:g} m: half the diameter written ('{_show(d)}')")
    if v.get("polygon") is not None:
        try:
            pts = area_points(v["polygon"])  # a polygon, or "1NM EITHER SIDE OF LINE a-b" as the buffered line
            if (hull := hull_order(pts)) is not None:  # a bow-tie whose only simple ring is its hull
                pts = hull  # the redrawn order is the message's only simple reading, yet not what it wrote: review
                rec.review(HULL_ORDER_NOTE)
            rec.geometry = PolygonGeometry(points=pts)
            for problem in ring_problems(pts):  # bow-tie or repeated vertex: kept as written, flagged
                rec.review(problem)
            if (why := list_break(v["polygon"])) is not None:
                rec.review(why)
            return _centroid(pts)
        except MalformedVertex as exc:
            _fail(rec, "polygon", v["polygon"], exc)
            pts = seen_points(exc.points)
            if len({(round(a, 9), round(b, 9)) for a, b in pts}) >= 3:  # the readable vertices, flagged above
                rec.geometry = PolygonGeometry(points=pts)
                return _centroid(pts)
        except ValueError as exc:
            _fail(rec, "polygon", v["polygon"], exc)
    if v.get("center") is not None:
        try:
            lat, lon = parse_coord(v["center"])
            rec.geometry = CircleGeometry(center=(lat, lon), radius_m=radius_m if radius_m is not None else 0.0)
            return lat, lon
        except ValueError as exc:
            _fail(rec, "center", v["center"], exc)
    name = place_name(v["name"]) if v.get("name") is not None else ""
    if name and rec.geometry is None:
        rec.geometry = NamedGeometry(name=name, radius_m=radius_m, kind=named_kind(name, rec.text))
        rec.review(rec.geometry.unresolved_reason())
        if (why := clause_fragment(name)) is not None:
            rec.review(f"name {name!r} is no place: {why}")
    return None


def _joint_limits(rec: ZoneRecord, text: str) -> None:
    """Lower and upper written as one phrase share words: ``真高0米至120米`` (both AGL), ``1000-2000FT AMSL`` (one
    unit). When the two spans are the halves of one short phrase, the phrase read as a pair decides."""
    lo, hi = rec.spans.get("lower"), rec.spans.get("upper")
    if lo is None or hi is None or rec.lower is None or not (0 < hi.start - lo.end <= 6):
        return
    try:
        lower, upper = parse_limit_range(text[lo.start : hi.end])
    except ValueError:
        return
    if (lower.ref, upper.ref) != (rec.lower.ref, rec.upper.ref if rec.upper else None):
        rec.lower = lower.model_copy(update={"raw": rec.lower.raw})
        rec.upper = upper.model_copy(update={"raw": hi.text})


# a second statement of a limit right after it, in another reference: "1000FT AGL (1500FT AMSL)", "200FT AGL/211FT
# MSL", "(FL100)"; both must carry a reference (a bare "548M 1,800FT AMSL" is read as the one with it upstream)
_ALSO = re.compile(r"[ \t]*(?:\([ \t]*|/[ \t]*)(?P<v>(?:\d{1,3}(?:,\d{3})+|\d+)(?:\.\d+)?[ \t]?(?:FT|M)\.?[ \t]?"
                   r"(?:AMSL|MSL|AGL|ASFC|AAL)\b|FL[ \t]?\d{2,3}\b)", re.I)
_FAMILY = {"AGL": "ground", "SFC": "ground", "GND": "ground", "AMSL": "sea", "FL": "pressure", "UNL": "unl"}


def _second_statement(rec: ZoneRecord, key: str, text: str) -> None:
    """Keep a limit stated twice (AGL and AMSL) on the record: ``<key>_also`` with its span, and a note saying
    which of the two the volume uses."""
    sp, lim = rec.spans.get(key), getattr(rec, key)
    if sp is None or lim is None or lim.ref in ("SFC", "GND", "UNL"):
        return
    m = _ALSO.match(text, sp.end)
    if m is None:
        return
    other_sp = rec.spans.get("upper" if key == "lower" else "lower")
    if other_sp is not None and other_sp.start < m.end("v") and m.start("v") < other_sp.end:
        return  # "4000FT AMSL/FL080": the other half of a band, not a second statement
    try:
        other = parse_limit(m.group("v"))
    except ValueError:
        return
    if _FAMILY.get(other.ref) == _FAMILY.get(lim.ref):
        return  # the same reference again: a restatement in other units, not a second reference
    setattr(rec, f"{key}_also", other)
    rec.spans[f"{key}_also"] = SpanModel(start=m.start("v"), end=m.end("v"), text=m.group("v"))
    rec.reasons.append(f"note: {key} limit stated as {lim.raw} and as {other.raw}; the volume uses {lim.raw} "
                       "(written first)")


# "… EXCLUDING THE AIRSPACE WITHIN 10 NMR OF 404500N0735800W": an inner circle cut out of a circle zone
_EXC_CIRCLE = re.compile(
    r"\bEXC(?:EPT|LUDING|L)?\.?\s+(?:THE\s+)?(?:AIRSPACE\s+|AREA\s+)?(?:WI|WITHIN)\s+(?:AN?\s+)?"
    r"(?P<r>(?:\d+(?:\.\d+)?|\.\d+)\s?(?:NMR|NM|KM|M)\b)(?:\s+RADIUS)?\s+(?:OF|AROUND|FROM|CENT(?:RE|ER)D?\s+ON)\s+",
    re.I)


def _excluded_inner_circle(rec: ZoneRecord, text: str) -> None:
    """An inner circle around the zone's own centre that the message excludes right after the zone (within 300
    characters of its centre and radius, no other position between): the zone becomes the ring between the radii
    (``inner_radius_m``)."""
    g = rec.geometry
    geo = [rec.spans[k] for k in ("center", "radius") if k in rec.spans]
    if not isinstance(g, CircleGeometry) or g.radius_m <= 0 or not geo:
        return
    last = max(s.end for s in geo)
    for m in _EXC_CIRCLE.finditer(text, last, min(len(text), last + 300)):
        if find_coords(text[last : m.start()]):
            break  # another zone's position comes first: the exclusion is not this zone's
        found = find_coords(text[m.end() : m.end() + 40])
        if not found or text[m.end() : m.end() + found[0].start].strip():
            continue  # the excluded circle's centre must follow the phrase
        centre = (found[0].lat, found[0].lon)
        try:
            inner = parse_distance_m(m.group("r"))
        except ValueError:
            continue
        if abs(centre[0] - g.center[0]) > 1e-6 or abs(centre[1] - g.center[1]) > 1e-6 or not 0 < inner < g.radius_m:
            continue
        rec.geometry = g.model_copy(update={"inner_radius_m": inner})
        rec.spans["exclude"] = SpanModel(start=m.start(), end=m.end("r"), text=text[m.start() : m.end("r")])
        rec.reasons.append(f"note: the inner {' '.join(m.group('r').split())} around the same centre is excluded: "
                           "the zone is the ring between the two radii")
        return


# "2. BUFFER ZONE : TEMPO BUFFER ZONE FM OUTSIDE OF PROHIBITED AREA TO 10NM" (Korean TEMPO prohibited areas)
_BUFFER = re.compile(
    r"\bBUFFER\s+ZONE\b[^\n]{0,60}?\bFM\s+OUTSIDE\s+OF\s+(?:THE\s+)?(?:PROHIBITED|RESTRICTED|DANGER)\s+AREA\s+"
    r"TO\s{1,40}(?P<d>\d+(?:\.\d+)?\s?(?:NM|KM|M)\b)", re.I)


def buffer_zone(rec: ZoneRecord, text: str, zone: int) -> ZoneRecord | None:
    """The buffer a message puts around a circle zone, stated after it with no other position between ("BUFFER
    ZONE ... FM OUTSIDE OF PROHIBITED AREA TO 10NM"): its own record, the ring from the circle's radius out to that
    distance beyond it, with the zone's limits and times; review (how far a buffer's own limits reach is not
    stated)."""
    g = rec.geometry
    geo = [rec.spans[k] for k in ("center", "radius") if k in rec.spans]
    if not isinstance(g, CircleGeometry) or g.radius_m <= 0 or g.inner_radius_m or not geo or rec.status == "error":
        return None
    last = max(sp.end for sp in geo)
    m = _BUFFER.search(text, last, min(len(text), last + 400))
    if m is None or find_coords(text[last : m.start()]):
        return None
    try:
        width = parse_distance_m(m.group("d"))
    except ValueError:
        return None
    out = rec.model_copy(deep=True)
    out.zone = zone
    out.geometry = g.model_copy(update={"radius_m": g.radius_m + width, "inner_radius_m": g.radius_m})
    out.spans["buffer"] = SpanModel(start=m.start("d"), end=m.end("d"), text=m.group("d"))
    out.reasons = [f"buffer zone: the ring from the area's edge out to {' '.join(m.group('d').split())} beyond it "
                   f"({(g.radius_m + width) / NM_TO_M:g} NM from the centre); its own limits and times are the area's"]
    out.status = "review"
    return out


@lru_cache(maxsize=64)  # (asked once per zone of the same message text: a 500-zone message read it 500 times)
def _has_cjk(text: str) -> bool:
    return IDEOGRAPH.search(text) is not None


def _zone_points(rec: ZoneRecord) -> list[tuple[float, float]]:
    """Where the zone is, for its time zone: its centre (a circle's, a polygon's mean) first, then its vertices."""
    g = rec.geometry
    if isinstance(g, CircleGeometry):
        return [g.center]
    if isinstance(g, PolygonGeometry) and g.points:
        return [_centroid(g.points), *g.points]
    return []


def _clock_times(rec: ZoneRecord, v: dict[str, str]) -> None:
    """Clock-only start/end (``0930``, ``16:00``) on the ``date`` the message states apart, in its ``tz``: UTC by
    exact arithmetic (``parser.times.local_window``). Without a time zone the times cannot be placed: review."""
    try:
        day = parse_date(v["date"])
    except ValueError as exc:
        _fail(rec, "date", v["date"], exc)
        return
    if v.get("start") is None or v.get("end") is None:
        rec.review(f"date '{_show(v['date'])}' is stated but not both clock times of the period")
        return
    if v.get("tz") is None:
        try:  # the time zone of the zone's own position (IANA, DST exact), said to be inferred
            rec.start, rec.end, what, doubts = local_window_at(day, v["start"], v["end"], _zone_points(rec))
        except ValueError:
            rec.review(f"times '{_show(v['start'])}'-'{_show(v['end'])}' on {day.isoformat()} are local clock times "
                       "and the message states no time zone: not placed in UTC")
            return
        _infer(rec, what)
        for d in doubts:
            rec.review(d)
        return
    try:
        rec.start, rec.end = local_window(day, v["start"], v["end"], v["tz"])
    except ValueError as exc:
        _fail(rec, "tz" if "zone" in str(exc) else "start", v["tz"] if "zone" in str(exc) else v["start"], exc)
        return
    rec.reasons.append(f"note: {_show(v['start'])}-{_show(v['end'])} local ({_show(v['tz'])}) on {day.isoformat()} "
                       f"= {rec.start:%Y-%m-%d %H:%M}-{rec.end:%Y-%m-%d %H:%M} UTC")


def _infer(rec: ZoneRecord, what: str, *, sure: bool = True) -> None:
    """A value completed from outside its own span: said on the record (``inferred``) and to the operator, as a
    note when the notice itself settles it (its own stamp, its own convention), else as a review reason."""
    if what not in rec.inferred:
        rec.inferred.append(what)
    if sure:
        rec.reasons.append(f"note: {what}")
    else:
        rec.review(what)


def _partial(rec: ZoneRecord, v: dict[str, str], text: str, key: str, start: datetime | None,
             reference: date | None = None) -> datetime | None:
    """A start/end written without its month or year (``191218Z``, ``14 APR``) completed from the notice, or a date
    in another European language or in English prose (``_prose_date``)."""
    span = rec.spans.get(key)
    if span is None:
        return None
    day_range = _in_day_range(text, span)
    if not is_partial(v[key]) or day_range:  # ("16" of "16-18 March 2018" is English prose's)
        return _prose_date(rec, v[key], text, key, span, day_range, reference)
    try:
        if _has_cjk(text):
            (dt, how), sure = complete_cn_day(v[key], text, is_end=key == "end"), True
        else:
            dt, how, sure = complete_time(v[key], text, span.end, is_end=key == "end", schedule=v.get("schedule"),
                                          start=start)
    except ValueError:
        return _prose_date(rec, v[key], text, key, span, day_range, reference)  # "26." of "vom 26. bis 28. Juni 2024"
    if not sure and not _has_cjk(text) and not is_warning(text) and not _zone_points(rec):
        # a day of prose that the notice's conventions do not place ("from 13th May 2019" in a news item, read as a
        # UTC day above) for a place it names: prose's own reading, in the time zone of the places the text names (a
        # zone with coordinates is an aviation notice's, whose days are UTC days)
        if (prose := _prose_date(rec, v[key], text, key, span, day_range, reference)) is not None:
            return prose
    _infer(rec, how, sure=sure)
    return dt


def _in_day_range(text: str, span: SpanModel) -> bool:
    """Whether the value at ``span`` is an end of an English range of days of one month (``parser.endates``)."""
    if _has_cjk(text):
        return False
    for m in EN_DAY_RANGE.finditer(text, max(0, span.start - 40), min(len(text), span.end + 40)):
        if span.start in {a for a, _ in day_range_spans(m)}:
            return True
    return False


_UTC_STATED = re.compile(r"\b(?:UTC|GMT)\b")


def _prose_date(rec: ZoneRecord, value: str, text: str, key: str, span: SpanModel,
                day_range: bool | None = None, reference: date | None = None) -> datetime | None:
    """A date in another European language (``parser.eudates``) or in English prose (``parser.endates``) -> UTC,
    what was inferred said on the record: its month and year from the rest of the period (an English date: else the
    item's own date), its clock from a daily window or the hours stated, else the whole day; its clock in UTC where
    the notice says so, else in the time zone of the zone's position, else (a zone without coordinates, in any
    language) of the time zone or places the text names, for review. A whole day in another language at a position
    without a UTC mark is read as UTC, for review; an English whole day is the place's own day, to its midnight.
    ``day_range``: whether the value ends an English range of days (``_in_day_range``, where the caller has it)."""
    after, before = text[span.end:span.end + 160], text[max(0, span.start - 60):span.start]
    # (an end of an English range of days is English, although "3-5 September" is German too)
    if day_range is None:
        day_range = _in_day_range(text, span)
    for english in ((True, False) if day_range else (False, True)):
        try:
            t = (read_eu_time(value, after, reference, text[max(0, span.start - 200):span.start]) if not english
                 else read_en_time(value, text, after, before, reference))
            break
        except ValueError:
            continue
    else:
        return None
    is_end = key == "end"
    # (an English date in prose is read for review whatever it took: its year from a dateline, a weekday counted
    # from it, a whole day, hours written once for several days are readings a person checks, never a value `ok`)
    said, minutes, utc, sure = list(t.taken), t.minutes, t.utc, not english
    whole_day = False
    if minutes is None:
        d = EU_DAILY.search(text, span.end, min(len(text), span.end + 200))
        h = _en_hours(text, span) if english and d is None else None
        eu_h = day_hours(text, span.end, min(len(text), span.end + 80)) if not english and d is None else None
        if eu_h is not None:  # "am 12.06.2024 von 08:00 bis 18:00 Uhr": that day's hours
            a, b, marked, words = eu_h
            minutes, utc = (b if is_end else a), utc or marked
            said.append(f"the clock {minutes // 60:02d}{minutes % 60:02d} from the hours '{_show(words.strip(' ,'))}'")
        elif d is not None:
            a, b, marked = window_minutes(d)
            minutes, utc = (b if is_end else a), utc or marked
            said.append(f"the clock {minutes // 60:02d}{minutes % 60:02d} from the daily window "
                        f"'{_show(d.group('clock'))}' (the zone is shown active from the first day's start to the "
                        "last day's end)")
        elif h is not None:
            a, b = hours_minutes(h)
            minutes = b if is_end else a
            said.append(f"the clock {minutes // 60:02d}{minutes % 60:02d} from the hours '{_show(h.group(0))}'")
        elif english:
            minutes, whole_day = (24 * 60 if is_end else 0), True
            said.append("the whole day")
        else:
            minutes, whole_day = (23 * 60 + 59 if is_end else 0), True
            said.append("the whole day")
    day = datetime(t.day.year, t.day.month, t.day.day, tzinfo=timezone.utc)
    dt: datetime | None = None
    if utc or _UTC_STATED.search(text):
        dt = day + timedelta(minutes=minutes)
        if not utc:
            said.append("UTC as the notice states")
    elif not (points := _zone_points(rec)):
        # a zone without coordinates (a news item's place): the time zone the text names, else its places'; a
        # reading a person checks
        try:
            dt, what, doubts = local_instant_named(t.day, minutes, text)
            sure = False
            said.append(what)
            for why in doubts:
                rec.review(why)
        except ValueError:
            pass
    elif not whole_day or english:
        try:
            dt, what, doubts = local_instant_at(t.day, minutes, points)
        except ValueError:
            dt, what, doubts = None, "", []
        if dt is not None:
            said.append(what)
            for why in doubts:
                rec.review(why)
    if dt is None:
        dt = day + timedelta(minutes=minutes)
        said.append("read as UTC: the message states no time zone")
        sure = False
    _infer(rec, f"{key} '{_show(value)}': " + ", ".join(said) + " (inferred)", sure=sure)
    return dt


def _en_hours(text: str, span: SpanModel) -> re.Match | None:
    """The hours an English item states for its day(s) (``between 10 am and 8 pm``): the first after the date
    within 400 characters (a news item's lead names the day, a quote two paragraphs on the hours), else the last
    before it within 300."""
    m = EN_HOURS.search(text, span.end, min(len(text), span.end + 400))
    if m is not None:
        return m
    before = list(EN_HOURS.finditer(text, max(0, span.start - 300), span.start))
    return before[-1] if before else None


# a Chinese, Japanese or Korean month and day ("3月30日", "5월 3일")
_CJK_MONTH_DAY = re.compile(r"(?P<mo>\d{1,2})\s*[月월]\s*(?P<d>\d{1,2})\s*[日号號일]")


def _times(rec: ZoneRecord, v: dict[str, str], text: str, reference: date | None = None) -> None:
    if v.get("date") is not None:
        _clock_times(rec, v)
        return
    start_ref: datetime | None = None
    # Chinese, Japanese and Korean texts give clock times in their own local time; ICAO/FAA stamps are UTC whatever
    # the message
    local_tz = text_zone(text)
    if v.get("start") is not None:
        try:
            # a Chinese date without a year (3月17日0时) takes the year the notice states before it (2024年…)
            span = rec.spans.get("start")
            year = message_year(text, span.start if span is not None else None) if local_tz is not None else None
            whence = "taken from the notice"
            if year is None and local_tz is not None and (paged := page_year(text, v["start"])) is not None:
                year, whence = paged
            sure = True
            if year is None and local_tz is not None and reference is not None \
                    and (md := _CJK_MONTH_DAY.search(v["start"])) is not None:
                # the notice dates itself nowhere: the year that puts the day nearest the day the batch came
                year = nearest_day(int(md["mo"]), int(md["d"]), reference).year
                whence, sure = f"from the batch's reference date {reference:%Y-%m-%d}", False
            tv = parse_time(v["start"], local_tz=local_tz, year=year)
            if tv.permanent:
                raise ValueError("a start cannot be permanent")
            rec.start = tv.dt
            start_ref = tv.dt
            if year is not None and not YEAR_WRITTEN.search(v["start"]):
                _infer(rec, f"start '{_show(v['start'])}' has no year; {year} {whence}", sure=sure)
            if tv.estimated:
                rec.review(f"start '{_show(v['start'])}' is estimated (EST)")
        except ValueError as exc:
            if (dt := _partial(rec, v, text, "start", None, reference)) is not None:
                rec.start = start_ref = dt
            else:
                _fail(rec, "start", v["start"], exc)
    length = after_duration(rec.start, v["end"]) if v.get("end") is not None and rec.start is not None else None
    if length is not None:  # "for 15 days from June 1": the start plus its length
        rec.end, said = length
        _infer(rec, f"end '{_show(v['end'])}': {said} (inferred)", sure=False)
    elif v.get("end") is not None:
        try:
            tv = parse_time(v["end"], ref=start_ref, local_tz=local_tz, end=True)
            rec.end = tv.dt
            rec.end_estimated = tv.estimated
            rec.permanent = tv.permanent
            if tv.until_further_notice:
                rec.review(f"end '{_show(v['end'])}' is until further notice (UFN): open-ended, expanded like PERM")
        except ValueError as exc:
            if (dt := _partial(rec, v, text, "end", start_ref, reference)) is not None:
                rec.end = dt
            else:
                _fail(rec, "end", v["end"], exc)


def _local_offset(rec: ZoneRecord, pos: tuple[float, float] | None) -> timedelta | None:
    """The UTC offset of a schedule marked LOCAL (``DLY 1800-2200 LOCAL``): the time zone at the zone's position,
    where one offset holds for the whole period (``parser.localtime``); the record says it was inferred. None, with
    the record ``review``, where it cannot be."""
    what = f"schedule '{_show(rec.schedule or '')}' is in local time"
    if pos is None:
        rec.review(f"{what} and the zone has no position to find its time zone from: its hours are not placed in UTC")
        return None
    tz = zone_at(*pos)
    if tz is None:
        rec.review(f"{what} and no time zone is known at the zone's position: its hours are not placed in UTC")
        return None
    off = fixed_offset(tz, rec.start, rec.end)
    if off is None:
        rec.review(f"{what} and the UTC offset of {tz.key} changes within the period (daylight saving): its hours "
                   "are not placed in UTC")
        return None
    hours = off.total_seconds() / 3600
    rec.reasons.append(f"note: {what}: placed in UTC with the time zone {tz.key} (UTC{hours:+g}) inferred from the "
                       "zone's position")
    return off


def _windows(rec: ZoneRecord, v: dict[str, str], pos: tuple[float, float] | None) -> None:
    sched = v.get("schedule")
    if sched is not None and sched.strip():
        rec.schedule = " ".join(sched.split())
    if rec.start is None:
        if rec.schedule:
            rec.review(f"schedule '{_show(rec.schedule)}': no start time to expand it from")
        return
    if rec.end is None and not rec.permanent:
        return  # no end: nothing to expand (validation reports the missing end)
    if rec.end is not None and rec.end <= rec.start:
        return  # validation reports start >= end
    try:
        lat, lon = pos if pos is not None else (None, None)
        # a schedule written in Chinese (每日8时至18时), or a Chinese (Japanese) notice's hours written in digits
        # (16:00-23:00) and marked as no other time, is in the notice's own time, like its dates
        local = bool(rec.schedule) and _has_cjk(rec.text) and (
            _has_cjk(rec.schedule) or not re.search(r"Z\b|UTC|GMT", rec.schedule, re.I))
        offset = text_zone(rec.text).utcoffset(None) if local else None  # type: ignore[union-attr]
        sp = rec.spans.get("schedule")
        if offset is None and rec.schedule and sp is not None and (
                MARK_AFTER.match(rec.text, sp.end) or LOCAL_MARK.search(sp.text)):
            offset = _local_offset(rec, pos)
            if offset is None:  # review said why; the whole period stands in for the unplaced hours
                rec.windows = [Window(start=rec.start, end=rec.end)] if rec.end is not None else []
                return
        rec.windows = expand_schedule(rec.schedule, rec.start, rec.end, lat, lon, local_offset=offset)
        if local and rec.windows and not _has_cjk(rec.schedule or ""):
            _clip_to_windows(rec, v)
    except ValueError as exc:
        _fail(rec, "schedule", rec.schedule or "", exc)
        rec.windows = [Window(start=rec.start, end=rec.end)] if rec.end is not None else []


_CN_CLOCK = re.compile(r"[时時点點]|\d:\d")


def _clip_to_windows(rec: ZoneRecord, v: dict[str, str]) -> None:
    """A Chinese period of days with its hours written after them in digits ("11月22日-11月26日16:00-23:00"): it
    starts when the first window opens and ends when the last one closes, as the hours attached to the days say (a
    day written with its own clock keeps it). A daily window in words (每日8时至18时) keeps whole days: the notice
    states the days, and the window the hours within each."""
    first, last = rec.windows[0], rec.windows[-1]
    if not _CN_CLOCK.search(v.get("start") or "") and first.start > rec.start:
        rec.start = first.start
        rec.reasons.append(f"note: start at the first daily window's opening ({_show(rec.schedule or '')})")
    if not _CN_CLOCK.search(v.get("end") or "") and rec.end is not None and last.end < rec.end:
        rec.end = last.end
        rec.reasons.append(f"note: end at the last daily window's close ({_show(rec.schedule or '')})")


def _drop_damaged(rec: ZoneRecord, v: dict[str, str], text: str) -> None:
    """A value whose number has a damaged character in it or against it (``1\ufffd5NM`` read as ``5NM``,
    ``42\x002100N`` as ``2100N``) is unreadable: it is left out of the record, with a reason that names it."""
    for key, sp in rec.spans.items():
        if key not in v:
            continue
        token = damaged_number_at(text, sp.start, sp.end)
        if token is None:
            continue
        del v[key]
        rec.review(f"{key} '{shown(_show(token))}': a character in this number is damaged (a control or "
                   "undecodable character stands for a lost digit or sign); the value is not read")


def _limit_of(rec: ZoneRecord, key: str, value: str, span, text: str):
    """A limit from its text; a value that is the Q-line's own limit field (no F)/G) item states one) is read as
    item Q writes it: flight levels, 000 the surface, 999 unlimited, other values rounded outwards by the rules
    of item Q, so those are review."""
    if span is None or qline_limit_field(text, span.start, span.end) is None:
        return parse_limit(value)
    lim = parse_qline_limit(value)
    if lim.ref in ("SFC", "UNL"):
        rec.reasons.append(f"note: {key} limit from the Q-line ({value}: {'the surface' if lim.ref == 'SFC' else 'unlimited'}); "
                           "no F)/G) item states one")
    else:
        rec.review(f"{key} limit only from the Q-line (FL{value}), which item Q rounds outwards; no F)/G) item states it")
    return lim


# a decimal number a feed broke at a line end ("WI 2.\n5NM OF …"): digits and a decimal point end one line, and the
# value starts the next
_BROKEN_HEAD = re.compile(r"(?<![\d.,])(?P<head>\d{1,4}\.)[ \t]*\r?\n[ \t]*$")
_BROKEN_FIELDS = ("radius", "lower", "upper")
_LIST_LABEL_BEFORE = re.compile(r"\b(?:AREA|ZONE|SECTOR|PART|ITEM|NR|NO|POINT|PSN)[ \t]*$", re.I)  # "AREA 2." is a label


def _join_broken(rec: ZoneRecord, v: dict[str, str], text: str) -> None:
    """A distance or limit whose number starts a line right after a line ending in digits and a decimal point is
    the tail of one number broken by the feed: read whole (``2.5NM``, not ``5NM``), its span widened over both
    parts, and the record sent to review (a line break inside a number is a guess to check, never certain)."""
    for key in _BROKEN_FIELDS:
        sp = rec.spans.get(key)
        if key not in v or sp is None or not text[sp.start : sp.start + 1].isdigit():
            continue
        m = _BROKEN_HEAD.search(text, max(0, sp.start - 12), sp.start)
        if m is None or _LIST_LABEL_BEFORE.search(text, max(0, m.start("head") - 12), m.start("head")):
            continue
        v[key] = m.group("head") + text[sp.start : sp.end]
        rec.spans[key] = SpanModel(start=m.start("head"), end=sp.end, text=text[m.start("head") : sp.end])
        rec.review(f"{key} '{shown(text[m.start('head') : sp.end])}': a number broken across a line, read as "
                   f"'{v[key]}'")


def normalize(
    draft: ZoneDraft, *, text: str, message: int, zone: int = 0, engine: str = "rules", reference: date | None = None
) -> ZoneRecord:
    """Build the record of one zone. Never raises on bad field text: failures become review reasons. ``reference``:
    the day the batch was received, which completes a date of prose whose text writes no year (for review)."""
    rec = ZoneRecord(message=message, zone=zone, text=text, engine=engine)
    rec.spans = {k: SpanModel(start=s.start, end=s.end, text=s.text) for k, s in draft.spans.items()}
    v = {k: val for k, val in draft.values.items() if isinstance(val, str)}
    _join_broken(rec, v, text)
    _drop_damaged(rec, v, text)
    pos = _geometry(rec, v)
    _excluded_inner_circle(rec, text)
    if rec.geometry is None and not any((v.get(k) or "").strip() for k in PLACE_FIELDS):
        rec.review("no geometry")  # (a geometry field that failed has already said why)
    for key in ("lower", "upper"):
        if v.get(key) is not None:
            try:
                setattr(rec, key, _limit_of(rec, key, v[key], draft.spans.get(key), text))
            except ValueError as exc:
                _fail(rec, key, v[key], exc)
    _joint_limits(rec, text)
    for key in ("lower", "upper"):
        _second_statement(rec, key, text)
    _times(rec, v, text, reference)
    _windows(rec, v, pos)
    return rec
