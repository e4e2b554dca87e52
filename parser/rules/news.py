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
from functools import lru_cache

from airspace.parser.distwords import distance_m
from airspace.parser.endates import MONTH_WORDS, WEEKDAYS
from airspace.parser.places import drop_tail_words, trim_place
from airspace.parser.rules.patterns import DIST_UNITS, NUM_WORDS
from airspace.parser.rules.zone import Message, Zone, sp

# the ban itself, somewhere in the text: without one, a place in prose is no zone
BAN = re.compile(r"\b(?:no[- ]fly|no[- ]drone|drone[- ]free|ban(?:s|ned|ning)?|prohibit\w*|restrict(?:s|ed|ion|ions)\b|suspend\w*"
                 r"|cannot\s+be\s+flown|(?:not|no\s+longer)\s+be\s+(?:allowed|permitted|flown)|(?-i:TFRs?)\b)", re.I)
# a distance as prose writes it, the number in digits or a word ("five-km", "1-km", "15 km", "2 nautical miles")
DIST = rf"(?P<d>(?<![\w.])(?:\d+(?:\.\d+)?|{NUM_WORDS})(?:\s?|[-‐])(?:KMS|{DIST_UNITS}))(?![\w])"
# the kinds of place a restriction is drawn around (a venue), and the kinds a place may also be (a region or a site:
# "the Los Angeles area" is where a ring reaches, not its centre)
_VENUE_WORDS = (r"park|stadium|grounds?|airport|airfield|aerodrome|helipad|heliport|base|palace|complex|venue"
                r"|cent(?:er|re)|campus|house|building|hospital|prison|arena|circuit|track|showground|fairground")
_KIND = rf"(?:{_VENUE_WORDS}|area|square|city|district|island|port|harbou?r|bridge|station|plant|range)"
VENUE = re.compile(rf"(?:{_VENUE_WORDS})")
_CAP = r"(?:[A-Z][\w'’.&-]*)"
PLACE = rf"(?-i:{_CAP}(?:\s+(?:{_CAP}|of|de|del|du|al|the|la))*(?:(?:\s+[a-z]+)?\s+{_KIND}\b)?)"
_LIST = rf"(?P<places>{PLACE}(?:\s*,\s*(?:and\s+)?{PLACE}|\s+and\s+{PLACE}){{0,9}})"
_LEAD = r"(?:the\s+)?(?:cent(?:er|re)\s+of\s+(?:the\s+)?)?"
# what a phrase names: places, or a kind of place alone ("the stadium") standing for the one place of that kind the
# text names ("… around Mercedes-Benz Stadium in Atlanta … within a 30-nautical-mile radius of the stadium")
_TARGET = rf"(?:{_LEAD}{_LIST}|the\s+(?P<kind>{_KIND})\b)"
_D = DIST.replace("?P<d>", "?:")
# (a radius without a preposition before it: "a TFR with a 30-mile radius around the stadium")
RADIUS_PHRASE = re.compile(
    rf"\b(?:(?:within|in(?=\s+(?:an?\s+|the\s+)?{_D}[\s-]radius)|for(?=\s+(?:an?\s+)?{_D}\s+around))\s+"
    rf"(?:an?\s+|the\s+)?|(?:an?\s+)?(?={_D}[\s-]radius))"
    rf"{DIST}(?:[\s-]radius)?\s+(?:of|around|from|at|near|surrounding)\s+{_TARGET}", re.I)
# what a zone is called in prose: "no-fly zone", "drone-free zone", "exclusion zone", "restricted airspace",
# "temporary flight restriction"
# "temporary flight restriction", "flight restrictions", "drone restrictions"; in quotes or with its acronym after it
# ("a “No Drone Zone”", "Temporary Flight Restriction (TFR) over …")
_ZONE_WORDS = (r"(?:[“\"‘']?(?:(?:no[- ]fly|no[- ]drone|drone[- ]free|exclusion|restricted)\s+zones?|restricted\s+airspace"
               r"|(?:temporary\s+)?(?:flight|drone|airspace)\s+restrictions?|(?:VIP\s+)?(?-i:TFRs?))[”\"’']?(?:\s*\([A-Z]{2,5}\))?)")
# (the zone said to be in place between: "A 2-mile no-drone zone will be in place around Soldier Field")
_IN_PLACE = (r"(?:\s+(?:will\s+be|is|are|has\s+been|have\s+been|was|were)\s+(?:in\s+(?:place|effect|force)|set\s+up"
             r"|established|imposed|enforced|put\s+in\s+place))?")
