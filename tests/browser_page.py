"""What the browser walk-throughs (``test_app_browser.py``) read off the page: pixel counts of the map's colours,
requests that left the machine, and the steps an operator takes (open a list, pick an option, type a date, run a
batch), each waiting on the page's state rather than sleeping."""

from __future__ import annotations

import io
from pathlib import Path
from urllib.parse import urlparse

from airspace.app import map_layers as L
from airspace.app.serve import serve_page

LOCAL_HOSTS = {"127.0.0.1", "localhost"}


def _counts(img) -> dict[str, int]:
    """Pixels of the map image that are red (active ok volume), amber (active review volume), land and sea, and how
    many distinct colours (binned) it holds. Vectorised (numpy), with the same colour tests as ``_red``/``_amber``."""
    import numpy as np
    from PIL import Image  # Pillow comes with streamlit

    assert isinstance(img, Image.Image)
    a = np.asarray(img.convert("RGB"), dtype=np.int16).reshape(-1, 3)
    red, amber = _red(a), _amber(a)
    land = ~red & ~amber & (np.abs(a - np.array(L.LAND_COLOR[:3])) <= 3).all(1)
    sea = ~red & ~amber & ~land & (np.abs(a - np.array(L.SEA_COLOR[:3])) <= 3).all(1)
    binned = (a >> 3).astype(np.int32)
    colours = np.unique(binned[:, 0] * 1024 + binned[:, 1] * 32 + binned[:, 2]).size
    return {"red": int(red.sum()), "amber": int(amber.sum()), "land": int(land.sum()), "sea": int(sea.sum()),
            "colours": int(colours)}


def _outside(requests: list[str]) -> list[str]:
    """Every http(s)/ws request that did not go to this machine."""
    return sorted({u for u in requests if urlparse(u).scheme in ("http", "https", "ws", "wss")
                   and urlparse(u).hostname not in LOCAL_HOSTS})


def _map_array(chart):
    import numpy as np
    from PIL import Image

    return np.asarray(Image.open(io.BytesIO(chart.screenshot(caret="initial"))).convert("RGB")).astype(int)


def _red(a):
    """Active-zone red (the page clock's frame test in ``test_app_browser.PAGE_CLOCK_JS`` uses the same bounds)."""
    return (a[..., 0] > 150) & (a[..., 1] < 80) & (a[..., 2] < 90)


def _amber(a):
    """Active review-zone amber (not red)."""
    return ~_red(a) & (a[..., 0] > 180) & (a[..., 1] > 100) & (a[..., 1] < 185) & (a[..., 2] < 70)


