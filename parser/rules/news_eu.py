"""Places in Spanish, Portuguese, French, German, Italian, Dutch, Nordic and Indonesian prose that reports a ban (news items, municipal and
authority statements), as ``news`` reads English prose.

Read only in free text (no NOTAM header) that says something is prohibited or restricted; the places are the ones
the ban's own phrase names:

- a radius around a place: ``dentro de un radio de 25 kilómetros de Aeroparque``, ``num raio de 5 km em torno do
  Estádio do Maracanã``, ``dans un rayon de 5 km autour du Stade de France``, ``im Umkreis von 3 km um den Flughafen
  München``, ``nel raggio di 5 km dallo Stadio Olimpico``, ``in een straal van 3 km rond Ahoy Rotterdam``,
  ``innenfor en radius av 5 km rundt …``, ``radius 15 kilometer dari Bandar Udara …``, ``Istana Negara dengan radius
  3 NM``;
- a restriction over or around a place: ``restrições de voo ao redor do Aeroporto de Congonhas``, ``zona de
  exclusión aérea sobre Buenos Aires``, ``Flugverbotszone über dem Olympiapark``; else the surroundings of a place
  (``en las inmediaciones del Aeropuerto José Aponte de la Torre``); the one radius the text states for the
  restriction (``um raio de 5,4 km``), where it states exactly one, is that zone's.

A place is a run of capitalised words joined by the small words names carry (``de la``, ``do``, ``von der``), after
an article and at most one lowercase word saying what kind of place it is (``del estadio Azteca``). A named place has
no coordinates: its zone is always ``review``. Pure.
"""

from __future__ import annotations

import re

from airspace.parser.distwords import WORDS_EU
from airspace.parser.places import trim_place
from airspace.parser.rules.news import phrase_zones
from airspace.parser.rules.patterns import DIST, DIST_UNITS
from airspace.parser.rules.zone import Message, Zone, sp

# a distance in digits or with its count as a word ("cinco millas náuticas", "drei Kilometer")
_COUNT = "|".join(sorted(map(re.escape, WORDS_EU), key=len, reverse=True))
_D = rf"(?P<d>{DIST}|(?<![^\W\d_])(?:{_COUNT})\s+(?:{DIST_UNITS})(?![^\W\d_]))"
# (lowercase only: "boven Den Haag" is a name, not an article before one)
_ART = r"(?-i:(?:(?:el|la|los|las|o|a|os|as|le|les|der|die|das|den|dem|il|lo|gli|het|de|det)\s+|l['’]\s?)?)"
_KIND = (r"(?-i:(?:estadio|aeropuerto|aeródromo|parque|plaza|palacio|puerto|estádio|aeroporto|aeródromo|praça|palácio"
         r"|stade|aéroport|aérodrome|palais|place|port|stadion|flughafen|flugplatz|palast|platz|hafen|stadio|palazzo"
         r"|piazza|porto|centro|complejo|complexo|luchthaven|vliegveld|paleis|plein|lufthavn|flygplats|slott)\s+)?")
_CAP = r"(?-i:[A-ZÀ-ÖØ-Þ][\w'’.&-]*)"
_JOIN = r"(?:de|del|la|las|los|do|da|dos|das|du|des|von|vom|der|den|di|della|dello|delle|y|e|am|an|im|van|aan|ter)"
PLACE = rf"(?P<place>{_CAP}(?:(?:\s+{_JOIN})*\s+{_CAP})*)"
_AROUND = (r"(?:alrededor\s+del?|en\s+torno\s+(?:a|al|de|del)|ao\s+redor\s+d[oae]s?|em\s+torno\s+d[oae]s?"
           r"|à\s+volta\s+d[oae]s?|autour\s+d(?:e|u|es)|um|rund\s+um|attorno\s+(?:a|al|alla|allo|ai)"
           r"|intorno\s+(?:a|al|alla|allo|ai)|rond(?:om)?|rundt|runt|kring|omkring)")
_FROM = r"(?:de|del|do|da|dos|das|du|des|von|vom|dal|dallo|dalla|dai|desde|van|fra|från)"
_RADIUS_WORD = r"(?:radio|raio|rayon|raggio|umkreis|radius|per[íi]metro|périmètre|straal|radie)"
# "radio de 25 kilómetros de Aeroparque", "raio de 5 km em torno do Estádio …", "Umkreis von 3 km um den Flughafen …"
RADIUS = re.compile(
    rf"\b{_RADIUS_WORD}\s+(?:(?:de\s+)?espacio\s+a[ée]reo\s+)?(?:de|di|von|van|av|på|af)\s+{_D}\s+(?:{_AROUND}|{_FROM})\s+"
    rf"{_ART}{_KIND}{PLACE}", re.I)
