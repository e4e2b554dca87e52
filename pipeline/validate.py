"""Validation of one zone record: every failed check sends it to ``review`` with a human-readable reason.

Checks: coordinate ranges, radius > 0, polygon vertex count, lower < upper (when the references are comparable),
start < end, estimated end (``EST``), missing times, grounding (every span is the text it claims to be, and cuts no
number of the message in two: ``1 NM`` out of ``0.1 NM`` reads, but as ten times the radius), the coarse
Q-line circle (a precise geometry far outside it), geometry that is only coarse (Q-line, aerodrome indicator) or has
no extent (a point obstacle), what the text says the shape cannot (an excluded area not cut out, a semicircle or
sector that was not built, magnetic or unreferenced sector bearings, a message marked INCMPL after the zone), what
the notice is (a trigger NOTAM, a Q-code subject that is not airspace: GNSS, navaids…), public holidays in the
schedule (not knowable: the windows are a superset), and — for model engines — a cross-check against the rules
extractor's record.

Plausible ranges (``PLAUSIBLE_*``): a limit below -1,500 ft (the Dead Sea shore is -1,400 ft) or above
1,000,000 ft (305 km; the highest real limit seen, a launch area, is 200 km), a negative height above ground, a
radius under 1 m or over 1,000 NM, a polygon without area and a date outside the years 1990-2100 are ``review``: each is far likelier a misreading or
a typing error than a real zone.

Reasons that start with ``note:`` inform without changing the status (e.g. AGL and AMSL limits that cannot be
compared without terrain data).
"""

from __future__ import annotations

import math
import re
from bisect import bisect_left
from dataclasses import dataclass
from functools import lru_cache

from airspace.core.records import NM_TO_M, CircleGeometry, Limit, ZoneRecord, limits_conflict
from airspace.parser.fieldcheck import cut_number
from airspace.parser.header import Header
from airspace.parser.localtime import LOCAL_MARK
from airspace.parser.polygon import is_sector, sector_notes
from airspace.parser.schedule import holiday_note
from airspace.parser.textnorm import damaged_numbers, shown
from airspace.pipeline.periods import check_periods

EARTH_R_M = 6_371_008.8
CROSS_CHECK_CENTRE_M = 100.0  # model and rules centres further apart than this disagree
QLINE_SLACK_M = 2 * NM_TO_M  # Q-line centres are rounded to whole minutes (up to ~0.7 NM per axis)
QLINE_FACTOR = 1.5  # a geometry reaching beyond 1.5x the Q radius (+ slack) is "far outside"
QLINE_UNLIMITED_NM = 999  # radius 999 means "not stated / whole FIR": no check

PLAUSIBLE_LIMIT_FT = (-1_500.0, 1_000_000.0)
PLAUSIBLE_RADIUS_M = (1.0, 1_000 * NM_TO_M)
PLAUSIBLE_YEARS = (1990, 2100)

_AGL_FAMILY = {"AGL"}
_MSL_FAMILY = {"AMSL", "FL"}


def haversine_m(a: tuple[float, float], b: tuple[float, float]) -> float:
    """Great-circle distance between two (lat, lon) points in metres (spherical Earth; fine for a 100 m check)."""
    la1, lo1, la2, lo2 = map(math.radians, (a[0], a[1], b[0], b[1]))
    h = math.sin((la2 - la1) / 2) ** 2 + math.cos(la1) * math.cos(la2) * math.sin((lo2 - lo1) / 2) ** 2
    return 2 * EARTH_R_M * math.asin(min(1.0, math.sqrt(h)))


def _fmt(lim: Limit) -> str:
    return lim.raw or lim.ref


def _short(s: str, limit: int = 40) -> str:
    return s if len(s) <= limit else s[: limit - 1] + "…"


def _flat(pts: list[tuple[float, float]]) -> bool:
    """Whether a ring encloses no area at the 1e-7 degree (~1 cm) precision of the exports: every vertex within
    that distance of the line through the first vertex and the one farthest from it."""
    y0, x0 = pts[0]
    fy, fx = max(pts, key=lambda p: (p[0] - y0) ** 2 + (p[1] - x0) ** 2)
    dy, dx = fy - y0, fx - x0
    norm = math.hypot(dy, dx)
    return norm < 1e-7 or all(abs(dx * (y - y0) - dy * (x - x0)) / norm < 1e-7 for y, x in pts)


