"""A review resolved by the operator on the page: pick one of two readings of the same zone (the run's engine and
the rules reader), correct one field, or place a zone located only by a name on the map (``place``). The record becomes ``ok`` and carries its provenance (``operator``, when,
which fields, what was chosen, the review reasons it settled); the exports carry the provenance too. No Streamlit.

Nothing is guessed: an edited value is read with the parser's own unit and time readers, and a value they cannot
read is a clear error, never a record marked ``ok``."""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime, timezone

from airspace.app.tables import record_key, record_signature
from airspace.core.records import CircleGeometry, NamedGeometry, ZoneRecord, iso_utc

UTC = timezone.utc
EDITABLE = ("end", "start", "lower", "upper", "radius")


class ResolvedRecord(ZoneRecord):
    """A record an operator resolved: ``provenance`` says who, when and what (in its JSON, hence the JSONL export)."""

    provenance: dict | None = None


def _differing(a: ZoneRecord, b: ZoneRecord) -> list[str]:
    sa, sb = record_signature(a), record_signature(b)
    return [k for k in sa if k != "status" and sa[k] != sb[k]]


def choose(original: ZoneRecord, chosen: ZoneRecord, source: str, when: datetime) -> ResolvedRecord:
    """``original`` (a review record) settled by taking ``chosen``'s reading of the same zone (``source`` names
    whose reading it is: a label, e.g. the engine's name)."""
    data = chosen.model_dump()
    data.update(message=original.message, zone=original.zone, text=original.text, status="ok", reasons=[])
    fields = _differing(original, chosen)
    return ResolvedRecord(**data, provenance={
        "by": "operator", "when": iso_utc(when), "action": f"chose the {source} reading",
        "fields": fields, "was": original.status, "reasons_resolved": list(original.reasons),
    })


def _parse_time(text: str) -> datetime:
    s = text.strip()
    try:
        t = datetime.fromisoformat(s.replace("Z", "+00:00").replace("z", "+00:00"))
        return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)
    except ValueError:
        pass
    from airspace.parser.times import parse_time

    try:
        v = parse_time(s)
    except Exception as exc:  # noqa: BLE001 - the parser's own refusal becomes the operator's message
        raise ValueError(f"{s[:40]!r} is not a time: write 2026-11-30 12:00 (UTC) or 2611301200") from exc
    t = getattr(v, "dt", v)
    if not isinstance(t, datetime):
        raise ValueError(f"{s[:40]!r} is not a time: write 2026-11-30 12:00 (UTC) or 2611301200")
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)


def edit(original: ZoneRecord, field: str, value: str, when: datetime) -> ResolvedRecord:
    """``original`` with one field set by the operator (``EDITABLE``); ``ValueError`` for a value that does not
    read."""
    if field not in EDITABLE:
        raise ValueError(f"{field!r} cannot be edited here; choose one of {', '.join(EDITABLE)}")
    data = original.model_dump()
    if field in ("start", "end"):
        data[field] = _parse_time(value)
        if field == "end":
            data["end_estimated"] = False
            data["permanent"] = False
        data["windows"] = []  # the stated times are the operator's now
        start = original.start if field == "end" else data["start"]
        end = original.end if field == "start" else data["end"]
        if start is not None and end is not None and end <= start:
            raise ValueError("the end must be after the start")
    elif field in ("lower", "upper"):
        from airspace.parser.units import parse_limit

        try:
            data[field] = parse_limit(value.strip()).model_dump()
        except Exception as exc:  # noqa: BLE001
            raise ValueError(f"{value.strip()[:40]!r} is not a height: write e.g. SFC, 120M AGL, 1000FT AMSL, "
                             "FL050") from exc
    else:  # radius
        if not isinstance(original.geometry, CircleGeometry):
            raise ValueError("only a circle has a radius")
        from airspace.parser.units import parse_distance_m

        try:
            r = parse_distance_m(value.strip())
        except Exception as exc:  # noqa: BLE001
            raise ValueError(f"{value.strip()[:40]!r} is not a distance: write e.g. 1NM, 500M, 2KM") from exc
        if not r > 0:
            raise ValueError("the radius must be above zero")
        data["geometry"] = {**data["geometry"], "radius_m": r}
    data.update(status="ok", reasons=[])
    data.pop("provenance", None)
    prev = getattr(original, "provenance", None) or {}
    fields = sorted(set(prev.get("fields", [])) | {field})
    return ResolvedRecord(**data, provenance={
        "by": "operator", "when": iso_utc(when), "action": f"edited {field}", "fields": fields,
        "was": prev.get("was", original.status),
        "reasons_resolved": prev.get("reasons_resolved", list(original.reasons)),
    })


