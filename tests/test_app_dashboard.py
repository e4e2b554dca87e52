"""The dashboard script driven headless by Streamlit's AppTest: the real pipeline (rules engine), the real demo20
sample (Shenzhen, demo time 2026-11-30T02:00Z; see data/samples/README.md), real volumes and conflicts."""

from __future__ import annotations

import json
from datetime import date, datetime, time, timezone
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest
from world_rows import world_text

from airspace.app import map_layers as L
from airspace.app.batch_input import APP_MAX_BYTES

REPO = Path(__file__).resolve().parents[1]
SCRIPT = str(REPO / "app" / "dashboard.py")
DEMO20 = (REPO / "data" / "samples" / "demo20.txt").read_text(encoding="utf-8")
RED, AMBER, BLUE = L.COLORS[("ok", True)], L.COLORS[("review", True)], L.COLORS[("ok", False)]


LAYER_IDS = ["land", "coastline", "borders", "scale", "volumes~0", "selection", "markers~0", "airports", "labels",
             "mapclick~0"]


def _background_done() -> None:
    """Wait for the page's warm-up and engine-loading threads of an earlier AppTest: compiling a new page script
    while a thread parses source (triton reads its kernels') trips CPython 3.11's shared AST recursion check."""
    import threading

    for t in threading.enumerate():
        if t.name == "airspace-warm" or t.name.startswith("airspace-load-"):
            t.join(300)


def _app() -> AppTest:
    _background_done()
    at = AppTest.from_file(SCRIPT, default_timeout=180)
    at.run()
    assert not at.exception
    return at


def _deck(at: AppTest) -> dict:
    charts = at.get("deck_gl_json_chart")
    assert len(charts) == 1
    return json.loads(charts[0].proto.json)


def _layer(spec: dict, layer_id: str) -> dict:
    """A layer by its id (the ids of clickable layers carry a ``~N`` suffix that changes after a click)."""
    return next(layer for layer in spec["layers"] if layer["id"].split("~")[0] == layer_id)


def _plain(md: str) -> str:
    """Text shown by a Markdown element whose message text was escaped (``safe_text.md_literal``)."""
    import re

    return re.sub(r"\\([!-/:-@\[-`{-~])", r"\1", md)


def _html(at: AppTest) -> list[str]:
    return [h.proto.body for h in at.get("html")]


def _volumes(spec: dict) -> dict[str, dict]:
    return {row["key"]: row for row in _layer(spec, "volumes")["data"]}


@pytest.fixture(scope="module")
def demo() -> AppTest:
    """demo20 loaded with the sample button and run through the rules engine, time set to the demo time."""
    at = _app()
    at.button(key="sample_demo20").click().run()
    assert at.text_area(key="batch_text").value == DEMO20
    at.radio(key="engine").set_value("rules")
    at.button(key="run_button").click().run()
    assert not at.exception and not at.error
    # a shipped sample opens the map at its demo time
    assert at.session_state["map_t"] == datetime(2026, 11, 30, 2, 0, tzinfo=timezone.utc)
    assert at.slider(key="t_slider").value == datetime(2026, 11, 30, 2, 0)
    return at


def test_world_map_before_any_run():
    at = _app()
    # the input is in the sidebar, the engine choice behind "Advanced"; the page opens on the CLI's default engine,
    # which loads behind the page (the first screen does not wait for torch) and the page says so
    assert at.sidebar.text_area(key="batch_text") is not None and at.sidebar.button(key="run_button") is not None
    assert at.radio(key="engine").value == "clover"
    assert [e.label for e in at.sidebar.expander] == ["Advanced"]
    # (clover is ready already where an earlier page of this process loaded it; the caption's text is escaped)
    assert any("loading behind the page" in c.value or _plain(c.value).startswith("Engine: clover")
               for c in at.sidebar.caption)
    spec = _deck(at)
    # the same layer ids as after a Run (the browser swaps their data instead of building new layers)
    assert [layer["id"] for layer in spec["layers"]] == LAYER_IDS
    # the mouse wheel scrolls the page; the map is a selectable chart (a click selects a volume's record)
    assert spec["views"][0]["controller"]["scrollZoom"] is False
    assert at.get("deck_gl_json_chart")[0].proto.selection_mode
    land = _layer(spec, "land")["data"]  # the world overview: a same-origin URL when static serving is on, else inline
    assert land == "app/static/land_overview.geojson" if isinstance(land, str) else len(land["features"]) == 1
    # no zones yet: one invisible warm-up object per zone layer (so the browser compiles their shaders now)
    assert [r["fill"][3] for r in _layer(spec, "volumes")["data"]] == [0]
    assert [r["fill"][3] for r in _layer(spec, "markers")["data"]] == [0]
    # no base-map library (no MapLibre canvas, no Carto fallback): pydeck's no-style sentinel
    assert "mapProvider" not in spec and spec["mapStyle"] == L.NO_BASE_MAP_STYLE
    # the sea is the page's colour behind the map canvas
    assert any(L.map_css() in h for h in _html(at))
    # the world view names countries (the text layer is built before any Run)
    assert len(_layer(spec, "labels")["data"]) > 20 and "Noto Sans CJK SC" in L.map_css()


