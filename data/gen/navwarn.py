"""Navigational warnings broadcast to ships and aircraft (NAVAREA IV / XII, HYDROPAC, HYDROLANT): a date-time group,
the series number, the sea area, then numbered paragraphs; a hazard (rocket launch, space debris, missile firing)
is given as one or more lettered areas, each a list of ``DD-MM.mmN DDD-MM.mmW`` points.

The zones are those areas' boundaries and periods, read as the rules reader reads them (``parser.rules.navwarn``):
day-time groups and their alternates (``261122Z TO 261604Z MAR, ALTERNATE …``) give the first group as the start and
the last as the end; a daily window over days (``0030Z TO 1000Z DAILY 14 THRU 20 APR``) the first day as the start,
the last as the end and the window as the schedule; the month and year they leave out come from the phrase and the
warning's stamps (``parser.partial_time``); ``IN PROGRESS UNTIL 25 APR`` states only an end, the whole day. No limits
are stated. A hazard area is a boundary (``IN AREA BOUND BY …``) or a circle (``WITHIN 150 MILES OF …``: a warning's
bare miles are nautical); positions are written to whole minutes or with their decimals (``28-30N``, ``28-30.5N``,
``28-30.00N``). A warning that only cancels others has no zone, and neither has one about a hazard to surface
navigation alone (a wreck, a shoal, a buoy adrift, an unlit light, a station off air): the airspace above it is free.
"""

from __future__ import annotations

import random
from datetime import timedelta

from . import values as V
from .base import Doc, Example, circle, polygon, zone
from .icao import _poly_points

# (series, sea areas, a point inside them)
SERIES = [
    ("NAVAREA IV", ("NORTH ATLANTIC.", "FLORIDA."), 29.5, -78.0),
    ("NAVAREA IV", ("WESTERN NORTH ATLANTIC.", "VIRGINIA."), 37.0, -73.5),
    ("NAVAREA IV", ("GULF OF MEXICO.",), 26.0, -88.0),
    ("NAVAREA XII", ("NORTH PACIFIC.", "CALIFORNIA"), 32.5, -121.5),
    ("NAVAREA XII", ("EASTERN NORTH PACIFIC.", "HAWAII."), 21.0, -158.0),
    ("HYDROPAC", ("SOUTH PACIFIC.", "DNC 06."), -40.0, -158.0),
    ("HYDROPAC", ("CORAL SEA.", "PAPUA NEW GUINEA."), -13.5, 153.5),
    ("HYDROPAC", ("EASTERN INDIAN OCEAN.", "SOUTH PACIFIC.", "TASMAN SEA.", "DNC 03, DNC 04, DNC 05."), -47.0, 120.0),
    ("HYDROPAC", ("SOUTH CHINA SEA.", "DNC 11."), 15.0, 114.0),
    ("HYDROPAC", ("WESTERN NORTH PACIFIC.", "JAPAN."), 30.0, 135.0),
    ("HYDROLANT", ("SOUTH ATLANTIC.", "DNC 01."), -20.0, -30.0),
    ("HYDROLANT", ("EASTERN NORTH ATLANTIC.", "DNC 08."), 45.0, -20.0),
]
TEMPLATES = {"warning": "polygon", "warning_circle": "circle", "warning_surface": "none"}
HAZARDS = ("HAZARDOUS OPERATIONS, ROCKET LAUNCHING", "HAZARDOUS OPERATIONS, SPACE DEBRIS",
           "HAZARDOUS OPERATIONS, MISSILE FIRING", "HAZARDOUS OPERATIONS, AIRCRAFT AND SHIPS",
           "GUNNERY EXERCISES", "ROCKET LAUNCHING")


def _dtg(t) -> str:
    return f"{t.day:02d}{t.hour:02d}{t.minute:02d}Z"


def _mon(t) -> str:
    return V.MONTHS[t.month - 1]


def _stamp(t) -> str:
    """A full date-time group, ``201341Z MAR 26``: the issue time, and the time the warning cancels itself."""
    return f"{_dtg(t)} {_mon(t)} {t.year % 100:02d}"


def _whole_day(t, last: bool) -> str:
    return V.iso(t.replace(hour=23, minute=59) if last else t.replace(hour=0, minute=0))


