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
from airspace.parser.header import location_codes, parse_header

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


# a published area's designator: ICAO nationality letters + D/R/P/TRA…, a number, an optional suffix ("R5206",
# "VAD 8", "VOD 179A", "UHD418", "VID-165", "GOR 34", "EGD323A")
_DESIGNATOR = re.compile(r"^[A-Z]{1,5}[- ]?\d{1,4}[A-Z]?(?:\s?\([A-Z0-9]\))?$")
_FIR_WORD = re.compile(r"\b(?:FIR|UIR|FIRS|FLIGHT\s+INFORMATION\s+REGIONS?)\b")
_NAME_AND_CODE = re.compile(r"^[A-Z][A-Z .'/-]{1,40}\(\s*[A-Z]{4}\s*\)$")


_OPENERS = {")": "(", "]": "[", "）": "（", "」": "「", "』": "『"}


def place_name(value: str) -> str:
    """A named place's span as its name: blanks collapsed, and a closing bracket that opens nowhere in the span dropped
    (``FIR TEHRAN (OIIX))``: the span ran on to the bracket that closes the sentence around the name, ``(FIR TEHRAN
    (OIIX))``). Pure; the span itself is kept as written."""
    out: list[str] = []
    depth: dict[str, int] = {}
    for ch in " ".join(value.split()):
        opener = _OPENERS.get(ch)
        if opener is not None:
            if depth.get(opener, 0) == 0:
                continue
            depth[opener] -= 1
        elif ch in _OPENERS.values():
            depth[ch] = depth.get(ch, 0) + 1
        out.append(ch)
    return "".join(out).strip()


def named_kind(name: str, text: str) -> str:
    """What a name that locates a zone is: ``"fir"``, ``"area"`` or ``"place"``.

    A FIR: the name says so (``FIR TRIPOLI (HLLL)``, ``KABUL FIR (OAKX)``), it is a ``NAME (CODE)`` item of a
    message about FIRs (``DNIPRO (UKDV)``), or it is a location indicator that the NOTAM's own header makes a
    FIR: A) lists several indicators (a NOTAM for several FIRs), or it is the Q-line's FIR, or the Q-line scope is
    en-route/warning only (no ``A``)."""
    n = " ".join(name.split()).upper()
    if _FIR_WORD.search(n) or (_NAME_AND_CODE.match(n) and _FIR_WORD.search(text.upper())):
        return "fir"
    if re.fullmatch(r"[A-Z]{4}", n):
        h = parse_header(text)
        a = h.item("A")
        codes = [c.text for c in location_codes(a)] if a else []
        q = h.qline
        fir = (q.fir or "").strip().upper() if q else ""
        scope = (q.scope or "").strip().upper() if q else ""
        if n in codes and (len(codes) >= 2 or n == fir or (scope and "A" not in scope)):
            return "fir"
    if _DESIGNATOR.match(n):
        return "area"
    return "place"
