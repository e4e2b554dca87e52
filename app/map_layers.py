"""Volumes, routes, labels and the basemap as pydeck layers: pure functions, testable without a browser or Streamlit.

Vertical truth: each volume is a ``PolygonLayer`` polygon whose vertices sit at the floor altitude (``[lon, lat,
floor_m]``) and is extruded by ``ceil_m - floor_m``, so a zone from 500 ft to FL100 floats 152 m above the
ground instead of standing on it. deck.gl has no terrain here: heights are drawn above the ellipsoid at 0 m, so
AGL limits are drawn from the sea-level plane and AMSL/FL limits at their altitude; the tooltip says which
reference each limit has. An unlimited ceiling (UNL, or none stated) is drawn at ``UNL_CAP_M`` and the tooltip
says so. ``vscale`` exaggerates heights (floor and extrusion alike) for readability; 1 is true scale.

Colours encode status and activity at the selected time (see ``volume_color``). Error records have no volume.
No layer references a tile server unless the operator names one (``app/tile_basemap.py``, off by default): the
basemap is our own Natural Earth GeoJSON (``app/basemap.py``, ``app/context_layers.py``). Every string
that comes from a message goes through ``safe_text.deck_safe`` before it is put in a layer.

Streamlit's map selection (``on_select``) dims every layer that has a fill or line colour to at most alpha 102 while
an object is selected. The page turns a click into its own selection at once (``pick_gen``), but until that rerun
arrives the basemap would flash darker; so the basemap's colours are given at alpha ``BASE_ALPHA`` = 102, their
RGB chosen so that they look as intended over the sea colour (``over_sea``), and a selection leaves them unchanged.
"""

from __future__ import annotations

import json
import math
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone
from typing import Any

import pydeck as pdk
import shapely
from pydeck.bindings.json_tools import default_serialize
from shapely.geometry import MultiPolygon, Polygon

from airspace.app import font_chars
from airspace.app.context_layers import under_zones
from airspace.app.map_view import fit_view, focus_bounds, key_str
from airspace.app.safe_text import deck_safe, deck_text

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
BASE_ALPHA = 102  # the most Streamlit leaves of a layer's alpha while a map object is selected


def over_sea(shown: Sequence[int], alpha: int = BASE_ALPHA) -> list[int]:
    """The RGBA to draw at ``alpha`` so that, blended over ``SEA_COLOR``, the map shows ``shown`` (RGB)."""
    a = alpha / 255
    return [max(0, min(255, round((c - (1 - a) * s) / a))) for c, s in zip(shown[:3], SEA_COLOR[:3])] + [alpha]


LAND_COLOR = [52, 62, 50, 255]  # as the land shows on the page
LAND_FILL = over_sea(LAND_COLOR)
COAST_COLOR = [150, 165, 175, 255]
COAST_LINE = COAST_COLOR  # lines keep full alpha (a bright line cannot be made at alpha 102): they dim while a
BORDER_LINE = [225, 170, 90, 255]  # click is on its way to the server, the land fill does not
ROUTE_COLOR = [0, 230, 255, 255]
WAYPOINT_COLOR = [255, 255, 255, 255]
CONFLICT_COLOR = [255, 0, 255, 255]
LABEL_COLOR = [245, 245, 245, 255]
LABEL_BG = [16, 24, 32, 200]
AIRPORT_COLOR = [235, 235, 235, 230]
PLACE_COLOR = [200, 205, 190, 255]
COUNTRY_COLOR = [175, 185, 165, 255]
SCALE_COLOR = [240, 240, 240, 255]
#: a font stack with CJK glyphs (Noto CJK where installed: Debian fonts-noto-cjk), for labels and the page
FONT_STACK = ('"Source Sans Pro", "Source Sans 3", "Noto Sans", "Noto Sans CJK SC", "Noto Sans SC", '
              '"WenQuanYi Micro Hei", "PingFang SC", "Microsoft YaHei", sans-serif')

