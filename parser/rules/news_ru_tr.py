"""Places in Russian and Turkish prose that reports a drone ban (news items, municipal and governors' statements),
as ``news`` reads English prose.

- Russian: a ban on drones (``запрет на использование беспилотных летательных аппаратов``, ``запрет на полёты
  дронов``/``БПЛА``) put in place in a town: ``… ввели в подмосковном Серпухове``, ``действует в Курске``, ``на
  территории Белгородской области``. The place is written as the sentence declines it (``Серпухове``, the
  prepositional case): the name as written, never re-inflected.
- Turkish: a flight ban on drones (``İHA uçuş yasağı``) in a place, its locative suffix after an apostrophe:
  ``Kahramanmaraş’ta Geçici İHA Uçuş Yasağı Getirildi``; the place is the word before the apostrophe.

A named place has no coordinates: its zone is always ``review``. Pure.
"""

from __future__ import annotations

import re

from airspace.parser.rules.zone import Message, Zone, sp

# the drones and the ban, in Russian: "запрет на использование беспилотных летательных аппаратов", "запрет на
# полёты дронов", "запрет на запуск БПЛА"
_RU_DRONES = (r"(?:беспилотн\w+\s+(?:летательн\w+\s+аппарат\w*|воздушн\w+\s+суд\w*|аппарат\w*)|беспилотник\w*"
              r"|дрон\w*|квадрокоптер\w*|БПЛА)")
_RU_BAN = rf"[Зз]апрет\w*\s+на\s+(?:использование|полёты|полеты|запуск\w*|эксплуатацию)\s+{_RU_DRONES}"
# a place the ban is put in: a capitalised word or two (the case the sentence gives it), after a lowercase adjective
# ("в подмосковном Серпухове") or "на территории" ("на территории Белгородской области")
_RU_PLACE = r"(?P<place>[А-ЯЁ][а-яё-]+(?:\s+(?:[А-ЯЁ][а-яё-]+|области|края|района|округа|республики))?)"
RU_BAN_IN = re.compile(
    rf"{_RU_BAN}[^.!?\n]{{0,60}}?\s(?:в|во|на\s+территории)\s+(?:[а-яё]+(?:ом|ой|ем|ей)\s+)?{_RU_PLACE}")
# the ban in Turkish: "İHA uçuş yasağı", "insansız hava aracı uçuş yasağı", "dron uçuş yasağı"
_TR_BAN = r"(?:(?:İHA|İha|iha|insansız\s+hava\s+aracı|[Dd]ron|[Dd]rone)\s+[Uu]çuş\s+[Yy]asağı|[Uu]çuş\s+[Yy]asağı)"
TR_BAN_IN = re.compile(
    rf"(?P<place>[A-ZÇĞİÖŞÜ][\wçğıöşüÇĞİÖŞÜ]+(?:\s+[A-ZÇĞİÖŞÜ][\wçğıöşüÇĞİÖŞÜ]+)?)[’'](?:ta|da|te|de|nda|nde)\s+"
    rf"(?:[\wçğıöşüÇĞİÖŞÜ]+\s+){{0,3}}?{_TR_BAN}")


def news_ru_tr_places(m: Message) -> list[Zone]:
    """The zone of a drone ban reported in Russian or Turkish prose (free text only): the first place a ban phrase
    names, ``[]`` when there is none."""
    if m.h.kind != "other":
        return []
    for phrase in (RU_BAN_IN, TR_BAN_IN):
        r = phrase.search(m.text, m.lo, m.hi)
        if r is not None:
            return [Zone({"name": sp(m.text, *r.span("place"))}, r.start(), r.end(), "named")]
    return []
