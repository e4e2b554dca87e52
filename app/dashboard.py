"""Clover Airspace operator dashboard: paste a batch, see validated 3D no-fly volumes, check a route, time the engines.

Run with ``make run`` (``streamlit run app/dashboard.py`` on 127.0.0.1). This script is the page and its state;
parsing is ``airspace.pipeline.batch``, volumes/conflicts/exports are ``airspace.geo``, and the pure pieces are in
this folder: ``map_layers`` (the deck), ``basemap`` (offline land, borders, places, airports), ``tables`` (the
page's tables and filters), ``timeline`` (the map's time), ``batch_input`` (what a batch may be), ``run_summary``
(how an engine read it), ``route_panel`` (the route check), ``engine_views`` (timing demo, denoising trace,
downloads) and ``safe_text`` (message text never becomes markup). Heavy things are cached: the engines
(``st.cache_resource``) and each (batch, engine) parse (``st.cache_data``). Nothing here makes a network request;
the map has no tile server.
"""

from __future__ import annotations

import contextlib
import gc
import json
import os
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone

import streamlit as st

from airspace.app import basemap as B
from airspace.app import batch_input as I
from airspace.app import map_layers as L
from airspace.app import tables as T
from airspace.app import timeline as TL
from airspace.app.engine_views import downloads, timing_section
from airspace.app.route_panel import route_result, route_section
from airspace.app.run_summary import reading_summary, stats_dict, torch_threads
from airspace.app.safe_text import escaped, highlight_html, md_literal

# Everything a Run needs is imported with the page, not on first use: after any run that imported a new module,
# Streamlit's file watcher re-scans every module in sys.modules (thousands, with torch: ~0.3-0.4 s of the server's
# event loop), and on a 2-core machine that scan ran while the browser was drawing the Run's map.
from airspace.geo.volumes import volumes_from_records
from airspace.pipeline.batch import process_batch
from airspace.pipeline.engines import DEFAULT_ENGINE as DEFAULT_ENGINE_NAME
from airspace.pipeline.engines import get_extractor
from airspace.pipeline.split import read_jsonl

ENGINES = ("clover", "ar", "rules")
# The page opens on the registry's default engine, as the CLI does (Clover: README, "Which engine is the default, and
# why"), or on the rules reader where that engine cannot be loaded here.
DEFAULT_ENGINE = DEFAULT_ENGINE_NAME
UTC = timezone.utc
ss = st.session_state

st.set_page_config(page_title="Clover Airspace", page_icon="🛩", layout="wide", initial_sidebar_state="collapsed")


# ------------------------------------------------------------------------------------------------------------------
# Cached heavy work
# ------------------------------------------------------------------------------------------------------------------


@st.cache_resource(show_spinner="Loading engine…")
def load_engine(name: str):
    """(extractor or None, reason when it cannot be loaded). Loaded once per server process."""
    try:
        if name in ("clover", "ar"):
            import torch

            # half the cores (see run_summary.torch_threads): the browser drawing the map needs the rest
            torch.set_num_threads(torch_threads(os.environ.get("AIRSPACE_APP_THREADS"), os.cpu_count()))

        extractor = get_extractor(name)
        if hasattr(extractor, "keep_prompt_reads"):  # re-runs and batches read ahead read only what is new
            extractor.keep_prompt_reads(READ_CACHE_BYTES)
        # a few extractions at load time, so the operator's first Run pays no first-call costs (for the model
        # engines also those of the prompt-reading worker threads: ModelExtractor.warm_up)
        if hasattr(extractor, "warm_up"):
            extractor.warm_up()
        else:
            extractor.extract(["Q) ZGZU/QRDCA/IV/BO/W/000/010/2232N11356E001"])
        return extractor, None
    except Exception as exc:  # missing checkpoint, not yet built: the page offers the others
        return None, f"{type(exc).__name__}: {exc}"


#: bytes of prompt reads each model engine keeps (decoding.ReadCache; demo20's 20 messages: ~11 MB)
READ_CACHE_BYTES = 192 * 2**20