def test_batch_is_located_before_run_so_the_run_keeps_the_camera():
    at = _app()
    at.button(key="sample_demo20").click().run()
    before = _deck(at)
    # nothing is drawn before Run, but the map already looks over Shenzhen, with its 1:10m coast
    assert [r["key"] for r in _layer(before, "volumes")["data"]] == ["warmup"]
    view = before["initialViewState"]
    assert 22.4 < view["latitude"] < 22.8 and 113.7 < view["longitude"] < 114.7 and view["pitch"] == 0  # 2D
    assert _layer(before, "land")["data"]["features"]
    assert any("located by the rules reader" in c.value for c in at.caption)
    # its airports and places are there before Run too, so the Run brings only the zones
    assert {r["text"] for r in _layer(before, "labels")["data"]} >= {"Hong Kong", "✈ ZGSZ Shenzhen Bao'an"}
    at.radio(key="engine").set_value("rules")
    at.button(key="run_button").click().run()
    after = _deck(at)
    # the Run's zones lie where the rules located them: the same camera, so the browser draws them in one frame
    # (17: the two zones that ended the day before are hidden, as expired zones are unless asked for)
    assert after["initialViewState"] == before["initialViewState"] and len(_volumes(after)) == 17
    assert not any("located by the rules reader" in c.value for c in at.caption)


RUN_IMPORTS_SCRIPT = """
import gc, json, sys
from streamlit.testing.v1 import AppTest
at = AppTest.from_file(sys.argv[1], default_timeout=180)
at.run()
import threading
from airspace.app import engine_loader
for t in [t for t in threading.enumerate() if t.name == "airspace-warm"]:
    t.join(300)  # basemap, time-zone finder, heap frozen: behind the first screen
engine_loader.shared(None).wait("clover", 300)  # the model engine loads behind the page, with its own modules
frozen = gc.get_freeze_count()
at.button(key="sample_demo20").click().run()
at.radio(key="engine").set_value("rules")
before = set(sys.modules)
at.button(key="run_button").click().run()
print(json.dumps({"frozen": frozen, "new": sorted(set(sys.modules) - before), "errors": [str(e.value) for e in at.exception],
                  "downloads": len(at.get("download_button"))}))
"""


def test_a_run_imports_no_new_module_and_the_startup_heap_is_frozen():
    """After a run that imported a module, Streamlit's file watcher re-scans all of sys.modules (~0.3 s with torch)
    and its full garbage collection after every run walked the whole startup heap: both while the browser draws.
    In a fresh process, so that no other test has imported the modules a Run needs."""
    import subprocess
    import sys

    out = subprocess.run([sys.executable, "-c", RUN_IMPORTS_SCRIPT, SCRIPT], capture_output=True, text=True, timeout=300,
                         cwd=REPO)
    assert out.returncode == 0, out.stderr[-2000:]
    res = json.loads(out.stdout.strip().splitlines()[-1])
    assert res["errors"] == [] and res["downloads"] == 5  # the Run went through to the exports
    assert res["frozen"] > 100_000
    assert res["new"] == []


def test_demo20_table_and_metrics(demo):
    # the run's numbers and the map's time (UTC and the zones' local time) in one line above the map
    head = next(h for h in _html(demo) if 'data-testid="head-line"' in h)
    for part in ("20 messages", "21 records", "19 zones on the map", "19 ok", "2 review", "0 error", "rules ",
                 "map time 2026-11-30 02:00Z (10:00 CST)"):
        assert part in head, part
    df = demo.main.dataframe[-1].value
    assert len(df) == 21
    row0 = df[df["key"] == "0:0"].iloc[0]
    assert row0["msg"] == 1 and row0["zone"] == 1  # numbers a person reads start at 1
    assert row0["id"] == "A2231/26" and row0["status"] == "ok"
    assert row0["centre / polygon"] == "22.51944, 113.94306" and row0["radius"] == "1.00 NM (1,852 m)"
    assert row0["lower"].startswith("0 m") and row0["upper"] == "305 m AMSL (1000FT AMSL)"
    assert row0["start (UTC)"] == "2026-11-30 00:00Z" and row0["end (UTC)"] == "2026-11-30 12:00Z"
    # the cancellation is ok, like in the exports
    assert df[df["key"] == "4:0"].iloc[0]["status"] == "ok"
    # the records table does not show the internal key; the engine's reading is said in words
    assert "key" not in demo.main.dataframe[-1].proto.column_order and "msg" in demo.main.dataframe[-1].proto.column_order
    assert any(c.value.startswith("rules read 20 messages in ") for c in demo.caption)
    # what is not on the map, and why, beside it
    unplaced = next(h for h in _html(demo) if 'data-testid="unplaced"' in h)
    assert "Not on the map (2)" in unplaced and "深圳国际会展中心" in unplaced and "cancels A2187/26" in unplaced
    named = df[df["key"] == "10:0"].iloc[0]
    assert named["msg"] == 11
    assert named["status"] == "review" and "深圳国际会展中心" in named["centre / polygon"]
    assert df[df["key"] == "3:0"].iloc[0]["schedule"] == "DAILY 0000-0400"


