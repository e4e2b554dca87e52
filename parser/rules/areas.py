"""The numbered areas of a message and which area each value of a zone was read from.

A notice listing several areas marks each with a label (``第3处``, ``第二区``, ``区域一``, ``B区``, ``（2）``, ``二、``,
``2、``, ``2.``, ``2)``, ``AREA B``, ``ZONE 2``, ``B.``, ``#2``, a bullet at a line start). The area labels are
one run of ordinals 1, 2, 3 … in text order (the list's own form first; another form only fills a gap, as a
hand-typed list switches forms: ``A区 … B区 … C区 … 4、 … E区``). An area's section runs from its label to the next
label; the last one to the end of the text, or to a closing statement for every area (``以上区域管控时间…``,
``各区域均为…``, ``ALL AREAS …``). Text before the first label (a heading, ``EFFECTIVE …``) and after such a closing
statement speaks for every area.

``foreign_values`` says which values of a zone stand in another zone's section: a limit, time, radius or centre
written in area 3's text is area 3's, and a record for area 1 that carries it is not one to trust.
"""

from __future__ import annotations

import re
from bisect import bisect_right
from collections.abc import Mapping, Sequence
from typing import Protocol

from airspace.core.contract import Span
from airspace.parser.header import Header
from airspace.parser.rules.blocks import block_values
from airspace.parser.rules.limits import message_limits
from airspace.parser.rules.times import read_schedule, read_times

_CN = "一二三四五六七八九十"
_ORD = rf"(?P<n>\d{{1,2}}|[{_CN}]{{1,3}})"
# where a label may stand: the start of the text region, of a line, or of a clause
_START = r"(?:^|(?<=[\n；;。：:，,])|(?<=[.;:)]\s)|(?<=[.;:)]\s\s))[ \t]*"
# (family name, pattern with group n (an ordinal) or a for a letter; a bullet has neither)
_FAMILIES: tuple[tuple[str, str], ...] = (
    # (traditional forms too: 第2處, 區域二, B區)
    ("di", rf"第{_ORD}(?:[处處区區块塊片]|[个個][区區]域)(?=[：:，,\s])"),
    ("quyu", rf"[区區]域{_ORD}(?=[：:，,\s])"),
    ("letter_qu", r"(?<![A-Za-z])(?P<a>[A-H])[区區](?=[：:，,\s])"),
    ("paren", rf"{_START}[（(]{_ORD}[）)]"),
    ("dun", rf"{_START}{_ORD}、"),
    ("dot", rf"{_START}(?P<n>\d{{1,2}})[.)](?=[ \t\u4e00-\u9fff])"),
    ("word", r"(?i:\b(?:AREA|ZONE|SECTOR))[ \t]+(?:(?P<n>\d{1,2})|(?P<a>[A-H]))(?=[ \t]*[:.\-–)\n]|[ \t]+\S)"),
    ("letter_dot", rf"{_START}(?P<a>[A-H])\.(?=[ \t])"),
    ("hash", rf"{_START}#(?P<n>\d{{1,2}})\b"),
    # (a dash before a coordinate at a line start goes on with a boundary written one vertex a line: no bullet)
    ("bullet", r"^[ \t]*[-*•][ \t](?![ \t]*[NS]?\d)"),
)
_LABELS = [(name, re.compile(rx, re.M)) for name, rx in _FAMILIES]
# labels that say "area" themselves; a bare enumerator ("2.", "（二）", a bullet) may number anything (conditions,
# contacts), so its item is an area only when a zone stands in it
_AREA_WORDS = ("di", "quyu", "letter_qu", "word")
# a closing statement for every area: "以上区域管控时间…", "上述区域…", "各区域均为…", "ALL AREAS …"
_ALL_AREAS = re.compile(
    r"(?:^|(?<=[\n；;。]))[ \t]*(?:(?:以上|上述|所有|全部)(?:各)?(?:区域|范围|空域|管控区|禁飞区)?|各(?:区域|管控区|禁飞区)|均为)"
    r"|(?i:\b(?:ALL|EACH|THE ABOVE|ABOVE)[ \t]+(?:AREAS?|ZONES?|SECTORS?)\b|\bAPPLIES TO ALL\b)",
    re.M,
)
# the fields that place a zone (its own section) and those read for it
_PLACE = ("center", "polygon", "name")
_NAMES = {"lower": "lower limit", "upper": "upper limit", "start": "start time", "end": "end time",
          "schedule": "schedule", "radius": "radius", "center": "centre", "polygon": "boundary", "name": "place"}