@st.cache_data(show_spinner=False, max_entries=32)
def parse(text: str, engine: str, cold: bool = False):
    """(records, stats as dict, seconds) for one batch through one engine; JSONL input is read line by line.
    ``cold``: the model reads every message itself, none kept from before or read ahead (the timing demo)."""
    extractor, why = load_engine(engine)
    if extractor is None:
        raise RuntimeError(f"engine {engine!r} is not available: {why}")
    batch = read_jsonl(text) if I.is_jsonl(text) else text
    t0 = time.perf_counter()
    with extractor.cold() if cold and hasattr(extractor, "cold") else contextlib.nullcontext():
        records, stats = process_batch(batch, extractor)
    wall = time.perf_counter() - t0
    return records, stats_dict(stats), wall


def read_ahead(text: str, engine: str) -> None:
    """A batch on the page that has not been run (≤ ``PREVIEW_MAX_BYTES``, like the preview): the chosen model
    engine reads the messages it has not kept yet in the background now (the read cache is what says which), so
    that Run finds the prompt reads kept and only writes the answers. The Run waits for a read still in progress;
    the answers are those of a cold run (tested), and the page says how many messages were read ahead.
    ``AIRSPACE_READ_AHEAD=0`` turns it off."""
    if os.environ.get("AIRSPACE_READ_AHEAD", "1").strip() == "0":  # off: every Run reads its batch after the click
        return
    if engine not in ("clover", "ar") or not text.strip() or len(text.encode("utf-8", "surrogatepass")) > PREVIEW_MAX_BYTES:
        return
    extractor, _ = load_engine(engine)
    if extractor is None or not hasattr(extractor, "read_ahead"):
        return
    try:
        texts = [m.text for m in I.live_messages(text)]
    except Exception:  # a batch that cannot be split is reported by its Run
        return
    # not a daemon: a process that ends (the server stopped, a script done) waits for the read rather than tearing
    # down the interpreter under torch's running worker threads, which aborts the process
    threading.Thread(target=extractor.read_ahead, args=(texts,), name="airspace-read-ahead", daemon=False).start()


@st.cache_data(show_spinner=False, max_entries=32)
def volumes_of(text: str, engine: str):
    records, _, _ = parse(text, engine)
    return volumes_from_records(records)


#: batches up to this size are located before they are run (``preview_bounds``); bigger ones wait for Run
PREVIEW_MAX_BYTES = 50_000


@st.cache_data(show_spinner=False, max_entries=8)
def preview_bounds(text: str):
    """Where the zones of a batch that is on the page but not yet run lie, located by the rules extractor (tens of
    milliseconds for demo20, cached per text), or None.

    The map looks there before Run (camera, basemap and its labels; no volumes): when the Run's zones lie where the
    rules found them, the Run does not move the camera, and the browser draws the volumes in one frame. Streamlit's
    chart applies a new camera in an effect after the render that brings the new layers, so a Run that moves the
    camera costs a second software-WebGL frame (new data at the old camera, then the new camera)."""
    if not text.strip() or len(text.encode("utf-8", "surrogatepass")) > PREVIEW_MAX_BYTES:
        return None
    try:
        return L.bounds_of(volumes_of(text, "rules"))
    except Exception:  # a batch the rules cannot read is located by its Run
        return None


@st.cache_resource(show_spinner=False)
def warm_basemap() -> bool:
    """Read and index the basemap and the airports once per server, at page load rather than on the first Run."""
    B.warm()
    return True


@st.cache_resource(show_spinner=False)
def freeze_startup_heap() -> int:
    """Move everything alive after the first run (modules, engines, basemap: ~600 000 objects) out of the garbage
    collector's sight, once per server; returns how many objects that is.

    Why: Streamlit runs a full collection after every script run. Over the startup heap it took 0.2-0.4 s of a
    core, right when the browser parses and draws the new map on a 2-core machine (measured: the browser's work
    from the map's arrival to its frame took ~100 ms longer with it). Afterwards a collection looks only at what
    later runs allocate. The frozen objects live as long as the server does anyway."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


def available_engines() -> dict[str, str | None]:
    return {name: load_engine(name)[1] for name in ENGINES}


# ------------------------------------------------------------------------------------------------------------------
# Input
# ------------------------------------------------------------------------------------------------------------------


def _load_sample(name: str) -> None:
    text = I.sample_text(name)
    if text is not None:
        ss["batch_text"] = text
        ss["input_note"] = f"Loaded sample {name} ({I.SAMPLES[name][0]})."
    else:
        ss["input_note"] = f"Sample {name} is not in this checkout ({I.SAMPLES_DIR / I.SAMPLES[name][0]})."


def _run() -> None:
    """Run: the batch on the page through the chosen engine. A new Run clears the old selection and route result,
    opens the map at the batch's demo time (a shipped sample) or now, and offers an example route for its zones."""
    text = ss.get("batch_text", "")
    ss["run"] = {"text": text, "engine": ss["engine"]}
    for k in ("focus", "focus_src", "route_result"):
        ss.pop(k, None)
    ss["list_gen"] = ss.get("list_gen", 0) + 1  # the zone list and table start without a row selected
    _set_map_time(I.demo_time(text) or TL.now_minute())
    ss["route_example_due"] = True


