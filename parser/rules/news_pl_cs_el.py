"""Places in Polish, Czech, Slovak and Greek prose that reports a flight ban (news items, authority statements), as
``news`` reads English prose.

Read only in free text (no NOTAM header) that bans flights or drones somewhere in it (``zakaz lotów dronów``,
``Rejony Ograniczeń Lotów``, ``zakázané lety dronů``, ``zákaz letov``, ``απαγορεύονται οι πτήσεις``). The places are
those a sentence that says the ban (a ban word in it) names after a marker:

- over a place: ``nad centrum Warszawy``, ``nad Prahou``, ``πάνω από την Αθήνα``;
- the area of a place: ``w rejonie Stadionu Narodowego``, ``v okolí Pražského hradu``, ``v centru Prahy``,
  ``περιοχή του λεκανοπεδίου της Αττικής``;
- a radius from or around a place: ``w promieniu 5 km od Stadionu Narodowego``, ``v okruhu 3 km od letiště``,
  ``σε ακτίνα 5 χιλιομέτρων από το Ολυμπιακό Στάδιο``;
- and the places joined to one (``nad centrum Warszawy i rejonem Stadionu Narodowego``: two zones).

A place is a run of capitalised words after at most one lowercase word that says what kind of place it is and is
part of its name (``centrum``, ``stadionu``, ``letiště``; Greek: a noun and its article, ``λεκανοπεδίου της``); a
word for "the area of" (``rejonem``, ``okolí``, ``oblasti``) is the marker's, not the name's. The name stays as the
sentence declines it (``centru Prahy``), never re-inflected. Where the sentence writes no place after a marker
with a kind word, a bare ``v``/``w`` + capitalised name is taken, the one nearest the ban word (``zákaz letů v
Praze``). The radius is the
marker's own, else the one distance the text states for an area (``v oblasti o průměru 7,4 kilometrů``: a diameter,
halved by the normaliser). A named place has no coordinates: its zone is always ``review``. Pure.
"""

from __future__ import annotations

import re

from airspace.parser.rules.patterns import DIST
from airspace.parser.rules.zone import Message, Zone, sp

# flights or drones, and a ban of them, somewhere in the text (Polish, Czech, Slovak)
_WEST_FLIGHTS = r"(?:lot(?:y|ów|u|ach)?|let(?:y|ů|u|ov|och)|dron\w*|bezzałogow\w*|bezpilotn\w*|statk\w*\s+powietrzn\w*)"
_WEST_BAN = re.compile(r"(?<!\w)(?:zakaz\w*|zákaz\w*|zakázan\w*|zakazan\w*|zabronion\w*|ograniczeń|ograniczeni\w*"
                       r"|omezen\w*|strefa\s+zakazu|bezletov\w*|uzavřen\w*)", re.I)
# the same in Greek (accents written or not)
_EL_FLIGHTS = r"(?:πτ[ηή]σε\w*|πτ[ηή]ση\w*|drones?|ντρ[οό]ν|μη\s+επανδρωμ[εέ]ν\w*|ιπτ[αά]μεν\w*)"
_EL_BAN = re.compile(r"απαγ[οό]ρευ\w*|απαγορευτικ\w*|περιορισμ\w*|απαγορε[υύ]\w*", re.I)

_UP = "A-ZÀ-ÖØ-ÞĄĆČĎĘĚŁŃŇŘŚŠŤŮŹŻŽĹĽŔ"
_CAP = rf"(?-i:[{_UP}][\w'’.-]*)"
# small words inside a name ("Pałac na Wodzie", "Most pod Ještědem")
_JOIN = r"(?-i:na|nad|pod|w|v|ve|u|im\.)"
_NAME = rf"{_CAP}(?:(?:\s+{_JOIN})?\s+{_CAP}){{0,5}}"
# a lowercase word that is part of the place's name: what kind of place it is
_KIND = (r"(?-i:(?:centrum|centru|centrem|stadion\w*|lotnisk\w*|letišt\w*|náměst\w*|namest\w*|plac\w*|pałac\w*|zámk\w*"
         r"|zámek|hrad\w*|port\w*|dworc\w*|nádraž\w*|most\w*|park\w*|areál\w*|parlament\w*|sídl\w*|ulic\w*|ulic)\s+)")
