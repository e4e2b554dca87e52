"""One-off conversion of Natural Earth 1:10m land (npm ``world-atlas@2``, TopoJSON) to the compact GeoJSON we ship.

Kept for provenance; it is never run by the app. Reproduce with::

    cd /tmp && npm pack world-atlas@2 && tar xzf world-atlas-2.0.2.tgz
    .venv/bin/python data/basemap/convert.py /tmp/package/land-10m.json data/basemap

Writes ``land.geojson`` (filled land polygons) and ``coastline.geojson`` (the land outlines as lines). The TopoJSON
arcs are decoded here (delta-encoded quantised integers, see the TopoJSON specification), then each geometry is
simplified with shapely (topology-preserving, ``TOLERANCE_DEG``) and coordinates are rounded to ``DECIMALS``
places (about 100 m), far finer than what a 1:10m source can resolve anyway. Islands smaller than ``MIN_AREA_DEG2``
are dropped from both files so the browser has less to tessellate.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

from shapely.geometry import LineString, MultiPolygon, Polygon, mapping

TOLERANCE_DEG = 0.01
DECIMALS = 3
MIN_AREA_DEG2 = 0.0005


def decode_arcs(topology: dict) -> list[list[tuple[float, float]]]:
    """Absolute lon/lat points of every arc (undoing delta encoding and quantisation)."""
    (sx, sy), (tx, ty) = topology["transform"]["scale"], topology["transform"]["translate"]
    arcs = []
    for arc in topology["arcs"]:
        x = y = 0
        pts = []
        for dx, dy in arc:
            x += dx
            y += dy
            pts.append((x * sx + tx, y * sy + ty))
        arcs.append(pts)
    return arcs


def ring(arc_ids: list[int], arcs: list[list[tuple[float, float]]]) -> list[tuple[float, float]]:
    """Stitch arcs into one ring; a negative index ``~i`` means arc ``i`` reversed. Shared end points appear once."""
    pts: list[tuple[float, float]] = []
    for i in arc_ids:
        a = arcs[i] if i >= 0 else arcs[~i][::-1]
        pts.extend(a if not pts else a[1:])
    return pts


def polygons(geom: dict, arcs) -> list[Polygon]:
    if geom["type"] == "Polygon":
        parts = [geom["arcs"]]
    elif geom["type"] == "MultiPolygon":
        parts = geom["arcs"]
    else:
        return []
    return [Polygon(ring(p[0], arcs), [ring(h, arcs) for h in p[1:]]) for p in parts]


def _round(obj):
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], float):
            return [round(v, DECIMALS) for v in obj]
        return [_round(o) for o in obj]
    return obj


def convert(src: Path, out_dir: Path) -> dict[str, int]:
    topo = json.loads(src.read_text())
    arcs = decode_arcs(topo)
    polys: list[Polygon] = []
    for geom in topo["objects"]["land"]["geometries"]:
        polys.extend(polygons(geom, arcs))
    kept = []
    for p in polys:
        if p.area < MIN_AREA_DEG2:
            continue
        s = p.simplify(TOLERANCE_DEG, preserve_topology=True)
        if not s.is_empty and s.area > 0:
            kept.append(s)
    land = {
        "type": "FeatureCollection",
        "features": [
            {"type": "Feature", "properties": {}, "geometry": _round(mapping(MultiPolygon(kept))["coordinates"])}
        ],
    }
    land["features"][0]["geometry"] = {"type": "MultiPolygon", "coordinates": land["features"][0]["geometry"]}
    lines = []
    for p in kept:
        for r in [p.exterior, *p.interiors]:
            lines.append(list(LineString(r.coords).coords))
    coast = {
        "type": "FeatureCollection",
        "features": [
            {"type": "Feature", "properties": {}, "geometry": {"type": "MultiLineString", "coordinates": _round(lines)}}
        ],
    }
    out_dir.mkdir(parents=True, exist_ok=True)
    sizes = {}
    for name, obj in (("land.geojson", land), ("coastline.geojson", coast)):
        path = out_dir / name
        path.write_text(json.dumps(obj, separators=(",", ":")))
        sizes[name] = path.stat().st_size
    sizes["polygons"] = len(kept)
    sizes["vertices"] = sum(len(line) for line in lines)
    return sizes


if __name__ == "__main__":
    print(convert(Path(sys.argv[1]), Path(sys.argv[2])))