def _window(rng: random.Random, start, hours: float) -> tuple[list[tuple[str, str | None]], dict]:
    """The hazard's time as parts (text, the field it is or None): one window and alternates, a daily window (its
    days in one month, across months, or two days), days alone, or in progress until a day; and the gold period it
    states (``start``/``end`` ISO, ``schedule``)."""
    length = timedelta(minutes=int(hours * 60))  # day-time groups state whole minutes
    end = start + length
    form = rng.choice(("one", "alternate", "alternate", "daily", "daily", "daily_months", "days", "until"))
    if form == "one":
        return [(_dtg(start), "start"), (" TO ", None), (f"{_dtg(end)} {_mon(end)}", "end")], \
            {"start": V.iso(start), "end": V.iso(end)}
    if form == "until":  # no start written; the end is the whole day
        until = start + timedelta(days=rng.randint(3, 9))
        return [("IN PROGRESS UNTIL ", None), (f"{until.day:02d} {_mon(until)}", "end")], \
            {"end": _whole_day(until, True)}
    if form == "days":  # whole days: "12 THRU 25 APR", "18 AND 19 APR"
        last = start + timedelta(days=rng.randint(1, 9))
        word = " AND " if last.day == start.day + 1 and rng.random() < 0.6 else rng.choice((" THRU ", " THROUGH "))
        return [(f"{start.day}", "start"), (word, None), (f"{last.day} {_mon(last)}", "end")], \
            {"start": _whole_day(start, False), "end": _whole_day(last, True)}
    if form in ("daily", "daily_months"):
        across = form == "daily_months"
        last = start + timedelta(days=rng.randint(10, 30) if across else rng.randint(1, 8))
        last_end = last.replace(hour=end.hour, minute=end.minute) + timedelta(days=(end.date() - start.date()).days)
        clock = f"{start.hour:02d}{start.minute:02d}Z TO {end.hour:02d}{end.minute:02d}Z"
        first = f"{start.day:02d} {_mon(start)}" if across else f"{start.day}"
        word = " AND " if last.day == start.day + 1 and not across and rng.random() < 0.5 else " THRU "
        lead = rng.choice((" DAILY ", " DAILY ", " COMMENCING DAILY "))
        return [(clock, "schedule"), (lead, None), (first, "start"), (word, None),
                (f"{last.day:02d} {_mon(last)}" if across else f"{last.day} {_mon(last)}", "end")], \
            {"start": V.iso(start), "end": V.iso(last_end), "schedule": clock}
    alts = []
    last_end = end
    for k in range(1, rng.randint(2, 6)):
        s = start + timedelta(days=k, minutes=-rng.randint(15, 25) * k)
        last_end = s + length
        alts.append((_dtg(s), _dtg(last_end)))
    parts: list[tuple[str, str | None]] = [(_dtg(start), "start"), (f" TO {_dtg(end)} {_mon(end)}, ALTERNATE\n   ", None)]
    for k, (a, b) in enumerate(alts):
        parts.append((f"{', ' if k else ''}{a} TO ", None))
        parts.append((f"{b} {_mon(last_end)}" if k == len(alts) - 1 else b, "end" if k == len(alts) - 1 else None))
    return parts, {"start": V.iso(start), "end": V.iso(last_end)}


def _add_window(doc: Doc, parts: list[tuple[str, str | None]], zones: list[int]) -> None:
    for text, name in parts:
        if name is None:
            doc.add(text)
        else:
            doc.field(text, zones, name)


def _pos(lat: float, lon: float, decimals: int) -> tuple[str, tuple[float, float]]:
    """``28-30N 080-33W``, ``28-30.5N 080-33.2W`` or ``28-30.50N 080-33.20W`` and the exact point it denotes."""
    def part(v: float, width: int, hemi: str) -> tuple[str, float]:
        a = abs(v)
        d, m = int(a), round((a - int(a)) * 60, decimals)
        if m >= 60:
            d, m = d + 1, 0.0
        mt = f"{m:0{3 + decimals}.{decimals}f}" if decimals else f"{int(m):02d}"
        return f"{d:0{width}d}-{mt}{hemi}", d + m / 60

    lt, la = part(lat, 2, "N" if lat >= 0 else "S")
    ln, lo = part(lon, 3, "E" if lon >= 0 else "W")
    return f"{lt} {ln}", (round(la if lat >= 0 else -la, 8), round(lo if lon >= 0 else -lo, 8))


