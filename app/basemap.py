"""The shipped offline basemap (Natural Earth 1:10m land, coastline and country borders, country names and capitals,
``data/basemap``; see its PROVENANCE.md) and the airports of the ``airportsdata`` package.

The browser tessellates every land polygon it is given, and on a 2-core machine with software WebGL the full
1:10m world (148 000 vertices) costs seconds per map update. So the map gets two levels of detail:

* the **overview** world (0.1 deg, ~23 000 vertices) when the zones are spread over continents (or before any
  Run). With ``server.enableStaticServing`` (``app/.streamlit/config.toml``) it is a same-origin URL under
  ``app/static`` (a link to ``data/basemap``): fetched once from 127.0.0.1, and deck.gl keeps it across reruns
  because the URL does not change. Otherwise (AppTest, other configs) the GeoJSON is embedded in the deck JSON.
* the **detail** 1:10m data clipped to a box around the zones being shown (``region_box``) when they lie within
  ``DETAIL_MAX_SPAN_DEG``; embedded, a few kB to a few hundred kB, and drawn alone (see ``basemap_for``).

Nothing is fetched from anywhere but this machine.
"""

from __future__ import annotations

import json
import math
from functools import cache, lru_cache
from pathlib import Path

import shapely
from shapely.geometry import box, mapping, shape
from shapely.strtree import STRtree

import airspace.data

BASEMAP_DIR = Path(airspace.data.__file__).resolve().parent / "basemap"
FILES = {
    "land": "land.geojson",
    "coast": "coastline.geojson",
    "land_overview": "land_overview.geojson",
    "coast_overview": "coastline_overview.geojson",
    "borders": "borders.geojson",
    "borders_overview": "borders_overview.geojson",
}
PLACES_FILE = "places.json"
DETAIL_MAX_SPAN_DEG = 25.0  # zones spread wider than this: the overview is all one can see anyway
MIN_MARGIN_DEG = 8.0
MAX_MARGIN_DEG = 12.0
# The coastline is drawn as lines (deck.gl PathLayer), which costs far more per vertex than the land fill: under
# software WebGL the 1:10m coast of the 8-degree land box (~3 000 vertices around Shenzhen) took ~100 ms of every
# frame. So the coastline lines cover a tighter box (the zones plus COAST_MARGIN_DEG, or their span when larger):
# the whole first view and a zoom step or two out; beyond it the 1:10m land fill still draws the coast's shape.
COAST_MARGIN_DEG = 2.0
STATIC_PREFIX = "app/static/"  # where Streamlit serves <script dir>/static/ (app/static links to data/basemap)


class BasemapMissing(FileNotFoundError):
    """The shipped basemap files are not where they should be (a broken checkout)."""


def basemap_path(name: str) -> Path:
    path = BASEMAP_DIR / name
    if not path.is_file():
        raise BasemapMissing(f"offline basemap file missing: {path} (see data/basemap/PROVENANCE.md)")
    return path


@cache
def load_geojson(name: str) -> dict:
    """One basemap file parsed (cached for the life of the process)."""
    data = json.loads(basemap_path(name).read_text(encoding="utf-8"))
    if data.get("type") != "FeatureCollection" or not data.get("features"):
        raise BasemapMissing(f"{name} is not a non-empty GeoJSON FeatureCollection")
    return data


@cache
def _parts(kind: str) -> tuple[list, STRtree]:
    """The polygons (``land*``) or lines (``coast*``) of one basemap file, with a spatial index."""
    geom = shape(load_geojson(FILES[kind])["features"][0]["geometry"])
    parts = list(geom.geoms)
    return parts, STRtree(parts)


def region_box(bounds: tuple[float, float, float, float] | None) -> tuple[float, float, float, float] | None:
    """The box that gets 1:10m detail around ``bounds`` (lon/lat), or None when there is nothing small to detail.

    The box is the bounds grown by their span (within ``MIN_MARGIN_DEG``..``MAX_MARGIN_DEG``: zooming out a few
    steps still shows land) and snapped outward to whole degrees, so nearby selections share one cached clip."""
    if bounds is None:
        return None
    minx, miny, maxx, maxy = bounds
    span = max(maxx - minx, maxy - miny)
    if span > DETAIL_MAX_SPAN_DEG:
        return None
    m = min(max(MIN_MARGIN_DEG, span), MAX_MARGIN_DEG)
    return (
        float(max(-180, math.floor(minx - m))),
        float(max(-85, math.floor(miny - m))),
        float(min(180, math.ceil(maxx + m))),
        float(min(85, math.ceil(maxy + m))),
    )