def input_section() -> None:
    engines = available_engines()
    usable = [e for e in ENGINES if engines[e] is None]
    if "engine" not in ss:
        ss["engine"] = DEFAULT_ENGINE if DEFAULT_ENGINE in usable else "rules"
    # The expander closes when a batch is run. Streamlit animates a collapse (its height, over 0.5 s, with a relayout
    # and repaint of the whole page on every frame: most of a core while the model runs on the other) unless the
    # label changes at the same time, which closes it at once: so the label says which engine ran last.
    run = ss.get("run")
    label = "Input batch" if run is None else f"Input batch (last run: {run['engine']})"
    with st.expander(label, expanded=run is None):
        cols = st.columns([1, 1, 3])
        cols[0].button("Sample: demo20", key="sample_demo20", on_click=_load_sample, args=("demo20",))
        cols[1].button("Sample: composite5", key="sample_composite5", on_click=_load_sample, args=("composite5",))
        # the note is filled in after the uploader below: a file attached in this run writes its note there
        note = cols[2].empty()
        files = st.file_uploader("Upload text / JSONL files (or paste below)", type=["txt", "jsonl", "json", "notam"],
                                 accept_multiple_files=True, key="uploads")
        if files:
            # a file is loaded into the text area once, when it is attached: text pasted afterwards replaces it
            blobs = [(f.name, f.getvalue()) for f in files]
            sig = I.upload_signature(blobs)
            if sig != ss.get("uploads_sig"):
                ss["uploads_sig"] = sig
                try:
                    ss["batch_text"] = I.join_uploads([I.decode_upload(n, b) for n, b in blobs])
                    ss["input_note"] = (f"Loaded {len(blobs)} uploaded file(s) into the text area; edit or paste "
                                        "over it to run something else.")
                except ValueError as exc:
                    st.error(md_literal(str(exc)))
        else:
            ss.pop("uploads_sig", None)
        if ss.get("input_note"):
            note.caption(md_literal(ss["input_note"]))
        st.text_area(
            "Paste messages (ICAO/FAA NOTAMs, TFRs, Chinese notices, free text) or JSONL with a `text` field",
            key="batch_text",
            height=220,
        )
        c1, c2 = st.columns([3, 1])
        c1.radio(
            "Engine",
            ENGINES,
            key="engine",
            horizontal=True,
            format_func=lambda e: e if engines[e] is None else f"{e} (unavailable)",
            help="clover (default): block-diffusion model; ar: same-size autoregressive baseline; rules: "
            "deterministic extractor. Model records are cross-checked against rules and disagreements come back as "
            "review.",
        )
        for e in ENGINES:
            if engines[e] is not None and ss["engine"] == e:
                c1.warning(md_literal(f"Engine {e} cannot be loaded here: {engines[e]}"))
        if engines.get(DEFAULT_ENGINE) is not None and ss["engine"] != DEFAULT_ENGINE:
            c1.info(md_literal(f"The default engine {DEFAULT_ENGINE} cannot be loaded here "
                               f"({engines[DEFAULT_ENGINE]}), so the page reads with {ss['engine']}."))
        c2.button("Run", type="primary", key="run_button", on_click=_run, width="stretch")
        st.caption(f"Limit: {I.APP_MAX_BYTES:,} bytes per batch on this page (the CLI takes more).")


# ------------------------------------------------------------------------------------------------------------------
# The last Run
# ------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunResult:
    """What the last Run produced: the batch, the engine, its records and volumes, the engine's wall time and stats
    (``run_summary.stats_dict``)."""

    text: str = ""
    engine: str = ""
    records: list = field(default_factory=list)
    wall_s: float = 0.0
    volumes: list = field(default_factory=list)
    stats: dict = field(default_factory=dict)

    @property
    def prompts_kept(self) -> int:
        return int(self.stats.get("prompts_cached", 0))


