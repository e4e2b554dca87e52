"""Zone records -> 3D volumes: a WGS84 footprint (lon, lat), a floor and a ceiling, and active time windows.

Why these choices
-----------------
* **Circles enclose the true circle.** A no-fly circle drawn as an inscribed polygon would leave slivers of the
  real zone outside the drawn shape, i.e. a route could pass "between" zone and polygon. Vertices are therefore
  placed on geodesics from the centre (``pyproj.Geod(ellps="WGS84").fwd``) at ``r / cos(pi / n)`` so that every
  chord lies outside the circle, with ``n`` chosen so that the overshoot ``r (1/cos(pi/n) - 1)`` stays within half
  of ``max_error_m``. Because shapely joins vertices with straight lines in lon/lat (not geodesics), the chords
  are then checked numerically (geodesic distance from the centre at points along every chord) and pushed out
  further where that is not yet enough (near the poles, huge radii).
* **Polygons are densified along geodesics** (``Geod.npts``) so a long edge follows the great-ellipse path the
  message means, not a rhumb/planar line in lon/lat (at most ``DENSIFY_BUDGET`` added points per ring).
* **Bounded output.** A record's circle is drawn within ``CIRCLE_RELATIVE_ERROR`` of its radius (at least 1 m, always
  outside the true circle) with at most ``RECORD_CIRCLE_VERTICES`` vertices (a huge circle near a pole may then
  overshoot more; it is still enclosed). A self-crossing ring is repaired only when short
  (``MAX_REPAIR_VERTICES``). So a shape costs time and bytes in proportion to the ring written in the message.
* **Antimeridian**: rings are unwrapped to continuous longitudes, then cut at +-180 and shifted back, producing a
  ``MultiPolygon`` whose parts each lie in [-180, 180] (RFC 7946 section 3.1.9). A ring that winds around a pole
  is closed over that pole along the +-180 meridian.
* **Vertical limits keep their reference.** ``floor_m``/``ceil_m`` are metres in ``floor_ref``/``ceil_ref``:
  ``AGL`` (SFC/GND become 0 m AGL), ``AMSL``, or ``FL`` (metres of *pressure* altitude: FL130 -> 13000 ft ->
  3962.4 m). AGL is never converted to AMSL: there is no terrain model here, and ``geo.conflicts`` is explicitly
  conservative across references. ``ceil_m is None`` means unlimited (UNL, or no upper limit given: unknown is
  treated as unlimited, the safe side); a missing lower limit is treated as the surface.
* **Time**: ``Volume.windows`` are the record's expanded schedule windows; without a schedule the single window
  ``[start, end)`` is used. ``active_at`` is half-open ``[start, end)``. No windows and no start -> always active;
  a start without an end (PERM, open-ended) -> active from start on.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timezone

import numpy as np
import shapely
from pyproj import Geod
from shapely.geometry import MultiPolygon, Polygon, box
from shapely.geometry.polygon import orient

from airspace.core.records import FT_TO_M, CircleGeometry, Limit, PolygonGeometry, Window, ZoneRecord

GEOD = Geod(ellps="WGS84")

#: bounds on the number of vertices of a circle polygon
MIN_CIRCLE_VERTICES = 32
MAX_CIRCLE_VERTICES = 8192
#: a record's circle is drawn within this fraction of its radius (at least 1 m), with at most this many vertices
CIRCLE_RELATIVE_ERROR = 1e-4
RECORD_CIRCLE_VERTICES = 256
#: geodesic points added to a polygon's edges, at most, in all
DENSIFY_BUDGET = 2048
#: a self-crossing ring is repaired (make_valid) only up to this many vertices
MAX_REPAIR_VERTICES = 64


def _utc(t: datetime) -> datetime:
    """Aware UTC datetime; naive datetimes are taken as UTC (the record models store UTC)."""
    if t.tzinfo is None:
        return t.replace(tzinfo=timezone.utc)
    return t.astimezone(timezone.utc)


# --------------------------------------------------------------------------------------------------------------
# Horizontal geometry
# --------------------------------------------------------------------------------------------------------------


def _unwrap(lons: np.ndarray, ref: float) -> np.ndarray:
    """Longitudes made continuous: each one within 180 deg of its predecessor, the first within 180 of ``ref``."""
    lons = np.asarray(lons, dtype=float)
    if lons.size == 0:
        return lons
    out = np.unwrap(lons, period=360.0)
    first = ref + ((out[0] - ref + 180.0) % 360.0 - 180.0)
    return out + (first - out[0])


def _split_antimeridian(poly: Polygon) -> Polygon | MultiPolygon:
    """Cut a polygon given in unwrapped longitudes into parts inside [-180, 180] (shifted by multiples of 360)."""
    minx, _, maxx, _ = poly.bounds
    if minx >= -180.0 and maxx <= 180.0:
        return orient(poly, 1.0)
    parts: list[Polygon] = []
    k_lo = int(math.floor((minx + 180.0) / 360.0))
    k_hi = int(math.floor((maxx + 180.0) / 360.0))
    for k in range(k_lo, k_hi + 1):
        shift = 360.0 * k
        piece = poly.intersection(box(-180.0 + shift, -90.0, 180.0 + shift, 90.0))
        piece = shapely.affinity.translate(piece, xoff=-shift) if not piece.is_empty else piece
        parts.extend(_polygons_of(piece))
    parts = [orient(p, 1.0) for p in parts if p.area > 0]
    if not parts:
        raise ValueError("polygon vanished when split at the antimeridian")
    return parts[0] if len(parts) == 1 else MultiPolygon(parts)


def _polygons_of(geom) -> list[Polygon]:
    """The polygonal parts of any shapely geometry (drops points/lines left over by intersections)."""
    if geom.is_empty:
        return []
    if isinstance(geom, Polygon):
        return [geom]
    if isinstance(geom, MultiPolygon):
        return list(geom.geoms)
    if hasattr(geom, "geoms"):
        out: list[Polygon] = []
        for g in geom.geoms:
            out.extend(_polygons_of(g))
        return out
    return []


def _close_over_pole(lons: np.ndarray, lats: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Turn a ring that winds once around a pole into a lon/lat ring closed along the pole.

    ``lons`` are unwrapped (monotone overall, spanning 360 deg). The ring is rotated so that it starts at its
    smallest longitude, then closed by going up (or down) to the pole at the last longitude and back at the first.
    """
    # which pole: the one the ring surrounds is on the side of its mean latitude
    pole = 90.0 if float(np.mean(lats)) > 0 else -90.0
    if lons[-1] < lons[0]:  # make longitudes increase
        lons, lats = lons[::-1], lats[::-1]
    # bring into a frame starting at -180: shift so first lon is >= -180 and span covers [-180, 180]
    start = lons[0]
    lons = lons - 360.0 * math.floor((start + 180.0) / 360.0)
    # the ring covers [l0, l0 + 360]; cut it at -180/180 by sorting on wrapped longitude
    wrapped = (lons + 180.0) % 360.0 - 180.0
    order = np.argsort(wrapped, kind="stable")
    w = wrapped[order]
    la = lats[order]
    # interpolate the crossing latitude at +-180 from the two ends of the sorted sequence
    lon_a, lat_a = w[-1], la[-1]
    lon_b, lat_b = w[0] + 360.0, la[0]
    if lon_b != lon_a:
        lat_x = lat_a + (lat_b - lat_a) * (180.0 - lon_a) / (lon_b - lon_a)
    else:
        lat_x = lat_a
    ring_lon = np.concatenate([[-180.0], w, [180.0, 180.0, -180.0]])
    ring_lat = np.concatenate([[lat_x], la, [lat_x, pole, pole]])
    return ring_lon, ring_lat


