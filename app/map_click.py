"""A click or tap on the map as a place: "Can I fly here?" at the point clicked.

Streamlit's map selection reports only the picked *object* of a pickable layer, never the clicked coordinate. So the
map carries an invisible pickable grid of points over the area the camera looks at (``GRID_PX`` screen pixels
apart, each a disc ``DISC_PX`` wide in radius, so no gap is left) whose picked object is its own position: a click
anywhere on the map gives a point within ``precision_m`` (the disc's radius on the ground) of where it landed.

Seen from straight above (2D), the grid is drawn over the zones and picked first. The disc under the cursor may
have its centre just outside a zone the cursor is inside, so a grid point carries the tooltip of the zone that
covers it, else of the nearest zone its disc reaches, and a click selects that same zone (``volume_at``): hovering
a zone always shows its details and a click on it selects it. The answer for such a point says it may be inside
(``flycheck``'s ``within_m``). Tilted (3D), the grid lies on the ground under the volumes: a click on a volume's
wall selects that volume, a click on the ground asks about the point. Away from the zones a grid point's tooltip is
its coordinates (deck.gl shows an empty box for an empty one).
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np
import pydeck as pdk
import shapely
from shapely.strtree import STRtree

from airspace.app.map_view import key_str
from airspace.geo.flycheck import footprint_distance_m

GRID_PX = 12  # screen pixels between grid points at the view's zoom
DISC_PX = GRID_PX * 0.75  # each point's pickable radius: neighbouring discs overlap, leaving no gap
#: the area the grid covers, in screen pixels at that zoom (the map is ~760 x 500 on a laptop): ~3,100 points,
#: ~200 kB of the map's JSON with their tooltips
MAP_PX = (840, 528)
LAYER = "mapclick"
EARTH_M_PER_DEG = 111_320.0


def grid_points(lat: float, lon: float, zoom: float) -> tuple[list[dict], float]:
    """The grid around (``lat``, ``lon``) for a camera at ``zoom``: rows of ``{"cell": [lon, lat]}``, and the
    precision in metres (a disc's radius on the ground: how far a picked point's centre can be from the click)."""
    deg_per_px = 360.0 / (512.0 * 2.0**zoom)  # deck.gl's 512-px world at zoom 0
    dlon = deg_per_px * GRID_PX
    dlat = dlon * max(math.cos(math.radians(lat)), 0.05)  # Mercator: a pixel spans fewer degrees of latitude
    cols, rows = MAP_PX[0] // GRID_PX, MAP_PX[1] // GRID_PX
    pts = []
    for j in range(rows + 1):
        y = lat + (j - rows / 2) * dlat
        if not -85.0 <= y <= 85.0:
            continue
        for i in range(cols + 1):
            x = (lon + (i - cols / 2) * dlon + 180.0) % 360.0 - 180.0
            pts.append({"cell": [round(x, 5), round(y, 5)]})
    precision = DISC_PX * deg_per_px * max(math.cos(math.radians(lat)), 0.05) * EARTH_M_PER_DEG
    return pts, precision


def _with_tips(pts: list[dict], zones: Sequence[tuple[object, str]], reach_m: float) -> list[dict]:
    """Each point with the tooltip of the smallest zone (footprint, tooltip) that covers it, else of the nearest
    zone within ``reach_m`` (its disc reaches over that zone's edge), else its coordinates."""
    tips: dict[int, str] = {}
    if zones:
        polys = [poly for poly, _ in zones]
        cells = shapely.points(np.array([p["cell"] for p in pts], dtype=float))
        # candidates by a box test in degrees: a degree of longitude is the shortest way a degree can be measured
        deg = reach_m / (EARTH_M_PER_DEG * max(math.cos(math.radians(float(np.mean([p["cell"][1] for p in pts])))),
                                                 0.05))
        hit_pt, hit_zone = STRtree(polys).query(cells, predicate="dwithin", distance=deg)
        best: dict[int, tuple[float, float, int]] = {}
        for i, z in zip(hit_pt.tolist(), hit_zone.tolist()):
            lon, lat = pts[i]["cell"]
            d = footprint_distance_m(polys[z], lat, lon)
            if d > reach_m:
                continue
            rank = (d, polys[z].area, z)  # inside (0 m) first, then the nearest; among those the smallest
            if i not in best or rank < best[i]:
                best[i] = rank
        tips = {i: zones[r[2]][1] for i, r in best.items()}
    for i, p in enumerate(pts):
        lon, lat = p["cell"]
        p["tip"] = tips.get(i) or f"{lat:.5f}, {lon:.5f} · click: Can I fly here?"
    return pts


#: the grid of a page with nothing to ask about yet: one point in a corner no one clicks, so that the layer (its id,
#: its shader) exists from the first screen on, as the zones' layers do, at no cost to the first screen
WARMUP = [{"cell": [-179.85, -84.85], "tip": "-84.85, -179.85"}]


def click_layer(view: pdk.ViewState, *, tilted: bool, gen: int = 0,
                zones: Sequence[tuple[object, str]] = (), active: bool = True) -> pdk.Layer:
    """The invisible pickable grid for ``view`` (its id changes with ``gen``, as the volumes' do, so Streamlit drops
    its selection once the page has read it). ``zones``: (footprint, tooltip) of the volumes drawn, whose tooltips
    the grid carries where it lies over them (2D). Not ``active`` (no Run yet): ``WARMUP`` only."""
    if active:
        pts, reach_m = grid_points(float(view.latitude), float(view.longitude), float(view.zoom))
        pts = _with_tips(pts, () if tilted else zones, reach_m)
    else:
        pts = [dict(p) for p in WARMUP]
    params = {"depthTest": True} if tilted else {"depthTest": False}  # 2D: over the zones, picked first
    return pdk.Layer("ScatterplotLayer", data=pts, id=f"{LAYER}~{gen}", get_position="cell",
                     get_fill_color=[0, 0, 0, 1], radius_units="'pixels'", get_radius=DISC_PX,
                     stroked=False, pickable=True, parameters=params)


def add_click_layer(deck: pdk.Deck, view: pdk.ViewState, *, tilted: bool, gen: int = 0,
                    volumes: Sequence = (), active: bool = True) -> pdk.Deck:
    """``deck`` with the grid: first (under every zone) when ``tilted``, else last (over them, with the tooltips of
    the ``volumes`` the deck draws)."""
    drawn = {r.get("key"): r.get("tip") for layer in deck.layers if str(layer.id).startswith("volumes~")
             for r in (layer.data if isinstance(layer.data, list) else []) if isinstance(r, dict)}
    zones = [(v.polygon, drawn[key_str(v.key)]) for v in volumes if drawn.get(key_str(v.key))]
    layer = click_layer(view, tilted=tilted, gen=gen, zones=zones, active=active)
    if tilted:
        deck.layers.insert(0, layer)
    else:
        deck.layers.append(layer)
    return deck


def clicked_point(picked: Sequence[dict], view: pdk.ViewState | None) -> tuple[float, float, float] | None:
    """(lat, lon, precision in metres) of a click on the grid, from the selection's picked objects, or None."""
    for o in picked:
        cell = o.get("cell") if isinstance(o, dict) else None
        if (isinstance(cell, list) and len(cell) == 2 and all(isinstance(c, (int, float)) for c in cell)
                and -180 <= cell[0] <= 180 and -90 <= cell[1] <= 90):
            lat, lon = float(cell[1]), float(cell[0])
            precision = grid_points(lat, lon, float(view.zoom))[1] if view is not None else float("nan")
            return lat, lon, precision
    return None


def volume_at(volumes: Sequence, lat: float, lon: float, key_of, reach_m: float = 0.0) -> str | None:
    """The key of the shown volume a click from above lands on: the smallest whose footprint holds the point, else
    the nearest within ``reach_m`` (the picked disc reached over its edge: the zone its tooltip showed)."""
    near = [(footprint_distance_m(v.polygon, lat, lon), v.polygon.area, i) for i, v in enumerate(volumes)]
    near = [r for r in near if r[0] <= reach_m]
    if not near:
        return None
    return key_of(volumes[min(near)[2]].key)


def place_text(lat: float, lon: float, precision_m: float) -> str:
    """What the "Can I fly here?" answer says the point is."""
    within = f" (±{precision_m:,.0f} m)" if precision_m == precision_m else ""
    return f"map point {lat:.5f}, {lon:.5f}{within}"