def load_results() -> RunResult | None:
    """The last Run's results, or None (with the reason shown) when there is none or it cannot be parsed."""
    run = ss.get("run")
    if not run:
        return None
    text, engine = run["text"], run["engine"]
    try:
        I.check_input_size(text)
    except I.InputTooLarge as exc:
        st.error(md_literal(str(exc)))
        return None
    if not text.strip():
        st.info("The batch is empty: paste messages or load a sample, then Run.")
        return None
    try:
        with st.spinner(f"Parsing with {engine}…"):
            records, stats, wall = parse(text, engine)
            volumes = volumes_of(text, engine)
    except Exception as exc:  # a broken engine must not take the page down
        st.error(md_literal(f"Could not parse the batch with {engine}: {type(exc).__name__}: {exc}"))
        return None
    return RunResult(text=text, engine=engine, records=records, wall_s=wall, volumes=volumes, stats=stats)


# ------------------------------------------------------------------------------------------------------------------
# The map's time
# ------------------------------------------------------------------------------------------------------------------


def _set_map_time(t: datetime | None) -> None:
    if t is not None:
        ss["map_t"] = TL.utc(t)


def _from_slider() -> None:
    _set_map_time(ss["t_slider"].replace(tzinfo=UTC))


def _from_date_time() -> None:
    d, tm = ss.get("t_date"), ss.get("t_time")
    if d is not None and tm is not None:
        _set_map_time(datetime.combine(d, tm).replace(tzinfo=UTC))


def _shift_time(delta_min: int) -> None:
    _set_map_time(ss["map_t"] + timedelta(minutes=delta_min))


def map_time(res: RunResult | None) -> datetime | None:
    """The map's time (UTC): set by Run (the sample's demo time, or now) and by the time controls."""
    if res is None:
        return None
    if "map_t" not in ss:
        _set_map_time(I.demo_time(res.text) or TL.now_minute())
    return ss["map_t"]


def time_controls(res: RunResult, t: datetime) -> None:
    """Date and time entry, a slider over the span that matters (``timeline.slider_span``), steps, "now", and which
    zones are active. Every control writes ``map_t`` in its callback; the widgets show ``map_t``."""
    vols = res.volumes
    lo, hi = TL.slider_span(vols, t)
    # the widgets show the map's time (set before they are drawn; their callbacks ran before this script)
    ss["t_date"], ss["t_time"] = t.date(), t.time().replace(tzinfo=None)
    ss["t_slider"] = min(max(TL.snap(t), lo), hi).replace(tzinfo=None)
    c = st.columns([1.1, 0.9, 5])
    c[0].date_input("Map date (UTC)", key="t_date", on_change=_from_date_time)
    c[1].time_input("Time (UTC)", key="t_time", step=300, on_change=_from_date_time)
    c[2].slider("Map time (UTC), over the zones' active windows", min_value=lo.replace(tzinfo=None),
                max_value=hi.replace(tzinfo=None), step=TL.SLIDER_STEP, format="YYYY-MM-DD HH:mm", key="t_slider",
                on_change=_from_slider)
    prev_c, next_c = TL.step_change(vols, t, -1), TL.step_change(vols, t, +1)
    demo = I.demo_time(res.text)
    b = st.columns(8)
    b[0].button("◀ change", key="t_prev", on_click=_set_map_time, args=(prev_c,), disabled=prev_c is None,
                help="the previous moment a zone starts or stops", width="stretch")
    b[1].button("−1 h", key="t_m60", on_click=_shift_time, args=(-60,), width="stretch")
    b[2].button("−15 min", key="t_m15", on_click=_shift_time, args=(-15,), width="stretch")
    b[3].button("+15 min", key="t_p15", on_click=_shift_time, args=(15,), width="stretch")
    b[4].button("+1 h", key="t_p60", on_click=_shift_time, args=(60,), width="stretch")
    b[5].button("change ▶", key="t_next", on_click=_set_map_time, args=(next_c,), disabled=next_c is None,
                help="the next moment a zone starts or stops", width="stretch")
    b[6].button("Now", key="t_now", on_click=lambda: _set_map_time(TL.now_minute()), width="stretch")
    if demo is not None:
        b[7].button("Demo time", key="t_demo", on_click=_set_map_time, args=(demo,), width="stretch",
                    help="the moment this sample batch is written for")
    st.caption(md_literal(TL.active_summary(vols, t)))


