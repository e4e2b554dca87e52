"""The dashboard in a real headless Chromium: served by ``streamlit run`` on 127.0.0.1, demo20 clicked and run, the
deck.gl canvas screenshotted (``artifacts/``) and checked for the colours it must show, every browser request
checked to stay on this machine, and the time from clicking Run to volumes on screen measured; then, in the same
page, a route (a thin line, the zone colours still visible, conflicts listed), a tooltip (plain text, inside the
map), a click on a volume (its record selected), the time entry and "now", and the altitude filter. Other pages:
the three-continents batch (every zone reachable, the named place listed as not on the map), message text that
tries to be Markdown or HTML (nothing of it becomes an element, no request leaves), a file replaced by pasted text,
and the page at a phone's width (390 px).

Skips (with the reason) only when no Chromium or no playwright is installed (``make browser-deps`` installs the
Debian chromium; the playwright package drives it, ``playwright install`` is never used). Chinese text needs a CJK
font: the set-up installs Debian's ``fonts-noto-cjk`` where it can (root with apt-get) and says so where it cannot.
"""

from __future__ import annotations

import io
import json
import os
import shutil
import socket
import subprocess
import time
from pathlib import Path

import pytest
from browser_page import (
    _choose_engine,
    _close_sidebar,
    _counts,
    _cyan,
    _hand_click,
    _map_array,
    _off_legend,
    _open_sidebar,
    _options,
    _outside,
    _resolved_rows,
    _run_batch,
    _select_option,
    _settled,
    _solid_point,
    _solid_red_point,
    _type_segments,
    _wait_text,
    serve_dashboard,  # the page helpers beside this file
)

pytestmark = pytest.mark.browser

REPO = Path(__file__).resolve().parents[1]
ARTIFACTS = REPO / "artifacts"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser") or "/usr/bin/chromium"
CHROME_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
ENGINE = os.environ.get("AIRSPACE_BROWSER_ENGINE", "clover")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture(scope="module")
def server():
    """``streamlit run app/dashboard.py`` on a free 127.0.0.1 port, as ``make run`` starts it; stopped afterwards."""
    with serve_dashboard(_free_port(), ARTIFACTS / "browser_streamlit.log", REPO) as url:
        yield url


def _cjk_font() -> bool:
    """A font with Chinese glyphs is installed (fontconfig), installing Debian's fonts-noto-cjk where possible."""
    def have() -> bool:
        out = subprocess.run(["fc-list", ":lang=zh"], capture_output=True, text=True)
        return out.returncode == 0 and bool(out.stdout.strip())

    if shutil.which("fc-list") is None:
        return False
    if not have() and os.geteuid() == 0 and shutil.which("apt-get"):
        env = {**os.environ, "DEBIAN_FRONTEND": "noninteractive"}
        subprocess.run(["apt-get", "install", "-y", "-qq", "fonts-noto-cjk"], capture_output=True, env=env, timeout=600)
    return have()


@pytest.fixture(scope="module")
def browser_context(tmp_path_factory):
    if not Path(CHROMIUM).exists():
        pytest.skip("no Chromium installed (apt-get install chromium, or `make browser-deps`)")
    sync_api = pytest.importorskip("playwright.sync_api", reason="the playwright Python package is not installed")
    with sync_api.sync_playwright() as p:
        ctx = p.chromium.launch_persistent_context(
            str(tmp_path_factory.mktemp("chromium-profile")),  # a fresh --user-data-dir
            executable_path=CHROMIUM,
            headless=True,
            args=CHROME_ARGS,
            viewport={"width": 1400, "height": 1000},
        )
        ctx.set_default_timeout(300_000)  # a shared 2-core machine: a rerun can take a minute
        try:
            yield ctx
        finally:
            ctx.close()


