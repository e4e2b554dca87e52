"""One-off conversion of Natural Earth 1:10m *roads* and *urban areas* (GeoJSON, as in the natural-earth-vector
repository's ``geojson/`` folder) to the compact files the map draws under the zones (``app/context_layers.py``).

Kept for provenance; it is never run by the app. Reproduce (see PROVENANCE.md for where the sources come from)::

    .venv/bin/python data/basemap/context_convert.py /path/to/ne_10m_roads.geojson \
        /path/to/ne_10m_urban_areas.geojson data/basemap

Writes ``roads.geojson``: the road classes worth a line at a city-to-region view, as two features (property ``k``:
1 for major highways, beltways and bypasses; 2 for secondary highways and other roads of scale rank at most
``MAX_ROAD_RANK``), each one MultiLineString; tracks, ferries and unknown ways are dropped. And
``urban_areas.geojson``: every urban area of at least ``MIN_URBAN_DEG2`` as one MultiPolygon (``k`` 0). Both are
simplified with shapely (topology-preserving, ``TOLERANCE`` degrees) and rounded to ``DECIMALS`` (~100 m).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from shapely.geometry import LineString, MultiPolygon, Polygon, mapping, shape

MAJOR = {"Major Highway", "Beltway", "Bypass"}
OTHER = {"Secondary Highway", "Road"}
MAX_ROAD_RANK = 8  # Natural Earth scalerank: lower is more important (3..12 for roads)
MIN_URBAN_DEG2 = 1e-5  # about 0.1 km^2
TOLERANCE = 0.002  # degrees (~200 m)
DECIMALS = 3


def road_class(props: dict) -> int:
    """1 (major), 2 (other kept) or 0 (dropped) for one Natural Earth road's properties."""
    if (props.get("featurecla") or "Road") != "Road":
        return 0
    kind = props.get("type") or ""
    if kind in MAJOR:
        return 1
    rank = props.get("scalerank")
    if kind in OTHER and (rank is None or int(rank) <= MAX_ROAD_RANK):
        return 2
    return 0


def _lines(geom) -> list[LineString]:
    return [g for g in getattr(geom, "geoms", [geom]) if isinstance(g, LineString)]


def _polys(geom) -> list[Polygon]:
    return [g for g in getattr(geom, "geoms", [geom]) if isinstance(g, Polygon)]


def _round(coords, nd: int = DECIMALS):
    if isinstance(coords, (list, tuple)) and coords and isinstance(coords[0], (int, float)):
        return [round(float(c), nd) for c in coords[:2]]
    return [_round(c, nd) for c in coords]


def _dedupe(line: list[list[float]]) -> list[list[float]]:
    """Consecutive points that rounding made equal, once."""
    out = [line[0]]
    for p in line[1:]:
        if p != out[-1]:
            out.append(p)
    return out


def convert_roads(src: dict) -> tuple[dict, dict[str, int]]:
    by_class: dict[int, list] = {1: [], 2: []}
    for f in src["features"]:
        k = road_class(f.get("properties") or {})
        if not k or not f.get("geometry"):
            continue
        for ln in _lines(shape(f["geometry"])):
            s = ln.simplify(TOLERANCE, preserve_topology=True)
            pts = _dedupe(_round([list(c) for c in s.coords]))
            if len(pts) >= 2:
                by_class[k].append(pts)
    feats = [{"type": "Feature", "properties": {"k": k},
              "geometry": {"type": "MultiLineString", "coordinates": lines}} for k, lines in by_class.items() if lines]
    stats = {f"roads_k{k}": len(v) for k, v in by_class.items()}
    stats["road_vertices"] = sum(len(p) for v in by_class.values() for p in v)
    return {"type": "FeatureCollection", "features": feats}, stats


def convert_urban(src: dict) -> tuple[dict, dict[str, int]]:
    kept = []
    for f in src["features"]:
        if not f.get("geometry"):
            continue
        for p in _polys(shape(f["geometry"])):
            if p.area < MIN_URBAN_DEG2:
                continue
            s = p.simplify(TOLERANCE, preserve_topology=True)
            if not s.is_empty and s.area > 0:
                kept.extend(_polys(s))
    geom = {"type": "MultiPolygon", "coordinates": _round(mapping(MultiPolygon(kept))["coordinates"]) if kept else []}
    out = {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {"k": 0}, "geometry": geom}]}
    return out, {"urban_polygons": len(kept)}


def convert(roads: Path, urban: Path, out_dir: Path) -> dict[str, int]:
    stats: dict[str, int] = {}
    for name, fn, src in (("roads.geojson", convert_roads, roads), ("urban_areas.geojson", convert_urban, urban)):
        obj, s = fn(json.loads(Path(src).read_text(encoding="utf-8")))
        path = Path(out_dir) / name
        path.write_text(json.dumps(obj, separators=(",", ":")), encoding="utf-8")
        stats.update(s)
        stats[name] = path.stat().st_size
    return stats


if __name__ == "__main__":
    print(convert(Path(sys.argv[1]), Path(sys.argv[2]), Path(sys.argv[3])))
