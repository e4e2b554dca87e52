"""An optional raster tile basemap under the zones, from an XYZ tile server the operator names (off by default).

The operator sets ``AIRSPACE_TILE_URL`` to a template such as ``http://tiles.example.internal/{z}/{x}/{y}.png``
(their own tile server, or a provider they are allowed to use). Unset or empty, no layer here exists and the page
makes no request anywhere but its own server (the no-network promise); set, the browser fetches tiles from that
server and nowhere else. A template that is not ``http``/``https`` with ``{z}``, ``{x}`` and ``{y}`` is refused with
a message the page shows, and the map stays on the shipped basemap.

Streamlit's deck.gl (the JSON converter of ``st.pydeck_chart``) can build a ``TileLayer`` but not the function that
turns each tile into a ``BitmapLayer`` (it only knows a few CARTO helper functions), and a MapLibre style under
deck.gl would add a second WebGL canvas to repaint on every frame. So the tiles are chosen here, for the view the
page opens on: the tiles of that view at a sharp zoom (``round(zoom) + 1``, 256-px tiles on deck.gl's 512-px world)
with a margin, over a coarser ring three zooms out that still shows when the operator zooms out or pans away. Each
tile is one ``BitmapLayer`` with its Web-Mercator bounds (deck.gl interpolates bitmaps in Mercator, so a tile lies
exactly where it belongs), drawn first, without depth test and not pickable. Zooming in far past the opened view
shows the tiles enlarged until the next rerun picks them again.

The tile server must answer cross-origin image requests (``Access-Control-Allow-Origin``), as public tile servers
do: deck.gl loads images with ``fetch``.
"""

from __future__ import annotations

import math
import os
import re
from collections.abc import Mapping
from urllib.parse import urlsplit

import pydeck as pdk

TILE_URL_ENV = "AIRSPACE_TILE_URL"
MAX_TILE_ZOOM = 19
VIEW_PX = (1000, 500)  # the map on a desktop page (its column of the wide layout, MAP_HEIGHT), in CSS pixels
MARGIN = 0.25  # tiles beyond the view on each side, as a fraction of the view
MAX_TILES = 64  # sharp tiles at most (else one zoom coarser); the coarse ring adds at most 16
COARSE_STEP = 3  # zooms between the sharp tiles and the ring under them
FLAT = {"depthCompare": "always", "depthWriteEnabled": False}
_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")


class TileUrlError(ValueError):
    """A tile URL template that the page will not use; the message says why and what a good one looks like."""


def validate_tile_url(url: str) -> str:
    """``url`` stripped, when it is an http(s) XYZ template with ``{z}``, ``{x}`` and ``{y}`` once each and no other
    placeholder; else ``TileUrlError``."""
    url = (url or "").strip()
    example = "e.g. http://127.0.0.1:8080/{z}/{x}/{y}.png"
    parts = urlsplit(url)
    if parts.scheme not in ("http", "https"):
        raise TileUrlError(f"{TILE_URL_ENV} must start with http:// or https:// ({example}); got {url[:80]!r}")
    if not parts.hostname:
        raise TileUrlError(f"{TILE_URL_ENV} has no host ({example})")
    if any(c.isspace() or c in "\"'<>\\`" for c in url):
        raise TileUrlError(f"{TILE_URL_ENV} contains a space, quote or angle bracket ({example})")
    if "{" in (parts.hostname or "") or "{" in parts.netloc:
        raise TileUrlError(f"{TILE_URL_ENV}: name one tile host, without placeholders such as {{s}} ({example})")
    names = _PLACEHOLDER.findall(url)
    for need in ("z", "x", "y"):
        if names.count(need) != 1:
            raise TileUrlError(f"{TILE_URL_ENV} needs {{{need}}} exactly once ({example}); got {url[:80]!r}")
    extra = sorted(set(names) - {"z", "x", "y"})
    if extra or url.count("{") != 3 or url.count("}") != 3:
        raise TileUrlError(f"{TILE_URL_ENV} may hold only {{z}}, {{x}} and {{y}}; found {extra or 'a stray brace'}")
    return url


