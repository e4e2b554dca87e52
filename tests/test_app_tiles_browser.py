"""The operator's tile basemap in a real headless Chromium, against a tile server this test runs on 127.0.0.1.

Off (no ``AIRSPACE_TILE_URL``), the page asks the tile server for nothing and no request leaves 127.0.0.1; on, the
page requests ``z/x/y`` tiles from it and draws them (the tile's colour is on the map). Screenshots in
``artifacts/tiles_off.png`` and ``artifacts/tiles_on.png``."""

from __future__ import annotations

import io
import os
import threading
import time
from contextlib import contextmanager
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from browser_page import _outside, serve_dashboard  # the page helpers beside this file
from test_app_browser import (
    ARTIFACTS,
    CHART,
    REPO,
    _free_port,
    browser_context,  # noqa: F401 - the shared Chromium, a fixture used by name
)

pytestmark = pytest.mark.browser

TILE_RGB = (40, 170, 95)  # a green that nothing else on the map is


def _tile_png() -> bytes:
    from PIL import Image, ImageDraw

    img = Image.new("RGB", (256, 256), TILE_RGB)
    ImageDraw.Draw(img).rectangle((0, 0, 255, 255), outline=(250, 250, 250), width=2)  # tile edges show
    buf = io.BytesIO()
    img.save(buf, "PNG")
    return buf.getvalue()


@pytest.fixture(scope="module")
def tile_server():
    """A tiny XYZ tile server on 127.0.0.1: one PNG for every ``/tiles/z/x/y.png``, every requested path recorded."""
    png, paths = _tile_png(), []

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self):  # noqa: N802 (http.server's name)
            paths.append(self.path)
            ok = self.path.startswith("/tiles/") and self.path.endswith(".png")
            self.send_response(200 if ok else 404)
            self.send_header("Content-Type", "image/png" if ok else "text/plain")
            self.send_header("Access-Control-Allow-Origin", "*")  # deck.gl loads images with fetch
            self.send_header("Content-Length", str(len(png) if ok else 0))
            self.end_headers()
            if ok:
                self.wfile.write(png)

        def log_message(self, *args):
            pass

    httpd = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", paths
    finally:
        httpd.shutdown()
        httpd.server_close()


@contextmanager
def _streamlit(tile_url: str | None):
    """``streamlit run app/dashboard.py`` on a free 127.0.0.1 port with ``AIRSPACE_TILE_URL`` set or unset."""
    port = _free_port()
    env = {k: v for k, v in os.environ.items() if k != "AIRSPACE_TILE_URL"}
    if tile_url:
        env["AIRSPACE_TILE_URL"] = tile_url
    log = ARTIFACTS / f"tiles_streamlit_{'on' if tile_url else 'off'}.log"
    with serve_dashboard(port, log, REPO, env) as url:
        yield url


def _tile_pixels(png: bytes) -> int:
    import numpy as np
    from PIL import Image

    a = np.asarray(Image.open(io.BytesIO(png)).convert("RGB"), dtype=int)
    return int((np.abs(a - np.array(TILE_RGB)) <= 12).all(-1).sum())


def _visit(ctx, url: str, shot: str, until=lambda: True) -> tuple[list[str], int]:
    """Open the page, wait for its map (and for ``until()``), let it settle; returns every request and how many
    pixels of the map have the tile colour."""
    page = ctx.new_page()
    page.set_viewport_size({"width": 1400, "height": 1000})
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    chart = page.locator(CHART)
    chart.wait_for(timeout=300_000)
    deadline = time.monotonic() + 120
    while not until() and time.monotonic() < deadline:
        time.sleep(0.3)
    page.wait_for_timeout(3000)  # the images decode and deck.gl draws them
    pixels = _tile_pixels(chart.screenshot())
    page.screenshot(path=str(ARTIFACTS / shot))
    page.close()
    return requests, pixels


@pytest.mark.timeout(900, func_only=True)
def test_tile_basemap_off_by_default_and_drawn_when_configured(browser_context, tile_server):  # noqa: F811
    base, paths = tile_server
    with _streamlit(None) as url:
        requests, pixels = _visit(browser_context, url, "tiles_off.png")
    assert requests and not _outside(requests), _outside(requests)
    assert all(r.startswith(url) for r in requests if r.startswith("http")), "off: a request left the page's server"
    assert paths == [] and pixels == 0

    with _streamlit(base + "/tiles/{z}/{x}/{y}.png") as url:
        requests, pixels = _visit(browser_context, url, "tiles_on.png", until=lambda: len(paths) >= 4)
    tiles = [p for p in paths if p.startswith("/tiles/")]
    assert len(tiles) >= 4, paths
    z, x, y = (int(v) for v in tiles[0].removesuffix(".png").split("/")[-3:])
    assert 0 <= x < 2 ** z and 0 <= y < 2 ** z
    assert not _outside(requests), _outside(requests)  # the tile server is the only other host, and it is local
    assert {r.split("/tiles/")[0] for r in requests if "/tiles/" in r} == {base}
    assert pixels > 10_000, f"the tiles were requested but not drawn ({pixels} px of their colour)"
