"""Clover Airspace dispatch view: the map of the zones first, "Can I fly here?", time as the operator reads it, and
the batch (paste, upload, samples) in the sidebar.

Run with ``make run`` (``streamlit run app/dashboard.py`` on 127.0.0.1). This script is the page and its state;
parsing is ``airspace.pipeline.batch``, volumes/conflicts/exports and the "can I fly" answer are ``airspace.geo``,
and the pure pieces are in this folder: ``engine_loader`` (model engines loaded behind the page), ``feed``
(cancellations, replacements, copies), ``zone_list`` and ``local_time`` (the zones as a dispatcher reads them),
``place_lookup`` (what a typed place means), ``map_layers`` (the deck), ``basemap`` (offline land, borders,
places, airports), ``tables``, ``timeline``, ``batch_input``, ``run_summary``, ``route_panel``, ``engine_views``
and ``safe_text`` (message text never becomes markup).

The first screen never waits for torch: the rules reader is loaded with the page and the default model engine
(``pipeline.engines.DEFAULT_ENGINE``) in a thread behind it; until it is ready a Run reads with the rules reader and
the page says so. Nothing here makes a network request; the map has no tile server.
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
from airspace.app import engine_loader as EL
from airspace.app import local_time as LT
from airspace.app import map_layers as L
from airspace.app import resolve as R
from airspace.app import tables as T
from airspace.app import timeline as TL
from airspace.app import zone_list as ZL
from airspace.app.engine_views import downloads, timing_section
from airspace.app.feed import FeedView, apply_feed
from airspace.app.place_lookup import NotAPlace, locate
from airspace.app.route_panel import route_result, route_section
from airspace.app.run_summary import reading_summary, stats_dict, torch_threads
from airspace.app.safe_text import escaped, highlight_html, md_literal
from airspace.core.records import ZoneRecord
from airspace.geo import flycheck as F
from airspace.geo import zonetime as Z

# Everything a Run needs is imported with the page, not on first use: after any run that imported a new module,
# Streamlit's file watcher re-scans every module in sys.modules, and on a 2-core machine that scan ran while the
# browser was drawing the Run's map. (The model engines' modules arrive with their loading thread, once.)
from airspace.geo.volumes import volumes_from_records
from airspace.pipeline.batch import process_batch
from airspace.pipeline.engines import DEFAULT_ENGINE as DEFAULT_ENGINE_NAME
from airspace.pipeline.engines import get_extractor
from airspace.pipeline.split import read_jsonl

ENGINES = ("clover", "ar", "rules")
RULES = "rules"  # the reader that needs no model: loaded with the page, read with while a model engine loads
# The page opens on the registry's default engine, as the CLI does (README, "Which engine is the default, and why").
DEFAULT_ENGINE = DEFAULT_ENGINE_NAME
UTC = timezone.utc
ss = st.session_state

st.set_page_config(page_title="Clover Airspace", page_icon="🛩", layout="wide", initial_sidebar_state="auto")


# ------------------------------------------------------------------------------------------------------------------
# Engines: the rules reader now, the model engines behind the page
# ------------------------------------------------------------------------------------------------------------------

#: bytes of prompt reads each model engine keeps (decoding.ReadCache; demo20's 20 messages: ~11 MB)
READ_CACHE_BYTES = 192 * 2**20


def _load_extractor(name: str):
    """One engine, warmed up (a few extractions at load time, so the operator's first Run pays no first-call
    costs). Raises when it cannot be loaded; ``EngineLoader`` keeps the reason for the page."""
    extractor = get_extractor(name)
    if getattr(extractor, "is_model", False) or hasattr(extractor, "warm_up"):
        import torch

        # half the cores (see run_summary.torch_threads): the browser drawing the map needs the rest
        torch.set_num_threads(torch_threads(os.environ.get("AIRSPACE_APP_THREADS"), os.cpu_count()))
    if hasattr(extractor, "keep_prompt_reads"):  # re-runs and batches read ahead read only what is new
        extractor.keep_prompt_reads(READ_CACHE_BYTES)
    if hasattr(extractor, "warm_up"):
        extractor.warm_up()
    else:
        extractor.extract(["Q) ZGZU/QRDCA/IV/BO/W/000/010/2232N11356E001"])
    if hasattr(extractor, "warm_up"):
        # what the model brought (torch, its weights' objects) out of the collector's sight, as freeze_startup_heap
        # does for the page's own start-up heap
        gc.collect()
        gc.freeze()
    return extractor


LOADER = EL.shared(_load_extractor)


def load_engine(name: str, timeout: float | None = None):
    """(extractor or None, reason when it is not there): waits for ``name`` to load (the timing demo)."""
    return LOADER.wait(name, timeout)


def engine_to_read_with(wanted: str) -> tuple[str, str | None]:
    """(the engine a Run uses now, why it is not ``wanted``): ``wanted`` when it is loaded, else the rules reader
    (a model engine still loading, or one that cannot be loaded here)."""
    if wanted == RULES:
        return RULES, None
    state, why = LOADER.state(wanted)
    if state == EL.READY:
        return wanted, None
    if state == EL.FAILED:
        return RULES, f"{wanted} cannot be loaded here ({why}): read with the rules reader."
    LOADER.start(wanted)
    return RULES, f"{wanted} was still loading: read with the rules reader. Read again with {wanted} when it is ready."


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


#: batches with more live messages than this are read in chunks of this many, with a progress bar
PROGRESS_CHUNK = 50


@st.cache_resource(show_spinner=False)
def _runs_cache() -> dict:
    """(text, engine) -> (records, stats, wall) of the chunked reads with a progress bar (a few, newest kept)."""
    return {}


def parse_with_progress(text: str, engine: str, bar) -> tuple[list, dict, float]:
    """``parse``, in chunks of ``PROGRESS_CHUNK`` messages with ``bar`` (an ``st.progress``) moving for a batch
    larger than one chunk. Each message keeps its index in the batch, so the records are those of one read."""
    cache = _runs_cache()
    if (text, engine) in cache:
        return cache[(text, engine)]
    messages = read_jsonl(text) if I.is_jsonl(text) else None
    if messages is None:
        from airspace.pipeline.split import BatchTooLarge, split_batch

        try:
            messages = split_batch(text)
        except BatchTooLarge:
            return parse(text, engine)
    if len(messages) <= PROGRESS_CHUNK:
        return parse(text, engine)
    extractor, why = load_engine(engine)
    if extractor is None:
        raise RuntimeError(f"engine {engine!r} is not available: {why}")
    records, walls, merged = [], 0.0, None
    for i in range(0, len(messages), PROGRESS_CHUNK):
        chunk = messages[i:i + PROGRESS_CHUNK]
        bar.progress(min(i / len(messages), 1.0), text=f"Reading messages {i + 1}–{i + len(chunk)} of {len(messages)}…")
        t0 = time.perf_counter()
        recs, stats = process_batch(chunk, extractor)
        walls += time.perf_counter() - t0
        records.extend(recs)
        s = stats_dict(stats)
        merged = s if merged is None else {k: (merged[k] + v if isinstance(v, (int, float)) and k in merged else v)
                                           for k, v in s.items()}
    bar.progress(1.0, text=f"Read {len(messages)} messages.")
    if len(cache) > 4:
        cache.pop(next(iter(cache)))
    cache[(text, engine)] = (records, merged or {}, walls)
    return cache[(text, engine)]


def read_ahead(text: str, engine: str) -> None:
    """A batch on the page that has not been run (<= ``PREVIEW_MAX_BYTES``, like the preview): the chosen model
    engine, once loaded, reads the messages it has not kept yet in the background now (its read cache says which),
    so that Run finds the prompt reads kept and only writes the answers. ``AIRSPACE_READ_AHEAD=0`` turns it off."""
    if os.environ.get("AIRSPACE_READ_AHEAD", "1").strip() == "0":
        return
    if not text.strip() or len(text.encode("utf-8", "surrogatepass")) > PREVIEW_MAX_BYTES:
        return
    extractor = LOADER.get(engine)
    if extractor is None or not hasattr(extractor, "read_ahead"):
        return
    try:
        texts = [m.text for m in I.live_messages(text)]
    except Exception:  # a batch that cannot be split is reported by its Run
        return
    # not a daemon: a process that ends waits for the read rather than tearing down torch's worker threads
    threading.Thread(target=extractor.read_ahead, args=(texts,), name="airspace-read-ahead", daemon=False).start()


@st.cache_data(show_spinner=False, max_entries=32)
def volumes_of_records(records: list):
    return volumes_from_records(records)


#: batches up to this size are located before they are run (``preview_bounds``); bigger ones wait for Run
PREVIEW_MAX_BYTES = 50_000


@st.cache_data(show_spinner=False, max_entries=8)
def preview_bounds(text: str):
    """Where the zones of a batch that is on the page but not yet run lie, located by the rules reader (tens of
    milliseconds for demo20, cached per text), or None: the map looks there before Run, so that the Run's zones
    arrive at the camera already in place (one frame, not two, under software WebGL)."""
    if not text.strip() or len(text.encode("utf-8", "surrogatepass")) > PREVIEW_MAX_BYTES:
        return None
    try:
        records, _, _ = parse(text, RULES)
        volumes = volumes_from_records(apply_feed(records).live)
        return L.bounds_of(matter_now(volumes, I.demo_time(text) or TL.now_minute()) or volumes)
    except Exception:  # a batch the rules cannot read is located by its Run
        return None


def matter_now(volumes, t: datetime | None) -> list:
    """The zones the camera fits: active, permanent or upcoming at ``t``, reaching below the drone ceiling."""
    if t is None:
        return []
    return [v for v in volumes if Z.zone_state(v, t) in (Z.ACTIVE, Z.PERMANENT, Z.UPCOMING_STATE)
            and T.reaches_below(v)]


@st.cache_data(show_spinner=False, max_entries=16)
def message_count(text: str) -> int | None:
    """How many messages a batch holds (what Run will read), or None when it cannot be split."""
    try:
        return len(I.live_messages(text))
    except Exception:
        return None


#: seconds the warm-up waits after the first screen's script run: the server's event loop, which sends the page
#: to the browser, shares the interpreter with any Python work (reading the basemap, importing torch)
WARM_DELAY_S = 1.0


@st.cache_resource(show_spinner=False)
def _warming() -> dict:
    """The server's warm-up thread (this script runs again on every rerun; the cached dict outlives it)."""
    return {"lock": threading.Lock(), "thread": None}