# No base-map library at all: ``map_provider=None`` makes pydeck write its default-style sentinel, on which
# Streamlit's map renders deck.gl alone (no Mapbox/MapLibre canvas under it, no Carto tile style): the basemap is our
# own GeoJSON, so there is one WebGL context to draw and composite per frame, and no request leaves the machine (the
# browser test records every request and checks this). An empty map style instead would still create a second,
# empty WebGL map that repaints on every view change; with software WebGL every canvas costs.
NO_BASE_MAP_STYLE = "__MAP_STYLE__"

# The tooltip is plain text: Streamlit fills ``{tip}`` into the ``text`` key and the browser sets it as innerText,
# so nothing in it is ever parsed as HTML. ``map_css`` pins it inside the map (top left) and bolds its first line.
TOOLTIP = {
    "text": "{tip}",
    "style": {"backgroundColor": "rgba(16, 24, 32, 0.94)", "color": "#f0f0f0", "fontSize": "12px",
              "whiteSpace": "pre-line", "fontFamily": FONT_STACK},
}


def volume_color(status: str, active: bool, selected: bool = False) -> list[int]:
    """Fill colour of a volume: red/amber when active (ok/review), blue/khaki translucent when not.

    A selected volume is drawn fully opaque so it stands out among its neighbours."""
    key = (status if status in ("ok", "review") else "review", bool(active))
    rgba = list(COLORS[key])
    if selected:
        rgba[3] = 255
    return rgba


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


def volume_label(v) -> str:
    """The label drawn on a volume: its NOTAM id, or its 1-based message number."""
    rec = v.record
    return (rec.id or f"msg {rec.message + 1}") + (f" ·{rec.zone + 1}" if rec.zone else "")