def _area(rng: random.Random, doc: Doc, z: int, lat: float, lon: float, indent: str, decimals: int) -> dict:
    """One boundary tagged as zone ``z``'s polygon: points parted by commas, wrapped every two or three, sometimes
    closed on its first point (the gold ring leaves the repeat out)."""
    size = rng.uniform(20, 600)
    pts = _poly_points(rng, lat, lon, size, rng.randint(4, 10))
    texts, gold = [], []
    for p in pts:
        t, g = _pos(p[0], p[1], decimals)
        if g not in gold:
            texts.append(t)
            gold.append(g)
    if rng.random() < 0.3:
        texts.append(texts[0])
    per_line = rng.choice((2, 2, 3))
    for i, t in enumerate(texts):
        if i:
            doc.add("," + ("\n" + indent if i % per_line == 0 else " "), (z, "polygon"))
        doc.add(t, (z, "polygon"))
    doc.add(".")
    return polygon(gold)


RADII_NM = (0.5, 1, 2, 2, 3, 5, 5, 10, 15, 20, 25, 50, 100, 150, 200)


def _circle(rng: random.Random, doc: Doc, z: int, lat: float, lon: float, decimals: int, lead: bool) -> dict:
    """``WITHIN 150 MILES OF 28-30.0N 080-33.0W.``: the radius and centre tagged as zone ``z``'s."""
    nm = rng.choice(RADII_NM)
    num = f"{nm:g}"
    unit = rng.choice((" MILES", " MILES", " NAUTICAL MILES", "NM", " NM")) if nm != 1 else rng.choice((" MILE", "NM"))
    text, centre = _pos(lat, lon, decimals)
    doc.add("IN AREA WITHIN " if lead else "WITHIN ")
    doc.field(num + unit, z, "radius")
    doc.add(" OF ")
    doc.field(text, z, "center")
    doc.add(".")
    return circle(centre, nm * V.NM_M)


def _head(rng: random.Random, seas: tuple[str, ...], issued, num: str) -> Doc:
    charts = rng.choice(("", "", f"({rng.randint(11, 99)})", f"({rng.randint(11, 60)},{rng.randint(61, 99)})"))
    d = Doc()
    if rng.random() < 0.4:  # some feeds put the number before the date-time group
        d.add(f"{num} ")
    d.add(f"{_stamp(issued)}\n{num}{charts}.\n" + "\n".join(seas) + "\n")
    return d


def _cancels_other(rng: random.Random, d: Doc, series: str, yy: str) -> int:
    """Item 2 cancelling an earlier warning, sometimes; the number of the item that follows."""
    if rng.random() < 0.4:
        d.add(f"2. CANCEL {series} {rng.randint(1, 999)}/{yy}.\n")
        return 3
    return 2


def _start(rng: random.Random):
    start = V.sample_start(rng, 1)
    # the days of a period stay in one month unless the phrase writes both months, and the stamps the year comes
    # from lie in the period's year
    return start.replace(month=min(start.month, 11), day=11 + start.day % 9)