SIZED_ZONE = re.compile(rf"\b{DIST}\s+{_ZONE_WORDS}{_IN_PLACE}\s+(?:around|over|at|near|above|in)\s+{_TARGET}", re.I)
# (the flights it is for between: "a no-fly zone for drones over the stadium")
_FLIGHTS = r"(?:drones?|UAVs?|UAS|RPAS|unmanned\s+aircraft(?:\s+systems?)?)"
_FOR_FLIGHTS = rf"(?:\s+for\s+(?:all\s+)?{_FLIGHTS}(?:\s+and\s+[\w-]+)?)?"
ZONE_OVER = re.compile(rf"\b{_ZONE_WORDS}{_FOR_FLIGHTS}{_IN_PLACE}\s+(?:around|over|at|near|above)\s+{_TARGET}", re.I)
# a place declared one: "Mercedes-Benz Stadium … has been declared a “No Drone Zone”", "declared Srinagar a no-fly
# zone", "… will be a no-drone zone"
_DECLARED = r"(?:declared|designated|made)\s+(?:as\s+)?"
_BE_DECLARED = re.compile(rf"\b(?:(?:has|have)\s+been|was|were|is|are|will\s+be)\s+(?:{_DECLARED})?(?:an?\s+)?"
                          rf"(?:temporary\s+)?{_ZONE_WORDS}", re.I)
# the places before it, ending where it starts (searched in a short window before each declaration: a list that
# must end at a point is found from every start before it, so the window keeps hostile runs of capitals linear)
_DECLARED_PLACES = re.compile(
    rf"{_LIST}(?:\s+in\s+{_CAP}(?:\s+{_CAP})*(?:,\s*{_CAP}(?:\s+{_CAP})*)?)?"
    rf"(?:\s+and\s+(?:its|the)\s+(?:surroundings|vicinity|surrounding\s+areas?))?\s+$", re.I)
_DECLARE_PLACE = re.compile(
    rf"\b{_DECLARED}{_LEAD}(?P<places>{PLACE})\s+(?:as\s+)?(?:an?\s+)?(?:temporary\s+)?{_ZONE_WORDS}", re.I)


class _Declared:
    """A place declared one (the phrase ``phrase_zones`` reads as a regex): "Mercedes-Benz Stadium … has been declared
    a “No Drone Zone”", "Srinagar and its surroundings have been declared a no-fly zone", "declared Kalaburagi a
    no-drone zone", "Wembley Stadium will be a drone-free zone"."""

    @staticmethod
    def finditer(text: str, lo: int, hi: int):
        for v in _BE_DECLARED.finditer(text, lo, hi):
            m = _DECLARED_PLACES.search(text, max(lo, v.start() - 160), v.start())
            if m is not None:
                yield m
        yield from _DECLARE_PLACE.finditer(text, lo, hi)


DECLARED = _Declared()
# the restriction's own radius, its place not written in the phrase ("within the TFR’s 30-nautical-mile radius"): around
# the one venue the text names
OWN_RADIUS = re.compile(
    rf"\b(?:within|inside)\s+(?P<own>the\s+(?:TFR|no[- ]fly\s+zone|no[- ]drone\s+zone|restricted\s+area|restriction)[’']s)"
    rf"\s+{DIST}[\s-]radius", re.I)
# a radius centred on a place: "40 nautical miles radius centered on Luneta Park", "a 5 km radius centred at …"
RADIUS_CENTRED = re.compile(
    rf"\b(?:an?\s+)?{DIST}[\s-]radius\s+cent(?:ere|re|er)d\s+(?:on|at|upon)\s+{_TARGET}", re.I)
# the flights the ban is about, where they are banned: "drone operations across Dublin’s Control Zone", "flying of
# drones over the jurisdiction of the NCT of Delhi"; a radius phrase or a zone of a size says more, and is read first
FLIGHTS_OVER = re.compile(
    rf"\b(?:{_FLIGHTS}\s+(?:(?:operations?|flights?|flying|use)\s+(?:across|over|in|within)|over)\s+"
    rf"(?:the\s+(?:jurisdiction|limits|territory|whole|entire)\s+of\s+)?"
    rf"|(?:over|across|within)\s+the\s+(?:jurisdiction|limits|territory)\s+of\s+){_TARGET}", re.I)
# places listed one to a line after the ban names them: "… restriction on drone flights up to 400 feet within the
# lateral boundaries of the following federal facility:\n• Administrative United States Penitentiary Thomson near
# Clinton, IL" (the FAA's 99.7 facility lists); each line a place, as written
LISTED = re.compile(
    r"\b(?:boundaries\s+of|over|above|around|at|near|within)\s+the\s+following\s+(?:[\w-]+\s+){0,3}?"
    r"(?:facilit(?:y|ies)|locations?|sites?|areas?|installations?|venues?|places?|properties|property)\s*:[ \t]*\n"
    r"(?P<items>(?:[ \t]*[•·▪●*\-–][ \t]*[^\n]{3,150}(?:\n|$)){1,20})", re.I)