def _warm(engine: str) -> None:
    time.sleep(WARM_DELAY_S)
    B.warm()  # the basemap and the airports read and indexed: the first batch located pays nothing for them
    LT.tz_name(22.5, 114.0)  # the time-zone finder built (and its modules imported) before the first Run
    freeze_startup_heap()
    if engine != RULES:
        LOADER.start(engine)


def start_warming(engine: str) -> None:
    """Once per server, behind the first screen: read the basemap, build the time-zone finder, freeze the start-up
    heap, then load the chosen model engine (``EngineLoader``), in a thread that starts ``WARM_DELAY_S`` after
    the first script run, so the first screen is on its way first. A later page choosing another model engine
    starts that one's loading at once."""
    state = _warming()
    with state["lock"]:
        if state["thread"] is not None:
            if engine != RULES:
                LOADER.start(engine)
            return
        th = state["thread"] = threading.Thread(target=_warm, args=(engine,), name="airspace-warm", daemon=False)
    th.start()


def freeze_startup_heap() -> int:
    """Move everything alive after start-up (modules, basemap) out of the garbage collector's sight; returns how many
    objects that is. Streamlit runs a full collection after every script run, and over the start-up heap that took
    0.2-0.4 s of a core while the browser drew the new map on a 2-core machine."""
    gc.collect()
    gc.freeze()
    return gc.get_freeze_count()