def _chord_min_distance(clon: float, clat: float, lons: np.ndarray, lats: np.ndarray, samples: int = 8) -> np.ndarray:
    """For each chord i -> i+1 of an open polyline (lon unwrapped), the smallest geodesic distance (metres) from
    the centre to the chord's two ends and ``samples`` evenly spaced interior points (straight in lon/lat, as
    shapely draws it)."""
    fr = np.linspace(0.0, 1.0, samples + 2)
    px = lons[:-1, None] + np.diff(lons)[:, None] * fr[None, :]
    py = np.clip(lats[:-1, None] + np.diff(lats)[:, None] * fr[None, :], -90.0, 90.0)
    _, _, dist = GEOD.inv(np.full(px.size, clon), np.full(py.size, clat), px.ravel(), py.ravel())
    return np.asarray(dist).reshape(px.shape).min(axis=1)


def circle_vertex_count(radius_m: float, max_error_m: float) -> int:
    """Vertices needed so that a circumscribed regular polygon overshoots the circle by at most ``max_error_m / 2``."""
    budget = max(max_error_m, 1e-6) / 2.0
    ratio = radius_m / (radius_m + budget)
    n = math.ceil(math.pi / math.acos(ratio)) if ratio < 1.0 else MAX_CIRCLE_VERTICES
    return int(min(max(n, MIN_CIRCLE_VERTICES), MAX_CIRCLE_VERTICES))