# The page's own clock, for where the time goes (measurement only; the page draws the same with it): the click on
# Run, the metrics showing the 20 messages, and every deck.gl frame drawn after the click. deck.gl draws inside
# requestAnimationFrame callbacks; a callback that issued WebGL draw calls is a frame, and its pixels are read back
# from the WebGL canvas there (the software compositor reads each frame back anyway) to see whether the volume
# colour is in it. The harness's clock (Playwright round trips, screenshots) comes on top of this.
PAGE_CLOCK_JS = """
(() => {
  const st = window.__pageClock = {click: null, metrics: null, frames: []};
  document.addEventListener('pointerdown', () => { st.click = performance.now(); st.metrics = null; st.frames = []; }, true);
  new MutationObserver(() => {
    if (st.click === null || st.metrics !== null) return;
    const head = document.querySelector('[data-testid=head-line]');
    if (head && head.textContent.includes('20 messages')) st.metrics = performance.now() - st.click;
  }).observe(document, {subtree: true, childList: true, characterData: true});
  let frame = null;
  const raf = window.requestAnimationFrame.bind(window);
  window.requestAnimationFrame = cb => raf(ts => {
    const outer = frame === null;
    if (outer) frame = {gl: null};
    try { cb(ts); } finally {
      if (outer) {
        const gl = frame.gl;
        frame = null;
        if (gl && st.click !== null) {
          const w = gl.drawingBufferWidth, h = gl.drawingBufferHeight, px = new Uint8Array(w * h * 4);
          gl.readPixels(0, 0, w, h, gl.RGBA, gl.UNSIGNED_BYTE, px);
          const t = performance.now() - st.click;  // the frame is drawn once its pixels can be read back
          let red = 0;
          for (let i = 0; i < px.length; i += 4) if (px[i] > 150 && px[i + 1] < 80 && px[i + 2] < 90) red++;
          st.frames.push({t, red});
        }
      }
    }
  });
  const P = WebGL2RenderingContext.prototype;
  for (const name of ['drawArrays', 'drawElements', 'drawArraysInstanced', 'drawElementsInstanced']) {
    const f = P[name];
    P[name] = function (...a) { if (frame) frame.gl = this; return f.apply(this, a); };
  }
})();
"""


def _page_clock(page) -> dict:
    """Seconds from the click on Run (page clock) to the metrics in the DOM and to the end of the first deck.gl frame
    with the volume colour, and how many frames deck.gl drew up to it."""
    st = page.evaluate("window.__pageClock")
    frames = st["frames"]
    first = next((i for i, f in enumerate(frames) if f["red"] > 500), None)
    # the server's own time for the batch (the head line's "clover 0.93 s"): what of the rest is the model
    import re

    m = re.search(r" (\d+\.\d+) s ·", page.get_by_test_id("head-line").inner_text())
    engine_s = float(m.group(1)) if m else None
    return {
        "engine_wall_s": engine_s,
        "metrics_s": None if st["metrics"] is None else round(st["metrics"] / 1000, 3),
        "volumes_frame_s": None if first is None else round(frames[first]["t"] / 1000, 3),
        "deck_frames_to_volumes": None if first is None else first + 1,
    }


def test_demo20_draws_volumes_over_the_basemap(server, browser_context):
    from PIL import Image

    page = browser_context.new_page()
    page.add_init_script(PAGE_CLOCK_JS)
    requests: list[str] = []
    page.on("request", lambda r: requests.append(r.url))
    page.goto(server)
    chart = page.locator('[data-testid="stDeckGlJsonChart"]')
    chart.wait_for(timeout=400_000)  # the world map is there before any Run (and deck.gl is loaded)
    page.get_by_role("button", name="Sample: demo20").click(timeout=400_000)
    page.get_by_text("Loaded sample demo20").wait_for(timeout=400_000)
    _choose_engine(page, ENGINE)
    if ENGINE != "rules":  # the model engine loads behind the page: the Run waits until it is ready
        page.get_by_text(f"Engine: {ENGINE}").first.wait_for(timeout=400_000)
    time.sleep(2.0)  # let the radio's rerun finish so the click below is the only thing measured

    t0 = time.perf_counter()
    page.get_by_role("button", name="Run", exact=True).click(timeout=400_000)
    # the run's results are in the page (the metrics say 20 messages): server work + DOM update, before WebGL
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=head-line]') || {textContent: ''}).textContent.includes('20 messages')",
        timeout=400_000, polling=50,
    )
    dom_s = time.perf_counter() - t0
    # wait for the page clock's first frame with the volume colour. Not by polling screenshots: each one has the
    # browser composite and encode the page, on the cores that are drawing the frame being measured (polling them
    # every 50 ms put ~0.2-0.3 s on the page clock of a 2-core machine). The harness's clock stops when the page
    # has reported that frame; the screenshot below then checks what is on screen.
    from playwright.sync_api import TimeoutError as PageTimeout

    render_s = None
    try:
        page.wait_for_function("() => (window.__pageClock.frames || []).some(f => f.red > 500)", timeout=120_000,
                               polling=100)
        render_s = time.perf_counter() - t0
    except PageTimeout:  # reported by the assertion below, with the pixels on screen then
        pass
    time.sleep(1.0)  # settle, then the artifact
    ARTIFACTS.mkdir(exist_ok=True)
    img = Image.open(io.BytesIO(page.screenshot(clip=chart.bounding_box())))
    img.save(ARTIFACTS / "browser_demo20_map.png")
    page.screenshot(path=str(ARTIFACTS / "browser_demo20_page.png"), full_page=True)
    counts = _counts(img)

    clock = _page_clock(page)
    # whether Clover had read the batch before the click (the dashboard reads a batch on the page ahead of its Run;
    # AIRSPACE_READ_AHEAD=0 measures a cold Run)
    read_ahead = page.get_by_text("20 of 20 messages had been read").count() > 0
    second_s = _second_batch_s(page, chart) if os.environ.get("AIRSPACE_BROWSER_MEASURE") else None
    (ARTIFACTS / "browser_demo20.json").write_text(
        json.dumps({"engine": ENGINE, "click_to_results_in_page_s": dom_s, "click_to_volumes_s": render_s,
                    "page_clock": clock, "read_ahead": read_ahead, "second_batch_click_to_volumes_s": second_s,
                    "pixels": counts, "cpus": os.cpu_count(), "loadavg": os.getloadavg()}, indent=1)
    )
    print(f"\ndemo20 ({ENGINE}): results in the page {dom_s:.2f} s and volumes on screen {render_s} s after "
          f"clicking Run (first batch of the page; page clock {clock}; read ahead {read_ahead}), "
          f"composite5 {second_s} s (second batch); pixels {counts}; load average {os.getloadavg()}")

    assert render_s is not None, f"no volume colour appeared within 120 s: {counts}"
    # the canvas is not blank: sea, land and many colours, and both volume colours of demo20 at its busiest time
    assert counts["colours"] > 30, counts
    assert counts["sea"] > 1000 and counts["land"] > 1000, counts
    assert counts["red"] > 500, counts  # active ok zones
    assert counts["amber"] > 50, counts  # A2243/26, active and under review (estimated end)
    # nothing left this machine: every http(s) request went to the local server
    _operator_checks(page, chart)
    assert not _outside(requests), _outside(requests)
    page.close()


