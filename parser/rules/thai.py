"""Places of Thai prose and notices that ban drone flights (the civil aviation authority's announcements as news and
agencies quote them).

A ban (``ห้ามบินโดรน``, ``ห้ามใช้อากาศยานไร้คนขับ``, ``เขตห้ามบิน``) and, in the lines that write one, each place a
marker names: ``เหนือ X`` (over X), ``บริเวณ X`` (the area of X), ``ที่ตั้งของ X`` (the site of X), ``รอบ X``
(around X), and the places joined to it by ``และ`` / ``หรือ`` / a comma. Thai writes no blanks between words, only
between phrases, so a place is the run of Thai letters after its marker up to the next blank, less a tail that is
no part of its name (``ทั่วประเทศ`` nationwide, ``ในเขต…`` in the area of, ``โดยรอบ`` around it, ``รัศมี…``). A
name that begins another one the text names (``พระเมรุมาศ`` of ``พระเมรุมาศจำลอง``) is that place.

The radius is the one ``รัศมี 9 ก.ม.`` the ban states, where it states exactly one (``parser.units`` reads Thai
units). A named place has no coordinates: its zone is always ``review``. Pure.
"""

from __future__ import annotations

import re

from airspace.parser.rules.patterns import DIST
from airspace.parser.rules.zone import Message, Zone, sp

_THAI = r"\u0e00-\u0e7f"
_AIRCRAFT = r"(?:โดรน|อากาศยานไร้คนขับ|อากาศยานไร้นักบิน|อากาศยานซึ่งไม่มีนักบิน|อากาศยานไม่มีคนขับ|UAV|drone)"
# (a ban is also a suspension, "งดบินโดรน", a refusal, "ไม่อนุญาตให้บิน", or a restriction, "จำกัดการบิน")
_VERB = r"(?:ห้าม|งด|ระงับ|ไม่อนุญาต(?:ให้)?|จำกัด)"
TH_BAN = re.compile(rf"{_VERB}[{_THAI}]{{0,12}}?(?:บิน|ใช้|ปล่อย|นำ)[^\n]{{0,40}}?{_AIRCRAFT}|เขต(?:ห้าม|จำกัดการ)บิน"
                    rf"|พื้นที่(?:ห้าม|จำกัดการ)บิน|เขตหวงห้าม|{_AIRCRAFT}[^\n]{{0,40}}?{_VERB}", re.I)
# a marker and the place after it (to the next blank or punctuation)
# (and after a radius, the place it is measured from: "รัศมี 5 กิโลเมตร จากX", "รัศมี 9 กม. รอบX")
# ("ณ" at, as a word of its own, never the letter inside "ปริมณฑล"; "รอบ" around, never inside "ครอบ")
_MARKED = re.compile(rf"(?:เหนือ|บริเวณ|ที่ตั้งของ|โดยรอบ|(?<!ค)รอบ|(?<![{_THAI}])ณ\s*|รัศมี\s*(?:โดยรอบ\s*)?(?i:{DIST})\s*จาก\s*)"
                     rf"(?P<name>[{_THAI}]{{2,60}})")
# a place joined to the one before it: " และX", " หรือX", ", X"
_JOINED = re.compile(rf"\s*(?:และ|หรือ|,)\s*(?P<name>[{_THAI}]{{2,60}})")
# where a name ends: nationwide, in the area of…, around it, the radius, a verb of the ban
_TAIL = re.compile(r"ทั่วประเทศ|ใน(?:เขต|พื้นที่|ส่วน)|โดยรอบ|รอบ|รัศมี|ระยะ|ซึ่ง|ที่มี|ทั้งนี้|เป็น|ห้าม|จำนวน")
# words that are no place of their own: the zone, the sky, a time
_NOT_PLACE = re.compile(r"^(?:พื้นที่|เขต|ท้องฟ้า|น่านฟ้า|บริเวณ|ดังกล่าว|ประเทศ|วันที่|เวลา)$|^ดังกล่าว")
_RADIUS = re.compile(rf"รัศมี\s*(?:โดยรอบ\s*)?(?P<d>(?i:{DIST}))")
_THAI_LETTER = re.compile(rf"[{_THAI}]")
_LINE = re.compile(r"[^\n]+")


def _trim(text: str, s: int, e: int) -> int:
    """The end of the name that starts at ``s``: before its first tail word (not at its very start)."""
    t = _TAIL.search(text, s + 1, e)
    return t.start() if t is not None else e


def th_places(m: Message) -> list[Zone]:
    """The places a Thai ban names, each with the one radius the ban states; ``[]`` when the text is not Thai or
    bans nothing."""
    text = m.text
    if m.h.kind != "other" or _THAI_LETTER.search(text, m.lo, m.hi) is None:
        return []
    spans: list[tuple[int, int]] = []
    radii: dict[str, re.Match] = {}  # (each distinct radius the ban lines state: its first statement)
    for line in _LINE.finditer(text, m.lo, m.hi):
        lo, hi = line.span()
        if TH_BAN.search(text, lo, hi) is None:
            continue
        for r in _RADIUS.finditer(text, lo, hi):
            radii.setdefault(" ".join(r.group("d").split()), r)
        for r in _MARKED.finditer(text, lo, hi):
            if len(spans) >= 60:  # (the names are compared pairwise below: a bound keeps hostile text linear)
                break
            s, e = r.span("name")
            spans.append((s, _trim(text, s, e)))
            pos = e
            while len(spans) < 60 and (j := _JOINED.match(text, pos, hi)) is not None:
                js, je = j.span("name")
                spans.append((js, _trim(text, js, je)))
                pos = je
    # (a run that starts with a tail word is none: "ในส่วนภูมิภาค" in the regions, "รัศมี" the radius)
    names = [(s, e) for s, e in spans if e - s >= 2 and not _NOT_PLACE.search(text[s:e]) and not _TAIL.match(text, s)]
    # (a name that begins a longer one the text names is that place, written shorter)
    keep = [(s, e) for s, e in names
            if not any(text[s2:e2] != text[s:e] and text[s2:e2].startswith(text[s:e]) for s2, e2 in names)]
    radius = next(iter(radii.values())) if len(radii) == 1 else None
    zones: list[Zone] = []
    seen: set[str] = set()
    for s, e in keep:
        if text[s:e] in seen:
            continue
        seen.add(text[s:e])
        f = {"name": sp(text, s, e)}
        if radius is not None:
            f["radius"] = sp(text, *radius.span("d"))
        zones.append(Zone(f, s, e, "named"))
    return zones[:20]