def _circle_ring(lat: float, lon: float, target: float, n: int) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """``n`` vertices (unwrapped lon, lat, geodesic distance) of a ring whose lon/lat chords all stay at least
    ``target`` metres from the centre, and whether that was reached.

    Vertices start at ``target / cos(pi / n)`` (exact for a circumscribed polygon in any locally affine frame);
    any chord still found too close (curvature of lon/lat near the poles, huge radii) has its two ends pushed out
    by its deficit, and the check is repeated.
    """
    # azimuth grows clockwise seen from above: walk it backwards for a counter-clockwise (RFC 7946) ring
    az = np.linspace(0.0, 360.0, n, endpoint=False)[::-1]
    dist = np.full(n, target / math.cos(math.pi / n))
    for _ in range(10):
        lons, lats, _ = GEOD.fwd(np.full(n, lon), np.full(n, lat), az, dist)
        lons = _unwrap(np.asarray(lons, dtype=float), lon)
        lats = np.asarray(lats, dtype=float)
        # the closing chord goes back to the first vertex (shifted by 360 deg when the ring winds around a pole)
        first = lons[-1] + ((lons[0] - lons[-1] + 180.0) % 360.0 - 180.0)
        dmin = _chord_min_distance(lon, lat, np.append(lons, first), np.append(lats, lats[0]))
        deficit = target - dmin  # deficit[i]: chord from vertex i to vertex i+1
        if (deficit <= 0).all():
            return lons, lats, dist, True
        push = np.where(deficit > 0, deficit + 1e-3, 0.0)
        dist = dist + np.maximum(push, np.roll(push, 1))
    return lons, lats, dist, False


def circle_polygon(lat: float, lon: float, radius_m: float, *, max_error_m: float = 1.0,
                   max_vertices: int = MAX_CIRCLE_VERTICES) -> Polygon | MultiPolygon:
    """A polygon (lon, lat) that encloses the geodesic circle of ``radius_m`` around (lat, lon) on WGS84.

    Every point of the true circle is inside or on the polygon; the polygon's boundary is at most about
    ``max_error_m`` farther from the centre than the radius (the bound is met exactly by the vertex count, and
    the numeric chord correction only adds what the lon/lat chords need), unless that takes more than
    ``max_vertices`` (then the circle is still enclosed, with a larger overshoot). Circles crossing the antimeridian
    come back as a MultiPolygon split at +-180; circles containing a pole are closed over the pole.
    """
    if not (-90.0 <= lat <= 90.0) or not (-180.0 <= lon <= 180.0):
        raise ValueError(f"circle centre out of range: lat={lat}, lon={lon}")
    if not (radius_m > 0) or not math.isfinite(radius_m):
        raise ValueError(f"circle radius must be a positive number of metres, got {radius_m}")
    if radius_m > 5_000_000:
        raise ValueError(f"circle radius {radius_m:.0f} m is larger than this tool supports (5000 km)")
    # aim a little beyond the radius so that floating point and the finite chord sampling cannot leave a
    # true-circle point outside by a hair (at most 5 cm; well inside the error budget)
    target = radius_m + min(0.05 * max_error_m, 0.05, 1e-3 * radius_m)
    _, _, d_north = GEOD.inv(lon, lat, lon, 90.0)
    _, _, d_south = GEOD.inv(lon, lat, lon, -90.0)
    cap = max(MIN_CIRCLE_VERTICES, min(max_vertices, MAX_CIRCLE_VERTICES))
    n = min(circle_vertex_count(radius_m, max_error_m), cap)
    while True:
        lons, lats, dist, enclosed = _circle_ring(lat, lon, target, n)
        polar = min(d_north, d_south) <= float(dist.max())
        good = enclosed and float(dist.max()) - radius_m <= max_error_m
        if good or n >= cap:
            break  # at the vertex cap the enclosure still holds; only the error bound may be exceeded
        n = min(2 * n, cap)
    if polar:
        ring_lon, ring_lat = _close_over_pole(lons, lats)
        parts = [orient(p, 1.0) for p in _polygons_of(shapely.make_valid(Polygon(np.column_stack([ring_lon, ring_lat]))))]
        return parts[0] if len(parts) == 1 else MultiPolygon(parts)
    return _split_antimeridian(Polygon(np.column_stack([lons, lats])))