def test_demo20_deck_volumes_floors_ceilings_colours(demo):
    spec = _deck(demo)
    ids = [layer["id"] for layer in spec["layers"]]
    # Shenzhen is small: the 1:10m detail is clipped around it
    assert ids == LAYER_IDS
    # over the zones (2D), the invisible point grid a click on the map picks ("Can I fly here?"), around the view
    vs, grid = spec["initialViewState"], [r["cell"] for r in _layer(spec, "mapclick")["data"]]
    assert [round(vs["longitude"], 5), round(vs["latitude"], 5)] in grid and len(grid) > 3000
    assert _layer(spec, "land")["data"]["features"] and _layer(spec, "borders")["data"]["features"]
    # every zone is labelled where its label fits; airports and the scale bar are on the map
    labels = {r["text"] for r in _layer(spec, "labels")["data"]}
    assert "A2231/26" in labels and "✈ VHHH Chek Lap Kok" in labels and any(t.endswith(" km") for t in labels)
    vols = _volumes(spec)
    # expired zones are hidden unless asked for: A2225/26 and SZX 11/040 ended the day before
    assert "5:0" not in vols and "18:0" not in vols and len(vols) == 17
    demo.checkbox(key="f_expired").check().run()
    spec = _deck(demo)
    vols = _volumes(spec)
    # every located zone is a volume: 21 records - NOTAMC - named place = 19
    assert len(vols) == 19 and "4:0" not in vols and "10:0" not in vols
    # A2231/26: SFC..1000 FT AMSL
    assert vols["0:0"]["polygon"][0][0][2] == 0.0 and vols["0:0"]["height"] == pytest.approx(304.8)
    # A2236/26: FL050..FL150 floats 1524 m up, 3048 m thick
    assert vols["9:0"]["polygon"][0][0][2] == pytest.approx(1524.0) and vols["9:0"]["height"] == pytest.approx(3048.0)
    # A2245/26: 100 M AGL .. FL050
    assert vols["15:0"]["polygon"][0][0][2] == pytest.approx(100.0)
    # A2241/26: SFC..UNL drawn at the cap
    assert vols["13:0"]["height"] == pytest.approx(L.UNL_CAP_M) and "UNL" in vols["13:0"]["tip"]
    # at 02:00Z: active ok red, active review (EST end) amber, future blue, daily-window zone active
    assert vols["0:0"]["fill"] == RED and vols["7:0"]["fill"] == AMBER and vols["9:0"]["fill"] == BLUE
    assert vols["3:0"]["fill"] == RED and vols["5:0"]["fill"] == BLUE
    demo.checkbox(key="f_expired").uncheck().run()
    # the view is over Shenzhen, straight down (2D; the 3D toggle tilts it)
    view = spec["initialViewState"]
    assert 22.4 < view["latitude"] < 22.8 and 113.7 < view["longitude"] < 114.7 and view["pitch"] == 0
    demo.toggle(key="map_3d").set_value(True).run()
    assert _deck(demo)["initialViewState"]["pitch"] > 0
    demo.toggle(key="map_3d").set_value(False).run()


def test_time_slider_recolours(demo):
    demo.slider(key="t_slider").set_value(datetime(2026, 11, 30, 7, 0)).run()
    vols = _volumes(_deck(demo))
    # 07:00Z: A2236/26 (06-09Z) now active, FDC 6/0871 (01:30-03:30Z) over (expired: hidden), the daily 0000-0400
    # zone off until tomorrow
    assert vols["9:0"]["fill"] == RED and "2:0" not in vols and vols["3:0"]["fill"] == BLUE
    demo.checkbox(key="f_expired").check().run()
    vols = _volumes(_deck(demo))
    assert "ACTIVE" in vols["9:0"]["tip"] and "not active" in vols["2:0"]["tip"] and vols["2:0"]["fill"] == BLUE
    demo.checkbox(key="f_expired").uncheck().run()
    zl = demo.main.dataframe[0].value
    assert zl[zl["key"] == "9:0"].iloc[0]["state"] == "active" and "2:0" not in set(zl["key"])
    # the date/time entry shows the same moment; the slider spans the windows, not a year (one zone is PERM)
    assert demo.date_input(key="t_date").value == date(2026, 11, 30) and demo.time_input(key="t_time").value == time(7, 0)
    s = demo.slider(key="t_slider")
    assert (s.proto.max - s.proto.min) / 1e6 <= 4 * 86400
    demo.slider(key="t_slider").set_value(datetime(2026, 11, 30, 2, 0)).run()


