"""One-off conversion of Natural Earth 1:10m land (npm ``world-atlas@2``, TopoJSON) to the compact GeoJSON we ship.

Kept for provenance; it is never run by the app. Reproduce with::

    cd /tmp && npm pack world-atlas@2 && tar xzf world-atlas-2.0.2.tgz
    .venv/bin/python data/basemap/convert.py /tmp/package/land-10m.json data/basemap

Writes two levels of detail, each as ``land*.geojson`` (filled land polygons) and ``coastline*.geojson`` (the land
outlines as lines):

* detail (``land.geojson``, ``coastline.geojson``): simplified at 0.01 deg, 3 decimals (~100 m); the app clips it to
  the region around the zones, so only a small piece travels to the browser;
* overview (``land_overview.geojson``, ``coastline_overview.geojson``): 0.1 deg, 2 decimals, islands under
  0.02 deg^2 dropped; the whole world, drawn under the detail so zooming out still shows continents.

The TopoJSON arcs are decoded here (delta-encoded quantised integers, see the TopoJSON specification); rings that
cross the antimeridian (world-atlas is spherical) are cut at +-180 and Antarctica is closed along the pole, so the
flat map has no lines across it; then each polygon and line is simplified with shapely (topology-preserving) and
coordinates are rounded.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np
import shapely
from shapely.affinity import translate
from shapely.geometry import LineString, MultiLineString, MultiPolygon, Polygon, box, mapping

#: (suffix, simplification tolerance in degrees, decimals kept, smallest polygon kept in deg^2)
LEVELS = (("", 0.01, 3, 0.0005), ("_overview", 0.1, 2, 0.02))


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


def _unwrapped(pts: list[tuple[float, float]]) -> np.ndarray:
    """Ring points with continuous longitudes (world-atlas is spherical: a ring crossing the antimeridian jumps by
    360 deg there, which drawn flat becomes a line across the whole map)."""
    a = np.asarray(pts, dtype=float)
    a[:, 0] = np.unwrap(a[:, 0], period=360.0)
    return a


def _fold(geom) -> list:
    """Pieces of a geometry in unwrapped longitudes, cut at +-180 and shifted back into [-180, 180]."""
    minx, _, maxx, _ = geom.bounds
    out = []
    for k in range(int(np.floor((minx + 180) / 360)), int(np.floor((maxx + 180) / 360)) + 1):
        piece = geom.intersection(box(-180 + 360 * k, -90, 180 + 360 * k, 90))
        if not piece.is_empty:
            out.append(translate(piece, xoff=-360 * k))
    return out


def _flatten(geoms, kind) -> list:
    out = []
    for g in geoms:
        if isinstance(g, kind):
            out.append(g)
        elif hasattr(g, "geoms"):
            out.extend(_flatten(g.geoms, kind))
    return out


def polygons_and_lines(geom: dict, arcs) -> tuple[list[Polygon], list[LineString]]:
    """Land polygons and their coastlines, flat in [-180, 180]: rings crossing the antimeridian are cut there, and a
    ring around the pole (Antarctica) is closed along the pole for the fill (not for the coastline)."""
    parts = [geom["arcs"]] if geom["type"] == "Polygon" else geom["arcs"] if geom["type"] == "MultiPolygon" else []
    polys: list[Polygon] = []
    lines: list[LineString] = []
    for p in parts:
        rings = [_unwrapped(ring(r, arcs)) for r in p]
        ext = rings[0]
        fill = ext
        if abs(ext[-1, 0] - ext[0, 0]) > 180:  # winds around a pole
            pole = -90.0 if ext[:, 1].mean() < 0 else 90.0
            fill = np.vstack([ext, [[ext[-1, 0], pole], [ext[0, 0], pole]]])
        holes = []
        for h in rings[1:]:
            h = h.copy()
            h[:, 0] += 360 * np.round((ext[:, 0].mean() - h[:, 0].mean()) / 360)
            holes.append(h)
        poly = shapely.make_valid(Polygon(fill, holes))
        polys.extend(q for q in _flatten(_fold(poly), Polygon) if q.area > 0)
        for r in rings:
            lines.extend(_flatten(_fold(LineString(r)), LineString))
    return polys, lines


def _round(obj, decimals: int):
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], float):
            return [round(v, decimals) for v in obj]
        return [_round(o, decimals) for o in obj]
    return obj


def convert(src: Path, out_dir: Path) -> dict[str, int]:
    topo = json.loads(src.read_text())
    arcs = decode_arcs(topo)
    polys: list[Polygon] = []
    coast: list[LineString] = []
    for geom in topo["objects"]["land"]["geometries"]:
        p, c = polygons_and_lines(geom, arcs)
        polys.extend(p)
        coast.extend(c)
    out_dir.mkdir(parents=True, exist_ok=True)
    sizes: dict[str, int] = {}
    for suffix, tolerance, decimals, min_area in LEVELS:
        kept = []
        for p in polys:
            if p.area < min_area:
                continue
            s = p.simplify(tolerance, preserve_topology=True)
            if not s.is_empty and s.area > 0:
                kept.append(s)
        # coastline pieces of the same islands: a closed ring must enclose min_area; pieces cut at +-180 are kept
        lines = []
        for ln in coast:
            if ln.is_ring and Polygon(ln.coords).area < min_area:
                continue
            s = ln.simplify(tolerance, preserve_topology=True)
            if not s.is_empty and len(s.coords) >= 2:
                lines.append(list(s.coords))
        land_geom = {"type": "MultiPolygon", "coordinates": _round(mapping(MultiPolygon(kept))["coordinates"], decimals)}
        coast_geom = {"type": "MultiLineString", "coordinates": _round(lines, decimals)}
        for name, geom in ((f"land{suffix}.geojson", land_geom), (f"coastline{suffix}.geojson", coast_geom)):
            obj = {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {}, "geometry": geom}]}
            path = out_dir / name
            path.write_text(json.dumps(obj, separators=(",", ":")))
            sizes[name] = path.stat().st_size
        sizes[f"polygons{suffix}"] = len(kept)
        sizes[f"vertices{suffix}"] = sum(len(line) for line in lines)
    return sizes


if __name__ == "__main__":
    print(convert(Path(sys.argv[1]), Path(sys.argv[2])))
