"""The world yardstick (eval/world.py): matching one truth zone to one record, and what is counted, on hand-built
truth and records; the truth of every world row read back as records scores full marks."""

import itertools
import math
import random
from datetime import datetime, timezone

import pytest
from pyproj import Geod

from airspace.core.records import NM_TO_M, CircleGeometry, Limit, NamedGeometry, PolygonGeometry, ZoneRecord
from airspace.data.world import read_world, scored_rows
from airspace.eval.compare import gold_from_world_zone, world_field_diffs
from airspace.eval.world import assignment, main, score_world

SFC = {"value_ft": 0, "ref": "SFC"}
T0, T1, T2 = "2026-03-01T10:00:00Z", "2026-03-01T12:00:00Z", "2026-03-02T12:00:00Z"


def zone(*, center=None, radius_nm=None, polygon=None, name=None, lower=SFC, upper=None, start=T0, end=T1, arc=None):
    z = {"lower": lower, "upper": upper, "start_utc": start, "end_utc": end, "arith": "", "inferred": []}
    if center:
        z["center"] = {"lat": center[0], "lon": center[1]}
    if center or radius_nm is not None:
        z["radius_nm"] = radius_nm
    if polygon:
        z["polygon"] = polygon
    if name:
        z["center_name"] = name
    if arc:
        z["arc"] = arc
    return z


def row(zones, rid="r", kind="icao", source="s"):
    return {"id": rid, "kind": kind, "source_key": source, "truth": {"defines_zone": bool(zones), "zones": zones}}