# ------------------------------------------------------------------------------------------------------------------
# Input (the sidebar)
# ------------------------------------------------------------------------------------------------------------------


def _load_sample(name: str) -> None:
    text = I.sample_text(name)
    if text is not None:
        ss["batch_text"] = text
        ss["input_note"] = f"Loaded sample {name} ({I.SAMPLES[name][0]})."
    else:
        ss["input_note"] = f"Sample {name} is not in this checkout ({I.SAMPLES_DIR / I.SAMPLES[name][0]})."


def _run(engine: str | None = None) -> None:
    """Run: the batch on the page through the chosen engine (or the rules reader while it loads). A new Run clears
    the old selection and route result, opens the map at the batch's demo time (a shipped sample) or now, and
    offers an example route for its zones."""
    text = ss.get("batch_text", "")
    wanted = engine or ss.get("engine", DEFAULT_ENGINE)
    used, why = engine_to_read_with(wanted)
    ss["run"] = {"text": text, "engine": used, "wanted": wanted, "why": why}
    for k in ("focus", "focus_src", "route_result"):
        ss.pop(k, None)
    ss["list_gen"] = ss.get("list_gen", 0) + 1  # the zone list and table start without a row selected
    _set_map_time(I.demo_time(text) or TL.now_minute())
    ss["route_example_due"] = True


def _engine_label(e: str) -> str:
    return f"{e} (default)" if e == DEFAULT_ENGINE else e


@st.fragment(run_every=1.5)
def _engine_wait() -> None:
    """While the chosen model engine loads: checks every 1.5 s, and redraws the page once it is ready (or failed),
    so the status line and the "read again" offer appear without a click."""
    if LOADER.state(ss.get("engine", DEFAULT_ENGINE))[0] in (EL.READY, EL.FAILED):
        st.rerun()


def engine_status() -> None:
    """One line under Run: which engine reads, and why not the chosen one."""
    wanted = ss.get("engine", DEFAULT_ENGINE)
    state, why = LOADER.state(wanted)
    if wanted == RULES or state == EL.READY:
        st.caption(md_literal(f"Engine: {wanted}" + (" (the default)." if wanted == DEFAULT_ENGINE else ".")),
                   help="Model records are cross-checked against the rules reading; disagreements come back as review.")
    elif state == EL.FAILED:
        st.warning(md_literal(f"{wanted} cannot be loaded here ({why}); the page reads with the rules reader."))
    else:
        st.caption(md_literal(f"Engine: {wanted} is loading behind the page; until it is ready a Run reads with the "
                              "rules reader."))
        _engine_wait()


def input_section() -> None:
    if "engine" not in ss:
        ss["engine"] = DEFAULT_ENGINE
    st.markdown("**Messages**")
    cols = st.columns(2)
    cols[0].button("Sample: demo20", key="sample_demo20", on_click=_load_sample, args=("demo20",), width="stretch")
    cols[1].button("Sample: composite5", key="sample_composite5", on_click=_load_sample, args=("composite5",),
                   width="stretch")
    note = st.empty()  # filled in after the uploader: a file attached in this run writes its note there
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
    st.text_area("Paste messages (ICAO/FAA NOTAMs, TFRs, Chinese notices, free text) or JSONL with a `text` field",
                 key="batch_text", height=200)
    text = ss.get("batch_text", "")
    n = message_count(text) if text.strip() else 0
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > I.APP_MAX_BYTES:
        count = f"{size:,} bytes: over this page's {I.APP_MAX_BYTES:,}"
    elif n is None:
        count = "the batch cannot be split into messages"
    else:
        count = f"{n:,} message{'s' if n != 1 else ''} to read"
    st.caption(count, help=f"Limit: {I.APP_MAX_BYTES:,} bytes per batch on this page (the CLI takes more).")
    st.button("Run", type="primary", key="run_button", on_click=_run, width="stretch")
    engine_status()
    run = ss.get("run")
    if run and run.get("why") and LOADER.state(run["wanted"])[0] == EL.READY:
        st.button(f"Read again with {run['wanted']}", key="rerun_button", on_click=_run, args=(run["wanted"],),
                  width="stretch")
    with st.expander("Advanced"):
        st.radio(
            "Engine",
            ENGINES,
            key="engine",
            format_func=_engine_label,
            help=f"{DEFAULT_ENGINE} is the default. clover: block-diffusion model; ar: same-size autoregressive "
            "baseline; rules: deterministic reader. Model records are cross-checked against the rules reading and "
            "disagreements come back as review.",
        )
        if run:
            st.caption(md_literal(f"Last run: {run['engine']}."))


