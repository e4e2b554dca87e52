"""Places of Korean prose and notices that ban drone flights (news items, ministries' and police notices).

A ban (``비행금지``, ``비행 제한``, ``금지구역``, ``드론 … 금지``) and, in the sentences that write one, each place
an anchor follows: ``X 일대`` / ``상공`` / ``주변`` / ``인근`` / ``일원`` (the area of X), ``X 중심 반경 3.7㎞``, ``X
반경 2km`` (a radius around X). The place is the words right before the anchor, back to a word that carries a
particle or an ending (``김해국제공항 일대를`` -> ``김해국제공항``; ``국토교통부가 김해공항 일대`` -> ``김해공항``).
Clock times are Korea time (``parser.times.text_zone``: ``cjk_script`` tells a Korean text); the periods are read by ``rules.times``.

A named place has no coordinates: its zone is always ``review``. Pure.
"""

from __future__ import annotations

import re

from airspace.parser.rules.patterns import DIST
from airspace.parser.rules.zone import Message, Zone, sp
from airspace.parser.times import HANGUL, cjk_script

KO_BAN = re.compile(r"비행\s*금지|비행\s*제한|금지\s*구역|제한\s*구역|(?:드론|무인\s*비행|무인기)[^.。\n]{0,30}?(?:금지|제한)")
# the anchor after a place: a radius around it (3.7㎞, 2킬로미터, 5해리), or the area it names
_ANCHOR = re.compile(rf"\s*(?:중심\s*)?(?:으로부터\s*|로부터\s*)?반경\s*(?:각\s*)?(?P<d>(?i:{DIST}))"
                     r"|\s*(?:일대|상공|주변|인근|일원)(?=[을를이가에의은는과와도\s,.]|$)")
# a word that carries a particle or a verb's ending: never part of a place (the object, a clause, a verb)
_PARTICLE = re.compile(r"(?:[을를은는의에와과및]|에서|으로|하는|하고|되는|된|한|며|요)$")
# a subject's particle, which ends a place name too (종로2가): it stops the words only before the last
_SUBJECT = re.compile(r"[이가]$")
# words that are no place of their own: the zone, the ban, the area, a time, the aircraft
_NOT_PLACE = re.compile(r"구역|금지|제한|비행|드론|지역$|일대|기간|오전|오후|\d|^(?:위해|위한|따라|통해|대해|관련|인해|모든)$")
# a word of the period before the place ("1일까지", "오전"): it ends the place's words going back
_TIME_WORD = re.compile(r"\d|까지$|부터$|^(?:오전|오후|기간)")
_PLACE_LABEL = re.compile(r"\s*(?:장소|위치|구역|대상\s*(?:지역|구역)|범위|지역)\s*[:：]")
_SENTENCE = re.compile(r"(?:[^.。!?！？\n]|(?<=\d)\.(?=\d))+")  # (a decimal point ends no sentence)


def _place_before(text: str, end: int, floor: int) -> tuple[int, int] | None:
    """The span of the place's words that end at ``end``: at most three words, back to one that carries a particle
    or an ending, or to the sentence's start; None when the words are no place."""
    floor = max(floor, end - 80)  # (three words at most: a window, so many anchors in one sentence stay linear)
    words = list(re.finditer(r"\S+", text[floor:end]))[-3:]
    take: list[re.Match] = []
    for w in reversed(words):
        if w.group().endswith((":", "：")):
            break  # a label ("장소:", "비행금지구역:") ends the place's words
        word = w.group().strip("'\"‘’“”()（）[]「」,")
        if not word or not HANGUL.search(word) or (take and (_PARTICLE.search(word) or _SUBJECT.search(word)
                                                             or _TIME_WORD.search(word))):
            break
        if not take and _PARTICLE.search(word):
            return None  # the word right before the anchor carries a particle: a clause, not a place
        take.insert(0, w)
    if not take:
        return None
    ns, ne = floor + take[0].start(), floor + take[-1].end()
    ns += len(text[ns:ne]) - len(text[ns:ne].lstrip("'\"‘“(（[「"))
    ne -= len(text[ns:ne]) - len(text[ns:ne].rstrip("'\"’”)）]」,"))
    if ne - ns < 2 or _NOT_PLACE.search(text[ns:ne]):
        return None
    return ns, ne


def ko_places(m: Message) -> list[Zone]:
    """The places a Korean ban names, each with the radius written after it (free text only); ``[]`` when the text
    is not Korean or bans nothing."""
    text = m.text
    if m.h.kind != "other" or cjk_script(text) != "ko":
        return []
    zones: list[Zone] = []
    seen: set[tuple[str, str]] = set()
    bans = KO_BAN.search(text, m.lo, m.hi) is not None
    for s in _SENTENCE.finditer(text, m.lo, m.hi):
        # (a sentence that writes the ban, or a place's labelled line in a text that bans: "장소: X 반경 2km 이내")
        if KO_BAN.search(s.group()) is None and not (bans and _PLACE_LABEL.match(s.group())):
            continue
        for a in _ANCHOR.finditer(text, s.start(), s.end()):
            place = _place_before(text, a.start(), s.start())
            if place is None:
                continue
            f = {"name": sp(text, *place)}
            if a.group("d"):
                f["radius"] = sp(text, *a.span("d"))
            key = (text[place[0]:place[1]], a.group("d") or "")
            if key not in seen:
                seen.add(key)
                zones.append(Zone(f, place[0], a.end(), "named"))
    return zones[:20]