# ------------------------------------------------------------------------------------------------------------------
# Selection: map click, zone list, records table, focus box
# ------------------------------------------------------------------------------------------------------------------


def _rows_selected(state_key: str) -> list[int]:
    sel = ss.get(state_key) or {}
    selection = sel.get("selection", {}) if hasattr(sel, "get") else getattr(sel, "selection", {})
    return list((selection.get("rows") if hasattr(selection, "get") else getattr(selection, "rows", None)) or [])


ALL = "all"  # the focus box's "all zones" (a None value would show the box's placeholder instead)


def _focus(key: str | None, src: str) -> None:
    ss["focus"], ss["focus_src"] = key, src


def consume_map_click() -> None:
    """A click on a volume (Streamlit's map selection) becomes the page's focus, then the map's pickable layers get
    new ids (``pick_gen``) so that Streamlit drops its own selection (which would dim every other layer) and the
    next click on the same volume counts again. The camera stays where the operator is looking."""
    state = ss.get("map") or {}
    sel = state.get("selection", {}) if hasattr(state, "get") else getattr(state, "selection", {})
    indices = dict(sel.get("indices", {}) if hasattr(sel, "get") else {})
    sig = json.dumps(indices, sort_keys=True)
    if sig == ss.get("_map_sel_seen"):
        return
    ss["_map_sel_seen"] = sig
    objects = sel.get("objects", {}) if hasattr(sel, "get") else {}
    picked = [o for objs in objects.values() for o in (objs or []) if isinstance(o, dict)]
    if not any(indices.values()):
        return
    ss["pick_gen"] = ss.get("pick_gen", 0) + 1
    key = next((o.get("key") for o in picked if o.get("key") not in (None, "warmup")), None)
    if key is not None:
        _focus(key, "map")
        ss["list_gen"] = ss.get("list_gen", 0) + 1  # the zone list and table drop their own row selection


def sync_focus_from_lists(list_keys: list[str], table_keys: list[str]) -> None:
    """A row newly selected in the zone list or the records table becomes the focus."""
    for state_key, keys, src in ((f"zones~{ss.get('list_gen', 0)}", list_keys, "list"),
                                 (f"table~{ss.get('list_gen', 0)}", table_keys, "table")):
        rows = _rows_selected(state_key)
        seen = ss.get(f"_seen_{state_key}")
        if rows != seen:
            ss[f"_seen_{state_key}"] = rows
            if rows and rows[0] < len(keys):
                _focus(keys[rows[0]], src)


def _focus_from_box() -> None:
    ss["focus_src"] = "box"


# ------------------------------------------------------------------------------------------------------------------
# The page
# ------------------------------------------------------------------------------------------------------------------


def filters_row(res: RunResult | None) -> None:
    c = st.columns([2, 1.3, 1.6, 1.2, 1.2])
    c[0].multiselect("Show status", ["ok", "review"], default=["ok", "review"], key="f_status")
    c[1].checkbox("Only active now", key="f_active", help="only the zones active at the map's time")
    c[2].checkbox("Only zones reaching below 120 m AGL", key="f_low",
                  help="floors below 120 m above the ground; AMSL/FL floors as if the ground were at sea level "
                       "(no terrain model)")
    c[3].select_slider("Vertical exaggeration", options=[1, 2, 5, 10, 20], value=1, key="vscale",
                       help="1 = true scale. Floors and ceilings are both multiplied.")
    c[4].checkbox("Wheel zooms map", key="wheel_zoom",
                  help="off: the mouse wheel scrolls the page; zoom with a double-click, +/− keys or a pinch")


