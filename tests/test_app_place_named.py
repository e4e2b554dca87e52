"""A review whose zone is a named place without coordinates, placed on the map by the operator (app/resolve.py
``place``, app/place_panel.py): the resolver's rules on real demo20 records (rules reader), and the page driven by
Streamlit's AppTest: the point asked about (what a click on the map sets) becomes the centre, the record becomes ok
with its provenance, is drawn on the map and exported."""

from __future__ import annotations

import json
from datetime import datetime, timezone
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from airspace.app import resolve as R
from airspace.app.tables import record_key
from airspace.core.records import CircleGeometry, PolygonGeometry
from airspace.pipeline.batch import process_batch

REPO = Path(__file__).resolve().parents[1]
SCRIPT = str(REPO / "app" / "dashboard.py")
DEMO20 = (REPO / "data" / "samples" / "demo20.txt").read_text(encoding="utf-8")
WHEN = datetime(2026, 11, 30, 3, 0, tzinfo=timezone.utc)
SHENZHEN_WORLD = (22.7036, 113.7748)  # 深圳国际会展中心, the exhibition centre demo20's message 11 names


@pytest.fixture(scope="module")
def records():
    recs, _ = process_batch(DEMO20, "rules")
    return {record_key(r): r for r in recs}


def test_a_named_place_placed_as_a_circle_or_a_polygon(records):
    named = records["10:0"]
    assert named.status == "review" and named.geometry.type == "named" and named.geometry.radius_m == 2000.0
    rec = R.place(named, WHEN, centre=SHENZHEN_WORLD)  # the message's own radius (半径2公里)
    assert isinstance(rec.geometry, CircleGeometry) and rec.geometry.center == SHENZHEN_WORLD
    assert rec.geometry.radius_m == 2000.0 and rec.status == "ok" and rec.reasons == []
    assert rec.provenance["by"] == "operator" and rec.provenance["fields"] == ["geometry"]
    assert rec.provenance["when"] == "2026-11-30T03:00:00Z" and rec.provenance["was"] == "review"
    assert "深圳国际会展中心" in rec.provenance["action"] and "radius 2,000 m" in rec.provenance["action"]
    assert any("could not be resolved" in r for r in rec.provenance["reasons_resolved"])
    # the limits and times stay the message's
    assert (rec.lower, rec.upper, rec.start, rec.end) == (named.lower, named.upper, named.start, named.end)
    wider = R.place(named, WHEN, centre=SHENZHEN_WORLD, radius_m=3000.0)
    assert wider.geometry.radius_m == 3000.0
    square = [(22.70, 113.77), (22.70, 113.78), (22.71, 113.78), (22.71, 113.77)]
    poly = R.place(named, WHEN, vertices=square)
    assert isinstance(poly.geometry, PolygonGeometry) and poly.geometry.points == square and poly.status == "ok"


def test_a_placement_that_is_no_area_is_refused(records):
    named = records["10:0"]
    with pytest.raises(ValueError, match="click the map"):
        R.place(named, WHEN)
    with pytest.raises(ValueError, match="three points"):
        R.place(named, WHEN, vertices=[(22.7, 113.77), (22.71, 113.78), (22.7, 113.77)])
    with pytest.raises(ValueError, match="three points"):  # on one line: no area
        R.place(named, WHEN, vertices=[(22.70, 113.77), (22.71, 113.78), (22.72, 113.79)])
    no_radius = named.model_copy(update={"geometry": named.geometry.model_copy(update={"radius_m": None})})
    with pytest.raises(ValueError, match="radius"):
        R.place(no_radius, WHEN, centre=SHENZHEN_WORLD)
    with pytest.raises(ValueError, match="located by a name alone"):  # a zone with coordinates is edited instead
        R.place(records["7:0"], WHEN, centre=SHENZHEN_WORLD)


def _background_done() -> None:
    """The page's warm-up and engine-loading threads finished (as test_app_dashboard waits for them): a page script
    compiled while a thread parses source trips CPython 3.11's shared AST recursion check, which fails the engine's
    loading for every later page of this process."""
    import threading

    for t in threading.enumerate():
        if t.name == "airspace-warm" or t.name.startswith("airspace-load-"):
            t.join(300)


@pytest.fixture
def quiet_threads():
    _background_done()
    yield
    _background_done()


def _html(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html")]


def test_the_page_places_the_named_place_at_the_point_asked_about(quiet_threads):
    at = AppTest.from_file(SCRIPT, default_timeout=180)
    at.run()
    at.button(key="sample_demo20").click().run()
    at.radio(key="engine").set_value("rules")
    at.button(key="run_button").click().run()
    assert not at.exception
    head = next(h for h in _html(at) if 'data-testid="head-line"' in h)
    assert "19 zones on the map · 19 ok · 2 review" in head, head
    at.selectbox(key="focus").set_value("10:0").run()
    assert any(m.value.startswith("**Place ") for m in at.markdown)
    assert at.number_input(key="place_radius").value == 2000.0  # the message's radius, offered
    # nothing clicked yet: said, and the record stays review
    at.button(key="place_circle").click().run()
    assert any("click the map" in e.value for e in at.error)
    # a point (a click on the map sets the same one; here typed) becomes the centre
    at.text_input(key="fly_where").set_value("22.7036, 113.7748").run()
    at.button(key="place_circle").click().run()
    assert not at.exception
    prov = next(h for h in _html(at) if 'data-testid="provenance"' in h)
    assert "Resolved by operator" in prov and "placed" in prov and "(fields: geometry)" in prov
    head = next(h for h in _html(at) if 'data-testid="head-line"' in h)
    assert "20 zones on the map · 20 ok · 1 review" in head, head  # was 19 and 2: only A2243/26 (EST end) is left
    # drawn on the map now, and exported as ok with its provenance
    spec = json.loads(at.get("deck_gl_json_chart")[0].proto.json)
    vols = next(layer for layer in spec["layers"] if layer["id"].startswith("volumes"))["data"]
    assert "10:0" in {row["key"] for row in vols}
    held = R.ResolvedRecord.model_validate(at.session_state["resolved"]["recs"]["10:0"])
    assert held.status == "ok" and held.geometry.center == SHENZHEN_WORLD and held.provenance["by"] == "operator"
