"""What the map draws under the zones besides the shipped land: the operator's tile basemap (URL checked, tiles chosen
for the view, nothing when unset) and the roads and urban areas layers with their conversion script."""

from __future__ import annotations

import importlib.util
import json
import math
import re
from pathlib import Path

import pytest
from shapely.geometry import Point

from airspace.app import basemap as B
from airspace.app import context_layers as C
from airspace.app import map_layers as L
from airspace.app import map_view as V
from airspace.app import tile_basemap as TB
from airspace.app.basemap import basemap_for

ROOT = Path(__file__).resolve().parents[1]
GOOD = "http://127.0.0.1:8080/{z}/{x}/{y}.png"


@pytest.mark.parametrize("url", [GOOD, "https://tiles.example.org/osm/{z}/{x}/{y}.png?key=abc",
                                 "  http://host:81/t?z={z}&x={x}&y={y}  "])
def test_tile_url_accepts_http_xyz_templates(url):
    assert TB.validate_tile_url(url) == url.strip()


@pytest.mark.parametrize("url, why", [
    ("ftp://host/{z}/{x}/{y}.png", "http:// or https://"),
    ("javascript:alert(1)//{z}/{x}/{y}", "http:// or https://"),
    ("file:///tmp/{z}/{x}/{y}.png", "http:// or https://"),
    ("//host/{z}/{x}/{y}.png", "http:// or https://"),
    ("http:///{z}/{x}/{y}.png", "no host"),
    ("http://host/{z}/{x}.png", "{y} exactly once"),
    ("http://host/{z}/{x}/{x}/{y}.png", "{x} exactly once"),
    ("http://{s}.tile.example.org/{z}/{x}/{y}.png", "without placeholders"),
    ("http://host/{z}/{x}/{y}{r}.png", "only {z}, {x} and {y}"),
    ("http://host/{z}/{x}/{y}.png}", "only {z}, {x} and {y}"),
    ("http://host/{z}/{x}/{y}.png\" onerror=\"x", "quote"),
    ("http://host/a b/{z}/{x}/{y}.png", "space"),
])
def test_tile_url_refuses_anything_else_with_a_reason(url, why):
    with pytest.raises(TB.TileUrlError) as e:
        TB.validate_tile_url(url)
    assert why in str(e.value) and TB.TILE_URL_ENV in str(e.value)


def test_tile_basemap_is_off_unless_configured():
    assert TB.configured({}) == (None, None)
    assert TB.configured({TB.TILE_URL_ENV: "   "}) == (None, None)
    assert TB.configured({TB.TILE_URL_ENV: GOOD}) == (GOOD, None)
    url, problem = TB.configured({TB.TILE_URL_ENV: "ftp://x/{z}/{x}/{y}"})
    assert url is None and problem.startswith("Tile basemap off:")
    assert TB.network_note({}) == "offline: no request leaves this machine"
    assert TB.network_note({TB.TILE_URL_ENV: GOOD}).startswith("map tiles from 127.0.0.1:8080 ")


def test_tile_bounds_are_web_mercator_tiles():
    w, s, e, n = TB.tile_bounds(0, 0, 0)
    assert (w, e) == (-180.0, 180.0) and math.isclose(n, 85.0511, abs_tol=1e-4) and math.isclose(s, -n)
    assert TB.tile_bounds(1, 1, 0) == pytest.approx([0.0, 0.0, 180.0, n])
    assert TB.tile_url(GOOD, 3, 4, 5) == "http://127.0.0.1:8080/3/4/5.png"


@pytest.mark.parametrize("lon, lat, zoom, pitch", [(114.1, 22.4, 9.5, 45), (-71.0, 42.36, 12.2, 0),
                                                     (179.9, -16.5, 7.0, 0), (0.0, 20.0, 1.0, 0)])
def test_tiles_cover_the_view_sharply_with_a_coarser_ring(lon, lat, zoom, pitch):
    coarse, sharp = TB.tiles_for_view(lon, lat, zoom, pitch)
    assert 0 < len(sharp) <= TB.MAX_TILES and len(coarse) <= 16
    z = sharp[0][0]
    assert all(t[0] == z for t in sharp) and len(set(sharp)) == len(sharp)
    assert z >= min(TB.MAX_TILE_ZOOM, math.floor(zoom + 0.5) + 1) - 1  # at most one zoom coarser than sharp
    assert 512 * 2 ** zoom / 2 ** z <= 2 * 256 * 1.42  # a tile is never blown up past ~2.8x
    centre = Point(lon, lat)
    assert any(_box(TB.tile_bounds(*t)).intersects(centre) for t in sharp)  # the view's centre is tiled
    if coarse:
        assert all(t[0] == max(0, z - TB.COARSE_STEP) for t in coarse)


def _box(b):
    from shapely.geometry import box

    return box(*b)