def test_time_entry_steps_now_and_demo_time(demo):
    demo.time_input(key="t_time").set_value(time(6, 30)).run()
    assert demo.session_state["map_t"] == datetime(2026, 11, 30, 6, 30, tzinfo=timezone.utc)
    assert demo.slider(key="t_slider").value == datetime(2026, 11, 30, 6, 30)
    demo.button(key="t_p60").click().run()
    assert demo.session_state["map_t"] == datetime(2026, 11, 30, 7, 30, tzinfo=timezone.utc)
    demo.button(key="t_next").click().run()  # the next moment a zone starts or stops
    t_next = demo.session_state["map_t"]
    assert datetime(2026, 11, 30, 7, 30, tzinfo=timezone.utc) < t_next
    demo.button(key="t_now").click().run()
    now = datetime.now(timezone.utc)
    assert abs(demo.session_state["map_t"] - now).total_seconds() < 420  # on the 5-minute grid of the slider
    assert demo.slider(key="t_slider").value == demo.session_state["map_t"].replace(tzinfo=None)  # they agree
    assert any("zones active at" in _plain(c.value) or "No zone is active at" in _plain(c.value) for c in demo.caption)
    demo.button(key="t_demo").click().run()  # the sample keeps its demo time
    assert demo.session_state["map_t"] == datetime(2026, 11, 30, 2, 0, tzinfo=timezone.utc)
    summary = next(_plain(c.value) for c in demo.caption if "zones active at" in _plain(c.value))
    assert summary.startswith("12 of 19 zones active at 2026-11-30 02:00Z: A2231/26")
    assert not demo.exception


def test_filters_status_activity_and_altitude(demo):
    all_keys = set(_volumes(_deck(demo)))
    demo.checkbox(key="f_active").check().run()
    active = set(_volumes(_deck(demo)))
    assert active < all_keys and "9:0" not in active and "0:0" in active  # A2236/26 starts at 06Z
    demo.checkbox(key="f_active").uncheck().run()
    demo.checkbox(key="f_low").check().run()
    low = set(_volumes(_deck(demo)))
    assert "9:0" not in low and "0:0" in low  # FL050 floor: not below 120 m; SFC: yes
    demo.checkbox(key="f_low").uncheck().run()
    demo.multiselect(key="f_status").set_value(["review"]).run()
    assert set(_volumes(_deck(demo))) == {"7:0"}
    demo.multiselect(key="f_status").set_value(["ok", "review"]).run()
    # filtering never moves the camera
    assert len(_volumes(_deck(demo))) == 17 and not demo.exception


def test_focus_highlights_spans_and_flies(demo):
    demo.selectbox(key="focus").set_value("0:0").run()
    html = next(h for h in _html(demo) if h.startswith('<pre class="msg"'))
    assert '<mark title="center" data-field="center">223110N 1135635E</mark>' in html
    assert '<mark title="upper" data-field="upper">1000FT AMSL</mark>' in html
    spec = _deck(demo)
    view = spec["initialViewState"]
    assert view["latitude"] == pytest.approx(22.5194, abs=0.01) and view["longitude"] == pytest.approx(113.943, abs=0.01)
    assert view["zoom"] > 10 and view["transitionDuration"] > 0
    sel = _volumes(spec)["0:0"]
    assert sel["line"] == L.LINE_SELECTED and sel["fill"][3] == 255
    # its edges, and only its edges, in the selection layer
    edges = _layer(spec, "selection")
    assert [r["key"] for r in edges["data"]] == ["0:0"] and edges["wireframe"] is True and edges["filled"] is False
    # its row in the records table is highlighted
    assert demo.main.dataframe[-1].value.iloc[0]["key"] == "0:0"
    demo.selectbox(key="focus").set_value("all").run()
    assert [r["key"] for r in _layer(_deck(demo), "selection")["data"]] == ["warmup"]


def test_route_example_is_real_input_and_departs_at_the_map_time(demo):
    # after the Run the waypoints hold an example route across the zones: Check route works at once
    example = demo.text_area(key="route_text").value
    assert len([ln for ln in example.splitlines() if ln.strip()]) == 2
    demo.button(key="route_button").click().run()
    assert not demo.exception
    assert any(e.value.startswith("Route conflicts with") and "2026-11-30 02:00Z" in e.value for e in demo.error)
    assert demo.date_input(key="route_date").value == date(2026, 11, 30) and demo.time_input(key="route_time").value == time(2, 0)