def tooltip_text(v, active: bool) -> str:
    """The hover text of one volume, plain text one fact a line: id, status and reasons, floor/ceiling with their
    references, time, activity."""
    rec = v.record
    lines = [f"{rec.id or 'no id'} · message {rec.message + 1}, zone {rec.zone + 1}"]
    status = rec.status.upper()
    if rec.reasons:
        status += ": " + "; ".join(rec.reasons)
    lines.append(status)
    lines.append(f"Floor: {_fmt_alt(v.floor_m, v.floor_ref, rec.lower.raw if rec.lower else 'not stated: surface')}")
    lines.append(f"Ceiling: {_fmt_alt(v.ceil_m, v.ceil_ref, rec.upper.raw if rec.upper else 'not stated: unlimited')}")
    if "AGL" in (v.floor_ref, v.ceil_ref):
        lines.append("AGL heights are drawn above the sea-level plane (no terrain model)")
    if rec.permanent:
        when = f"from {_fmt_time(rec.start)}, permanent"
    else:
        when = f"{_fmt_time(rec.start)} → {_fmt_time(rec.end)}{' (estimated)' if rec.end_estimated else ''}"
    lines.append(f"Time (UTC): {when}")
    if rec.schedule:
        lines.append(f"Schedule: {rec.schedule} ({len(v.windows)} windows)")
    lines.append("ACTIVE at the map's time" if active else "not active at the map's time")
    return "\n".join(lines)


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
    ``vscale``), ``fill``/``line`` the colours, ``tip`` the tooltip text. ``t`` None means "every zone active"."""
    rows = []
    for v in volumes:
        active = True if t is None else bool(v.active_at(t))
        k = key_str(v.key)
        sel = selected == k
        floor = float(v.floor_m) * vscale
        height = (ceiling_drawn_m(v) - float(v.floor_m)) * vscale
        poly = display_polygon(v.polygon) if isinstance(v.polygon, Polygon) else v.polygon
        parts = list(poly.geoms) if isinstance(poly, MultiPolygon) else [poly]
        tip = deck_text(tooltip_text(v, active))
        for part in parts:
            rows.append(
                {
                    "key": k,
                    "id": deck_text(v.id or ""),
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


def volume_layer(rows: list[dict[str, Any]], layer_id: str = "volumes") -> pdk.Layer:
    """Extruded polygons, floor to ceiling (vertices carry the floor altitude, ``height`` is the extrusion).

    No wireframe here: the edges of every volume (a line per footprint vertex, floor to ceiling) cost about a third
    of each frame under software WebGL; the selected volume alone gets its edges (``selection_layer``)."""
    return _extruded(rows, layer_id, wireframe=False, filled=True, stroked=True, get_fill_color="fill",
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
                "tip": deck_text(tooltip_text(v, active)),
            }
        )
    return rows


def marker_layer(rows: list[dict[str, Any]], layer_id: str = "markers") -> pdk.Layer:
    """Zone markers: a few pixels wide whatever the zoom (hidden under the volume once zoomed in)."""
    return pdk.Layer(
        "ScatterplotLayer",
        data=rows,
        id=layer_id,
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
# depth, so it is drawn in order (land, coast, borders) without depth test or depth writes (luma.gl 9 parameters).
# Labels are drawn the same way, last, so that no volume hides them.
FLAT = {"depthCompare": "always", "depthWriteEnabled": False}


def _flat_geojson(layer_id: str, data: dict | str, *, fill: list[int] | None = None, line: list[int] | None = None,
                  width_px: float = 1) -> pdk.Layer:
    return pdk.Layer(
        "GeoJsonLayer",
        data=data,
        id=layer_id,
        filled=fill is not None,
        stroked=line is not None,
        get_fill_color=fill or [0, 0, 0, 0],
        get_line_color=line or [0, 0, 0, 0],
        line_width_min_pixels=width_px,
        get_line_width=1,
        pickable=False,
        parameters=FLAT,
    )


def basemap_layers(basemap: dict) -> list[pdk.Layer]:
    """Natural Earth land, coastline and country borders: the world overview, or the 1:10m detail of a region (see
    ``app.basemap.basemap_for``). Drawn in this order without depth test; none is pickable, so tooltips belong to
    zones only. No tile service anywhere. The sea is not a layer: it is the colour behind the transparent map
    canvas (``map_css``), so no frame rasterises a polygon over the whole canvas for it."""
    # One set of layer ids whichever level of detail is shown: the browser then swaps the data of layers it has
    # already built (programs compiled, buffers allocated) instead of tearing them down and building new ones.
    over = "land_overview" in basemap
    land = basemap.get("land_overview" if over else "land")
    if land is None:
        return []
    coast = basemap["coast_overview" if over else "coast"]
    borders = basemap.get("borders_overview" if over else "borders") or {"type": "FeatureCollection", "features": []}
    return [_flat_geojson("land", land, fill=LAND_FILL),
            _flat_geojson("coastline", coast, line=COAST_LINE),
            _flat_geojson("borders", borders, line=BORDER_LINE, width_px=1.5)]


# ------------------------------------------------------------------------------------------------------------------
# Labels: volumes, airports, places, and a scale bar
# ------------------------------------------------------------------------------------------------------------------

LABEL_PX = 12
CHAR_PX = 0.62 * LABEL_PX  # a label's width per character, for decluttering


def _mercator_px(lon: float, lat: float, zoom: float) -> tuple[float, float]:
    """Screen pixels of a point on deck.gl's 512-px Web Mercator world at ``zoom`` (top-down)."""
    world = 512 * 2**zoom
    lat = max(-85.0, min(85.0, lat))
    y = (1 - math.log(math.tan(math.radians(lat)) + 1 / math.cos(math.radians(lat))) / math.pi) / 2
    return (lon + 180) / 360 * world, y * world


