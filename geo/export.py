"""Exports of zone records: GeoJSON (RFC 7946), EUROCAE ED-269 JSON and EUROCAE ED-318 GeoJSON.

Nothing is silently lost: every record appears in every export. A record without a coordinate shape (a named
place that could not be resolved, an error record, a cancellation, a shape that could not be built) is a GeoJSON
feature with ``"geometry": null``; ED-269 and ED-318 have no shape-less zones, so such records are listed by
message/zone/id/reason in the ED-269 ``description`` and in the ED-318 ``metadata.technicalLimitations``
(messages and zones numbered from 1 there, as a person counts them; the ``message``/``zone`` fields stay 0-based).

Only valid geometry is written (``exported_geometry``): snapped to the 1e-7 degree grid, right-hand rule, closed
rings of >= 3 distinct points, an area; and never a volume whose floor is at or above its ceiling, or whose limits
lie beyond 1,000,000 ft. A record whose shape fails is written without one, with the reason (GeoJSON: ``"geometry":
null``, its status ``review``). A cancellation (NOTAMC) has no zone and keeps its status.

GeoJSON (RFC 7946)
    Coordinates are [lon, lat] WGS84, rounded to 7 decimals (~1 cm). Exterior rings are counter-clockwise, holes
    clockwise (section 3.1.6). Circles become their enclosing geodesic polygon from ``geo.volumes`` (GeoJSON has no
    circle); the exact centre and radius are kept in ``properties.circle``. Shapes crossing the antimeridian are
    MultiPolygons cut at +-180 (section 3.1.9). ``properties.lower``/``upper`` keep the record's reference, metres,
    feet and raw text; ``floor_m``/``ceil_m`` with ``floor_ref``/``ceil_ref`` are the volume's normalised limits.

ED-269 (UAS geographical zone data model, chapter 8; JSON)
    ``{"title", "description", "features": [UASZone, ...]}``. Choices:
    * ``identifier`` (max 7 characters ``[A-Za-z0-9_-]``): the NOTAM id with its punctuation removed when that fits
      and is unique in the file (``A1912/15`` -> ``A191215``); further zones of a composite NOTAM get ``_<zone>``
      (``C1761/15`` zone 3 -> ``C1761_3``); otherwise ``Z`` + a 6-digit sequence number. The full id is in ``name``.
    * ``type`` ``COMMON``; ``restriction`` and ``reason`` from ``geo.restriction`` (the strictest class the message's
      Q-code or words name, PROHIBITED when none does); ``otherReasonInfo`` names the NOTAM and says why.
    * ``message`` (lines joined by `` | ``) carries what a reader of the zone alone must know: status ``review``
      with its reasons, an estimated (EST) end ("may stay in force after it"), a PERM or open end ("no end date"),
      the basis of the restriction class, the schedule, and the mapping notes below.
    * ``country`` is omitted: a NOTAM does not state an ISO 3166 country and we do not guess one.
    * ``zoneAuthority``: one entry with purpose ``INFORMATION`` naming the NOTAM's issuing office as unknown.
    * ``applicability``: one item per active window (``startDateTime``/``endDateTime``, RFC 3339 UTC), which keeps
      expanded schedules (DAILY, SR/SS) exact; without windows the record's start/end; ``permanent`` YES/NO. A
      zone without a stated end (PERM) gets no ``endDateTime``; a PERM schedule's windows stop at the reader's
      listing horizon, which ``message`` says.
    * ``geometry``: one item per horizontal part. Circles are ``{"type": "Circle", "center": [lon, lat],
      "radius": metres}`` (exact, no polygonisation). Polygons are the geodesically densified ring (so the edge
      interpretation of the reader does not matter); antimeridian-split shapes give one item per part.
    * Vertical: ``uomDimensions`` ``FT`` when both limits were stated in feet (FL included), else ``M``; values are
      integers, floors rounded down and ceilings rounded up (never smaller than stated). References: SFC/GND -> 0
      ``AGL``; AGL -> ``AGL``; AMSL -> ``AMSL``. ED-269 has no flight-level reference: FLnnn is written as nnn00 ft
      ``AMSL`` (ISA standard-pressure altitude; true altitude differs with QNH) and the original ``FLnnn`` is
      stated in ``message``. UNL is written as 99999 (FT or M) ``AMSL``, the usual "unbounded" sentinel, and
      stated in ``message``.

ED-318 (Technical specification for geographical zones and U-space data provision; GeoJSON)
    A GeoJSON FeatureCollection with foreign members ``name`` and ``metadata`` (DatasetMetadata). Each Feature's
    ``properties`` is a UASZone (ED-318 4.2.2.2): ``identifier`` (as ED-269), ``country``, ``name`` (TextShort
    list ``[{"text", "lang"}]``), ``type`` (CodeZoneType from ``geo.restriction``: ``PROHIBITED``,
    ``REQ_AUTHORIZATION``, ``CONDITIONAL``, ``NO_RESTRICTION``), ``variant`` (``COMMON``), ``reason`` (as ED-269),
    ``restrictionConditions`` (for a class other than PROHIBITED: why, and to read the NOTAM), ``otherReasonInfo``
    (the NOTAM, and why), ``message`` (the ED-269 message lines, one TextShort each), ``zoneAuthority`` (purpose
    ``INFORMATION``), ``limitedApplicability`` (TimePeriod list, one per window, as ED-269's applicability),
    ``extendedProperties`` (our record: message index, zone, NOTAM id, status, reasons, ``endEstimated``,
    ``permanent``, raw limits). The vertical extent is the ``layer`` member of the geometry
    (VerticalLayer: ``upper``, ``upperReference``, ``lower``, ``lowerReference``, ``uom`` ``m``/``ft``; references
    ``AGL``/``AMSL``/``WGS84``, same FL and UNL mapping as ED-269). Circles are a ``Point`` with ``extent``
    ``{"subType": "Circle", "radius": metres}``; polygons are GeoJSON Polygon/MultiPolygon (CCW exteriors).
    ``country`` is mandatory in ED-318 and a NOTAM does not state one: ``ZZZ`` (an ISO 3166-1 user-assigned code)
    is written, and documented in ``metadata.technicalLimitations``. Every text is a TextShort (at most 200
    characters: longer ones are cut with an ellipsis).
    Field names were checked against public ED-318 models (the InterUSS ``uas_standards`` ED-318 classes and
    published ED-318 feeds); the singular ``reason`` follows the published feeds.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterable
from datetime import datetime

import numpy as np
import shapely
from shapely.geometry import MultiPolygon, Polygon, mapping
from shapely.geometry.polygon import orient

from airspace.core.records import (
    CircleGeometry,
    Limit,
    NamedGeometry,
    PolygonGeometry,
    ZoneRecord,
    iso_utc,
    limits_conflict,
)
from airspace.geo.restriction import Restriction, restriction_of
from airspace.geo.volumes import Volume, _polygons_of, volume_from_record

COORD_DECIMALS = 7
UNL_SENTINEL = 99999
MAX_LIMIT_M = 304_800.0  # 1,000,000 ft: the top of the pipeline's plausible range; beyond it no volume is written
UNKNOWN_COUNTRY = "ZZZ"
LANG = "en-GB"


# --------------------------------------------------------------------------------------------------------------
# shared helpers
# --------------------------------------------------------------------------------------------------------------


def _round_coords(obj):
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], (int, float)):
            return [round(float(x), COORD_DECIMALS) for x in obj]
        return [_round_coords(x) for x in obj]
    return obj


def geojson_geometry(shape: Polygon | MultiPolygon) -> dict:
    """RFC 7946 geometry dict of a (lon, lat) shape: CCW exteriors, CW holes, rounded, plain lists."""
    if isinstance(shape, MultiPolygon):
        shape = MultiPolygon([orient(p, 1.0) for p in shape.geoms])
    else:
        shape = orient(shape, 1.0)
    g = mapping(shape)
    return {"type": g["type"], "coordinates": _round_coords(g["coordinates"])}


class Degenerate(ValueError):
    """A shape that has no valid, non-empty form at the exports' precision (``COORD_DECIMALS``)."""