def _densified(lats: np.ndarray, lons: np.ndarray, max_segment_m: float) -> tuple[np.ndarray, np.ndarray]:
    """The closed ring through (lats, lons) (open arrays, longitudes in [-180, 180]) with geodesic points added on
    every edge longer than the segment length, at most ``DENSIFY_BUDGET`` in all; longitudes come back unwrapped."""
    la2, lo2 = np.roll(lats, -1), np.roll(lons, -1)
    _, _, dist = GEOD.inv(lons, lats, lo2, la2)
    dist = np.nan_to_num(np.asarray(dist, dtype=float))
    seg = max(max_segment_m, float(dist.sum()) / DENSIFY_BUDGET)
    out_lon: list[float] = []
    out_lat: list[float] = []
    for i in range(len(lats)):
        out_lon.append(lons[i])
        out_lat.append(lats[i])
        k = int(math.ceil(dist[i] / seg)) - 1
        if k > 0:
            for lo, la in GEOD.npts(lons[i], lats[i], lo2[i], la2[i], k):
                out_lon.append(lo)
                out_lat.append(la)
    return _unwrap(np.asarray(out_lon), out_lon[0]), np.asarray(out_lat)


def _crossing(n: int) -> str:
    return (f"the ring of {n} vertices crosses itself (or touches itself); a self-crossing ring is repaired only up "
            f"to {MAX_REPAIR_VERTICES} vertices")


def _repaired(lats: np.ndarray, lons: np.ndarray, max_segment_m: float) -> Polygon | MultiPolygon:
    """A self-crossing ring repaired as the union of the areas it encloses (``shapely.make_valid``, method
    "structure": a bow tie is its two triangles, a ring that loops over itself keeps the loop; for a no-fly zone the
    larger reading is the safe one), from the ring as written so that the cost depends on its vertices, not on the
    densified edges; each part's outline is then densified (kept as repaired where that would make it invalid)."""
    ref = float(lons[0])
    raw = Polygon(np.column_stack([_unwrap(lons, ref), lats]))
    parts = [p for p in _polygons_of(shapely.make_valid(raw, method="structure", keep_collapsed=False)) if p.area > 0]
    if not parts:
        raise ValueError("polygon has no area (all points on a line?)")
    dense = []
    for part in parts:
        ext = np.asarray(part.exterior.coords)[:-1]
        dl, da = _densified(ext[:, 1], (ext[:, 0] + 180.0) % 360.0 - 180.0, max_segment_m)
        dl = _unwrap(dl, float(ext[0, 0]))
        cand = Polygon(np.column_stack([dl, da]), holes=[h.coords for h in part.interiors])
        dense.append(cand if cand.is_valid else part)
    whole = dense[0] if len(dense) == 1 else MultiPolygon(dense)
    if not whole.is_valid:
        whole = parts[0] if len(parts) == 1 else MultiPolygon(parts)
    return whole