def configured(env: Mapping[str, str] | None = None) -> tuple[str | None, str | None]:
    """``(template, None)`` when the operator set a valid tile URL, ``(None, None)`` when none is set (the default),
    ``(None, message)`` when the one set is refused."""
    raw = (os.environ if env is None else env).get(TILE_URL_ENV, "").strip()
    if not raw:
        return None, None
    try:
        return validate_tile_url(raw), None
    except TileUrlError as e:
        return None, f"Tile basemap off: {e}"


def network_note(env: Mapping[str, str] | None = None) -> str:
    """What the page's head line says about the network: offline, or the one tile host the browser fetches from."""
    template, _ = configured(env)
    if template is None:
        return "offline: no request leaves this machine"
    return f"map tiles from {urlsplit(template).netloc} ({TILE_URL_ENV}); nothing else leaves this machine"


def _mercator(lon: float, lat: float) -> tuple[float, float]:
    """Web-Mercator position in [0, 1] x [0, 1] (y down, as tile rows count)."""
    lat = max(-85.0511, min(85.0511, lat))
    s = math.sin(math.radians(lat))
    return (lon + 180.0) / 360.0, 0.5 - math.log((1 + s) / (1 - s)) / (4 * math.pi)


def tile_bounds(z: int, x: int, y: int) -> list[float]:
    """[west, south, east, north] of tile ``z/x/y`` in degrees."""
    n = 2 ** z

    def lat(row: float) -> float:
        return math.degrees(math.atan(math.sinh(math.pi * (1 - 2 * row / n))))

    return [x / n * 360.0 - 180.0, lat(y + 1), (x + 1) / n * 360.0 - 180.0, lat(y)]


def _cover(cx: float, cy: float, half_w: float, half_h: float, z: int) -> list[tuple[int, int, int]]:
    n = 2 ** z
    x0, x1 = math.floor((cx - half_w) * n), math.floor((cx + half_w) * n)
    y0, y1 = max(0, math.floor((cy - half_h) * n)), min(n - 1, math.floor((cy + half_h) * n))
    xs = list(dict.fromkeys(x % n for x in range(x0, x1 + 1)))  # wrapped across the antimeridian, each once
    return [(z, x, y) for y in range(y0, y1 + 1) for x in xs]


def tiles_for_view(lon: float, lat: float, zoom: float, pitch: float = 0.0,
                   px: tuple[int, int] = VIEW_PX) -> tuple[list[tuple[int, int, int]], list[tuple[int, int, int]]]:
    """``(coarse, sharp)`` tiles ``(z, x, y)`` for a view centred on ``lon``/``lat`` at deck.gl ``zoom``: the sharp
    ones cover the view plus ``MARGIN`` (more above the centre when the map is tilted, where it sees farther), the
    coarse ring ``COARSE_STEP`` zooms out covers four times that."""
    cx, cy = _mercator(lon, lat)
    world_px = 512.0 * 2 ** zoom
    half_w = px[0] / 2 / world_px * (1 + 2 * MARGIN)
    half_h = px[1] / 2 / world_px * (1 + 2 * MARGIN) * (1.5 if pitch > 0 else 1.0)
    z = max(0, min(MAX_TILE_ZOOM, math.floor(zoom + 0.5) + 1))
    sharp = _cover(cx, cy, half_w, half_h, z)
    while len(sharp) > MAX_TILES and z > 0:
        z -= 1
        sharp = _cover(cx, cy, half_w, half_h, z)
    coarse = _cover(cx, cy, 4 * half_w, 4 * half_h, max(0, z - COARSE_STEP)) if z > 0 else []
    return coarse[:16], sharp


def tile_url(template: str, z: int, x: int, y: int) -> str:
    return template.replace("{z}", str(z)).replace("{x}", str(x)).replace("{y}", str(y))


def tile_layers(template: str, view: pdk.ViewState) -> list[pdk.Layer]:
    """One ``BitmapLayer`` per tile for ``view`` (coarse ring first, sharp tiles over it); ids name the tile, so a
    rerun that needs the same tile keeps the image deck.gl already loaded."""
    coarse, sharp = tiles_for_view(float(view.longitude), float(view.latitude), float(view.zoom),
                                   float(getattr(view, "pitch", 0) or 0))
    return [pdk.Layer("BitmapLayer", id=f"tile-{z}-{x}-{y}", image=tile_url(template, z, x, y),
                      bounds=tile_bounds(z, x, y), pickable=False, parameters=FLAT)
            for z, x, y in coarse + sharp]