def _ring_ok(ring: np.ndarray, ccw: bool) -> bool:
    """A closed ring of >= 3 distinct points turning the right way."""
    return (len(ring) >= 4 and bool((ring[0] == ring[-1]).all()) and len(np.unique(ring[:-1], axis=0)) >= 3
            and bool(shapely.is_ccw(shapely.linearrings(ring))) == ccw)


def exported_geometry(shape: Polygon | MultiPolygon) -> dict:
    """The GeoJSON geometry of ``shape`` as the exports write it, checked: snapped to the 1e-7 degree grid of the
    exports with GEOS (which keeps it valid; parts thinner than the grid vanish), then every exterior
    counter-clockwise and every hole clockwise (RFC 7946 3.1.6), every ring closed with >= 3 distinct points, the
    whole valid with an area. Raises ``Degenerate`` when nothing valid is left."""
    snapped = shapely.set_precision(shape, 10.0 ** -COORD_DECIMALS)
    parts = [orient(p, 1.0) for p in _polygons_of(snapped) if p.area > 0]
    if not parts:
        raise Degenerate("the shape has no area at the exports' precision of 1e-7 degrees (about 1 cm)")
    rings = [[np.round(shapely.get_coordinates(r), COORD_DECIMALS) for r in (p.exterior, *p.interiors)]
             for p in parts]
    ok = all(_ring_ok(rs[0], True) and all(_ring_ok(h, False) for h in rs[1:]) for rs in rings)
    polys = [shapely.polygons(shapely.linearrings(rs[0]), holes=[shapely.linearrings(h) for h in rs[1:]] or None)
             for rs in rings]
    whole = polys[0] if len(polys) == 1 else MultiPolygon(polys)
    if not ok or not shapely.is_valid(whole) or whole.area == 0:
        raise Degenerate("the shape is not a valid polygon at the exports' precision of 1e-7 degrees")
    coords = [[r.tolist() for r in rs] for rs in rings]
    return {"type": "Polygon", "coordinates": coords[0]} if len(coords) == 1 else \
        {"type": "MultiPolygon", "coordinates": coords}