def polygon_from_points(points: list[tuple[float, float]], *, max_segment_m: float = 5000) -> Polygon | MultiPolygon:
    """A polygon (lon, lat) through ``points`` given as (lat, lon), edges densified along geodesics.

    The ring may be given open or closed. Edges longer than ``max_segment_m`` get intermediate geodesic points, at
    most ``DENSIFY_BUDGET`` in all (a ring whose edges are longer in total gets proportionally longer segments), so
    that the shape's size stays proportional to the ring as written. Antimeridian-crossing rings are split at +-180
    (MultiPolygon); a ring around a pole is closed over the pole. A self-crossing ring of at most
    ``MAX_REPAIR_VERTICES`` vertices is repaired as the union of the areas it encloses (``_repaired``: a bow tie
    becomes its two triangles); a longer one is refused (``ValueError``): repairing costs time in the square of its
    crossings, and a ring that crosses itself that often is a misreading, not a zone.
    """
    pts = [(float(a), float(b)) for a, b in points]
    if len(pts) >= 2 and pts[0] == pts[-1]:
        pts = pts[:-1]
    if len(pts) < 3:
        raise ValueError(f"a polygon needs at least 3 distinct points, got {len(pts)}")
    for la, lo in pts:
        if not (-90.0 <= la <= 90.0) or not (-180.0 <= lo <= 180.0):
            raise ValueError(f"polygon point out of range: lat={la}, lon={lo}")
    if max_segment_m <= 0:
        raise ValueError("max_segment_m must be positive")
    n = len(pts)
    la1, lo1 = np.array([p[0] for p in pts]), np.array([p[1] for p in pts])
    lons, lats = _densified(la1, lo1, max_segment_m)
    # total longitude travelled around the closed ring: 0 for an ordinary ring, +-360 around a pole
    step_back = (lons[0] - lons[-1] + 180.0) % 360.0 - 180.0
    travelled = (lons[-1] - lons[0]) + step_back
    if abs(travelled) > 180.0:
        ring_lon, ring_lat = _close_over_pole(lons, lats)
        closed = Polygon(np.column_stack([ring_lon, ring_lat]))
        if not closed.is_valid and n > MAX_REPAIR_VERTICES:
            raise ValueError(_crossing(n))
        parts = [orient(p, 1.0) for p in _polygons_of(shapely.make_valid(closed))]
        if not parts:
            raise ValueError("polygon has no area")
        return parts[0] if len(parts) == 1 else MultiPolygon(parts)
    poly = Polygon(np.column_stack([lons, lats]))
    if not poly.is_valid:
        if n > MAX_REPAIR_VERTICES:
            raise ValueError(_crossing(n))
        poly = _repaired(la1, lo1, max_segment_m)
    if poly.area == 0:
        raise ValueError("polygon has no area (all points on a line?)")
    if isinstance(poly, MultiPolygon):
        pieces: list[Polygon] = []
        for p in poly.geoms:
            pieces.extend(_polygons_of(_split_antimeridian(p)))
        return pieces[0] if len(pieces) == 1 else MultiPolygon([orient(p, 1.0) for p in pieces])
    return _split_antimeridian(poly)


# --------------------------------------------------------------------------------------------------------------
# Vertical limits
# --------------------------------------------------------------------------------------------------------------


def limit_metres(limit: Limit | None, *, is_floor: bool) -> tuple[float | None, str]:
    """(metres, reference) of a limit. References out: 'AGL', 'AMSL', 'FL', or 'UNL' (metres None).

    SFC/GND -> 0 m AGL. FL keeps pressure-altitude metres (ft * 0.3048) with ref 'FL'. A missing floor is the
    surface; a missing ceiling is unlimited (unknown is treated as the larger volume).
    """
    if limit is None:
        return (0.0, "AGL") if is_floor else (None, "UNL")
    ref = limit.ref
    if ref in ("SFC", "GND"):
        return 0.0, "AGL"
    if ref == "UNL":
        if is_floor:
            raise ValueError("a floor cannot be UNL")
        return None, "UNL"
    if ref == "FL":
        if limit.ft is not None:
            return limit.ft * FT_TO_M, "FL"
        if limit.m is not None:
            return float(limit.m), "FL"
        raise ValueError(f"FL limit without a value: {limit.raw!r}")
    # AGL / AMSL
    if limit.m is not None:
        return float(limit.m), ref
    if limit.ft is not None:
        return limit.ft * FT_TO_M, ref
    raise ValueError(f"{ref} limit without a value: {limit.raw!r}")


# --------------------------------------------------------------------------------------------------------------
# Volumes
# --------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Volume:
    """One zone as a 3D volume with its active times. ``polygon`` is in (lon, lat) WGS84."""

    key: tuple[int, int]  # (message, zone)
    id: str | None
    status: str
    polygon: Polygon | MultiPolygon
    floor_m: float
    ceil_m: float | None  # None = unlimited
    floor_ref: str  # 'AGL' | 'AMSL' | 'FL'
    ceil_ref: str  # 'AGL' | 'AMSL' | 'FL' | 'UNL'
    windows: tuple[Window, ...]
    permanent: bool
    record: ZoneRecord

    def active_at(self, t: datetime) -> bool:
        """Whether the zone is active at ``t``: inside any window ``[start, end)``.

        Without windows: active from ``record.start`` on (to ``record.end`` when there is one, else for ever); no
        start either -> always active.
        """
        t = _utc(t)
        if self.windows:
            return any(_utc(w.start) <= t < _utc(w.end) for w in self.windows)
        start, end = self.record.start, self.record.end
        if start is not None and t < _utc(start):
            return False
        if end is not None and t >= _utc(end):
            return False
        return True

    def window_at(self, t: datetime) -> Window | None:
        """The window containing ``t`` (None when the volume has no windows or ``t`` is in none of them)."""
        t = _utc(t)
        for w in self.windows:
            if _utc(w.start) <= t < _utc(w.end):
                return w
        return None