_EXC_AREA = re.compile(
    r"\bEXC(?:EPT|LUDING|L)?\.?\s+(?:FOR\s+)?(?:THE\s+)?(?:AREA|A\s+CIRCLE|CIRCLE|WI\b|SECTOR|AIRSPACE\s+(?:OVER|WI|WITHIN|OF)\b|"
    r"\d+(?:\.\d+)?\s?(?:NM|KM)\s+RADIUS|RADIUS|\d{4,6}[NS])",
    re.I,
)
_INTL_WATERS = re.compile(r"\bEXC\w*\.?\s+(?:THE\s+)?AIRSPACE\s+OVER\s+INTERNATIONAL\s+WATERS\b", re.I)
_INCOMPLETE = re.compile(r"\(?\bINCMPL\b|\bINCOMPLETE\s+(?:MESSAGE|NOTAM|TEXT)\b", re.I)
_COORDISH = re.compile(r"\d{4,6}(?:\.\d+)?\s?[NS]")
_EITHER_TEXT = re.compile(r"\b(?:EITHER|EACH|BOTH)\s+SIDES?\s+OF\b", re.I)
_SEMI = re.compile(r"\bSEMI-?\s?CIRCLE|\bHALF\s+CIRCLE|半圆|半圓", re.I)
_SECTOR = re.compile(r"\bSECTOR\b[^\n]{0,120}?\b(?:BRG|BEARINGS?|AZM|RADIUS)\b|扇形", re.I)


@dataclass(frozen=True)
class _TextFacts:
    """What the text checks look for in a whole message, found once per message text (not once per zone: a message
    of 500 circles would otherwise be read 500 times)."""

    coordish: tuple[re.Match, ...]  # coordinate-like numbers, in order
    coordish_starts: tuple[int, ...]
    incomplete: tuple[re.Match, ...]
    exc: tuple[re.Match, ...]
    unbuilt_corridor: bool  # a corridor phrase with no coordinates after it
    semi: bool
    sector: bool
    trigger: bool


@lru_cache(maxsize=64)
def _facts(text: str) -> _TextFacts:
    coordish = tuple(_COORDISH.finditer(text))
    return _TextFacts(
        coordish=coordish,
        coordish_starts=tuple(m.start() for m in coordish),
        incomplete=tuple(_INCOMPLETE.finditer(text)),
        exc=tuple(_EXC_AREA.finditer(text)),
        unbuilt_corridor=any(not _COORDISH.search(text, m.end(), m.end() + 80) for m in _EITHER_TEXT.finditer(text)),
        semi=_SEMI.search(text) is not None,
        sector=_SECTOR.search(text) is not None,
        trigger=_TRIGGER.search(text) is not None,
    )


def _coords_between(text: str, a: int, b: int) -> bool:
    """Whether a coordinate-like number lies in ``text[a:b]`` (``_COORDISH.search(text, a, b)``, from the message's
    matches found once; a number cut by ``a`` is searched for near ``a`` alone)."""
    f = _facts(text)
    i = bisect_left(f.coordish_starts, a)
    if i < len(f.coordish) and f.coordish[i].end() <= b:
        return True
    return _COORDISH.search(text, a, min(b, a + 64)) is not None


def _exc_is_this_zones(rec: ZoneRecord, m: re.Match) -> bool:
    """Whether an exclusion belongs to this zone: no other position lies between the zone's own geometry and it (in
    "A. 10 NMR OF c … B. 30 NMR OF c EXCLUDING … 10 NMR OF c" the exclusion is B's, not A's)."""
    geo = [rec.spans[k] for k in ("polygon", "center", "name") if k in rec.spans]
    if not geo:
        return True
    g0, g1 = min(s.start for s in geo), max(s.end for s in geo)
    if m.start() >= g1:
        return not _coords_between(rec.text, g1, m.start())
    return not _coords_between(rec.text, m.end(), g0)