def _limit_json(lim: Limit | None) -> dict | None:
    if lim is None:
        return None
    return {"ref": lim.ref, "m": lim.m, "ft": lim.ft, "raw": lim.raw}


def _windows_json(rec: ZoneRecord) -> list[dict]:
    return [{"start": iso_utc(w.start), "end": iso_utc(w.end)} for w in rec.windows]


def _try_volume(rec: ZoneRecord) -> tuple[Volume | None, dict | None, str | None]:
    """The record's volume and its checked GeoJSON geometry (``exported_geometry``), or None with the reason why
    there is no shape to write. Never raises: a shape that cannot be built is a reason, not an exception."""
    try:
        vol = volume_from_record(rec)
    except ValueError as exc:
        return None, None, f"shape could not be built: {exc}"
    except Exception:  # noqa: BLE001 - a geometry-library failure costs this record's shape, never the export
        return None, None, "shape could not be built (the geometry library refused it)"
    if vol is not None:
        why = _vertical_problem(vol) or limits_conflict(rec.lower, rec.upper)
        if why is not None:
            return None, None, why
        try:
            return vol, exported_geometry(vol.polygon), None
        except Degenerate as exc:
            return None, None, str(exc)
        except Exception:  # noqa: BLE001
            return None, None, "shape could not be written (the geometry library refused it)"
    if rec.status == "error":
        return None, None, "error record: " + ("; ".join(rec.reasons) or "message could not be read")
    if rec.notam_type == "C":
        return None, None, f"cancellation of {rec.ref_id or 'an earlier NOTAM'}: no zone"
    if isinstance(rec.geometry, NamedGeometry):
        return None, None, f"named place not resolved to coordinates: {rec.geometry.name}"
    return None, None, "no geometry in the message"