def record_shape(rec: ZoneRecord) -> Polygon | MultiPolygon | None:
    """The horizontal shape of a record, or None when it has no coordinate geometry."""
    g = rec.geometry
    if isinstance(g, CircleGeometry):
        err = max(1.0, g.radius_m * CIRCLE_RELATIVE_ERROR)
        shape = circle_polygon(g.center[0], g.center[1], g.radius_m, max_error_m=err,
                               max_vertices=RECORD_CIRCLE_VERTICES)
        inner = g.inner_radius_m
        if inner:  # a ring: the excluded inner circle is cut out, drawn inside its true circle (the zone stays whole)
            ierr = max(1.0, inner * CIRCLE_RELATIVE_ERROR)
            if inner > 2 * ierr:
                shape = shape.difference(circle_polygon(g.center[0], g.center[1], inner - ierr, max_error_m=ierr,
                                                        max_vertices=RECORD_CIRCLE_VERTICES))
        return shape
    if isinstance(g, PolygonGeometry):
        return polygon_from_points(list(g.points))
    return None


def volume_from_record(rec: ZoneRecord) -> Volume | None:
    """The volume of a record; None for error records, cancellations (NOTAMC), named or missing geometry.

    Raises ValueError for a record whose geometry or limits cannot make a volume (out-of-range coordinates,
    zero radius, UNL floor); ``volumes_from_records`` turns that into a skipped record, never a crash.
    """
    if rec.status == "error" or rec.notam_type == "C":
        return None
    if not isinstance(rec.geometry, (CircleGeometry, PolygonGeometry)):
        return None
    shape = record_shape(rec)
    return None if shape is None else volume_with_shape(rec, shape)


def volume_with_shape(rec: ZoneRecord, shape: Polygon | MultiPolygon) -> Volume:
    """The volume of a record whose footprint is ``shape`` (``record_shape`` of it, perhaps from a cache): its
    limits in metres and its windows (``[start, end)`` when the record has none)."""
    floor_m, floor_ref = limit_metres(rec.lower, is_floor=True)
    ceil_m, ceil_ref = limit_metres(rec.upper, is_floor=False)
    if rec.windows:
        windows = tuple(rec.windows)
    elif rec.start is not None and rec.end is not None:
        windows = (Window(start=rec.start, end=rec.end),)
    else:
        windows = ()
    return Volume(
        key=(rec.message, rec.zone),
        id=rec.id,
        status=rec.status,
        polygon=shape,
        floor_m=float(floor_m if floor_m is not None else 0.0),
        ceil_m=None if ceil_m is None else float(ceil_m),
        floor_ref=floor_ref,
        ceil_ref=ceil_ref,
        windows=windows,
        permanent=rec.permanent,
        record=rec,
    )


def volumes_from_records(records: Iterable[ZoneRecord]) -> list[Volume]:
    """Volumes of every record that has one. A record whose shape is impossible is skipped (it stays visible as a
    record; its validation reasons already say why), never an exception for the batch."""
    out: list[Volume] = []
    for rec in records:
        try:
            v = volume_from_record(rec)
        except Exception:  # noqa: BLE001 - an impossible shape (or a geometry-library refusal) skips this record only
            continue
        if v is not None:
            out.append(v)
    return out


def active_volumes(volumes: Iterable[Volume], t: datetime) -> list[Volume]:
    """The volumes active at ``t``."""
    return [v for v in volumes if v.active_at(t)]


def geodesic_area_m2(geom: Polygon | MultiPolygon) -> float:
    """Geodesic area in m^2 of a (lon, lat) shape on WGS84 (positive for any ring orientation)."""
    area, _ = GEOD.geometry_area_perimeter(geom)
    return abs(area)
