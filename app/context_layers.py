"""What lies under the zones besides land, coast and borders: major roads and urban areas (Natural Earth 1:10m,
``data/basemap/roads.geojson`` and ``urban_areas.geojson`` where this checkout has them, see PROVENANCE.md) and the
operator's optional tile basemap (``app/tile_basemap.py``).

Roads and urban areas help to answer "is my site inside?" only when the view is a city or a region, and they cost
the browser per vertex; so they are drawn only when the view the page opens on is zoomed in to ``CONTEXT_MIN_ZOOM``
or closer (a view spanning about 350 km or less) and clipped to the basemap's coast box around the zones: urban areas
as a faint fill, roads as thin lines, under the zones and the labels. With a tile basemap on, its tiles are drawn
first and the shipped land fill and coastline are left out (they would tint and double the tiles' own); the country
borders, roads and urban areas stay over it.
"""

from __future__ import annotations

from functools import cache, lru_cache

import pydeck as pdk
import shapely
from shapely.geometry import box, mapping, shape
from shapely.strtree import STRtree

from airspace.app import basemap as B
from airspace.app import tile_basemap as TB

ROADS_FILE = "roads.geojson"
URBAN_FILE = "urban_areas.geojson"
CONTEXT_MIN_ZOOM = 6.5  # deck.gl zoom of the opened view from which roads and urban areas are drawn
URBAN_FILL = [120, 110, 95, 90]  # faint: the land shows through
ROAD_MAJOR = [205, 185, 140, 200]
ROAD_MINOR = [160, 150, 125, 160]
FLAT = {"depthCompare": "always", "depthWriteEnabled": False}
REPLACED_BY_TILES = ("land", "coastline")


@cache
def _parts(name: str) -> tuple[list, list[int], STRtree | None]:
    """The geometries of one context file (lines or polygons), each feature's ``k`` (road class: 1 major, 2
    other; 0 for urban areas), and a spatial index; empty where the file is not in this checkout."""
    path = B.BASEMAP_DIR / name
    if not path.is_file():
        return [], [], None
    geoms, kinds = [], []
    for f in B.load_geojson(name)["features"]:
        g = shape(f["geometry"])
        parts = list(g.geoms) if hasattr(g, "geoms") else [g]
        geoms.extend(parts)
        kinds.extend([int((f.get("properties") or {}).get("k", 0))] * len(parts))
    return geoms, kinds, STRtree(geoms) if geoms else None


@lru_cache(maxsize=32)
def clip(name: str, region: tuple[float, float, float, float]) -> dict:
    """The features of ``name`` inside ``region`` as a FeatureCollection, with the class ``k`` kept."""
    geoms, kinds, tree = _parts(name)
    feats = []
    if tree is not None:
        for i in sorted(int(i) for i in tree.query(box(*region))):
            g = shapely.clip_by_rect(geoms[i], *region)
            if not g.is_empty:
                feats.append({"type": "Feature", "properties": {"k": kinds[i]}, "geometry": B._round(mapping(g))})
    return {"type": "FeatureCollection", "features": feats}


def context_for(basemap: dict, zoom: float) -> dict[str, dict]:
    """``urban``, ``roads_minor`` and ``roads_major`` to draw under the zones (those with features): none unless the
    basemap is a detail region and the view is zoomed in to ``CONTEXT_MIN_ZOOM``."""
    box_ = basemap.get("coast_region")
    if box_ is None or zoom < CONTEXT_MIN_ZOOM:
        return {}
    roads = clip(ROADS_FILE, tuple(box_))["features"]
    out = {"urban": clip(URBAN_FILE, tuple(box_))["features"],
           "roads_minor": [f for f in roads if f["properties"]["k"] != 1],
           "roads_major": [f for f in roads if f["properties"]["k"] == 1]}
    return {k: {"type": "FeatureCollection", "features": v} for k, v in out.items() if v}


def _layer(layer_id: str, data: dict, **style) -> pdk.Layer:
    return pdk.Layer("GeoJsonLayer", data=data, id=layer_id, pickable=False, parameters=FLAT, get_line_width=1,
                     line_width_units="pixels", **style)


def context_layers(context: dict[str, dict]) -> list[pdk.Layer]:
    """Urban areas (a faint fill, no outline), then the other roads (1 px) and the major ones (1.5 px) over them."""
    out = []
    if "urban" in context:
        out.append(_layer("urban", context["urban"], filled=True, stroked=False, get_fill_color=URBAN_FILL))
    for key, colour, width in (("roads_minor", ROAD_MINOR, 1), ("roads_major", ROAD_MAJOR, 1.5)):
        if key in context:
            out.append(_layer(key, context[key], filled=False, stroked=True, get_line_color=colour,
                              line_width_min_pixels=width))
    return out


def under_zones(base: list[pdk.Layer], basemap: dict, view: pdk.ViewState) -> list[pdk.Layer]:
    """Everything drawn under the zones, in order: the operator's tiles (when configured), the shipped basemap
    layers ``base`` (less the land fill and coastline under tiles), urban areas and roads."""
    template, _ = TB.configured()
    layers = []
    if template:
        layers = TB.tile_layers(template, view)
        base = [lyr for lyr in base if lyr.id not in REPLACED_BY_TILES]
    return layers + base + context_layers(context_for(basemap, float(view.zoom)))