def _second_batch_s(page, chart) -> float | None:
    """Seconds from Run to composite5's volumes on screen, in a page that already drew demo20 (measurement only:
    set AIRSPACE_BROWSER_MEASURE=1)."""
    from PIL import Image

    page.get_by_role("button", name="Sample: composite5").click(timeout=400_000)
    page.get_by_text("Loaded sample composite5").wait_for(timeout=400_000)
    time.sleep(2.0)
    t1 = time.perf_counter()
    page.get_by_role("button", name="Run", exact=True).click(timeout=400_000)
    page.wait_for_function(
        "() => (document.querySelector('[data-testid=head-line]') || {textContent: ''}).textContent.includes('5 messages')",
        timeout=400_000,
    )
    chart.scroll_into_view_if_needed()
    while time.perf_counter() - t1 < 120:
        c2 = _counts(Image.open(io.BytesIO(page.screenshot(clip=chart.bounding_box()))))
        if c2["red"] + c2["amber"] > 200:
            return time.perf_counter() - t1
        time.sleep(0.05)
    return None


# ------------------------------------------------------------------------------------------------------------------
# What an operator does next on the same page, and other pages
# ------------------------------------------------------------------------------------------------------------------


def _operator_checks(page, chart) -> None:
    """demo20 after its Run: route, tooltip, click, time entry and "now", altitude filter (screenshots in artifacts/)."""
    from PIL import Image

    # a tooltip: plain text (no tag in it but line breaks), inside the map
    chart.scroll_into_view_if_needed()
    a = _map_array(chart)
    x, y = _solid_red_point(a)
    box = chart.bounding_box()
    page.mouse.move(box["x"] + x, box["y"] + y)
    tip = page.locator('[data-testid="stDeckGlJsonChart"] .deck-tooltip')
    tip.wait_for(state="visible", timeout=60_000)
    text, inner = tip.inner_text(), tip.evaluate("e => e.innerHTML")
    assert "<" not in inner.replace("<br>", "") and "Floor:" in text and "Ceiling:" in text, inner
    tb = tip.bounding_box()
    assert box["x"] <= tb["x"] and tb["x"] + tb["width"] <= box["x"] + box["width"], (tb, box)
    assert box["y"] <= tb["y"] and tb["y"] + tb["height"] <= box["y"] + box["height"], (tb, box)
    page.screenshot(path=str(ARTIFACTS / "browser_tooltip.png"))
    zone_id = text.splitlines()[0].split(" · ")[0]

    # a click on the volume selects its record: its message with the spans highlighted
    head = page.locator('[data-testid="focus-head"]')
    for attempt in range(2):  # on a loaded machine deck.gl can miss a tap; a second click is what a person does
        _hand_click(page, box["x"] + x, box["y"] + y)
        try:
            head.wait_for(timeout=150_000)
            break
        except Exception:
            if attempt:
                raise
    assert zone_id in head.inner_text()
    assert page.locator("pre.msg mark").count() >= 3
    time.sleep(1.5)
    page.screenshot(path=str(ARTIFACTS / "browser_selected.png"))
    # the click also asked "Can I fly here?" at its point (marked on the map): the box emptied takes it away
    fly_box = page.get_by_label("Place or coordinates")
    assert "map point" in page.get_by_test_id("fly-answer").inner_text()
    fly_box.fill("")
    fly_box.press("Enter")
    page.get_by_test_id("fly-answer").wait_for(state="detached")

    # the route: the example is real input, Check route works at once; a thin line, zone colours still there
    page.get_by_text("Route check", exact=True).click()
    for attempt in range(3):  # a click lost to a rerun of the page (busy machine) is clicked again, as a person would
        page.get_by_role("button", name="Check route", exact=True).click()
        try:
            _wait_text(page, "Route conflicts with", timeout=60_000)
            break
        except Exception:
            if attempt == 2:
                raise
    time.sleep(2.0)
    chart.scroll_into_view_if_needed()
    a = _map_array(chart)

    Image.fromarray(a.astype("uint8")).save(ARTIFACTS / "browser_route_map.png")
    cyan = _cyan(a)
    cols = cyan.sum(0)
    assert cyan.sum() > 100, "the route is not drawn"
    assert cols.max() <= 8, f"the route is {cols.max()} px tall somewhere: not a thin line"
    counts = _counts(Image.fromarray(a.astype("uint8")))
    assert counts["red"] > 500 and counts["amber"] > 50, counts  # the zones are not hidden by the route
    assert page.locator('[data-testid="stDataFrame"]').count() >= 2  # zone list, conflicts

    # the time entry, then "now", then back to the demo time
    _type_segments(page, "Time (UTC)", [("hour", "06"), ("minute", "30")])
    _wait_text(page, "active at 2026-11-30 06:30Z")
    page.get_by_role("button", name="Now", exact=True).click()
    from datetime import datetime, timezone

    _wait_text(page, f"active at {datetime.now(timezone.utc):%Y-%m-%d}")
    page.get_by_role("button", name="Demo time", exact=True).click()
    _wait_text(page, "12 of 19 zones active at 2026-11-30 02:00Z")

    # the altitude filter: only zones that reach below 120 m AGL
    before = int(page.get_by_text("of 19 volumes drawn").first.inner_text().split(" of ")[0])
    page.get_by_text("Only zones reaching below 120 m AGL").click()
    deadline = time.time() + 300
    while time.time() < deadline:
        cap = page.get_by_text("of 19 volumes drawn").first.inner_text()
        if int(cap.split(" of ")[0]) != before:
            break
        time.sleep(0.5)
    shown = int(cap.split(" of ")[0])
    assert 0 < shown < before, cap
    time.sleep(2.0)
    page.screenshot(path=str(ARTIFACTS / "browser_filter_low.png"))
    page.get_by_text("Only zones reaching below 120 m AGL").click()


