"""A click on the map asks "Can I fly here?" at that point, in a real headless Chromium on ``streamlit run``: demo20
run with the rules reader at its demo time, a click inside an active zone (restricted, the zone selected, its end
in UTC and local time) and one over the open sea (clear). Screenshots in ``artifacts/``."""

from __future__ import annotations

import re

import pytest
from browser_page import _map_array, _solid_point, _solid_red_point
from test_app_browser import (  # noqa: F401  (the server, browser and page fixtures of the dispatch walk-throughs)
    ARTIFACTS,
    DESKTOP,
    WALK_S,
    _open,
    _run_demo20,
    app,
    browser_context,
    server,
)

from airspace.app import map_layers as L

pytestmark = pytest.mark.browser


def _sea(a):
    return (abs(a - L.SEA_COLOR[:3]) <= 3).all(-1)


def _click_and_answer(page, chart, x: float, y: float, before: str | None):
    """Click the map at (x, y) of its image; the fly answer once it is about a new point (a click lost to a busy
    page is clicked again, as a person would)."""
    box = chart.bounding_box()
    answer = page.get_by_test_id("fly-answer")
    for attempt in range(3):
        page.mouse.click(box["x"] + x, box["y"] + y)
        try:
            page.wait_for_function(
                "prev => { const e = document.querySelector('[data-testid=fly-answer]');"
                " return e && e.innerText.includes('map point') && e.innerText !== prev; }", arg=before or "",
                timeout=90_000)
            return answer
        except Exception:
            if attempt == 2:
                raise
    return answer


@pytest.mark.timeout(2 * WALK_S, func_only=True)
def test_a_click_inside_a_zone_and_one_over_the_sea(app, browser_context):  # noqa: F811
    from playwright.sync_api import expect

    page, chart = _open(browser_context, app, viewport=DESKTOP)
    _run_demo20(page)
    chart.scroll_into_view_if_needed()
    a = _map_array(chart)
    inside = _solid_red_point(a, 15)  # the middle of an active zone's fill, as drawn
    assert inside, "no active zone drawn on the map"
    answer = _click_and_answer(page, chart, *inside, None)
    expect(answer).to_have_attribute("data-verdict", re.compile("restricted|review"))
    text = answer.inner_text()
    assert re.search(r"map point \d+\.\d{5}, \d+\.\d{5} \(±\d+ m\)", text), text
    assert "Zones that apply" in text and "until 2026-11-30" in text and "CST" in text, text
    # the click from above also selected the zone under it: its record is shown with its spans
    head = page.locator('[data-testid="focus-head"]')
    head.wait_for(timeout=90_000)
    zone = text.split("Zones that apply")[1].split("\n")[1].split(" — ")[0].split(" · ")[0].strip()
    assert zone and zone in head.inner_text(), (zone, head.inner_text())
    # the typed box shows the clicked coordinates; the asked point is on the map
    assert re.fullmatch(r"\d+\.\d{5}, \d+\.\d{5}", page.get_by_label("Place or coordinates").input_value())
    answer.scroll_into_view_if_needed()
    page.screenshot(path=str(ARTIFACTS / "map_click_inside.png"))

    chart.scroll_into_view_if_needed()
    a = _map_array(chart)
    sea = _solid_point(_sea(a), 41)  # open sea, 20 px from any land, zone or label
    assert sea, "no open sea on the map"
    answer = _click_and_answer(page, chart, *sea, text)
    expect(answer).to_have_attribute("data-verdict", "clear")
    assert "map point" in answer.inner_text()
    page.screenshot(path=str(ARTIFACTS / "map_click_outside.png"))
    page.close()