class _Span(Protocol):
    start: int
    end: int


def _ordinal(m: re.Match) -> int:
    a = m.groupdict().get("a")
    if a:
        return "ABCDEFGH".index(a.upper()) + 1
    n = m.groupdict().get("n")
    if n is None:
        return 0
    if n.isdigit():
        return int(n)
    if n == "十":
        return 10
    if n.startswith("十"):  # 十一 … 十九
        return 10 + _CN.index(n[1]) + 1
    if len(n) == 1:
        return _CN.index(n) + 1
    if len(n) == 2 and n.endswith("十"):
        return (_CN.index(n[0]) + 1) * 10
    if len(n) == 3 and n[1] == "十":
        return (_CN.index(n[0]) + 1) * 10 + _CN.index(n[2]) + 1
    return 0


def _labels(text: str, lo: int, hi: int) -> list[tuple[int, int, str]]:
    """(position, ordinal, family) of every area label candidate in ``[lo, hi)``; a bullet counts its own run."""
    out = []
    for name, rx in _LABELS:
        k = 0
        for m in rx.finditer(text, lo, hi):
            k += 1
            out.append((m.start(), k if name == "bullet" else _ordinal(m), name))
    return sorted(out)


def _run(labels: list[tuple[int, int, str]], family: str) -> list[tuple[int, int, str]]:
    """The run 1, 2, 3 … of area labels led by ``family``: each next ordinal of the family, or of another form where
    the family has none before its following label (a list that switches forms for one item)."""
    run: list[tuple[int, int, str]] = []
    pos, k = -1, 1
    while True:
        after = [x for x in labels if x[0] > pos]
        pick = next((x for x in after if x[1] == k and x[2] == family), None)
        if pick is None:
            nxt_own = next((x for x in after if x[1] == k + 1 and x[2] == family), None)
            # (a bullet has no ordinal of its own, only its count: it never fills a gap in another form's run)
            pick = next((x for x in after if x[1] == k and (nxt_own is None or x[0] < nxt_own[0])
                         and (x[2] != "bullet" or family == "bullet")), None)
        if pick is None:
            return run
        run.append(pick)
        pos, k = pick[0], k + 1


def area_sections(text: str, lo: int = 0, hi: int | None = None) -> list[tuple[int, int]]:
    """The sections ``[start, end)`` of the areas a message lists in ``[lo, hi)``: two or more, else none."""
    return labelled_sections(text, lo, hi)[0]


def labelled_sections(text: str, lo: int = 0, hi: int | None = None) -> tuple[list[tuple[int, int]], bool]:
    """``area_sections`` and whether their labels say "area" themselves (``第2处``, ``区域二``, ``AREA B``)."""
    hi = len(text) if hi is None else hi
    labels = _labels(text, lo, hi)
    best: list[tuple[int, int, str]] = []
    for family in dict.fromkeys(x[2] for x in labels if x[1] == 1):
        run = _run(labels, family)
        # labels that say "area" win over a longer run of bare enumerators (bullets inside an area's text)
        if len(run) >= 2 and (run[0][2] in _AREA_WORDS, len(run)) > (bool(best) and best[0][2] in _AREA_WORDS,
                                                                       len(best)):
            best = run
    if len(best) < 2:
        return [], False
    starts = [x[0] for x in best]
    return list(zip(starts, starts[1:] + [_last_end(text, starts[-1], hi)])), best[0][2] in _AREA_WORDS