def _check_text(rec: ZoneRecord) -> None:
    """Shapes the record cannot represent exactly: an excluded area (not subtracted) and a semicircle."""
    if rec.geometry is None:
        return
    facts = _facts(rec.text)
    geo = rec.spans.get("polygon") or rec.spans.get("center") or rec.spans.get("name")
    inc = next((m for m in facts.incomplete if m.start() >= geo.end), None) if geo is not None else None
    if inc is not None and not _coords_between(rec.text, geo.end, inc.start()):
        # the text breaks off after this zone's geometry (no other zone in between): its own limits and times
        # are missing, and the ones found may belong to another part of the message
        rec.review("the message is marked incomplete (INCMPL) after this zone; its limits and times may be "
                   "another part's")
    poly = rec.spans.get("polygon")
    cut = rec.spans.get("exclude")  # an inner circle already cut out of this circle (``inner_radius_m``)
    exc = [m for m in facts.exc if not (poly is not None and poly.start <= m.start() < poly.end)
           and not (cut is not None and cut.start <= m.start() < cut.end) and _exc_is_this_zones(rec, m)]
    if exc and all(_INTL_WATERS.match(rec.text, m.start()) for m in exc):
        rec.review("the message excludes the airspace over international waters (EXC …), which is not subtracted: "
                   "no territorial-sea boundary data is available offline")
    elif exc:  # (an exclusion inside the zone's own span was cut out when the shape was built)
        rec.review("the message excludes an area (EXC …) that is not subtracted from this zone")
    poly = rec.spans.get("polygon")
    built = rec.geometry.type == "polygon" and poly is not None and is_sector(poly.text)
    # a corridor followed by its line's coordinates is a zone of its own (the rules reader builds it); only one
    # that cannot be built (along a route by name) makes every other shape of the message an approximation
    if facts.unbuilt_corridor and not (poly is not None and _EITHER_TEXT.search(poly.text)):
        rec.review("the message describes a corridor (either side of a line) that this geometry is not")
    if built:
        for note in sector_notes(poly.text):  # bearings without a TRUE reference, magnetic, no arc direction
            rec.review(note)
    elif facts.semi:
        rec.review("the message describes a semicircle; this geometry only approximates it")
    elif facts.sector:
        rec.review("the message describes a sector that was not built; this geometry only approximates it")


def _check_limits(rec: ZoneRecord) -> None:
    lo, hi = rec.lower, rec.upper
    if hi is None and rec.geometry is not None:
        rec.review("no upper limit stated")
    if lo is not None and lo.ref == "UNL":
        rec.review(f"lower limit is unlimited ({_fmt(lo)})")
    if hi is not None and hi.ref == "UNL" and re.search(r"F(?:L|LIGHT\s+LEVEL)?\s*\(?\s*999\b", hi.raw, re.I):
        rec.review(f"upper limit {_short(_fmt(hi))}: read as unlimited (999 is the code for no upper limit), not as "
                   "flight level 999 (99,900 ft)")
    lo_ft, hi_ft = PLAUSIBLE_LIMIT_FT
    for name, lim in (("lower", lo), ("upper", hi)):
        if lim is None or lim.ft is None:
            continue
        if not (math.isfinite(lim.ft) and lo_ft <= lim.ft <= hi_ft):
            rec.review(f"{name} limit {_short(_fmt(lim))} is outside the plausible range {lo_ft:,.0f} ft to "
                       f"{hi_ft:,.0f} ft")
        elif lim.ref == "AGL" and lim.ft < 0:
            rec.review(f"{name} limit {_short(_fmt(lim))} is a negative height above ground")
    if lo is None or hi is None or hi.ref == "UNL" or lo.ft is None or hi.ft is None:
        return
    if lo.ref in ("SFC", "GND"):
        if hi.ft <= 0:
            rec.review(f"upper limit {_fmt(hi)} is not above the lower limit {_fmt(lo)}")
        return
    if (why := limits_conflict(lo, hi)) is not None:
        rec.review(why)
        return
    same = (lo.ref in _AGL_FAMILY and hi.ref in _AGL_FAMILY) or (lo.ref in _MSL_FAMILY and hi.ref in _MSL_FAMILY)
    if not same:
        rec.reasons.append(f"note: lower {_fmt(lo)} and upper {_fmt(hi)} use different references; compared only "
                           "where the ground is at sea level")


@lru_cache(maxsize=4096)
def _q_coord(text: str) -> tuple[float, float] | None:
    from airspace.parser.coords import parse_coord

    try:
        return parse_coord(text)
    except ValueError:
        return None