_ITEM = re.compile(r"[ \t]*[•·▪●*\-–][ \t]*(?P<p>[^\n]+)")
# the flights said banned where they are: "drones have been banned in Srinagar", "drones are prohibited from flying
# over the stadium", "a ban on drones near Luneta Park" (the flights and the ban in one phrase)
_BANNED = (r"(?:banned|prohibited|restricted|suspended|not\s+(?:be\s+)?(?:allowed|permitted))"
           r"(?:\s+from\s+(?:flying|operating))?")
BANNED_IN = re.compile(
    rf"\b(?:{_FLIGHTS}\s+(?:(?:are|is|were|was|will\s+be|have\s+been|has\s+been)\s+)?{_BANNED}"
    rf"|ban\s+on\s+(?:the\s+)?(?:(?:use|flying|operation)\s+of\s+)?{_FLIGHTS})"
    rf"\s+(?:in|over|at|around|near|across|within)\s+{_TARGET}", re.I)
# a sea area a missile test, a firing or a no-fly zone is declared in ("India has issued a notification about a
# possible missile test in the Bay of Bengal", "a no-fly zone over the South China Sea"): the named body of water
_WATER = (rf"(?-i:(?:Bay|Gulf|Sea|Straits?)\s+of\s+{_CAP}(?:\s+{_CAP})*"
          rf"|{_CAP}(?:\s+{_CAP})*\s+(?:Sea|Ocean|Gulf|Straits?|Channel|Bight))")
SEA_AREA = re.compile(
    rf"\b(?:{_ZONE_WORDS}|NOTAMs?|(?:missile|rocket|weapons?|live[- ]fire)\s+(?:tests?|launch(?:es)?|firings?"
    rf"|exercises?|drills?))\s+(?:[\w-]+\s+){{0,4}}?(?:in|over|off|across|above)\s+(?:the\s+)?(?P<places>{_WATER})\b",
    re.I)
# the airspace over a place said closed ("The airspace over Kashmir Valley will remain closed for drones",
# "Authorities have closed the airspace above the Old City to all drones")
_CLOSED = r"(?:(?:will|would)\s+(?:remain|be)|(?:is|are|was|were|has\s+been|have\s+been|remains?))\s+closed"
CLOSED_AIRSPACE = re.compile(
    rf"\b(?:closed?|closing|closure\s+of)\s+(?:the\s+)?airspace\s+(?:over|above|around|of)\s+{_TARGET}", re.I)
AIRSPACE_CLOSED = re.compile(rf"\bairspace\s+(?:over|above|around|of)\s+{_TARGET}\s+{_CLOSED}", re.I)
_ONE = re.compile(PLACE)  # (a place is case-sensitive inside phrases read in any case)
# (a tuple: phrases read together, as one: a TFR's own radius beside the rings around a named venue)
_PHRASES = ((RADIUS_PHRASE, OWN_RADIUS), RADIUS_CENTRED, SIZED_ZONE, ZONE_OVER, DECLARED, FLIGHTS_OVER, BANNED_IN,
            LISTED, SEA_AREA, (CLOSED_AIRSPACE, AIRSPACE_CLOSED))


# capitalised words a list runs on into that name a document, a rule or a unit, never a place ("… centered on
# Luneta Park and NOTAM (B4593/17), …")
_NOT_PLACE = re.compile(r"(?:NOTAMS?|TFRS?|AIC|AIP|UTC|GMT|FAA|UAS|UAVS?|RPAS?|ATC)", re.I)
# "over" is a time as often as a place in English ("drones over the weekend", "over St Patrick's Day"): a name that
# ends in a time word is a when, never a place
_DATE_WORDS = "|".join(MONTH_WORDS + WEEKDAYS)  # (capitalised in English, and never a place)
_WHEN = re.compile(rf"(?:\b(?:days?|weekends?|eve|holidays?|christmas|easter|new\s+year|week|season|period)"
                   rf"|\b(?:{_DATE_WORDS}))$", re.I)


# the town a named venue is in, part of its name ("Mercedes-Benz Stadium in Atlanta", "SoFi Stadium in Inglewood,
# California"): an operator looks the place up by both; a date after "in" is no town
_TOWN = rf"(?!(?i:{_DATE_WORDS})\b){_CAP}(?:\s+{_CAP})*"
_LOCALITY = re.compile(rf"\s+in\s+(?-i:{_TOWN}(?:,\s*{_TOWN})?)")
_ENDS_IN_KIND = re.compile(rf"\s(?i:{_KIND})$")


