"""Draft -> record: the six dev.jsonl truths come out exactly from their spans; polygons (arcs, closing words,
named points); bad field text becomes review reasons, never an exception."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from pyproj import Geod

from airspace.core.answer import ground
from airspace.core.contract import FIELDS
from airspace.parser.coords import format_coord
from airspace.parser.polygon import parse_polygon
from airspace.pipeline.normalize import normalize

GEOD = Geod(ellps="WGS84")


def between(text: str, first: str, last: str) -> str:
    """The verbatim run of ``text`` from ``first`` to the end of the next ``last``."""
    s = text.index(first)
    return text[s : text.index(last, s) + len(last)]


def zone_values(row: dict) -> dict[str, str]:
    """What a perfect engine copies out of each truth message (verbatim spans)."""
    text = row["text"]
    table = {
        "pynotam-readme-A1912-15": dict(center="N480930 E0161028", radius="1NM", lower="GND", upper="FL130",
                                        start="1509261100", end="1509261230"),
        "avwx-EGLL-H6658-23": dict(center="512107N 0003608W", radius="0.5NM", lower="SFC", upper="500FT AMSL",
                                   start="2310271845", end="2310271945"),
        "joey-A0468-25": lambda: dict(polygon=between(text, "N391100E1005400", "BACK TO START"), lower="SFC",
                                      upper="UNL", start="2503010951", end="2503011037"),
        "whisper-EDWW-B0111-26": dict(center="521231N 0140718E", radius="0.5NM", lower="GND", upper="UNL",
                                      start="2603070000", end="2606042359"),
        "squawk-BOS-01-502-UAS": dict(center="421722N0712148W", radius=".5NM", lower="SFC", upper="400FT AGL",
                                      start="2601190001", end="2607312359"),
        "cn-dalian-2024-09-10": dict(name="大連梭魚灣足球場", radius="2公里", start="2024年9月10日12時",
                                     end="2024年9月10日24時"),
    }
    v = table[row["id"]]
    return v() if callable(v) else v


def check_limit(lim, truth):
    if truth is None:
        assert lim is None
        return
    assert lim.ref == truth["ref"]
    assert lim.ft == truth["value_ft"]


def test_six_dev_truths_exact(dev_rows):
    rows = [r for r in dev_rows if r.get("truth")]
    assert len(rows) == 6
    for row in rows:
        (draft,) = ground(row["text"], [zone_values(row)])
        assert set(draft.spans) == set(draft.values)  # every value is grounded verbatim
        rec = normalize(draft, text=row["text"], message=0)
        truth = row["truth"]
        g = rec.geometry
        if truth.get("center"):
            assert g.type == "circle"
            assert abs(g.center[0] - truth["center"]["lat"]) < 1e-6
            assert abs(g.center[1] - truth["center"]["lon"]) < 1e-6
            assert rec.status == "ok", rec.reasons
        if truth.get("polygon"):
            assert g.type == "polygon"
            assert len(g.points) == len(truth["polygon"])
            for p, q in zip(g.points, truth["polygon"]):
                assert abs(p[0] - q[0]) < 1e-6 and abs(p[1] - q[1]) < 1e-6
        if truth.get("center_name"):
            assert g.type == "named" and g.name == "大連梭魚灣足球場"
            assert rec.status == "review"
            assert any("could not be resolved to coordinates" in r for r in rec.reasons)
        if truth.get("radius_nm") is not None:
            radius = g.radius_m
            assert abs(radius / 1852 - truth["radius_nm"]) < 1e-6
        if row["id"] != "cn-dalian-2024-09-10":  # its lower limit is implied (the pipeline adds SFC), not written
            check_limit(rec.lower, truth["lower"])
        check_limit(rec.upper, truth["upper"])
        assert rec.to_json()["start"] == truth["start_utc"]
        assert rec.to_json()["end"] == truth["end_utc"]
        assert rec.windows and rec.windows[0].start == rec.start and rec.windows[-1].end == rec.end
        for k, sp in rec.spans.items():
            assert row["text"][sp.start : sp.end] == sp.text == draft.values[k]


def test_schedule_and_estimated_end(dev_by_id):
    row = dev_by_id["avwx-PHNL-undefined-qcode"]
    (d,) = ground(row["text"], [dict(center="2119N15755W", radius="005", start="2302171352", end="2309291346EST")])
    rec = normalize(d, text=row["text"], message=7)
    assert rec.end_estimated and not rec.permanent
    assert rec.to_json()["end"] == "2023-09-29T13:46:00Z"  # EST = estimated, never US Eastern
    assert rec.geometry.radius_m == 5 * 1852

    row = dev_by_id["whisper-SBRE-I0139-26"]
    (d,) = ground(row["text"], [dict(center="0556S03451W", radius="016", lower="SFC", upper="UNL",
                                     start="2603160825", end="2604032025", schedule="DAILY SR-SS")])
    rec = normalize(d, text=row["text"], message=20)
    assert rec.schedule == "DAILY SR-SS" and len(rec.windows) == 19  # SR/SS at the zone's centre


def test_perm_end():
    (d,) = ground("B) 2601010000 C) PERM", [dict(center="5130N00007W", radius="1NM", start="2601010000", end="PERM")])
    rec = normalize(d, text="B) 2601010000 C) PERM", message=0)
    assert rec.permanent and rec.end is None
    assert rec.windows[0].end.year == 2027  # expanded 366 days at most


def test_bad_fields_become_reasons():
    values = dict(center="N99 E999", radius="FIVE MILES", lower="LOW", upper="FL", start="2313011200",
                  end="soon", schedule="EVERY FULL MOON")
    (d,) = ground(" ".join(values.values()), [values])
    rec = normalize(d, text=" ".join(values.values()), message=3, zone=1)
    assert rec.status == "review" and rec.message == 3 and rec.zone == 1
    for key in ("center", "radius", "lower", "upper", "start", "end"):
        assert any(r.startswith(f"{key} '") for r in rec.reasons), (key, rec.reasons)
    assert rec.geometry is None and rec.lower is None and rec.start is None


def test_no_geometry_and_schedule_error():
    (d,) = ground("SFC UNL 2601010000 2601020000 MON-FRI", [dict(lower="SFC", upper="UNL", start="2601010000",
                                                                 end="2601020000", schedule="MON-FRI")])
    rec = normalize(d, text="x", message=0)
    assert "no geometry" in rec.reasons
    assert any(r.startswith("schedule 'MON-FRI'") for r in rec.reasons)


def test_named_polygon_points_go_to_review(dev_by_id):
    row = dev_by_id["joey-A2400-21"]
    poly = between(row["text"], "LIANSHENGWEI", "BACK TO START")
    (d,) = ground(row["text"], [dict(polygon=poly, lower="SFC", upper="5700M AMSL", start="2109280145",
                                     end="2110030620", schedule="0145-0510 ON SEP,28\n0300-0620 ON SEP,29 - OCT,03")])
    rec = normalize(d, text=row["text"], message=12)
    assert rec.status == "review" and rec.geometry is None
    (reason,) = [r for r in rec.reasons if r.startswith("polygon '")]
    for name in ("ZUH", "GURIN", "SIERA"):
        assert name in reason
    assert rec.upper.m == 5700 and len(rec.windows) == 6


# ---------------------------------------------------------------------------------------------------------------
# polygons


def test_polygon_closing_forms(dev_by_id):
    a0511 = dev_by_id["joey-A0511-25"]["text"]
    pts = parse_polygon(between(a0511, "112400S1065000E -", "115548S1065341E - 112400S1065000E"))
    assert len(pts) == 5 and pts[0] == (-11.4, 106 + 50 / 60)  # repeated first point dropped
    ymmm = dev_by_id["whisper-YMMM-E1026-26"]["text"]
    assert len(parse_polygon(between(ymmm, "3952S 08205E", "TO BEGINNING"))) == 11
    nttt = dev_by_id["whisper-NTTT-A0354-26"]["text"]
    assert len(parse_polygon(between(nttt, "0816S 13047W,", "0330N 12220W,  0816S 13047W"))) == 4
    f1096 = dev_by_id["joey-F1096-25"]["text"]
    assert parse_polygon(between(f1096, "0641S08916E", "0921S08845E"))[2] == (-(9 + 27 / 60), 89 + 17 / 60)


def test_polygon_arc_eisn(dev_by_id):
    text = dev_by_id["whisper-EISN-J0011-26"]["text"]
    span = between(text, "524452.36N 0093036.12W  524523.14N", "524519.32N 0092949.34W  524452.36N 0093036.12W")
    pts = parse_polygon(span)
    centre = (52 + 46 / 60 + 10.85 / 3600, -(9 + 30 / 60 + 3.76 / 3600))
    a = (52 + 45 / 60 + 23.14 / 3600, -(9 + 34 / 60 + 18.47 / 3600))
    b = (52 + 48 / 60 + 27.40 / 3600, -(9 + 32 / 60 + 25.92 / 3600))
    near = lambda q: min(range(len(pts)), key=lambda i: abs(pts[i][0] - q[0]) + abs(pts[i][1] - q[1]))  # noqa: E731
    ia, ib = near(a), near(b)
    assert abs(pts[ia][0] - a[0]) + abs(pts[ia][1] - a[1]) < 1e-12
    assert abs(pts[ib][0] - b[0]) + abs(pts[ib][1] - b[1]) < 1e-12
    assert ib - ia > 10  # densified
    for lat, lon in pts[ia + 1 : ib]:
        _, _, dist = GEOD.inv(centre[1], centre[0], lon, lat)
        assert dist == pytest.approx(5000.0, abs=1e-3)
        assert lon < centre[1] + 1e-9  # the shorter arc runs round the west side
    assert len(pts) == ib + 1 + 5  # the 5 points after the arc (the closing duplicate is dropped)


def _on_circle(centre, az, r):
    lon, lat, _ = GEOD.fwd(centre[1], centre[0], az, r)
    return lat, lon


@pytest.mark.parametrize("word,east", [("CLOCKWISE", True), ("ANTI-CLOCKWISE", False), ("COUNTERCLOCKWISE", False)])
def test_polygon_directed_arc(word, east):
    centre = (40.0, -75.0)
    r = 30 * 1852
    n = _on_circle(centre, 0.0, r)
    s = _on_circle(centre, 180.0, r)
    west_far = _on_circle(centre, 270.0, 2 * r)
    c = lambda p: format_coord(p[0], p[1], "dms_dec")  # noqa: E731
    text = (f"{c(west_far)} TO {c(n)} THEN {word} ON A 30 NM ARC CENTERED ON {c(centre)} TO {c(s)} TO {c(west_far)}")
    pts = parse_polygon(text)
    mid = pts[2 : -1]
    assert len(mid) > 30
    side = [p[1] > centre[1] for p in mid[1:-1]]
    assert all(side) if east else not any(side)
    assert max(abs(GEOD.inv(centre[1], centre[0], p[1], p[0])[2] - r) for p in mid[1:-1]) < 1e-3


def test_polygon_arc_across_antimeridian():
    centre = (-17.0, 179.9)
    a = _on_circle(centre, 0.0, 20000)
    b = _on_circle(centre, 180.0, 20000)
    txt = f"{format_coord(*a, 'dms_dec')} CLOCKWISE ARC RADIUS 20KM CENTRED ON {format_coord(*centre, 'dms_dec')} - " \
          f"{format_coord(*b, 'dms_dec')} - 1700S17900E"
    pts = parse_polygon(txt)
    assert any(p[1] < 0 for p in pts)  # passes east of 180: longitudes wrap to the western hemisphere
    assert all(-180 <= p[1] <= 180 for p in pts)


@pytest.mark.parametrize(
    "text",
    ["1. 5130N00010W 2. 5140N00010W 3. 5140N00020W", "A) 5130N00010W B) 5140N00010W C) 5140N00020W",
     "PSN 5130N00010W - PSN 5140N00010W - PT 5140N00020W", "5130N00010W TO 5140N00010W TO 5140N00020W TO 5130N00010W"],
)
def test_polygon_labels_and_words_are_not_named_points(text):
    assert parse_polygon(text) == [(51.5, -1 / 6), (51 + 40 / 60, -1 / 6), (51 + 40 / 60, -1 / 3)]


def test_polygon_path_along_a_boundary_is_refused():
    with pytest.raises(ValueError, match="FIR BOUNDARY"):
        parse_polygon("5130N00010W - 5140N00010W THEN ALONG THE FIR BOUNDARY TO 5140N00020W")


@pytest.mark.parametrize("bad", ["", "N391100E1005400-N390900E1003200", "JUNK", "4809N01610E - 4809N01610E - 4809N01610E"])
def test_polygon_rejects(bad):
    with pytest.raises(ValueError):
        parse_polygon(bad)


@settings(max_examples=150, deadline=None)
@given(st.dictionaries(st.sampled_from(FIELDS), st.text(max_size=40), min_size=0, max_size=9))
def test_normalize_never_raises(values):
    text = " ".join(values.values())
    drafts = ground(text, [values])
    rec = normalize(drafts[0], text=text, message=0)
    assert rec.status in ("ok", "review")
    if rec.geometry is None:
        assert rec.status == "review"


def test_centroid_for_sun_uses_polygon_position():
    poly = "0000N17900E - 0100N17900W - 0100S17900W"
    (d,) = ground(poly, [dict(polygon=poly, start="2603200000", end="2603220000", schedule="SR-SS")])
    rec = normalize(d, text=poly, message=0)
    assert rec.geometry.type == "polygon" and len(rec.windows) >= 2
    # near the antimeridian at the equator, sunrise is ~18:00 UTC the previous day
    assert all(abs((w.start.hour * 60 + w.start.minute) - 18 * 60) < 40 for w in rec.windows[1:])
    assert math.isfinite(rec.windows[0].start.timestamp())


def test_ufn_end_is_open_ended_with_a_review_reason():
    # squawk A0500/26: "B) 2603010800\nC) UFN"
    text = "B) 2603010800\nC) UFN"
    (d,) = ground(text, [dict(center="4038N07347W", radius="10NM", start="2603010800", end="UFN")])
    rec = normalize(d, text=text, message=0)
    assert rec.permanent and rec.end is None and rec.status == "review"
    assert any("until further notice" in r for r in rec.reasons)
    assert rec.windows and rec.windows[0].start.isoformat().startswith("2026-03-01T08:00")


# ---- polygon checks found in real messages (realmore batch) ---------------------------------------------------


def test_bow_tie_ring_is_returned_as_written_but_flagged_daaa():
    from airspace.parser.polygon import ring_problems, ring_self_intersects

    # DAAA A0899/26: rectangle corners listed row by row
    e = "PSN:   345925N 0023116E  345925N 0023616E  345425N 0023116E  345425N 0023616E"
    pts = parse_polygon(e)
    assert [(round(a, 4), round(b, 4)) for a, b in pts] == [
        (34.9903, 2.5211), (34.9903, 2.6044), (34.9069, 2.5211), (34.9069, 2.6044)]  # not reordered
    assert ring_self_intersects(pts)
    assert ring_problems(pts) == ["polygon edges cross (points may be listed corner by corner); not reordered"]
    # the same corners in ring order are a clean polygon
    fixed = [pts[0], pts[1], pts[3], pts[2]]
    assert not ring_self_intersects(fixed) and ring_problems(fixed) == []


def test_ring_checks_over_the_antimeridian_and_closed_rings():
    from airspace.parser.polygon import ring_problems, ring_self_intersects

    square = [(-10.0, 179.0), (-10.0, -179.0), (-12.0, -179.0), (-12.0, 179.0)]
    assert not ring_self_intersects(square) and not ring_self_intersects(square + [square[0]])
    assert ring_self_intersects([square[0], square[2], square[1], square[3]])
    assert ring_problems(square + [square[0]]) == []


def test_repeated_vertex_is_reported_rkrr_e3296():
    from airspace.parser.polygon import ring_problems

    e = "355540N1292941E-355539N1293055E-355434N1292856E-355434N1292856E-355540N1292941E"
    pts = parse_polygon(e)
    (reason,) = ring_problems(pts)
    assert reason.startswith("polygon vertex 4 repeats vertex 3") and "missing" in reason


def test_malformed_vertex_names_the_token_mmfr_b0573():
    from airspace.parser.polygon import MalformedVertex

    # MMFR B0573/26: "1006N 12000W     0856N 11825W     0645N 112000W     1006N 12000W"
    e = "1006N 12000W     0856N 11825W     0645N 112000W     1006N 12000W"
    with pytest.raises(MalformedVertex, match=r"'0645N 112000W'.*'112000W' has 6 digits") as info:
        parse_polygon(e)
    assert info.value.token == "0645N 112000W"
    assert info.value.points == [(10.1, -120.0), (8.933333333333334, -118.41666666666667)]
    assert isinstance(info.value, ValueError)
    # a named point stays the older, different error
    with pytest.raises(ValueError, match="without coordinates: VESAN"):
        parse_polygon("5130N 00007W - 5140N 00007W - VESAN - 5130N 00010W")


def test_faa_chain_with_navaid_references_and_arc_fdc_1_4530():
    # FDC 1/4530 (Cape Canaveral): each vertex carries a (NAVAID radial/distance) reference
    e = ("285116N0804219W (OMN141034.4) TO 290730N0803000W (OMN108033.9) THEN CLOCKWISE ON A 30 NM ARC\n"
         "CENTERED ON 283703N0803647W (OMN147048.7) TO 281330N0801600W (OMN141047.8) TO THE POINT OF ORIGIN")
    pts = parse_polygon(e)
    assert len(pts) > 10
    centre = (28 + 37 / 60 + 3 / 3600, -(80 + 36 / 60 + 47 / 3600))
    arc = pts[2:-1]
    for lat, lon in arc:
        _, _, d = GEOD.inv(centre[1], centre[0], lon, lat)
        assert abs(d - 30 * 1852) < 1.0


def test_bow_tie_polygon_is_redrawn_only_when_one_simple_ring_is_possible():
    # DAAA A0899/26 item E: four corners listed row by row; all four lie on their hull, so only one simple ring
    text = ("E) FRNG EXER G/A WILL TAKE PLACE WI AREA  PSN:   345925N 0023116E  345925N 0023616E  345425N 0023116E  "
            "345425N 0023616E")
    poly = text[text.index("345925N"):]
    (d,) = ground(text, [dict(polygon=poly, lower="SFC", upper="FL100", start="2604010800", end="2604011200")])
    rec = normalize(d, text=text, message=0)
    assert rec.geometry is not None and len(rec.geometry.points) == 4
    n, s, w, e = 34 + 59 / 60 + 25 / 3600, 34 + 54 / 60 + 25 / 3600, 2 + 31 / 60 + 16 / 3600, 2 + 36 / 60 + 16 / 3600
    want = [(n, w), (n, e), (s, e), (s, w)]
    assert all(p == pytest.approx(q, abs=1e-9) for p, q in zip(rec.geometry.points, want))
    assert not any("edges cross (" in r for r in rec.reasons)
    assert rec.status == "review" and any(r.startswith("polygon edges cross as written") for r in rec.reasons)
    # FACA B0422/26 (archive, train): three of the four corners on one parallel, so not every vertex is a hull
    # corner: more than one ring is possible, and the record stays as written, in review
    text = "E) FAD 143 AREA BOUNDED BY (3430S 01827E, 3430S 01831E, 3416S 01851E,  3430S 01844E): GUNNERY FRNG"
    poly = text[text.index("3430S"):text.index("):")]
    (d,) = ground(text, [dict(polygon=poly, lower="SFC", upper="FL140", start="2605030500", end="2605031700")])
    rec = normalize(d, text=text, message=0)
    assert rec.status == "review" and any("edges cross" in r for r in rec.reasons)


def test_chinese_start_without_year_uses_the_notice_year_with_a_note():
    text = ("3月15日,惠州市公安局發(fā)布《關(guān)於2024年惠州馬拉松活動(dòng)期間無(wú)人駕駛航空器臨時(shí)禁飛的通告》。"
            "3月17日0時(shí)至14時(shí),全程馬拉松路線、半程馬拉松路線沿線周邊200米范圍")
    (d,) = ground(text, [dict(name="全程馬拉松路線、半程馬拉松路線沿線", radius="200米", start="3月17日0時(shí)",
                              end="14時(shí)")])
    rec = normalize(d, text=text, message=0)
    assert rec.start.isoformat() == "2024-03-16T16:00:00+00:00" and rec.end.isoformat() == "2024-03-17T06:00:00+00:00"
    assert any(r.startswith("note: start") and "2024 taken from the notice" in r for r in rec.reasons)


def test_corridor_either_side_of_line():
    from shapely.geometry import Point, Polygon

    from airspace.parser.polygon import corridor_polygon, parse_corridor

    line, w = parse_corridor("AIRSPACE CLSD 1NM EITHER SIDE OF LINE 355540N1292941E-360539N1293055E-361000N1300000E")
    assert w == 1852.0 and len(line) == 3
    ring = corridor_polygon(line, w)
    area = Polygon([(lon, lat) for lat, lon in ring])
    a, b = line[0], line[1]
    az, _, d = GEOD.inv(a[1], a[0], b[1], b[0])
    mlon, mlat, _ = GEOD.fwd(a[1], a[0], az, d / 2)
    for side in (90, -90):
        lon_in, lat_in, _ = GEOD.fwd(mlon, mlat, az + side, w * 0.995)
        lon_out, lat_out, _ = GEOD.fwd(mlon, mlat, az + side, w * 1.005)
        assert area.contains(Point(lon_in, lat_in)) and not area.contains(Point(lon_out, lat_out))
    # flat ends: 0.5 NM beyond the first point along the line is outside
    lon_b, lat_b, _ = GEOD.fwd(a[1], a[0], az + 180, 926)
    assert not area.contains(Point(lon_b, lat_b))
    # over the antimeridian the ring stays narrow (no band around the globe)
    ring = corridor_polygon([(0.0, 179.99), (0.0, -179.99)], 1852.0)
    assert max(abs(lat) for lat, _ in ring) < 0.0168 and all(abs(lon) > 179.9 for _, lon in ring)
    with pytest.raises(ValueError):
        parse_corridor("1NM EITHER SIDE OF LINE 355540N1292941E")
    with pytest.raises(ValueError):
        corridor_polygon(line, 0.0)


def test_single_point_arc_back_to_origin_is_a_full_circle():
    # FDC TFR fragment: one vertex, then a counter-clockwise arc around a centre back to the point of origin
    e = ("301918N0812606W THEN COUNTERCLOCKWISE ON A 4.2 NM ARC CENTERED ON 302329N0812528W (CRG058005) TO THE "
         "POINT OF ORIGIN")
    pts = parse_polygon(e)
    centre = (30 + 23 / 60 + 29 / 3600, -(81 + 25 / 60 + 28 / 3600))
    assert pts[0] == (30 + 19 / 60 + 18 / 3600, -(81 + 26 / 60 + 6 / 3600))
    dists = [GEOD.inv(centre[1], centre[0], lon, lat)[2] for lat, lon in pts]
    assert max(dists) - min(dists) < 0.01 and len(pts) == 120
    az = [GEOD.inv(centre[1], centre[0], lon, lat)[0] for lat, lon in pts[:2]]
    assert (az[1] - az[0]) % 360 > 180  # counter-clockwise: azimuth decreases
    with pytest.raises(ValueError, match="without coordinates"):
        parse_polygon("VESAN TO 301918N0812606W THEN CLOCKWISE ON A 4.2 NM ARC CENTERED ON 302329N0812528W TO "
                      "THE POINT OF ORIGIN")


def test_chinese_schedule_is_expanded_in_beijing_time():
    text = "2024年9月10日0时至2024年9月12日24时,每日8时至18时,以大连梭鱼湾足球场为中心半径2公里"
    (d,) = ground(text, [dict(name="大连梭鱼湾足球场", radius="2公里", start="2024年9月10日0时",
                              end="2024年9月12日24时", schedule="每日8时至18时")])
    rec = normalize(d, text=text, message=0)
    assert [(w.start.isoformat(), w.end.isoformat()) for w in rec.windows] == [
        (f"2024-09-{day}T00:00:00+00:00", f"2024-09-{day}T10:00:00+00:00") for day in (10, 11, 12)]


# ---- clock-only times with the day and the time zone stated apart (a dispatcher's note)
def _clock_draft(text, **values):
    from airspace.core.contract import Span, ZoneDraft

    spans = {}
    for k, v in values.items():
        i = text.index(v)
        spans[k] = Span(i, i + len(v), v)
    return ZoneDraft.from_spans(spans)


def test_clock_times_with_date_and_time_zone_are_placed_in_utc_exactly():
    text = "Ops note 14 Jan 2027\nDrones grounded 0930-1600 local, UTC+8, within 2 km of 22.3080N 113.9185E."
    d = _clock_draft(text, center="22.3080N 113.9185E", radius="2 km", start="0930", end="1600", date="14 Jan 2027",
                     tz="UTC+8")
    rec = normalize(d, text=text, message=0)
    assert rec.start.isoformat() == "2027-01-14T01:30:00+00:00" and rec.end.isoformat() == "2027-01-14T08:00:00+00:00"
    assert [(w.start, w.end) for w in rec.windows] == [(rec.start, rec.end)]
    assert any(r.startswith("note: 0930-1600 local (UTC+8) on 2027-01-14") for r in rec.reasons)


def test_clock_times_across_midnight_and_negative_offsets():
    text = "Ops note 14 Jan 2027: drones grounded 22:00-01:30 local (UTC-05:30) near 22.3080N 113.9185E"
    d = _clock_draft(text, center="22.3080N 113.9185E", start="22:00", end="01:30", date="14 Jan 2027",
                     tz="UTC-05:30")
    rec = normalize(d, text=text, message=0)
    assert rec.start.isoformat() == "2027-01-15T03:30:00+00:00" and rec.end.isoformat() == "2027-01-15T07:00:00+00:00"


def test_clock_times_without_a_time_zone_take_the_zones_own_and_say_so():
    """Local times with no offset: the IANA zone at the zone's own position (issue 44, form 5), said as inferred;
    a zone with no position to take it from is still not placed in UTC."""
    text = "Ops note 14 Jan 2027\nDrones grounded 0930-1600 local within 2 km of 22.3080N 113.9185E."
    d = _clock_draft(text, center="22.3080N 113.9185E", start="0930", end="1600", date="14 Jan 2027")
    rec = normalize(d, text=text, message=0)
    assert rec.start.isoformat() == "2027-01-14T01:30:00+00:00" and rec.end.isoformat() == "2027-01-14T08:00:00+00:00"
    assert any("Asia/Hong_Kong" in w for w in rec.inferred) and any("Asia/Hong_Kong" in r for r in rec.reasons)
    nowhere = _clock_draft(text, start="0930", end="1600", date="14 Jan 2027")
    rec = normalize(nowhere, text=text, message=0)
    assert rec.start is None and rec.end is None and rec.status == "review"
    assert any("states no time zone" in r for r in rec.reasons)
    bad = _clock_draft(text, center="22.3080N 113.9185E", start="0930", end="1600", date="14 Jan 2027", tz="Drones")
    rec = normalize(bad, text=text, message=0)
    assert rec.start is None and any(r.startswith("tz 'Drones'") for r in rec.reasons)


def test_a_named_place_drops_the_closing_bracket_of_the_sentence_around_it():
    """F0480/26 (archive): the model's name span ran on to the bracket that closes ``(FIR TEHRAN (OIIX))``; the
    name is the place's, the span stays as written. Brackets the name opens itself are kept."""
    from airspace.parser.places import place_name

    text = ("E) ... ARE REQUESTED NOT TO PENETRATE INTO THE ENTIRE AIRSPACE OF IRAN (FIR TEHRAN (OIIX)).  THIS NOTAM "
            "SUPERSEDES THE RESTRICTIONS")
    span = between(text, "FIR TEHRAN", "(OIIX))")
    (d,) = ground(text, [dict(name=span)])
    rec = normalize(d, text=text, message=0)
    assert rec.geometry.type == "named" and rec.geometry.name == "FIR TEHRAN (OIIX)"
    assert rec.spans["name"].text == "FIR TEHRAN (OIIX))"
    assert place_name("FIR  MUSCAT\n(OOMM)") == "FIR MUSCAT (OOMM)"
    assert place_name("大连（梭鱼湾）") == "大连（梭鱼湾）" and place_name("梭鱼湾）") == "梭鱼湾"
    (d,) = ground("AREA ) F) SFC", [dict(name=")", lower="SFC")])
    assert normalize(d, text="AREA ) F) SFC", message=0).geometry is None  # nothing of a name is left