def _london():
    from airspace.core.records import CircleGeometry, Limit, ZoneRecord
    from airspace.geo.volumes import volumes_from_records

    rec = ZoneRecord(message=0, zone=0, id="A1000/26", status="ok", geometry=CircleGeometry(center=(51.5, -0.12),
                     radius_m=1852.0), lower=Limit(ref="SFC", ft=0, m=0, raw="SFC"),
                     upper=Limit(ref="AGL", ft=400, m=121.9, raw="400FT AGL"), text="x")
    return volumes_from_records([rec])


def test_deck_without_tile_url_references_no_server(monkeypatch):
    monkeypatch.delenv(TB.TILE_URL_ENV, raising=False)
    vs = _london()
    text = L.build_deck(vs, None, basemap=basemap_for(V.bounds_of(vs))).to_json()
    assert "http" not in text and "BitmapLayer" not in text


def test_deck_with_tile_url_draws_tiles_first_instead_of_the_land(monkeypatch):
    monkeypatch.setenv(TB.TILE_URL_ENV, GOOD)
    vs = _london()
    spec = json.loads(L.build_deck(vs, None, basemap=basemap_for(V.bounds_of(vs))).to_json())
    ids = [layer["id"] for layer in spec["layers"]]
    tiles = [layer for layer in spec["layers"] if layer["@@type"] == "BitmapLayer"]
    assert tiles and ids[:len(tiles)] == [t["id"] for t in tiles]  # under everything else
    assert "land" not in ids and "coastline" not in ids and "borders" in ids
    assert all(t["image"].startswith("http://127.0.0.1:8080/") and not t["pickable"] for t in tiles)
    z, x, y = (int(v) for v in tiles[-1]["image"].removesuffix(".png").split("/")[-3:])
    assert tiles[-1]["bounds"] == pytest.approx(TB.tile_bounds(z, x, y))
    monkeypatch.setenv(TB.TILE_URL_ENV, "ftp://127.0.0.1/{z}/{x}/{y}.png")  # refused: the shipped basemap again
    assert "BitmapLayer" not in L.build_deck(vs, None, basemap=basemap_for(V.bounds_of(vs))).to_json()


# ---------------------------------------------------------------------------------------------------------------
# Roads and urban areas
# ---------------------------------------------------------------------------------------------------------------


def _converter():
    spec = importlib.util.spec_from_file_location("context_convert", ROOT / "data/basemap/context_convert.py")
    mod = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mod)
    return mod


def _ne_road(kind, coords, rank=5, cla="Road"):
    return {"type": "Feature", "properties": {"featurecla": cla, "type": kind, "scalerank": rank},
            "geometry": {"type": "LineString", "coordinates": coords}}


NE_ROADS = {"type": "FeatureCollection", "features": [
    _ne_road("Major Highway", [[-0.5, 51.5], [-0.3000004, 51.5000001], [-0.3, 51.5], [0.3, 51.6]]),
    _ne_road("Secondary Highway", [[-0.1, 51.2], [-0.1, 51.8]], rank=7),
    _ne_road("Road", [[0.2, 51.2], [0.2, 51.3]], rank=11),  # too minor
    _ne_road("Track", [[0.0, 51.0], [0.1, 51.1]]),
    _ne_road("Ferry Route", [[1.0, 51.0], [1.5, 51.0]], cla="Ferry"),
    {"type": "Feature", "properties": {"featurecla": "Road", "type": "Beltway", "scalerank": 4},
     "geometry": {"type": "MultiLineString", "coordinates": [[[-0.2, 51.4], [-0.0, 51.4]], [[0.0, 51.4], [0.1, 51.45]]]}},
]}
NE_URBAN = {"type": "FeatureCollection", "features": [
    {"type": "Feature", "properties": {"scalerank": 2, "featurecla": "Urban area", "area_sqkm": 1500},
     "geometry": {"type": "Polygon", "coordinates": [[[-0.4, 51.3], [0.2, 51.3], [0.2, 51.7], [-0.4, 51.7], [-0.4, 51.3]]]}},
    {"type": "Feature", "properties": {"scalerank": 9, "featurecla": "Urban area", "area_sqkm": 0.01},
     "geometry": {"type": "Polygon", "coordinates": [[[5.0, 5.0], [5.001, 5.0], [5.001, 5.001], [5.0, 5.0]]]}},
]}


