"""Volumes, routes and the basemap as pydeck layers: pure functions, testable without a browser or Streamlit.

Vertical truth: each volume is a ``PolygonLayer`` polygon whose vertices sit at the floor altitude (``[lon, lat,
floor_m]``) and is extruded by ``ceil_m - floor_m``, so a zone from 500 ft to FL100 floats 152 m above the
ground instead of standing on it. deck.gl has no terrain here: heights are drawn above the ellipsoid at 0 m, so
AGL limits are drawn from the sea-level plane and AMSL/FL limits at their altitude; the tooltip says which
reference each limit has. An unlimited ceiling (UNL, or none stated) is drawn at ``UNL_CAP_M`` and the tooltip
says so. ``vscale`` exaggerates heights (floor and extrusion alike) for readability; 1 is true scale.

Colours encode status and activity at the selected time (see ``volume_color``). Error records have no volume.
No layer references a tile server: the basemap is our own Natural Earth GeoJSON (``app/basemap.py``).
"""

from __future__ import annotations

import html
import json
import math
from datetime import datetime, timezone
from typing import Any, Iterable, Sequence

import pydeck as pdk
from pydeck.bindings.json_tools import default_serialize
import shapely
from shapely.geometry import MultiPolygon, Polygon

UNL_CAP_M = 18_288.0  # FL600: where an unlimited ceiling is drawn
FT_PER_M = 1 / 0.3048

# status/activity colours (RGBA); the alpha of active zones is high so they read clearly over the basemap
COLORS: dict[tuple[str, bool], list[int]] = {
    ("ok", True): [230, 30, 45, 210],  # active no-fly zone: red
    ("review", True): [255, 160, 0, 210],  # active, needs a human look: amber
    ("ok", False): [70, 130, 200, 90],  # not active at the selected time: blue, translucent
    ("review", False): [185, 165, 95, 90],  # inactive and needs review: khaki, translucent
}
LINE_NORMAL = [20, 20, 20, 160]
LINE_SELECTED = [255, 255, 255, 255]
SEA_COLOR = [14, 30, 52, 255]
LAND_COLOR = [52, 62, 50, 255]
COAST_COLOR = [150, 165, 175, 255]
ROUTE_COLOR = [0, 230, 255, 255]
CONFLICT_COLOR = [255, 0, 255, 255]

# No base-map library at all: ``map_provider=None`` makes pydeck write its default-style sentinel, on which
# Streamlit's map renders deck.gl alone (no Mapbox/MapLibre canvas under it, no Carto tile style): the basemap is our
# own GeoJSON, so there is one WebGL context to draw and composite per frame, and no request leaves the machine (the
# browser test records every request and checks this). An empty map style instead would still create a second,
# empty WebGL map that repaints on every view change; with software WebGL every canvas costs.
NO_BASE_MAP_STYLE = "__MAP_STYLE__"

TOOLTIP = {
    "html": "{tip}",
    "style": {"backgroundColor": "#101820", "color": "#f0f0f0", "fontSize": "12px", "maxWidth": "420px"},
}


def volume_color(status: str, active: bool, selected: bool = False) -> list[int]:
    """Fill colour of a volume: red/amber when active (ok/review), blue/khaki translucent when not.

    A selected volume is drawn fully opaque so it stands out among its neighbours."""
    key = (status if status in ("ok", "review") else "review", bool(active))
    rgba = list(COLORS[key])
    if selected:
        rgba[3] = 255
    return rgba


def key_str(key: tuple[int, int]) -> str:
    """``"message:zone"``: the stable id of a volume/record row across table, map and selection."""
    return f"{key[0]}:{key[1]}"


def ceiling_drawn_m(v) -> float:
    """The ceiling as drawn: the real one, or ``UNL_CAP_M`` for unlimited (never below floor + 1 m)."""
    ceil = UNL_CAP_M if v.ceil_m is None else float(v.ceil_m)
    return max(ceil, float(v.floor_m) + 1.0)


def _fmt_alt(m: float | None, ref: str, raw: str | None) -> str:
    if m is None:
        return f"UNL (unlimited; drawn at {UNL_CAP_M:,.0f} m = FL600)"
    if ref == "FL":
        text = f"FL{round(m * FT_PER_M / 100):03d} ({m:,.0f} m pressure altitude)"
    else:
        text = f"{m:,.0f} m {ref} ({m * FT_PER_M:,.0f} ft)"
    if raw:
        text += f" — “{raw}”"
    return text


