"""geo.conflicts: a drone route against real volumes, in space, altitude and time."""

from __future__ import annotations

import json
from datetime import datetime, timedelta, timezone

import pytest
from pyproj import Geod

from airspace.core.records import CircleGeometry, Limit, PolygonGeometry, Window, ZoneRecord
from airspace.geo.conflicts import Route, Waypoint, parse_route, route_conflicts, vertical_overlap
from airspace.geo.volumes import volume_from_record, volumes_from_records

GEOD = Geod(ellps="WGS84")
UTC = timezone.utc
DAY = datetime(2026, 11, 29, tzinfo=UTC)
CENTER = (51.5, -0.1)  # (lat, lon)
R = 926.0  # 0.5 NM

SFC = Limit(ref="SFC", ft=0, m=0, raw="SFC")
FT400_AGL = Limit(ref="AGL", ft=400, m=121.92, raw="400FT AGL")


def zone(message=0, *, lower=SFC, upper=FT400_AGL, windows=True, geometry=None, **kw) -> ZoneRecord:
    return ZoneRecord(
        message=message,
        id=f"A{message:04d}/26",
        geometry=geometry or CircleGeometry(center=CENTER, radius_m=R),
        lower=lower,
        upper=upper,
        start=DAY,
        end=DAY + timedelta(days=1),
        schedule="DAILY 0800-1700" if windows else None,
        windows=[Window(start=DAY + timedelta(hours=8), end=DAY + timedelta(hours=17))] if windows else [],
        **kw,
    )


def east_west_route(alt_start=100.0, alt_end=None, departure=DAY + timedelta(hours=10), speed=10.0, ref="AGL") -> Route:
    """A 4.2 km leg along 51.5N from 0.13W to 0.07W, straight through the zone centre."""
    text = f"51.5,-0.13,{alt_start}\n51.5,-0.07,{alt_start if alt_end is None else alt_end}"
    return Route(waypoints=parse_route(text), departure=departure, speed_mps=speed, alt_ref=ref)


def dist_from_center(point) -> float:
    lat, lon = point[0], point[1]
    return GEOD.inv(CENTER[1], CENTER[0], lon, lat)[2]


def along(route: Route, point) -> float:
    a = route.waypoints[0]
    return GEOD.inv(a.lon, a.lat, point[1], point[0])[2]


# ---------------------------------------------------------------------------------------------------------------


def test_route_through_zone_conflicts_at_the_right_places_and_times():
    vol = volume_from_record(zone())
    route = east_west_route()
    (c,) = route_conflicts(route, [vol])
    assert c.key == (0, 0) and c.id == "A0000/26" and c.leg == 0 and not c.assumed
    # entry and exit on the drawn boundary: at the radius, at most 1 m outside the true circle
    assert R <= dist_from_center(c.enter_point) <= R + 1.0
    assert R <= dist_from_center(c.exit_point) <= R + 1.0
    assert c.enter_point[1] < CENTER[1] < c.exit_point[1]
    assert c.enter_point[2] == pytest.approx(100.0) and c.exit_point[2] == pytest.approx(100.0)
    # times from distance flown at 10 m/s
    for t, p in ((c.enter_time, c.enter_point), (c.exit_time, c.exit_point)):
        expected = route.departure + timedelta(seconds=along(route, p) / 10.0)
        assert abs((t - expected).total_seconds()) < 0.01
    assert (c.exit_time - c.enter_time).total_seconds() == pytest.approx(2 * R / 10.0, abs=0.3)
    assert "inside horizontally" in c.reason and "100 m AGL within SFC–400FT AGL" in c.reason
    assert "active 08:00–17:00Z" in c.reason


def test_route_above_ceiling_or_outside_window_does_not_conflict():
    vol = volume_from_record(zone())
    assert route_conflicts(east_west_route(alt_start=150.0), [vol]) == []  # 150 m > 400 ft (121.92 m)
    assert route_conflicts(east_west_route(departure=DAY + timedelta(hours=18)), [vol]) == []
    assert route_conflicts(east_west_route(departure=DAY + timedelta(hours=7, minutes=50)), [vol]) == []
    # exactly at the ceiling counts (limits are inclusive)
    assert len(route_conflicts(east_west_route(alt_start=121.92), [vol])) == 1
    # a route that passes north of the zone
    north = Route(waypoints=parse_route("51.52,-0.13,50\n51.52,-0.07,50"), departure=DAY + timedelta(hours=10), speed_mps=10)
    assert route_conflicts(north, [vol]) == []


def test_conflict_ends_when_the_window_closes():
    vol = volume_from_record(zone())
    end = DAY + timedelta(hours=17)
    route = east_west_route(departure=end - timedelta(seconds=200))  # enters ~16:58:56, would leave ~17:02:01
    (c,) = route_conflicts(route, [vol])
    assert abs((c.exit_time - end).total_seconds()) < 0.01
    assert dist_from_center(c.exit_point) < R  # still inside horizontally when the zone switches off
    # one that starts exactly at the window's start is active from that instant
    start = DAY + timedelta(hours=8)
    (c2,) = route_conflicts(east_west_route(departure=start - timedelta(seconds=150)), [vol])
    assert abs((c2.enter_time - start).total_seconds()) < 0.01