# ------------------------------------------------------------------------------------------------------------------
# The last Run
# ------------------------------------------------------------------------------------------------------------------


@dataclass(frozen=True)
class RunResult:
    """What the last Run produced: the batch, the engine, every record, the feed's view of them (what the map
    shows), their volumes, the engine's wall time and stats (``run_summary.stats_dict``)."""

    text: str = ""
    engine: str = ""
    records: list = field(default_factory=list)
    wall_s: float = 0.0
    volumes: list = field(default_factory=list)
    stats: dict = field(default_factory=dict)
    feed: FeedView = field(default_factory=FeedView)
    note: str | None = None


def load_results(where) -> RunResult | None:
    """The last Run's results, or None (with the reason shown in ``where``) when there is none or it cannot be
    parsed."""
    run = ss.get("run")
    if not run:
        return None
    text, engine = run["text"], run["engine"]
    try:
        I.check_input_size(text)
    except I.InputTooLarge as exc:
        where.error(md_literal(str(exc)))
        return None
    if not text.strip():
        where.info("The batch is empty: paste messages or load a sample, then Run.")
        return None
    try:
        with where:
            bar = st.empty()
            with st.spinner(f"Reading with {engine}…"):
                records, stats, wall = parse_with_progress(text, engine, bar)
            bar.empty()
        records = R.apply(records, resolutions(text, engine))
        feed = apply_feed(records)
        volumes = volumes_of_records(feed.live)
    except Exception as exc:  # a broken engine must not take the page down
        where.error(md_literal(f"Could not parse the batch with {engine}: {type(exc).__name__}: {exc}"))
        return None
    return RunResult(text=text, engine=engine, records=records, wall_s=wall, volumes=volumes, stats=stats, feed=feed,
                     note=run.get("why"))


def resolutions(text: str, engine: str) -> dict[str, dict]:
    """The operator's resolutions of this batch as read by this engine (key -> the resolved record's JSON); a new
    batch or engine starts with none."""
    held = ss.get("resolved")
    if not held or held.get("run") != (text, engine):
        return {}
    return held["recs"]


def _resolve(key: str, rec_json: dict) -> None:
    run = ss.get("run") or {}
    held = ss.get("resolved")
    if not held or held.get("run") != (run.get("text"), run.get("engine")):
        held = {"run": (run.get("text"), run.get("engine")), "recs": {}}
    held["recs"][key] = rec_json
    ss["resolved"] = held
    ss["resolve_error"] = None


def _choose(key: str, chosen_json: dict, original_json: dict, source: str) -> None:
    rec = R.choose(ZoneRecord.model_validate(original_json), ZoneRecord.model_validate(chosen_json), source,
                   datetime.now(UTC))
    _resolve(key, rec.model_dump(mode="json"))


def _edit(key: str, original_json: dict) -> None:
    original = R.ResolvedRecord.model_validate(original_json)
    try:
        rec = R.edit(original, ss.get("edit_field", "end"), ss.get("edit_value", ""), datetime.now(UTC))
    except ValueError as exc:
        ss["resolve_error"] = str(exc)
        return
    _resolve(key, rec.model_dump(mode="json"))


# ------------------------------------------------------------------------------------------------------------------
# The map's time
# ------------------------------------------------------------------------------------------------------------------


def _set_map_time(t: datetime | None) -> None:
    """The map's time, on the slider's grid (``timeline.SLIDER_STEP``), so the slider and the time box always show
    the same moment."""
    if t is not None:
        ss["map_t"] = TL.snap(TL.utc(t))


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


def time_controls(res: RunResult, t: datetime, tz: str | None) -> None:
    """Date and time entry (UTC), the zone's local time beside it, a slider over the span that matters
    (``timeline.slider_span``), steps, "now", and which zones are active. Every control writes ``map_t`` in its
    callback; the widgets show ``map_t``."""
    vols = res.volumes
    lo, hi = TL.slider_span(vols, t)
    ss["t_date"], ss["t_time"] = t.date(), t.time().replace(tzinfo=None)
    ss["t_slider"] = min(max(TL.snap(t), lo), hi).replace(tzinfo=None)
    c = st.columns([1.1, 0.9, 5])
    c[0].date_input("Map date (UTC)", key="t_date", on_change=_from_date_time)
    c[1].time_input("Time (UTC)", key="t_time", step=300, on_change=_from_date_time)
    c[2].slider("Map time (UTC), over the zones' active windows", min_value=lo.replace(tzinfo=None),
                max_value=hi.replace(tzinfo=None), step=TL.SLIDER_STEP, format="YYYY-MM-DD HH:mm", key="t_slider",
                on_change=_from_slider)
    if tz:
        st.caption(md_literal(f"Local time at the zones: {LT.local_text(t, tz)} ({tz})"))
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
# "Can I fly here?"
# ------------------------------------------------------------------------------------------------------------------