def _vertical_problem(vol: Volume) -> str | None:
    """Why a volume's vertical extent cannot be written (never a floor at or above its ceiling), or None."""
    for name, m in (("floor", vol.floor_m), ("ceiling", vol.ceil_m)):
        if m is not None and not (math.isfinite(m) and abs(m) <= MAX_LIMIT_M):
            return f"{name} {m:.4g} m is beyond the {MAX_LIMIT_M:,.0f} m (1,000,000 ft) the exports write: no volume"
    if vol.ceil_m is not None and vol.floor_m >= vol.ceil_m and (vol.floor_ref == "AGL") == (vol.ceil_ref == "AGL"):
        return (f"floor {vol.floor_m:.1f} m {vol.floor_ref} is not below ceiling {vol.ceil_m:.1f} m {vol.ceil_ref}: "
                "no volume")
    if vol.ceil_m is None and vol.floor_m >= UNL_SENTINEL * 0.3048:
        return f"floor {vol.floor_m:.1f} m is above the highest level the exports can write (UNL = {UNL_SENTINEL} ft)"
    return None


def _label(rec: ZoneRecord) -> str:
    """How a person names a record (1-based, as counted on the page; the JSON fields stay 0-based indices)."""
    return f"message {rec.message + 1} zone {rec.zone + 1}" + (f" ({rec.id})" if rec.id else "")


def _ident_allocator():
    used: set[str] = set()
    counter = [0]

    def alloc(rec: ZoneRecord) -> str:
        counter[0] += 1
        base = re.sub(r"[^A-Za-z0-9]", "", rec.id or "")
        candidates = []
        if base and rec.zone == 0:
            candidates.append(base)
        if base and rec.zone > 0:  # composite NOTAM: C1761/15 zone 3 -> C1761_3 (number kept, year dropped when it must)
            suffix = f"_{rec.zone}"
            candidates.append(base[: 7 - len(suffix)] + suffix)
        for cand in candidates:
            if 1 <= len(cand) <= 7 and cand not in used and not cand.startswith("_"):
                used.add(cand)
                return cand
        while True:
            ident = f"Z{counter[0]:06d}"
            if ident not in used:
                used.add(ident)
                return ident
            counter[0] += 1

    return alloc


def _vertical(rec: ZoneRecord) -> tuple[dict, list[str]]:
    """ED-269/ED-318 vertical limits: values, common unit, references, and notes about mapping choices."""
    lower, upper = rec.lower, rec.upper
    notes: list[str] = []

    def in_feet(lim: Limit | None) -> bool:
        if lim is None or lim.ref in ("SFC", "GND", "UNL"):
            return True  # no unit of its own
        return lim.ft is not None and ("FT" in lim.raw.upper() or lim.ref == "FL")

    uom = "FT" if in_feet(lower) and in_feet(upper) else "M"

    def value(lim: Limit | None, is_floor: bool) -> tuple[int, str]:
        if lim is None:
            if is_floor:
                notes.append("no lower limit stated: surface assumed")
                return 0, "AGL"
            notes.append("no upper limit stated: unbounded assumed")
            return UNL_SENTINEL, "AMSL"
        if lim.ref in ("SFC", "GND"):
            return 0, "AGL"
        if lim.ref == "UNL":
            notes.append(f"upper limit UNL written as {UNL_SENTINEL} {uom} AMSL")
            return UNL_SENTINEL, "AMSL"
        if uom == "FT":
            x = lim.ft if lim.ft is not None else (lim.m or 0.0) / 0.3048
        else:
            x = lim.m if lim.m is not None else (lim.ft or 0.0) * 0.3048
        n = math.floor(x + 1e-9) if is_floor else math.ceil(x - 1e-9)
        if lim.ref == "FL":
            notes.append(f"{lim.raw or 'FL'} written as {n} {uom} AMSL (standard-pressure altitude)")
            return n, "AMSL"
        return n, lim.ref  # AGL | AMSL

    lo, lo_ref = value(lower, True)
    hi, hi_ref = value(upper, False)
    return {"uom": uom, "lower": lo, "lowerRef": lo_ref, "upper": hi, "upperRef": hi_ref}, notes