def test_conversion_keeps_major_classes_simplified_and_rounded(tmp_path):
    cv = _converter()
    (tmp_path / "r.geojson").write_text(json.dumps(NE_ROADS))
    (tmp_path / "u.geojson").write_text(json.dumps(NE_URBAN))
    stats = cv.convert(tmp_path / "r.geojson", tmp_path / "u.geojson", tmp_path)
    roads = json.loads((tmp_path / "roads.geojson").read_text())
    by_k = {f["properties"]["k"]: f["geometry"]["coordinates"] for f in roads["features"]}
    assert sorted(by_k) == [1, 2] and stats["roads_k1"] == 3 and stats["roads_k2"] == 1  # highway + 2 beltway parts
    assert by_k[2] == [[[-0.1, 51.2], [-0.1, 51.8]]]
    assert [-0.3, 51.5] in by_k[1][0] and len(by_k[1][0]) == 3  # the near-duplicate point rounded away, once
    urban = json.loads((tmp_path / "urban_areas.geojson").read_text())
    assert stats["urban_polygons"] == 1 and urban["features"][0]["geometry"]["type"] == "MultiPolygon"
    flat = json.dumps(roads) + json.dumps(urban)
    assert all(len(n.split(".")[1]) <= 3 for n in re.findall(r"-?\d+\.\d+", flat))


@pytest.fixture
def context_dir(tmp_path, monkeypatch):
    """The basemap folder as shipped, plus roads and urban areas converted from the Natural-Earth-shaped sample."""
    for p in B.BASEMAP_DIR.iterdir():
        if p.suffix in (".geojson", ".json"):
            (tmp_path / p.name).symlink_to(p)
    (tmp_path / "r.geojson").write_text(json.dumps(NE_ROADS))
    (tmp_path / "u.geojson").write_text(json.dumps(NE_URBAN))
    _converter().convert(tmp_path / "r.geojson", tmp_path / "u.geojson", tmp_path)
    monkeypatch.setattr(B, "BASEMAP_DIR", tmp_path)
    for f in (B.load_geojson, C._parts, C.clip):
        f.cache_clear()
    yield tmp_path
    for f in (B.load_geojson, C._parts, C.clip):
        f.cache_clear()


def test_roads_and_urban_areas_drawn_under_the_zones_when_zoomed_in(context_dir, monkeypatch):
    monkeypatch.delenv(TB.TILE_URL_ENV, raising=False)
    vs = _london()
    basemap = basemap_for(V.bounds_of(vs))
    spec = json.loads(L.build_deck(vs, None, basemap=basemap).to_json())
    ids = [layer["id"].split("~")[0] for layer in spec["layers"]]
    assert ids[:6] == ["land", "coastline", "borders", "urban", "roads_minor", "roads_major"]
    assert ids.index("roads_major") < ids.index("volumes")
    by_id = {layer["id"]: layer for layer in spec["layers"]}
    assert not by_id["roads_major"]["pickable"] and by_id["urban"]["getFillColor"][3] < 128  # faint
    assert len(by_id["roads_major"]["data"]["features"]) == 3
    # a world view (or a region seen from far away) gets none of them
    world = json.loads(L.build_deck(vs, None, basemap=basemap,
                                    view=V.view_for_bounds((-10, 40, 20, 60))).to_json())
    assert not {"urban", "roads_minor", "roads_major"} & {layer["id"] for layer in world["layers"]}
    assert C.context_for(basemap_for(None), 12.0) == {}


def test_without_the_files_the_map_is_as_before(monkeypatch, tmp_path):
    monkeypatch.setattr(B, "BASEMAP_DIR", tmp_path)
    C._parts.cache_clear()
    C.clip.cache_clear()
    try:
        assert C.context_for({"coast_region": (-2.0, 49.0, 2.0, 54.0)}, 10.0) == {}
    finally:
        C._parts.cache_clear()
        C.clip.cache_clear()


def test_page_says_why_a_tile_url_is_refused_and_stays_offline(monkeypatch):
    """The real page (Streamlit AppTest): a refused template is shown with its reason in the sidebar, no tile layer
    is drawn, and the head line still says offline; a good one is named in the head line."""
    from streamlit.testing.v1 import AppTest
    from test_app_dashboard import SCRIPT, _background_done, _deck

    monkeypatch.setenv(TB.TILE_URL_ENV, "http://{s}.tiles.example.org/{z}/{x}/{y}.png")
    _background_done()
    at = AppTest.from_file(SCRIPT, default_timeout=180)
    at.run()
    assert not at.exception
    warnings = [w.value for w in at.sidebar.warning]
    assert any(w.startswith("Tile basemap off:") and "{s}" in w for w in warnings), warnings
    assert "BitmapLayer" not in json.dumps(_deck(at))
    assert any("offline: no request leaves this machine" in h.proto.body for h in at.get("html"))
    monkeypatch.setenv(TB.TILE_URL_ENV, GOOD)
    at.run()
    assert not [w for w in at.sidebar.warning if w.value.startswith("Tile basemap")]
    assert "BitmapLayer" in json.dumps(_deck(at))
    assert any("map tiles from 127.0.0.1:8080" in h.proto.body for h in at.get("html"))