def declutter(items: Sequence[dict[str, Any]], zoom: float, *, pad_px: float = 4.0) -> list[dict[str, Any]]:
    """The labels that fit at ``zoom`` without overlapping one already placed, in the order given (the order is
    the priority: zones first, then airports, capitals, towns, countries). Each item has ``position`` and ``text``.

    An approximation of what the operator sees (top-down, the opening zoom); labels hidden here are still named in
    the tooltip and the zone list."""
    placed: list[tuple[float, float, float, float]] = []
    out = []
    for it in items:
        x, y = _mercator_px(it["position"][0], it["position"][1], zoom)
        w = len(it["text"]) * CHAR_PX / 2 + pad_px
        h = LABEL_PX / 2 + pad_px
        box_ = (x - w, y - h, x + w, y + h)
        if any(not (box_[2] < b[0] or box_[0] > b[2] or box_[3] < b[1] or box_[1] > b[3]) for b in placed):
            continue
        placed.append(box_)
        out.append(it)
    return out


def zone_label_rows(volumes: Iterable) -> list[dict[str, Any]]:
    """A label per volume (its NOTAM id or message number) at its footprint's representative point."""
    rows = []
    for v in volumes:
        p = v.polygon.representative_point()
        rows.append({"position": [round(p.x, 6), round(p.y, 6)], "text": deck_text(volume_label(v)), "kind": "zone"})
    return rows


def context_rows(context: dict) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """(airport points, labels) of the basemap's ``context`` (``app.basemap.context_for``)."""
    points, labels = [], []
    for a in context.get("airports", []):
        pos = [round(a["lon"], 5), round(a["lat"], 5)]
        points.append({"position": pos})
        name = a["name"].replace(" International Airport", "").replace(" Airport", "")
        labels.append({"position": pos, "text": deck_text(f"✈ {a['icao']} {name}".strip()[:40]), "kind": "airport"})
    for name, lon, lat, kind in context.get("places", []):
        labels.append({"position": [lon, lat], "text": deck_text(name), "kind": kind})
    return points, labels


LABEL_STYLE = {"zone": (LABEL_COLOR, 12), "airport": (AIRPORT_COLOR, 11), "capital": (PLACE_COLOR, 12),
               "town": (PLACE_COLOR, 11), "country": (COUNTRY_COLOR, 11), "scale": (SCALE_COLOR, 11)}


def label_charset() -> str:
    """The characters of the labels' font atlas (``font_chars``: every character of the shipped place names and of
    the airports' names, printable ASCII, Latin-1, a few symbols). Fixed, so the atlas is drawn once at page load:
    with deck.gl's ``"auto"`` a Run bringing a character not seen yet would redraw the atlas while the browser draws
    the zones. A character outside it (a zone label is an id or a message number) is left blank, never a box."""
    return font_chars.shipped()


def label_layer(rows: list[dict[str, Any]]) -> pdk.Layer:
    """Every label of the map in one TextLayer (one font atlas, one draw): zone ids with a dark background, context
    names plainer, in ``FONT_STACK`` (CJK glyphs where a CJK font is installed); the atlas holds
    ``label_charset()``."""
    data = []
    for r in rows:
        color, size = LABEL_STYLE.get(r["kind"], (LABEL_COLOR, 12))
        zone = r["kind"] in ("zone", "scale")
        data.append({**r, "color": color, "size": size, "bg": LABEL_BG if zone else [0, 0, 0, 0],
                     "anchor": "middle" if zone else "start", "dx": 0 if zone else 6})
    layer = pdk.Layer(
        "TextLayer",
        data=data,
        id="labels",
        get_position="position",
        get_text="text",
        get_color="color",
        get_size="size",
        size_units="'pixels'",
        get_text_anchor="anchor",
        get_alignment_baseline="'center'",
        get_pixel_offset="[dx, 0]",
        background=True,
        get_background_color="bg",
        background_padding=[3, 1],
        font_family=f"'{FONT_STACK.replace(chr(39), '')}'",
        pickable=False,
        parameters=FLAT,
    )
    # set after construction: pydeck would read a string keyword argument as an expression (and its quoting
    # strips every quote character, which the charset holds)
    layer.character_set = label_charset()
    return layer