def _solid_point(mask, k: int = 9) -> tuple[float, float] | None:
    """A pixel (x, y) of the map image in the middle of a k×k block where ``mask`` holds, or None."""
    import numpy as np

    c = np.cumsum(np.cumsum(np.pad(mask, ((1, 0), (1, 0))), 0), 1)
    full = (c[k:, k:] - c[:-k, k:] - c[k:, :-k] + c[:-k, :-k]) == k * k
    ys, xs = np.nonzero(full)
    if not len(ys):
        return None
    i = len(ys) // 2
    return float(xs[i] + k // 2), float(ys[i] + k // 2)


def _solid_red_point(a, k: int = 9) -> tuple[float, float] | None:
    """A pixel (x, y) of the map image in the middle of a k×k block of active-zone red, or None."""
    return _solid_point(_red(a), k)


def _off_legend(page, chart, mask):
    """``mask`` (of the map's image) with the map legend's box, which lies over the map and carries the zone
    colours as swatches, left out."""
    box, legend = chart.bounding_box(), page.get_by_test_id("map-legend").bounding_box()
    if legend:
        x0, y0 = int(legend["x"] - box["x"]) - 2, int(legend["y"] - box["y"]) - 2
        mask[max(y0, 0):y0 + int(legend["height"]) + 4, max(x0, 0):x0 + int(legend["width"]) + 4] = False
    return mask


def _hand_click(page, x: float, y: float) -> None:
    """Click the page at (x, y) as a hand does: the pointer comes onto the spot first. deck.gl takes no click from
    a pointer that never moved over the map (a bare synthetic click there is dropped)."""
    page.mouse.move(x - 40, y - 40)
    page.mouse.move(x, y, steps=8)
    page.mouse.click(x, y)


def _cyan(a):
    return (a[..., 0] < 90) & (a[..., 1] > 180) & (a[..., 2] > 200)


def _settled(page) -> None:
    """Wait until no script run is in progress (Streamlit marks its root with the script's state). A widget drawn by
    a run still going on can be drawn again before the run ends, closing a list just opened."""
    from playwright.sync_api import expect

    expect(page.get_by_test_id("stApp")).to_have_attribute("data-test-script-state", "notRunning")


def _open_list(page, label: str):
    """Open the Streamlit selectbox labelled ``label`` (a react-aria combobox: a press on its input opens its
    listbox) and return its options. A press the page took while it was busy drawing is pressed again."""
    from playwright.sync_api import expect

    _settled(page)
    box = page.get_by_role("combobox", name=label, exact=True)
    options = page.get_by_role("option")
    for attempt in range(3):
        box.click()
        try:
            expect(options.first).to_be_visible(timeout=10_000)
            return options
        except AssertionError:
            if attempt == 2:
                raise
            page.keyboard.press("Escape")
    return options


def _select_option(page, label: str, option: str) -> None:
    """Pick ``option`` in the Streamlit selectbox labelled ``label``, and wait for the run it starts to end."""
    from playwright.sync_api import expect

    _open_list(page, label)
    page.get_by_role("option", name=option, exact=True).click()
    expect(page.get_by_role("combobox", name=label, exact=True)).to_have_value(option)
    _settled(page)


def _options(page, label: str) -> list[str]:
    """The options the Streamlit selectbox labelled ``label`` offers (opened, read, closed again)."""
    from playwright.sync_api import expect

    options = _open_list(page, label)
    texts = options.all_inner_texts()
    page.keyboard.press("Escape")
    expect(options).to_have_count(0)
    return texts


def _type_segments(page, label: str, parts: list[tuple[str, str]]) -> None:
    """Type into a Streamlit date/time input (react-aria segments: ``year``/``month``/``day``, ``hour``/``minute``)."""
    for segment, value in parts:
        page.get_by_label(f"{segment}, {label}", exact=True).click()
        page.keyboard.type(value)
    page.keyboard.press("Tab")


def _wait_text(page, text: str, timeout: float = 300_000) -> None:
    page.get_by_text(text).first.wait_for(timeout=timeout)


def _open_sidebar(page) -> None:
    """Open the sidebar where it is collapsed (a phone's width): the batch, Run and "Advanced" are there."""
    sidebar = page.get_by_test_id("stSidebar")
    if sidebar.count() and sidebar.is_visible() and (sidebar.bounding_box() or {}).get("x", -1) >= 0:
        return
    for testid in ("stExpandSidebarButton", "stSidebarCollapsedControl"):
        button = page.get_by_test_id(testid)
        if button.count():
            button.first.click()
            break
    page.get_by_role("button", name="Run", exact=True).wait_for(state="visible")


def _close_sidebar(page) -> None:
    """Close the sidebar on a phone (it covers the page there)."""
    button = page.get_by_test_id("stSidebarCollapseButton").locator("button")
    if button.count():
        button.first.click()


def _choose_engine(page, engine: str) -> None:
    """Pick the engine in the sidebar's "Advanced" section (opened where it is closed)."""
    import re

    from playwright.sync_api import TimeoutError as PlaywrightTimeout
    from playwright.sync_api import expect

    _open_sidebar(page)
    group = page.get_by_role("radiogroup", name="Engine", exact=True)
    label = re.compile(rf"^{re.escape(engine)}( \(default\))?$")
    # A click that lands while the page reruns for a model that has just finished loading behind it can be lost, and
    # "Advanced" seen closed mid-rerun may be open (the click then closes it): seen only on a machine busy enough that
    # the load ends during the clicks. The operator looks again and clicks again, and so does this; a choice that
    # three tries do not make fails.
    for attempt in range(3):
        try:
            _settled(page)
            if not group.is_visible():
                page.get_by_test_id("stSidebar").get_by_text("Advanced", exact=True).click()
                expect(group).to_be_visible(timeout=10_000)
            group.get_by_text(label).click(timeout=15_000)
            expect(group.get_by_role("radio", name=label)).to_be_checked(timeout=15_000)
            return
        except (AssertionError, PlaywrightTimeout):
            if attempt == 2:
                raise


def _head(page) -> str:
    """The page's one line (the run's numbers and the map's time)."""
    return page.get_by_test_id("head-line").inner_text()


def _run_batch(page, text: str, engine: str = "rules") -> None:
    """Choose the engine, paste ``text`` into the batch box, commit it (Ctrl+Enter) and click Run."""
    from playwright.sync_api import expect

    _choose_engine(page, engine)
    area = page.get_by_label("Paste messages")
    area.fill(text)
    area.press("Control+Enter")
    # committed: Streamlit drops the "Press Ctrl+Enter to apply" hint under the box
    expect(page.get_by_test_id("stTextArea").filter(has=area).get_by_test_id("InputInstructions")).to_be_hidden()
    page.get_by_role("button", name="Run", exact=True).click()


def serve_dashboard(port: int, log_path: Path, repo: Path, env: dict | None = None):
    """The dashboard served on 127.0.0.1:``port`` as ``make run`` serves it (``app.serve.serve_page``)."""
    log_path.parent.mkdir(exist_ok=True)
    return serve_page(repo / "app" / "dashboard.py", port, log=log_path, env=env)


def _resolved_rows(page, tmp_path, fields: str, shot: Path) -> list[dict]:
    """After a review resolved on the page: its provenance says the operator resolved it (``fields``, e.g.
    "(fields: end)"); a screenshot to ``shot``; the JSONL export downloaded from the page, as rows."""
    import json

    from playwright.sync_api import expect

    prov = page.get_by_test_id("provenance")
    expect(prov).to_contain_text("Resolved by operator")
    expect(prov).to_contain_text(fields)
    prov.scroll_into_view_if_needed()
    page.screenshot(path=str(shot))
    with page.expect_download() as dl:
        page.get_by_role("button", name="JSONL", exact=True).click()
    path = tmp_path / "records.jsonl"
    dl.value.save_as(path)
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]