def test_route_check_finds_the_sports_centre_zone(demo):
    # west -> east across Shenzhen Bay at 100 m AGL, 02:00Z, 15 m/s: through A2231/26 (1 NM, SFC-1000FT AMSL)
    demo.text_area(key="route_text").set_value("22.5194, 113.900, 100\n22.5194, 113.990, 100")
    demo.radio(key="route_ref").set_value("AGL")
    demo.checkbox(key="route_follow").uncheck().run()  # the operator sets the departure
    demo.date_input(key="route_date").set_value(date(2026, 11, 30))
    demo.time_input(key="route_time").set_value(time(2, 0))
    demo.number_input(key="route_speed").set_value(15.0)
    demo.button(key="route_button").click().run()
    assert not demo.exception
    tables = [d.value for d in demo.dataframe if "enters (UTC)" in d.value.columns]
    assert len(tables) == 1
    conflicts = tables[0]
    ids = set(conflicts["id"])
    assert "A2231/26" in ids
    assert "A2246/26" not in ids  # same centre, but only active 03:00-05:00Z: the drone is through by 02:10
    hit = conflicts[conflicts["id"] == "A2231/26"].iloc[0]
    assert hit["msg"] == 1 and hit["zone"] == 1 and hit["leg"].startswith("1 ")  # 1-based, like the records table
    assert hit["enters (UTC)"].startswith("2026-11-30 02:0")
    assert hit["enter_lon"] == pytest.approx(113.943 - 1852 / (111_320 * 0.9238), abs=0.002)
    spec = _deck(demo)
    route = _layer(spec, "route")
    assert route["data"][0]["path"] == [[113.9, 22.5194, 100.0], [113.99, 22.5194, 100.0]]
    assert route["widthUnits"] == "pixels"
    assert [r["position"] for r in _layer(spec, "waypoints")["data"]] == [[113.9, 22.5194, 100.0], [113.99, 22.5194, 100.0]]
    assert _layer(spec, "conflicts")["data"]
    assert any("conflicts" in e.value for e in demo.error)
    demo.checkbox(key="route_follow").check().run()


def test_downloads_offered(demo):
    labels = [b.label for b in demo.get("download_button")]
    # the route checked above offers its printable briefing beside the route
    assert labels == ["Briefing (printable HTML)", "GeoJSON", "ED-269", "ED-318", "JSONL", "KML"]


def test_size_limit_is_clear():
    at = _app()
    at.text_area(key="batch_text").set_value("A" * (APP_MAX_BYTES + 10))
    at.radio(key="engine").set_value("rules")
    at.button(key="run_button").click().run()
    assert any("at most 1,000,000 bytes" in _plain(e.value) for e in at.error)
    assert [r["key"] for r in _layer(_deck(at), "volumes")["data"]] == ["warmup"]


def test_received_day_dates_pasted_prose():
    """Pasted prose that writes no year (world train row in-oneindia:mumbai-2022-11, "effective from November 13
    to December 12") is dated from the day the operator says it was received, for review; without it, undated."""
    at = _app()
    at.text_area(key="batch_text").set_value(world_text("in-oneindia:mumbai-2022-11"))
    at.radio(key="engine").set_value("rules")
    at.button(key="run_button").click().run()
    assert not at.exception and not at.error
    row = at.main.dataframe[-1].value.iloc[0]
    assert (row["start (UTC)"], row["end (UTC)"]) == ("", "")
    assert at.date_input(key="received_on").value is None
    at.date_input(key="received_on").set_value(date(2022, 11, 10))
    at.button(key="run_button").click().run()
    assert not at.exception and not at.error
    row = at.main.dataframe[-1].value.iloc[0]
    # 13 Nov 00:00 IST -> 12 Nov 18:30Z; 12 Dec inclusive -> 12 Dec 18:30Z (the row's truth)
    assert (row["start (UTC)"], row["end (UTC)"], row["status"]) == ("2022-11-12 18:30Z", "2022-12-12 18:30Z",
                                                                      "review")
    assert "year 2022 from the batch's reference date 2022-11-10" in row["reasons"]


def test_jsonl_input():
    lines = [json.dumps({"id": f"m{i}", "text": block}) for i, block in enumerate(DEMO20.split("\n\n")[:3])]
    at = _app()
    at.text_area(key="batch_text").set_value("\n".join(lines))
    at.radio(key="engine").set_value("rules")
    at.button(key="run_button").click().run()
    assert not at.exception and not at.error
    df = at.main.dataframe[-1].value
    assert list(df["id"]) == ["A2231/26", "A2232/26", "FDC 6/0871"]