# --------------------------------------------------------------------------------------------------------------
# GeoJSON
# --------------------------------------------------------------------------------------------------------------


def to_geojson(records: Iterable[ZoneRecord], *, at: datetime | None = None) -> dict:
    """RFC 7946 FeatureCollection, one feature per record (``geometry`` null where there is no shape)."""
    features = []
    for rec in records:
        vol, geom, why = _try_volume(rec)
        props: dict = {
            "message": rec.message,
            "zone": rec.zone,
            "id": rec.id,
            "notam_type": rec.notam_type,
            "ref_id": rec.ref_id,
            "status": rec.status,
            "reasons": list(rec.reasons),
            "lower": _limit_json(rec.lower),
            "upper": _limit_json(rec.upper),
            "start": iso_utc(rec.start),
            "end": iso_utc(rec.end),
            "end_estimated": rec.end_estimated,
            "permanent": rec.permanent,
            "schedule": rec.schedule,
            "windows": _windows_json(rec),
            "engine": rec.engine,
            "replaced_by": rec.replaced_by,
            "cancelled_by": rec.cancelled_by,
        }
        g = rec.geometry
        if isinstance(g, CircleGeometry):
            props["circle"] = {"center": [g.center[1], g.center[0]], "radius_m": g.radius_m, "approximate": g.approximate}
        elif isinstance(g, PolygonGeometry):
            props["points"] = [[lon, lat] for lat, lon in g.points]
        elif isinstance(g, NamedGeometry):
            props["named"] = {"name": g.name, "radius_m": getattr(g, "radius_m", None)}
        if vol is not None:
            props.update(floor_m=vol.floor_m, floor_ref=vol.floor_ref, ceil_m=vol.ceil_m, ceil_ref=vol.ceil_ref)
            if at is not None:
                props["active"] = vol.active_at(at) and not (rec.replaced_by or rec.cancelled_by)
            geometry = geom
        else:
            props["no_shape"] = why
            # a record we cannot draw is never silently "ok" (a cancellation has no zone to draw: it stays ok, as
            # on the records)
            if rec.status == "ok" and not (rec.notam_type == "C" and rec.geometry is None):
                props["status"] = "review"
                props["reasons"] = props["reasons"] + [why]
            if at is not None:
                props["active"] = None
            geometry = None
        features.append({"type": "Feature", "id": f"{rec.message}-{rec.zone}", "geometry": geometry, "properties": props})
    return {"type": "FeatureCollection", "features": features}


# --------------------------------------------------------------------------------------------------------------
# ED-269
# --------------------------------------------------------------------------------------------------------------


def _applicability(rec: ZoneRecord, vol: Volume) -> list[dict]:
    perm = "YES" if rec.permanent else "NO"
    # a zone without a stated end (PERM, open-ended) gets no end: its single window runs to the schedule reader's
    # listing horizon, which is not a date the message gives
    if vol.windows and not (rec.end is None and not rec.schedule):
        return [{"permanent": perm, "startDateTime": iso_utc(w.start), "endDateTime": iso_utc(w.end)} for w in vol.windows]
    item: dict = {"permanent": perm}
    if rec.start is not None:
        item["startDateTime"] = iso_utc(rec.start)
    if rec.end is not None:
        item["endDateTime"] = iso_utc(rec.end)
    return [item]