def airport_layer(points: list[dict[str, Any]]) -> pdk.Layer:
    return pdk.Layer("ScatterplotLayer", data=points, id="airports", get_position="position",
                     get_fill_color=AIRPORT_COLOR, get_radius=1, radius_min_pixels=3, radius_max_pixels=3,
                     pickable=False, parameters=FLAT)


def _nice_length_m(target_m: float) -> float:
    """The 1-2-5 × 10^k metres closest below ``target_m``."""
    k = 10 ** math.floor(math.log10(max(target_m, 1.0)))
    return max(m for m in (k, 2 * k, 5 * k) if m <= target_m) if target_m >= 1 else 1.0


def scale_bar(bounds: tuple[float, float, float, float] | None) -> tuple[list[dict], list[dict]]:
    """A ruler of a round length (about a quarter of the zones' width) on the ground just south of the zones' west
    end: (path rows, label rows). Part of the map, so it stays true at any zoom; none for the world view."""
    if bounds is None:
        return [], []
    minx, miny, maxx, maxy = bounds
    lat = miny - 0.12 * max(maxy - miny, 0.01)
    m_per_deg_lon = 111_320.0 * math.cos(math.radians(lat))
    width_m = max((maxx - minx) * m_per_deg_lon, 500.0)
    length = _nice_length_m(width_m / 4)
    x1 = minx + length / m_per_deg_lon
    tick = 0.015 * max(maxy - miny, 0.01)
    path = [[[minx, lat + tick], [minx, lat], [x1, lat], [x1, lat + tick]]]
    text = f"{length / 1000:g} km" if length >= 1000 else f"{length:g} m"
    return ([{"path": [[round(x, 6), round(y, 6)] for x, y in p]} for p in path],
            [{"position": [round((minx + x1) / 2, 6), round(lat + 2.5 * tick, 6)], "text": text, "kind": "scale"}])


def scale_layer(rows: list[dict]) -> pdk.Layer:
    return pdk.Layer("PathLayer", data=rows, id="scale", get_path="path", get_color=SCALE_COLOR, get_width=2,
                     width_units="'pixels'", pickable=False, parameters=FLAT)


def map_css() -> str:
    """The page style for the map: the sea (``SEA_COLOR`` behind the map canvas, which deck.gl clears to
    transparent: under software WebGL a sea polygon rasterised the whole canvas every frame, behind the canvas the
    same colour costs the compositor nothing), the tooltip pinned inside the map's top-left corner (deck.gl places it
    at the pointer, where the map's right edge clipped it), the legend's place over the map, and a font stack with
    CJK glyphs for the whole page."""
    r, g, b, _ = SEA_COLOR
    return (
        "<style>"
        f'[data-testid="stDeckGlJsonChart"] canvas {{background-color: rgb({r}, {g}, {b});}}'
        '[data-testid="stDeckGlJsonChart"] .deck-tooltip {transform: none !important; left: 8px !important; '
        "top: 8px !important; max-width: min(380px, calc(100% - 16px)); overflow-wrap: anywhere; "
        "border-radius: 4px; padding: 6px 8px !important; line-height: 1.35;}"
        '[data-testid="stDeckGlJsonChart"] .deck-tooltip::first-line {font-weight: 700;}'
        ".map-legend-anchor {position: relative; height: 0; overflow: visible; z-index: 5;}"
        ".map-legend {position: absolute; left: 8px; bottom: calc(1rem + 8px); pointer-events: none; "
        "background: rgba(16, 24, 32, 0.88); color: #eee; font-size: 11.5px; line-height: 1.45; padding: 6px 8px; "
        "border-radius: 4px; max-width: calc(100% - 16px);}"
        ".map-legend .sw {display: inline-block; width: 11px; height: 11px; margin-right: 4px; vertical-align: -1px; "
        "border: 1px solid rgba(255,255,255,0.35);}"
        ".map-legend .ln {display: inline-block; width: 16px; height: 0; margin-right: 4px; vertical-align: 3px; "
        "border-top: 2px solid;}"
        f"html, body, [data-testid=stAppViewContainer], pre.msg, pre.trace {{font-family: {FONT_STACK};}}"
        "</style>"
    )