THREE_CONTINENTS = """!BOS 01/502 BOS AIRSPACE UAS WI AN AREA DEFINED AS .5NM RADIUS OF 421722N0712148W (9.5NM NW OWD) SFC-400FT AGL 2601190001-2607312359

A2549/26 NOTAMN  Q) ENOR/QRDCA/IV/BO /AW/000/020/6355N00906E009  A) ENOL B) 2606040900 C) 2606052100  E) TEMPO DANGER AREA ACTIVATED PSN 640100N   0085300E - 640200N 0090300E - 635800N 0090500E - 635200N 0092300E -   634700N 0090200E - 635600N 0085800E - (6401N 00853E)  F) GND G) 2000FT AMSL

关于深圳湾体育中心演唱会期间实施无人机临时管控的通告：2026年12月6日14时至23时，以深圳湾体育中心为中心，半径1公里范围内禁止一切无人机飞行。"""


# One walk-through below, from its page opening to its last check; a hung browser fails its test instead of holding
# CI. On this 2-core machine with three model trainings beside them (load average 6-8) they took 30-85 s each,
# most of it the browser drawing the map in software WebGL (a new page's first frames take 15-25 s there). The
# server's start and its first session (the three engines loading) are the fixtures', bounded by their own waits.
WALK_S = 150
WAIT_MS = 60_000  # one wait on the page (a rerun, a deck.gl frame); Playwright then says what it waited for
CHART = '[data-testid="stDeckGlJsonChart"]'