def _messages(rec: ZoneRecord, vol: Volume, notes: list[str], rx: Restriction) -> list[str]:
    """The zone's own message lines: what a reader of the zone alone must know (its review status, an estimated or
    missing end, the basis of its restriction class), before the mapping notes."""
    msgs = []
    if rec.status != "ok":
        msgs.append(f"status {rec.status}: " + ("; ".join(rec.reasons) or "needs human review"))
    if rec.end_estimated:
        msgs.append(f"end {iso_utc(rec.end) or 'time'} is estimated (EST): the zone may stay in force after it")
    if rec.end is None and rec.start is not None:
        what = "permanent (PERM)" if rec.permanent else "no end stated"
        if rec.schedule and vol.windows:
            msgs.append(f"{what}: no end date; schedule windows are listed up to "
                        f"{iso_utc(max(w.end for w in vol.windows))} and continue after")
        else:
            msgs.append(f"{what}: no end date")
    msgs.append(f"restriction {rx.ed269}: {rx.why}")
    if rec.schedule:
        msgs.append(f"schedule: {rec.schedule}")
    msgs.extend(notes)
    return msgs


def _source(rec: ZoneRecord) -> str:
    return f"NOTAM {rec.id}" if rec.id else f"message {rec.message + 1} of the batch"


def _shaped(records: Iterable[ZoneRecord]) -> tuple[list[tuple], list[str]]:
    """(record, volume, vertical limits, notes) for every record with a shape, and a line for each without one."""
    shaped: list[tuple] = []
    skipped: list[str] = []
    for rec in records:
        if rec.replaced_by or rec.cancelled_by:  # (GeoJSON keeps its feature, marked; a zone file holds what is in force)
            skipped.append(f"{_label(rec)}: {'replaced' if rec.replaced_by else 'cancelled'} by NOTAM "
                           f"{rec.replaced_by or rec.cancelled_by} of the same batch: no longer in force")
            continue
        vol, geom, why = _try_volume(rec)
        if vol is None:
            skipped.append(f"{_label(rec)}: {why}")
            continue
        vert, notes = _vertical(rec)
        if vert["upper"] <= vert["lower"] and vert["upperRef"] == vert["lowerRef"]:  # (never written)
            skipped.append(f"{_label(rec)}: floor {vert['lower']} {vert['uom']} is not below ceiling {vert['upper']} "
                           f"{vert['uom']}: no volume")
            continue
        shaped.append((rec, vol, geom, vert, notes))
    return shaped, skipped


def to_ed269(records: Iterable[ZoneRecord]) -> dict:
    """ED-269 UAS geographical zone JSON (see the module docstring for the mapping)."""
    alloc = _ident_allocator()
    features: list[dict] = []
    shaped, skipped = _shaped(records)
    for rec, vol, geom, vert, notes in shaped:
        rx = restriction_of(rec)
        limits = {
            "uomDimensions": vert["uom"],
            "lowerLimit": vert["lower"],
            "lowerVerticalReference": vert["lowerRef"],
            "upperLimit": vert["upper"],
            "upperVerticalReference": vert["upperRef"],
        }
        g = rec.geometry
        if isinstance(g, CircleGeometry):
            geoms = [{**limits, "horizontalProjection": {"type": "Circle", "center": _round_coords([g.center[1], g.center[0]]), "radius": g.radius_m}}]
        else:
            parts = [geom["coordinates"]] if geom["type"] == "Polygon" else geom["coordinates"]
            geoms = [{**limits, "horizontalProjection": {"type": "Polygon", "coordinates": p}} for p in parts]
        feat = {
            "identifier": alloc(rec),
            "name": rec.id or _label(rec),
            "type": "COMMON",
            "restriction": rx.ed269,
            "reason": list(rx.reasons),
            "otherReasonInfo": f"{_source(rec)}: {rx.why}",
            "regulationExemption": "NO",
            "message": " | ".join(_messages(rec, vol, notes, rx)),
            "zoneAuthority": [{"name": "issuing NOTAM office (not stated in the message)", "purpose": "INFORMATION"}],
            "applicability": _applicability(rec, vol),
            "geometry": geoms,
            "extendedProperties": {"message": rec.message, "zone": rec.zone, "id": rec.id, "status": rec.status,
                                   "endEstimated": rec.end_estimated, "permanent": rec.permanent},
        }
        features.append(feat)
    description = f"{len(features)} UAS zone(s) from pasted air-traffic messages (Clover Airspace)."
    if skipped:
        description += " Not exported as zones (no coordinate shape): " + "; ".join(skipped)
    return {"title": "Clover Airspace NOTAM zones", "description": description, "features": features}