def legend_html() -> str:
    """The legend drawn over the map's bottom-left corner (our own HTML: no message text in it)."""
    def sw(rgba, label):
        r, g, b, a = rgba
        return f'<span class="sw" style="background: rgba({r},{g},{b},{max(a, 140) / 255:.2f})"></span>{label}'

    def ln(rgba, label):
        r, g, b, _ = rgba
        return f'<span class="ln" style="border-color: rgb({r},{g},{b})"></span>{label}'

    rows = [
        " &nbsp; ".join([sw(COLORS[("ok", True)], "active"), sw(COLORS[("review", True)], "active, review")]),
        " &nbsp; ".join([sw(COLORS[("ok", False)], "inactive"), sw(COLORS[("review", False)], "inactive, review")]),
        "AMSL/FL limits at their altitude; AGL ones from sea level",
        " &nbsp; ".join([ln(ROUTE_COLOR, "route"), sw(CONFLICT_COLOR, "enters a zone"), ln(BORDER_LINE[:3] + [255], "border"),
                         "✈ airport"]),
    ]
    return ('<div class="map-legend-anchor"><div class="map-legend" data-testid="map-legend">'
            + "<br/>".join(rows) + "</div></div>")


def route_layers(points: Sequence[tuple[float, float, float]], conflict_points: Sequence[tuple[float, float, float]] = (), *, vscale: float = 1.0, gen: int = 0) -> list[pdk.Layer]:
    """The drone route at its altitude: a 3-pixel line through its legs (``(lat, lon, alt_m)`` waypoints), numbered
    waypoint dots, and the points where it enters a zone. Widths in pixels (quoted: pydeck reads a bare string as
    an accessor expression), so the route stays a thin line at any zoom."""
    path = [[round(lon, 6), round(lat, 6), round(alt * vscale, 2)] for lat, lon, alt in points]
    legs = [{"path": [a, b], "tip": f"route leg {i + 1}: waypoint {i + 1} → {i + 2}"}
            for i, (a, b) in enumerate(zip(path, path[1:]))]
    wps = [{"position": p, "tip": f"waypoint {i + 1}: {points[i][0]:.5f}, {points[i][1]:.5f}, {points[i][2]:g} m"}
           for i, p in enumerate(path)]
    layers = [
        pdk.Layer("PathLayer", data=legs, id=f"route~{gen}", get_path="path", get_color=ROUTE_COLOR, get_width=3,
                  width_units="'pixels'", width_min_pixels=2, width_max_pixels=4, cap_rounded=True,
                  joint_rounded=True, pickable=True),
        pdk.Layer("ScatterplotLayer", data=wps, id=f"waypoints~{gen}", get_position="position",
                  get_fill_color=WAYPOINT_COLOR, get_line_color=ROUTE_COLOR, stroked=True, line_width_min_pixels=2,
                  get_radius=1, radius_min_pixels=4, radius_max_pixels=5, pickable=True),
    ]
    if conflict_points:
        layers.append(
            pdk.Layer(
                "ScatterplotLayer",
                data=[
                    {"position": [round(lon, 6), round(lat, 6), round(alt * vscale, 2)], "tip": "route enters a zone here"}
                    for lat, lon, alt in conflict_points
                ],
                id=f"conflicts~{gen}",
                get_position="position",
                get_fill_color=CONFLICT_COLOR,
                get_radius=1,
                radius_min_pixels=5,
                radius_max_pixels=6,
                pickable=True,
                parameters=FLAT,  # drawn over the volume it enters
            )
        )
    return layers



HERE_COLOR = [0, 230, 255, 255]