def test_timing_demo_clover_vs_ar():
    """Two demo messages through both models (or, where a checkpoint is missing, a clear 'not available')."""
    have = all((REPO / "data" / "checkpoints" / e / "config.json").is_file() for e in ("clover", "ar"))
    at = _app()
    at.text_area(key="batch_text").set_value("\n\n".join(DEMO20.split("\n\n")[:2]))
    at.radio(key="engine").set_value("rules")
    at.button(key="run_button").click().run()
    at.button(key="timing_button").click().run(timeout=600)
    assert not at.exception
    if not have:
        errors = [e.value for e in at.error]
        assert any(e.startswith("clover:") and "not available" in e for e in errors), errors
        return
    table = next(d.value for d in at.dataframe if "forward passes" in d.value.columns)
    assert list(table["engine"]) == ["clover", "ar"]
    clover, ar = table.iloc[0], table.iloc[1]
    assert clover["forward passes"] > 0 and ar["forward passes"] > 0
    # AR writes one token per forward (jump-forward tokens aside); Clover fills several per forward
    assert clover["tokens / forward"] > ar["tokens / forward"] >= 1.0
    assert any("agree on" in s.value for s in [*at.success, *at.warning])
    # one pass per forward: a slider when the block took several, a single pass otherwise (a confident model)
    passes = [c.value for c in at.caption if c.value.startswith("Pass ")]
    assert passes and " of " in passes[-1]
    n_passes = int(passes[-1].split(" of ")[1].split()[0])
    assert n_passes >= 1
    if n_passes > 1:
        assert at.slider(key="trace_step").max == n_passes
    trace = next(h for h in _html(at) if h.startswith('<pre class="trace"'))
    assert "center=" in trace or "polygon=" in trace


def test_a_batch_on_the_page_is_read_ahead_and_its_run_writes_the_answers():
    """demo20 loaded with clover chosen: Clover reads its messages in the background before Run (prompt reads
    kept per message), the Run says so, and its records are those of a cold run of the same engine; the timing
    demo's clover row is cold (nothing read ahead)."""
    import threading

    from airspace.pipeline.batch import process_batch
    from airspace.pipeline.engines import get_extractor

    if not (REPO / "data" / "checkpoints" / "clover" / "config.json").is_file():
        pytest.skip("no shipped clover checkpoint")
    at = _app()
    from airspace.app import engine_loader

    assert engine_loader.shared(None).wait("clover", 300)[0] is not None  # loaded behind the page
    at.radio(key="engine").set_value("clover").run()
    at.button(key="sample_demo20").click().run()
    for t in [t for t in threading.enumerate() if t.name == "airspace-read-ahead"]:  # (it may be done already)
        t.join(timeout=120)
    at.button(key="run_button").click().run()
    assert not at.exception and not at.error
    summary = next(c.value for c in at.caption if c.value.startswith("clover read 20 messages in "))
    assert "20 of 20 messages had been read while the batch was on the page" in summary
    assert "forward passes wrote" in summary and "denoising steps on average" in summary
    df = at.main.dataframe[-1].value
    cold, _ = process_batch(DEMO20, get_extractor("clover"))
    assert list(df["id"]) == [r.id or "" for r in cold] and list(df["status"]) == [r.status for r in cold]
    at.button(key="timing_button").click().run(timeout=600)
    table = next(d.value for d in at.dataframe if "forward passes" in d.value.columns)
    assert list(table["prompts read before"]) == [0, 0]


HOSTILE = """A0001/26 NOTAMN
Q) ZGZU/QRDCA/IV/BO/W/000/010/2232N11356E001
A) ZGSZ B) 2611300000 C) 2611301200
D) ![x](http://198.51.100.7/beacon.png) [Open official NOTAM](http://198.51.100.7/login) <img src=http://198.51.100.7/i.png>
E) DANGER AREA 223110N1135635E RADIUS 1NM :red[x] $x$ @@=1+1
F) SFC G) 1000FT AMSL"""


def test_message_text_is_never_markup():
    """A message whose text carries Markdown images/links, HTML and directives: every element that shows message
    text shows it as text (the browser test checks the page itself)."""
    at = _app()
    at.text_area(key="batch_text").set_value(HOSTILE + "\n\nhttp://198.51.100.7/[x](http://198.51.100.7/y) ZONE")
    at.radio(key="engine").set_value("rules")
    at.button(key="run_button").click().run()
    assert not at.exception
    at.selectbox(key="focus").set_value("0:0").run()
    markdown_bodies = [m.value for m in [*at.markdown, *at.caption, *at.error, *at.warning, *at.info, *at.success]]
    for body in markdown_bodies:
        assert "](http" not in body and "<img" not in body and ":red[" not in body, body
    for body in _html(at):
        assert "<img" not in body and "<a " not in body, body
    assert any("198.51.100.7" in b for b in _html(at))  # the text is there, escaped
    spec = _deck(at)
    tips = [r["tip"] for r in _layer(spec, "volumes")["data"]]
    assert tips and not any(t.startswith("@@") for t in tips)


def _fly(at: AppTest) -> str:
    return next(h for h in _html(at) if 'data-testid="fly-answer"' in h)


