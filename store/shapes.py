"""What the store keeps beside a record to find it fast: its footprint (WKB), bounding box and active windows.

The footprint the store keeps is a cheap cover of the zone's shape. A circle's exact ring (``circle_polygon``: up
to 256 vertices, each chord checked to stay outside the circle) costs about 2.5 ms, which would cap ingest near 400
records/s; the store keeps instead a circumscribed 64-gon pushed out by 0.2 % of the radius plus 1 m
(``CIRCLE_SIDES``): it encloses the circle and overshoots it by well under half a percent. A polygon's cover is its
ring (its convex hull where the ring crosses itself) widened by a bound on how far a geodesic edge strays from the
straight lon/lat chord. Circles over 500 km, shapes near a pole or across the antimeridian keep the exact shape.
The cover serves the index and the box query (a zone passing that close outside a box is counted in: the safe side
for a no-fly picture). The route check builds each candidate's volume with ``geo.volumes`` itself (``volume_of``,
cached per geometry), so its answer is the in-memory one.

Active windows follow ``geo.volumes.Volume.active_at``: the record's windows, else ``[start, end)`` with a missing
side open. A zone whose end is *estimated* (``C) … EST``) is in force until it is replaced or cancelled (ICAO: an
estimated end asks for a NOTAMR or NOTAMC), so it keeps one more window from its estimated end on, open, and the
picture flags it (``as_of``). Times are UTC epoch seconds; an open side is ``±OPEN``.
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass
from datetime import datetime, timezone
from functools import lru_cache

import numpy as np
import shapely
from shapely.geometry.base import BaseGeometry

from airspace.core.records import CircleGeometry, PolygonGeometry, ZoneRecord
from airspace.geo.volumes import GEOD, Volume, volume_with_shape
from airspace.geo.volumes import record_shape as _record_shape

CIRCLE_SIDES = 64

OPEN = 1.0e15  # seconds: far past any date a record can hold (year 9999 is 2.5e11)


def epoch(t: datetime) -> float:
    if t.tzinfo is None:
        t = t.replace(tzinfo=timezone.utc)
    return t.timestamp()


def from_epoch(s: float) -> datetime:
    return datetime.fromtimestamp(s, tz=timezone.utc)


def in_picture(rec: ZoneRecord) -> bool:
    """Whether a record is a zone of the picture: a located or named zone, not an error, not a cancellation."""
    return rec.status != "error" and rec.notam_type != "C" and rec.geometry is not None


def windows_of(rec: ZoneRecord) -> list[tuple[float, float]]:
    """The record's active windows in epoch seconds (module doc), the estimated-end extension included."""
    if rec.windows:
        out = [(epoch(w.start), epoch(w.end)) for w in rec.windows]
    else:
        out = [(epoch(rec.start) if rec.start else -OPEN, epoch(rec.end) if rec.end else OPEN)]
    if rec.end_estimated and rec.end is not None:
        out.append((epoch(rec.end), OPEN))
    return out


@dataclass
class Footprint:
    """A record's stored companions. ``shape`` is None for a zone located only by a name."""

    shape: BaseGeometry | None
    wkb: bytes | None
    bounds: tuple[float, float, float, float] | None  # (west, south, east, north)
    windows: list[tuple[float, float]]
    t0: float
    t1: float
    est_end: float | None


def footprint(rec: ZoneRecord) -> Footprint:
    return footprints([rec])[0]


def footprints(recs: list[ZoneRecord]) -> list[Footprint]:
    """The footprints of a batch, computed together (one geodesic call for every circle, vectorised shapely):
    ingest spends its time here."""
    shapes = _covers(recs)
    wkbs = shapely.to_wkb(shapes)
    bounds = shapely.bounds(shapes)
    out = []
    for rec, shape, wkb, b in zip(recs, shapes, wkbs, bounds):
        wins = windows_of(rec)
        out.append(Footprint(
            shape=shape, wkb=wkb, bounds=tuple(float(x) for x in b) if shape is not None else None,  # type: ignore
            windows=wins, t0=min(a for a, _ in wins), t1=max(e for _, e in wins),
            est_end=epoch(rec.end) if rec.end_estimated and rec.end is not None else None))
    return out