@pytest.fixture(scope="module")
def app(server, browser_context):
    """The server after its first session: that one loads the three engines (the Run button is drawn after them),
    which is not what the walk-throughs below wait for."""
    page = browser_context.new_page()
    page.goto(server)
    page.get_by_role("button", name="Run", exact=True).wait_for(timeout=400_000)
    page.close()
    return server


def _open(browser_context, url: str, requests: list[str] | None = None, viewport: dict | None = None):
    """A new page (a new Streamlit session) on ``url`` with its map drawn; every request it makes goes to
    ``requests``."""
    from playwright.sync_api import expect

    expect.set_options(timeout=WAIT_MS)  # its own default is 5 s
    page = browser_context.new_page()
    page.set_default_timeout(WAIT_MS)
    if viewport:
        page.set_viewport_size(viewport)
    if requests is not None:
        page.on("request", lambda r: requests.append(r.url))
    page.goto(url)
    chart = page.locator(CHART)
    chart.wait_for()
    return page, chart


def _until(probe, timeout_s: float = WAIT_MS / 1000):
    """Poll ``probe()`` (a look at the page: its pixels, a box) until it returns something truthy or the time is
    up; returns its last value."""
    deadline = time.monotonic() + timeout_s
    while True:
        value = probe()
        if value or time.monotonic() > deadline:
            return value
        time.sleep(0.2)


def _red_pixels(chart) -> int:
    from PIL import Image

    return _counts(Image.fromarray(_map_array(chart).astype("uint8")))["red"]


ACTIVE_SUMMARY = r"^(No zone is|\d+ of \d+ zones) active at \d{4}-"


def _step_to(page, summary: str, steps: int = 8) -> str:
    """Step the map's time with "◀ change" (or "change ▶" where there is no earlier change) until the active-zones
    caption starts with ``summary``; returns the caption. Each step waits for the caption to change and the run to
    end."""
    import re

    from playwright.sync_api import expect

    caption = page.get_by_test_id("stCaptionContainer").filter(has_text=re.compile(ACTIVE_SUMMARY))
    for _ in range(steps):
        _settled(page)
        text = caption.inner_text()
        if text.startswith(summary):
            return text
        prev = page.get_by_role("button", name="◀ change", exact=True)
        (prev if prev.is_enabled() else page.get_by_role("button", name="change ▶", exact=True)).click()
        expect(caption).not_to_have_text(text)
    expect(caption).to_have_text(re.compile("^" + re.escape(summary)))
    return caption.inner_text()


@pytest.mark.timeout(WALK_S, func_only=True)
def test_three_continents_every_zone_reachable(app, browser_context):
    """Boston, Norway and Shenzhen in one batch: the world view, each zone flown to from the focus box and drawn,
    the Chinese notice's named place listed beside the map as not on the map, with why (in a CJK font where one is
    installed), and its record reachable from the focus box too."""
    from playwright.sync_api import expect

    cjk = _cjk_font()
    requests: list[str] = []
    page, chart = _open(browser_context, app, requests)
    _run_batch(page, THREE_CONTINENTS)
    unplaced = page.get_by_test_id("unplaced")
    expect(unplaced).to_contain_text("Not on the map (1)")
    expect(unplaced).to_contain_text("深圳湾体育中心")
    expect(unplaced).to_contain_text("no coordinates")
    box, listed = chart.bounding_box(), unplaced.bounding_box()
    assert listed["x"] >= box["x"] + box["width"], (listed, box)  # beside the map, not under it
    assert _options(page, "Focus zone") == ["all zones", "BOS 01/502 · ok", "A2549/26 · ok", "message 3 · review"]
    _select_option(page, "Focus zone", "message 3 · review")
    expect(page.get_by_test_id("focus-head")).to_contain_text("message 3, zone 1")
    expect(page.locator("pre.msg")).to_contain_text("以深圳湾体育中心为中心")
    # a moment both drawn zones are active (Norway 4-5 June 2026, Boston January-July 2026), reached with the
    # "previous / next change" steps from now, whatever the date
    _step_to(page, "2 of 2 zones active at 2026-06-0")
    page.screenshot(path=str(ARTIFACTS / "browser_3c_world.png"))
    for option, name in (("BOS 01/502 · ok", "bos"), ("A2549/26 · ok", "enor")):
        _select_option(page, "Focus zone", option)
        expect(page.get_by_test_id("focus-head")).to_contain_text(option.split(" · ")[0])
        red = _until(lambda: (r := _red_pixels(chart)) > 300 and r)
        page.screenshot(path=str(ARTIFACTS / f"browser_3c_{name}.png"))
        assert red, f"{option}: its volume is not drawn (no active-zone red on the map)"
    print(f"\nCJK font installed: {cjk}")
    assert not _outside(requests), _outside(requests)
    page.close()


