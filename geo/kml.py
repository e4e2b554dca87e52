"""Zones as KML 2.2 for an operator's GIS (Google Earth, QGIS): one Placemark per volume, its footprint drawn at its
ceiling and extruded to the ground where the floor is the surface, its floor, ceiling, status, review reasons,
times and (where an operator resolved it) provenance in ExtendedData, its active time as a TimeSpan.

Message text is data. Viewers render ``description`` as HTML, so it is HTML-escaped before the XML escaping (a
``<b>`` in a NOTAM reads as the characters ``<b>``, never as bold); every other text is XML-escaped. Altitudes: AGL limits are written
``relativeToGround``, AMSL ``absolute``, flight levels as their standard-pressure altitude, ``absolute``; an
unlimited ceiling is written at ``UNL_M`` (FL600), said in the data. A floor above the surface cannot be drawn
as a KML extrusion (which always reaches the ground): such a volume is drawn as its ceiling face, its floor
stated in ExtendedData."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable
from datetime import datetime
from xml.sax.saxutils import escape

from airspace.core.records import ZoneRecord, iso_utc
from airspace.geo.volumes import volumes_from_records

UNL_M = 18_288.0
STYLES = {"ok": "ff2d1ee6", "review": "ff00a5ff"}  # KML colours are aabbggrr: red, amber


def _coords(ring, z: float) -> str:
    return " ".join(f"{x:.6f},{y:.6f},{z:.1f}" for x, y in ring.coords)


def _polygons(shape):
    return list(shape.geoms) if hasattr(shape, "geoms") else [shape]


def _data(name: str, value) -> str:
    text = json.dumps(value, ensure_ascii=False) if isinstance(value, (dict, list)) else str(value)
    return f'<Data name="{escape(name)}"><value>{escape(text)}</value></Data>'


def to_kml(records: Iterable[ZoneRecord], *, at: datetime | None = None, name: str = "Clover Airspace zones") -> str:
    """A KML document of every record that has a volume (those active at ``at`` when given); the records without
    one are counted in its description."""
    records = list(records)
    volumes = volumes_from_records(records)
    drawn = {v.key for v in volumes}
    skipped = [r for r in records if (r.message, r.zone) not in drawn]
    if at is not None:
        volumes = [v for v in volumes if v.active_at(at)]
    out = ['<?xml version="1.0" encoding="UTF-8"?>', '<kml xmlns="http://www.opengis.net/kml/2.2"><Document>',
           f"<name>{escape(name)}</name>",
           f"<description>{len(volumes)} zone(s); {len(skipped)} record(s) without a shape to draw</description>"]
    for status, colour in STYLES.items():
        out.append(f'<Style id="{status}"><LineStyle><color>{colour}</color><width>2</width></LineStyle>'
                   f"<PolyStyle><color>7f{colour[2:]}</color></PolyStyle></Style>")
    for v in volumes:
        rec = v.record
        ceil = UNL_M if v.ceil_m is None else v.ceil_m
        mode = "relativeToGround" if v.ceil_ref == "AGL" else "absolute"
        extrude = 1 if v.floor_m == 0 else 0
        label = (rec.id or f"message {rec.message + 1}") + (f" zone {rec.zone + 1}" if rec.zone else "")
        parts = [f"<Placemark><name>{escape(label)}</name><styleUrl>#{'ok' if v.status == 'ok' else 'review'}</styleUrl>"]
        if rec.start is not None or rec.end is not None:
            parts.append("<TimeSpan>" + (f"<begin>{iso_utc(rec.start)}</begin>" if rec.start else "")
                         + (f"<end>{iso_utc(rec.end)}</end>" if rec.end and not (rec.permanent or rec.end_estimated) else "") + "</TimeSpan>")
        fields = {
            "message": rec.message + 1, "zone": rec.zone + 1, "status": rec.status, "reasons": "; ".join(rec.reasons),
            "floor": f"{v.floor_m:.1f} m {v.floor_ref}" + (f" ({rec.lower.raw})" if rec.lower else ""),
            "ceiling": ("UNL (drawn at FL600)" if v.ceil_m is None else f"{v.ceil_m:.1f} m {v.ceil_ref}")
            + (f" ({rec.upper.raw})" if rec.upper else ""),
            "start": iso_utc(rec.start), "end": "PERM" if rec.permanent else iso_utc(rec.end),
            "end_estimated": rec.end_estimated, "schedule": rec.schedule,
            "provenance": getattr(rec, "provenance", None),
        }
        parts.append("<ExtendedData>" + "".join(_data(k, val) for k, val in fields.items() if val not in (None, ""))
                     + "</ExtendedData>")
        parts.append(f"<description>{escape(html.escape(rec.text, quote=True))}</description>")
        polys = _polygons(v.polygon)
        parts.append("<MultiGeometry>" if len(polys) > 1 else "")
        for p in polys:
            holes = "".join(f"<innerBoundaryIs><LinearRing><coordinates>{_coords(r, ceil)}</coordinates></LinearRing>"
                            "</innerBoundaryIs>" for r in p.interiors)
            parts.append(f"<Polygon><extrude>{extrude}</extrude><altitudeMode>{mode}</altitudeMode><outerBoundaryIs>"
                         f"<LinearRing><coordinates>{_coords(p.exterior, ceil)}</coordinates></LinearRing>"
                         f"</outerBoundaryIs>{holes}</Polygon>")
        parts.append("</MultiGeometry>" if len(polys) > 1 else "")
        parts.append("</Placemark>")
        out.append("".join(parts))
    out.append("</Document></kml>")
    return "\n".join(out) + "\n"