def navwarn(rng: random.Random, circle_share: float = 0.0) -> Example:
    series, seas, lat, lon = rng.choice(SERIES)
    start = _start(rng)
    issued = start - timedelta(days=rng.randint(2, 10), minutes=rng.randint(0, 1440))
    yy = f"{start.year % 100:02d}"
    num = f"{series} {rng.randint(1, 999)}/{yy}"
    d = _head(rng, seas, issued, num)
    # (after the longest period, and never at a day-time group of the period itself)
    cancel_end = f"CANCEL THIS MSG {_stamp(start + timedelta(days=rng.randint(31, 33), hours=rng.randint(1, 6)))}."
    gold = []
    if rng.random() < 0.15:  # a warning that only cancels others
        d.add(f"1. CANCEL {series} {rng.randint(1, 999)}/{yy}.\n2. {cancel_end}")
        return Example(d, gold, "en")
    n = rng.choice((1, 1, 1, 2, 2, 3))
    hours = rng.uniform(0.4, 8)
    decimals = rng.choice((0, 1, 2, 2))
    circles = [rng.random() < circle_share for _ in range(n)]
    d.add(f"1. {rng.choice(HAZARDS)}{rng.choice(('', ':'))}\n")
    per_area_times = n > 1 and rng.random() < 0.35
    period: dict = {}
    if not per_area_times:
        parts, period = _window(rng, start, hours)
        d.add("   ")
        _add_window(d, parts, list(range(n)))
        if any(circles):
            d.add("\n   IN AREAS:\n" if n > 1 else "\n   ")
        else:
            d.add(f"\n   IN {'AREAS' if n > 1 else 'AREA'} BOUND BY{rng.choice(('', ':'))}\n")
    for z in range(n):
        indent = "      " if n > 1 else "   "
        if n > 1:
            d.add(f"   {'ABC'[z]}. ")
            if per_area_times:
                # (each area on its own day and clock: no two areas write the same group or day)
                parts, period = _window(rng, start + timedelta(days=z, hours=3 * z), hours)
                _add_window(d, parts, [z])
                d.add(f"\n{indent}" if circles[z] else f"\n{indent}IN AREA BOUND BY\n{indent}")
        elif not any(circles):
            d.add("   ")
        alat, alon = V.near(rng, lat, lon, 400)
        if circles[z]:
            geometry = _circle(rng, d, z, alat, alon, decimals, lead=n == 1 or per_area_times)
        else:
            geometry = _area(rng, d, z, alat, alon, indent, decimals)
        gold.append(zone(geometry, None, None, period.get("start"), period.get("end"), period.get("schedule")))
        d.add("\n")
    d.add(f"{_cancels_other(rng, d, series, yy)}. {cancel_end}")
    return Example(d, gold, "en")


# hazards to surface navigation alone: the airspace above them is free, so such a warning defines no zone
BUOYS = ("CHARLESTON", "SAVANNAH", "TAMPA BAY", "GALVESTON", "HAMPTON ROADS", "APRA HARBOR", "OKINAWA")
SURFACE = (
    "DANGEROUS WRECK LOCATED IN {p}.",
    "WRECK REPORTED IN {p}.",
    "SHOAL REPORTED IN {p}.",
    "DEPTHS LESS THAN CHARTED REPORTED IN {p}.",
    "{b} LIGHTED BUOY {n} ADRIFT IN VICINITY {p}.",
    "{b} LIGHTED BUOY {n}, {p}, MISSING.",
    "{b} LIGHT, {p}, UNLIT.",
    "DERELICT FISHING VESSEL ADRIFT IN {p} AT {t}.",
    "SUBMERGED CONTAINER REPORTED ADRIFT IN {p} AT {t}.",
    "NAVTEX STATION {b} ({i}) OFF AIR.",
    "DGPS STATION {b} OFF AIR.",
)


def surface(rng: random.Random) -> Example:
    """A warning about a hazard to ships alone (a wreck, a shoal, a buoy, a light, a station off air): no zone."""
    series, seas, lat, lon = rng.choice(SERIES)
    start = _start(rng)
    yy = f"{start.year % 100:02d}"
    num = f"{series} {rng.randint(1, 999)}/{yy}"
    d = _head(rng, seas, start, num)
    p, _ = _pos(*V.near(rng, lat, lon, 300), rng.choice((0, 1, 2)))
    form = rng.choice(SURFACE)
    said = form.format(p=p, b=rng.choice(BUOYS), n=rng.randint(1, 40), i="ABCDEFGHIJKLMNOPQRSTUVWX"[
        rng.randint(0, 23)], t=f"{_dtg(start)} {_mon(start)}")
    if "{p}" in form and rng.random() < 0.3:
        said += rng.choice(("\n   WIDE BERTH REQUESTED.", "\n   MARINERS ADVISED TO USE CAUTION."))
    if rng.random() < 0.25:  # a short NAVTEX copy: one sentence, no numbered items
        d.add(said + "\n")
        return Example(d, [], "en")
    d.add(f"1. {said}\n")
    k = _cancels_other(rng, d, series, yy)
    if rng.random() < 0.7:
        d.add(f"{k}. CANCEL THIS MSG {_stamp(start + timedelta(days=rng.randint(10, 12)))}.")
    return Example(d, [], "en")


def generate(rng: random.Random, template: str) -> Example:
    if template == "warning":
        return navwarn(rng, circle_share=0.2)
    if template == "warning_circle":
        return navwarn(rng, circle_share=1.0)
    if template == "warning_surface":
        return surface(rng)
    raise ValueError(f"unknown navwarn template {template}")
