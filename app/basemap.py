"""The shipped offline basemap (Natural Earth 1:10m land and coastline, ``data/basemap``; see its PROVENANCE.md).

Two ways to hand it to deck.gl, both local:

* **served** (preferred): ``app/static`` links to ``data/basemap``; with ``server.enableStaticServing`` on (set in
  ``app/.streamlit/config.toml``) the browser fetches ``app/static/land.geojson`` once from the same 127.0.0.1
  server and caches it, so reruns of the page do not resend 5 MB of coordinates.
* **embedded** (fallback, and what tests read): the GeoJSON dicts themselves go into the deck JSON.
"""

from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

import airspace.data

BASEMAP_DIR = Path(airspace.data.__file__).resolve().parent / "basemap"
LAND_FILE = "land.geojson"
COAST_FILE = "coastline.geojson"
STATIC_PREFIX = "app/static/"  # Streamlit serves <script dir>/static/<name> at this relative URL


class BasemapMissing(FileNotFoundError):
    """The shipped basemap files are not where they should be (a broken checkout)."""


def basemap_path(name: str) -> Path:
    path = BASEMAP_DIR / name
    if not path.is_file():
        raise BasemapMissing(f"offline basemap file missing: {path} (see data/basemap/PROVENANCE.md)")
    return path


@lru_cache(maxsize=None)
def load_geojson(name: str) -> dict:
    """One basemap file parsed (cached for the life of the process)."""
    data = json.loads(basemap_path(name).read_text(encoding="utf-8"))
    if data.get("type") != "FeatureCollection" or not data.get("features"):
        raise BasemapMissing(f"{name} is not a non-empty GeoJSON FeatureCollection")
    return data


def basemap_sources(served: bool) -> tuple[str | dict, str | dict]:
    """(land, coastline) for ``layers.basemap_layers``: same-origin URLs when served, else the GeoJSON dicts."""
    if served:
        basemap_path(LAND_FILE), basemap_path(COAST_FILE)  # fail loudly here rather than a silent 404 in the browser
        return STATIC_PREFIX + LAND_FILE, STATIC_PREFIX + COAST_FILE
    return load_geojson(LAND_FILE), load_geojson(COAST_FILE)