def _covers(recs: list[ZoneRecord]) -> np.ndarray:
    shapes = np.full(len(recs), None, dtype=object)
    slow: list[int] = []
    circ = [i for i, r in enumerate(recs) if isinstance(r.geometry, CircleGeometry)]
    if circ:
        lat = np.array([recs[i].geometry.center[0] for i in circ], dtype=float)  # type: ignore[union-attr]
        lon = np.array([recs[i].geometry.center[1] for i in circ], dtype=float)  # type: ignore[union-attr]
        rad = np.array([recs[i].geometry.radius_m for i in circ], dtype=float)  # type: ignore[union-attr]
        with np.errstate(invalid="ignore"):
            reach = rad / math.cos(math.pi / CIRCLE_SIDES) * 1.002 + 1.0
            ok = ((np.abs(lat) <= 90) & (np.abs(lon) <= 180) & (rad > 0) & (rad <= 500_000)
                  & (np.abs(lat) + 2.0 * reach / 110_000.0 <= 89.0))
        fast = np.nonzero(ok)[0]
        slow += [circ[k] for k in np.nonzero(~ok)[0]]
        if len(fast):
            k = CIRCLE_SIDES
            az = np.linspace(0.0, 360.0, k, endpoint=False)
            lons, lats, _ = GEOD.fwd(np.repeat(lon[fast], k), np.repeat(lat[fast], k), np.tile(az, len(fast)),
                                     np.repeat(reach[fast], k))
            lons = np.asarray(lons).reshape(len(fast), k)
            lats = np.asarray(lats).reshape(len(fast), k)
            c = lon[fast][:, None]
            lons = c + (lons - c + 180.0) % 360.0 - 180.0
            inside = (lons.min(axis=1) >= -180.0) & (lons.max(axis=1) <= 180.0)
            rings = shapely.polygons(np.stack([lons[inside], lats[inside]], axis=-1))
            for j, shape in zip(fast[inside], rings):
                shapes[circ[j]] = shape
            slow += [circ[j] for j in fast[~inside]]
    poly = [i for i, r in enumerate(recs) if isinstance(r.geometry, PolygonGeometry)]
    cand, margins = [], []
    for i in poly:
        pts = np.asarray(recs[i].geometry.points, dtype=float)  # type: ignore[union-attr]
        if (pts.ndim != 2 or len(pts) < 3 or not np.isfinite(pts).all() or np.abs(pts[:, 0]).max() > 85.0
                or np.abs(pts[:, 1]).max() > 180.0 or np.ptp(pts[:, 1]) > 180.0):
            slow.append(i)
            continue
        cand.append((i, pts))
    if cand:
        a = np.concatenate([p for _, p in cand])
        b = np.concatenate([np.roll(p, -1, axis=0) for _, p in cand])
        _, _, d = GEOD.inv(a[:, 1], a[:, 0], b[:, 1], b[:, 0])
        d = np.asarray(d)
        start = 0
        for _i, pts in cand:
            n = len(pts)
            lmax = float(d[start : start + n].max())
            start += n
            phi = math.radians(float(np.abs(pts[:, 0]).max()))
            m = lmax * lmax * (1.0 + 2.0 * math.tan(phi)) / (8.0 * 6.3e6) + 2.0
            margins.append(m / 110_000.0 / max(math.cos(phi), 0.05))
        ring_of = np.repeat(np.arange(len(cand)), [len(p) for _, p in cand])
        raw_a = shapely.polygons(shapely.linearrings(a[:, ::-1], indices=ring_of))
        valid = shapely.is_valid(raw_a)
        base = np.where(valid, raw_a, shapely.convex_hull(raw_a))
        covers = shapely.buffer(base, np.array(margins), quad_segs=2)
        for (i, _), shape in zip(cand, covers):
            shapes[i] = shape
    for i in slow:
        g = recs[i].geometry
        try:
            shapes[i] = record_shape(g)  # type: ignore[arg-type]
        except Exception:  # noqa: BLE001 - an impossible shape: kept as a record, drawn nowhere (as in memory)
            shapes[i] = None
    return shapes


def as_of(rec: ZoneRecord, until: float) -> ZoneRecord:
    """The record as the picture shows it up to ``until``: past its estimated end, in force with no end, flagged."""
    if not (rec.end_estimated and rec.end is not None and until > epoch(rec.end)):
        return rec
    # a shallow copy with its own reasons (the one list ``review`` changes): the geometry and limits are frozen
    # models, shared safely; a deep copy cost more than decoding the record (most zones of a dense box at 10^6)
    out = rec.model_copy(update={"windows": [], "end": None, "reasons": list(rec.reasons)})
    out.review(f"its estimated end {rec.end:%Y-%m-%d %H:%M}Z has passed with no replacement or cancellation "
               "received: kept in force until one arrives")
    return out


def record_shape(g: CircleGeometry | PolygonGeometry):
    """``geo.volumes.record_shape`` of a geometry, cached: a picture asks again for the same zones."""
    return _shape(g.model_dump_json())


@lru_cache(maxsize=8192)
def _shape(geometry_json: str):
    return _record_shape(ZoneRecord.model_validate({"message": 0, "geometry": json.loads(geometry_json)}))


def volume_of(rec: ZoneRecord) -> Volume | None:
    """``geo.volumes.volume_from_record``, its shape taken from the cache (the rest is that function's own rule:
    ``geo.volumes.volume_with_shape``). None where it makes no volume."""
    g = rec.geometry
    if rec.status == "error" or rec.notam_type == "C" or not isinstance(g, (CircleGeometry, PolygonGeometry)):
        return None
    try:
        shape = record_shape(g)
        return None if shape is None else volume_with_shape(rec, shape)
    except Exception:  # noqa: BLE001 - as volumes_from_records: an impossible volume is skipped
        return None