# Indonesian: "radius 15 kilometer dari Bandar Udara Halim Perdanakusuma", "Istana Negara dengan radius 3 NM"
RADIUS_ID = re.compile(rf"\bradius\s+(?:sejauh\s+)?{_D}\s+(?:dari|di\s+sekitar|sekitar)\s+{PLACE}", re.I)
WITH_RADIUS_ID = re.compile(rf"{PLACE}\s+(?-i:dengan)\s+(?-i:radius)\s+{_D}", re.I)
# "5 kilómetros alrededor del estadio Azteca"
AROUND = re.compile(rf"{_D}\s+{_AROUND}\s+{_ART}{_KIND}{PLACE}", re.I)
_ZONE = (r"(?:zona\s+de\s+exclusi[oó]n\s+a[ée]rea|zona\s+(?:restringida|prohibida|de\s+restri[çc][ãa]o)"
         r"|espacio\s+a[ée]reo\s+restringido|restricci[oó]n(?:es)?\s+de\s+vuelo|restri[çc][ãaõo](?:o|es)\s+de\s+voo"
         r"|zone\s+d['’]interdiction(?:\s+de\s+survol)?|zone\s+interdite|interdiction\s+de\s+survol"
         r"|flugverbotszone|flugbeschränkungsgebiet|flugverbot|zona\s+(?:di\s+)?(?:divieto|interdizione)(?:\s+di\s+volo)?"
         r"|divieto\s+di\s+(?:sorvolo|volo)|(?:drone|vlieg)verbod(?:szone)?|no-fly-?zone|(?:dron|fly|flyg)e?forbud"
         r"|flygförbud|drönarförbud)")
_OVER = (rf"(?:{_AROUND}|sobre|au-dessus\s+d(?:e|u|es)|über|sopra|su|sur|en|em|no|na|in|im|am|nel|nella|nello|boven"
          rf"|over|över|i|bij|ved|vid)")
ZONE = re.compile(rf"\b{_ZONE}\s+{_OVER}\s+{_ART}{_KIND}{PLACE}", re.I)
# the ban itself, somewhere in the text: without one, a place in prose is no zone
BAN = re.compile(rf"proh[ií]b|proib|interdi|verbot|untersag|vietat|divieto|restri[cçn]|restring|beschränk|sperr|verbod"
                 rf"|forbud|förbud|forbudt|förbjud|verboden|larang"
                 rf"|inhabilit|{_ZONE}", re.I)
# the surroundings of a place, where the ban is said to hold ("abstenerse de operar drones en las inmediaciones del
# Aeropuerto José Aponte de la Torre")
NEAR = re.compile(rf"\b(?:inmediaciones|cercan[íi]as|proximidades|imedia[çc][õo]es|arredores|cercanias|abords|environs"
                  rf"|umgebung|n[äa]he|vicinanze|prossimit[àa])\s+(?:de\s+la|de\s+los|de|del|do|da|dos|das|du|des"
                  rf"|von|vom|des|der|dem|di|del|della|dello|dei)\s+{_ART}{_KIND}{PLACE}", re.I)
# the radius a text states for its restriction, apart from the place ("A restrição atinge um raio de 5,4 km …")
RADIUS_ALONE = re.compile(rf"\b{_RADIUS_WORD}\s+(?:de|di|von|van|av|på|af)\s+{_D}", re.I)
# the whole national territory a ban holds over ("prohibición de vuelo en el territorio nacional", "sur l'ensemble du
# territoire national", "im gesamten Bundesgebiet"): the phrase names the place, the country the text is about
NATIONAL = re.compile(r"\b(?:en\s+(?:todo\s+)?el|em\s+todo\s+o|no|sur\s+(?:l['’]ensemble\s+du|tout\s+le)|dans\s+le"
                      r"|im\s+(?:gesamten)?|nel(?:l['’])?\s*(?:intero)?|sull['’]intero)\s+"
                      r"(?P<place>territorio\s+nacional|território\s+nacional|territoire\s+national|Bundesgebiet"
                      r"|territorio\s+nazionale)\b", re.I)
_CJK = re.compile(r"[\u3040-\u30ff\u3400-\u9fff\uac00-\ud7af]")


_AREA_NOUN = re.compile(r"Umkreis|Bereich|Gebiet|Raum|Luftraum|Radius|Umfeld|Umgebung|Nähe|Stadtgebiet")


def _place(text: str, m: re.Match) -> list[tuple[int, int]]:
    s, e = trim_place(text, *m.span("place"))
    # (a letter alone is a hemisphere or an initial, and a German noun for an area is capitalised too: neither is a
    # place)
    return [(s, e)] if e - s >= 2 and not _AREA_NOUN.fullmatch(text, s, e) else []


def news_eu_places(m: Message) -> list[Zone]:
    """The zones of a ban reported in Spanish, Portuguese, French, German, Italian, Dutch, Nordic or Indonesian prose
    (free text only)."""
    text = m.text
    if m.h.kind != "other" or _CJK.search(text, m.lo, m.hi) or BAN.search(text, m.lo, m.hi) is None:
        return []
    zones = phrase_zones(m, ((RADIUS, RADIUS_ID, WITH_RADIUS_ID), AROUND, ZONE, NEAR, NATIONAL), _place)
    radii = list(RADIUS_ALONE.finditer(text, m.lo, m.hi))
    if len(zones) == 1 and "radius" not in zones[0].fields and len(radii) == 1:
        zones[0].fields["radius"] = sp(text, *radii[0].span("d"))
    return zones