def _ask_fly() -> None:
    """The point typed in the box, located (``place_lookup``); the answer is computed with the page. An emptied
    box takes the question (and its point on the map) away."""
    if not ss.get("fly_where", "").strip():
        ss["fly_point"], ss["fly_error"] = None, None
        return
    try:
        lat, lon, what = locate(ss.get("fly_where", ""))
    except NotAPlace as exc:
        ss["fly_point"], ss["fly_error"] = None, str(exc)
        return
    ss["fly_point"], ss["fly_error"] = (lat, lon, what), None


VERDICT_STYLE = {F.CLEAR: ("#1e7d32", "Clear"), F.RESTRICTED: ("#c62828", "Restricted"),
                 F.REVIEW: ("#b26a00", "Review needed")}


def fly_answer(res: RunResult, t: datetime) -> F.FlyAnswer | None:
    point = ss.get("fly_point")
    if not point or t is None:
        return None
    lat, lon, _ = point
    ground = ss.get("fly_ground")
    return F.can_i_fly(res.volumes, lat, lon, t, height_m=float(ss.get("fly_height", F.DRONE_HEIGHT_M)),
                       ground_m=None if ground is None else float(ground))


def _hit_html(h: F.ZoneHit, t: datetime, tz_of) -> str:
    v = h.volume
    tz = tz_of(v)
    if h.state == Z.PERMANENT:
        when = "permanent"
    elif h.state == Z.ACTIVE:
        when = f"until {LT.both_text(h.ends, tz)}" if h.ends else "no end stated"
        when += " (estimated)" if v.record.end_estimated else ""
    else:
        when = f"from {LT.both_text(h.starts, tz)}"
    extra = f", {h.distance_m:,.0f} m away" if h.distance_m > 0 else ""
    review = " · review" if v.status != "ok" else ""
    return (f"<li><b>{escaped(T.record_label(v.record))}</b>{escaped(review)} — {escaped(T._band(v))}, "
            f"{escaped(when)}{escaped(extra)}</li>")


def fly_panel(res: RunResult | None, t: datetime | None, answer: F.FlyAnswer | None) -> None:
    st.markdown("**Can I fly here?**")
    st.text_input("Place or coordinates", key="fly_where", placeholder="22.5194, 113.943 · 2232N11356E · VHHH",
                  on_change=_ask_fly)
    c = st.columns(2)
    c[0].number_input("Height (m AGL)", min_value=1.0, max_value=2000.0, value=F.DRONE_HEIGHT_M, step=10.0,
                      key="fly_height")
    c[1].number_input("Ground (m AMSL)", min_value=-450.0, max_value=9000.0, value=None, step=10.0, key="fly_ground",
                      placeholder="if known",
                      help="the site's elevation: decides zones whose limits are above sea level or flight levels")
    st.button("Check this point", key="fly_button", on_click=_ask_fly, width="stretch")
    if ss.get("fly_error"):
        st.error(md_literal(ss["fly_error"]))
        return
    if res is None:
        st.caption("Run a batch, then ask about a point at the map's time.")
        return
    if answer is None:
        st.caption("Type a place or `lat, lon`: the answer is for the map's time, from the ground up to the height.")
        return
    lat, lon, what = ss["fly_point"]
    colour, word = VERDICT_STYLE[answer.verdict]
    tz = LT.tz_name(lat, lon)
    names = ", ".join(T.record_label(h.volume.record) for h in answer.applies if h.certain and h.volume.status == "ok")
    head = word + (f" by {names}" if answer.verdict == F.RESTRICTED else "")
    parts = [f'<div class="fly-answer" data-testid="fly-answer" data-verdict="{answer.verdict}">'
             f'<div style="font-size:1.15rem;font-weight:700;color:{colour}">{escaped(head)}</div>'
             f"<div>{escaped(what)} · {escaped(LT.both_text(t, tz))} · ground to "
             f"{float(ss.get('fly_height', F.DRONE_HEIGHT_M)):,.0f} m AGL</div>"]
    for title, hits in (("Zones that apply", answer.applies), ("Starting within 3 h", answer.upcoming),
                        (f"Within {F.NEAR_M:,.0f} m", answer.nearby)):
        if hits:
            items = "".join(_hit_html(h, t, LT.volume_tz) for h in hits)
            parts.append(f'<div style="margin-top:0.3rem"><b>{escaped(title)}</b>'
                         f'<ul style="margin:0 0 0 1rem;padding:0">{items}</ul></div>')
    for r in answer.reasons:
        parts.append(f"<div>{escaped(r)}</div>")
    unplaced = T.unplaced(res.feed.live, res.volumes)
    if unplaced:
        parts.append(f"<div>{len(unplaced)} record(s) have no place on the map and are not part of this answer "
                     "(listed under the zones).</div>")
    parts.append("</div>")
    st.html("".join(parts))


# ------------------------------------------------------------------------------------------------------------------
# The page
# ------------------------------------------------------------------------------------------------------------------