# a line that goes on with coordinates (a boundary written one point a line) still belongs to its area
_COORD_LINE = re.compile(r"[ \t]*(?:北纬|南纬|东经|西经|[NS]?\d{4,7}(?:\.\d+)?[NS]?\b)")


def _last_end(text: str, start: int, hi: int) -> int:
    """Where the last area's section ends: at a closing statement for every area; in a Chinese notice, which
    writes an area a line, also at the first line after the label's that does not go on with coordinates
    (``…；\n管控时间：…``: the list is over)."""
    closing = _ALL_AREAS.search(text, start + 1, hi)
    end = closing.start() if closing is not None else hi
    if re.search(r"[\u4e00-\u9fff]", text[start:end]):
        pos = start
        while (nl := text.find("\n", pos, end)) >= 0:
            nxt = nl + 1 + len(text[nl + 1 : end]) - len(text[nl + 1 : end].lstrip())
            if nxt < end and not _COORD_LINE.match(text, nxt):
                return nl
            pos = nl + 1
    return end


def section_of(sections: Sequence[tuple[int, int]], pos: int) -> int | None:
    k = bisect_right([a for a, _ in sections], pos) - 1
    return k if k >= 0 and pos < sections[k][1] else None


def zone_sections(sections: Sequence[tuple[int, int]], zones: Sequence[Mapping[str, _Span]]) -> list[int | None]:
    """The section each zone is placed in (by its centre, boundary or place), or None."""
    out: list[int | None] = []
    for f in zones:
        place = next((f[k] for k in _PLACE if k in f), None)
        out.append(section_of(sections, place.start) if place is not None else None)
    return out


def foreign_values(text: str, lo: int, hi: int, zones: Sequence[Mapping[str, _Span]]) -> list[list[str]]:
    """For each zone (field -> span), why its values cannot be tied to it: a value standing in the section of an
    area other than this zone's own. Values before the first label or after a closing statement for every area
    speak for all; so does every item of a bare enumerated list with a zone in one item only (its items are no
    areas: ``1. WI 2NM OF … 2. SFC-1000FT``)."""
    sections, named = labelled_sections(text, lo, hi)
    if not sections:
        return [[] for _ in zones]
    own = zone_sections(sections, zones)
    if not named and len({k for k in own if k is not None}) < 2:
        # one item with zones: the enumerators number something else (the area's conditions, contacts)
        return [[] for _ in zones]
    held = set(range(len(sections)))  # (a list of areas: an item whose area was not read is an area all the same)
    out = []
    for f, k in zip(zones, own):
        why = []
        for key, s in f.items():
            if key not in _NAMES:
                continue
            j = section_of(sections, s.start)
            if j is not None and j != k and j in held:
                where = "outside any numbered area" if k is None else f"not area {k + 1}'s own"
                why.append(f"{_NAMES[key]} read from area {j + 1}'s text, {where}")
        out.append(why)
    return out


def section_values(text: str, sec: tuple[int, int], own: list[Span], h: Header) -> dict[str, Span]:
    """The limits, period and daily window an area's section states for its zone (``blocks.block_values``), with
    the message readers' other forms (``From … until …``, ``EFFECTIVE … UNTIL …``, a Chinese height phrase) read
    over the section alone; a value those readers find elsewhere (the header's F)/G), B)/C)) is not the section's
    and is left to the message."""
    a, b = sec
    out = block_values(text, sec, own)
    inside = {k: s for k, s in read_times(text, h, a, b).items() if a <= s.start < b}
    if not ("start" in out or "end" in out):
        out.update(inside)
    lims = {k: s for k, s in message_limits(text, h, a, b).items() if a <= s.start < b}
    if not ("lower" in out or "upper" in out):
        out.update(lims)
    sched = read_schedule(text, h, a, b)
    if "schedule" not in out and sched is not None and a <= sched.start < b:
        out["schedule"] = sched
    return out