def _check_geometry(rec: ZoneRecord, header: Header | None) -> None:
    g = rec.geometry
    if g is None:
        if rec.notam_type != "C" and not rec.reasons:
            rec.review("no zone geometry found")
        return
    pts: list[tuple[float, float]] = []
    if g.type == "circle":
        pts = [g.center]
        if "name" in rec.spans and "center" in rec.spans:  # "A CIRCLE OF 10 NM AROUND THE LAUNCHER" + one position
            rec.review(f"circle around {rec.spans['name'].text!r} centred on {rec.spans['center'].text}, the only "
                       "other position the message gives; check that it is that object's")
        if not (g.radius_m > 0 and math.isfinite(g.radius_m)):
            rec.review("no radius stated: a point (obstacle?) without lateral extent")
        elif not PLAUSIBLE_RADIUS_M[0] <= g.radius_m <= PLAUSIBLE_RADIUS_M[1]:
            stated = rec.spans["radius"].text if "radius" in rec.spans else f"{g.radius_m:g} m"
            rec.review(f"radius {_short(stated)} ({g.radius_m:.4g} m) is outside the plausible range 1 m to "
                       "1,000 NM")
        if g.approximate and not any("approximate" in r or "coarse" in r for r in rec.reasons):
            rec.review("geometry is approximate (coarse Q-line circle or aerodrome reference point), not stated precisely")
    elif g.type == "polygon":
        pts = list(g.points)
        if len({(round(p[0], 7), round(p[1], 7)) for p in pts}) < 3:
            rec.review(f"polygon has fewer than 3 distinct points ({len(pts)})")
        elif _flat(pts):
            rec.review("polygon has no area (its points lie on one line)")
    elif g.type == "named":
        rec.review(g.unresolved_reason())
    for lat, lon in pts:
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            rec.review(f"coordinate ({lat}, {lon}) is out of range")
            return
    # coarse Q-line check: the precise geometry must lie roughly inside the Q-line circle
    q = header.qline if header else None
    if q is None or q.coord is None or q.radius_nm is None or q.radius_nm >= QLINE_UNLIMITED_NM or not pts:
        return
    if "center" in rec.spans and q.coord.start <= rec.spans["center"].start < q.coord.end + 4:
        return  # the geometry IS the Q-line circle
    qc = _q_coord(q.coord.text)
    if qc is None or qc == (0.0, 0.0):  # unreadable, or the 0000N00000E placeholder: no coarse check
        return
    reach = max(haversine_m(qc, p) for p in pts) + (g.radius_m if g.type == "circle" else 0.0)
    limit = q.radius_nm * NM_TO_M * QLINE_FACTOR + QLINE_SLACK_M
    if reach > limit:
        rec.review(
            f"geometry reaches {reach / NM_TO_M:.1f} NM from the Q-line centre {q.coord.text}, "
            f"outside its {q.radius_nm:g} NM circle"
        )


# ICAO Q-code subjects (second letter of the code) that are not airspace: an area found in such a notice (GNSS
# interference volumes, a navaid's coverage) is real, but not a restriction to fly around. (Aerodrome notices, F/M,
# do carry real restrictions: "AERODROME ALL UAS RESTRICTED FROM ENTERING AREA WITHIN THESE COORDINATES".)
_NOT_AIRSPACE = {"G": "GNSS", "N": "navaids", "I": "instrument landing aids", "C": "communications",
                 "L": "lighting"}


_TRIGGER = re.compile(r"\bTRIGGER\s+NOTAM\b", re.I)


def _check_subject(rec: ZoneRecord, header: Header | None) -> None:
    code = ((header.qline.code if header and header.qline else None) or "").strip().upper()
    if rec.geometry is not None and ((re.fullmatch(r"Q[A-Z]{4}", code) and code[3:] == "TT") or _facts(rec.text).trigger):
        rec.review("trigger NOTAM (announces an AIP supplement or amendment): the area is active only when and as "
                   "that publication or later NOTAMs say, not necessarily for the whole period")
    if rec.geometry is None or not re.fullmatch(r"Q[A-Z]{4}", code) or code[1] not in _NOT_AIRSPACE:
        return
    rec.review(f"the notice's subject is {_NOT_AIRSPACE[code[1]]} (Q-code {code}), not an airspace restriction; "
               "the area is where it applies")