def filters_row() -> None:
    c = st.columns([2, 1.2, 1.2, 1.9])
    c[0].multiselect("Show status", ["ok", "review"], default=["ok", "review"], key="f_status")
    c[1].checkbox("Show expired", key="f_expired", help="zones with no active time left after the map's time")
    c[1].checkbox("Only active now", key="f_active", help="only the zones active at the map's time")
    c[2].toggle("3D", key="map_3d", help="tilt the map to see floors and ceilings; 2D looks straight down")
    c[2].checkbox("Wheel zooms map", key="wheel_zoom",
                  help="off: the mouse wheel scrolls the page; zoom with a double-click, +/− keys or a pinch")
    c[3].checkbox("Only zones reaching below 120 m AGL", key="f_low",
                  help="floors below 120 m above the ground; AMSL/FL floors as if the ground were at sea level "
                       "(no terrain model)")
    c[3].select_slider("Vertical exaggeration", options=[1, 2, 5, 10, 20], value=1, key="vscale",
                       help="1 = true scale. Floors and ceilings are both multiplied.")


ZONE_COLUMN_CONFIG = {"zone": st.column_config.TextColumn(width=96), "state": st.column_config.TextColumn(width=68),
                      "when": st.column_config.TextColumn(width=170), "band": st.column_config.TextColumn(width=140)}


def zone_panel(res: RunResult, shown, t: datetime) -> None:
    """Beside the map: the compact zone list (select a row to focus a zone), then what is not on the map and why
    (cancelled, replaced, copies, named places)."""
    zl = ZL.zone_rows(shown, t, copies=res.feed.copies)
    st.dataframe(zl, hide_index=True, on_select="rerun", selection_mode="single-row", key=f"zones~{ss.get('list_gen', 0)}",
                 column_order=["zone", "state", "when", "band"], height=min(38 + 35 * max(len(zl), 1), 216),
                 width="stretch", column_config=ZONE_COLUMN_CONFIG)
    ss["_zone_keys"] = list(zl["key"])
    missing = T.unplaced(res.feed.live, res.volumes)
    gone = res.feed.gone
    by_key = {T.record_key(r): r for r in res.records}
    items = "".join(f"<li><b>msg {escaped(m['msg'])}</b> · {escaped(m['zone'])} — "
                    f"{escaped(res.feed.refs.get(m['key'], m['why']))}</li>" for m in missing)
    items += "".join(f"<li><b>msg {escaped(str(by_key[k].message + 1))}</b> · {escaped(T.record_label(by_key[k]))} — "
                     f"{escaped(why)}</li>" for k, why in gone.items() if not why.startswith("copy of"))
    n_copies = sum(1 for why in gone.values() if why.startswith("copy of"))
    if n_copies:
        items += f"<li>{n_copies} identical cop{'y' if n_copies == 1 else 'ies'} merged into their zone (×N)</li>"
    if items:
        n = len(missing) + len(gone)
        st.html(f'<div class="unplaced" data-testid="unplaced"><b>Not on the map ({n})</b>'
                f'<ul style="margin:0.2rem 0 0 1rem;padding:0">{items}</ul></div>')


def details_panel(res: RunResult, by_key: dict, focus: str | None) -> None:
    """The focused record with the source of every field highlighted. Message text is escaped (``safe_text``)."""
    keys = list(by_key)
    st.selectbox("Focus zone", [ALL] + keys, key="focus", on_change=_focus_from_box,
                 format_func=lambda k: "all zones" if k == ALL else f"{T.record_label(by_key[k])} · {by_key[k].status}")
    if focus is None:
        st.caption("Click a volume, pick a zone in the list or the table to see its message with the source of every "
                   "field highlighted.")
        return
    rec = by_key[focus]
    reasons = "".join(f"<li>{escaped(r)}</li>" for r in rec.reasons)
    gone = res.feed.gone.get(focus) or res.feed.refs.get(focus)
    st.html(f'<div class="focus-head" data-testid="focus-head"><b>{escaped(rec.id or "no id")}</b> — message '
            f"{rec.message + 1}, zone {rec.zone + 1}: <code>{escaped(rec.status)}</code>"
            + (f" · {escaped(gone)}" if gone else "")
            + (f'<ul style="margin:0.2rem 0 0 1rem;padding:0">{reasons}</ul>' if reasons else "") + "</div>")
    prov = getattr(rec, "provenance", None)
    if prov:
        st.html(f'<div class="provenance" data-testid="provenance">Resolved by {escaped(prov["by"])} at '
                f'{escaped(prov["when"])}: {escaped(prov["action"])} (fields: {escaped(", ".join(prov["fields"]) or "none")}'
                f"). It settled: {escaped('; '.join(prov['reasons_resolved']) or 'nothing stated')}.</div>")
    if rec.status == "review":
        resolve_panel(res, rec, focus)
        return
    st.html(highlight_html(rec.text, rec.spans))
    st.caption(md_literal("Highlighted: " + ", ".join(sorted(rec.spans))) if rec.spans else "No spans recorded for this record.")


READING_FIELDS = ["centre / polygon", "radius", "lower", "upper", "start (UTC)", "end (UTC)", "schedule"]