HOSTILE = """A0001/26 NOTAMN
Q) ZGZU/QRDCA/IV/BO/W/000/010/2232N11356E001
A) ZGSZ B) 2611300000 C) 2611301200
D) ![x](http://198.51.100.7/beacon.png) [Open official NOTAM](http://198.51.100.7/login) <img src=http://198.51.100.7/i.png>
E) DANGER AREA 223110N1135635E RADIUS 1NM :red[x] $x$ @@=1+1
F) SFC G) 1000FT AMSL"""

PAYLOAD_SELECTOR = 'img[src*="198.51.100.7"], a[href*="198.51.100.7"], [src*="198.51.100.7"], [href*="198.51.100.7"]'


HOSTILE_FREE_TEXT = "http://198.51.100.7/[x](http://198.51.100.7/y) ![y](http://198.51.100.7/z.png)"


@pytest.mark.timeout(WALK_S, func_only=True)
def test_message_text_that_looks_like_markup_stays_text(app, browser_context):
    """Markdown images and links, HTML and deck.gl expressions in a message: after the Run, focusing each record
    and hovering the volume, no element of the payload exists, the payload reads as the text it is, and no request
    leaves 127.0.0.1."""
    from playwright.sync_api import expect

    requests: list[str] = []
    page, chart = _open(browser_context, app, requests)
    _run_batch(page, HOSTILE + "\n\n" + HOSTILE_FREE_TEXT)
    _step_to(page, "1 of 1 zones active at")  # the NOTAM's zone is active on 30 November 2026 only
    # hovered before any zone is focused: a focused zone is drawn opaque, seen from above darker than the amber
    chart.scroll_into_view_if_needed()

    def zone_amber():
        """A pixel deep inside the zone's fill, as lit from above (darker than the legend's pure amber): an amber
        hue. The legend's "active, review" swatch is amber too and lies over the map: left out."""
        img = _map_array(chart)
        r, g, b = img[..., 0], img[..., 1], img[..., 2]
        return _solid_point(_off_legend(page, chart, (r > 120) & (b < 60) & (r * 10 > g * 13) & (r * 10 < g * 18)),
                            31)  # 15 px inside the fill

    pt = _until(zone_amber)
    assert pt is not None, "the zone's volume is not drawn (no active review amber on the map)"
    box = chart.bounding_box()
    page.mouse.move(box["x"] + pt[0], box["y"] + pt[1])
    tip = page.locator(f"{CHART} .deck-tooltip")
    expect(tip).to_be_visible()
    expect(tip).to_contain_text("A0001/26")
    inner = tip.evaluate("e => e.innerHTML")
    assert "<" not in inner.replace("<br>", ""), inner
    page.screenshot(path=str(ARTIFACTS / "browser_hostile.png"))
    # review: its D) item is no schedule, and the reason quotes it
    assert _options(page, "Focus zone") == ["all zones", "A0001/26 · review", "message 2 · error"]
    _select_option(page, "Focus zone", "A0001/26 · review")
    head = page.get_by_test_id("focus-head")
    expect(head).to_contain_text("A0001/26")
    expect(head).to_contain_text("'![x](http://198.51.100.7/beacon.png) [Open official NOTAM]")
    msg = page.locator("pre.msg")
    for literal in ("![x](http://198.51.100.7/beacon.png)", "[Open official NOTAM](http://198.51.100.7/login)",
                    "<img src=http://198.51.100.7/i.png>", ":red[x] $x$ @@=1+1"):
        expect(msg).to_contain_text(literal)
    assert page.locator(PAYLOAD_SELECTOR).count() == 0
    # the free-text message is an error record: listed as not on the map, and its text shown as text when focused
    expect(page.get_by_test_id("unplaced")).to_contain_text("msg 2")
    _select_option(page, "Focus zone", "message 2 · error")
    expect(msg).to_have_text(HOSTILE_FREE_TEXT)
    assert page.locator(PAYLOAD_SELECTOR).count() == 0
    assert not _outside(requests), _outside(requests)
    page.close()