_MONTH = r"(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)"
# an area headed by its own date ("APR 21  474700S / 1310000W ...", "21 APR: 4747S13100W ..."), right before it
_DATE_LABEL = re.compile(rf"(?:^|\s)(?:{_MONTH}\s+\d{{1,2}}|\d{{1,2}}\s+{_MONTH})\s*:?\s*$")


def _check_dated_area(rec: ZoneRecord, header: Header | None) -> None:
    """Areas that each carry their own date beside a D) item of several days: the record's period is the whole
    B)-C) and its windows every day of D), which is more than that area's own day."""
    geo = [rec.spans[k] for k in ("polygon", "center") if k in rec.spans]
    d = header.item("D") if header else None
    if not geo or d is None:
        return
    before = rec.text[max(0, geo[0].start - 24) : geo[0].start]
    m = _DATE_LABEL.search(before)
    if m is not None:
        rec.review(f"the area is headed by the date '{' '.join(m.group().split()).rstrip(':')}': only its own day of "
                   "the D) item applies to it; the record keeps the whole B)-C) period and every D) window")


def _check_times(rec: ZoneRecord, header: Header | None) -> None:
    lo_y, hi_y = PLAUSIBLE_YEARS
    for name, t in (("start", rec.start), ("end", rec.end)):
        if t is not None and not lo_y <= t.year <= hi_y:
            rec.review(f"{name} {t.year:04d}-{t.month:02d}-{t.day:02d} is outside the plausible years {lo_y}-{hi_y}")
    if rec.start is not None and rec.end is not None and rec.start >= rec.end:
        rec.review(f"start {rec.start:%Y-%m-%d %H:%M} is not before end {rec.end:%Y-%m-%d %H:%M}")
    if rec.end_estimated:
        rec.review("end time is estimated (EST)")
    if (w := rec.spans.get("windows")) is not None:  # (``parser.rules.navwarn``: alternates, then a daily window)
        said = _short(shown(" ".join(w.text.split())), 60)
        rec.review(f"the windows '{said}' are not all at the daily window's hours: shown active from the first start "
                   "to the end of the last day")
    if rec.geometry is not None:
        if rec.start is None:
            rec.review("no start time found")
        if rec.end is None and not rec.permanent:
            rec.review("no end time found")
    if rec.schedule and not rec.windows and rec.start is not None and rec.end is not None:
        rec.review(f"schedule {rec.schedule!r} gave no active window inside start-end")
    if rec.schedule and (note := holiday_note(rec.schedule)) is not None:
        rec.review(note)  # holidays are unknowable: the windows are a superset of the true activity


def _check_grounding(rec: ZoneRecord) -> None:
    text = rec.text
    for key, sp in rec.spans.items():
        ok = 0 <= sp.start <= sp.end <= len(text) and text[sp.start : sp.end] == sp.text
        if not ok:
            rec.review(f"{key} value {sp.text[:40]!r} is not where its span says in the message")
        elif (whole := cut_number(text, sp.start, sp.end)) is not None:
            rec.review(f"{key} value {sp.text[:40]!r} cuts the number {whole!r} of the message")
    # one distance read as the radius and as a limit ("c / 1700 FT up to 3,000 feet AGL", "radius 9990 m - up to
    # UNL"): the words say one of them, and which the reading cannot tell
    r = rec.spans.get("radius")
    for key in ("lower", "upper"):
        sp = rec.spans.get(key)
        if r is not None and sp is not None and sp.start < r.end and r.start < sp.end:
            rec.review(f"'{r.text[:40]}' is read both as the radius and as the {key} limit: it is one of them")


def same_limit(a: Limit | None, b: Limit | None) -> bool:
    """Two limits alike: one reference and (within half a foot) one height; unlimited only as unlimited."""
    if a is None or b is None:
        return a is None and b is None
    if a.ft is None or b.ft is None:
        return a.ref == b.ref and a.ft is None and b.ft is None
    return a.ref == b.ref and abs(a.ft - b.ft) < 0.5


DISAGREE = "engine and rules disagree on "  # (a cross-check reason: the field named after it)


