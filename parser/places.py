"""Offline place lookup: ICAO location indicators -> aerodrome reference point (``airportsdata``).

Used ONLY for a message whose sole location is its A) indicator (``A) SPJC``, nothing else): the zone becomes an
approximate circle around the aerodrome, marked ``approximate`` and sent to review. Named places in free text
(``大连梭鱼湾足球场``) are never geocoded here: the design forbids inventing a location.
"""

from __future__ import annotations

import re
from functools import lru_cache

from airspace.parser.records import NM_TO_M

# Radius of the approximate circle around an aerodrome reference point when the message gives no extent: 5 NM,
# the usual Q-line radius for aerodrome-scope NOTAMs (scope 'A') and wider than a typical ATZ (2–2.5 NM).
AERODROME_RADIUS_M = 5 * NM_TO_M
_ICAO_RE = re.compile(r"^[A-Z]{4}$")


@lru_cache(maxsize=1)
def _db() -> dict:
    import airportsdata

    return airportsdata.load("ICAO")


def resolve_icao(code: str) -> tuple[float, float] | None:
    """(lat, lon) of the aerodrome with this ICAO indicator, or ``None`` (unknown code, FIR code, not 4 letters)."""
    code = (code or "").strip().upper()
    if not _ICAO_RE.match(code):
        return None
    row = _db().get(code)
    if not row:
        return None
    return float(row["lat"]), float(row["lon"])


def aerodrome_name(code: str) -> str | None:
    row = _db().get((code or "").strip().upper())
    return row.get("name") if row else None