def _fmt_time(t: datetime | None) -> str:
    if t is None:
        return "—"
    if t.tzinfo is not None:
        t = t.astimezone(timezone.utc)
    return t.strftime("%Y-%m-%d %H:%MZ")


def tooltip_html(v, active: bool) -> str:
    """The hover text of one volume: id, status and reasons, floor/ceiling with their references, time, activity."""
    rec = v.record
    e = html.escape
    lines = [f"<b>{e(rec.id or 'no id')}</b> · message {rec.message + 1} zone {rec.zone + 1}"]
    status = rec.status.upper()
    if rec.reasons:
        status += ": " + "; ".join(rec.reasons)
    lines.append(e(status))
    lines.append(f"Floor: {e(_fmt_alt(v.floor_m, v.floor_ref, rec.lower.raw if rec.lower else 'not stated: surface'))}")
    lines.append(f"Ceiling: {e(_fmt_alt(v.ceil_m, v.ceil_ref, rec.upper.raw if rec.upper else 'not stated: unlimited'))}")
    if "AGL" in (v.floor_ref, v.ceil_ref):
        lines.append("<i>AGL heights are drawn above the sea-level plane (no terrain model)</i>")
    if rec.permanent:
        when = f"from {_fmt_time(rec.start)}, permanent"
    else:
        when = f"{_fmt_time(rec.start)} → {_fmt_time(rec.end)}{' (estimated)' if rec.end_estimated else ''}"
    lines.append(f"Time: {e(when)}")
    if rec.schedule:
        lines.append(f"Schedule: {e(rec.schedule)} ({len(v.windows)} windows)")
    lines.append("<b>ACTIVE</b> at the selected time" if active else "not active at the selected time")
    return "<br/>".join(lines)


# Drawn footprints: circles and arcs come from geo.volumes with 70-240 vertices, and under software WebGL every
# vertex of an extruded polygon costs (demo20's 2 100 footprint vertices took ~50 ms of each frame). Dense outlines
# are drawn with fewer vertices, never inside the true zone (see ``display_polygon``). Tooltips, exports and the route
# check use the true geometry.
DENSE_VERTICES = 32  # outlines with at most this many vertices (NOTAM polygons) are drawn exactly
DRAW_TOL_FRACTION = 0.002  # of the footprint's extent ...
DRAW_TOL_M = 10.0  # ... and never more than this
M_PER_DEG = 111_320.0


def display_polygon(poly: Polygon) -> Polygon:
    """The footprint as drawn. A dense outline (more than ``DENSE_VERTICES`` vertices: circles, arcs) is
    simplified within ``tol`` = min(``DRAW_TOL_FRACTION`` × extent, ``DRAW_TOL_M``) and grown back out by ``tol``
    (mitred corners), so the drawing covers the whole zone and lies at most 2·tol outside it: demo20's 1 NM circles
    are drawn with 65 vertices instead of 137, at most 7.5 m outside their true edge (a fraction of a pixel at
    the views the page opens). Anything else, or a result that would not cover the zone, is returned unchanged."""
    if shapely.get_num_coordinates(poly) <= DENSE_VERTICES:
        return poly
    minx, miny, maxx, maxy = poly.bounds
    extent_m = max((maxx - minx) * math.cos(math.radians((miny + maxy) / 2)), maxy - miny) * M_PER_DEG
    tol = min(DRAW_TOL_FRACTION * extent_m, DRAW_TOL_M) / M_PER_DEG  # degrees (shorter than tol_m east-west)
    drawn = poly.simplify(tol, preserve_topology=True).buffer(tol, join_style="mitre")
    if drawn.is_empty or not drawn.is_valid or not drawn.covers(poly):
        return poly
    return drawn


def _rings(poly: Polygon, z: float) -> list[list[list[float]]]:
    """Outer ring then holes, each vertex ``[lon, lat, z]`` (closing vertex dropped; deck.gl closes rings)."""
    out = []
    for ring in [poly.exterior, *poly.interiors]:
        coords = list(ring.coords)[:-1]
        out.append([[round(x, 6), round(y, 6), z] for x, y in coords])
    return out