# a word that says "the area of" (the marker's, not the name's)
_AREA = (r"(?-i:(?:rejon\w*|okolic\w*|obszar\w*|stref\w*|teren\w*|okolí|oblast\w*|prostor\w*|území|okruh\w*"
         r"|oblasti|priestor\w*|okol\w*)\s+)")
_PLACE = rf"(?P<place>{_KIND}?{_NAME})"
# "nad X", "w rejonie X", "v okolí X", "na terenie X", "wokół X", "kolem X", "v centru X" (the kind word is the name's)
_MARKER = (rf"(?<!\w)(?:(?:nad|nade)\s+{_AREA}?|(?:w|we|v|ve|na)\s+{_AREA}|(?:w|we|v|ve)\s+(?={_KIND})"
           rf"|(?:wokół|kolem|okolo|około|okolí)\s+)")
HEADED = re.compile(rf"{_MARKER}{_PLACE}", re.I)
# "w promieniu 5 km od X", "v okruhu 3 km od/kolem X", "v polomeru 2 km od X"
RADIUS = re.compile(rf"(?<!\w)(?:w\s+promieniu|v\s+okruhu|v\s+polom[ěe]ru|v\s+okruhu\s+do|w\s+odległości)\s+(?:do\s+)?"
                    rf"(?P<d>{DIST})\s+(?:od|wokół|kolem|okolo|around)\s+{_AREA}?{_PLACE}", re.I)
# the bare "in" before a name ("zákaz letů v Praze", "zakaz lotów w Krakowie"), taken where no headed place is written
BARE = re.compile(rf"(?<!\w)(?:w|we|v|ve)\s+(?P<place>{_NAME})")
# a name that ends in a capitalised adjective names the noun after it too ("v Národním divadle")
_ADJ_END = re.compile(r"(?:ním|ném|ském|ckém|ské|ská|ský|ských|owym|owej|skim|skiej|ckiej|nym|nej)$")
_NOUN_AFTER = re.compile(r"\s+[a-záčďéěíňóřšťúůýžąćęłńśźż]+")
# a place joined to the one before it: "… i rejonem Stadionu Narodowego", "… a okolí Hradčan", "… oraz nad …"
JOINED = re.compile(rf"\s*,?\s*(?:i|a|oraz|ani)\s+(?:nad\s+)?{_AREA}?{_PLACE}")

_EL_UP = "Α-ΩΆΈΉΊΌΎΏΪΫ"
_EL_LOW = "α-ωάέήίόύώϊϋΐΰς"
_EL_CAP = rf"[{_EL_UP}][{_EL_LOW}{_EL_UP}'’-]*"
_EL_ART = r"(?:του|της|των|το|την|τη|τον|τα|τις|τους|οι|ο|η)"
# a Greek place: a capitalised run, after at most one lowercase noun and its article ("λεκανοπεδίου της Αττικής")
_EL_PLACE = rf"(?P<place>(?-i:(?:[{_EL_LOW}]+\s+{_EL_ART}\s+)?{_EL_CAP}(?:\s+(?:{_EL_ART}\s+)?{_EL_CAP}){{0,4}}))"
# "περιοχή του X", "πάνω από την X", "γύρω από το X", "σε ακτίνα 5 χιλιομέτρων από το X"
EL_MARKED = re.compile(
    rf"(?:(?<![{_EL_LOW}])περιοχ[ήηέε]\w*\s+{_EL_ART}\s+|π[αά]νω\s+απ[οό]\s+(?:{_EL_ART}\s+)?"
    rf"|γ[υύ]ρω\s+απ[οό]\s+(?:{_EL_ART}\s+)?"
    rf"|σε\s+ακτ[ιί]να\s+(?P<d>{DIST})\s+(?:γ[υύ]ρω\s+)?απ[οό]\s+(?:{_EL_ART}\s+)?){_EL_PLACE}", re.I)
