"""Offline aerodrome lookup (``airspace``'s only geocoder): location identifiers -> reference point.

Identifiers only — ICAO indicators (``SPJC``), FAA location identifiers and IATA codes (``ATL``) — through the
``airportsdata`` package, offline. Used for a zone whose only location is such an identifier (``A) SPJC`` with
nothing else, FAA ``.5NM RADIUS OF ATL``): the zone becomes an approximate circle around the aerodrome reference
point, marked ``approximate`` and sent to review. Place names in free text (``大连梭鱼湾足球场``) are never
geocoded: the design forbids inventing a location.
"""

from __future__ import annotations

import re
from functools import lru_cache

from airspace.core.records import NM_TO_M

# Radius of the approximate circle around an aerodrome reference point when the message states none: 5 NM, the
# usual Q-line radius for aerodrome-scope NOTAMs (scope 'A') and wider than a typical ATZ (2–2.5 NM).
AERODROME_RADIUS_M = 5 * NM_TO_M
_IDENT_RE = re.compile(r"^[A-Z]{3,4}$")


@lru_cache(maxsize=4)
def _db(code_type: str) -> dict:
    import airportsdata

    return airportsdata.load(code_type)


def _row(code: str) -> dict | None:
    code = (code or "").strip().upper()
    if not _IDENT_RE.match(code):
        return None
    if len(code) == 4:
        return _db("ICAO").get(code)
    return _db("LID").get(code) or _db("IATA").get(code)  # FAA identifiers first, then IATA


def resolve_icao(code: str) -> tuple[float, float] | None:
    """(lat, lon) of the aerodrome with this identifier (4-letter ICAO, 3-letter FAA LID / IATA), or ``None``
    (unknown code, FIR code such as ``LOVV``, anything that is not 3–4 letters)."""
    row = _row(code)
    return (float(row["lat"]), float(row["lon"])) if row else None


def aerodrome_name(code: str) -> str | None:
    row = _row(code)
    return row.get("name") if row else None
