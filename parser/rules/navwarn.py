"""The period of each area of a navigational warning (NAVAREA, HYDROLANT/HYDROPAC, NAVTEX and their web copies).

A warning is numbered items (``1. HAZARDOUS OPERATIONS …``, ``2. CANCEL …``); an item states its period before its
areas, and in a list of lettered areas each area may state its own (``A. 2110Z TO 2151Z DAILY 21 AUG THRU 20 SEP
IN AREA …  B. 2020Z TO …``). The period of a zone is the last one written before it in its own item. Three forms:

- day-time groups, alternates and all: ``191218Z TO 191647Z APR, ALTERNATE 201153Z TO 201622Z, … 251416Z APR`` ->
  start the first group, end the last;
- a daily window over days: ``0030Z TO 1000Z DAILY 14 APR THRU 07 MAY`` (``COMMENCING DAILY``, ``17 THRU 21 APR``,
  ``18 AND 19 APR``) -> start the first day, end the last, the window the schedule; day-time groups whose last
  alternate is such a window (``242303Z TO 250327Z MAR, ALTERNATE 2303Z TO 0327Z DAILY 25 THRU 30 MAR``) -> start the
  first group, end the last day, the window the schedule where every group keeps its hours (else the envelope, a
  ``windows`` span the validator sends to review);
- days alone: ``UNDERWATER OPERATIONS 12 THRU 25 APR``, ``18 AND 19 APR`` -> whole days;
- under way: ``IN PROGRESS UNTIL 14 FEB`` -> an end only, the whole day.

The month and year these leave out are completed by the normaliser from the phrase and the warning's own stamps
(``parser.partial_time``). Web copies keep HTML line breaks (``<br>``) inside a phrase: they are blanks here.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from airspace.core.contract import Span
from airspace.parser.rules.patterns import DIST, MARKUP
from airspace.parser.rules.zone import sp

_W = rf"(?:\s|{MARKUP})+"
_MON = r"(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?"
_DTG = rf"(?<![\d/])\d{{6}}\s?Z(?:{_W}{_MON}(?:{_W}\d{{2}}(?![\d-]))?)?(?![A-Z\d])"
_DAY = rf"(?<![\d/.-])\d{{1,2}}(?:{_W}{_MON}(?:{_W}\d{{2}}(?![\d-]))?)?"
_DAY_END = rf"(?<![\d/.-])\d{{1,2}}{_W}{_MON}(?:{_W}\d{{2}}(?![\d-]))?"
_THRU = rf"{_W}(?:THRU|THROUGH|TO|AND|-){_W}"

DTG_RANGE = re.compile(rf"(?P<s>{_DTG}){_W}TO{_W}(?P<e>{_DTG})", re.I)
_MORE = re.compile(rf"[\s,]*(?:{MARKUP}[\s,]*)*(?:(?:ALTERNATE|AND|OR){_W})?(?P<s>{_DTG}){_W}TO{_W}(?P<e>{_DTG})",
                   re.I)
DAILY = re.compile(
    rf"(?P<clock>(?<!\d)\d{{4}}\s?Z{_W}TO{_W}\d{{4}}\s?Z)(?:{_W}COMMENCING)?{_W}DAILY{_W}(?P<s>{_DAY}){_THRU}(?P<e>{_DAY_END})",
    re.I,
)
# an alternate that is a daily window ("…250327Z MAR, ALTERNATE 2303Z TO 0327Z DAILY 25 THRU 30 MAR")
_JOIN = re.compile(rf"[\s,]*(?:{MARKUP}[\s,]*)*(?:ALTERNATE|AND|OR){_W}", re.I)
_HHMM = re.compile(r"(?<!\d)\d{2}(\d{4})\s?Z")
DAYS = re.compile(rf"(?P<s>{_DAY}){_W}(?:THRU|THROUGH|AND){_W}(?P<e>{_DAY_END})", re.I)
UNTIL = re.compile(rf"\bIN{_W}PROGRESS{_W}UNTIL{_W}(?P<e>{_DAY_END})", re.I)
_ITEM = re.compile(rf"^(?:[ \t]|{MARKUP})*\d{{1,2}}\.[ \t]", re.M)


def _phrases(text: str, lo: int, hi: int) -> list[tuple[int, int, dict[str, Span]]]:
    """(start, end, fields) of every period phrase in ``[lo, hi)``, in text order."""
    out: list[tuple[int, int, dict[str, Span]]] = []
    taken: list[tuple[int, int]] = []
    for m in DAILY.finditer(text, lo, hi):
        out.append((m.start(), m.end(), {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e")),
                                         "schedule": sp(text, *m.span("clock"))}))
        taken.append(m.span())
    pos = lo
    while (m := DTG_RANGE.search(text, pos, hi)) is not None:
        pos = m.end()
        if any(a <= m.start() < b for a, b in taken):
            continue
        end, e_span = m.end(), m.span("e")
        while (more := _MORE.match(text, end, hi)) is not None:  # alternates: the period runs to the last one
            end, e_span = more.end(), more.span("e")
        fields = {"start": sp(text, *m.span("s")), "end": sp(text, *e_span)}
        j = _JOIN.match(text, end, hi)
        d = DAILY.match(text, j.end(), hi) if j is not None else None
        if d is not None:  # the last alternates are a daily window: one period, from the first group to the last day
            out = [p for p in out if p[0] != d.start()]
            fields["end"] = sp(text, *d.span("e"))
            daily = tuple(re.findall(r"(\d{4})\s?Z", d.group("clock")))
            groups = _HHMM.findall(text, m.start(), j.start())
            if all(tuple(groups[k:k + 2]) == daily for k in range(0, len(groups), 2)):
                fields["schedule"] = sp(text, *d.span("clock"))  # every window on the daily clock
            else:  # windows at other hours: the envelope, for review (``pipeline.validate``)
                fields["windows"] = sp(text, m.start(), d.end())
            end = d.end()
        out.append((m.start(), end, fields))
        taken.append((m.start(), end))
        pos = end
    for m in DAYS.finditer(text, lo, hi):
        if any(a <= m.start() < b for a, b in taken):
            continue
        out.append((m.start(), m.end(), {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}))
    for m in UNTIL.finditer(text, lo, hi):  # under way already: an end and no start
        out.append((m.start(), m.end(), {"end": sp(text, *m.span("e"))}))
    return sorted(out, key=lambda p: p[0])


def zone_periods(text: str, lo: int, hi: int, anchors: list[int]) -> list[dict[str, Span]]:
    """For each zone anchor, the period fields its warning states for it (``{}`` when none)."""
    phrases = _phrases(text, lo, hi)
    if not phrases:
        return [{} for _ in anchors]
    items = _items(text, lo, hi)
    out = []
    for a in anchors:
        item_lo, _ = _item_of(items, a, lo, hi)
        own = [p for p in phrases if item_lo <= p[0] and p[1] <= a]
        out.append(dict(own[-1][2]) if own else {})
    return out


def _items(text: str, lo: int, hi: int) -> list[int]:
    """Where each numbered item of the warning starts."""
    return [m.start() for m in _ITEM.finditer(text, lo, hi)]


def _item_of(items: list[int], pos: int, lo: int, hi: int) -> tuple[int, int]:
    """``[start, end)`` of the numbered item holding ``pos`` (the text before the first item is one too)."""
    k = bisect_right(items, pos) - 1
    return (items[k] if k >= 0 else lo), (items[k + 1] if k + 1 < len(items) else hi)


# A hazard to surface navigation alone: the airspace above it is free. An item naming one of these and no hazard
# from or through the air (a launch, firing, debris from space, aircraft) draws no zone, unless it asks ships to
# keep a distance (``berth_radius``), which is then its zone.
_SURFACE = re.compile(
    r"\b(?:WRECK|SHOALS?|BUOY|LIGHT(?:ED)?\s+BUOY|DERELICT|ADRIFT|UNLIT|EXTINGUISHED|DEPTHS?|SOUNDINGS?|NAVTEX"
    r"|DGPS|RACON|AGROUND|CAPSIZED|SUNK(?:EN)?|SUBMERGED|OFF\s+AIR|OFF\s+STATION|MISSING)\b", re.I)
_AERIAL = re.compile(
    r"\b(?:ROCKETS?|MISSILES?|GUNNERY|FIRING|SPACE|LAUNCH(?:ING|ES)?|AIRCRAFT|AIR\s+OPERATIONS|UAVS?|UNMANNED"
    r"|DRONES?|FLARES?|EXPLOSIVES?|DETONATIONS?|EXERCISES?|MILITARY|PARACHUT\w*|BALLOONS?|HAZARDOUS\s+OPERATIONS)\b",
    re.I)


def _ships_alone(text: str, a: int, b: int) -> str | None:
    """The hazard to surface navigation ``text[a:b]`` names when it names none from or through the air, else None."""
    m = _SURFACE.search(text, a, b)
    return " ".join(m.group(0).upper().split()) if m and _AERIAL.search(text, a, b) is None else None


def surface_only(text: str, lo: int, hi: int, anchors: list[int]) -> list[bool]:
    """For each zone anchor, whether its numbered item warns of a hazard to surface navigation alone and asks for
    no berth distance."""
    items = _items(text, lo, hi)
    out = []
    for a in anchors:
        item_lo, item_hi = _item_of(items, a, lo, hi)
        out.append(_ships_alone(text, item_lo, item_hi) is not None and berth_radius(text, a, item_hi) is None)
    return out


def surface_hazard(text: str) -> str | None:
    """The surface hazard a warning names when it names no hazard from or through the air (for the reason of its
    no-zone record), else None."""
    return _ships_alone(text, 0, len(text))


# "… IN 10-15.89N 060-33.25W.\n   500 METER BERTH REQUESTED.": the distance ships are asked to keep from a position
# is the zone around it (a lone position has no extent otherwise); "WIDE BERTH" states no distance
_BERTH = re.compile(rf"(?P<d>{DIST})\s+BERTH\b", re.I)


def berth_radius(text: str, start: int, hi: int) -> Span | None:
    """The berth distance a warning asks for after a position, within the position's own numbered item."""
    nxt = _ITEM.search(text, start, hi)
    m = _BERTH.search(text, start, nxt.start() if nxt else hi)
    return sp(text, *m.span("d")) if m else None