def volume_rows(
    volumes: Iterable, t: datetime | None, *, selected: str | None = None, vscale: float = 1.0
) -> list[dict[str, Any]]:
    """One row per polygon part of every volume: the data of the volume layer.

    ``polygon`` holds rings at the floor altitude, ``height`` the extrusion (ceiling − floor, both times
    ``vscale``), ``fill``/``line`` the colours, ``tip`` the tooltip HTML. ``t`` None means "every zone active"."""
    rows = []
    for v in volumes:
        active = True if t is None else bool(v.active_at(t))
        k = key_str(v.key)
        sel = selected == k
        floor = float(v.floor_m) * vscale
        height = (ceiling_drawn_m(v) - float(v.floor_m)) * vscale
        poly = display_polygon(v.polygon) if isinstance(v.polygon, Polygon) else v.polygon
        parts = list(poly.geoms) if isinstance(poly, MultiPolygon) else [poly]
        tip = tooltip_html(v, active)
        for part in parts:
            rows.append(
                {
                    "key": k,
                    "id": v.id or "",
                    "status": v.status,
                    "active": active,
                    "polygon": _rings(part, round(floor, 2)),
                    "floor_m": round(float(v.floor_m), 2),
                    "ceil_m": None if v.ceil_m is None else round(float(v.ceil_m), 2),
                    "height": round(height, 2),
                    "fill": volume_color(v.status, active, sel),
                    "line": LINE_SELECTED if sel else LINE_NORMAL,
                    "tip": tip,
                }
            )
    return rows


def volume_layer(rows: list[dict[str, Any]]) -> pdk.Layer:
    """Extruded polygons, floor to ceiling (vertices carry the floor altitude, ``height`` is the extrusion).

    No wireframe here: the edges of every volume (a line per footprint vertex, floor to ceiling) cost about a third
    of each frame under software WebGL; the selected volume alone gets its edges (``selection_layer``)."""
    return _extruded(rows, "volumes", wireframe=False, filled=True, stroked=True, get_fill_color="fill",
                     get_line_color="line", line_width_min_pixels=1, pickable=True, auto_highlight=True)


def selection_layer(rows: list[dict[str, Any]]) -> pdk.Layer:
    """The edges (wireframe, ``line`` colour) of the selected volume's rows, nothing filled. Always in the deck (an
    invisible warm-up row when nothing is selected), so selecting a zone changes data, not the set of layers."""
    return _extruded(rows, "selection", wireframe=True, filled=False, stroked=False, get_line_color="line",
                     pickable=False)


def _extruded(rows: list[dict[str, Any]], layer_id: str, **style: Any) -> pdk.Layer:
    """A PolygonLayer of footprints at floor altitude extruded by ``height`` (volumes and the selection's edges)."""
    return pdk.Layer("PolygonLayer", data=rows, id=layer_id, get_polygon="polygon", extruded=True,
                     get_elevation="height", elevation_scale=1, material=False, **style)


def marker_rows(volumes: Iterable, t: datetime | None, *, selected: str | None = None) -> list[dict[str, Any]]:
    """A point per volume at its footprint's representative point, so zones stay findable at world zoom."""
    rows = []
    for v in volumes:
        active = True if t is None else bool(v.active_at(t))
        p = v.polygon.representative_point()
        k = key_str(v.key)
        rows.append(
            {
                "key": k,
                "position": [round(p.x, 6), round(p.y, 6)],
                "fill": volume_color(v.status, active, selected == k)[:3] + [255],
                "line": [255, 255, 255, 255],
                "tip": tooltip_html(v, active),
            }
        )
    return rows


def marker_layer(rows: list[dict[str, Any]]) -> pdk.Layer:
    """Zone markers: a few pixels wide whatever the zoom (hidden under the volume once zoomed in)."""
    return pdk.Layer(
        "ScatterplotLayer",
        data=rows,
        id="markers",
        get_position="position",
        get_fill_color="fill",
        get_line_color="line",
        stroked=True,
        line_width_min_pixels=1,
        get_radius=1,
        radius_min_pixels=4,
        radius_max_pixels=6,
        pickable=True,
    )


# The basemap lies flat at 0 m, where AGL volumes start: it must neither hide zones nor fight them (or itself) for
# depth, so it is drawn in order (land, coast) without depth test or depth writes (luma.gl 9 parameters).
FLAT = {"depthCompare": "always", "depthWriteEnabled": False}