def coast_box(bounds: tuple[float, float, float, float], region: tuple[float, float, float, float]) -> tuple[float, float, float, float]:
    """The box that gets 1:10m coastline lines: ``bounds`` grown by ``COAST_MARGIN_DEG`` (or by their span when
    larger), snapped outward to whole degrees and kept inside ``region`` (the land box)."""
    minx, miny, maxx, maxy = bounds
    m = max(COAST_MARGIN_DEG, maxx - minx, maxy - miny)
    return (
        max(region[0], float(math.floor(minx - m))),
        max(region[1], float(math.floor(miny - m))),
        min(region[2], float(math.ceil(maxx + m))),
        min(region[3], float(math.ceil(maxy + m))),
    )


def _round(obj, nd: int = 3):
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], float):
            return [round(v, nd) for v in obj]
        return [_round(o, nd) for o in obj]
    return obj


def _collection(geoms: list) -> dict:
    feats = []
    for g in geoms:
        if g.is_empty:
            continue
        feats.append({"type": "Feature", "properties": {}, "geometry": _round(mapping(g))})
    return {"type": "FeatureCollection", "features": feats}


@lru_cache(maxsize=64)
def _clip(kind: str, region: tuple[float, float, float, float]) -> dict:
    """The 1:10m ``land`` or ``coast`` inside ``region`` as a GeoJSON FeatureCollection."""
    parts, tree = _parts(kind)
    return _collection([shapely.clip_by_rect(parts[i], *region) for i in tree.query(box(*region))])


def detail_clip(region: tuple[float, float, float, float], coast_region: tuple[float, float, float, float] | None = None) -> tuple[dict, dict]:
    """(land inside ``region``, coastline inside ``coast_region`` or ``region``) of the 1:10m detail."""
    return _clip("land", region), _clip("coast", coast_region or region)


def warm() -> None:
    """Load and index the files and the airports now (about a second), so the first map does not pay for it."""
    for name in FILES.values():
        load_geojson(name)
    for kind in FILES:
        _parts(kind)
    places()
    towns()
    airports()


@cache
def places() -> dict[str, list[tuple[str, float, float]]]:
    """``countries`` (name at a label point) and ``capitals``, each ``(name, lon, lat)``."""
    data = json.loads(basemap_path(PLACES_FILE).read_text(encoding="utf-8"))
    return {k: [(str(n), float(lon), float(lat)) for n, lon, lat in v] for k, v in data.items()}


TOWNS_FILE = "towns.json"
#: at most this many towns are labelled in a detail region (the largest; the labels are decluttered afterwards)
MAX_TOWNS = 60


@cache
def towns() -> list[tuple[str, float, float, int]]:
    """GeoNames places of 15 000 people or more (``data/basemap/towns.json``, CC BY 4.0), ``(name, lon, lat,
    population)``, largest first; [] where the file is not in this checkout."""
    path = basemap_path(TOWNS_FILE)
    if not path.is_file():
        return []
    return [(str(n), float(lon), float(lat), int(pop)) for n, lon, lat, pop in json.loads(path.read_text("utf-8"))]


@cache
def airports() -> tuple[list[dict], STRtree]:
    """Every airport of ``airportsdata`` (ICAO code, name, IATA code, position), with a spatial index."""
    import airportsdata
    from shapely.geometry import Point

    rows = [{"icao": a["icao"], "iata": a.get("iata") or "", "name": a.get("name") or "", "lon": float(a["lon"]),
             "lat": float(a["lat"])} for a in airportsdata.load("ICAO").values()]
    return rows, STRtree([Point(r["lon"], r["lat"]) for r in rows])