def _t(s):
    return None if s is None else datetime.strptime(s, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def _lim(d):
    if d is None:
        return None
    ft = d["value_ft"]
    return Limit(ref=d["ref"], ft=ft, m=None if ft is None else ft * 0.3048, raw=f"{d['ref']} {ft}")


def rec(geometry, *, message=0, zone_no=0, lower=SFC, upper=None, start=T0, end=T1, status="ok"):
    return ZoneRecord(message=message, zone=zone_no, status=status, geometry=geometry, lower=_lim(lower),
                      upper=_lim(upper), start=_t(start), end=_t(end))


def circle(lat, lon, nm):
    return CircleGeometry(center=(lat, lon), radius_m=nm * NM_TO_M)


# ---------------------------------------------------------------------------- the assignment
def _brute(w):
    n, m = len(w), len(w[0])
    if n <= m:
        return max(sum(w[i][j] for i, j in enumerate(p)) for p in itertools.permutations(range(m), n))
    return max(sum(w[i][j] for j, i in enumerate(p)) for p in itertools.permutations(range(n), m))


@pytest.mark.parametrize("shape", [(1, 1), (2, 3), (3, 2), (4, 4), (5, 3), (3, 6)])
def test_assignment_is_one_to_one_and_of_maximum_weight(shape):
    rng = random.Random(f"assign-{shape}")
    for _ in range(30):
        w = [[rng.randrange(0, 10**rng.randrange(1, 12)) for _ in range(shape[1])] for _ in range(shape[0])]
        pairs = assignment(w)
        assert len(pairs) == min(shape)
        assert len({i for i, _ in pairs}) == len(pairs) == len({j for _, j in pairs})
        assert sum(w[i][j] for i, j in pairs) == _brute(w)


# ---------------------------------------------------------------------------- matching
def test_a_record_belongs_to_the_zone_it_draws_not_to_the_one_whose_limits_it_shares():
    a = zone(center=(10.0, 20.0), radius_nm=5, upper={"value_ft": 1000, "ref": "AMSL"}, start=T0, end=T1)
    b = zone(center=(11.0, 21.0), radius_nm=5, upper={"value_ft": 5000, "ref": "AMSL"}, start=T1, end=T2)
    # each record draws one zone but carries the other zone's upper limit and times: 2 of 5 fields each
    r1 = rec(circle(10.0, 20.0, 5), zone_no=0, upper=b["upper"], start=T1, end=T2)
    r2 = rec(circle(11.0, 21.0, 5), zone_no=1, upper=a["upper"], start=T0, end=T1)
    s = score_world([r1, r2], [row([a, b])])
    # matched by fields (geometry ignored) the pairs would swap and read 8 of 10 fields right
    assert (s["fields_right"], s["fields"]) == (4, 10)
    assert s["fields_right_by_name"]["geometry"] == "2/2"
    assert s["silent_wrong"] == 2 and s["zones_right"] == 0 and s["missed"] == 0 and s["extra"] == 0


def test_matching_does_not_depend_on_the_order_records_are_written_in():
    zs = [zone(center=(10.0 + k, 20.0), radius_nm=2 + k) for k in range(4)]
    recs = [rec(circle(10.0 + k, 20.0, 2 + k), zone_no=3 - k) for k in range(4)]  # written in reverse
    s = score_world(recs, [row(zs)])
    assert s["zones_right"] == s["zones_right_ok"] == 4 and s["fields_right"] == 20


def test_when_no_geometry_is_right_the_nearest_record_is_the_zones_own():
    # two polygons 50 km apart; each record has one vertex misread, and carries the times of the other zone
    p = [[10.0, 20.0], [10.0, 20.1], [10.1, 20.1]]
    q = [[10.5, 20.0], [10.5, 20.1], [10.6, 20.1]]
    a, b = zone(polygon=p, start=T0, end=T1), zone(polygon=q, start=T1, end=T2)
    near_a = rec(PolygonGeometry(points=[(10.0, 20.0), (10.0, 20.1), (10.11, 20.1)]), zone_no=0, start=T1, end=T2)
    near_b = rec(PolygonGeometry(points=[(10.5, 20.0), (10.5, 20.1), (10.61, 20.1)]), zone_no=1, start=T0, end=T1)
    s = score_world([near_b, near_a], [row([a, b])])
    assert s["fields_right_by_name"] == {"geometry": "0/2", "lower": "2/2", "upper": "2/2", "start": "0/2",
                                         "end": "0/2"}


def test_a_record_is_matched_once_the_second_zone_is_missed():
    z = zone(center=(10.0, 20.0), radius_nm=5)
    s = score_world([rec(circle(10.0, 20.0, 5))], [row([z, dict(z)])])
    assert s["zones"] == 2 and s["zones_right"] == 1 and s["missed"] == 1
    assert (s["fields_right"], s["fields"]) == (5, 10)


def test_error_records_and_records_without_geometry_are_not_matched():
    z = zone(center=(10.0, 20.0), radius_nm=5, lower=None)
    recs = [rec(None, lower=None, status="review"), rec(circle(10.0, 20.0, 5), lower=None, status="error")]
    s = score_world(recs, [row([z])])
    assert s["missed"] == 1 and s["fields_right"] == 0 and s["extra"] == 0


# ---------------------------------------------------------------------------- counting
def test_right_ok_silent_missed_and_extra_are_counted_apart():
    zs = [zone(center=(10.0, 20.0), radius_nm=5), zone(center=(12.0, 22.0), radius_nm=3),
          zone(polygon=[[1.0, 1.0], [1.0, 2.0], [2.0, 2.0]]), zone(name="Phoenix Park")]
    recs = [
        rec(circle(10.0, 20.0, 5), zone_no=0),  # right and ok
        rec(circle(12.0, 22.0, 3), zone_no=1, end=T2),  # end wrong but ok: silently wrong
        rec(PolygonGeometry(points=[(1.0, 1.0), (1.0, 2.0), (2.0, 2.0)]), zone_no=2, status="review"),  # right
        rec(circle(40.0, 40.0, 1), zone_no=3),  # nothing in the truth: an ok extra
    ]
    s = score_world(recs, [row(zs)])
    assert s["zones"] == 4 and s["zones_with_coordinates"] == 3
    assert s["zones_right"] == 2 and s["zones_right_ok"] == 1 and s["coordinate_zones_right_ok"] == 1
    assert s["coordinate_zones_right_ok_share"] == round(1 / 3, 4)
    # the extra ok circle was matched to the named place (geometry wrong, the rest right), so it is silent too
    assert s["missed"] == 0 and s["extra"] == 0
    assert s["silent_wrong"] == 2 and s["extra_ok"] == 0
    assert (s["fields_right"], s["fields"]) == (5 + 4 + 5 + 4, 20)
    assert s["by_shape"]["named"]["fields_right_by_name"]["geometry"] == "0/1"
    s2 = score_world(recs + [rec(circle(50.0, 50.0, 1), zone_no=4)], [row(zs)])
    assert s2["extra"] == 1 and s2["extra_ok"] == 1 and s2["silent_wrong"] == 3


def test_messages_that_define_no_zone():
    rows = [row([], rid="a"), row([], rid="b"), row([], rid="c")]
    recs = [rec(circle(1.0, 1.0, 1), message=0),  # ok: drawn on a message that defines none
            rec(NamedGeometry(name="LFPG"), message=1, status="review"),  # drawn, for review
            rec(None, message=2, status="review")]  # nothing drawn: right
    s = score_world(recs, rows)
    assert s["no_zone_messages"] == 3 and s["no_zone_right"] == 1 and (s["fields_right"], s["fields"]) == (1, 3)
    assert s["ok_on_no_zone"] == 1 and s["silent_wrong"] == 0 and s["extra"] == 2
    assert s["zone_fields"] == 0 and s["zones"] == 0 and s["coordinate_zones_right_ok_share"] is None


def test_breakdowns_by_kind_and_source():
    rows = [row([zone(center=(10.0, 20.0), radius_nm=5)], rid="a", kind="navwarn", source="x"),
            row([zone(center=(10.0, 20.0), radius_nm=5)], rid="b", kind="icao", source="x"),
            row([], rid="c", kind="icao", source="y")]
    recs = [rec(circle(10.0, 20.0, 5), message=0), rec(circle(10.0, 20.0, 4), message=1)]
    s = score_world(recs, rows)
    assert s["messages"] == 3 and s["sources"] == 2
    assert s["by_kind"]["navwarn"]["zones_right"] == 1 and s["by_kind"]["icao"]["zones_right"] == 0
    assert s["by_kind"]["icao"]["fields"] == 6 and s["by_kind"]["icao"]["fields_right"] == 5
    assert s["by_source"]["x"]["zones"] == 2 and s["by_source"]["y"]["no_zone_right"] == 1
    assert s["by_source"]["x"]["silent_wrong"] == 1


# ---------------------------------------------------------------------------- fields
def _diffs(record, z):
    return world_field_diffs(record, gold_from_world_zone(z))


@pytest.mark.parametrize("got, right", [
    ("Phoenix Park", True), ("the  PHOENIX park", True), ("“Phoenix Park”,", True),
    ("Phoenix Park and the city centre", False), ("Park", False), ("至2月11日", False)])
def test_a_named_place_must_be_the_place_itself(got, right):
    z = zone(name="the Phoenix Park")
    assert (_diffs(rec(NamedGeometry(name=got)), z)["geometry"] is None) is right


def test_a_named_place_goes_by_its_written_alternatives_and_keeps_its_radius():
    z = zone(name="TEMORA AD (YTEM)", radius_nm=15)
    assert _diffs(rec(NamedGeometry(name="YTEM", radius_m=15 * NM_TO_M)), z)["geometry"] is None
    assert _diffs(rec(NamedGeometry(name="TEMORA AD", radius_m=15 * NM_TO_M)), z)["geometry"] is None
    assert _diffs(rec(NamedGeometry(name="YTEM")), z)["geometry"].startswith("radius")
    assert _diffs(rec(NamedGeometry(name="YTEM", radius_m=5 * NM_TO_M)), z)["geometry"].startswith("radius")
    assert _diffs(rec(NamedGeometry(name="CYA528")), zone(name="CYA528(S)(T) KEMPTVILLE"))["geometry"] is not None


def test_an_aerodrome_may_be_its_approximate_circle():
    from airspace.parser.places import resolve_icao

    at = resolve_icao("EIDW")
    z = zone(name="Dublin Airport (EIDW)", radius_nm=5.399568)
    good = CircleGeometry(center=at, radius_m=5.399568 * NM_TO_M, approximate=True)
    assert _diffs(rec(good), z)["geometry"] is None
    assert _diffs(rec(good.model_copy(update={"radius_m": 1000.0})), z)["geometry"] is not None
    elsewhere = CircleGeometry(center=(at[0] + 0.1, at[1]), radius_m=5.399568 * NM_TO_M, approximate=True)
    assert _diffs(rec(elsewhere), z)["geometry"] is not None


def test_a_position_without_a_radius_is_a_point():
    z = zone(center=(-32.001944, 115.943889), name="QUEENS PARK PERTH")  # radius_nm None
    assert _diffs(rec(CircleGeometry(center=(-32.001944, 115.943889), radius_m=0.0)), z)["geometry"] is None
    assert _diffs(rec(circle(-32.001944, 115.943889, 1)), z)["geometry"] is not None
    assert _diffs(rec(NamedGeometry(name="QUEENS PARK PERTH")), z)["geometry"] is not None


def test_limits_surface_references_and_unstated_floors():
    z = zone(center=(1.0, 1.0), radius_nm=1, lower={"value_ft": 0, "ref": "GND"},
             upper={"value_ft": None, "ref": "UNL"})
    g = circle(1.0, 1.0, 1)
    d = _diffs(rec(g, lower=SFC, upper={"value_ft": None, "ref": "UNL"}), z)
    assert d["lower"] is None and d["upper"] is None
    assert _diffs(rec(g, upper={"value_ft": 60000, "ref": "FL"}), z)["upper"] is not None
    agl = zone(center=(1.0, 1.0), radius_nm=1, upper={"value_ft": 400, "ref": "AGL"})
    assert _diffs(rec(g, upper={"value_ft": 400, "ref": "AMSL"}), agl)["upper"] is not None
    unstated = zone(center=(1.0, 1.0), radius_nm=1, lower=None)
    implied = rec(g).model_copy(update={"lower": Limit(ref="SFC", ft=0.0, m=0.0, raw="")})
    assert _diffs(implied, unstated)["lower"] is None
    assert _diffs(rec(g), unstated)["lower"] is not None  # a floor the message does not state


# ---------------------------------------------------------------------------- an arc side
_GEOD = Geod(ellps="WGS84")
_C, _R = (47.961111, -97.375), 11 * NM_TO_M


def _on_arc(az):
    lon, lat, _ = _GEOD.fwd(_C[1], _C[0], az, _R)
    return (lat, lon)


def _arc_zone():
    south, north = _on_arc(180.0), _on_arc(0.0)
    # the truth's own densification (flat earth, every 15 degrees) of the western half-disc, clockwise S -> N
    k = 11 / 60
    dense = [[_C[0] + k * math.cos(math.radians(b)), _C[1] + k * math.sin(math.radians(b)) / math.cos(math.radians(_C[0]))]
             for b in range(195, 360, 15)]
    arc = {"center": {"lat": _C[0], "lon": _C[1]}, "radius_nm": 11.0, "direction": "clockwise",
           "from": list(south), "to": list(north)}
    return zone(polygon=[list(north), list(south), *dense], arc=arc), north, south


def test_an_arc_side_is_right_when_the_record_follows_the_arc_its_own_way():
    z, north, south = _arc_zone()
    west = [_on_arc(a) for a in range(183, 360, 3)]  # geodesic, every 3 degrees, clockwise through the west
    assert _diffs(rec(PolygonGeometry(points=[north, south, *west])), z)["geometry"] is None
    # the same ring written from another vertex is the same ring
    assert _diffs(rec(PolygonGeometry(points=[south, *west, north])), z)["geometry"] is None


def test_an_arc_side_drawn_straight_on_the_wrong_side_or_off_the_radius_is_wrong():
    z, north, south = _arc_zone()
    assert _diffs(rec(PolygonGeometry(points=[north, south, _on_arc(270.0)])), z)["geometry"] is None
    assert _diffs(rec(PolygonGeometry(points=[north, south])), z)["geometry"] is not None
    east = [_on_arc(a) for a in range(177, 0, -3)]  # the eastern half: counter-clockwise from S to N
    assert "swept" in _diffs(rec(PolygonGeometry(points=[north, south, *east])), z)["geometry"]
    lon, lat, _ = _GEOD.fwd(_C[1], _C[0], 270.0, _R + 50.0)
    assert "from the centre" in _diffs(rec(PolygonGeometry(points=[north, south, (lat, lon)])), z)["geometry"]


# ---------------------------------------------------------------------------- every world row
def _arc_ring(z):
    """The truth polygon's stated vertices with the arc drawn geodesically between its ends (20 steps)."""
    a = z["arc"]
    c, r = (a["center"]["lat"], a["center"]["lon"]), a["radius_nm"] * NM_TO_M
    az0 = _GEOD.inv(c[1], c[0], a["from"][1], a["from"][0])[0]
    az1 = _GEOD.inv(c[1], c[0], a["to"][1], a["to"][0])[0]
    sweep = (az1 - az0) % 360.0 if a["direction"] == "clockwise" else -((az0 - az1) % 360.0)
    mid = [_GEOD.fwd(c[1], c[0], az0 + sweep * t / 20, r)[1::-1] for t in range(1, 20)]
    pts = [tuple(p) for p in z["polygon"]]
    i_from, i_to = pts.index(tuple(a["from"])), pts.index(tuple(a["to"]))
    inside = {(i_from + k) % len(pts) for k in range(1, (i_to - i_from) % len(pts))}
    ring = []
    for j, p in enumerate(pts):
        if j not in inside:
            ring.append(p)
            if j == i_from:
                ring.extend(mid)
    return ring


def _truth_as_records(rows):
    """A reader that writes exactly the truth, ``ok``: every variant of the files must score full marks."""
    out = []
    for i, r in enumerate(rows):
        for k, z in enumerate(r["truth"]["zones"]):
            if z.get("center"):
                g = CircleGeometry(center=(z["center"]["lat"], z["center"]["lon"]),
                                   radius_m=(z.get("radius_nm") or 0.0) * NM_TO_M)
            elif isinstance(z.get("arc"), dict):
                g = PolygonGeometry(points=_arc_ring(z))
            elif z.get("polygon"):
                g = PolygonGeometry(points=[tuple(p) for p in z["polygon"]])
            else:
                g = NamedGeometry(name=z["center_name"],
                                  radius_m=None if z.get("radius_nm") is None else z["radius_nm"] * NM_TO_M)
            out.append(rec(g, message=i, zone_no=k, lower=z["lower"], upper=z["upper"], start=z["start_utc"],
                           end=z["end_utc"]))
    return out


def test_the_truth_read_back_as_records_scores_full_marks_on_every_world_row():
    rows = read_world()
    s = score_world(_truth_as_records(rows), rows)
    assert s["problems"] == [] and s["silent"] == []
    assert s["fields_right"] == s["fields"] and s["zones_right"] == s["zones_right_ok"] == s["zones"]
    assert s["coordinate_zones_right_ok"] == s["zones_with_coordinates"] > 100
    assert s["messages"] == len(rows) and s["no_zone_right"] == s["no_zone_messages"] > 0
    # one minute later at every end: every zone's end is wrong, and each record is ok, so silently wrong
    moved = [r.model_copy(update={"end": r.end.replace(minute=(r.end.minute + 1) % 60)}) if r.end else r
             for r in _truth_as_records(rows)]
    m = score_world(moved, rows)
    with_end = sum(1 for r in rows for z in r["truth"]["zones"] if z["end_utc"])
    assert m["silent_wrong"] == with_end and m["fields_right"] == s["fields_right"] - with_end


def test_the_cli_never_scores_the_test_split():
    with pytest.raises(SystemExit):
        main(["--split", "test", "--engines", "rules"])


def test_make_bench_scores_the_world_sets_with_this_scorer(tmp_path):
    import json

    from airspace.eval import bench
    from airspace.eval.world import read_records, world_messages

    messages, golds, _ = bench.load_set("world_val", 0, 0)
    rows = scored_rows("val")
    assert [m.text for m in messages] == [r["text"] for r in rows] and golds == [None] * len(rows)
    assert len(bench.load_set("world_test", 0, 0)[0]) == len(scored_rows("test"))
    out = tmp_path / "bench.json"
    assert bench.main(["--sets", "world_val", "--engines", "rules", "--repeats", "1", "--out", str(out)]) == 0
    got = json.loads(out.read_text(encoding="utf-8"))["sets"]["world_val"]["rules"]["world"]
    want = score_world(read_records("rules", world_messages(rows), 20), rows)
    assert {k: got[k] for k in want} == want and got["messages"] == len(rows) and got["fields"] > len(rows)
    assert "world_test" in bench.DEFAULT_SETS.split(",")  # in every `make bench`
