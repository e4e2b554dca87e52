"""geo.volumes: enclosing geodesic circles, densified polygons, antimeridian/pole handling, limits, windows."""

from __future__ import annotations

import math
from datetime import datetime, timedelta, timezone

import numpy as np
import pytest
import shapely
from pyproj import Geod
from shapely.geometry import MultiPolygon, Polygon

from airspace.core.records import CircleGeometry, Limit, NamedGeometry, PolygonGeometry, Window, ZoneRecord
from airspace.geo.volumes import (
    Volume,
    active_volumes,
    circle_polygon,
    geodesic_area_m2,
    polygon_from_points,
    volume_from_record,
    volumes_from_records,
)

GEOD = Geod(ellps="WGS84")
UTC = timezone.utc


def true_circle(lat: float, lon: float, r: float, k: int = 3600) -> tuple[np.ndarray, np.ndarray]:
    az = np.arange(k) * (360.0 / k)
    lo, la, _ = GEOD.fwd(np.full(k, lon), np.full(k, lat), az, np.full(k, r))
    return np.asarray(lo), np.asarray(la)


def max_overshoot(geom, lat: float, lon: float, r: float) -> float:
    """Largest geodesic distance beyond r of boundary points (vertices and chord midpoints), ignoring the
    artificial seams along +-180 and the poles that splitting adds."""
    polys = geom.geoms if isinstance(geom, MultiPolygon) else [geom]
    rings = [np.asarray(p.exterior.coords) for p in polys]
    allp = np.vstack([np.vstack([r, (r[:-1] + r[1:]) / 2.0]) for r in rings])  # vertices and chord midpoints
    keep = (np.abs(allp[:, 0]) < 180.0 - 1e-9) & (np.abs(allp[:, 1]) < 90.0 - 1e-9)
    allp = allp[keep]
    _, _, d = GEOD.inv(np.full(len(allp), lon), np.full(len(allp), lat), allp[:, 0], allp[:, 1])
    return float(np.max(d) - r)


def ccw_everywhere(geom) -> bool:
    polys = geom.geoms if isinstance(geom, MultiPolygon) else [geom]
    return all(p.exterior.is_ccw and all(not i.is_ccw for i in p.interiors) for p in polys)


def sphere_cap_area(r: float) -> float:
    """Area of a geodesic circle, using the local mean radius (good to ~1e-5 for r << R)."""
    R = 6371008.8
    return 2 * math.pi * R * R * (1 - math.cos(r / R))


# ---------------------------------------------------------------------------------------------------------------
# circles
# ---------------------------------------------------------------------------------------------------------------

CASES = [
    (51.5, -0.1, 9260.0),  # 5 NM around London
    (22.63, 113.82, 3000.0),  # Shenzhen
    (-33.9, 151.2, 100.0),  # tiny circle
    (40.0, -100.0, 300_000.0),  # very large circle
    (69.7, 18.9, 20_000.0),  # Tromso, high latitude
    (-77.85, 166.67, 50_000.0),  # McMurdo: high latitude near the antimeridian
    (89.0, 30.0, 50_000.0),  # polar-ish, pole not inside
]


@pytest.mark.parametrize("lat,lon,r", CASES)
def test_circle_encloses_true_circle_within_max_error(lat, lon, r):
    poly = circle_polygon(lat, lon, r, max_error_m=1.0)
    assert poly.is_valid
    lo, la = true_circle(lat, lon, r)
    inside = shapely.intersects_xy(poly, lo, la)
    assert inside.all(), f"{(~inside).sum()} true-circle points outside"
    over = max_overshoot(poly, lat, lon, r)
    assert 0.0 < over <= 1.0
    assert ccw_everywhere(poly)


def test_circle_max_error_controls_vertex_count_and_overshoot():
    coarse = circle_polygon(48.0, 11.0, 10_000, max_error_m=10.0)
    fine = circle_polygon(48.0, 11.0, 10_000, max_error_m=0.1)
    assert len(fine.exterior.coords) > 3 * len(coarse.exterior.coords)
    assert max_overshoot(coarse, 48.0, 11.0, 10_000) <= 10.0
    assert max_overshoot(fine, 48.0, 11.0, 10_000) <= 0.1
    # a coarse polygon still encloses
    lo, la = true_circle(48.0, 11.0, 10_000)
    assert shapely.intersects_xy(coarse, lo, la).all()


def test_circle_area_is_slightly_more_than_true_circle():
    r = 9260.0
    area = geodesic_area_m2(circle_polygon(51.5, -0.1, r))
    true = sphere_cap_area(r)
    assert true * 0.9999 < area < math.pi * (r + 1.0) ** 2 * 1.0001


