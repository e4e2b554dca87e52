"""Places in English prose that reports a ban: news items, police orders, authority statements.

Read only in free text (no NOTAM header) that says something is banned, prohibited, restricted or suspended, or
names a no-fly zone; the places are the ones the ban's own phrase names:

- a radius around one place or a list of them: ``within a five-km radius of the KIADB aerospace park``, ``within a
  1-km radius at Krishna Vihar, Palace Grounds, and HQTC Helipad``, ``within 15 km radius from the center of Al
  Maktoum International Airport``, ``40 nautical miles radius centered on Luneta Park``;
- a zone of a size around, over or at a place: ``a 15 km no-fly zone around Dubai World Central`` (a no-fly,
  drone-free or exclusion zone, restricted airspace, a temporary flight restriction);
- such a zone over a place, without a size (a named area: the operator looks it up);
- else the flights banned over a place (``drone operations across Dublin’s Control Zone``, ``over the jurisdiction
  of the NCT of Delhi``).

A place is a run of capitalised words (``of``, ``de``, ``the`` inside it), and it may end with up to two small
words the last of which says what kind of place it is (``KIADB aerospace park``): a clause never reads as one.
Every place of the phrase is its own zone with the phrase's radius. Pure.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from airspace.parser.places import drop_tail_words, trim_place
from airspace.parser.rules.patterns import DIST_UNITS, NUM_WORDS
from airspace.parser.rules.zone import Message, Zone, sp

# the ban itself, somewhere in the text: without one, a place in prose is no zone
BAN = re.compile(r"\b(?:no[- ]fly|no[- ]drone|ban(?:s|ned|ning)?|prohibit\w*|restrict(?:s|ed|ion|ions)\b|suspend\w*"
                 r"|cannot\s+be\s+flown|(?:not|no\s+longer)\s+be\s+(?:allowed|permitted|flown))", re.I)
# a distance as prose writes it, the number in digits or a word ("five-km", "1-km", "15 km", "2 nautical miles")
DIST = rf"(?P<d>(?<![\w.])(?:\d+(?:\.\d+)?|{NUM_WORDS})(?:\s?|[-‐])(?:KMS|{DIST_UNITS}))(?![\w])"
_KIND = (r"(?:park|stadium|grounds?|airport|airfield|aerodrome|helipad|heliport|area|base|palace|complex|venue"
         r"|square|cent(?:er|re)|city|district|island|port|harbou?r|bridge|station|plant|campus|house|building"
         r"|hospital|prison|range|arena|circuit|track|showground|fairground)")
_CAP = r"(?:[A-Z][\w'’.&-]*)"
PLACE = rf"(?-i:{_CAP}(?:\s+(?:{_CAP}|of|de|del|du|al|the|la))*(?:(?:\s+[a-z]+)?\s+{_KIND}\b)?)"
_LIST = rf"(?P<places>{PLACE}(?:\s*,\s*(?:and\s+)?{PLACE}|\s+and\s+{PLACE}){{0,9}})"
_LEAD = r"(?:the\s+)?(?:cent(?:er|re)\s+of\s+(?:the\s+)?)?"
RADIUS_PHRASE = re.compile(
    rf"\b(?:within|in(?=\s+(?:an?\s+|the\s+)?{DIST.replace('?P<d>', '?:')}[\s-]radius))\s+(?:an?\s+|the\s+)?{DIST}"
    rf"(?:[\s-]radius)?\s+(?:of|around|from|at|near)\s+{_LEAD}{_LIST}", re.I)
# what a zone is called in prose: "no-fly zone", "drone-free zone", "exclusion zone", "restricted airspace",
# "temporary flight restriction"
_ZONE_WORDS = (r"(?:(?:no[- ]fly|no[- ]drone|drone[- ]free|exclusion|restricted)\s+zones?|restricted\s+airspace"
               r"|temporary\s+flight\s+restrictions?)")
SIZED_ZONE = re.compile(rf"\b{DIST}\s+{_ZONE_WORDS}\s+(?:around|over|at|near|above|in)\s+{_LEAD}{_LIST}", re.I)
ZONE_OVER = re.compile(rf"\b{_ZONE_WORDS}\s+(?:around|over|at|near|above)\s+{_LEAD}{_LIST}", re.I)
# a radius centred on a place: "40 nautical miles radius centered on Luneta Park", "a 5 km radius centred at …"
RADIUS_CENTRED = re.compile(
    rf"\b(?:an?\s+)?{DIST}[\s-]radius\s+cent(?:ere|re|er)d\s+(?:on|at|upon)\s+{_LEAD}{_LIST}", re.I)
# the flights the ban is about, where they are banned: "drone operations across Dublin’s Control Zone", "flying of
# drones over the jurisdiction of the NCT of Delhi"; a radius phrase or a zone of a size says more, and is read first
_FLIGHTS = r"(?:drones?|UAVs?|UAS|RPAS|unmanned\s+aircraft(?:\s+systems?)?)"
FLIGHTS_OVER = re.compile(
    rf"\b(?:{_FLIGHTS}\s+(?:operations?|flights?|flying|use)\s+(?:across|over|in|within)\s+"
    rf"(?:the\s+(?:jurisdiction|limits|territory|whole|entire)\s+of\s+)?"
    rf"|(?:over|across|within)\s+the\s+(?:jurisdiction|limits|territory)\s+of\s+){_LEAD}{_LIST}", re.I)
_ONE = re.compile(PLACE)  # (a place is case-sensitive inside phrases read in any case)
_PHRASES = (RADIUS_PHRASE, RADIUS_CENTRED, SIZED_ZONE, ZONE_OVER, FLIGHTS_OVER)


# capitalised words a list runs on into that name a document, a rule or a unit, never a place ("… centered on
# Luneta Park and NOTAM (B4593/17), …")
_NOT_PLACE = re.compile(r"(?:NOTAMS?|TFRS?|AIC|AIP|UTC|GMT|FAA|UAS|UAVS?|RPAS?|ATC)", re.I)


def _places(text: str, m: re.Match) -> list[tuple[int, int]]:
    """The spans of the places a phrase lists, each trimmed to the place itself (a sentence end, a clause)."""
    out: list[tuple[int, int]] = []
    lo, hi = m.span("places")
    pos = lo
    while (p := _ONE.search(text, pos, hi)) is not None:
        s, e = trim_place(text, p.start(), p.end())
        e = s + len(drop_tail_words(text[s:e]))  # ("Palace Grounds, and": the sentence's words, not the place's)
        if e > s and not _NOT_PLACE.fullmatch(text[s:e]):
            out.append((s, e))
        pos = p.end()
    return out


def phrase_zones(m: Message, phrases: Sequence[re.Pattern],
                 places: Callable[[str, re.Match], list[tuple[int, int]]]) -> list[Zone]:
    """The named zones of the first of ``phrases`` (in order) that names a place: each place ``places`` finds in a
    match, once however often written, with the match's radius (its group ``d``) where it has one; at most 20."""
    text = m.text
    zones: list[Zone] = []
    seen: set[str] = set()
    for phrase in phrases:
        for r in phrase.finditer(text, m.lo, m.hi):
            for s, e in places(text, r):
                name = " ".join(text[s:e].split()).casefold()
                if name in seen:
                    continue
                seen.add(name)
                f = {"name": sp(text, s, e)}
                if r.groupdict().get("d"):
                    f["radius"] = sp(text, *r.span("d"))
                zones.append(Zone(f, r.start(), r.end(), "named"))
        if zones:
            break
    return zones[:20]


def news_places(m: Message) -> list[Zone]:
    """The zones of a ban reported in English prose (free text only); ``[]`` when the text states no ban."""
    if m.h.kind != "other" or BAN.search(m.text, m.lo, m.hi) is None:
        return []
    return phrase_zones(m, _PHRASES, _places)