def _cross_check(rec: ZoneRecord, rules: ZoneRecord) -> None:
    g, r = rec.geometry, rules.geometry
    diffs = []
    if (g is None) != (r is None) or (g is not None and r is not None and g.type != r.type):
        diffs.append(f"geometry ({g.type if g else 'none'} vs rules {r.type if r else 'none'})")
    elif g is not None and r is not None and not getattr(r, "approximate", False):
        if g.type == "circle":
            if haversine_m(g.center, r.center) > CROSS_CHECK_CENTRE_M:
                diffs.append("centre")
            if abs(g.radius_m - r.radius_m) > 0.5:
                diffs.append("radius")
        elif g.type == "polygon":
            if len(g.points) != len(r.points) or any(
                haversine_m(p, q) > CROSS_CHECK_CENTRE_M for p, q in zip(g.points, r.points)
            ):
                diffs.append("polygon")
        elif g.type == "named" and g.name.strip() != r.name.strip():
            diffs.append("name")
    for f in ("lower", "upper"):
        if not same_limit(getattr(rec, f), getattr(rules, f)):
            diffs.append(f)
    for f in ("start", "end"):
        if getattr(rec, f) != getattr(rules, f):
            diffs.append(f)
    for f in diffs:
        rec.review(f"{DISAGREE}{f}")


# ---------------------------------------------------------------------------------------------------------------
# a message that contradicts itself: each is review, both readings named

QLINE_SLACK_FT = 1_000.0  # item Q rounds its limits outwards to whole flight levels; beyond this it contradicts
_DEPTH_FT = 1_400.0  # the lowest ground (the Dead Sea shore): a height above ground is at least this far above sea


def _sea_ft(lim: Limit | None) -> float | None:
    """A limit's feet above sea level (FL as its pressure-altitude feet), or None where the terrain decides."""
    if lim is None or lim.ft is None or lim.ref not in ("AMSL", "FL"):
        return None
    return lim.ft


def _in_item(header: Header, letters: str, sp) -> bool:
    return sp is not None and any((it := header.item(x)) is not None and it.span.start <= sp.start < it.span.end + 1
                                  for x in letters)


def _check_qline_limits(rec: ZoneRecord, header: Header | None) -> None:
    """Item Q's lower/upper flight levels against the limits the message states (F) and G), or item E)): the Q-line
    rounds outwards and spans every area of the notice, so its lower is at or below each floor and its upper at or
    above each ceiling; a difference beyond that rounding (``000/010`` against ``FL200``-``FL300``) is the message
    contradicting itself."""
    q = header.qline if header else None
    if q is None:
        return
    for key, field, sign in (("lower", q.lower, 1), ("upper", q.upper, -1)):
        lim, sp = getattr(rec, key), rec.spans.get(key)
        if lim is None or field is None or not re.fullmatch(r"\d{3}", field) or sp is None \
                or q.raw.start <= sp.start < q.raw.end:
            continue  # (a limit read from the Q-line itself is item Q's own reading)
        qft = int(field) * 100.0
        if key == "upper" and field == "999":
            continue  # unlimited
        ft = _sea_ft(lim)
        if ft is None and lim.ref in ("SFC", "GND", "AGL") and key == "upper" and lim.ft is not None:
            ft = lim.ft - _DEPTH_FT  # a ceiling above ground is at least this high above sea level
            if qft < ft - QLINE_SLACK_FT:
                rec.review(f"the Q-line's upper limit {field} (FL{field}) is below the upper limit {_fmt(lim)} the "
                           "message states, over any ground: the message contradicts itself")
            continue
        if ft is None:
            continue
        if sign * (qft - ft) > QLINE_SLACK_FT:
            rec.review(f"the Q-line's {key} limit {field} (FL{field}, {qft:,.0f} ft) contradicts the {key} limit "
                       f"{_fmt(lim)} ({ft:,.0f} ft) the message states")


_E_LIMIT = (r"(?:SFC|GND|FL\s?\d{2,3}|\d{1,3}(?:,\d{3})+\s?(?:FT|M)\b(?:\s?(?:AMSL|MSL|AGL))?|"
            r"\d+\s?(?:FT|M)\b(?:\s?(?:AMSL|MSL|AGL))?)")
_E_RANGE = re.compile(rf"(?<![\w/]){_E_LIMIT}\s*(?:-|TO|UP\s+TO)\s*(?:{_E_LIMIT}|UNL\b)", re.I)


