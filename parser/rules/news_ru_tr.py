"""Places in Russian and Turkish prose that reports a drone ban (news items, municipal and governors' statements),
as ``news`` reads English prose.

- Russian: a ban on drones (``запрет на использование беспилотных летательных аппаратов``, ``запрет на полёты
  дронов``/``БПЛА``) put in place in a town: ``… ввели в подмосковном Серпухове``, ``действует в Курске``, ``на
  территории Белгородской области``; else a sentence with a ban word and the drones in it, the place after в / над
  / на территории (``Полёты дронов запрещены над Курском``, ``В Белгороде введены ограничения на использование
  БПЛА``). The place is written as the sentence declines it (``Серпухове``, the prepositional case): the name as
  written, never re-inflected.
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


# a drone ban said otherwise in one Russian sentence: "полёты дронов запрещены над Курском", "введены ограничения на
# использование БПЛА в Белгороде": a ban word and the drones in the sentence, then the place after в / над / на
# территории (a capitalised word, as the sentence declines it)
_RU_BAN_WORD = re.compile(r"[Зз]апрет\w*|[Зз]апрещ\w*|[Оо]граничени\w*|[Оо]граничен\w*")
RU_SENTENCE_PLACE = re.compile(
    rf"(?<![\w-])(?:[Вв]|[Вв]о|[Нн]ад|[Нн]а\s+территории)\s+(?:[а-яё]+(?:ом|ой|ем|ей|ых|их)\s+)?{_RU_PLACE}")
_RU_SENTENCE = re.compile(r"[^.!?\n]+")


def _ru_sentence_place(text: str, lo: int, hi: int) -> re.Match | None:
    """The first place of a Russian sentence that bans drones (a ban word and the drones in it)."""
    for s in _RU_SENTENCE.finditer(text, lo, hi):
        if _RU_BAN_WORD.search(s.group()) and re.search(_RU_DRONES, s.group()):
            r = RU_SENTENCE_PLACE.search(text, s.start(), s.end())
            if r is not None:
                return r
    return None


def news_ru_tr_places(m: Message) -> list[Zone]:
    """The zone of a drone ban reported in Russian or Turkish prose (free text only): the first place a ban phrase
    names, ``[]`` when there is none."""
    if m.h.kind != "other":
        return []
    r = (RU_BAN_IN.search(m.text, m.lo, m.hi) or TR_BAN_IN.search(m.text, m.lo, m.hi)
         or _ru_sentence_place(m.text, m.lo, m.hi))
    return [Zone({"name": sp(m.text, *r.span("place"))}, r.start(), r.end(), "named")] if r is not None else []