def _with_town(text: str, s: int, e: int) -> tuple[int, int]:
    """A venue's span with the town written after it ("… Stadium in Atlanta"), where the place is a kind of place."""
    if _ENDS_IN_KIND.search(text, s, e) and (t := _LOCALITY.match(text, e)) is not None:
        return trim_place(text, s, t.end())
    return s, e


@lru_cache(maxsize=8)  # (once per message and kind, however often a text writes "the stadium")
def _one_of_kind(text: str, kind: str) -> tuple[int, int] | None:
    """Where the text first names the one place of ``kind`` it names ("the stadium": ``Mercedes-Benz Stadium``; kind
    ``*``: a venue of any kind); ``None`` when it names none or several (then "the stadium" could be either)."""
    want = kind.casefold().rstrip("s")
    first: dict[str, tuple[int, int]] = {}
    for p in _ONE.finditer(text):
        s, e = trim_place(text, p.start(), p.end())
        words = text[s:e].split()
        last = words[-1].casefold().rstrip("s") if words else ""
        if len(words) >= 2 and (last == want or (want == "*" and VENUE.fullmatch(last))):
            first.setdefault(" ".join(words).casefold(), (s, e))
    return _with_town(text, *next(iter(first.values()))) if len(first) == 1 else None


def _places(text: str, m: re.Match) -> list[tuple[int, int]]:
    """The spans of the places a phrase lists, each trimmed to the place itself (a sentence end, a clause); for a
    kind of place alone, the one place of that kind the text names."""
    if m.groupdict().get("kind") or m.groupdict().get("own"):
        one = _one_of_kind(text, m.groupdict().get("kind") or "*")
        return [one] if one is not None else []
    if m.groupdict().get("items"):
        return [trim_place(text, *i.span("p")) for i in _ITEM.finditer(text, *m.span("items"))]
    out: list[tuple[int, int]] = []
    lo, hi = m.span("places")
    pos = lo
    while (p := _ONE.search(text, pos, hi)) is not None:
        s, e = trim_place(text, p.start(), p.end())
        e = s + len(drop_tail_words(text[s:e]))  # ("Palace Grounds, and": the sentence's words, not the place's)
        if e > s and not _NOT_PLACE.fullmatch(text[s:e]) and not _WHEN.search(text, s, e):
            out.append(_with_town(text, s, e) if p.end() >= hi else (s, e))
        pos = p.end()
    return out


def phrase_zones(m: Message, phrases: Sequence[re.Pattern | tuple[re.Pattern, ...]],
                 places: Callable[[str, re.Match], list[tuple[int, int]]]) -> list[Zone]:
    """The named zones of the first of ``phrases`` (in order; a tuple of phrases is read as one) that names a place:
    each place ``places`` finds in a match, with the match's radius (its group ``d``) where it has one, once however
    often written; at most 20.

    Rings of several sizes (a 30 NM TFR around a stadium on game day, a 1 NM one on the days before) are each their
    own zone, and each states its own limits in its own sentence ("… up to 17,999 feet", "… up to an altitude of
    1,000 feet"): their zones read limits after their phrase first (``Zone.local_limits``)."""
    text = m.text
    zones: list[Zone] = []
    seen: set[tuple[str, float | None]] = set()  # (each place once per ring: its name and its radius in metres)
    sizes: set[float | None] = set()  # (of the zones with a radius)
    for group in phrases:
        matches = sorted((r for phrase in (group if isinstance(group, tuple) else (group,))
                          for r in phrase.finditer(text, m.lo, m.hi)), key=lambda r: r.start())
        for r in matches:
            radius = sp(text, *r.span("d")) if r.groupdict().get("d") else None
            size = _size(radius.text) if radius is not None else None
            for s, e in places(text, r):
                key = (" ".join(text[s:e].split()).casefold(), size)
                if key in seen:
                    continue
                seen.add(key)
                f = {"name": sp(text, s, e)}
                if radius is not None:
                    f["radius"] = radius
                    sizes.add(size)
                zones.append(Zone(f, r.start(), r.end(), "named"))
        if zones:
            break
    if len(sizes) > 1:
        for z in zones:
            z.local_limits = True
    return zones[:20]


def _size(radius: str) -> float | None:
    """A radius in metres, ``None`` when it does not read as a distance (compared, never written into a record)."""
    try:
        return round(distance_m(radius), 1)
    except ValueError:
        return None


def news_places(m: Message) -> list[Zone]:
    """The zones of a ban reported in English prose (free text only); ``[]`` when the text states no ban."""
    if m.h.kind != "other":
        return []
    if BAN.search(m.text, m.lo, m.hi) is None:
        # (airspace said closed over a place is a ban of its own, read only in those words)
        return phrase_zones(m, ((CLOSED_AIRSPACE, AIRSPACE_CLOSED),), _places)
    return phrase_zones(m, _PHRASES, _places)
