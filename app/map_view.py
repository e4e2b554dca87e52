"""Where the dashboard's map looks: the bounds of the zones (or of the selected one) and the deck.gl view that fits
them (a world view when there are none)."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence

import pydeck as pdk


def key_str(key: tuple[int, int]) -> str:
    """``"message:zone"``: the stable id of a volume/record row across table, map and selection."""
    return f"{key[0]}:{key[1]}"


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


def fit_view(bounds: tuple[float, float, float, float] | None, *, selected: bool = False,
             pitch: float = 45.0) -> pdk.ViewState:
    """The view the map opens on: a selected zone with its surroundings (3x its size, flown to), or all zones
    fitted snugly (a world view when there are none); ``pitch`` 0 looks straight down (the page's 2D)."""
    return view_for_bounds(bounds, fly=selected, margin=3.0 if selected else 1.6, pitch=pitch)