def _flat_geojson(layer_id: str, data: dict, *, fill: list[int] | None = None, line: list[int] | None = None) -> pdk.Layer:
    return pdk.Layer(
        "GeoJsonLayer",
        data=data,
        id=layer_id,
        filled=fill is not None,
        stroked=line is not None,
        get_fill_color=fill or [0, 0, 0, 0],
        get_line_color=line or [0, 0, 0, 0],
        line_width_min_pixels=1,
        get_line_width=1,
        pickable=False,
        parameters=FLAT,
    )


def basemap_layers(basemap: dict) -> list[pdk.Layer]:
    """Natural Earth land and coastline: the world overview, or the 1:10m detail of a region (see
    ``app.basemap.basemap_for``). Drawn in this order without depth test; none is pickable, so tooltips belong to
    zones only. No tile service anywhere. The sea is not a layer: it is the colour behind the transparent map
    canvas (``map_css``), so no frame rasterises a polygon over the whole canvas for it."""
    # One pair of layer ids whichever level of detail is shown: the browser then swaps the data of layers it has
    # already built (programs compiled, buffers allocated) instead of tearing them down and building new ones.
    if "land_overview" in basemap:
        return [_flat_geojson("land", basemap["land_overview"], fill=LAND_COLOR),
                _flat_geojson("coastline", basemap["coast_overview"], line=COAST_COLOR)]
    if "land" in basemap:
        return [_flat_geojson("land", basemap["land"], fill=LAND_COLOR),
                _flat_geojson("coastline", basemap["coast"], line=COAST_COLOR)]
    return []


def map_css() -> str:
    """The page style that paints the sea: ``SEA_COLOR`` behind the map canvas, which deck.gl clears to transparent.

    Under software WebGL every frame rasterises each covered pixel of every layer; a sea polygon covered the whole
    canvas in every frame. Behind the canvas the same colour costs the compositor nothing extra."""
    r, g, b, _ = SEA_COLOR
    return f'<style>[data-testid="stDeckGlJsonChart"] canvas {{background-color: rgb({r}, {g}, {b});}}</style>'


def route_layers(points: Sequence[tuple[float, float, float]], conflict_points: Sequence[tuple[float, float, float]] = (), *, vscale: float = 1.0) -> list[pdk.Layer]:
    """The drone route as a 3D path (``(lat, lon, alt_m)`` waypoints) and conflict entry points as dots."""
    path = [[round(lon, 6), round(lat, 6), round(alt * vscale, 2)] for lat, lon, alt in points]
    layers = [
        pdk.Layer(
            "PathLayer",
            data=[{"path": path, "tip": f"route: {len(path)} waypoints"}],
            id="route",
            get_path="path",
            get_color=ROUTE_COLOR,
            get_width=3,
            width_units="pixels",
            width_min_pixels=3,
            pickable=True,
        )
    ]
    if conflict_points:
        layers.append(
            pdk.Layer(
                "ScatterplotLayer",
                data=[
                    {"position": [round(lon, 6), round(lat, 6), round(alt * vscale, 2)], "tip": "route enters a zone"}
                    for lat, lon, alt in conflict_points
                ],
                id="conflicts",
                get_position="position",
                get_fill_color=CONFLICT_COLOR,
                get_radius=1,
                radius_min_pixels=6,
                pickable=True,
            )
        )
    return layers


def focus_bounds(volumes: Sequence, selected: str | None) -> tuple[float, float, float, float] | None:
    """Bounds of the selected volume, or of all volumes when nothing (or nothing drawable) is selected."""
    focus = [v for v in volumes if key_str(v.key) == selected] if selected else []
    return bounds_of(focus or list(volumes))


def bounds_of(volumes: Iterable) -> tuple[float, float, float, float] | None:
    """(min lon, min lat, max lon, max lat) over the volumes' footprints, or None when there are none."""
    bs = [v.polygon.bounds for v in volumes]
    if not bs:
        return None
    return (min(b[0] for b in bs), min(b[1] for b in bs), max(b[2] for b in bs), max(b[3] for b in bs))