def _reading(col, title: str, rec, button_key: str, source: str, original) -> None:
    """One reading of the zone: its fields, its message with their spans highlighted, and "use this reading"."""
    col.markdown(f"**{md_literal(title)}**")
    row = T.records_frame([rec]).iloc[0]
    col.dataframe([{"field": f, "value": row[f]} for f in READING_FIELDS], hide_index=True, width="stretch",
                  key=f"{button_key}_fields")
    col.html(highlight_html(rec.text, rec.spans))
    col.button("Use this reading", key=button_key, on_click=_choose,
               args=(T.record_key(original), rec.model_dump(mode="json"), original.model_dump(mode="json"), source),
               width="stretch")


def resolve_panel(res: RunResult, rec, key: str) -> None:
    """A review settled on the page: the run's reading and the rules reader's reading of the same zone side by
    side (their spans highlighted, as escaped text), pick one, or correct one field. The record becomes ok with its
    provenance, and the exports carry it."""
    st.markdown("**Resolve this review**")
    other = None
    if res.engine != RULES:
        try:
            other = {T.record_key(r): r for r in parse(res.text, RULES)[0]}.get(key)
        except Exception:  # the rules reader's failure leaves the operator the edit
            other = None
    if other is not None:
        cols = st.columns(2)
        _reading(cols[0], f"{res.engine}'s reading", rec, "use_engine", res.engine, rec)
        _reading(cols[1], "the rules reader's reading", other, "use_rules", RULES, rec)
    else:
        _reading(st.container(), f"{res.engine}'s reading", rec, "use_engine", res.engine, rec)
        st.caption("No second reading of this zone: accept it as read, or correct a field.")
    c = st.columns([1, 2, 1])
    c[0].selectbox("Field", R.EDITABLE, key="edit_field")
    c[1].text_input("Value", key="edit_value", placeholder="2026-11-30 12:00 · 120M AGL · 1000FT AMSL · 1NM")
    c[2].button("Apply edit", key="edit_apply", on_click=_edit, args=(key, rec.model_dump(mode="json")),
                width="stretch")
    if ss.get("resolve_error"):
        st.error(md_literal(ss["resolve_error"]))


# wide enough for a whole UTC date and time, and for the reasons
RECORD_COLUMN_CONFIG = {
    "msg": st.column_config.NumberColumn(width=50), "zone": st.column_config.NumberColumn(width=50),
    "start (UTC)": st.column_config.TextColumn(width=150), "end (UTC)": st.column_config.TextColumn(width=170),
    "reasons": st.column_config.TextColumn(width=260), "lower": st.column_config.TextColumn(width=160),
    "upper": st.column_config.TextColumn(width=190), "centre / polygon": st.column_config.TextColumn(width=200),
    "radius": st.column_config.TextColumn(width=150),
}


def head_line(res: RunResult | None, t: datetime | None, tz: str | None) -> str:
    """The page's one line: the name, then the run's numbers and the map's time (UTC and local)."""
    bits = ['<span class="app-name">Clover Airspace</span>']
    if res:
        counts = T.status_counts(res.records)
        n_msg = len({r.message for r in res.records})
        bits += [f"{n_msg} message{'s' if n_msg != 1 else ''}", f"{len(res.records)} records",
                 f"{len(res.volumes)} zone{'s' if len(res.volumes) != 1 else ''} on the map", f"{counts['ok']} ok", f"{counts['review']} review",
                 f"{counts['error']} error", f"{res.engine} {res.wall_s:.2f} s"]
        if t is not None:
            bits.append("map time " + LT.both_text(t, tz))
    else:
        bits.append("air-traffic messages → 3D no-fly volumes · offline: no request leaves this machine")
    return '<div class="head-line" data-testid="head-line">' + " · ".join(escaped(b) if i else b
                                                                          for i, b in enumerate(bits)) + "</div>"