def test_antimeridian_circle_is_split_multipolygon_with_correct_area():
    lat, lon, r = -16.5, 179.99, 5000.0  # Fiji
    poly = circle_polygon(lat, lon, r)
    assert isinstance(poly, MultiPolygon) and poly.is_valid
    assert len(poly.geoms) == 2
    for part in poly.geoms:
        minx, _, maxx, _ = part.bounds
        assert -180.0 <= minx and maxx <= 180.0
    # one part hugs +180, the other -180
    xs = sorted(p.bounds[0] for p in poly.geoms)
    assert xs[0] == -180.0 and poly.geoms[0].bounds[2] - poly.geoms[0].bounds[0] < 0.2
    assert ccw_everywhere(poly)
    # same circle away from the antimeridian (rotation about the axis keeps geodesic area)
    ref = circle_polygon(lat, lon - 180.0, r)
    assert isinstance(ref, Polygon)
    assert geodesic_area_m2(poly) == pytest.approx(geodesic_area_m2(ref), rel=1e-6)
    assert geodesic_area_m2(poly) == pytest.approx(sphere_cap_area(r), rel=5e-4)
    # still encloses the true circle, on both sides of the cut
    lo, la = true_circle(lat, lon, r)
    assert (lo > 0).any() and (lo < 0).any()
    assert shapely.intersects_xy(poly, lo, la).all()


def test_circle_around_pole_is_closed_over_the_pole():
    lat, lon, r = 89.99, 0.0, 5000.0  # North Pole inside
    poly = circle_polygon(lat, lon, r)
    assert poly.is_valid and isinstance(poly, Polygon)
    assert poly.bounds[0] == -180.0 and poly.bounds[2] == 180.0 and poly.bounds[3] == 90.0
    assert poly.exterior.is_ccw
    lo, la = true_circle(lat, lon, r)
    assert shapely.intersects_xy(poly, lo, la).all()
    assert geodesic_area_m2(poly) == pytest.approx(sphere_cap_area(r), rel=5e-4)
    south = circle_polygon(-89.5, 10.0, 100_000)
    assert south.is_valid and south.bounds[1] == -90.0
    assert geodesic_area_m2(south) == pytest.approx(sphere_cap_area(100_000), rel=5e-4)


def test_circle_rejects_bad_input():
    with pytest.raises(ValueError):
        circle_polygon(91.0, 0.0, 100)
    with pytest.raises(ValueError):
        circle_polygon(0.0, 0.0, 0.0)
    with pytest.raises(ValueError):
        circle_polygon(0.0, 0.0, float("nan"))


# ---------------------------------------------------------------------------------------------------------------
# polygons
# ---------------------------------------------------------------------------------------------------------------


def test_polygon_is_densified_along_geodesics():
    pts = [(50.0, -10.0), (50.0, 10.0), (45.0, 10.0), (45.0, -10.0)]  # (lat, lon)
    poly = polygon_from_points(pts, max_segment_m=5000)
    assert poly.is_valid and poly.exterior.is_ccw
    coords = np.asarray(poly.exterior.coords)
    assert len(coords) > 300
    # the northern edge is a geodesic: its midpoint bulges north of the 50th parallel
    mid = coords[(np.abs(coords[:, 0]) < 0.05) & (coords[:, 1] > 47.5)]
    assert len(mid) and mid[0, 1] > 50.2
    # every densified point lies on the geodesic between its corners (same area as pyproj's geodesic polygon)
    lats, lons = zip(*pts)
    exact, _ = GEOD.polygon_area_perimeter(lons, lats)
    assert geodesic_area_m2(poly) == pytest.approx(abs(exact), rel=1e-9)
    # no segment longer than max_segment_m
    _, _, seg = GEOD.inv(coords[:-1, 0], coords[:-1, 1], coords[1:, 0], coords[1:, 1])
    assert max(seg) <= 5000.0 + 1e-6


def test_polygon_orientation_is_normalised_and_closed_ring_accepted():
    cw = [(51.0, 0.0), (52.0, 0.0), (52.0, 1.0), (51.0, 1.0), (51.0, 0.0)]
    poly = polygon_from_points(cw)
    assert poly.exterior.is_ccw
    assert len(set(map(tuple, np.asarray(poly.exterior.coords)[:-1]))) == len(np.asarray(poly.exterior.coords)) - 1