def test_climbing_through_the_ceiling_exits_at_the_ceiling_altitude():
    vol = volume_from_record(zone())
    route = east_west_route(alt_start=50.0, alt_end=250.0)
    (c,) = route_conflicts(route, [vol])
    assert c.exit_point[2] == pytest.approx(121.92, abs=0.01)
    assert dist_from_center(c.exit_point) < R


def test_cross_reference_is_conservative_and_says_so():
    amsl = volume_from_record(zone(upper=Limit(ref="AMSL", ft=1000, m=304.8, raw="1000FT AMSL")))
    (c,) = route_conflicts(east_west_route(alt_start=100.0), [amsl])
    assert c.assumed and "assumed overlapping" in c.reason and "no terrain model" in c.reason
    # 800 m above ground is above 1000 ft AMSL wherever the ground is (lowest land: -430 m)
    assert route_conflicts(east_west_route(alt_start=800.0), [amsl]) == []
    # AMSL drone vs FL050 floor: pressure altitude of 100 m AMSL can never reach 1524 m
    fl = volume_from_record(zone(lower=Limit(ref="FL", ft=5000, m=1524.0, raw="FL050"), upper=Limit(ref="FL", ft=13000, m=3962.4, raw="FL130")))
    assert route_conflicts(east_west_route(alt_start=100.0, ref="AMSL"), [fl]) == []
    assert vertical_overlap(1500.0, "AMSL", fl) == (True, False)
    # same reference is exact
    assert vertical_overlap(3000.0, "AMSL", fl) == (True, False)
    agl = volume_from_record(zone())
    assert vertical_overlap(100.0, "AGL", agl) == (True, True)
    assert vertical_overlap(122.0, "AGL", agl) == (False, False)


def test_multi_leg_timing_and_several_zones():
    a = zone(0)
    b = zone(1, geometry=CircleGeometry(center=(51.53, -0.07), radius_m=500.0), windows=False)
    vols = volumes_from_records([a, b])
    route = Route(
        waypoints=[Waypoint(51.5, -0.13, 100), Waypoint(51.5, -0.07, 100), Waypoint(51.56, -0.07, 80)],
        departure=DAY + timedelta(hours=9),
        speed_mps=15.0,
    )
    cs = route_conflicts(route, vols)
    assert [(c.key, c.leg) for c in cs] == [((0, 0), 0), ((1, 0), 1)]
    leg0 = GEOD.inv(-0.13, 51.5, -0.07, 51.5)[2]
    c = cs[1]
    s = GEOD.inv(-0.07, 51.5, c.enter_point[1], c.enter_point[0])[2]
    assert abs((c.enter_time - (route.departure + timedelta(seconds=(leg0 + s) / 15.0))).total_seconds()) < 0.01
    assert GEOD.inv(-0.07, 51.53, c.enter_point[1], c.enter_point[0])[2] == pytest.approx(500.0, abs=1.0)
    # altitude interpolated along the second leg (100 -> 80 m over 6.7 km)
    assert 80.0 < c.enter_point[2] < 100.0
    assert "no time limits" not in c.reason and "active 00:00–24:00Z on 2026-11-29" in c.reason


def test_thin_corner_is_not_stepped_over_by_coarse_sampling():
    # a 20 m wide sliver across the route, sampled every 500 m
    sliver = PolygonGeometry(points=[(51.49, -0.1), (51.49, -0.09972), (51.51, -0.09972), (51.51, -0.1)])
    vol = volume_from_record(zone(geometry=sliver))
    cs = route_conflicts(east_west_route(), [vol], sample_m=500)
    assert len(cs) == 1
    width = GEOD.inv(cs[0].enter_point[1], cs[0].enter_point[0], cs[0].exit_point[1], cs[0].exit_point[0])[2]
    assert width == pytest.approx(GEOD.inv(-0.1, 51.5, -0.09972, 51.5)[2], abs=0.5)


def test_route_across_the_antimeridian():
    fiji = zone(geometry=CircleGeometry(center=(-16.5, 179.99), radius_m=5000.0), windows=False)
    vol = volume_from_record(fiji)
    route = Route(waypoints=parse_route("-16.5,179.9,100\n-16.5,-179.9,100"), departure=DAY + timedelta(hours=1), speed_mps=20)
    (c,) = route_conflicts(route, [vol])
    for p in (c.enter_point, c.exit_point):
        assert GEOD.inv(179.99, -16.5, p[1], p[0])[2] == pytest.approx(5000.0, abs=1.0)
    assert c.enter_point[1] > 179.9 and c.exit_point[1] < -179.9  # entered west of 180, left east of it
    assert (c.exit_time - c.enter_time).total_seconds() == pytest.approx(10000.0 / 20.0, abs=0.5)


def test_hover_at_a_single_waypoint():
    vol = volume_from_record(zone())
    route = Route(waypoints=[Waypoint(51.5, -0.1, 30.0)], departure=DAY + timedelta(hours=12), speed_mps=5)
    (c,) = route_conflicts(route, [vol])
    assert c.enter_time == route.departure
    assert route_conflicts(Route(waypoints=route.waypoints, departure=DAY + timedelta(hours=20), speed_mps=5), [vol]) == []