def place(original: ZoneRecord, when: datetime, *, centre: tuple[float, float] | None = None,
          radius_m: float | None = None, vertices: Sequence[tuple[float, float]] = ()) -> ResolvedRecord:
    """``original``, located only by a name (``NamedGeometry``), placed by the operator on the map: a circle of
    ``radius_m`` around ``centre`` (lat, lon), or the polygon of ``vertices`` (lat, lon; at least three, enclosing an
    area). ``ValueError`` for a placement that is no area."""
    if not isinstance(original.geometry, NamedGeometry):
        raise ValueError("only a zone located by a name alone is placed on the map; edit its fields instead")
    name = original.geometry.name
    if vertices:
        from shapely.geometry import Polygon

        pts = [(float(a), float(b)) for a, b in vertices]
        # an area of at least ~10 m² (1e-9 square degrees): three clicks on one line are not an area
        if len(set(pts)) < 3 or not Polygon([(lon, lat) for lat, lon in pts]).area > 1e-9:
            raise ValueError("a polygon needs at least three points on the map enclosing an area")
        geometry = {"type": "polygon", "points": pts}
        what = f"placed {name!r} on the map as a polygon of {len(pts)} points"
    elif centre is not None:
        r = radius_m if radius_m is not None else original.geometry.radius_m
        if r is None or not r > 0:
            raise ValueError(f"give the radius of {name!r} (the message states none)")
        geometry = {"type": "circle", "center": (float(centre[0]), float(centre[1])), "radius_m": float(r)}
        what = f"placed {name!r} on the map: centre {centre[0]:.5f}, {centre[1]:.5f}, radius {r:,.0f} m"
    else:
        raise ValueError("click the map for the centre (or the polygon's points) first")
    data = original.model_dump()
    data.pop("provenance", None)
    data.update(geometry=geometry, status="ok", reasons=[])
    prev = getattr(original, "provenance", None) or {}
    return ResolvedRecord(**data, provenance={
        "by": "operator", "when": iso_utc(when), "action": what,
        "fields": sorted(set(prev.get("fields", [])) | {"geometry"}), "was": prev.get("was", original.status),
        "reasons_resolved": prev.get("reasons_resolved", list(original.reasons)),
    })


def apply(records: Sequence[ZoneRecord], resolved: dict[str, dict]) -> list[ZoneRecord]:
    """``records`` with each resolved one (key -> its ``ResolvedRecord`` JSON) in its place."""
    return [ResolvedRecord.model_validate(resolved[record_key(r)]) if record_key(r) in resolved else r
            for r in records]


def provenance_by_key(records: Sequence[ZoneRecord]) -> dict[tuple[int, int], dict]:
    return {(r.message, r.zone): r.provenance for r in records if getattr(r, "provenance", None)}


def with_provenance(doc: dict, records: Sequence[ZoneRecord]) -> dict:
    """An export (GeoJSON, ED-269 or ED-318 JSON of ``geo.export``) with each resolved zone's provenance added where
    the format keeps the zone's message and zone numbers (GeoJSON ``properties``, ED-269 and ED-318
    ``extendedProperties``)."""
    prov = provenance_by_key(records)
    if not prov:
        return doc
    for feat in doc.get("features", []):
        props = feat.get("properties") if isinstance(feat.get("properties"), dict) else {}
        for holder in (props, feat.get("extendedProperties"), props.get("extendedProperties")):
            if (isinstance(holder, dict) and isinstance(holder.get("message"), int)
                    and isinstance(holder.get("zone"), int) and (holder["message"], holder["zone"]) in prov):
                holder["provenance"] = prov[(holder["message"], holder["zone"])]
    return doc