def view_for_bounds(
    bounds: tuple[float, float, float, float] | None, *, pitch: float = 45.0, fly: bool = False, margin: float = 1.6
) -> pdk.ViewState:
    """A view that fits ``bounds`` times ``margin`` (a world view when None). ``fly`` adds a transition so the map
    glides there."""
    if bounds is None:
        return pdk.ViewState(latitude=20.0, longitude=0.0, zoom=1.0, pitch=0.0, bearing=0.0)
    minx, miny, maxx, maxy = bounds
    lat = (miny + maxy) / 2
    lon = (minx + maxx) / 2
    span = max((maxx - minx) * math.cos(math.radians(lat)), maxy - miny, 1e-4)
    # about 700 px of map width for `span` degrees, with a margin; 512-px world at zoom 0 (deck.gl)
    zoom = math.log2(700 * 360 / (512 * span * margin))
    zoom = max(0.5, min(zoom, 15.0))
    extra = {"transitionDuration": 1200} if fly else {}
    return pdk.ViewState(latitude=lat, longitude=lon, zoom=round(zoom, 2), pitch=pitch if zoom > 4 else 0.0, bearing=0.0, **extra)


def fit_view(bounds: tuple[float, float, float, float] | None, *, selected: bool = False) -> pdk.ViewState:
    """The view the map opens on: a selected zone with its surroundings (3x its size, flown to), or all zones
    fitted snugly (a world view when there are none)."""
    return view_for_bounds(bounds, fly=selected, margin=3.0 if selected else 1.6)


# With no zones yet (the page before the first Run) the volume and marker layers get one invisible object each, so
# the browser builds their programs then, not when the operator clicks Run: compiling the extruded-polygon and
# scatterplot shaders costs seconds under software WebGL. Fully transparent, off in a corner of Antarctica.
_CLEAR = [0, 0, 0, 0]
WARMUP_VOLUME = [
    {
        "key": "warmup",
        "id": "",
        "status": "ok",
        "active": False,
        "polygon": [[[-179.9, -84.9, 0.0], [-179.8, -84.9, 0.0], [-179.8, -84.8, 0.0]]],
        "floor_m": 0.0,
        "ceil_m": 1.0,
        "height": 1.0,
        "fill": _CLEAR,
        "line": _CLEAR,
        "tip": "",
    }
]
WARMUP_MARKER = [{"key": "warmup", "position": [-179.85, -84.85], "fill": _CLEAR, "line": _CLEAR, "tip": ""}]


class CompactDeck(pdk.Deck):
    """A Deck whose JSON has no indentation: pydeck indents by 2, which about doubles what goes to the browser."""

    def to_json(self) -> str:
        return json.dumps(self, sort_keys=True, default=default_serialize, separators=(",", ":"))


def build_deck(
    volumes: Sequence,
    t: datetime | None,
    *,
    basemap: dict,
    selected: str | None = None,
    vscale: float = 1.0,
    route: Sequence[tuple[float, float, float]] = (),
    conflict_points: Sequence[tuple[float, float, float]] = (),
    view: pdk.ViewState | None = None,
) -> pdk.Deck:
    """The whole map: basemap, volumes, the selected volume's edges, markers, optional route; fitted to the selection
    or all volumes.

    No map provider, no token, no map style (``NO_BASE_MAP_STYLE``): nothing leaves the machine."""
    layers = basemap_layers(basemap)
    vol_rows = volume_rows(volumes, t, selected=selected, vscale=vscale)
    mark_rows = marker_rows(volumes, t, selected=selected)
    if not vol_rows:
        vol_rows, mark_rows = WARMUP_VOLUME, WARMUP_MARKER
    layers.append(volume_layer(vol_rows))
    layers.append(selection_layer([r for r in vol_rows if selected is not None and r["key"] == selected] or WARMUP_VOLUME))
    layers.append(marker_layer(mark_rows))
    if route:
        layers.extend(route_layers(route, conflict_points, vscale=vscale))
    if view is None:
        view = fit_view(focus_bounds(volumes, selected), selected=bool(selected))
    deck = CompactDeck(
        layers=layers,
        initial_view_state=view,
        map_provider=None,
        tooltip=TOOLTIP,
        views=[pdk.View(type="MapView", controller=True)],
    )
    deck.map_style = NO_BASE_MAP_STYLE  # explicit, whatever a pydeck version makes of map_provider=None
    return deck