def test_can_i_fly_here_inside_and_outside_a_zone(demo):
    # Lianhuashan Park (A2198/26, SFC-120 M AGL, daily 00-04Z) at the demo time 02:00Z
    demo.text_input(key="fly_where").set_value("22.5536, 114.0547").run()
    answer = _fly(demo)
    assert 'data-verdict="restricted"' in answer and "Restricted by A2198/26<" in answer
    assert "FDC 6/0871" in answer  # also over the park, SFC-3000FT: listed (reached unless the ground is high)
    assert "until 2026-11-30 04:00Z (12:00 CST)" in answer and "10:00 CST" in answer  # local beside UTC
    # the point is drawn on the map
    assert _layer(_deck(demo), "here")["data"][0]["position"] == [114.0547, 22.5536]
    # over the sea south of every zone: clear
    demo.text_input(key="fly_where").set_value("22.20, 113.70").run()
    assert 'data-verdict="clear"' in _fly(demo)
    # a place that is not one: a clear error, no answer
    demo.text_input(key="fly_where").set_value("nowhere-at-all-xyz").run()
    assert any("not a coordinate" in _plain(e.value) for e in demo.error)
    demo.text_input(key="fly_where").set_value("").run()
    assert not demo.exception


CANCEL_BATCH = """A2231/26 NOTAMN
Q) ZGZU/QWULW/IV/BO/W/000/010/2231N11357E001
A) ZGSZ B) 2611300000 C) 2611301200
E) UAS OPS PROHIBITED DUE TO SPORTS EVENT WI 1NM RADIUS OF
PSN 223110N 1135635E (SHENZHEN BAY SPORTS CENTRE).
F) SFC G) 1000FT AMSL

A2198/26 NOTAMN
Q) ZGZU/QWULW/IV/BO/W/000/004/2233N11403E001
A) ZGSZ B) 2611250000 C) 2612052359
E) UA FLIGHTS PROHIBITED WI 0.5NM RADIUS CENTERED ON 223313N 1140317E (LIANHUASHAN PARK).
F) SFC G) 120M AGL

A2250/26 NOTAMC A2198/26
Q) ZGZU/QWULW/IV/BO/W/000/004/2233N11403E001
A) ZGSZ B) 2611300130
E) A2198/26 CANCELLED."""


def test_a_notamc_removes_its_zone_and_copies_are_counted():
    at = _app()
    at.radio(key="engine").set_value("rules")
    at.text_area(key="batch_text").set_value(CANCEL_BATCH + "\n\n" + CANCEL_BATCH.split("\n\n")[0]).run()
    assert any(c.value == "4 messages to read" for c in at.sidebar.caption)  # counted before Run
    at.button(key="run_button").click().run()
    assert not at.exception
    at.checkbox(key="f_expired").check().run()  # whatever the time, the cancelled zone is gone
    vols = _volumes(_deck(at))
    assert set(vols) == {"0:0"}  # A2198/26 cancelled; the second A2231/26 is a copy of the first
    unplaced = next(h for h in _html(at) if 'data-testid="unplaced"' in h)
    assert "cancelled by A2250/26" in unplaced and "cancels A2198/26: removed from the map" in unplaced
    assert "1 identical copy merged" in unplaced
    zl = at.main.dataframe[0].value
    assert list(zl["zone"]) == ["A2231/26 ×2"]
    # nothing lost: every record is in the records table and the exports
    assert len(at.main.dataframe[-1].value) == 4


def test_a_review_is_resolved_on_the_page_and_exported_ok_with_provenance(demo):
    demo.selectbox(key="focus").set_value("7:0").run()  # A2243/26: review, its end estimated
    assert any(m.value.startswith("**Resolve this review**") for m in demo.markdown)
    demo.selectbox(key="edit_field").set_value("end")
    demo.text_input(key="edit_value").set_value("2026-11-30 15:00")
    demo.button(key="edit_apply").click().run()
    assert not demo.exception and demo.session_state["resolve_error"] is None
    prov = next(h for h in _html(demo) if 'data-testid="provenance"' in h)
    assert "Resolved by operator at " in prov and "edited end (fields: end)" in prov
    head = next(h for h in _html(demo) if 'data-testid="head-line"' in h)
    assert "20 ok" in head and "1 review" in head  # 19 + the resolved one; the named place is still review
    df = demo.main.dataframe[-1].value
    row = df[df["key"] == "7:0"].iloc[0]
    assert row["status"] == "ok" and row["end (UTC)"] == "2026-11-30 15:00Z"
    # the exports carry the record as ok with its provenance
    from airspace.app.resolve import ResolvedRecord, with_provenance
    from airspace.app.tables import records_jsonl
    from airspace.geo.export import to_geojson

    held = demo.session_state["resolved"]["recs"]["7:0"]
    rec = ResolvedRecord.model_validate(held)
    line = json.loads(records_jsonl([rec]))
    assert line["status"] == "ok" and line["provenance"]["by"] == "operator" and line["provenance"]["fields"] == ["end"]
    gj = with_provenance(to_geojson([rec]), [rec])
    assert gj["features"][0]["properties"]["provenance"]["was"] == "review"
    # a value that does not read is said, and the record stays as it was
    demo.selectbox(key="focus").set_value("10:0").run()
    demo.selectbox(key="edit_field").set_value("upper")
    demo.text_input(key="edit_value").set_value("quite high")
    demo.button(key="edit_apply").click().run()
    assert any("is not a height" in _plain(e.value) for e in demo.error)
    demo.selectbox(key="focus").set_value("all").run()


