"""Navigational warnings broadcast to ships and aircraft (NAVAREA IV / XII, HYDROPAC, HYDROLANT): a date-time group,
the series number, the sea area, then numbered paragraphs; a hazard (rocket launch, space debris, missile firing)
is given as one or more lettered areas, each a list of ``DD-MM.mmN DDD-MM.mmW`` points.

The zones are those areas' boundaries only. Their times (``261122Z TO 261604Z MAR``, ``DAILY 25 THRU 31 MAR``) take
their month and year from around them and no limits are stated, which the answer format does not express: the
rules reader reads the same warnings to the boundaries alone (``review``, no time), so the models must as well.
A warning that only cancels others has no zone.
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


def _window(rng: random.Random, start, hours: float) -> str:
    """The hazard's time: one window and alternates, a daily window, or in progress until a day."""
    mon = _mon(start)
    end = start + timedelta(hours=hours)
    form = rng.choice(("one", "alternate", "alternate", "daily", "until"))
    if form == "one":
        return f"{_dtg(start)} TO {_dtg(end)} {mon}"
    if form == "until":
        until = start + timedelta(days=rng.randint(5, 30))
        return f"IN PROGRESS UNTIL {until.day:02d} {_mon(until)}"
    if form == "daily":
        last = start + timedelta(days=rng.randint(3, 8))
        return (f"{start.hour:02d}{start.minute:02d}Z TO {end.hour:02d}{end.minute:02d}Z DAILY {start.day} THRU "
                f"{last.day} {_mon(last)}")
    alts = []
    for k in range(1, rng.randint(2, 6)):
        s = start + timedelta(days=k, minutes=-rng.randint(15, 25) * k)
        alts.append(f"{_dtg(s)} TO {_dtg(s + timedelta(hours=hours))}")
    return f"{_dtg(start)} TO {_dtg(end)} {mon}, ALTERNATE\n   " + ", ".join(alts) + f" {mon}"


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
    issued = start - timedelta(days=rng.randint(2, 10), minutes=rng.randint(0, 1440))
    yy = f"{start.year % 100:02d}"
    num = f"{series} {rng.randint(1, 999)}/{yy}"
    charts = rng.choice(("", "", f"({rng.randint(11, 99)})", f"({rng.randint(11, 60)},{rng.randint(61, 99)})"))
    d = Doc()
    if rng.random() < 0.4:  # some feeds put the number before the date-time group
        d.add(f"{num} ")
    d.add(f"{_stamp(issued)}\n{num}{charts}.\n" + "\n".join(seas) + "\n")
    cancel_end = f"CANCEL THIS MSG {_stamp(start + timedelta(days=rng.randint(1, 9)))}."
    gold = []
    if rng.random() < 0.15:  # a warning that only cancels others
        d.add(f"1. CANCEL {series} {rng.randint(1, 999)}/{yy}.\n2. {cancel_end}")
        return Example(d, gold, "en")
    n = rng.choice((1, 1, 1, 2, 2, 3))
    hours = rng.uniform(0.4, 8)
    d.add(f"1. {rng.choice(HAZARDS)}{rng.choice(('', ':'))}\n")
    per_area_times = n > 1 and rng.random() < 0.35
    if not per_area_times:
        d.add(f"   {_window(rng, start, hours)}\n   IN {'AREAS' if n > 1 else 'AREA'} BOUND BY{rng.choice(('', ':'))}\n")
    for z in range(n):
        indent = "      " if n > 1 else "   "
        if n > 1:
            d.add(f"   {'ABC'[z]}. ")
            if per_area_times:
                d.add(f"{_window(rng, start, hours)}\n{indent}IN AREA BOUND BY\n{indent}")
        else:
            d.add("   ")
        alat, alon = V.near(rng, lat, lon, 400)
        ring = _area(rng, d, z, alat, alon, indent)
        gold.append(zone(polygon(ring), None, None, None, None))
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