def test_polygon_crossing_antimeridian_is_split_with_correct_area():
    pts = [(-15.0, 179.0), (-15.0, -179.0), (-17.0, -179.0), (-17.0, 179.0)]
    poly = polygon_from_points(pts)
    assert isinstance(poly, MultiPolygon) and poly.is_valid and len(poly.geoms) == 2
    for part in poly.geoms:
        assert -180.0 <= part.bounds[0] and part.bounds[2] <= 180.0
    assert ccw_everywhere(poly)
    lats, lons = zip(*pts)
    exact, _ = GEOD.polygon_area_perimeter(lons, lats)  # pyproj handles the wrap itself
    assert geodesic_area_m2(poly) == pytest.approx(abs(exact), rel=1e-6)
    # a point just east of the antimeridian and one just west are both inside; the far side of the world is not
    assert poly.contains(shapely.Point(179.9, -16.0)) and poly.contains(shapely.Point(-179.9, -16.0))
    assert not poly.contains(shapely.Point(0.0, -16.0))


def test_polygon_around_pole():
    pts = [(80.0, 0.0), (80.0, 90.0), (80.0, 180.0), (80.0, -90.0)]
    poly = polygon_from_points(pts)
    assert poly.is_valid and poly.bounds[3] == 90.0
    lats, lons = zip(*pts)
    exact, _ = GEOD.polygon_area_perimeter(lons, lats)
    assert geodesic_area_m2(poly) == pytest.approx(abs(exact), rel=1e-6)
    assert poly.contains(shapely.Point(45.0, 89.0))


def test_polygon_rejects_degenerate_input():
    with pytest.raises(ValueError):
        polygon_from_points([(0.0, 0.0), (1.0, 1.0)])
    with pytest.raises(ValueError):
        polygon_from_points([(0.0, 5.0), (1.0, 5.0), (2.0, 5.0)])  # all on one meridian: no area
    with pytest.raises(ValueError):
        polygon_from_points([(0.0, 0.0), (1.0, 1.0), (95.0, 2.0)])


# ---------------------------------------------------------------------------------------------------------------
# records -> volumes
# ---------------------------------------------------------------------------------------------------------------


def lim(ref, ft=None, m=None, raw=""):
    if ft is not None and m is None:
        m = ft * 0.3048
    return Limit(ref=ref, ft=ft, m=m, raw=raw or ref)


def rec(**kw) -> ZoneRecord:
    base = dict(
        message=0,
        id="A1234/26",
        geometry=CircleGeometry(center=(51.5, -0.1), radius_m=9260.0),
        lower=lim("SFC", 0, 0, "SFC"),
        upper=lim("AGL", 400, raw="400FT AGL"),
        start=datetime(2026, 11, 29, 12, 0, tzinfo=UTC),
        end=datetime(2026, 11, 30, 18, 0, tzinfo=UTC),
    )
    base.update(kw)
    return ZoneRecord(**base)


def test_volume_limits_keep_reference():
    v = volume_from_record(rec())
    assert v.floor_m == 0.0 and v.floor_ref == "AGL"
    assert v.ceil_m == pytest.approx(121.92) and v.ceil_ref == "AGL"
    v = volume_from_record(rec(lower=lim("AMSL", 1500, raw="1500FT AMSL"), upper=lim("FL", 130, 130 * 0.3048 * 100, raw="FL130")))
    assert v.floor_ref == "AMSL" and v.floor_m == pytest.approx(457.2)
    v = volume_from_record(rec(upper=Limit(ref="FL", ft=13000, m=3962.4, raw="FL130")))
    assert v.ceil_ref == "FL" and v.ceil_m == pytest.approx(3962.4)
    v = volume_from_record(rec(lower=lim("GND", 0, 0), upper=Limit(ref="UNL", ft=None, m=None, raw="UNL")))
    assert v.floor_m == 0.0 and v.floor_ref == "AGL" and v.ceil_m is None and v.ceil_ref == "UNL"
    v = volume_from_record(rec(lower=Limit(ref="AGL", ft=None, m=120.0, raw="真高120米"), upper=None))
    assert v.floor_m == 120.0 and v.floor_ref == "AGL" and v.ceil_m is None


def test_volume_none_for_named_error_cancel_or_missing_geometry():
    assert volume_from_record(rec(geometry=NamedGeometry(name="大连梭鱼湾足球场"), status="review")) is None
    assert volume_from_record(rec(geometry=None)) is None
    assert volume_from_record(rec(status="error")) is None
    assert volume_from_record(rec(notam_type="C", ref_id="A1000/26")) is None
    v = volume_from_record(rec(geometry=PolygonGeometry(points=[(51.0, 0.0), (51.0, 1.0), (52.0, 1.0)]), zone=2))
    assert isinstance(v, Volume) and v.key == (0, 2) and v.polygon.is_valid


def test_volumes_from_records_skips_impossible_shapes_but_keeps_the_rest():
    bad = rec(message=1, geometry=CircleGeometry(center=(51.5, -0.1), radius_m=0.0))
    good = rec(message=2)
    vols = volumes_from_records([bad, good, rec(message=3, status="error")])
    assert [v.key for v in vols] == [(2, 0)]


