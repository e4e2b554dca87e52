"""Whether the message writes the record's period twice, differently: a contradiction, or a window taken for the period.

Three checks, each ``review`` with the two readings named:

- the record's period is one of two ten-digit periods anywhere in the message with one boundary in common and the
  other not (``2411022222-2411030422`` and ``2411022222 TO 2411030022``);
- the record's period is one window of a list of them written one after another;
- the record's period is one of two periods written near the zone (its own lines, the heading before the first
  area's line, or the message's tail after the last area's line), in any of the forms free text writes them
  (ten-digit, ISO, month-name prose; joined, labelled start/end, or as items B) and C)), with one boundary in common
  and the other not, or lying inside the other
  (``EFFECTIVE 2027-11-03T17:30Z-2027-11-03T23:30Z 2711031730 TO 2711031930``: a daily window read as the period, or
  the period restated with another end).

The record's period must itself be one of the written pairs: a period read from items B) and C) is not contradicted
by a D) list of windows inside it.
"""

from __future__ import annotations

import re
from datetime import datetime
from functools import lru_cache
from itertools import takewhile

from airspace.core.records import ZoneRecord
from airspace.parser.coords import find_coords
from airspace.parser.rules.areas import ALL_AREAS
from airspace.parser.rules.patterns import ISO_DT, PROSE_DT
from airspace.parser.times import parse_time

# two ten-digit times joined as a period ("2411022222-2411030422", "2411022222 TO 2411030022"), message-wide;
# narrower than the rules reader's TIME_PAIR on purpose: a TFR's rings each "2609221400 UTC (…) UNTIL 2609222200"
# with its own end are no contradiction
_PERIOD = re.compile(r"(?<!\d)(?P<s>\d{10})\s*(?:-|TO|UNTIL|TIL|THRU)\s*(?P<e>\d{10})(?!\d)", re.I)

# what stands between two windows of a list ("2604260743 TO 2604260943 2604270743 TO 2604270943")
_LIST_GAP = re.compile(r"[\s,;]*(?:AND\s+)?", re.I)
_JOIN = r"\s*(?:-|–|\bTO\b|\bUNTIL\b|\bTILL?\b|\bTHRU\b|\bAND\b)\s*"
# a period in one form, both ends alike (a ten-digit stamp, an ISO time, "July 14, 2027 at 0330 UTC")
_FORMS = (r"(?<!\d)\d{10}(?!\d)", ISO_DT, PROSE_DT)
# (and labelled, each end on its own: "Start: April 23, 2025 at 1815 UTC\nEnd: April 24, 2025 at 0615 UTC")
# (and as items in free text, each end in prose: "B) August 31, 2023 at 0455 UTC C) August 31, 2023 at 0855 UTC")
_PAIRS = tuple(re.compile(rf"(?P<s>{x}){_JOIN}(?P<e>{x})", re.I) for x in _FORMS) + tuple(
    re.compile(rf"\b(?:START|BEGIN)S?\s*:\s*(?P<s>{x})[\s,;.]*\bENDS?\s*:\s*(?P<e>{x})", re.I) for x in _FORMS) + tuple(
    re.compile(rf"\bB\)\s*(?P<s>{x})[\s,;.]*\bC\)\s*(?P<e>{x})", re.I) for x in _FORMS[1:])

# (a statement for every area may write its period as items: "All areas LIMITS SFC/300M AMSL B) 2605142357 C) …")
_ITEMS_PAIR = re.compile(r"\bB\)\s*(?P<s>\d{10})\s+C\)\s*(?P<e>\d{10})(?!\d)")


def check_periods(rec: ZoneRecord) -> None:
    """The checks of this module on ``rec`` (in place)."""
    _same_form_twice(rec)
    if rec.status == "ok":
        _near_periods(rec)


def _same_form_twice(rec: ZoneRecord) -> None:
    sp_s, sp_e = rec.spans.get("start"), rec.spans.get("end")
    if sp_s is None or sp_e is None:
        return
    periods = list(_PERIOD.finditer(rec.text))
    if not any(m.span("s") == (sp_s.start, sp_s.end) and m.span("e") == (sp_e.start, sp_e.end) for m in periods):
        return
    mine = (sp_s.text, sp_e.text)
    for m in periods:
        if (m.group("s") == mine[0]) != (m.group("e") == mine[1]):
            rec.review(f"the message writes two periods for this zone, '{mine[0]}-{mine[1]}' and "
                       f"'{m.group('s')}-{m.group('e')}': the message contradicts itself")
            return


