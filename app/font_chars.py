"""The characters of the map labels' font atlas, shipped as ``data/basemap/label_chars.txt``.

Every character of the shipped place and town names and of the ``airportsdata`` airports' names, with printable
ASCII, Latin-1 and a few symbols. Computing it reads all ~28 000 airports (0.5 s of a core), and the first screen's
map needs it before anything is drawn, so it is written once from the vendored data
(``python -m airspace.app.font_chars --write``) and read from the file; a test says when the file no longer matches
the data it is computed from.
"""

from __future__ import annotations

import argparse
import json
from functools import cache

from airspace.app.basemap import BASEMAP_DIR, PLACES_FILE, basemap_path, towns

CHARS_FILE = "label_chars.txt"
BASE = ({chr(c) for c in range(32, 127)} | {chr(c) for c in range(160, 256)} | set("✈·–—…→″′°"))


def compute() -> str:
    """The charset from the vendored data (slow: reads every airport)."""
    import airportsdata

    chars = set(BASE)
    for rows in json.loads(basemap_path(PLACES_FILE).read_text(encoding="utf-8")).values():
        for name, *_ in rows:
            chars |= set(str(name))
    for a in airportsdata.load("ICAO").values():
        chars |= set(a.get("name") or "")
    for name, *_ in towns():
        chars |= set(name)
    return "".join(sorted(chars))


@cache
def shipped() -> str:
    """The shipped charset (``CHARS_FILE``); computed when the file is not in this checkout."""
    path = BASEMAP_DIR / CHARS_FILE
    if not path.is_file():
        return compute()
    return path.read_text(encoding="utf-8")


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description="Write (or check) the map labels' font atlas characters.")
    ap.add_argument("--write", action="store_true", help=f"write {BASEMAP_DIR / CHARS_FILE}")
    args = ap.parse_args(argv)
    chars = compute()
    if args.write:
        (BASEMAP_DIR / CHARS_FILE).write_text(chars, encoding="utf-8")
    print(f"{len(chars)} characters" + (" written" if args.write else ""))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
