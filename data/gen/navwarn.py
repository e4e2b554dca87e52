"""Navigational warnings broadcast to ships and aircraft (NAVAREA IV / XII, HYDROPAC, HYDROLANT): a date-time group,
the series number, the sea area, then numbered paragraphs; a hazard (rocket launch, space debris, missile firing)
is given as one or more lettered areas, each a list of ``DD-MM.mmN DDD-MM.mmW`` points.

The zones are those areas' boundaries and periods, read as the rules reader reads them (``parser.rules.navwarn``):
day-time groups and their alternates (``261122Z TO 261604Z MAR, ALTERNATE …``) give the first group as the start and
the last as the end; a daily window over days (``0030Z TO 1000Z DAILY 14 THRU 20 APR``) the first day as the start,
the last as the end and the window as the schedule; the month and year they leave out come from the phrase and the
warning's stamps (``parser.partial_time``); ``IN PROGRESS UNTIL 25 APR`` states only an end, the whole day. No limits
are stated. A warning that only cancels others has no zone.
"""

from __future__ import annotations

import random
from datetime import timedelta

from . import values as V
from .base import Doc, Example, polygon, zone
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
TEMPLATES = {"warning": "polygon"}
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


def _window(rng: random.Random, start, hours: float) -> tuple[list[tuple[str, str | None]], dict]:
    """The hazard's time as parts (text, the field it is or None): one window and alternates, a daily window, or in
    progress until a day; and the gold period it states (``start``/``end`` ISO, ``schedule``)."""
    length = timedelta(minutes=int(hours * 60))  # day-time groups state whole minutes
    end = start + length
    form = rng.choice(("one", "alternate", "alternate", "daily", "until"))
    if form == "one":
        return [(_dtg(start), "start"), (" TO ", None), (f"{_dtg(end)} {_mon(end)}", "end")], \
            {"start": V.iso(start), "end": V.iso(end)}
    if form == "until":  # no start written; the end is the whole day
        until = start + timedelta(days=rng.randint(3, 9))
        return [("IN PROGRESS UNTIL ", None), (f"{until.day:02d} {_mon(until)}", "end")], \
            {"end": V.iso(until.replace(hour=23, minute=59))}
    if form == "daily":
        last = start + timedelta(days=rng.randint(3, 8))
        last_end = last.replace(hour=end.hour, minute=end.minute) + timedelta(days=(end.date() - start.date()).days)
        clock = f"{start.hour:02d}{start.minute:02d}Z TO {end.hour:02d}{end.minute:02d}Z"
        return [(clock, "schedule"), (" DAILY ", None), (f"{start.day}", "start"), (" THRU ", None),
                (f"{last.day} {_mon(last)}", "end")], {"start": V.iso(start), "end": V.iso(last_end), "schedule": clock}
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


def _area(rng: random.Random, doc: Doc, z: int, lat: float, lon: float, indent: str) -> list[tuple[float, float]]:
    """One boundary tagged as zone ``z``'s polygon: points parted by commas, wrapped every two or three, sometimes
    closed on its first point (the gold ring leaves the repeat out)."""
    size = rng.uniform(20, 600)
    pts = _poly_points(rng, lat, lon, size, rng.randint(4, 10))
    texts, gold = [], []
    for p in pts:
        t, g = V.fmt_coord(rng, p[0], p[1], "dm_hyphen")
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
    return gold


def navwarn(rng: random.Random) -> Example:
    series, seas, lat, lon = rng.choice(SERIES)
    start = V.sample_start(rng, 1)
    # the days of a period stay in one month (a phrase writes its month once, after its last day), and the stamps
    # the year comes from lie in the period's year
    start = start.replace(day=11 + start.day % 9)
    issued = start - timedelta(days=rng.randint(2, 10), minutes=rng.randint(0, 1440))
    yy = f"{start.year % 100:02d}"
    num = f"{series} {rng.randint(1, 999)}/{yy}"
    charts = rng.choice(("", "", f"({rng.randint(11, 99)})", f"({rng.randint(11, 60)},{rng.randint(61, 99)})"))
    d = Doc()
    if rng.random() < 0.4:  # some feeds put the number before the date-time group
        d.add(f"{num} ")
    d.add(f"{_stamp(issued)}\n{num}{charts}.\n" + "\n".join(seas) + "\n")
    cancel_end = f"CANCEL THIS MSG {_stamp(start + timedelta(days=rng.randint(10, 12)))}."
    gold = []
    if rng.random() < 0.15:  # a warning that only cancels others
        d.add(f"1. CANCEL {series} {rng.randint(1, 999)}/{yy}.\n2. {cancel_end}")
        return Example(d, gold, "en")
    n = rng.choice((1, 1, 1, 2, 2, 3))
    hours = rng.uniform(0.4, 8)
    d.add(f"1. {rng.choice(HAZARDS)}{rng.choice(('', ':'))}\n")
    per_area_times = n > 1 and rng.random() < 0.35
    period: dict = {}
    if not per_area_times:
        parts, period = _window(rng, start, hours)
        d.add("   ")
        _add_window(d, parts, list(range(n)))
        d.add(f"\n   IN {'AREAS' if n > 1 else 'AREA'} BOUND BY{rng.choice(('', ':'))}\n")
    for z in range(n):
        indent = "      " if n > 1 else "   "
        if n > 1:
            d.add(f"   {'ABC'[z]}. ")
            if per_area_times:
                parts, period = _window(rng, start, hours)
                _add_window(d, parts, [z])
                d.add(f"\n{indent}IN AREA BOUND BY\n{indent}")
        else:
            d.add("   ")
        alat, alon = V.near(rng, lat, lon, 400)
        ring = _area(rng, d, z, alat, alon, indent)
        gold.append(zone(polygon(ring), None, None, period.get("start"), period.get("end"), period.get("schedule")))
        d.add("\n")
    k = 2
    if rng.random() < 0.4:
        d.add(f"2. CANCEL {series} {rng.randint(1, 999)}/{yy}.\n")
        k = 3
    d.add(f"{k}. {cancel_end}")
    return Example(d, gold, "en")


def generate(rng: random.Random, template: str) -> Example:
    if template != "warning":
        raise ValueError(f"unknown navwarn template {template}")
    return navwarn(rng)