# --------------------------------------------------------------------------------------------------------------
# ED-318
# --------------------------------------------------------------------------------------------------------------


def _text(s: str, limit: int) -> dict:
    s = s if len(s) <= limit else s[: limit - 1] + "\u2026"
    return {"text": s, "lang": LANG}


def to_ed318(records: Iterable[ZoneRecord]) -> dict:
    """ED-318 GeoJSON FeatureCollection of UAS geographical zones (see the module docstring for the mapping)."""
    alloc = _ident_allocator()
    features: list[dict] = []
    shaped, skipped = _shaped(records)
    for rec, vol, geom, vert, notes in shaped:
        rx = restriction_of(rec)
        layer = {
            "upper": vert["upper"],
            "upperReference": vert["upperRef"],
            "lower": vert["lower"],
            "lowerReference": vert["lowerRef"],
            "uom": vert["uom"].lower(),
        }
        g = rec.geometry
        if isinstance(g, CircleGeometry):
            geometry = {
                "type": "Point",
                "coordinates": _round_coords([g.center[1], g.center[0]]),
                "extent": {"subType": "Circle", "radius": g.radius_m},
                "layer": layer,
            }
        else:
            geometry = {**geom, "layer": layer}
        periods = []
        for item in _applicability(rec, vol):
            p = {k: v for k, v in item.items() if k in ("startDateTime", "endDateTime")}
            if p:
                periods.append(p)
        props = {
            "identifier": alloc(rec),
            "country": UNKNOWN_COUNTRY,
            "name": [_text(rec.id or _label(rec), 200)],
            "type": rx.ed318,
            "variant": "COMMON",
            "reason": list(rx.reasons),
            "otherReasonInfo": [_text(_source(rec), 200), _text(rx.why, 200)],
            "regulationExemption": "NO",
            "zoneAuthority": [{"name": [_text("issuing NOTAM office (not stated in the message)", 200)], "purpose": "INFORMATION"}],
            "extendedProperties": {
                "message": rec.message,
                "zone": rec.zone,
                "id": rec.id,
                "status": rec.status,
                "reasons": list(rec.reasons),
                "endEstimated": rec.end_estimated,
                "permanent": rec.permanent,
                "lower": _limit_json(rec.lower),
                "upper": _limit_json(rec.upper),
            },
        }
        if rx.ed269 != "PROHIBITED":  # the conditions of a class that lets a drone in are what the message says
            props["restrictionConditions"] = f"{rx.why}; read {_source(rec)} before flying"
        props["message"] = [_text(m, 200) for m in _messages(rec, vol, notes, rx)]  # TextShort: <= 200 characters
        if periods:
            props["limitedApplicability"] = periods
        features.append({"type": "Feature", "id": f"{rec.message}-{rec.zone}", "geometry": geometry, "properties": props})
    limitations = [
        _text(f"country not stated in NOTAMs: written as {UNKNOWN_COUNTRY}", 200),
        _text("flight levels written as standard-pressure altitude AMSL; UNL as 99999", 200),
    ]
    limitations += [_text(f"not exported: {s}", 200) for s in skipped]
    return {
        "type": "FeatureCollection",
        "name": "Clover Airspace NOTAM zones",
        "metadata": {
            "provider": [_text("Clover Airspace (extracted from air-traffic messages)", 200)],
            "description": [_text(f"{len(features)} zone(s); {len(skipped)} record(s) without a shape", 200)],
            "technicalLimitations": limitations,
        },
        "features": features,
    }