def details_panel(res: RunResult, by_key: dict, focus: str | None, volumes_shown, active: dict) -> None:
    """Beside the map: the zone list (select a row to focus a zone), what is not on the map and why, and the
    focused record with the source of every field highlighted. Message text is escaped (``safe_text``)."""
    zl = T.zone_list_frame(volumes_shown, active)
    st.markdown("**Zones on the map**")
    st.dataframe(zl, hide_index=True, on_select="rerun", selection_mode="single-row", key=f"zones~{ss.get('list_gen', 0)}",
                 column_order=["zone", "status", "now", "band"], height=min(36 + 35 * max(len(zl), 1), 246),
                 width="stretch")
    missing = T.unplaced(res.records, res.volumes)
    if missing:
        items = "".join(f"<li><b>msg {escaped(m['msg'])}</b> · {escaped(m['zone'])} — {escaped(m['why'])}</li>"
                        for m in missing)
        st.html(f'<div class="unplaced" data-testid="unplaced"><b>Not on the map ({len(missing)})</b>'
                f'<ul style="margin:0.2rem 0 0 1rem;padding:0">{items}</ul></div>')
    keys = list(by_key)
    st.selectbox("Focus zone", [ALL] + keys, key="focus", on_change=_focus_from_box,
                 format_func=lambda k: "all zones" if k == ALL else f"{T.record_label(by_key[k])} · {by_key[k].status}")
    if focus is None:
        st.caption("Click a volume, pick a zone in the list or the table to see its message with the source of every "
                   "field highlighted.")
        return
    rec = by_key[focus]
    reasons = "".join(f"<li>{escaped(r)}</li>" for r in rec.reasons)
    st.html(f'<div class="focus-head" data-testid="focus-head"><b>{escaped(rec.id or "no id")}</b> — message '
            f"{rec.message + 1}, zone {rec.zone + 1}: <code>{escaped(rec.status)}</code>"
            + (f'<ul style="margin:0.2rem 0 0 1rem;padding:0">{reasons}</ul>' if reasons else "") + "</div>")
    st.html(highlight_html(rec.text, rec.spans))
    st.caption(md_literal("Highlighted: " + ", ".join(sorted(rec.spans))) if rec.spans else "No spans recorded for this record.")


# wide enough for a whole UTC date and time, and for the reasons
RECORD_COLUMN_CONFIG = {
    "msg": st.column_config.NumberColumn(width=50), "zone": st.column_config.NumberColumn(width=50),
    "start (UTC)": st.column_config.TextColumn(width=150), "end (UTC)": st.column_config.TextColumn(width=170),
    "reasons": st.column_config.TextColumn(width=260), "lower": st.column_config.TextColumn(width=160),
    "upper": st.column_config.TextColumn(width=190), "centre / polygon": st.column_config.TextColumn(width=200),
    "radius": st.column_config.TextColumn(width=150),
}


