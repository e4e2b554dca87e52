"""The time zone a message's place names settle, for local times in a notice whose zone has no coordinates.

A news item or a police order says ``Bengaluru``, ``Mumbai police``, ``Dubai Civil Aviation Authority`` and writes
its times in that place's clock with no offset. The cities (GeoNames, 50,000 people or more) and the countries with
one time zone that the text names, as written (capitalised, whole words), give the zone; the answer is ``None``
unless they agree: every place named, and every city that shares a named city's name and has at least a tenth of
its population, in one IANA zone. A handful of city names that are everyday English words are never taken as
places. The caller says the zone was inferred from the name (``data/places/README.md`` has the provenance).

Pure but for the lookup tables, loaded once.
"""

from __future__ import annotations

import gzip
import re
from functools import lru_cache
from itertools import accumulate
from pathlib import Path
from zoneinfo import ZoneInfo

_DATA = Path(__file__).resolve().parents[1] / "data" / "places"
# city names that English prose writes as ordinary words at a sentence's start or in a title
_WORDS = {"Alexandria", "Bath", "Bury", "Colon", "Columbia", "Concord", "Date", "Derby", "Florida", "Independence",
          "Jackson", "Kent", "Lafayette", "Lincoln", "Mexico", "Mission", "Mobile", "Nice", "Normal", "Orange",
          "Paradise", "Phoenix", "Providence", "Reading", "Sale", "San", "Split", "Spring", "Springs", "Surprise",
          "Temple", "Union", "Victoria", "Washington"}
# other spellings GeoNames lists for a large city that name something else to a reader: a building ("White House",
# Casablanca's name translated), another place ("San Miguel" for San Diego, "Saint Charles" for Denver); a city's own
# name is kept
_NOT_ALTERNATES = {"White House", "Garden City", "Big Apple", "Big Durian", "Saint Charles", "Saint George",
                   "San Miguel", "San Cristobal", "San Angel", "Smith Station", "Smiths Station", "East Phoenix",
                   "New Orange", "New Albion", "Fort Bayard"}
_NAME = re.compile(r"(?<![\w-])[A-Z][\w'’.-]*(?:[ -](?:[A-Z][\w'’.-]*|de|del|la|al|el|of|upon))*(?![\w-])")


@lru_cache(maxsize=1)
def _cities() -> dict[str, list[tuple[str, int]]]:
    """Each spelling -> the (time zone, population) of every city it names."""
    out: dict[str, list[tuple[str, int]]] = {}
    with gzip.open(_DATA / "cities.tsv.gz", "rt", encoding="utf-8") as f:
        for line in f:
            if line.startswith("#"):
                continue
            names, _country, zone, _lat, _lon, pop = line.rstrip("\n").split("\t")
            for i, n in enumerate(names.split("|")):
                if n not in _WORDS and not (i and n in _NOT_ALTERNATES):
                    out.setdefault(n, []).append((zone, int(pop)))
    return out


# countries as reports abbreviate them, in capitals ("UAE suspends permits for drones"); only where a place is sought,
# never to settle a time zone
_ABBREVIATED = {"UAE": "United Arab Emirates", "UK": "United Kingdom", "USA": "United States", "US": "United States"}


@lru_cache(maxsize=1)
def _countries() -> dict[str, str]:
    """Each country's name -> its one time zone, ``""`` where its cities keep several."""
    out: dict[str, str] = {}
    for line in (_DATA / "countries.tsv").read_text(encoding="utf-8").splitlines():
        if line.startswith("#"):
            continue
        name, _iso, zone = line.split("\t")
        if name not in _WORDS:
            out[name] = zone
    return out


def _in_compound(words: list[str], i: int, end: int) -> bool:
    """Whether words ``i``..``end`` are cut out of a hyphenated name ("Mercedes" of "Mercedes-Benz Stadium"): a
    capitalised word joined to them by a hyphen ("Dubai-based" still names Dubai)."""
    before = i >= 2 and words[i - 1] == "-" and words[i - 2][:1].isupper()
    after = end + 1 < len(words) and words[end] == "-" and words[end + 1][:1].isupper()
    return before or after


@lru_cache(maxsize=2)
def _country_names(every_country: bool) -> dict[str, str]:
    """The countries ``named_places`` takes: those with one time zone, or every one and the abbreviations."""
    countries = _countries()
    if not every_country:
        return {k: z for k, z in countries.items() if z}
    return countries | {k: countries.get(v, "") for k, v in _ABBREVIATED.items()}


# a Turkish case ending after an apostrophe ("Kahramanmaraş’ta", "Ankara’dan"); never English's "'s"
_CASE_SUFFIX = re.compile(r"['’](?:[dt][ae]n?|y?[ae]|y?[ıiuü]|n?[ıiuü]n|y?l[ae])$")


def named_places(text: str, lo: int = 0, hi: int | None = None, every_country: bool = False
                 ) -> list[tuple[int, int, str]]:
    """(start, end, zone) of every place ``text[lo:hi]`` names, as written (capitalised, whole words); a city name
    standing for several cities of comparable size in different zones has zone ``""``. A country with several time
    zones, or abbreviated (``UAE``), is a place only with ``every_country`` (zone ``""`` or its own): it settles no
    time zone."""
    cities, countries = _cities(), _country_names(every_country)
    found: list[tuple[int, int, str]] = []
    for m in _NAME.finditer(text, lo, len(text) if hi is None else hi):
        words = re.split(r"([ -])", m.group())  # words at even indices, the blank or hyphen after each at odd
        starts = list(accumulate((len(w) for w in words), initial=m.start()))
        # the longest run of whole words that names a place, then on after it ("Bengaluru City Police" names
        # Bengaluru, "San Diego Police" San Diego and not a Diego, "Greater Mumbai Police" Mumbai)
        i = 0
        while i < len(words):
            j = i + 1  # (no place starts at word i: on to the next word)
            for end in range(len(words), i, -2):
                if _in_compound(words, i, end):
                    continue
                written = "".join(words[i:end])
                name = written.strip(".'’")
                s = starts[i] + (len(written) - len(written.lstrip(".'’")))
                if name not in countries and name not in cities:
                    name = _CASE_SUFFIX.sub("", name)  # "Kahramanmaraş’ta": Turkish writes the case after an apostrophe
                if name in countries:
                    found.append((s, s + len(name), countries[name]))
                elif name in cities:
                    top = max(pop for _, pop in cities[name])
                    zones = {zone for zone, pop in cities[name] if pop * 10 >= top}
                    found.append((s, s + len(name), zones.pop() if len(zones) == 1 else ""))
                else:
                    continue
                j = end
                break
            i = j + 1
    return found


@lru_cache(maxsize=256)
def zone_named(text: str) -> tuple[ZoneInfo, str] | None:
    """The one IANA zone of every place ``text`` names, and the names that settle it (``"Bengaluru, Delhi"``);
    ``None`` when it names none or places in different zones. (Cached: every start and end of every zone of a
    message asks it of the same text.)"""
    found = [(text[s:e], z) for s, e, z in named_places(text)]
    zones = {z for _, z in found}
    if len(zones) != 1 or "" in zones:
        return None
    names = list(dict.fromkeys(n for n, _ in found))
    return ZoneInfo(zones.pop()), ", ".join(names[:4])
