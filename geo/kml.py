"""KML 2.2 of zone records: one Placemark per drawable zone, an extruded polygon from its floor to its ceiling.

Altitudes: a ceiling in feet/metres above ground is ``relativeToGround``, above mean sea level or a flight level
``absolute`` (a flight level drawn at its pressure altitude, which is what a viewer can show); an unlimited ceiling
is drawn at ``UNL_DRAW_M``. KML has one altitude mode per polygon, so the floor is not drawn as a separate surface:
the name and the description say floor and ceiling in words.

Message text is data: KML viewers render ``description`` as HTML, so it is HTML-escaped *before* the XML escaping
(a ``<b>`` in a NOTAM reads as ``<b>``, never as bold), and nothing else of the message is put where markup is read.
"""

from __future__ import annotations

import html
from collections.abc import Iterable
from datetime import datetime
from xml.sax.saxutils import escape

from shapely.geometry import MultiPolygon, Polygon

from airspace.core.records import ZoneRecord, iso_utc
from airspace.geo.volumes import Volume, volumes_from_records

UNL_DRAW_M = 20_000.0

_MODE = {"AGL": "relativeToGround", "AMSL": "absolute", "FL": "absolute", "UNL": "absolute"}


def _ring(coords, alt: float) -> str:
    return " ".join(f"{x:.7f},{y:.7f},{alt:.1f}" for x, y in coords)


def _polygon(p: Polygon, alt: float, mode: str) -> str:
    inner = "".join(f"<innerBoundaryIs><LinearRing><coordinates>{_ring(r.coords, alt)}</coordinates></LinearRing>"
                    "</innerBoundaryIs>" for r in p.interiors)
    return (f"<Polygon><extrude>1</extrude><altitudeMode>{mode}</altitudeMode><outerBoundaryIs><LinearRing>"
            f"<coordinates>{_ring(p.exterior.coords, alt)}</coordinates></LinearRing></outerBoundaryIs>{inner}"
            "</Polygon>")


def _band(vol: Volume) -> str:
    floor = f"{vol.floor_m:.0f} m {vol.floor_ref}"
    ceil = "unlimited" if vol.ceil_m is None else f"{vol.ceil_m:.0f} m {vol.ceil_ref}"
    return f"{floor} to {ceil}"


def _text(s: str) -> str:
    """Text for an element a viewer reads as HTML: HTML-escaped, then XML-escaped."""
    return escape(html.escape(s, quote=True))


def _placemark(vol: Volume) -> str:
    rec = vol.record
    alt = UNL_DRAW_M if vol.ceil_m is None else vol.ceil_m
    mode = _MODE.get(vol.ceil_ref, "absolute")
    shape = vol.polygon
    polys = list(shape.geoms) if isinstance(shape, MultiPolygon) else [shape]
    geom = "".join(_polygon(p, alt, mode) for p in polys)
    if len(polys) > 1:
        geom = f"<MultiGeometry>{geom}</MultiGeometry>"
    name = f"{rec.id or 'zone'} #{rec.zone + 1} ({rec.status})"
    desc = (f"{rec.id or '(no number)'}: {_band(vol)}, status {rec.status}"
            + ("".join(f"\n- {r}" for r in rec.reasons)) + f"\n\n{rec.text}")
    span = ""
    if rec.start is not None or rec.end is not None:
        span = ("<TimeSpan>" + (f"<begin>{iso_utc(rec.start)}</begin>" if rec.start else "")
                + (f"<end>{iso_utc(rec.end)}</end>" if rec.end and not rec.end_estimated else "") + "</TimeSpan>")
    data = "".join(f'<Data name="{k}"><value>{escape(str(v))}</value></Data>' for k, v in (
        ("id", rec.id or ""), ("status", rec.status), ("floor", f"{vol.floor_m:.1f} m {vol.floor_ref}"),
        ("ceiling", "UNL" if vol.ceil_m is None else f"{vol.ceil_m:.1f} m {vol.ceil_ref}"),
        ("start", iso_utc(rec.start) or ""), ("end", iso_utc(rec.end) or ""),
        ("end_estimated", str(rec.end_estimated).lower())))
    return (f"<Placemark><name>{_text(name)}</name><description>{_text(desc)}</description>{span}"
            f"<styleUrl>#{'ok' if rec.status == 'ok' else 'review'}</styleUrl><ExtendedData>{data}</ExtendedData>"
            f"{geom}</Placemark>")


def to_kml(records: Iterable[ZoneRecord], *, at: datetime | None = None, name: str = "Airspace zones") -> str:
    """A KML document of the records' zones (those active at ``at`` when given). Records without a drawable shape
    (named places, errors, cancellations) have no placemark."""
    vols = volumes_from_records(records)
    if at is not None:
        vols = [v for v in vols if v.active_at(at)]
    style = ('<Style id="ok"><LineStyle><color>ff0000ff</color><width>2</width></LineStyle><PolyStyle>'
             '<color>440000ff</color></PolyStyle></Style><Style id="review"><LineStyle><color>ff00a5ff</color>'
             '<width>2</width></LineStyle><PolyStyle><color>4400a5ff</color></PolyStyle></Style>')
    body = "".join(_placemark(v) for v in vols)
    return ('<?xml version="1.0" encoding="UTF-8"?>\n<kml xmlns="http://www.opengis.net/kml/2.2"><Document>'
            f"<name>{_text(name)}</name>{style}{body}</Document></kml>\n")
