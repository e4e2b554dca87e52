"""Sectors and semicircles: a centre, a radius and two bounding bearings, or half a circle; one polygon span each,
read by ``polygon.parse_sector``."""

from __future__ import annotations

import re

from airspace.parser.coords import CoordMatch
from airspace.parser.polygon import BEARINGS, EXC_SAME_CIRCLE, HALF_DIR, SECTOR_WORD, parse_sector
from airspace.parser.rules.patterns import ARC_GAP, DIST
from airspace.parser.rules.zone import Zone, sp

_SEMI_ANCHOR = re.compile(r"\bSEMI-?\s?CIRCLE\b|\bHALF[\s-]+CIRCLE\b|半圆|半圓", re.I)
_SECTOR_RADIUS = re.compile(
    rf"RADIUS\s*(?:OF\s*)?[:=-]?\s*{DIST}|{DIST}\s*(?:RADIUS|ARC)\b|\b(?:WI|WITHIN)\s+(?:AN?\s+)?{DIST}|半[径徑]\s*{DIST}",
    re.I,
)


def _try_sector(text: str, s: int, e: int) -> bool:
    try:
        parse_sector(text[s:e])
    except ValueError:
        return False
    return True


def read_sectors(text: str, lo: int, hi: int, coords: list[CoordMatch], claimed: set[int]) -> list[Zone]:
    """Sectors and semicircles: one polygon span each, read by ``polygon.parse_sector``.

    - two bounding bearings (``BTN BRG 030 AND 120``, ``AZM 030-120 DEG``) with the nearest centre coordinate
      before them (else right after) and the radius mention around them;
    - ``SEMICIRCLE, P - A CLOCKWISE 3NM ARC CENTERED ON C``: the start point and the centre after the word;
    - ``NORTHERN SEMICIRCLE OF A CIRCLE RADIUS 5NM CENTRED ON c``: the centre after the word.
    A candidate that ``parse_sector`` cannot read is left to the other geometry roles."""
    zones: list[Zone] = []
    brgs = list(BEARINGS.finditer(text, lo, hi))
    for k, b in enumerate(brgs):
        floor = max(lo, b.start() - 160, brgs[k - 1].end() if k else lo)
        ceil = min(hi, b.end() + 120, brgs[k + 1].start() if k + 1 < len(brgs) else hi)
        cut = text.rfind("\n\n", floor, b.start())
        floor = cut + 2 if cut >= 0 else floor
        cut = text.find("\n\n", b.end(), ceil)
        ceil = cut if cut >= 0 else ceil
        before = [i for i, c in enumerate(coords) if floor <= c.start and c.end <= b.start() and i not in claimed]
        after = [i for i, c in enumerate(coords) if b.end() <= c.start and c.end <= ceil and i not in claimed]
        if before:
            ci = before[-1]
        elif after:
            ci = after[0]
        else:
            continue
        c = coords[ci]
        prev = [x for x in coords if x.end <= c.start and c.start - x.end < 200]
        if prev and ARC_GAP.search(text, prev[-1].end, c.start):
            continue  # "… B - CLOCKWISE ARC RADIUS 10NM CENTRED ON C FROM BRG 090 TO BRG 180 - D …": a polygon's arc
        s0, e0 = min(c.start, b.start()), max(c.end, b.end())
        rad = [m for m in _SECTOR_RADIUS.finditer(text, max(floor, s0 - 60), min(ceil, e0 + 60))]
        # the radius nearest the centre/bearings, and never across another coordinate
        rad = [m for m in rad if not any(i != ci and min(m.end(), s0) <= x.start < max(m.start(), e0)
                                         for i, x in enumerate(coords))]
        if not rad:
            continue
        m = min(rad, key=lambda m: max(0, s0 - m.end(), m.start() - e0))
        s0, e0 = min(s0, m.start()), max(e0, m.end())
        kw = SECTOR_WORD.search(text, max(floor, s0 - 40), s0)
        if kw:
            s0 = kw.start()
        if _try_sector(text, s0, e0):
            claimed.add(ci)
            zones.append(Zone({"polygon": sp(text, s0, e0)}, s0, e0, "polygon"))
    for sm in _SEMI_ANCHOR.finditer(text, lo, hi):
        nxt = [i for i, c in enumerate(coords) if sm.end() <= c.start < min(hi, sm.end() + 150) and i not in claimed]
        if len(nxt) >= 2 and ARC_GAP.search(text, coords[nxt[0]].end, coords[nxt[1]].start):
            s0, e0 = sm.start(), coords[nxt[1]].end
            # "… EXC A CIRCLE RADIUS 1.5NM CENTERED ON C" (its own centre): cut out, inside the same span
            k = next((i for i, c in enumerate(coords) if c.start >= e0), None)
            if (k is not None and k not in claimed and EXC_SAME_CIRCLE.fullmatch(text, e0, coords[k].start)
                    and _try_sector(text, s0, coords[k].end)):
                claimed.update(nxt[:2] + [k])
                zones.append(Zone({"polygon": sp(text, s0, coords[k].end)}, s0, coords[k].end, "polygon"))
            elif _try_sector(text, s0, e0):
                claimed.update(nxt[:2])
                zones.append(Zone({"polygon": sp(text, s0, e0)}, s0, e0, "polygon"))
            continue
        if nxt:
            c = coords[nxt[0]]
            hd = HALF_DIR.search(text, max(lo, sm.start() - 12), min(hi, sm.end() + 12))  # "NORTHERN SEMICIRCLE"
            s0 = min(hd.start(), sm.start()) if hd else sm.start()
            for s1 in dict.fromkeys((s0, sm.start())):
                e0 = c.end
                m = _SECTOR_RADIUS.search(text, c.end, min(hi, c.end + 40))
                if not _SECTOR_RADIUS.search(text, s1, c.start) and m:
                    e0 = m.end()
                if _try_sector(text, s1, e0):
                    claimed.add(nxt[0])
                    zones.append(Zone({"polygon": sp(text, s1, e0)}, s1, e0, "polygon"))
                    break
    return zones