def page() -> None:
    """The map and the compact zone list first, the rest below.

    The blocks are created first, on every run and whatever they hold, so the map keeps its place in the element
    tree: the browser then updates the same deck.gl canvas instead of building a new one (a new WebGL context costs
    seconds with software rendering). They are filled in a different order: the head line, the map, then the
    widgets around it; the widgets' values are read from the session state before they are drawn."""
    head = st.container()
    c1, c2 = st.columns([2.1, 1.15])
    controls = st.container()
    filters = st.container()
    below = st.container()
    res = load_results(head)
    shown_res = res or RunResult()
    records, volumes = shown_res.records, shown_res.volumes

    df = T.records_frame(records)
    table_keys = list(df["key"])
    by_key = {T.record_key(r): r for r in records}
    consume_map_click()
    t = map_time(res)
    statuses = ss.get("f_status", ["ok", "review"])
    shown = T.filter_volumes(volumes, t, statuses=statuses, active_only=ss.get("f_active", False),
                             below_m=T.DRONE_CEILING_M if ss.get("f_low", False) else None)
    if t is not None and not ss.get("f_expired", False):
        shown = [v for v in shown if Z.zone_state(v, t) != Z.EXPIRED]
    tz = ZL.common_tz(shown or volumes) if res else None
    head.html(head_line(res, t, tz))
    if res and res.note:
        head.caption(md_literal(res.note))
    zone_keys = ss.get("_zone_keys") or [L.key_str(v.key) for v in shown]
    sync_focus_from_lists(zone_keys, table_keys)
    if ss.get("focus") not in by_key:
        ss["focus"] = ALL
    focus = None if ss["focus"] == ALL else ss["focus"]
    vscale = ss.get("vscale", 1)
    pitch = 45.0 if ss.get("map_3d", False) else 0.0
    route = route_result(volumes, t)
    answer = fly_answer(res, t) if res else None

    # a batch on the page that has not been run (a sample just loaded, a new paste): the map looks where it lies
    batch = ss.get("batch_text", "")
    pending = preview_bounds(batch) if batch != shown_res.text else None
    if batch != shown_res.text:
        read_ahead(batch, ss.get("engine", ""))
    # the camera fits the zones that matter now: active, permanent or upcoming, reaching below the drone ceiling
    matter = matter_now(shown, t) or shown or volumes
    all_bounds = L.bounds_of(matter)
    if pending is not None:
        view = L.fit_view(pending, pitch=pitch)
    elif focus is not None and ss.get("focus_src") == "map" and ss.get("last_view") is not None:
        view = ss["last_view"]  # clicked on the map: the camera stays where the operator is looking
    elif focus is not None:
        view = L.fit_view(L.focus_bounds(volumes, focus), selected=True, pitch=pitch)
    else:
        view = L.fit_view(all_bounds, pitch=pitch)
    ss["last_view"] = view
    frame = pending if pending is not None else (L.focus_bounds(volumes, focus) if focus else all_bounds)
    basemap = B.basemap_for(frame, served=bool(st.get_option("server.enableStaticServing")))
    route_path = route.get("path", []) if route and "error" not in route else []
    route_pts = route.get("points", []) if route and "error" not in route else []
    here = None
    if ss.get("fly_point") and res:
        lat, lon, what = ss["fly_point"]
        here = (lat, lon, f"asked: {what}")
    deck = L.build_deck(shown, t, basemap=basemap, selected=focus, vscale=vscale, route=route_path,
                        conflict_points=route_pts, view=view, pick_gen=ss.get("pick_gen", 0),
                        scroll_zoom=ss.get("wheel_zoom", False),
                        scale_bounds=(pending or all_bounds) if "region" in basemap else None, here=here)
    with c1:
        st.pydeck_chart(deck, height=MAP_HEIGHT, key="map", on_select="rerun", selection_mode="single-object")
        st.html(L.legend_html())
        if pending is not None:
            st.caption("The map shows where the batch's zones lie (located by the rules reader); Run draws them."
                       + (" The zones drawn now are the last run's." if res else ""))
        if res:
            st.caption(f"{len(shown)} of {len(volumes)} volumes drawn from their floor to their ceiling"
                       + ("" if ss.get("f_expired", False) else " (expired zones hidden)")
                       + f"; UNL ceilings at {L.UNL_CAP_M:,.0f} m (FL600). Hover a volume for its details; click it "
                       "to select its record. Land and borders: Natural Earth; towns: GeoNames (CC BY 4.0); "
                       "airports: airportsdata.")
    with c2:
        if res and t is not None:
            zone_panel(res, shown, t)
        else:
            st.caption("Paste messages or load a sample in the sidebar (☰ on a phone), then Run: the zones are listed "
                       "here.")
        fly_panel(res, t, answer)
    if res and t is not None:
        with controls:
            time_controls(res, t, tz)
    with filters:
        filters_row()
    with below:
        if res:
            details_panel(res, by_key, focus)
        route_section(res.volumes if res else [], route, expanded=False)
        with st.expander("Records", expanded=False):
            focus_row = table_keys.index(focus) if focus in table_keys else None
            styled = df.style.apply(lambda row: ["background-color: rgba(255, 75, 75, 0.25)" if row.name == focus_row
                                                 else "" for _ in row], axis=1) if focus_row is not None else df
            st.dataframe(styled, hide_index=True, on_select="rerun", selection_mode="single-row",
                         key=f"table~{ss.get('list_gen', 0)}", width="stretch",
                         column_order=[c for c in T.RECORD_COLUMNS if c != "key"], column_config=RECORD_COLUMN_CONFIG)
        if not res:
            return
        st.markdown("**Exports**")
        downloads(records)
        with st.expander("Advanced: how the engine read the batch, and Clover vs AR timing"):
            st.caption(reading_summary(res.stats, res.wall_s))
            timing_section(res.text, parse)


MAP_HEIGHT = 500

# While a Run is on the server, Streamlit fades the previous results; every frame of that fade re-composites the
# page, map canvas included, under software WebGL. Stale results are not dimmed: the spinner says a run is on.
# The page's top padding is cut so the map is on the first screen of a phone (390 x 844) and of a laptop.
PAGE_CSS = """<style>
[data-stale='true']{opacity: 1 !important; transition: none !important;}
.block-container{padding-top: 2.6rem !important; padding-bottom: 1rem !important;}
.head-line{font-size: 0.92rem; line-height: 1.5; margin: 0 0 0.2rem 0;}
.head-line .app-name{font-weight: 700; font-size: 1.05rem;}
@media (max-width: 640px){.block-container{padding-left: 0.6rem !important; padding-right: 0.6rem !important;}}
</style>"""
st.html(PAGE_CSS + L.map_css())
with st.sidebar:
    input_section()
page()
start_warming(ss.get("engine", DEFAULT_ENGINE))