#: at most this many airports are drawn around the zones (the nearest ones; those with scheduled service first)
MAX_AIRPORTS = 40
AIRPORT_NEAR_DEG = 0.5  # airfields without an IATA code are drawn only this close to the zones


def airports_near(bounds: tuple[float, float, float, float], box_: tuple[float, float, float, float]) -> list[dict]:
    """Airports inside ``box_`` worth a label: those with an IATA code (scheduled service), and any airfield within
    ``AIRPORT_NEAR_DEG`` of the zones' ``bounds``; the ``MAX_AIRPORTS`` nearest to the zones' centre."""
    rows, tree = airports()
    cx, cy = (bounds[0] + bounds[2]) / 2, (bounds[1] + bounds[3]) / 2
    near = (bounds[0] - AIRPORT_NEAR_DEG, bounds[1] - AIRPORT_NEAR_DEG, bounds[2] + AIRPORT_NEAR_DEG, bounds[3] + AIRPORT_NEAR_DEG)
    out = []
    for i in tree.query(box(*box_)):
        a = rows[int(i)]
        inside = near[0] <= a["lon"] <= near[2] and near[1] <= a["lat"] <= near[3]
        if a["iata"] or inside:
            out.append(a)
    out.sort(key=lambda a: (a["lon"] - cx) ** 2 + (a["lat"] - cy) ** 2)
    return out[:MAX_AIRPORTS]


def context_for(bounds: tuple[float, float, float, float] | None, region: tuple[float, float, float, float] | None,
                coast_region: tuple[float, float, float, float] | None) -> dict:
    """What labels the map around zones within ``bounds``: ``airports`` near them, and ``places`` (capitals and
    country names, each ``(name, lon, lat, kind)``) in the detail ``region``; the world view (no region) gets the
    country names only."""
    p = places()
    if region is None or bounds is None:
        return {"airports": [], "places": [(n, lon, lat, "country") for n, lon, lat in p["countries"]]}

    def inside(lon, lat):
        return region[0] <= lon <= region[2] and region[1] <= lat <= region[3]

    named = [(n, lon, lat, "capital") for n, lon, lat in p["capitals"] if inside(lon, lat)]
    capitals = {n for n, *_ in named}  # Hong Kong, Singapore...: the city, not the territory's name again
    near = coast_region or region
    town_rows = [(n, lon, lat, "town") for n, lon, lat, _ in towns()
                 if near[0] <= lon <= near[2] and near[1] <= lat <= near[3] and n not in capitals][:MAX_TOWNS]
    named += town_rows
    named += [(n, lon, lat, "country") for n, lon, lat in p["countries"] if inside(lon, lat) and n not in capitals]
    return {"airports": airports_near(bounds, coast_region or region), "places": named}


def basemap_for(bounds: tuple[float, float, float, float] | None, *, served: bool = False) -> dict:
    """Everything ``map_layers.basemap_layers`` draws for zones within ``bounds``: either the world overview
    (``land_overview``/``coast_overview``/``borders_overview``) or, when a detail region applies, ``region`` (the box)
    with ``land``, the 1:10m land clipped to it, and ``coast`` and ``borders``, the 1:10m lines clipped to the tighter
    ``coast_region`` (``coast_box``); embedded, a few kB to a hundred kB. ``context``: the labels (``context_for``).

    The overview is given as same-origin URLs when ``served`` (fetched once, kept by deck.gl across reruns), else
    as GeoJSON dicts. It is left out in region mode: seen zoomed-in and tilted, the continent-sized overview
    polygons cost seconds per frame under software WebGL, while the clipped detail costs milliseconds."""
    region = region_box(bounds)
    if region is not None:
        coast_region = coast_box(bounds, region)
        land, coast = detail_clip(region, coast_region)
        return {"region": region, "coast_region": coast_region, "land": land, "coast": coast,
                "borders": _clip("borders", coast_region), "context": context_for(bounds, region, coast_region)}
    names = ("land_overview", "coast_overview", "borders_overview")
    out = {k: (STATIC_PREFIX + FILES[k]) if served else load_geojson(FILES[k]) for k in names}
    out["context"] = context_for(None, None, None)
    return out