def test_parse_route_formats_and_errors():
    wps = parse_route("51.5,-0.1,120\n 51.6 -0.2 400ft \n# comment\n\n51.7, -0.3, 90 m; 51.8,-0.4,10")
    assert [(w.lat, w.lon) for w in wps] == [(51.5, -0.1), (51.6, -0.2), (51.7, -0.3), (51.8, -0.4)]
    assert wps[1].alt_m == pytest.approx(121.92) and wps[2].alt_m == 90.0
    for bad, word in [
        ("", "no waypoints"),
        ("51.5,-0.1", "line 1"),
        ("51.5,-0.1,120\nabc,def,1", "line 2"),
        ("95,0,100", "latitude"),
        ("10,190,100", "longitude"),
        ("10,10,high", "altitude"),
        ("10,nan,100", "finite"),
    ]:
        with pytest.raises(ValueError, match=word):
            parse_route(bad)


def test_bad_route_parameters_are_clear_errors():
    vol = volume_from_record(zone())
    with pytest.raises(ValueError, match="speed"):
        route_conflicts(Route(waypoints=[Waypoint(51.5, -0.1, 1)], departure=DAY, speed_mps=0), [vol])
    with pytest.raises(ValueError, match="reference"):
        route_conflicts(Route(waypoints=[Waypoint(51.5, -0.1, 1)], departure=DAY, speed_mps=1, alt_ref="FL"), [vol])


def test_route_against_a_real_faa_uas_notam(dev_by_id):
    """BOS 01/502 (real FAA UAS NOTAM, SFC-400FT AGL, 0.5 NM around 422122N0712148W) through the rules engine."""
    from airspace.pipeline.batch import process_batch

    row = dev_by_id["squawk-BOS-01-502-UAS"]
    truth = row["truth"]
    records, _ = process_batch(row["text"], "rules")
    vols = volumes_from_records(records)
    assert len(vols) == 1 and vols[0].ceil_ref == "AGL"
    lat, lon = truth["center"]["lat"], truth["center"]["lon"]
    r = truth["radius_nm"] * 1852.0
    # fly due north through the centre, 3 km each side, at 90 m AGL, 12 m/s, inside the NOTAM's period
    s_lon, s_lat, _ = GEOD.fwd(lon, lat, 180.0, 3000.0)
    e_lon, e_lat, _ = GEOD.fwd(lon, lat, 0.0, 3000.0)
    dep = datetime(2026, 3, 1, 15, 0, tzinfo=UTC)
    route = Route(waypoints=[Waypoint(s_lat, s_lon, 90.0), Waypoint(e_lat, e_lon, 90.0)], departure=dep, speed_mps=12.0)
    (c,) = route_conflicts(route, vols)
    assert abs((c.enter_time - (dep + timedelta(seconds=(3000.0 - r) / 12.0))).total_seconds()) < 0.2
    assert abs((c.exit_time - (dep + timedelta(seconds=(3000.0 + r) / 12.0))).total_seconds()) < 0.2
    assert "within SFC" in c.reason
    # the same flight at 150 m AGL clears the 400 ft ceiling; after 2026-07-31 23:59Z the zone is gone
    high = Route(waypoints=[Waypoint(s_lat, s_lon, 150.0), Waypoint(e_lat, e_lon, 150.0)], departure=dep, speed_mps=12.0)
    assert route_conflicts(high, vols) == []
    late = Route(waypoints=route.waypoints, departure=datetime(2026, 8, 1, tzinfo=UTC), speed_mps=12.0)
    assert route_conflicts(late, vols) == []


def test_route_from_text_and_rows_for_the_ui():
    bj = timezone(timedelta(hours=8))
    route = parse_route("51.5,-0.13,100\n51.5,-0.07,100", departure=datetime(2026, 11, 29, 18, 0, tzinfo=bj), speed_mps=10)
    assert isinstance(route, Route) and route.alt_ref == "AGL"
    assert route.departure == DAY + timedelta(hours=10)  # 18:00 Beijing = 10:00Z
    (c,) = route_conflicts(route, [volume_from_record(zone())])
    row = c.as_row()
    assert row["message"] == 0 and row["zone"] == 0 and row["id"] == "A0000/26"
    assert row["enter_time"] == "2026-11-29T10:01:55Z" and row["reason"] == c.reason
    assert c.entry == c.enter_point and json.loads(json.dumps(row)) == row
    with pytest.raises(ValueError, match="speed"):
        parse_route("51.5,-0.13,100", departure=DAY, speed_mps=-3)
    with pytest.raises(ValueError, match="departure"):
        parse_route("51.5,-0.13,100", speed_mps=3)
    with pytest.raises(ValueError, match="reference"):
        parse_route("51.5,-0.13,100", departure=DAY, speed_mps=3, alt_ref="FL")
    assert parse_route("51.5,-0.13,100", departure=DAY, speed_mps=3, alt_ref="msl").alt_ref == "AMSL"
