"""The place of a ban that prose reports without a phrase the other readers know: the city, country or venue the
ban's own sentence names.

``Delhi Police bans flying of drones, other aerial platforms``; ``UAE suspends permits for drones``; ``… Mumbai
police has restricted the flying of drones … in the city``; in the other languages of Latin letters alike. The places
after the ban word are the ones banned over (``banned drones over Atlanta``), else those before it (who bans). The
zone is the place as written, never a clause: only a name the gazetteer knows (``parser.gazetteer``: cities of
50,000 people or more, countries) or a Title-Case name that ends in a word for a venue (``Kirribilli House``,
``Lansdowne Road Stadium``) is taken, so a named zone here is a place, and always ``review`` (a named place is
looked up by the operator). Tried last, after every reader that reads the ban's own phrase. Pure
but for the gazetteer's tables.
"""

from __future__ import annotations

import re
from bisect import bisect_right

from airspace.parser.gazetteer import named_places
from airspace.parser.places import trim_place
from airspace.parser.rules.news import BAN as EN_BAN
from airspace.parser.rules.news import PLACE, VENUE
from airspace.parser.rules.news_eu import BAN as EU_BAN
from airspace.parser.rules.news_eu import PLACE as EU_PLACE
from airspace.parser.rules.zone import Message, Zone, sp

# a ban in the other languages with Latin letters that reports are written in (Dutch, the Nordic languages, Czech and
# Slovak, Polish, Indonesian and Malay, Tagalog, Turkish, Finnish); English and the languages ``news_eu`` reads have
# their own words
_OTHER_BAN = re.compile(r"verbo[dt]|vliegverbod|forbud|förbud|förbjud|zakáz|zakaz|dilarang|larangan|bawal"
                        r"|yasa[kğ]|kielto|kiellet"
                        # (closed, not allowed: Dutch, Nordic, Czech, Indonesian, Tagalog, Turkish)
                        r"|gesloten|stengt|stängt|lukket|uzav[řr]en|ditutup|tidak\s+diizinkan|sarado"
                        r"|hindi\s+(?:pinapayagan|papayagan)|kapatıl|kapalı", re.I)
# an English closure or bar in other words than ``news.BAN``'s: "airspace … will be closed", "barred", "off-limits"
_EN_CLOSED = re.compile(r"\b(?:closed|closure|shut|barred|forbid\w*|off[- ]limits|grounded"
                        r"|not\s+(?:be\s+)?(?:allowed|permitted))\b", re.I)
_BANS = (EN_BAN, EU_BAN, _OTHER_BAN, _EN_CLOSED)
# a sentence ends at a full stop, a question or exclamation mark before a blank, or at a line break (a headline)
_SENTENCE_END = re.compile(r"[.!?](?=\s)|\n")
_MAX_PLACES = 4
_LOWER = re.compile(r"[a-zà-öø-ÿ]")


_MAX_SENTENCES = 20  # (ban sentences looked at: a hostile text of ban words stays linear)


def _sentences(text: str, lo: int, hi: int) -> tuple[list[int], list[int]]:
    """Where each sentence of ``text[lo:hi]`` starts and ends (the bounds ``_sentence`` bisects)."""
    starts, ends = [lo], []
    for m in _SENTENCE_END.finditer(text, lo, hi):
        ends.append(m.start())
        starts.append(m.end())
    ends.append(hi)
    return starts, ends


# the first word of a sentence, then a word in lower case: capitalised only for where it stands ("Una zona
# restringida de vuelo …": Spanish "a", not the town of Una); a place so written is not taken
_LOWER_NEXT = re.compile(r"[ \t]+[a-zà-öø-ÿ]")


def _sentence_word(text: str, s: int, e: int) -> bool:
    """Whether the place at ``s``..``e`` is one word that opens a sentence or a clause after a colon, and a lowercase
    word follows it (an abbreviation in capitals, ``UAE``, is a name wherever it stands)."""
    before = text[max(0, s - 40):s].rstrip(" \t\"'“‘«(¿¡")
    word = text[s:e]
    return ((not before or before[-1] in ".!?:;\n") and " " not in word and not word.isupper()
            and _LOWER_NEXT.match(text, e) is not None)