def _check_e_limits(rec: ZoneRecord, header: Header | None) -> None:
    """Limits stated in item E) as pairs (``SFC-5000FT AMSL``) that the F)/G) items the record was read from
    contradict (``G) 1000FT AMSL``). F) and G) are the envelope of every pair E) states (a notice activating
    several areas gives each its own pair), so the record's lower is compared with the lowest E) lower and its
    upper with the highest E) upper, each within one reference family: a restatement in the other reference
    (``400FT AGL`` in E, ``1500FT AMSL`` in G) is not a contradiction."""
    e = header.item("E") if header else None
    if e is None:
        return
    from airspace.parser.units import parse_limit_range

    pairs = []
    for m in _E_RANGE.finditer(rec.text, e.span.start, e.span.end):
        try:
            pairs.append((" ".join(m.group().split()), *parse_limit_range(m.group())))
        except ValueError:
            continue
    for key, item in (("lower", "F"), ("upper", "G")):
        mine = getattr(rec, key)
        if mine is None or mine.ref == "UNL":
            continue
        if not _in_item(header, item, rec.spans.get(key)) and not _item_states(header, item, mine):
            _check_beyond_item(rec, header, key, item, mine)
            continue
        fam = _FAMILY_OF.get(mine.ref)
        said = [(txt, lim) for txt, lo, hi in pairs for lim in [lo if key == "lower" else hi]
                if _FAMILY_OF.get(lim.ref) == fam or (key == "upper" and "unl" in (fam, _FAMILY_OF.get(lim.ref)))]
        if not said:
            continue
        def feet(lim: Limit) -> float:
            return math.inf if lim.ref == "UNL" else (0.0 if lim.ref in ("SFC", "GND") else (lim.ft or 0.0))
        txt, edge = (min if key == "lower" else max)(said, key=lambda x: feet(x[1]))
        if abs(feet(edge) - feet(mine)) > 0.5 and not (math.isinf(feet(edge)) and math.isinf(feet(mine))):
            rec.review(f"item E) states the {key} limit as {edge.raw or edge.ref} ('{txt}') while item {item}) "
                       f"states {_fmt(mine)}: the message contradicts itself")


def _item_states(header: Header, item: str, mine: Limit) -> bool:
    """Item F)/G) states the record's limit (read where E) repeats it: ``VERTICAL LIMITS: SFC TO FL660``): the
    record's limit is F)/G)'s, and E)'s pairs are compared with it."""
    from airspace.parser.units import parse_limit

    it = header.item(item)
    try:
        return it is not None and same_limit(mine, parse_limit(it.text))
    except ValueError:
        return False


def _check_beyond_item(rec: ZoneRecord, header: Header, key: str, item: str, mine: Limit) -> None:
    """A limit read from item E) (or elsewhere) beyond what item F)/G) states, in one reference family: F) and G)
    are the envelope of the notice's limits, so a floor below F) or a ceiling above G) is the message contradicting
    itself (``E) ACTIVE SFC-68000FT AMSL`` with ``G) 66000FT AMSL``)."""
    from airspace.parser.units import parse_limit

    it = header.item(item)
    if it is None:
        return
    try:
        stated = parse_limit(it.text)
    except ValueError:
        return
    if stated.ref == "UNL" or _FAMILY_OF.get(stated.ref) != _FAMILY_OF.get(mine.ref):
        return
    def feet(lim: Limit) -> float:
        return 0.0 if lim.ref in ("SFC", "GND") else (lim.ft or 0.0)
    beyond = feet(mine) > feet(stated) + 0.5 if key == "upper" else feet(mine) < feet(stated) - 0.5
    if beyond:
        rec.review(f"the zone's {key} limit {_fmt(mine)} lies beyond item {item}) ({_fmt(stated)}), which bounds "
                   "every limit of the notice: the message contradicts itself")


_FAMILY_OF = {"SFC": "ground", "GND": "ground", "AGL": "ground", "AMSL": "sea", "FL": "sea", "UNL": "unl"}