@pytest.mark.timeout(WALK_S, func_only=True)
def test_pasted_text_replaces_an_attached_file(app, browser_context, tmp_path):
    """A file attached fills the batch box; text pasted over it while the file is still attached is what Run
    reads, and stays in the box after the Run."""
    import re

    from playwright.sync_api import expect

    page, _ = _open(browser_context, app)
    f = tmp_path / "one.txt"
    f.write_text(THREE_CONTINENTS.split("\n\n")[0], encoding="utf-8")
    page.get_by_test_id("stFileUploaderDropzoneInput").set_input_files(str(f))
    expect(page.get_by_text("Loaded 1 uploaded file(s)")).to_be_visible()
    area = page.get_by_label("Paste messages")
    expect(area).to_have_value(re.compile(r"^!BOS 01/502"))
    pasted = THREE_CONTINENTS.split("\n\n")[1]
    _run_batch(page, pasted)
    expect(page.get_by_test_id("head-line")).to_contain_text("1 message ·")
    # what ran is the pasted NOTAM, not the file's
    assert _options(page, "Focus zone") == ["all zones", "A2549/26 · ok"]
    expect(area).to_have_value(pasted)
    expect(page.get_by_test_id("stFileChipName")).to_have_text("one.txt")  # the file is still attached
    page.close()


@pytest.mark.timeout(WALK_S, func_only=True)
def test_phone_width(app, browser_context):
    """At 390 px: the route check is in the page (not a collapsed sidebar) and the map fills its width."""
    from playwright.sync_api import expect

    page, chart = _open(browser_context, app, viewport={"width": 390, "height": 844})
    _open_sidebar(page)
    page.get_by_role("button", name="Sample: demo20").click()
    expect(page.get_by_text("Loaded sample demo20")).to_be_visible()
    _choose_engine(page, "rules")
    page.get_by_role("button", name="Run", exact=True).click()
    _close_sidebar(page)
    expect(page.get_by_text("12 of 19 zones active").first).to_be_attached()
    canvas = page.locator(f"{CHART} canvas").first

    def fills() -> bool:
        box, cb = chart.bounding_box(), canvas.bounding_box()
        return bool(box and cb and box["width"] >= 330 and abs(cb["width"] - box["width"]) <= 2)

    assert _until(fills), (chart.bounding_box(), canvas.bounding_box())
    route = page.get_by_text("Route check", exact=True)
    route.scroll_into_view_if_needed()
    expect(route).to_be_visible()
    route.click()
    expect(page.get_by_role("button", name="Check route", exact=True)).to_be_visible()
    page.screenshot(path=str(ARTIFACTS / "browser_phone.png"))
    chart.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "browser_phone_map.png"))
    page.close()


# ------------------------------------------------------------------------------------------------------------------
# The dispatch view: map first, "Can I fly here?", a NOTAMC, a review resolved (desktop and phone)
# ------------------------------------------------------------------------------------------------------------------

DESKTOP = {"width": 1400, "height": 900}
PHONE = {"width": 390, "height": 844}


def _run_demo20(page, phone: bool = False) -> None:
    from playwright.sync_api import expect

    _open_sidebar(page)
    page.get_by_role("button", name="Sample: demo20").click()
    expect(page.get_by_text("Loaded sample demo20")).to_be_visible()
    expect(page.get_by_text("20 messages to read")).to_be_visible()  # counted before Run
    _choose_engine(page, "rules")
    page.get_by_role("button", name="Run", exact=True).click()
    expect(page.get_by_test_id("head-line")).to_contain_text("20 messages")
    if phone:
        _close_sidebar(page)
    _settled(page)


@pytest.mark.timeout(2 * WALK_S, func_only=True)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_map_and_zone_list_on_the_first_screen(app, browser_context, viewport):
    """demo20 run: the map (with its zones drawn) and the start of the zone list are on the first screen, without
    scrolling, at a desktop's and a phone's size."""
    from playwright.sync_api import expect

    phone = viewport is PHONE
    page, chart = _open(browser_context, app, viewport=viewport)
    _run_demo20(page, phone)
    page.evaluate("window.scrollTo(0, 0)")
    zone_list = page.get_by_test_id("stMain").get_by_test_id("stDataFrame").first  # not the sidebar's store preview
    expect(zone_list).to_be_visible()
    red = _until(lambda: (r := _red_pixels(chart)) > 300 and r)
    name = "phone" if phone else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"dispatch_first_screen_{name}.png"))
    box, zl = chart.bounding_box(), zone_list.bounding_box()
    assert red, "no active zone drawn on the map"
    assert box["y"] >= 0 and box["y"] + box["height"] * 0.8 <= viewport["height"], box  # the map is on screen
    assert zl["y"] < viewport["height"], zl  # the zone list starts on the first screen
    if not phone:
        assert zl["x"] >= box["x"] + box["width"] - 2, (zl, box)  # beside the map
    page.close()