def _when(text: str) -> datetime | None:
    try:
        return parse_time(text).dt
    except (ValueError, OverflowError):
        return None


@lru_cache(maxsize=4)
def _area_lines(text: str) -> tuple[int, int]:
    """(start of the first coordinate's line, end of the last one's or -1): the heading before them and the tail
    after them. Once per message, not per record (a message of 300 zones would find its coordinates 300 times)."""
    coords = find_coords(text)
    if not coords:
        return 0, -1
    return text.rfind("\n", 0, coords[0].start) + 1, text.find("\n", coords[-1].end)


def _near_periods(rec: ZoneRecord) -> None:
    sp_s, sp_e = rec.spans.get("start"), rec.spans.get("end")
    if sp_s is None or sp_e is None or rec.start is None or rec.end is None:
        return
    text = rec.text
    # the zone's own lines: from the line its first value is on to the line its last value is on
    lo = min(s.start for s in rec.spans.values())
    hi = max(s.end for s in rec.spans.values())
    lo = text.rfind("\n", 0, lo) + 1
    hi = len(text) if (nl := text.find("\n", hi)) < 0 else nl
    # (a pair may run on past the zone's last line: "…, Start: November 22, 2025 at 0910 UTC\nEnd: …")
    written = [m for pat in _PAIRS for m in takewhile(lambda m: m.start() < hi, pat.finditer(text, lo))]
    # (and a period stated for every area, on any line: "… 2504131800 TO 2504132000 …\nApplies to all: from
    # 2025-04-13 18:00 UTC to 2025-04-14 02:00Z.")
    for a in ALL_AREAS.finditer(text):
        stop = len(text) if (nl := text.find("\n", a.end())) < 0 else nl
        pats = (_ITEMS_PAIR,) if lo <= a.start() < hi else _PAIRS + (_ITEMS_PAIR,)
        written += [m for pat in pats for m in pat.finditer(text, a.end(), stop)]
    # (and a period on the lines before the first area's, a heading for every area: "WEF March 2, 2023 at 1115 UTC TIL
    # … 1715 UTC\nArea A - c (9990MTR; …\nArea C - c RADIUS 2NM 2303021115 TO 2303021315.")
    head, tail = _area_lines(text)
    written += [m for pat in _PAIRS + (_ITEMS_PAIR,) for m in pat.finditer(text, 0, min(head, lo))]
    # (and after the last area's line, the message's tail: "… ZONE 4 c … 2406170400 TO 2406170600\nStart: 2406170400\n
    # End: 2406170800")
    if tail >= hi:
        written += [m for pat in _PAIRS for m in pat.finditer(text, tail)]
    m0 = next((m for m in written if m.start("s") == sp_s.start and m.end("e") == sp_e.end), None)
    if m0 is None:
        return
    chained = [m for m in written if m is not m0 and m.re is m0.re and (
        (m.start() >= m0.end() and _LIST_GAP.fullmatch(text, m0.end(), m.start()))
        or (m.end() <= m0.start() and _LIST_GAP.fullmatch(text, m.end(), m0.start())))]
    if chained:
        rec.review(f"the period '{sp_s.text} … {sp_e.text}' is one of a list of windows the message writes "
                   f"('{' '.join(chained[0].group().split())}' beside it): the zone's period is not one window")
        return
    mine = (rec.start, rec.end)
    for m in written:
        if m is m0:
            continue
        other = (_when(m.group("s")), _when(m.group("e")))
        if None in other or other == mine or other[0] >= other[1]:
            continue
        shared = (other[0] == mine[0]) != (other[1] == mine[1])
        inside = other[0] <= mine[0] and mine[1] <= other[1]
        if shared or inside:
            said = " ".join(m.group().split())
            rec.review(f"the message writes two periods near this zone, '{sp_s.text} … {sp_e.text}' and '{said}'"
                       f"{' (the first inside the second: a window, or the period restated)' if inside else ''}: "
                       "which is the zone's period is unclear")
            return