def test_a_large_batch_is_read_in_chunks_with_the_records_of_one_read():
    """120 messages (demo20 six times): counted before Run, read in chunks of PROGRESS_CHUNK with a progress bar,
    and the records are those of one read of the whole batch; each zone's six copies are one zone ×6."""
    from airspace.pipeline.batch import process_batch

    batch = "\n\n".join([DEMO20.strip()] * 6)
    at = _app()
    at.radio(key="engine").set_value("rules")
    at.text_area(key="batch_text").set_value(batch).run()
    assert any(c.value == "120 messages to read" for c in at.sidebar.caption)
    at.button(key="run_button").click().run()
    assert not at.exception
    whole, _ = process_batch(batch, "rules")
    df = at.main.dataframe[-1].value
    assert list(df["key"]) == [f"{r.message}:{r.zone}" for r in whole]
    assert list(df["status"]) == [r.status for r in whole]
    head = next(h for h in _html(at) if 'data-testid="head-line"' in h)
    assert "120 messages" in head and "19 zones on the map" in head  # the copies merged
    at.checkbox(key="f_expired").check().run()  # the batch is not the sample: the map opens now, its zones over
    zl = at.main.dataframe[0].value
    assert zl[zl["key"] == "0:0"].iloc[0]["zone"] == "A2231/26 ×6"


def _run_clover(text: str):
    """The page with Clover loaded, ``text`` read by it (skipped where no Clover checkpoint ships)."""
    from airspace.app import engine_loader

    if not (REPO / "data" / "checkpoints" / "clover" / "config.json").is_file():
        pytest.skip("no shipped clover checkpoint")
    at = _app()
    assert engine_loader.shared(None).wait("clover", 300)[0] is not None
    at.radio(key="engine").set_value("clover").run()
    at.text_area(key="batch_text").set_value(text).run()
    at.button(key="run_button").click().run()
    assert not at.exception
    return at


def test_a_zone_only_the_rules_reader_read_is_resolved_as_the_rules_readers_reading():
    """World train row in-deccanherald:palace-grounds-2024-04-20 (three venues, each a 1 km ban) read by Clover: the
    venues only the rules reader read are among Clover's records for review (``pipeline.complete``); the page shows
    such a zone as the rules reader's one reading and a choice of it names the rules reader."""

    from airspace.app.safe_text import md_literal

    at = _run_clover(world_text("in-deccanherald:palace-grounds-2024-04-20"))
    df = at.main.dataframe[-1].value
    only = df[df["engine"] == "rules"]
    assert len(only) >= 1 and set(only["status"]) == {"review"}
    key = only.iloc[0]["key"]
    at.selectbox(key="focus").set_value(key).run()
    titles = [m.value for m in at.markdown if m.value.endswith("reading**")]
    assert titles == ["**" + md_literal("the rules reader's reading") + "**"]  # one reading: no copy of itself beside it
    assert any(c.value.startswith("No second reading of this zone") for c in at.caption)
    at.button(key="use_engine").click().run()
    held = at.session_state["resolved"]["recs"][key]
    assert held["status"] == "ok" and held["provenance"]["action"] == "chose the rules reading"


def test_a_zone_the_engine_read_otherwise_says_so_where_it_is_resolved():
    """The vendored archive's NAVAREA XII 185/26(18) read by Clover, which ends area A with its first window
    (``250327Z``) where the warning's alternates run to 30 March: the record is the rules reader's reading for
    review (``batch._rules_reading_shown``), the reason names what Clover read, and the resolve panel says the
    engine read the zone otherwise instead of offering no second reading."""
    from world_rows import archive_text

    from airspace.pipeline.complete import READ_OTHERWISE

    at = _run_clover(archive_text("NAVAREA XII 185/26(18)"))
    df = at.main.dataframe[-1].value
    differs = df[df["reasons"].str.contains(READ_OTHERWISE, regex=False)]
    assert list(differs["key"]) == ["0:0"] and list(differs["engine"]) == ["rules"]
    assert "the engine read end 2026-03-25T03:27:00Z" in differs.iloc[0]["reasons"]
    at.selectbox(key="focus").set_value("0:0").run()
    assert any(c.value.startswith("The engine read this zone otherwise") for c in at.caption)
    assert not any(c.value.startswith("No second reading of this zone") for c in at.caption)