@pytest.mark.timeout(2 * WALK_S, func_only=True)
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_can_i_fly_here_inside_and_outside(app, browser_context, viewport):
    """A point in Lianhuashan Park (A2198/26, SFC-120 M AGL, 00-04Z) at the demo time: restricted, until when in UTC
    and local time; a point over the sea: clear. The asked point is drawn on the map."""
    from playwright.sync_api import expect

    phone = viewport is PHONE
    page, chart = _open(browser_context, app, viewport=viewport)
    _run_demo20(page, phone)
    box = page.get_by_label("Place or coordinates")
    answer = page.get_by_test_id("fly-answer")
    box.fill("22.5536, 114.0547")
    box.press("Enter")
    expect(answer).to_have_attribute("data-verdict", "restricted")
    expect(answer).to_contain_text("Restricted by A2198/26")
    expect(answer).to_contain_text("until 2026-11-30 04:00Z (12:00 CST)")
    answer.scroll_into_view_if_needed()
    name = "phone" if phone else "desktop"
    page.screenshot(path=str(ARTIFACTS / f"dispatch_fly_inside_{name}.png"))
    box.fill("22.20, 113.70")
    box.press("Enter")
    expect(answer).to_have_attribute("data-verdict", "clear")
    expect(answer).to_contain_text("Clear")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / f"dispatch_fly_outside_{name}.png"))
    page.close()


NOTAMC_BATCH = """A2198/26 NOTAMN
Q) ZGZU/QWULW/IV/BO/W/000/004/2233N11403E001
A) ZGSZ B) 2611250000 C) 2612052359
E) UA FLIGHTS PROHIBITED WI 0.5NM RADIUS CENTERED ON 223313N 1140317E (LIANHUASHAN PARK).
F) SFC G) 120M AGL"""
NOTAMC_CANCEL = """A2250/26 NOTAMC A2198/26
Q) ZGZU/QWULW/IV/BO/W/000/004/2233N11403E001
A) ZGSZ B) 2611300130
E) A2198/26 CANCELLED."""


@pytest.mark.timeout(2 * WALK_S, func_only=True)
def test_a_notamc_removes_its_zone(app, browser_context):
    """The park's zone alone is drawn; the same batch with its NOTAMC: no zone on the map, and the cancellation said
    beside it ("cancelled by A2250/26")."""
    from playwright.sync_api import expect

    page, chart = _open(browser_context, app, viewport=DESKTOP)
    _run_batch(page, NOTAMC_BATCH)
    expect(page.get_by_test_id("head-line")).to_contain_text("1 zone on the map")
    page.get_by_text("Show expired", exact=True).click()  # whatever today's date, the zone is drawn
    expect(page.get_by_text("1 of 1 volumes drawn")).to_be_visible()
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "dispatch_notamc_before.png"))
    _run_batch(page, NOTAMC_BATCH + "\n\n" + NOTAMC_CANCEL)
    expect(page.get_by_test_id("head-line")).to_contain_text("0 zones on the map")
    unplaced = page.get_by_test_id("unplaced")
    expect(unplaced).to_contain_text("cancelled by A2250/26")
    expect(unplaced).to_contain_text("cancels A2198/26: removed from the map")
    page.evaluate("window.scrollTo(0, 0)")
    page.screenshot(path=str(ARTIFACTS / "dispatch_notamc_after.png"))
    page.close()


@pytest.mark.timeout(3 * WALK_S, func_only=True)
def test_a_review_resolved_on_the_page_is_exported_ok_with_provenance(app, browser_context, tmp_path):
    """demo20's A2243/26 (its end estimated: review): focused, its end corrected on the page; the record reads ok
    with the operator's provenance, and the JSONL export downloaded from the page carries it."""
    from playwright.sync_api import expect

    page, chart = _open(browser_context, app, viewport=DESKTOP)
    _run_demo20(page)
    _select_option(page, "Focus zone", "A2243/26 · review")
    expect(page.get_by_text("Resolve this review")).to_be_visible()
    _select_option(page, "Field", "end")
    page.get_by_label("Value", exact=True).fill("2026-11-30 15:00")
    page.get_by_label("Value", exact=True).press("Enter")
    _settled(page)
    page.get_by_role("button", name="Apply edit", exact=True).click()
    expect(page.get_by_test_id("head-line")).to_contain_text("20 ok")
    rows = _resolved_rows(page, tmp_path, "edited end (fields: end)", ARTIFACTS / "dispatch_review_resolved.png")
    row = next(r for r in rows if r["id"] == "A2243/26")
    assert row["status"] == "ok" and row["end"] == "2026-11-30T15:00:00Z"
    assert row["provenance"]["by"] == "operator" and row["provenance"]["fields"] == ["end"]
    assert row["provenance"]["was"] == "review"
    page.close()