def page() -> None:
    """Everything below the input: the map is always there (the world before the first Run), the rest after it.

    The blocks are created first, on every run and whatever they hold, so the map keeps its place in the element
    tree: the browser then updates the same deck.gl canvas instead of building a new one (a new WebGL context costs
    seconds with software rendering). They are filled in a different order: the run's metrics, then the map, then
    the widgets around it (time, filters, zone list, route), the table and the tabs. Streamlit sends each element as
    the script reaches it, so the map's data is on its way to the browser (and being parsed and drawn there) while
    the server is still writing the rest; the widgets' values are read from the session state before they are
    drawn."""
    top = st.container()
    controls = st.container()
    filters = st.container()
    c1, c2 = st.columns([2, 1])
    route_box = st.container()
    with top:
        res = load_results()
    shown_res = res or RunResult()
    records, volumes = shown_res.records, shown_res.volumes
    # metrics and the records table are drawn even before the first Run (empty), so the browser has loaded their
    # code by the time the operator clicks Run
    counts = T.status_counts(records)
    m = top.columns(6)
    m[0].metric("Messages", len({r.message for r in records}) if res else "—")
    m[1].metric("Zones (records)", len(records) if res else "—")
    m[2].metric("ok", counts["ok"] if res else "—")
    m[3].metric("review", counts["review"] if res else "—")
    m[4].metric("error", counts["error"] if res else "—")
    m[5].metric(f"{shown_res.engine} time" if res else "time", f"{shown_res.wall_s:.2f} s" if res else "—")
    if res:
        top.caption(reading_summary(res.stats, res.wall_s) + " The timing tab runs Clover and AR side by side.")

    df = T.records_frame(records)
    table_keys = list(df["key"])
    by_key = {T.record_key(r): r for r in records}
    consume_map_click()
    t = map_time(res)
    statuses = ss.get("f_status", ["ok", "review"])
    shown = T.filter_volumes(volumes, t, statuses=statuses, active_only=ss.get("f_active", False),
                             below_m=T.DRONE_CEILING_M if ss.get("f_low", False) else None)
    active = TL.active_keys(shown, t)
    zone_keys = [L.key_str(v.key) for v in shown]
    sync_focus_from_lists(zone_keys, table_keys)
    if ss.get("focus") not in by_key:
        ss["focus"] = ALL
    focus = None if ss["focus"] == ALL else ss["focus"]
    vscale = ss.get("vscale", 1)
    route = route_result(volumes, t)

    # a batch on the page that has not been run (a sample just loaded, a new paste): the map looks where it lies
    batch = ss.get("batch_text", "")
    pending = preview_bounds(batch) if batch != shown_res.text else None
    if batch != shown_res.text:
        read_ahead(batch, ss.get("engine", ""))
    all_bounds = L.bounds_of(volumes)
    if pending is not None:
        view = L.fit_view(pending)
    elif focus is not None and ss.get("focus_src") == "map" and ss.get("last_view") is not None:
        view = ss["last_view"]  # clicked on the map: the camera stays where the operator is looking
    else:
        view = L.fit_view(L.focus_bounds(volumes, focus), selected=focus is not None)
    ss["last_view"] = view
    frame = pending if pending is not None else (L.focus_bounds(volumes, focus) if focus else all_bounds)
    basemap = B.basemap_for(frame, served=bool(st.get_option("server.enableStaticServing")))
    route_path = route.get("path", []) if route and "error" not in route else []
    route_pts = route.get("points", []) if route and "error" not in route else []
    deck = L.build_deck(shown, t, basemap=basemap, selected=focus, vscale=vscale, route=route_path,
                        conflict_points=route_pts, view=view, pick_gen=ss.get("pick_gen", 0),
                        scroll_zoom=ss.get("wheel_zoom", False),
                        scale_bounds=(pending or all_bounds) if "region" in basemap else None)
    with c1:
        st.pydeck_chart(deck, height=560, key="map", on_select="rerun", selection_mode="single-object")
        st.html(L.legend_html())
        if pending is not None:
            st.caption("The map shows where the batch's zones lie (located by the rules extractor); Run draws them."
                       + (" The zones drawn now are the last run's." if res else ""))
        st.caption(
            f"{len(shown)} of {len(volumes)} volumes drawn from their floor to their ceiling over Natural Earth 1:10m "
            f"land and borders (offline), with airports. UNL ceilings drawn at {L.UNL_CAP_M:,.0f} m (FL600). "
            "Hover a volume for its details; click it to select its record."
        )
    if res and t is not None:
        with controls:
            time_controls(res, t)
    with filters:
        filters_row(res)
    with c2:
        if res:
            details_panel(res, by_key, focus, shown, active)
        else:
            st.caption("Run a batch to list its zones here.")
    with route_box:
        route_section(res.volumes if res else [], route, expanded=res is not None)

    st.subheader("Records")
    focus_row = table_keys.index(focus) if focus in table_keys else None
    styled = df.style.apply(lambda row: ["background-color: rgba(255, 75, 75, 0.25)" if row.name == focus_row else ""
                                         for _ in row], axis=1) if focus_row is not None else df
    st.dataframe(styled, hide_index=True, on_select="rerun", selection_mode="single-row",
                 key=f"table~{ss.get('list_gen', 0)}", width="stretch",
                 column_order=[c for c in T.RECORD_COLUMNS if c != "key"], column_config=RECORD_COLUMN_CONFIG)
    if not res:
        return

    tab_timing, tab_dl = st.tabs(["Timing: Clover vs AR", "Downloads"])
    with tab_timing:
        timing_section(res.text, parse)
    with tab_dl:
        downloads(records)


# ------------------------------------------------------------------------------------------------------------------

# While a Run is on the server, Streamlit fades the previous results (after 0.5 s, over 1 s). Every frame of that
# fade re-composites the page, map canvas included, and even a fade shortened to one step after the 0.5 s delay is
# a transition Chrome cannot hand to the compositor (zero duration): its main thread services the ~30 faded
# elements on every frame of the delay. A Chrome trace showed that, with the input's collapse animation (see
# ``input_section``), as 80-100% of a core for the first 0.6 s after Run, while the model runs on the other core.
# So stale results are not dimmed at all: the spinner and Streamlit's running indicator say that a run is on.
STALE_CSS = "<style>[data-stale='true']{opacity: 1 !important; transition: none !important;}</style>"
st.html(STALE_CSS + L.map_css())
st.title("Clover Airspace")
st.caption("Air-traffic messages → validated 3D no-fly volumes. Offline: no request leaves this machine.")
warm_basemap()
input_section()
page()
freeze_startup_heap()
