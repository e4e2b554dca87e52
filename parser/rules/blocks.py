"""A notice listing several areas, each in its own block with its own limits or times.

The blocks are headed by an area label or an enumerator at the start of a line or clause:

- ``1. AREA 1`` / ``AREA 2:`` / ``ZONE B`` / ``SECTOR 3`` (ICAO item E, AIS circulars);
- ``（一）`` / ``一、`` (Chinese notices listing venues: ``（一）体育中心周边3公里，6月7日至9日每日8时至18时；``).

Inside a block, the limits (``LOWER/UPPER LIMITS: FL060 / FL170``, ``GND-FL090``, ``真高120米``), the period (a
ten-digit pair, a Chinese range) and a daily window (``每日8时至18时``, ``DAILY 0800-1700``) are that block's zone's own,
whether they stand before or after its boundary. ``block_values`` reads them; ``chinese_items`` reads the zone of a
Chinese list item that has no coordinates (its place, radius).
"""

from __future__ import annotations

import re
from bisect import bisect_right

from airspace.core.contract import Span
from airspace.parser.rules.limits import limits_in
from airspace.parser.rules.patterns import CN_DAILY, CN_DATE_RANGE, CN_DAY_RANGE, CN_RANGE, ISO_PAIR, TIME_PAIR
from airspace.parser.rules.zone import Zone, sp

# (and an Arabic number with a point or 、 that opens a clause and is followed by Chinese: "：1.市体育中心周边1公里；2.火车站…")
CN_ENUM = (r"[（(](?:[一二三四五六七八九十]{1,3}|\d{1,2})[）)]|(?<![\u4e00-\u9fff])[一二三四五六七八九十]{1,3}、"
           r"|(?:(?<=[：:；;。\n])|^)[ \t]*\d{1,2}[.、．](?![\d.])(?=[ \t]*[\u4e00-\u9fff])")
HEAD = re.compile(
    r"^[ \t]*(?:\(?\d{1,2}[.)][ \t]*)?(?:AREA|ZONE|SECTOR)[ \t]+(?:\d{1,3}[A-Z]?|[A-Z])\b(?![ \t]*(?:ACT|FT|M|NM|KM)\b)"
    rf"|{CN_ENUM}",
    re.M,
)
_DAILY_EN = re.compile(r"\b(?:DAILY|DLY)\s+\d{4}\s*-\s*\d{4}\b|\b\d{4}\s*-\s*\d{4}\s+(?:DAILY|DLY)\b", re.I)


def blocks(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The area blocks of ``[lo, hi)`` (two or more, else none): from each head to the next (the last to ``hi``)."""
    heads = [m.start() for m in HEAD.finditer(text, lo, hi)]
    if len(heads) < 2:
        return []
    return [(a, b) for a, b in zip(heads, heads[1:] + [hi])]


def block_of(bl: list[tuple[int, int]], pos: int) -> int | None:
    k = bisect_right([a for a, _ in bl], pos) - 1
    return k if k >= 0 and pos < bl[k][1] else None


def block_values(text: str, blk: tuple[int, int], own: list[Span]) -> dict[str, Span]:
    """Limits, period and daily window written in the block, outside the zone's own geometry spans ``own``."""
    a, b = blk
    parts, pos = [], a
    for s in sorted(own, key=lambda s: s.start):
        if a <= s.start < b:
            parts.append((pos, s.start))
            pos = max(pos, s.end)
    parts.append((pos, b))
    out: dict[str, Span] = {}
    for p0, p1 in parts:
        got = limits_in(text, p0, p1)
        if "lower" in got and "upper" in got or not ("lower" in out or "upper" in out):
            for k in ("lower", "upper"):
                if k in got:
                    out[k] = got[k]
    for rx in (TIME_PAIR, ISO_PAIR, CN_RANGE, CN_DATE_RANGE, CN_DAY_RANGE):
        m = rx.search(text, a, b)
        if m:
            out["start"], out["end"] = sp(text, *m.span("s")), sp(text, *m.span("e"))
            break
    m = CN_DAILY.search(text, a, b) or _DAILY_EN.search(text, a, b)
    if m:
        out["schedule"] = sp(text, *m.span())
    return out


def chinese_items(text: str, lo: int, hi: int, named) -> list[Zone]:
    """A Chinese list of venues (``（一）X周边3公里，…；（二）Y…``): one named zone per item whose place ``named``
    (``chinese.cn_named`` over the item) finds; none unless two items have one."""
    zones: list[Zone] = []
    for a, b in blocks(text, lo, hi):
        z = named(text, a, b)
        if z is not None:
            z.local_limits = True
            zones.append(z)
    return zones if len(zones) >= 2 else []
