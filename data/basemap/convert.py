"""One-off conversion of Natural Earth 1:10m land (npm ``world-atlas@2``, TopoJSON) to the compact GeoJSON we ship.

Kept for provenance; it is never run by the app. Reproduce with::

    cd /tmp && npm pack world-atlas@2 && tar xzf world-atlas-2.0.2.tgz
    .venv/bin/python data/basemap/convert.py /tmp/package/land-10m.json data/basemap
    pip download --no-deps geopandas==0.14.4 -d /tmp && cd /tmp && unzip -q geopandas-0.14.4-py3-none-any.whl 'geopandas/datasets/*'
    .venv/bin/python data/basemap/convert.py --context /tmp/package/countries-10m.json \
        /tmp/geopandas/datasets/naturalearth_cities/naturalearth_cities data/basemap

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
from shapely.geometry import LineString, MultiPolygon, Polygon, box, mapping

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


# ----------------------------------------------------------------------------------------------------------------
# Context: country borders, country names and capitals (``--context``)
# ----------------------------------------------------------------------------------------------------------------

#: (suffix, simplification tolerance in degrees, decimals kept) of the border lines
BORDER_LEVELS = (("", 0.01, 3), ("_overview", 0.1, 2))


def border_lines(topo: dict) -> list[LineString]:
    """Land borders: the arcs that two different countries share (an arc used by one country only is coast), as
    in topojson's ``mesh(a !== b)``; flat in [-180, 180] like the land."""
    arcs = decode_arcs(topo)
    users: dict[int, set[int]] = {}
    for gi, geom in enumerate(topo["objects"]["countries"]["geometries"]):
        parts = [geom["arcs"]] if geom["type"] == "Polygon" else geom["arcs"] if geom["type"] == "MultiPolygon" else []
        for poly in parts:
            for r in poly:
                for i in r:
                    users.setdefault(i if i >= 0 else ~i, set()).add(gi)
    lines: list[LineString] = []
    for i, who in sorted(users.items()):
        if len(who) >= 2 and len(arcs[i]) >= 2:
            lines.extend(_flatten(_fold(LineString(_unwrapped(arcs[i]))), LineString))
    return lines


def country_labels(topo: dict) -> list[dict]:
    """A label point (shapely's representative point of the largest part) per named country."""
    arcs = decode_arcs(topo)
    out = []
    for geom in topo["objects"]["countries"]["geometries"]:
        name = (geom.get("properties") or {}).get("name")
        parts = [geom["arcs"]] if geom["type"] == "Polygon" else geom.get("arcs", []) if geom["type"] == "MultiPolygon" else []
        # rings of fewer than 4 points (slivers of the 10m topology) make no polygon
        parts = [[r for r in part if len(ring(r, arcs)) >= 4] for part in parts]
        parts = [part for part in parts if part]
        polys, _ = polygons_and_lines({"type": "MultiPolygon", "arcs": parts}, arcs)
        if not name or not polys:
            continue
        big = max(polys, key=lambda q: q.area)
        p = big.representative_point()
        out.append({"name": name, "lon": round(p.x, 3), "lat": round(p.y, 3), "area": round(sum(q.area for q in polys), 1)})
    return sorted(out, key=lambda r: -r["area"])


def shapefile_points(stem: Path) -> list[tuple[str, float, float]]:
    """(name, lon, lat) of a point shapefile with one ``name`` field (Natural Earth's cities as geopandas ships
    them): the .shp point records and the .dbf names read directly, encoding from the .cpg."""
    import struct

    enc = (stem.with_suffix(".cpg").read_text().strip() if stem.with_suffix(".cpg").exists() else "latin-1") or "latin-1"
    dbf = stem.with_suffix(".dbf").read_bytes()
    n, header_len, record_len = struct.unpack("<IHH", dbf[4:12])
    names = [dbf[header_len + i * record_len + 1: header_len + (i + 1) * record_len].decode(enc).strip() for i in range(n)]
    shp = stem.with_suffix(".shp").read_bytes()
    pts, o = [], 100
    while o < len(shp):
        _, words = struct.unpack(">ii", shp[o:o + 8])
        kind, x, y = struct.unpack("<idd", shp[o + 8:o + 28])
        if kind == 1:
            pts.append((x, y))
        o += 8 + 2 * words
    return [(name, round(x, 3), round(y, 3)) for name, (x, y) in zip(names, pts)]


def convert_context(countries: Path, cities: Path, out_dir: Path) -> dict[str, int]:
    """``borders*.geojson`` (two levels, like the land) and ``places.json`` (country names and capitals)."""
    topo = json.loads(countries.read_text())
    lines = border_lines(topo)
    sizes: dict[str, int] = {}
    for suffix, tolerance, decimals in BORDER_LEVELS:
        kept = []
        for ln in lines:
            s = ln.simplify(tolerance, preserve_topology=True)
            if not s.is_empty and len(s.coords) >= 2:
                kept.append(_round([list(c) for c in s.coords], decimals))
        obj = {"type": "FeatureCollection", "features": [{"type": "Feature", "properties": {},
                                                          "geometry": {"type": "MultiLineString", "coordinates": kept}}]}
        path = out_dir / f"borders{suffix}.geojson"
        path.write_text(json.dumps(obj, separators=(",", ":")))
        sizes[path.name] = path.stat().st_size
        sizes[f"border_vertices{suffix}"] = sum(len(k) for k in kept)
    places = {
        "countries": [[c["name"], c["lon"], c["lat"]] for c in country_labels(topo)],
        "capitals": [[name, lon, lat] for name, lon, lat in shapefile_points(cities)],
    }
    path = out_dir / "places.json"
    path.write_text(json.dumps(places, ensure_ascii=False, separators=(",", ":")))
    sizes[path.name] = path.stat().st_size
    sizes["countries"], sizes["capitals"] = len(places["countries"]), len(places["capitals"])
    return sizes


if __name__ == "__main__":
    if sys.argv[1] == "--context":
        print(convert_context(Path(sys.argv[2]), Path(sys.argv[3]), Path(sys.argv[4])))
    else:
        print(convert(Path(sys.argv[1]), Path(sys.argv[2])))
