"""A Russian domestic NOTAM (AFTN, Cyrillic) as the Latin ICAO NOTAM it stands for, character for character.

Russian AFTN traffic writes the ICAO NOTAM with the Cyrillic letters that share a key with the Latin ones on the
MTK-2 teleprinter: ``Щ)`` is Q), ``А) Б) Ц) Д) Е) Ф) Г)`` are A) B) C) D) E) F) G), ``НОТАМН`` is NOTAMN, the FIR
``УУВЖ`` is UUWV, the Q-code ``ЩРТЦА`` is QRTCA. Coordinates carry Russian hemisphere letters instead: ``С``
(севернее, north), ``Ю`` (south), ``В`` (восточнее, east), ``З`` (west), read as N/S/E/W where they close a
latitude or longitude. A few words stand for ICAO abbreviations and are written as those, padded with blanks to
their own length: ``ПОВЕРХНОСТЬ`` (SFC), ``ЗЕМЛЯ`` (GND), ``ЭШ`` (FL), ``ЕЖЕДНЕВНО`` (DAILY), ``ОКРУЖНОСТЬ``
(CIRCLE), ``ЦЕНТР`` (CENTRE is one letter longer: CTR), ``СР.УР.МОРЯ`` (AMSL), ``УР.ЗЕМЛИ`` / ``ОТ ЗЕМЛИ`` (AGL). ``latin_view`` keeps every character's position, so a span
of the view is the same span of the message. Messages not in that layout are returned unchanged. Pure.
"""

from __future__ import annotations

import re

# an item letter of the Cyrillic layout at the start of a line or after a blank: Щ) (item Q) with А) and Б)
_LAYOUT = re.compile(r"(?:^|[\s(])Щ\)")
_ITEMS = re.compile(r"(?:^|[\s(])[АБ]\)")
# the MTK-2 key partners of the Latin letters (and the nearest Latin letter for the rest)
_KEYS = str.maketrans({
    "А": "A", "Б": "B", "В": "W", "Г": "G", "Д": "D", "Е": "E", "Ё": "E", "Ж": "V", "З": "Z", "И": "I", "Й": "J",
    "К": "K", "Л": "L", "М": "M", "Н": "N", "О": "O", "П": "P", "Р": "R", "С": "S", "Т": "T", "У": "U", "Ф": "F",
    "Х": "H", "Ц": "C", "Ч": "C", "Ш": "S", "Щ": "Q", "Ъ": "X", "Ы": "Y", "Ь": "X", "Э": "E", "Ю": "U", "Я": "A",
})
_COORD = re.compile(r"(?<!\d)(\d{4}(?:\d{2})?(?:[.,]\d+)?)\s?([СЮ])\s?(\d{5}(?:\d{2})?(?:[.,]\d+)?)\s?([ВЗ])")
_HEMI = {"С": "N", "Ю": "S", "В": "E", "З": "W"}
_WORDS = [
    # (a height's reference: "450 М УР.ЗЕМЛИ" above ground level, "2000 М СР.УР.МОРЯ" above mean sea level)
    (re.compile(r"(?:СР\.?\s?)?УР(?:\.|ОВ(?:НЯ|ЕНЬ))?\s?МОРЯ|НАД\s+УРОВНЕМ\s+МОРЯ"), "AMSL"),
    (re.compile(r"(?:(?:ОТ|НАД|ОТН\.?)\s+)?(?:УР\.?\s?|УРОВНЯ\s+|УРОВНЕМ\s+)ЗЕМЛ[ИЕЁ]Й?|(?:ОТ|НАД|ОТН\.?)\s+ЗЕМЛ[ИЕЁ]Й?"),
     "AGL"),
    (re.compile(r"ПОВЕРХНОСТ[ЬИ]"), "SFC"), (re.compile(r"ЗЕМЛ[ЯИ]"), "GND"), (re.compile(r"ЭШ(?=\s?\d)"), "FL"),
    (re.compile(r"ЕЖЕДНЕВНО"), "DAILY"), (re.compile(r"ОКРУЖНОСТ[ЬИ]"), "CIRCLE"), (re.compile(r"ЦЕНТР(?:ОМ)?"), "CTR"),
    (re.compile(r"БЕЗ\s+ОГРАНИЧЕНИ[ЯЙ]"), "UNL"), (re.compile(r"(?<![А-Я])ДО(?=\s?\d)"), "TO"),
]


CYRILLIC_NOTE = ("note: read as the Latin ICAO NOTAM its Cyrillic AFTN letters stand for (Щ) = Q), А) = A), "
                 "Б) = B), Ц) = C); С/Ю/В/З closing a coordinate = N/S/E/W)")


def is_cyrillic_notam(text: str) -> bool:
    """Whether ``text`` is an ICAO NOTAM written in the Cyrillic letters of Russian AFTN traffic."""
    return bool(_LAYOUT.search(text) and _ITEMS.search(text))


def _pad(word: str, length: int) -> str:
    return word + " " * (length - len(word))


def latin_view(text: str) -> str:
    """The Latin ICAO NOTAM a Cyrillic one stands for (same length, every character where it was); ``text`` itself
    when it is not one."""
    if not is_cyrillic_notam(text):
        return text
    chars = list(text)
    for m in _COORD.finditer(text):
        for g in (2, 4):
            chars[m.start(g)] = _HEMI[m.group(g)]
    out = "".join(chars)
    for rx, word in _WORDS:
        out = rx.sub(lambda m, w=word: _pad(w, len(m.group())), out)
    return out.translate(_KEYS)
