"""What an operator types for "Can I fly here?" -> a point: ``lat, lon`` in decimal degrees, a NOTAM-style
coordinate (``2232N11356E``, ``22.5N 114.05E``), an airport's ICAO or IATA code, a capital's or a town's name
(GeoNames towns of 15 000 people or more, vendored), or an airport's name. No Streamlit, no network."""

from __future__ import annotations

import re

from airspace.app import basemap as B
from airspace.parser.coords import parse_coord

_DECIMAL = re.compile(r"^\s*([-+]?\d{1,2}(?:\.\d+)?)\s*[,;\s]\s*([-+]?\d{1,3}(?:\.\d+)?)\s*$")


class NotAPlace(ValueError):
    """The text names no point this page knows; the message says what it accepts."""


def locate(text: str) -> tuple[float, float, str]:
    """(lat, lon, what was found) for ``text``; ``NotAPlace`` with a readable reason otherwise."""
    s = (text or "").strip()
    if not s:
        raise NotAPlace("type a point: `lat, lon` (e.g. 22.55, 114.06), 2232N11356E, an airport code or a city")
    m = _DECIMAL.match(s)
    if m:
        lat, lon = float(m.group(1)), float(m.group(2))
        if not (-90 <= lat <= 90 and -180 <= lon <= 180):
            raise NotAPlace(f"{s[:40]!r}: latitude must be -90..90 and longitude -180..180")
        return lat, lon, f"{lat:.5f}, {lon:.5f}"
    try:
        lat, lon = parse_coord(s)
        return lat, lon, f"{lat:.5f}, {lon:.5f}"
    except ValueError:
        pass
    rows, _ = B.airports()
    key = s.upper()
    for field_ in ("icao", "iata"):
        for a in rows:
            if a[field_] and a[field_] == key:
                return a["lat"], a["lon"], f"{a['icao']} {a['name']}"
    low = s.casefold()
    for name, lon, lat in B.places()["capitals"]:
        if name.casefold() == low:
            return lat, lon, name
    for name, lon, lat, pop in B.towns():  # largest first: "Springfield" is the largest Springfield
        if name.casefold() == low:
            return lat, lon, f"{name} (town, {pop:,} people)"
    named = [a for a in rows if low in a["name"].casefold()]
    named.sort(key=lambda a: (not a["iata"], len(a["name"])))  # airports with scheduled service first
    if named:
        a = named[0]
        return a["lat"], a["lon"], f"{a['icao']} {a['name']}"
    raise NotAPlace(f"{s[:40]!r} is not a coordinate, an airport code or name, or a town on this map; type "
                    "`lat, lon` in decimal degrees")