# a capitalised word just before a place makes it part of a longer name ("Istana Negara", the palace, is not the
# town of Negara), unless it is an article, a preposition or says which part of the place ("The", "In", "Greater")
_NAME_BEFORE = re.compile(r"(?<![\w'’.-])(?P<w>[A-Z][\w'’.-]*)[ \t]+$")
_NOT_NAME = {"The", "El", "La", "Le", "Les", "Los", "Las", "Die", "Der", "Das", "De", "Het", "Il", "Lo", "Greater",
             "Central", "North", "South", "East", "West", "Northern", "Southern", "Eastern", "Western", "Downtown",
             # a preposition that opens a sentence ("In Manila, drones …", "En Lima …", "Sa Maynila …")
             "In", "At", "On", "Over", "Across", "Around", "Near", "From", "To", "For", "Within", "Throughout",
             "En", "Em", "No", "Na", "Dans", "Au", "Im", "Bei", "Di", "Sa", "Ang", "And"}


def _name_part(text: str, s: int) -> bool:
    """Whether the place starting at ``s`` is the end of a longer capitalised name."""
    w = _NAME_BEFORE.search(text, max(0, s - 40), s)
    return w is not None and w.group("w") not in _NOT_NAME


_PLACE = re.compile(PLACE)


_EU_PLACE = re.compile(EU_PLACE)
# a venue as the languages ``news_eu`` reads name one, its kind first ("Estadio Azteca", "Stade de France",
# "Flughafen München")
_EU_VENUE = {"estadio", "estádio", "stade", "stadion", "stadio", "aeropuerto", "aeroporto", "aéroport", "flughafen",
             "aeródromo", "aérodrome", "flugplatz", "parque", "plaza", "praça", "piazza", "palacio", "palácio", "palais",
             "palast", "palazzo", "puerto", "porto", "hafen", "centro", "complejo", "complexo"}


# (a venue's name and how it shows its kind: English writes the kind last, the ``news_eu`` languages first)
_VENUE_FORMS = ((_PLACE, lambda words: VENUE.fullmatch(words[-1].casefold()) is not None),
                (_EU_PLACE, lambda words: words[0].casefold() in _EU_VENUE))


def _venues(text: str, s: int, e: int) -> list[tuple[int, int]]:
    """The venues a sentence names: Title-Case names that end in a word for a venue ("Mercedes-Benz Stadium"), or
    start with one in the languages ``news_eu`` reads ("Estadio Azteca")."""
    out: list[tuple[int, int]] = []
    for rx, is_venue in _VENUE_FORMS:
        for p in rx.finditer(text, s, e):
            ps, pe = trim_place(text, p.start(), p.end())
            words = text[ps:pe].split()
            if len(words) >= 2 and is_venue(words) and (ps, pe) not in out:
                out.append((ps, pe))
    return out


def _ban_sentence_places(text: str, lo: int, hi: int) -> list[tuple[int, int]]:
    """The places the first sentence stating a ban that names any place names: those after the ban word (what is
    banned where: "banned drones over Atlanta") else those before it (who bans: "Delhi Police bans"), each once."""
    bans = sorted((b for ban in _BANS for b in ban.finditer(text, lo, hi)), key=lambda b: b.start())
    if not bans:
        return []
    starts, ends = _sentences(text, lo, hi)
    seen: set[int] = set()
    for b in bans:
        k = bisect_right(starts, b.start()) - 1
        if k in seen:
            continue
        if len(seen) >= _MAX_SENTENCES:
            break
        seen.add(k)
        s, e = starts[k], ends[k]
        # (an abbreviation in a sentence all in capitals is a word of it: "CONTACT US", "UK AIP")
        shouted = _LOWER.search(text, s, e) is None
        places = [(ps, pe) for ps, pe, _ in named_places(text, s, e, every_country=True)
                  if not _sentence_word(text, ps, pe) and not _name_part(text, ps)
                  and not (shouted and text[ps:pe].isupper())]
        places = sorted(places + _venues(text, s, e), key=lambda p: p[0])
        if not places:
            continue
        # (the places after the first ban word of the sentence; another ban word later in it changes nothing)
        after = [p for p in places if p[0] >= b.end()]
        out: dict[str, tuple[int, int]] = {}
        for ps, pe in after or places:
            out.setdefault(text[ps:pe].casefold(), (ps, pe))
        return list(out.values())[:_MAX_PLACES]
    return []


def report_place(m: Message) -> list[Zone]:
    """The named zones of a ban a report states (free text only) at the places its sentence names; ``[]`` when the
    text states no ban or its sentences name no place the gazetteer knows."""
    if m.h.kind != "other":
        return []
    text = m.text
    spans = _ban_sentence_places(text, m.lo, m.hi)
    return [Zone({"name": sp(text, s, e)}, s, e, "named") for s, e in spans]
