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
from functools import lru_cache
from itertools import chain
from typing import Protocol

from airspace.core.contract import Span
from airspace.parser.coords import find_coords
from airspace.parser.header import Header
from airspace.parser.rules.blocks import block_values
from airspace.parser.rules.limits import message_limits
from airspace.parser.rules.patterns import ALT_REF, CN_UPPER, ISO_DT, PROSE_DT
from airspace.parser.rules.times import read_schedule, read_times
from airspace.parser.units import parse_limit

_CN = "一二三四五六七八九十"
_ORD = rf"(?P<n>\d{{1,2}}|[{_CN}]{{1,3}})"
# where a label may stand: the start of the text region, of a line, or of a clause
# (or after a run of blanks: a list flattened into one line keeps its items apart with them, "通告    （一）…  （二）";
# or after a dash that ends a heading: "Dispatch board - 1) …")
_START = r"(?:^|(?<=[\n；;。：:，,])|(?<=[.;:)]\s)|(?<=[.;:)]\s\s)|(?<=\S\s\s)|(?<=\t)|(?<=\s[-–—]\s))[ \t]*"
# (family name, pattern with group n (an ordinal) or a for a letter; a bullet has neither)
_FAMILIES: tuple[tuple[str, str], ...] = (
    # (traditional forms too: 第2處, 區域二, B區)
    ("di", rf"第{_ORD}(?:[处處区區块塊片]|[个個][区區]域)(?=[：:，,\s])"),
    ("quyu", rf"[区區]域{_ORD}(?=[：:，,\s])"),
    ("letter_qu", r"(?<![A-Za-z])(?P<a>[A-H])[区區](?=[：:，,\s])"),
    # (a full-width "（一）" is an item even glued to the heading: "管控措施（一）距…")
    ("paren", rf"(?:{_START}[（(]|(?<=[\u4e00-\u9fff】])（){_ORD}[）)]"),
    # ("N、" and "#N" say "item" by themselves: they may stand mid-line, "…措施  1、自…", "Dispatch board - #1 …")
    ("dun", rf"(?:{_START}|(?<![\d.第])(?=\d)){_ORD}、"),
    # ("2)2027年…" is an item; "1.2027" is a number: a digit may follow ")" but not ".")
    # (and "通知1)位置…", "通知1. 北纬…", "【空域管制】1)…": an item number glued to the heading's last character)
    # (and "… 2609211915 3) coordinates …", "… C) 2023-01-14T18:19Z 5. at …": "N)" or "N." after a word and one
    # blank, in a list run on in one line; the run of labels 1, 2, 3 … takes it only in its turn)
    ("dot", rf"(?:{_START}|(?<=[\u4e00-\u9fff】])(?=\d{{1,2}}[.)])|(?<=\w )(?=\d{{1,2}}[.)][ \t]))"
            r"(?P<n>\d{1,2})(?:\.(?=[ \t\u4e00-\u9fff])|\)(?=[ \t\u4e00-\u9fff\d]))"),
    ("word", r"(?i:\b(?:AREA|ZONE|SECTOR))[ \t]+(?:(?P<n>\d{1,2})|(?P<a>[A-H]))(?=[ \t]*[:.\-–)\n]|[ \t]+\S)"),
    ("letter_dot", rf"(?:{_START}|(?<=\w )(?=[A-H]\.[ \t]))(?P<a>[A-H])\.(?=[ \t])"),
    ("hash", r"(?<![\w#])#(?P<n>\d{1,2})\b"),
    # (a dash before a coordinate goes on with a boundary written one vertex a line: no bullet, ``_labels``)
    # (a list run on in one line, "…; * next area", bullets after a clause's end too)
    # (a star or a dot after any blank, "Ops update * within …", "…:  * LIMITS …  * PSN …"; a dash there may join a
    # range, "2510041307  - 2510041707")
    ("bullet", r"(?:^|(?<=[;.]\s))[ \t]*[-*•][ \t]|(?<=\s)[*•][ \t]"),
)
_LABELS = [(name, re.compile(rx, re.M)) for name, rx in _FAMILIES]
# labels that say "area" themselves; a bare enumerator ("2.", "（二）", a bullet) may number anything (conditions,
# contacts), so its item is an area only when a zone stands in it
_AREA_WORDS = ("di", "quyu", "letter_qu", "word")
# a closing statement for every area: "以上区域管控时间…", "上述区域…", "各区域均为…", "ALL AREAS …"
ALL_AREAS = re.compile(
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


def _coordinate_at(text: str, pos: int) -> bool:
    """Whether a coordinate starts at ``pos`` (after blanks): a dash there goes on with a boundary, "- 5130N…"."""
    head = text[pos : pos + 40]
    got = find_coords(head)
    return bool(got) and got[0].start == len(head) - len(head.lstrip(" \t"))


def _labels(text: str, lo: int, hi: int) -> list[tuple[int, int, str]]:
    """(position, ordinal, family) of every area label candidate in ``[lo, hi)``; a bullet counts its own run."""
    out = []
    for name, rx in _LABELS:
        k = 0
        for m in rx.finditer(text, lo, hi):
            if name == "bullet" and _coordinate_at(text, m.end()):
                continue
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
    sections, say_area = _sections(text, lo, len(text) if hi is None else hi)
    return list(sections), say_area


@lru_cache(maxsize=64)
def _sections(text: str, lo: int, hi: int) -> tuple[tuple[tuple[int, int], ...], bool]:
    # Pure in its arguments, and asked twice a message on the archive (the reader, then the pipeline's area
    # checks): the label patterns' scan was the rules reader's costliest line. Tuples: no caller changes them.
    labels = _labels(text, lo, hi)
    runs = [_run(labels, family) for family in dict.fromkeys(x[2] for x in labels if x[1] == 1)]
    best: list[tuple[int, int, str]] = []
    for run in runs:
        # labels that say "area" win over a longer run of bare enumerators (bullets inside an area's text)
        if len(run) >= 2 and (run[0][2] in _AREA_WORDS, len(run)) > (bool(best) and best[0][2] in _AREA_WORDS,
                                                                       len(best)):
            best = run
    if len(best) >= 2 and best[0][2] == "bullet":
        best = _bullets_nested(runs, best, hi) or best
    if len(best) < 2:
        return (), False
    starts = [x[0] for x in best]
    return tuple(zip(starts, starts[1:] + [_last_end(text, starts[-1], hi)])), best[0][2] in _AREA_WORDS


def _bullets_nested(runs: list[list[tuple[int, int, str]]], bullets: list[tuple[int, int, str]], hi: int
                    ) -> list[tuple[int, int, str]] | None:
    """A run of another form whose every section holds bullets, the first before any bullet ("1. ED-R 1 (Garching)\n
    - Umfang: …\n- Höhenbegrenzung: …\n2. ED-R 3 …\n- Umfang: …"): the bullets are each area's attributes, the run
    is the list of areas. The longest such run, or None."""
    at = [x[0] for x in bullets]
    found: list[tuple[int, int, str]] | None = None
    for run in runs:
        starts = [x[0] for x in run]
        if (len(run) >= 2 and run[0][2] != "bullet" and starts[0] < at[0]
                and all(any(a < b < c for b in at) for a, c in zip(starts, starts[1:] + [hi]))
                and (found is None or len(run) > len(found))):
            found = run
    return found


# a line that goes on with coordinates (a boundary written one point a line) still belongs to its area
_COORD_LINE = re.compile(r"[ \t]*(?:北纬|南纬|东经|西经|[NS]?\d{4,7}(?:\.\d+)?[NS]?\b)")


def _last_end(text: str, start: int, hi: int) -> int:
    """Where the last area's section ends: at a closing statement for every area; in a Chinese notice, which
    writes an area a line, also at the first line after the label's that does not go on with coordinates
    (``…；\n管控时间：…``: the list is over)."""
    closing = ALL_AREAS.search(text, start + 1, hi)
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


# an item of a bare enumerated list that places something (a coordinate, a radius, "around/within/the area of")
# is an area even where no zone was read from it (a venue the reader did not find is an area all the same)
# a Title-Case word of a venue's name, camel case too ("MetLife", "SoFi")
_TITLE_WORD = r"[A-Z][a-z]+(?:[A-Z][a-z]+)*"
_PLACES = re.compile(r"周[边邊围圍]|附近|[范範][围圍]|半[径徑]|[区區]域|[NS]\s?\d|\d[NS]\b|\d\s?°|北[纬緯]|南[纬緯]|"
                     r"(?i:\b(?:RADIUS|AREA|CIRCLE|POLYGON|BOUNDED|CENT(?:RE|ER|RED)|WITHIN|WI|AROUND)\b)"
                     # (a venue named in two or more Title-Case words: "- at Tokyo Big Sight between FL050 and FL245")
                     rf"|\b(?:at|near|over|above)\s+(?:the\s+)?{_TITLE_WORD}(?:\s{_TITLE_WORD})+\b")


def _placed_items(text: str, sections: Sequence[tuple[int, int]]) -> set[int]:
    return {k for k, (a, b) in enumerate(sections) if _PLACES.search(text, a, b)}


def foreign_values(text: str, lo: int, hi: int, zones: Sequence[Mapping[str, _Span]],
                   listed: tuple[list[tuple[int, int]], bool] | None = None) -> list[list[str]]:
    """For each zone (field -> span), why its values cannot be tied to it: a value standing in the section of an
    area other than this zone's own. Values before the first label or after a closing statement for every area
    speak for all; so does every item of a bare enumerated list with a zone in one item only (its items are no
    areas: ``1. WI 2NM OF … 2. SFC-1000FT``). ``listed``: ``labelled_sections(text, lo, hi)`` where the caller has it."""
    sections, named = listed if listed is not None else labelled_sections(text, lo, hi)
    if not sections:
        return [[] for _ in zones]
    own = zone_sections(sections, zones)
    if not named and len({k for k in own if k is not None} | _placed_items(text, sections)) < 2:
        # one item that places anything: the enumerators number something else (the area's conditions, contacts)
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


_CLAUSE_END = re.compile(r"[\n。]")
# where an area's clause ends: a value after it may speak for every area ("…范围内。以上区域真高…", "…\n\nALL AREAS …",
# "….\nSFC TO 1000FT"); a full stop on the same line does not ("… SFC TO UNL. 2304072300 TO 2304080030." may be the
# last area's own), and a bare line break only before a labelled line ("…RANGE\nVERTICAL ALTITUDE: SFC-UNL.") or
# after one list of centres sharing its radius ("CENTERED PSNS c1\nc2 … CLSD\nFM GND UP TO 1,700FT AMSL.")
_ITEM_END = re.compile(r"。|\n[ \t]*\n|[.;；:：][ \t]*\n")
_LABELLED_LINE = re.compile(r"[ \t]*(?:[A-Za-z][A-Za-z /]{1,30}|[\u4e00-\u9fff]{2,8})[ \t]*[:：]")


def _trailer(text: str, last_end: int, s: _Span, zones: Sequence[Mapping[str, _Span]], sharers: set[int]) -> bool:
    """Whether a value after the last area's place stands after that area's clause (a trailer for every area)."""
    if _ITEM_END.search(text, last_end, s.start):
        return True
    if "\n" not in text[last_end : s.start]:
        return False
    line = text.rfind("\n", 0, s.start) + 1
    radii = {(zones[j]["radius"].start, zones[j]["radius"].end) if "radius" in zones[j] else None for j in sharers}
    return _LABELLED_LINE.match(text, line, s.start) is not None or (len(radii) == 1 and None not in radii)
# what parts a heading from the first area: a value with none of these before the first place is that area's own
# ("管控时段：…18时-24时 半径2公里，圆心…": the period opens area 1's item)
_HEAD_END = re.compile(r"[\n。；;:：，,]|\.\s")


# a value that opens the list's first item, right after its label ("… 1. 2024-02-10 17:30Z-…; area: c …; 2. …")
_OPENS_ITEM = re.compile(r"(?:^|[\s:;,])(?:\(?[1１][.)）]|\([1１]\)|\(?A[.)]|#1|[1１][、．])\s*"
                         r"(?:(?:from|between|valid|until|till|WEF|effective|time|times)\s*:?\s*)?$", re.I)


def _one_line(text: str, pos: int, places: list[tuple[int, int, int]], sharers: set[int]) -> bool:
    """Whether the line (or Chinese sentence) from ``pos`` holds the first place and no other sharer's place, or
    starts with a place no zone was read from: a value written there, before the list's first area, is that area's
    item, not a heading for all (``时间：… 北纬…半径14公里内；\n24.295N…``)."""
    m = _CLAUSE_END.search(text, pos)
    nl = len(text) if m is None else m.start()
    on_line = [k for a, _, k in places if a < nl]
    return bool(on_line) and (on_line[0] < 0 or len(set(on_line) & sharers) == 1)


# a venue named as a place ("哈尔滨国际会展中心周边", "以五台山体育中心为中心"): a zone's place whether or not one was read
_VENUE = re.compile(r"(?P<name>[\u4e00-\u9fff]{2,20}?)(?:周[边邊围圍]|附近|一[带帶]|[为為]中心|[范範][围圍][内內]|半[径徑]"
                    r"|[区區]域(?=[划劃设設实實内內]|[ \t]))"
                    r"|(?:\b(?:around|near|centred on|centered on|radius of)|\d\s?(?i:NM|KM|SM|MI|M|FT)\s+(?:of|around)"
                    r"|\d\s?(?:(?:nautical|statute)\s+miles?|miles?|kilomet(?:re|er)s?|met(?:re|er)s?|feet)\s+(?:of|around))"
                    r"\s+(?:the\s+)?"
                    rf"(?P<en>{_TITLE_WORD}(?:[ -]{_TITLE_WORD})*)")
# a venue named with no cue word around it: a name that ends as venues do, standing as its own clause or before what
# is done there or a distance from it ("…半径1150米；悦来国际会议中心，真高120米以下", "宝安体育场实施临时禁飞",
# "距贺龙体育中心0.4公里范围内", or right after a title run into it: "…管控措施五环体育中心区域"), or a Title-Case
# place "over" or "above" which the zone lies ("above Stade de France"), or "at" a venue ("at Silverstone Circuit")
_VENUE_BARE = re.compile(
    r"(?:^|(?<=[，,；;。：:、\s距离離)）])|(?<=措施|通告|通知|公告))"
    r"(?P<name>[\u4e00-\u9fff]{2,16}?(?:中心|体育场|體育場|体育馆|體育館|公园|公園|广场|廣場"
    r"|剧院|劇院|机场|機場|大学|大學|医院|醫院|码头|碼頭|景区|景區|赛道|賽道|车站|車站|大桥|大橋|水库|水庫|球场|球場|运动场|運動場"
    r"|博物馆|博物館|大世界|乐园|樂園))"
    r"(?=[，,；;。\s、（(\d]|[实實][施行]|[划劃设設][设設立置]|上空|[区區]域|[临臨][时時]|禁[飞飛止]|真高|高度|$)"
    rf"|\b(?:(?:over|above)\s+(?:the\s+)?|at\s+(?:the\s+)?(?={_TITLE_WORD}(?:[ -]{_TITLE_WORD})*[ -](?:Stadium|Park|Circuit"
    r"|Gardens?|Centre|Center|Arena|Square|Hall|Bridge|Airport|Palace|Castle|Cathedral|Racecourse|Showground)\b))"
    rf"(?P<en>{_TITLE_WORD}(?:(?:\s(?:de|of|du|la|le|del|di)\s|[ -]){_TITLE_WORD})*)\b")
# a venue a distance is measured from ("距太阳岛冰雪大世界850米范围内"): a place whatever its name ends with
_VENUE_DIST = re.compile(r"(?:距|离|離)(?:离|離)?(?P<name>[\u4e00-\u9fff]{2,16}?)\s*\d+(?:\.\d+)?\s*(?:米|公里|千米)"
                         r"(?:范围|範圍|以内|以內|内|內)")
# a name before what is done in its airspace, whatever it ends with ("太阳岛冰雪大世界实施临时禁飞", "青岛青春足球场上空")
_VENUE_ACTED = re.compile(r"(?:^|(?<=[，,；;。：:、\s)）]))(?P<name>[\u4e00-\u9fff]{2,16}?)"
                          r"(?=[实實][施行][临臨][时時](?:禁[飞飛]|管[控制])|上空)")
# a time written in an area's own clause (the forms the period readers take: a prose date, ten digits, an ISO time,
# a Chinese date)
_TIME_STATED = re.compile(rf"{PROSE_DT}|(?<!\d)\d{{10}}(?!\d)|{ISO_DT}|\d{{4}}年\d{{1,2}}月\d{{1,2}}日", re.I)
# a limit written in an area's own clause: a flight level, a height with its reference, a Chinese height (a bare
# "500 M" may be a radius, so it does not count)
_LIMIT_STATED = re.compile(rf"\bFL\s?\d{{2,3}}\b|{ALT_REF}|{CN_UPPER.pattern}", re.I)
# (and the words of a limit with no number, "SFC-UNL", where an area's own clause is asked whether it states one)
_LIMIT_WORDS = re.compile(rf"{_LIMIT_STATED.pattern}|\b(?:SFC|GND|UNL|UNLTD|UNLIMITED)\b", re.I)
# what an area's own clause is asked whether it states, by field
_STATED_WORDS = {"start": _TIME_STATED, "end": _TIME_STATED, "lower": _LIMIT_WORDS, "upper": _LIMIT_WORDS}
# what stands before "范围内" after a radius or a coordinate is a unit, not a venue ("0.5公里范围内")
# (nor are the words of a boundary's description, "以下各点连线范围内", "依次连线范围内")
_NOT_VENUE = re.compile(r"[公千海]?里$|米$|[度分秒]$|[为為](?:中心|[圆圓]心)$|^(?:地区|区域|管控|空域)|[连連][线線]$|[围圍]成$"
                        r"|^(?:以下|依次|上述|下列|各[点點])"
                        # (an authority is no place: "市公安局实施临时管控")
                        r"|[局部所队隊厅廳委府]$|单位$|單位$|部门$|部門$"
                        # (nor a notice's title: "深圳市公安局关于实施临时禁飞的通告")
                        r"|(?:关于|關於|通告|通知)$")

# the values a zone reads for itself (its place fields are what orders the zones)
_VALUES = ("lower", "upper", "start", "end", "schedule", "radius")


# what joins a venue's name to the coordinates that locate it: "市体育中心（东经117.12度，北纬36.56度）", "Stade X (48°55′N …)",
# or the coordinates to the name after them: "以北纬30°35′、东经114°17′（市体育中心）为中心"
_NAME_POINT_JOIN = re.compile(r"\s*[（(【\[]\s*")


# a field of the notice on a line of its own ("一、管控时间：2024年9月10日8时至…", "管制高度：真高300米以下"): it speaks for the
# notice, not for a venue a sentence before it names ("决定对赛事场馆周边空域实施临时管控。")
_NOTICE_FIELD = re.compile(r"\s*(?:[一二三四五六七八九十\d]{1,3}\s*[、.．)）]|[（(][一二三四五六七八九十\d]{1,3}[)）])?\s*"
                           r"(?:管控|管制|禁飞|禁飛|限飞|限飛|临时|臨時)?(?:时间|時間|期间|期間|日期|时段|時段|高度)\s*[:：]\s*")


def _notice_field(text: str, pos: int) -> bool:
    """Whether the value at ``pos`` stands in a notice's time or height field, the line's first clause after the
    field's label (``_NOTICE_FIELD``)."""
    m = _NOTICE_FIELD.match(text, text.rfind("\n", 0, pos) + 1, pos)
    return m is not None and _PART.search(text, m.end(), pos) is None


def _names_point(text: str, venue: tuple[int, int], place: tuple[int, int]) -> bool:
    """Whether the venue at ``venue`` names the read place at ``place`` (the one written right beside the other in
    brackets): it is that zone's own place, not another area's."""
    (a, b), (p0, p1) = venue, place
    if b <= p0:
        return _NAME_POINT_JOIN.fullmatch(text, b, p0) is not None
    return p1 <= a and _NAME_POINT_JOIN.fullmatch(text, p1, a) is not None


def straddled_values(text: str, lo: int, hi: int, zones: Sequence[Mapping[str, _Span]],
                     listed: tuple[list[tuple[int, int]], bool] | None = None) -> list[list[str]]:
    """For each zone (field -> span) of a message with several zones placed in ``[lo, hi)``, why a value cannot be
    tied to it by where it stands, whatever labels the list has or lacks:

    - a value written once between two zones' places and taken by several zones (as if it spoke for every area):
      a value meant for every area stands before the first area or after the last (a heading, ``以上区域…``,
      ``ALL AREAS …``); one standing inside the list belongs to an area next to it, and which one the text does not
      say;
    - a value taken by one zone from beyond another zone's place, or beyond a coordinate or a venue no zone was read
      from (an area the reader did not make out): the place in between stands closer to it.

    Values outside ``[lo, hi)`` (a NOTAM's header items) speak for every zone and are not judged here. ``listed``:
    ``labelled_sections(text, lo, hi)`` where the caller has it."""
    places: list[tuple[int, int, int]] = []
    for k, f in enumerate(zones):
        place = next((f[key] for key in _PLACE if key in f), None)
        if place is not None and lo <= place.start < hi:
            places.append((place.start, place.end, k))
    if places:
        # (a read place's point written again, "30 NMR OF c EXCLUDING … 10 NMR OF c", is that place, not another)
        coords = [(lo + c.start, lo + c.end, (round(c.lat, 5), round(c.lon, 5))) for c in find_coords(text[lo:hi])]
        read = {pt for a, _, pt in coords if any(p0 <= a < p1 for p0, p1, _ in places)}
        unread = [(a, b) for a, b, pt in coords if pt not in read]
        unread += [m.span("name" if m.group("name") else "en") for rx in (_VENUE, _VENUE_BARE, _VENUE_DIST, _VENUE_ACTED)
                   for m in rx.finditer(text, lo, hi) if not (m.group("name") and _NOT_VENUE.search(m.group("name")))]
        for a, b in unread:
            if not any(p0 <= a < p1 or a <= p0 < b or _names_point(text, (a, b), (p0, p1)) for p0, p1, _ in places):
                places.append((a, b, -1))
        places.sort()
    out: list[list[str]] = [[] for _ in zones]
    if len({k for _, _, k in places}) < 2:
        # (one place: the list is not made out, but a limit its own clause writes still outranks one from elsewhere;
        # a lone area's clause may end in a page's "updated" time, so times are judged among several places only)
        out = _unclaimed_in_clause(text, lo, hi, zones, places, out, times=False)
        return _other_limits(text, lo, hi, zones, places, out) if len(places) == 1 else out
    # a value in the zone's own section of a list whose labels say "area" (``区域一``, ``AREA B``) is its own: the
    # labels say so (``foreign_values`` judges the rest); a bare enumerator may number anything, so it does not
    sections, named = listed if listed is not None else labelled_sections(text, lo, hi)
    own_section = zone_sections(sections if named else [], zones)
    first, last = places[0][0], max(e for _, e, _ in places)
    taken: dict[tuple[str, int, int], set[int]] = {}
    for k, f in enumerate(zones):
        for key in _VALUES:
            if key in f:
                taken.setdefault((key, f[key].start, f[key].end), set()).add(k)
    # where the first area's item opens: its place, or a value of its own written before it ("半径2公里，圆心…")
    lead = places[0][2]
    item_open = min([first] + ([sp.start for key, sp in zones[lead].items() if key in _VALUES and lo <= sp.start
                                and len(taken[(key, sp.start, sp.end)]) == 1] if lead >= 0 else []))
    for k, f in enumerate(zones):
        own = [(a, b) for a, b, j in places if j == k]
        if not own:
            continue
        for key in _VALUES:
            s = f.get(key)
            if s is None or not (lo <= s.start < hi) or any(a <= s.start < b for a, b, _ in places):
                continue
            a0, b0 = min(own)
            # (unless a place no zone was read from stands between: "第二区：c 半径2公里 …（三）海心沙亚运公园范围内，真高300米以下"
            # runs area 2's section over an item the list's labels do not number)
            unread_between = any(j < 0 and (b0 <= a and b <= s.start or s.end <= a and b <= a0) for a, b, j in places)
            # (nor where the value stands after such a place and before its own in the section: "第2处：光谷国际网球中心半径
            # 1公里以内；<period> （三）距c点10公里范围内" runs area 2's section over an item labelled in another style)
            sec = own_section[k]
            unread_before = sec is not None and s.end <= a0 and any(
                j < 0 and sections[sec][0] <= a and b <= s.start for a, b, j in places)
            if sec is not None and section_of(sections, s.start) == sec and not unread_between and not unread_before:
                continue
            sharers = taken[(key, s.start, s.end)]
            if key == "radius" and len(sharers) > 1:
                continue  # one radius for several centres is the plural form ("WI 0.3NM RADIUS OF PSNS: …")
            if len(sharers) > 1 and s.end <= first and k != places[0][2] and (
                    _one_line(text, s.end, places, sharers) or not _HEAD_END.search(text, s.end, item_open)
                    or _OPENS_ITEM.search(text, max(lo, s.start - 40), s.start)):
                out[k].append(f"{_NAMES[key]} written on the first area's line and taken for {len(sharers)} areas: "
                              "it may be the first area's own")
                continue
            tail = max(places, key=lambda p: p[1])
            if (len(sharers) > 1 and s.start >= last and k != tail[2] and not ALL_AREAS.search(text, tail[1], s.end)
                    and (tail[2] < 0 or not _trailer(text, tail[1], s, zones, sharers))):
                out[k].append(f"{_NAMES[key]} written in the last area's own clause and taken for {len(sharers)} "
                              "areas: it may be the last area's own")
                continue
            if len(sharers) > 1 and first < s.start and s.end <= last:
                out[k].append(f"{_NAMES[key]} written once inside the list of areas and taken for {len(sharers)} of "
                              "them: it belongs to an area next to it, and the text does not say which")
                continue
            # (a value on a line of its own before every place, "SFC TO 1000 FT AGL.\n#1 … over X; #2 c", is a
            # heading for all the areas, not read beyond the first)
            heading = s.end <= first and "\n" in text[s.end : first]
            between = [] if heading else [j for a, b, j in places
                                          if j != k and (b <= s.start and a >= b0 or a >= s.end and b <= a0)]
            # next to a place no zone was read from, with the zone's own place on the other side: either area's
            before = [(b, j) for a, b, j in places if b <= s.start]
            after = [(a, j) for a, b, j in places if a >= s.end]
            if not between and before and after and -1 in (max(before)[1], min(after)[1]) and k in (
                    max(before)[1], min(after)[1]) and not _clause_parts(text, s, max(before), min(after), k) and not (
                    max(before)[1] == -1 and _notice_field(text, s.start)):
                between = [-1]
            if between and len(sharers) == 1:
                other = ("a place no zone was read from" if between[0] < 0 else
                         f"area {between[0] + 1}'s place")
                out[k].append(f"{_NAMES[key]} read beyond another place ({other} stands between)")
            elif len(sharers) == 1 and s.end <= a0 and "\n" in text[s.end : a0]:
                # (a value after another area's place on that area's line, this one's place on a later line: "…c6连线
                # 围成的区域；真高150米以下；\n范围：d1…" is the line's area's, whatever a reader gave it to)
                line = text.rfind("\n", 0, s.start) + 1
                if any(j != k and line <= a and b <= s.start for a, b, j in places):
                    out[k].append(f"{_NAMES[key]} written after another area's place on its line, this area's "
                                  "place on a later line: it may be that area's")
    out = _between_two(text, zones, places, sections, taken, hi, out)
    return _unclaimed_in_clause(text, lo, hi, zones, places, out)


_PART = re.compile(r"[；;。\n]")


def _clause_parts(text: str, s: _Span, before: tuple[int, int], after: tuple[int, int], k: int) -> bool:
    """Whether a clause end parts the value from the unread place beside it and none parts it from its own place
    ("…为中心，半径1.0公里以内；\n2)…青岛青春足球场": the radius is the circle's)."""
    if before[1] == k:
        return _PART.search(text, s.end, after[0]) is not None and _PART.search(text, before[0], s.start) is None
    # (with its own place after it, a value after an unread venue's clause end, "黄龙体育中心半径1公里以内；真高300米以下
    # 以c为圆心…", may be either's, unless the next item's label opens the value's item: "over X; #2 3.2NM circle at c")
    ends = list(_PART.finditer(text, before[0], s.start))
    return (after[1] == k and bool(ends) and _ITEM_LABEL.fullmatch(text, ends[-1].end(), s.start) is not None
            and _PART.search(text, s.end, after[0]) is None)


_ITEM_LABEL = re.compile(r"\s*(?:#\d{1,2}|\(?\d{1,2}[.)）、]|\(\d{1,2}\)|[（(][一二三四五六七八九十]{1,3}[)）]|[A-H][.)])\s*")


def _between_two(text: str, zones: Sequence[Mapping[str, _Span]], places: list[tuple[int, int, int]],
                 sections: Sequence[tuple[int, int]], taken: dict[tuple[str, int, int], set[int]], hi: int,
                 out: list[list[str]]) -> list[list[str]]:
    """``out`` with a value written between two areas' places, taken by the area before it alone, while the area
    after it takes none from its own text (one from the heading, or from another area's): which area the value is
    written for, the text does not say (``… - WI 16km RADIUS OF c1 - H24, LIMITS 200M AGL/FL195, 30000FT from c2``);
    both are ``review``. It is settled by a list's labels that put the value in the first area's item, or by a field
    label that writes every area's value after its place (``LATERAL LIMITS: … VERTICAL LIMITS: …`` for each)."""
    pairs = [(p, q) for p, q in zip(places, places[1:]) if p[2] >= 0 and q[2] >= 0 and p[2] != q[2]]

    def alone_after(key: str, p: tuple[int, int, int], q: tuple[int, int, int]) -> _Span | None:
        s = zones[p[2]].get(key)
        ok = s is not None and p[1] <= s.start and s.end <= q[0] and taken[(key, s.start, s.end)] == {p[2]}
        return s if ok else None

    for (a0, b0, k), (a1, b1, j) in pairs:
        after = min([a for a, _, x in places if a >= b1 and x != j] + [hi])
        for key in _VALUES:
            s, t = alone_after(key, (a0, b0, k), (a1, b1, j)), zones[j].get(key)
            if s is None or t is None or b0 <= t.start < after:
                continue  # (the next area takes its own from its own text)
            here = section_of(sections, s.start)
            if here is not None and here == section_of(sections, a0) != section_of(sections, a1):
                continue
            label = _field_label(text, s.start)
            stated = _STATED_WORDS.get(key)
            alike = [o.start for p, q in pairs if (o := alone_after(key, p, q)) is not None and o is not s]
            alike += [m.start() for m in stated.finditer(text, b1, after)] if stated is not None else []
            if label and any(_field_label(text, pos) == label for pos in alike):
                continue
            out[k].append(f"{_NAMES[key]} written between this area's place and area {j + 1}'s, which takes none "
                          "from its own text: it may be that area's")
            out[j].append(f"{_NAMES[key]} written between area {k + 1}'s place and this one's, which area {k + 1} "
                          "took, may be this area's own")
    return out


# (the label of a pair's second value too: "VERTICAL ALTITUDE: SFC-UNL")
_LABEL_BEFORE = re.compile(r"([A-Za-z\u4e00-\u9fff][A-Za-z\u4e00-\u9fff ]{0,30}[:：])[^:：\n]{0,20}$")


def _field_label(text: str, pos: int) -> str:
    """The field label before ``pos`` and the value it opens ("VERTICAL LIMITS:", "高度："), or ''."""
    m = _LABEL_BEFORE.search(text, max(0, pos - 60), pos)
    return " ".join(m.group(1).upper().split()) if m else ""


def _other_limits(text: str, lo: int, hi: int, zones: Sequence[Mapping[str, _Span]], places: list[tuple[int, int, int]],
                  out: list[list[str]]) -> list[list[str]]:
    """``out`` with, for the one zone placed in a message, a limit the message writes that is neither of the zone's
    and that nothing took ("A. not above 100M AGL / c; B. at Old Trafford LIMITS surface/1,500 ft AGL": the list's
    other area, not made out, states its own): which limit is the zone's the text does not say."""
    k = places[0][2]
    f = zones[k]
    mine = [f[key] for key in ("lower", "upper") if key in f and lo <= f[key].start < hi]
    if not mine:
        return out  # (limits from a header's items speak for the notice)
    used = [(sp.start, sp.end) for g in zones for key in ("lower", "upper") if (sp := g.get(key)) is not None]
    values = []
    for s in mine:
        try:
            values.append(parse_limit(s.text))
        except (ValueError, OverflowError):  # (a hostile number too long for a float)
            continue
    for m in _LIMIT_STATED.finditer(text, lo, hi):
        if any(u0 <= m.start() < u1 or m.start() <= u0 < m.end() for u0, u1 in used):
            continue
        try:
            other = parse_limit(m.group())
        except (ValueError, OverflowError):
            other = None
        if other is not None and any(v.ref == other.ref and abs((v.ft or 0) - (other.ft or 0)) < 0.5 for v in values):
            continue  # the same limit written again
        out[k].append(f"the message writes a limit, '{' '.join(m.group().split())[:40]}', that is not this zone's "
                      "and that no zone took: which is the zone's the text does not say")
        break
    return out


def _unclaimed_in_clause(text: str, lo: int, hi: int, zones: Sequence[Mapping[str, _Span]],
                         places: list[tuple[int, int, int]], out: list[list[str]], times: bool = True
                         ) -> list[list[str]]:
    """``out`` with, for each zone, a value taken from outside its own clause (from the place before it to the next
    place) where that clause writes a value of the kind that no zone took."""
    # a period taken from elsewhere by a zone whose own clause (from its place to the next place) writes a time no
    # zone took: "…围成的范围；高度真高100米以下；时间：2023年9月1日22:00—2023年9月2日04:00。" reading the heading's period
    # (the same for a limit: "(1) at Marina Bay Sands - surface to 600 M AMSL … (2) … c, ceiling 500 FT AMSL" reading
    # area 1's limits for area 2)
    kinds = ((("start", "end"), _TIME_STATED, "a time"),) if times else ()
    for keys, stated, what in kinds + ((("lower", "upper"), _LIMIT_STATED, "a limit"),):
        used = [(sp.start, sp.end) for f in zones for key in keys if (sp := f.get(key)) is not None]
        for k, f in enumerate(zones):
            own = [(a, b) for a, b, j in places if j == k]
            if not own:
                continue
            a0, b0 = min(own)
            nxt = min([a for a, _, j in places if a >= b0 and j != k] + [hi])
            # (and from the place before it: "…；管控时间：2027年8月3日7时到…，位置c，半径6.9公里" writes the period first;
            # before the first place, a value taken is the heading's, one not taken may be the first area's own)
            prv = max([b for _, b, j in places if b <= a0 and j != k], default=a0)
            head = lo if prv == a0 else prv
            for key in keys:
                s = f.get(key)
                if s is None or prv <= s.start < nxt or not (lo <= s.start < hi):
                    continue
                m = next((m for m in chain(stated.finditer(text, head, a0), stated.finditer(text, b0, nxt))
                          if not any(u0 <= m.start() < u1 or m.start() <= u0 < m.end() for u0, u1 in used)), None)
                if m is not None:
                    out[k].append(f"{_NAMES[key]} read from outside this area's own clause, which writes {what} no "
                                  f"zone took ('{' '.join(m.group().split())[:40]}')")
    return out