def here_layer(lat: float, lon: float, tip: str) -> pdk.Layer:
    """The point asked about in "Can I fly here?": a ringed dot drawn over the zones."""
    return pdk.Layer("ScatterplotLayer", data=[{"position": [round(lon, 6), round(lat, 6)], "tip": tip}], id="here",
                     get_position="position", get_fill_color=[255, 255, 255, 255], get_line_color=HERE_COLOR,
                     stroked=True, line_width_min_pixels=3, get_radius=1, radius_min_pixels=7, radius_max_pixels=8,
                     pickable=False, parameters=FLAT)


# With no zones yet (the page before the first Run) the zone layers get one invisible object each, so the browser
# builds their programs then, not when the operator clicks Run: compiling the extruded-polygon, scatterplot and
# text shaders costs seconds under software WebGL. Fully transparent, off in a corner of Antarctica.
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
WARMUP_PATH = [{"path": [[-179.9, -84.9], [-179.8, -84.9]]}]
WARMUP_POINT = [{"position": [-179.85, -84.85]}]


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
    label_zoom: float | None = None,
    pick_gen: int = 0,
    scroll_zoom: bool = False,
    scale_bounds: tuple[float, float, float, float] | None = None,
    here: tuple[float, float, str] | None = None,
) -> pdk.Deck:
    """The whole map: basemap (land, coast, borders), scale bar, volumes, the selected volume's edges, markers,
    labels (zones, airports, places; decluttered at ``label_zoom``, default the view's zoom), optional route;
    fitted to the selection or all volumes unless ``view`` is given.

    ``pick_gen`` suffixes the ids of the layers a click can select (``volumes~N``, ``markers~N``): a new id makes
    Streamlit drop its map selection, which the page has then already turned into its own (dashboard,
    ``consume_map_click``). ``scroll_zoom`` lets the mouse wheel zoom the map (else it scrolls the page).
    No map provider, no token, no map style (``NO_BASE_MAP_STYLE``): nothing leaves the machine."""
    if view is None:
        view = fit_view(focus_bounds(volumes, selected), selected=bool(selected))
    layers = under_zones(basemap_layers(basemap), basemap, view)
    bar_paths, bar_labels = scale_bar(scale_bounds)
    layers.append(scale_layer(bar_paths or WARMUP_PATH))
    vol_rows = volume_rows(volumes, t, selected=selected, vscale=vscale)
    mark_rows = marker_rows(volumes, t, selected=selected)
    if not vol_rows:
        vol_rows, mark_rows = WARMUP_VOLUME, WARMUP_MARKER
    layers.append(volume_layer(vol_rows, f"volumes~{pick_gen}"))
    layers.append(selection_layer([r for r in vol_rows if selected is not None and r["key"] == selected] or WARMUP_VOLUME))
    layers.append(marker_layer(mark_rows, f"markers~{pick_gen}"))
    points, context_labels = context_rows(basemap.get("context", {}))
    layers.append(airport_layer(points or WARMUP_POINT))
    labels = declutter(zone_label_rows(volumes) + context_labels, label_zoom if label_zoom is not None else view.zoom)
    layers.append(label_layer(bar_labels + labels or [{"position": [-179.85, -84.85], "text": " ", "kind": "scale"}]))
    if route:
        layers.extend(route_layers(route, conflict_points, vscale=vscale, gen=pick_gen))
    if here is not None:  # (lat, lon, tip): the "Can I fly here?" point
        layers.append(here_layer(*here))
    for layer in layers:  # every string of every row: never a deck.gl expression (safe_text)
        if isinstance(layer.data, list):
            layer.data = deck_safe(layer.data)
    controller = {"scrollZoom": bool(scroll_zoom), "dragRotate": True, "doubleClickZoom": True, "touchZoom": True,
                  "touchRotate": True, "keyboard": True}
    deck = CompactDeck(
        layers=layers,
        initial_view_state=view,
        map_provider=None,
        tooltip=TOOLTIP,
        views=[pdk.View(type="MapView", controller=controller)],
    )
    deck.map_style = NO_BASE_MAP_STYLE  # explicit, whatever a pydeck version makes of map_provider=None
    return deck
