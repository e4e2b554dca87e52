"""Map layers, the basemap and the dashboard's pure helpers on real records -> real volumes (geo.volumes), no
browser needed."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest
from shapely.geometry import Polygon, shape

from airspace.app import map_layers as L
from airspace.app import map_view as V
from airspace.app.basemap import BASEMAP_DIR, basemap_for, context_for, load_geojson, places, region_box
from airspace.app.batch_input import APP_MAX_BYTES, InputTooLarge, check_input_size, is_jsonl, live_messages
from airspace.app.run_summary import torch_threads
from airspace.app.safe_text import highlight_html, trace_html
from airspace.app.tables import records_agree, records_frame
from airspace.core.records import (
    CircleGeometry,
    Limit,
    NamedGeometry,
    PolygonGeometry,
    SpanModel,
    Window,
    ZoneRecord,
)
from airspace.geo.volumes import volumes_from_records

UTC = timezone.utc
TEXT = "A1234/26 NOTAMN\nQ) EGTT/QRDCA/IV/BO/W/000/050/5130N00007W005\nE) DANGER AREA 5130N00007W RADIUS 5NM SFC-FL050"


def _rec(message=0, zone=0, *, status="ok", lower=None, upper=None, geometry=None, start=None, end=None, windows=()):
    return ZoneRecord(
        message=message,
        zone=zone,
        id=f"A{1000 + message}/26",
        status=status,
        reasons=[] if status == "ok" else ["rules and model disagree on upper"],
        geometry=geometry or CircleGeometry(center=(51.5, -0.1167), radius_m=9260.0),
        lower=lower,
        upper=upper,
        start=start,
        end=end,
        windows=list(windows),
        text=TEXT,
    )


@pytest.fixture(scope="module")
def vols():
    recs = [
        # 500 ft AMSL .. FL050, active 10-12Z
        _rec(0, lower=Limit(ref="AMSL", ft=500, m=152.4, raw="500FT AMSL"), upper=Limit(ref="FL", ft=5000, m=1524.0, raw="FL050"),
             start=datetime(2026, 12, 1, 10, tzinfo=UTC), end=datetime(2026, 12, 1, 12, tzinfo=UTC)),
        # SFC .. UNL, review, active 11-15Z
        _rec(1, status="review", lower=Limit(ref="SFC", ft=0, m=0, raw="SFC"), upper=Limit(ref="UNL", ft=None, m=None, raw="UNL"),
             geometry=PolygonGeometry(points=[(51.6, -0.3), (51.7, -0.1), (51.6, 0.1)]),
             start=datetime(2026, 12, 1, 11, tzinfo=UTC), end=datetime(2026, 12, 1, 15, tzinfo=UTC)),
        # daily schedule windows
        _rec(2, lower=Limit(ref="AGL", ft=None, m=0, raw="GND"), upper=Limit(ref="AGL", ft=None, m=120, raw="真高120米"),
             geometry=CircleGeometry(center=(22.63, 113.82), radius_m=2000.0),
             start=datetime(2026, 12, 1, 0, tzinfo=UTC), end=datetime(2026, 12, 3, 0, tzinfo=UTC),
             windows=[Window(start=datetime(2026, 12, d, 8, tzinfo=UTC), end=datetime(2026, 12, d, 17, tzinfo=UTC)) for d in (1, 2)]),
        # named place: a record without a volume
        _rec(3, status="review", geometry=NamedGeometry(name="大连梭鱼湾足球场")),
    ]
    recs.append(ZoneRecord(message=4, status="error", reasons=["message is empty"], text=""))
    return recs, volumes_from_records(recs)


def test_volume_rows_floor_and_extrusion(vols):
    recs, vs = vols
    assert [v.key for v in vs] == [(0, 0), (1, 0), (2, 0)]  # named and error records have no volume
    t = datetime(2026, 12, 1, 11, 30, tzinfo=UTC)
    rows = L.volume_rows(vs, t)
    r0, r1, r2 = rows
    # vertices at the floor altitude, extrusion to the ceiling
    assert {p[2] for p in r0["polygon"][0]} == {152.4}
    assert r0["height"] == pytest.approx(1524.0 - 152.4)
    # the polygon footprint is the enclosing circle: ~5 NM from the centre
    ring = r0["polygon"][0]
    assert len(ring) >= 32
    assert min(p[1] for p in ring) == pytest.approx(51.5 - 9260 / 111_250, abs=0.01)
    # drawn with fewer vertices than geo made, covering the true circle and at most 2 x 10 m outside it
    drawn = Polygon([(x, y) for x, y, _ in ring])
    true = vs[0].polygon
    assert len(ring) < len(true.exterior.coords) - 1
    assert drawn.buffer(1e-7).covers(true) and drawn.hausdorff_distance(true) * L.M_PER_DEG <= 2 * L.DRAW_TOL_M
    # UNL drawn at the cap, from the surface
    assert {p[2] for p in r1["polygon"][0]} == {0.0}
    assert r1["height"] == pytest.approx(L.UNL_CAP_M)
    assert r1["ceil_m"] is None
    # AGL 0..120 m
    assert r2["height"] == pytest.approx(120.0)


def test_colours_follow_status_and_time(vols):
    _, vs = vols
    at = lambda h, d=1: [r["fill"] for r in L.volume_rows(vs, datetime(2026, 12, d, h, 30, tzinfo=UTC))]
    # 11:30 on day 1: zone 0 active ok (red), zone 1 active review (amber), zone 2 active (08-17 window)
    assert at(11) == [L.COLORS[("ok", True)], L.COLORS[("review", True)], L.COLORS[("ok", True)]]
    # 18:30: all three inactive (zone 2 is outside its daily window although inside start..end)
    assert at(18) == [L.COLORS[("ok", False)], L.COLORS[("review", False)], L.COLORS[("ok", False)]]
    # day 2 09:30: only the scheduled zone
    assert at(9, d=2) == [L.COLORS[("ok", False)], L.COLORS[("review", False)], L.COLORS[("ok", True)]]
    assert L.volume_color("ok", True)[:3] == [230, 30, 45]
    assert L.volume_color("ok", True, selected=True)[3] == 255


def test_tooltip_states_references_and_cap(vols):
    _, vs = vols
    rows = L.volume_rows(vs, datetime(2026, 12, 1, 11, 30, tzinfo=UTC))
    # plain text, one fact a line (the page's tooltip is innerText: no tag in it would ever be markup)
    assert "<" not in rows[0]["tip"] and rows[0]["tip"].splitlines()[0] == "A1000/26 · message 1, zone 1"
    assert L.TOOLTIP["text"] == "{tip}" and "html" not in L.TOOLTIP
    assert "152 m AMSL" in rows[0]["tip"] and "FL050" in rows[0]["tip"] and "ACTIVE" in rows[0]["tip"]
    assert "UNL" in rows[1]["tip"] and "18,288 m" in rows[1]["tip"]
    assert "rules and model disagree" in rows[1]["tip"]
    assert "AGL" in rows[2]["tip"] and "no terrain model" in rows[2]["tip"]
    assert "真高120米" in rows[2]["tip"]


def test_vscale_scales_floor_and_height(vols):
    _, vs = vols
    r = L.volume_rows(vs[:1], None, vscale=3.0)[0]
    assert r["polygon"][0][0][2] == pytest.approx(3 * 152.4)
    assert r["height"] == pytest.approx(3 * (1524.0 - 152.4))
    assert r["active"] is True  # t None: everything shown active


def test_deck_json_has_no_tile_server_and_real_layers(vols):
    _, vs = vols
    basemap = basemap_for(V.focus_bounds(vs, "1:0"))
    deck = L.build_deck(vs, datetime(2026, 12, 1, 11, 30, tzinfo=UTC), basemap=basemap, selected="1:0")
    text = deck.to_json()
    assert "\n" not in text  # compact JSON
    spec = json.loads(text)
    # no tile provider, no token, no map style: no base-map library under deck.gl, never a server
    assert "mapProvider" not in spec and spec["mapStyle"] == L.NO_BASE_MAP_STYLE
    assert "http" not in text
    ids = [layer["id"] for layer in spec["layers"]]
    assert ids == ["land", "coastline", "borders", "scale", "volumes~0", "selection", "markers~0", "airports", "labels"]
    by_id = {layer["id"].split("~")[0]: layer for layer in spec["layers"]}
    assert by_id["land"]["data"]["features"] and by_id["land"]["parameters"]["depthCompare"] == "always"
    world = json.loads(L.build_deck(vs, None, basemap=basemap_for(None)).to_json())
    # the world overview goes in layers of the same ids, so the browser swaps data instead of building new layers
    assert [layer["id"] for layer in world["layers"]][:3] == ["land", "coastline", "borders"]
    assert world["layers"][0]["data"] == basemap_for(None)["land_overview"] != by_id["land"]["data"]
    # the sea is the colour behind the (transparent) map canvas, not a polygon drawn over the whole canvas
    r, g, b, _ = L.SEA_COLOR
    assert f"rgb({r}, {g}, {b})" in L.map_css() and "stDeckGlJsonChart" in L.map_css()
    assert by_id["volumes"]["@@type"] == "PolygonLayer" and by_id["volumes"]["extruded"] is True
    assert by_id["volumes"]["wireframe"] is False  # edges for the selected volume only (selection layer)
    sel = [r for r in by_id["volumes"]["data"] if r["key"] == "1:0"][0]
    assert sel["line"] == L.LINE_SELECTED and sel["fill"][3] == 255
    assert by_id["selection"]["data"] == [r for r in by_id["volumes"]["data"] if r["key"] == "1:0"]
    assert by_id["selection"]["wireframe"] is True and by_id["selection"]["filled"] is False
    # the view flies to the selected polygon (centre of 51.6..51.7, -0.3..0.1)
    vs_ = spec["initialViewState"]
    assert vs_["latitude"] == pytest.approx(51.65, abs=0.01) and vs_["longitude"] == pytest.approx(-0.1, abs=0.01)
    assert vs_["zoom"] > 7 and vs_["transitionDuration"] > 0
    assert spec["views"][0]["@@type"] == "MapView"
    # the mouse wheel scrolls the page unless the operator gives it to the map
    assert spec["views"][0]["controller"]["scrollZoom"] is False
    wheel = json.loads(L.build_deck(vs, None, basemap=basemap, scroll_zoom=True, pick_gen=3).to_json())
    assert wheel["views"][0]["controller"]["scrollZoom"] is True
    assert "volumes~3" in [layer["id"] for layer in wheel["layers"]]  # a consumed click: new pickable-layer ids
    # the basemap keeps its look while Streamlit dims a selection (alpha 102 at most), the land as intended
    land_rgba = by_id["land"]["getFillColor"]
    assert land_rgba[3] <= L.BASE_ALPHA
    shown = [round(c * land_rgba[3] / 255 + s * (1 - land_rgba[3] / 255)) for c, s in zip(land_rgba, L.SEA_COLOR)]
    assert all(abs(a - b) <= 1 for a, b in zip(shown, L.LAND_COLOR[:3]))


def test_route_is_a_thin_line_with_legs_and_waypoints():
    layers = L.route_layers([(51.4, -0.5, 100.0), (51.6, 0.2, 120.0), (51.7, 0.3, 90.0)], [(51.5, -0.1, 110.0)], vscale=2.0)
    assert [layer.type for layer in layers] == ["PathLayer", "ScatterplotLayer", "ScatterplotLayer"]
    spec = json.loads(json.dumps([json.loads(layer.to_json()) for layer in layers]))
    route = spec[0]
    # widths in pixels, as a unit and not as an expression: the route was once drawn as a slab a degree wide
    assert route["widthUnits"] == "pixels" and route["getWidth"] == 3 and route["widthMaxPixels"] <= 4
    # (lat, lon, alt) in, deck.gl's [lon, lat, z] out, heights exaggerated like the volumes; one row per leg
    assert [r["path"] for r in layers[0].data] == [[[-0.5, 51.4, 200.0], [0.2, 51.6, 240.0]],
                                                  [[0.2, 51.6, 240.0], [0.3, 51.7, 180.0]]]
    assert layers[0].data[1]["tip"] == "route leg 2: waypoint 2 → 3"
    assert [r["position"] for r in layers[1].data] == [[-0.5, 51.4, 200.0], [0.2, 51.6, 240.0], [0.3, 51.7, 180.0]]
    assert layers[2].data[0]["position"] == [-0.1, 51.5, 220.0]
    assert spec[1]["radiusMaxPixels"] <= 5 and spec[2]["parameters"]["depthCompare"] == "always"
    assert len(L.route_layers([(51.4, -0.5, 100.0), (51.6, 0.2, 120.0)])) == 2  # no conflicts: no dots


def test_labels_airports_places_and_scale_bar():
    # Shenzhen Bay: the detail region carries its airports and the capitals and territories around it
    bm = basemap_for((113.85, 22.45, 114.45, 22.75))
    icao = [a["icao"] for a in bm["context"]["airports"]]
    assert {"ZGSZ", "VHHH", "VMMC"} <= set(icao) and len(icao) <= 40
    names = {n for n, *_ in bm["context"]["places"]}
    assert "Hong Kong" in names and "Macao" in names and "Taipei" in names
    assert [n for n, *_ in bm["context"]["places"]].count("Hong Kong") == 1
    assert bm["borders"]["features"]  # the Shenzhen - Hong Kong border
    # the world view: country names only
    world = context_for(None, None, None)
    assert world["airports"] == [] and len(world["places"]) == len(places()["countries"]) > 200
    # a scale bar of a round length under the zones' west end
    paths, labels = L.scale_bar((113.85, 22.45, 114.45, 22.75))
    (x0, y0), (x1, y1) = paths[0]["path"][1], paths[0]["path"][2]
    assert y0 == y1 < 22.45 and labels[0]["text"] in ("10 km", "20 km", "5 km")
    km = float(labels[0]["text"].split()[0])
    assert (x1 - x0) * 111.32 * __import__("math").cos(__import__("math").radians(y0)) == pytest.approx(km, rel=1e-3)
    # labels never overlap at the zoom they are placed for; zones first
    items = [{"position": [114.0 + i * 0.001, 22.5], "text": f"Z{i}"} for i in range(5)]
    kept = L.declutter(items, 10.0)
    assert kept[0]["text"] == "Z0" and len(kept) < 5
    assert len(L.declutter(items, 18.0)) == 5


def test_message_text_never_becomes_a_deck_expression(vols):
    """deck.gl's JSON converter evaluates any string starting with ``@@=``, in data rows too: a message's id or
    reason never reaches the deck that way."""
    recs, _ = vols
    evil = recs[0].model_copy(update={"id": "@@=constructor.constructor('alert(1)')()", "reasons": ["@@#GL.ONE"]})
    from airspace.geo.volumes import volumes_from_records

    vs = volumes_from_records([evil])
    spec = json.loads(L.build_deck(vs, None, basemap=basemap_for(V.bounds_of(vs))).to_json())

    def strings(o):
        if isinstance(o, str):
            yield o
        elif isinstance(o, dict):
            for v in o.values():
                yield from strings(v)
        elif isinstance(o, list):
            for v in o:
                yield from strings(v)

    data_strings = [s for layer in spec["layers"] if isinstance(layer.get("data"), list) for s in strings(layer["data"])]
    assert any("constructor" in s for s in data_strings)  # the id is there, as text
    assert not any(s.startswith("@@") for s in data_strings)


def test_view_fits_bounds():
    world = V.view_for_bounds((-120, -30, 140, 60))
    local = V.view_for_bounds((-0.2, 51.4, 0.0, 51.6))
    assert world.zoom < 2 < 9 < local.zoom
    assert V.view_for_bounds(None).zoom == 1.0


def test_basemap_is_natural_earth_land():
    from shapely.geometry import Point

    land = shape(load_geojson("land.geojson")["features"][0]["geometry"])
    # Great Britain's interior is land, the North Sea is not; Australia is land
    assert land.contains(Point(-1.5, 52.5)) and not land.contains(Point(3.0, 55.0))
    assert land.contains(Point(134.0, -25.0))
    assert load_geojson("coastline.geojson")["features"][0]["geometry"]["type"] == "MultiLineString"
    assert (BASEMAP_DIR / "land.geojson").stat().st_size < 4_000_000
    assert "public domain" in (BASEMAP_DIR / "PROVENANCE.md").read_text()


def test_basemap_levels_of_detail():
    from shapely.geometry import Point

    # London zones: 1:10m detail in a box around them (and nothing else: see basemap_for)
    bm = basemap_for((-0.3, 51.4, 0.3, 51.7))
    assert set(bm) == {"region", "coast_region", "land", "coast", "borders", "context"}
    assert bm["region"] == region_box((-0.3, 51.4, 0.3, 51.7)) == (-9.0, 43.0, 9.0, 60.0)
    # coastline lines in a tighter box (zones + 2 degrees), inside the land box
    assert bm["coast_region"] == (-3.0, 49.0, 3.0, 54.0)
    coast = [shape(f["geometry"]) for f in bm["coast"]["features"]]
    assert all(-3.0 <= g.bounds[0] and g.bounds[2] <= 3.0 and 49.0 <= g.bounds[1] and g.bounds[3] <= 54.0 for g in coast)
    assert any(g.distance(Point(1.4, 51.4)) < 0.1 for g in coast)  # the Kent coast is drawn
    detail = [shape(f["geometry"]) for f in bm["land"]["features"]]
    assert any(g.contains(Point(-0.1, 51.5)) for g in detail)  # London is land
    assert any(g.contains(Point(2.35, 48.85)) for g in detail)  # so is Paris
    assert not any(g.contains(Point(2.0, 52.5)) for g in detail)  # the North Sea is not
    assert all(-9.0 <= g.bounds[0] and g.bounds[2] <= 9.0 for g in detail)
    assert bm["coast"]["features"]
    # zones spread over continents: the overview world, embedded or as a same-origin URL of a file that exists
    world = basemap_for((-100.0, 10.0, 120.0, 50.0))
    assert set(world) == {"land_overview", "coast_overview", "borders_overview", "context"}
    assert region_box((-100.0, 10.0, 120.0, 50.0)) is None
    assert shape(world["land_overview"]["features"][0]["geometry"]).contains(Point(134.0, -25.0))
    assert basemap_for(None).keys() == world.keys()
    served = basemap_for(None, served=True)
    assert served["land_overview"] == "app/static/land_overview.geojson"
    assert (BASEMAP_DIR.parent.parent / "app" / "static" / "land_overview.geojson").is_file()


def test_basemap_has_no_line_across_the_map():
    """world-atlas rings crossing the antimeridian are cut: no segment jumps across the map (except Antarctica's
    closing edge along the pole itself, off the Web Mercator map)."""
    for name in ("land_overview.geojson", "coastline_overview.geojson", "borders_overview.geojson", "borders.geojson"):
        geom = load_geojson(name)["features"][0]["geometry"]
        rings = [r for part in geom["coordinates"] for r in part] if geom["type"] == "MultiPolygon" else geom["coordinates"]
        for ring in rings:
            for (x0, y0), (x1, y1) in zip(ring, ring[1:]):
                assert abs(x1 - x0) < 90 or (y0 == y1 == -90.0), (name, (x0, y0), (x1, y1))


def test_records_table_and_highlight(vols):
    recs, _ = vols
    df = records_frame(recs)
    assert list(df["key"]) == ["0:0", "1:0", "2:0", "3:0", "4:0"]
    assert df.loc[0, "radius"] == "5.00 NM (9,260 m)"
    assert df.loc[0, "lower"] == "152 m AMSL (500FT AMSL)" and df.loc[0, "upper"] == "FL050 (1,524 m)"
    assert df.loc[1, "upper"] == "UNL" and df.loc[1, "status"] == "review"
    assert df.loc[3, "centre / polygon"].startswith("named: 大连梭鱼湾足球场")
    assert df.loc[4, "status"] == "error" and df.loc[4, "reasons"] == "message is empty"
    i = TEXT.index("5130N00007W RADIUS")
    html = highlight_html(TEXT + " <b>", {"center": SpanModel(start=i, end=i + 11, text="5130N00007W"), "upper": SpanModel(start=len(TEXT) - 5, end=len(TEXT), text="FL050")})
    assert '<mark title="center" data-field="center">5130N00007W</mark>' in html
    assert '<mark title="upper" data-field="upper">FL050</mark>' in html
    assert "&lt;b&gt;" in html  # message text is escaped
    assert "\n" not in html and html.count("<br/>") == TEXT.count("\n")  # one line of HTML, breaks kept


def test_input_limits_and_agreement(vols):
    recs, _ = vols
    with pytest.raises(InputTooLarge, match="at most 1,000,000 bytes"):
        check_input_size("x" * (APP_MAX_BYTES + 1))
    check_input_size("A1234/26 NOTAMN")
    assert is_jsonl('{"text": "a"}\n\n{"text": "b"}') and not is_jsonl(TEXT)
    assert records_agree(recs, recs) == (5, 5, [])
    other = [r.model_copy(update={"upper": Limit(ref="FL", ft=6000, m=1828.8, raw="FL060")}) if r.message == 0 else r for r in recs]
    assert records_agree(recs, other) == (4, 5, [1])


def test_trace_html_and_live_messages():
    from airspace.core.answer import FIELD_SEP, ZONE_SEP

    html = trace_html("center=5130N" + "\u2591" * 3 + FIELD_SEP + "upper=<FL050" + ZONE_SEP + "center=1")
    assert '<span class="mask" style="color:#777">\u2591\u2591\u2591</span>' in html
    assert " ␟ " in html and "next zone" in html and "&lt;FL050" in html
    live = live_messages("A0001/26 NOTAMN\nE) ONE\n\nA0002/26 NOTAMN\nE) TWO")
    assert [m.index for m in live] == [0, 1] and live[1].text.endswith("TWO")
    assert [m.text for m in live_messages('{"text": "a"}\n{"nope": 1}\n{"text": "b"}')] == ["a", "b"]


def test_torch_threads_leave_cores_to_the_browser():
    assert torch_threads(None, 2) == 1 and torch_threads("", 16) == 8 and torch_threads(None, 1) == 1
    assert torch_threads(None, None) == 1  # cpu count unknown: one thread
    assert torch_threads("3", 2) == 3 and torch_threads(" 2 ", 16) == 2  # the operator's choice wins
    assert torch_threads("zero", 4) == 2 and torch_threads("0", 4) == 2 and torch_threads("-1", 4) == 2


def test_display_polygon_keeps_sparse_outlines_and_covers_dense_ones():
    from shapely.geometry import Point

    square = Polygon([(113.9, 22.5), (113.95, 22.5), (113.95, 22.55), (113.9, 22.55)])
    assert L.display_polygon(square) is square  # a NOTAM polygon is drawn exactly
    circle = Point(113.94, 22.52).buffer(0.0167, quad_segs=64)  # ~1 NM, 257 vertices
    drawn = L.display_polygon(circle)
    assert len(drawn.exterior.coords) < 100
    assert drawn.covers(circle)  # never drawn smaller than the zone
    assert drawn.hausdorff_distance(circle) * L.M_PER_DEG <= 2 * L.DRAW_TOL_M