def test_active_at_window_boundaries_are_half_open():
    w1 = Window(start=datetime(2026, 11, 29, 8, 0, tzinfo=UTC), end=datetime(2026, 11, 29, 17, 0, tzinfo=UTC))
    w2 = Window(start=datetime(2026, 11, 30, 8, 0, tzinfo=UTC), end=datetime(2026, 11, 30, 17, 0, tzinfo=UTC))
    v = volume_from_record(rec(windows=[w1, w2], schedule="DAILY 0800-1700"))
    assert v.windows == (w1, w2)
    assert v.active_at(datetime(2026, 11, 29, 8, 0, tzinfo=UTC))
    assert v.active_at(datetime(2026, 11, 29, 16, 59, 59, tzinfo=UTC))
    assert not v.active_at(datetime(2026, 11, 29, 17, 0, tzinfo=UTC))
    assert not v.active_at(datetime(2026, 11, 29, 7, 59, 59, tzinfo=UTC))
    assert not v.active_at(datetime(2026, 11, 29, 20, 0, tzinfo=UTC))  # between windows
    assert v.active_at(datetime(2026, 11, 30, 12, 0))  # naive = UTC
    # an aware non-UTC time is converted: 09:00+08:00 = 01:00Z, inactive; 17:00+08:00 = 09:00Z, active
    bj = timezone(timedelta(hours=8))
    assert not v.active_at(datetime(2026, 11, 30, 9, 0, tzinfo=bj))
    assert v.active_at(datetime(2026, 11, 30, 17, 0, tzinfo=bj))


def test_active_at_without_schedule_uses_start_end_and_open_ends():
    v = volume_from_record(rec())
    assert len(v.windows) == 1
    assert not v.active_at(datetime(2026, 11, 29, 11, 59, tzinfo=UTC))
    assert v.active_at(datetime(2026, 11, 29, 12, 0, tzinfo=UTC))
    assert not v.active_at(datetime(2026, 11, 30, 18, 0, tzinfo=UTC))
    perm = volume_from_record(rec(end=None, permanent=True))
    assert perm.windows == () and perm.permanent
    assert not perm.active_at(datetime(2026, 11, 29, 11, 0, tzinfo=UTC))
    assert perm.active_at(datetime(2036, 1, 1, tzinfo=UTC))
    always = volume_from_record(rec(start=None, end=None))
    assert always.active_at(datetime(1999, 1, 1, tzinfo=UTC)) and always.active_at(datetime(2099, 1, 1, tzinfo=UTC))


def test_active_volumes_filters():
    a = volume_from_record(rec(message=0))
    b = volume_from_record(rec(message=1, start=datetime(2026, 12, 1, tzinfo=UTC), end=datetime(2026, 12, 2, tzinfo=UTC)))
    t = datetime(2026, 11, 29, 13, 0, tzinfo=UTC)
    assert [v.key for v in active_volumes([a, b], t)] == [(0, 0)]


def test_polygon_around_pole_in_either_direction_and_bow_tie():
    for lat in (80.0, -80.0):
        pts = [(lat, -90.0), (lat, 180.0), (lat, 90.0), (lat, 0.0)]  # clockwise seen from above the north pole
        poly = polygon_from_points(pts)
        assert poly.is_valid and poly.exterior.is_ccw
        assert (poly.bounds[3] == 90.0) if lat > 0 else (poly.bounds[1] == -90.0)
        lats, lons = zip(*pts)
        exact, _ = GEOD.polygon_area_perimeter(lons, lats)
        assert geodesic_area_m2(poly) == pytest.approx(abs(exact), rel=1e-6)
    # a self-intersecting "bow tie" is repaired into its two triangles, not dropped
    bow = polygon_from_points([(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)])
    assert isinstance(bow, MultiPolygon) and bow.is_valid and len(bow.geoms) == 2
    assert ccw_everywhere(bow)


from hypothesis import given, settings  # noqa: E402
from hypothesis import strategies as st  # noqa: E402


@settings(max_examples=30, deadline=None, derandomize=True)
@given(
    lat=st.floats(-89.9, 89.9),
    lon=st.one_of(st.floats(-180.0, 180.0), st.floats(179.0, 180.0), st.floats(-180.0, -179.0)),
    radius=st.floats(1.0, 200_000.0),
)
def test_property_circle_always_encloses_and_stays_within_max_error(lat, lon, radius):
    poly = circle_polygon(lat, lon, radius)
    assert poly.is_valid and ccw_everywhere(poly)
    lo, la = true_circle(lat, lon, radius, k=720)
    assert shapely.intersects_xy(poly, lo, la).all()
    assert max_overshoot(poly, lat, lon, radius) <= 1.0
