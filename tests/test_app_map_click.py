"""A click on the map as a place (app/map_click.py): the invisible point grid over the camera's view, what a picked
grid point says, and which of demo20's real volumes (rules reader) a click from above lands on."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pydeck as pdk
import pytest
from shapely.geometry import Point

from airspace.app import map_click as MC
from airspace.app import map_view as V
from airspace.geo import flycheck as F
from airspace.geo.volumes import volumes_from_records
from airspace.pipeline.batch import process_batch

REPO = Path(__file__).resolve().parents[1]
DEMO20 = (REPO / "data" / "samples" / "demo20.txt").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def volumes():
    records, _ = process_batch(DEMO20, "rules")
    return volumes_from_records(records)


def test_the_grid_covers_the_view_without_gaps():
    view = pdk.ViewState(latitude=22.55, longitude=114.0, zoom=11.0)
    pts, precision = MC.grid_points(view.latitude, view.longitude, view.zoom)
    lons = sorted({p["cell"][0] for p in pts})
    lats = sorted({p["cell"][1] for p in pts})
    # the view's centre is a grid point; the grid spans the map's pixels at that zoom
    assert [114.0, 22.55] in [p["cell"] for p in pts]
    deg_per_px = 360 / (512 * 2**11)
    assert lons[-1] - lons[0] == pytest.approx(MC.MAP_PX[0] // MC.GRID_PX * MC.GRID_PX * deg_per_px, rel=1e-3)
    assert len(lons) * len(lats) == len(pts)
    # neighbours GRID_PX pixels apart; each disc (radius 0.75 of that) reaches past the square's corner (0.707)
    step_px = (lons[1] - lons[0]) / deg_per_px
    assert step_px == pytest.approx(MC.GRID_PX, rel=1e-2)  # 5 decimals: a metre
    layer = json.loads(pdk.Deck(layers=[MC.click_layer(view, tilted=False)]).to_json())["layers"][0]
    assert layer["pickable"] is True and layer["getRadius"] >= MC.GRID_PX / math.sqrt(2)
    assert layer["getFillColor"][3] <= 1  # invisible
    # the answer says how close the point is: a disc's radius on the ground (~35 m a pixel at zoom 11 here), the
    # farthest a click can land from the centre of the disc it picks
    m_per_px = deg_per_px * math.cos(math.radians(22.55)) * MC.EARTH_M_PER_DEG
    assert layer["getRadius"] == MC.DISC_PX and precision == pytest.approx(MC.DISC_PX * m_per_px, rel=1e-2)


def test_the_grid_lies_over_the_zones_in_2d_and_under_them_in_3d():
    view = pdk.ViewState(latitude=22.55, longitude=114.0, zoom=11.0)
    flat = pdk.Deck(layers=[pdk.Layer("PolygonLayer", id="volumes~0", data=[])])
    MC.add_click_layer(flat, view, tilted=False, gen=3)
    assert [layer.id for layer in flat.layers] == ["volumes~0", "mapclick~3"]
    assert json.loads(flat.to_json())["layers"][1]["parameters"] == {"depthTest": False}
    tilted = pdk.Deck(layers=[pdk.Layer("PolygonLayer", id="volumes~0", data=[])])
    MC.add_click_layer(tilted, view, tilted=True)
    assert [layer.id for layer in tilted.layers] == ["mapclick~0", "volumes~0"]


def test_a_picked_grid_point_is_the_place_asked_about():
    view = pdk.ViewState(latitude=22.55, longitude=114.0, zoom=11.0)
    lat, lon, precision = MC.clicked_point([{"key": "x"}, {"cell": [114.0547, 22.5536]}], view)
    assert (lat, lon) == (22.5536, 114.0547) and precision == MC.grid_points(lat, lon, 11.0)[1]
    assert MC.place_text(lat, lon, precision).startswith("map point 22.55360, 114.05470 (±")
    # a volume or marker picked, or anything that is not a point on Earth: not a place
    assert MC.clicked_point([{"key": "0-0"}], view) is None
    assert MC.clicked_point([{"cell": [200.0, 10.0]}, {"cell": "22,114"}, {"cell": [1, 2, 3]}], view) is None


def test_a_click_from_above_lands_on_the_smallest_volume_under_it(volumes):
    by_id = {v.id: v for v in volumes}
    park = by_id["A2198/26"]  # Lianhuashan Park, 0.5 NM; FDC 6/0871 covers it too
    c = park.polygon.centroid
    key = MC.volume_at(volumes, c.y, c.x, V.key_str)
    assert key == V.key_str(park.key)
    inside = [v for v in volumes if v.polygon.covers(c)]
    assert len(inside) >= 2 and park.polygon.area == min(v.polygon.area for v in inside)
    # over the sea south of every zone: none
    assert MC.volume_at(volumes, 22.20, 113.70, V.key_str) is None
    # just outside the park (~270 m north of its edge, nothing else there): the park only if the click's disc
    # reaches it
    north = (22.5536 + 1200 / 111_320, 114.0547)
    assert MC.volume_at([park], *north, V.key_str) is None
    assert MC.volume_at([park], *north, V.key_str, reach_m=300.0) == V.key_str(park.key)
    assert MC.volume_at([park], *north, V.key_str, reach_m=200.0) is None


def test_from_above_the_grid_carries_the_tooltip_of_the_zone_under_it(volumes):
    from airspace.app import map_layers as L

    park = next(v for v in volumes if v.id == "A2198/26")
    c = park.polygon.centroid
    view = pdk.ViewState(latitude=c.y, longitude=c.x, zoom=12.0)
    deck = L.build_deck(volumes, None, basemap={}, view=view)
    MC.add_click_layer(deck, view, tilted=False, volumes=volumes)
    grid = json.loads(deck.to_json())["layers"][-1]
    centre = next(r for r in grid["data"] if r["cell"] == [round(c.x, 5), round(c.y, 5)])
    park_tip = next(r["tip"] for r in L.volume_rows([park], None))
    assert centre["tip"] == park_tip and "Floor:" in centre["tip"]  # the smallest zone there: the park's details
    # a point over a zone, or whose disc reaches over a zone's edge, shows a zone's details; any other point its
    # coordinates (hovering inside a zone's edge, where the disc picked may be centred just outside it, still
    # shows the zone)
    reach = MC.grid_points(c.y, c.x, 12.0)[1]
    tips = {next(r["tip"] for r in L.volume_rows([v], None)): v for v in volumes}
    over = {i for i, r in enumerate(grid["data"]) if any(v.polygon.covers(Point(*r["cell"])) for v in volumes)}
    rim = {i for i, r in enumerate(grid["data"]) if i not in over
           and any(F.footprint_distance_m(v.polygon, r["cell"][1], r["cell"][0]) <= reach for v in volumes)}
    assert 0 < len(over) < len(grid["data"]) and rim
    for i, r in enumerate(grid["data"]):
        coords = f"{r['cell'][1]:.5f}, {r['cell'][0]:.5f} · click: Can I fly here?"
        assert (r["tip"] == coords) == (i not in over | rim), r
        if i in rim:  # the nearest zone, the one a click there selects
            key = MC.volume_at(volumes, r["cell"][1], r["cell"][0], V.key_str, reach_m=reach)
            assert V.key_str(tips[r["tip"]].key) == key
    assert all(r["tip"] for r in grid["data"])  # never empty (deck.gl would show an empty box)
    # tilted: under the zones, whose own tooltips show; the grid's are coordinates only
    tilted = L.build_deck(volumes, None, basemap={}, view=view)
    MC.add_click_layer(tilted, view, tilted=True, volumes=volumes)
    assert all("click: Can I fly here?" in r["tip"] for r in json.loads(tilted.to_json())["layers"][0]["data"])


def test_before_any_run_the_grid_is_one_warm_up_point():
    view = pdk.ViewState(latitude=20.0, longitude=0.0, zoom=1.0)
    layer = json.loads(pdk.Deck(layers=[MC.click_layer(view, tilted=False, active=False)]).to_json())["layers"][0]
    assert layer["id"] == "mapclick~0" and layer["data"] == MC.WARMUP
    assert MC.clicked_point(MC.WARMUP, view)[:2] == (-84.85, -179.85)  # a real point, where no one clicks