_GREEK = re.compile(rf"[{_EL_LOW}{_EL_UP}]")
_SENTENCE = re.compile(r"[^.!?\n]+(?:\.(?=\d)[^.!?\n]*)*")
# the one distance the text states for an area, apart from its place ("v oblasti o průměru 7,4 kilometrů",
# "w promieniu 3 km", "σε ακτίνα 5 χλμ.")
_AREA_SIZE = re.compile(rf"(?:o\s+pr[ůu]m[ěe]ru|o\s+średnicy|o\s+polomeru|w\s+promieniu|v\s+okruhu|v\s+polom[ěe]ru"
                        rf"|σε\s+ακτ[ιί]να|διαμ[εέ]τρου)\s+(?:do\s+|až\s+)?(?P<d>{DIST})", re.I)


def _joined(text: str, end: int, hi: int) -> list[tuple[int, int]]:
    """The places joined after a place that ends at ``end`` ("… i rejonem Stadionu Narodowego")."""
    out: list[tuple[int, int]] = []
    while (j := JOINED.match(text, end, hi)) is not None:
        out.append(j.span("place"))
        end = j.end()
    return out


def _sentences(text: str, lo: int, hi: int, ban: re.Pattern):
    for s in _SENTENCE.finditer(text, lo, hi):
        if ban.search(s.group()) is not None:
            yield s


def _west_zones(m: Message) -> list[Zone]:
    text = m.text
    zones: list[Zone] = []
    bare: re.Match | None = None
    for s in _sentences(text, m.lo, m.hi, _WEST_BAN):
        for r in sorted([*RADIUS.finditer(text, *s.span()), *HEADED.finditer(text, *s.span())], key=lambda r: r.start()):
            d = sp(text, *r.span("d")) if r.groupdict().get("d") else None
            for a, b in [r.span("place"), *_joined(text, r.end(), s.end())]:
                f = {"name": sp(text, a, b)}
                if d is not None:
                    f["radius"] = d
                zones.append(Zone(f, r.start(), r.end(), "named"))
        if bare is None:  # (the one nearest the ban word: "v Radě EU jsou v Národním divadle zakázané lety")
            ban = _WEST_BAN.search(text, *s.span())
            bare = min(BARE.finditer(text, *s.span()), key=lambda b: abs(b.start() - ban.start()), default=None)
    if not zones and bare is not None:
        a, b = bare.span("place")
        if _ADJ_END.search(text, a, b) is not None and (n := _NOUN_AFTER.match(text, b, m.hi)) is not None:
            b = n.end()
        zones.append(Zone({"name": sp(text, a, b)}, bare.start(), b, "named"))
    return zones


def _greek_zones(m: Message) -> list[Zone]:
    text = m.text
    zones: list[Zone] = []
    for s in _sentences(text, m.lo, m.hi, _EL_BAN):
        for r in EL_MARKED.finditer(text, *s.span()):
            f = {"name": sp(text, *r.span("place"))}
            if r.group("d"):
                f["radius"] = sp(text, *r.span("d"))
            zones.append(Zone(f, r.start(), r.end(), "named"))
    return zones


def pl_cs_el_places(m: Message) -> list[Zone]:
    """The zones of a flight ban reported in Polish, Czech, Slovak or Greek prose (free text only): each place a
    sentence that says the ban names, once each, at most 20; ``[]`` when the text bans no flights."""
    text = m.text
    if m.h.kind != "other":
        return []
    region = text[m.lo:m.hi]
    if _GREEK.search(region) is not None:
        if not (_EL_BAN.search(region) and re.search(_EL_FLIGHTS, region, re.I)):
            return []
        zones = _greek_zones(m)
    else:
        if not (_WEST_BAN.search(region) and re.search(rf"(?<!\w){_WEST_FLIGHTS}(?!\w)", region, re.I)):
            return []
        zones = _west_zones(m)
    out: list[Zone] = []
    seen: set[str] = set()
    for z in zones:
        key = " ".join(z.fields["name"].text.split()).casefold()
        if key not in seen:
            seen.add(key)
            out.append(z)
    sizes = list(_AREA_SIZE.finditer(text, m.lo, m.hi))
    if len(out) == 1 and "radius" not in out[0].fields and len({s.group("d") for s in sizes}) == 1:
        out[0].fields["radius"] = sp(text, *sizes[0].span("d"))
    return out[:20]