_DIST_TEXT = r"(?:\d+(?:\.\d+)?|\.\d+)\s?(?:NM|KM|M|SM)\b"
_AMENDED = re.compile(
    r"\b(?P<what>RADIUS|RAD|UPPER\s+LIMIT|CEILING|LOWER\s+LIMIT|FLOOR)\s+(?:IS\s+|HAS\s+BEEN\s+|WILL\s+BE\s+)?"
    r"(?:INCREASED|DECREASED|REDUCED|EXTENDED|ENLARGED|EXPANDED|AMENDED|CHANGED|REVISED|RAISED|LOWERED|CORRECTED)\s+"
    r"TO\s+(?P<v>" + _DIST_TEXT + "|" + _E_LIMIT + r"|UNL\b)", re.I)


def _check_amendments(rec: ZoneRecord) -> None:
    """A message that changes its own value further on (``... 2NM RADIUS ... RADIUS INCREASED TO 5NM``): the
    record keeps the reading it was built from, review with both readings."""
    from airspace.parser.units import parse_distance_m, parse_limit

    for m in _AMENDED.finditer(rec.text):
        what = " ".join(m.group("what").upper().split())
        said = " ".join(m.group("v").split())
        g = rec.geometry
        try:
            if what in ("RADIUS", "RAD"):
                if not isinstance(g, CircleGeometry):
                    continue
                if abs(parse_distance_m(said) - g.radius_m) > 0.5:
                    rec.review(f"the message says '{' '.join(m.group().split())}' after the zone's radius "
                               f"{_short(rec.spans['radius'].text) if 'radius' in rec.spans else f'{g.radius_m:g} m'}"
                               f" ({g.radius_m / NM_TO_M:g} NM): two readings of the radius")
                continue
            key = "upper" if what in ("UPPER LIMIT", "CEILING") else "lower"
            mine = getattr(rec, key)
            if not same_limit(mine, parse_limit(said)):
                rec.review(f"the message says '{' '.join(m.group().split())}' while the zone's {key} limit is "
                           f"{_fmt(mine) if mine else 'not stated'}: two readings of the {key} limit")
        except ValueError:
            continue


def _check_local_times(rec: ZoneRecord) -> None:
    """Times the message marks as local (``1800-2200 LOCAL``) that the record did not place in UTC with the zone's
    time zone (``normalize._local_offset`` does that for the schedule): read as UTC they would be hours off."""
    if rec.geometry is None or not re.search(r"\b(?:LOCAL|LCL|LT)\b", rec.text, re.I):
        return
    sp = rec.spans.get("schedule")
    for m in LOCAL_MARK.finditer(rec.text):
        if sp is not None and sp.start <= m.start("times") and m.end("times") <= sp.end:
            continue  # the schedule: placed with the zone's time zone, or review already
        rec.review(f"the message gives the times '{' '.join(m.group().split())}' in local time, which this record "
                   "does not apply: its times are UTC")


def note_damage(rec: ZoneRecord) -> None:
    """A number of the message with a damaged character in it (``textnorm.damaged_numbers``) that no value of the
    record was read from may still be one of its values (a coordinate the reader could not find, a limit left
    out): the record is review, the number named."""
    for s, e in damaged_numbers(rec.text)[:3]:
        token = shown(rec.text[s:e])[:60]
        if not any(f"'{token}'" in r for r in rec.reasons):
            rec.review(f"the message has a number with a damaged character in it, '{token}' (a control or "
                       "undecodable character stands for a lost digit or sign): unreadable, and it may be one of "
                       "this zone's values")


def validate(rec: ZoneRecord, header: Header | None, *, rules_rec: ZoneRecord | None = None) -> ZoneRecord:
    """Run every check on ``rec`` (in place) and return it. Error records are returned unchanged."""
    if rec.status == "error":
        return rec
    if rec.notam_type == "C" and rec.geometry is None:
        return rec  # a cancellation: nothing to check
    _check_grounding(rec)
    _check_geometry(rec, header)
    _check_limits(rec)
    _check_text(rec)
    _check_subject(rec, header)
    _check_times(rec, header)
    _check_dated_area(rec, header)
    _check_qline_limits(rec, header)
    _check_e_limits(rec, header)
    check_periods(rec)
    _check_amendments(rec)
    _check_local_times(rec)
    note_damage(rec)
    if rules_rec is not None and rules_rec.status != "error":
        _cross_check(rec, rules_rec)
    return rec
