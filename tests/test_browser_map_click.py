"""A click on the map asks "Can I fly here?" at that point, in a real headless Chromium on ``streamlit run``: demo20
run with the rules reader at its demo time, a click inside an active zone (restricted, the zone selected, its end
in UTC and local time) and one over bare sea or land (clear), at a desktop's and a phone's size; and demo20's
named place without coordinates placed by a click on the map, exported as ok with its provenance. Screenshots in
``artifacts/``."""

from __future__ import annotations

import re

import pytest
from browser_page import (
    _hand_click,
    _map_array,
    _resolved_rows,
    _select_option,
    _settled,
    _solid_point,
    _solid_red_point,
)
from test_app_browser import (  # noqa: F401  (the server, browser and page fixtures of the dispatch walk-throughs)
    ARTIFACTS,
    DESKTOP,
    PHONE,
    WALK_S,
    _open,
    _run_demo20,
    app,
    browser_context,
    server,
)

from airspace.app import map_layers as L

pytestmark = pytest.mark.browser


def _bare(a):
    """Pixels of bare sea or land: no zone drawn over them (a zone's fill changes the colour), no label."""
    return (abs(a - L.SEA_COLOR[:3]) <= 3).all(-1) | (abs(a - L.LAND_COLOR[:3]) <= 3).all(-1)


def _click_and_answer(page, chart, x: float, y: float, before: str | None):
    """Click the map at (x, y) of its image as a hand does; the fly answer once it is about a new point (a click
    lost to a busy page is clicked again, as a person would)."""
    box = chart.bounding_box()
    answer = page.get_by_test_id("fly-answer")
    for attempt in range(3):
        _hand_click(page, box["x"] + x, box["y"] + y)
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
@pytest.mark.parametrize("viewport", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_a_click_inside_a_zone_and_one_outside(app, browser_context, viewport):  # noqa: F811
    from playwright.sync_api import expect

    phone = viewport is PHONE
    name = "phone" if phone else "desktop"
    page, chart = _open(browser_context, app, viewport=viewport)
    _run_demo20(page, phone)
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
    page.screenshot(path=str(ARTIFACTS / f"map_click_inside_{name}.png"))

    chart.scroll_into_view_if_needed()
    a = _map_array(chart)
    bare = _solid_point(_bare(a), 31)  # 15 px from any zone or label (the grid's points are 12 px apart)
    assert bare, "no bare sea or land on the map"
    answer = _click_and_answer(page, chart, *bare, text)
    expect(answer).to_have_attribute("data-verdict", "clear")
    assert "map point" in answer.inner_text()
    page.screenshot(path=str(ARTIFACTS / f"map_click_outside_{name}.png"))
    page.close()


@pytest.mark.timeout(2 * WALK_S, func_only=True)
def test_a_named_place_is_placed_by_a_click_on_the_map(app, browser_context, tmp_path):  # noqa: F811
    """demo20's message 11 (深圳国际会展中心, radius 2 km, no coordinates: review) focused, the map clicked over open
    land, "Place a circle here": the zone is drawn, reads ok with the operator's provenance, and the JSONL export
    downloaded from the page carries it."""
    from playwright.sync_api import expect

    page, chart = _open(browser_context, app, viewport=DESKTOP)
    _run_demo20(page)
    expect(page.get_by_test_id("head-line")).to_contain_text("19 zones on the map")
    _select_option(page, "Focus zone", "message 11 · review")
    expect(page.get_by_text("Place 深圳国际会展中心 on the map")).to_be_visible()
    _settled(page)
    chart.scroll_into_view_if_needed()
    land = (abs(_map_array(chart) - L.LAND_COLOR[:3]) <= 3).all(-1)
    spot = _solid_point(land, 41)  # open land, 20 px from any zone or label
    assert spot, "no open land on the map"
    _click_and_answer(page, chart, *spot, None)
    # placing: the click gave a point and kept the focus on the named place
    expect(page.get_by_text("Place 深圳国际会展中心 on the map")).to_be_visible()
    _settled(page)
    page.get_by_role("button", name="Place a circle here", exact=True).click()
    expect(page.get_by_test_id("head-line")).to_contain_text("20 zones on the map")
    rows = _resolved_rows(page, tmp_path, "(fields: geometry)", ARTIFACTS / "map_click_placed_named.png")
    row = next(r for r in rows if r["message"] == 10)
    assert row["status"] == "ok" and row["geometry"]["type"] == "circle" and row["geometry"]["radius_m"] == 2000.0
    assert row["provenance"]["by"] == "operator" and row["provenance"]["fields"] == ["geometry"]
    assert "深圳国际会展中心" in row["provenance"]["action"] and row["provenance"]["was"] == "review"
    page.close()
