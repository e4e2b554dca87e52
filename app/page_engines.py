"""The dashboard's engines: the rules reader at once, the model engines loading behind the page (``EngineLoader``),
the cached reads of a batch (whole, in chunks with a progress bar, or ahead of its Run), and the server's warm-up.

Imported with the page, never on first use (see the page's import note): a Run must not import a module."""

from __future__ import annotations

import contextlib
import gc
import os
import threading
import time
from datetime import date, datetime

import streamlit as st

from airspace.app import basemap as B
from airspace.app import batch_input as I
from airspace.app import engine_loader as EL
from airspace.app import local_time as LT
from airspace.app import map_view as V
from airspace.app import tables as T
from airspace.app import timeline as TL
from airspace.app.feed import apply_feed
from airspace.app.run_summary import stats_dict, torch_threads
from airspace.geo import zonetime as Z
from airspace.geo.volumes import volumes_from_records
from airspace.pipeline.batch import process_batch
from airspace.pipeline.engines import get_extractor
from airspace.pipeline.split import read_jsonl

RULES = "rules"  # the reader that needs no model: loaded with the page, read with while a model engine loads

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
def parse(text: str, engine: str, cold: bool = False, reference: date | None = None):
    """(records, stats as dict, seconds) for one batch through one engine; JSONL input is read line by line.
    ``cold``: the model reads every message itself, none kept from before or read ahead (the timing demo).
    ``reference``: the day the batch was received (``process_batch``; a JSONL line's own ``received`` first)."""
    extractor, why = load_engine(engine)
    if extractor is None:
        raise RuntimeError(f"engine {engine!r} is not available: {why}")
    batch = read_jsonl(text) if I.is_jsonl(text) else text
    t0 = time.perf_counter()
    with extractor.cold() if cold and hasattr(extractor, "cold") else contextlib.nullcontext():
        records, stats = process_batch(batch, extractor, reference=reference)
    wall = time.perf_counter() - t0
    return records, stats_dict(stats), wall


#: batches with more live messages than this are read in chunks of this many, with a progress bar
PROGRESS_CHUNK = 50


@st.cache_resource(show_spinner=False)
def _runs_cache() -> dict:
    """(text, engine, reference day) -> (records, stats, wall) of the chunked reads with a progress bar (a few,
    newest kept)."""
    return {}


def parse_with_progress(text: str, engine: str, bar, reference: date | None = None) -> tuple[list, dict, float]:
    """``parse``, in chunks of ``PROGRESS_CHUNK`` messages with ``bar`` (an ``st.progress``) moving for a batch
    larger than one chunk. Each message keeps its index in the batch, so the records are those of one read."""
    cache, key = _runs_cache(), (text, engine, reference)
    if key in cache:
        return cache[key]
    messages = read_jsonl(text) if I.is_jsonl(text) else None
    if messages is None:
        from airspace.pipeline.split import BatchTooLarge, split_batch

        try:
            messages = split_batch(text)
        except BatchTooLarge:
            return parse(text, engine, reference=reference)
    if len(messages) <= PROGRESS_CHUNK:
        return parse(text, engine, reference=reference)
    extractor, why = load_engine(engine)
    if extractor is None:
        raise RuntimeError(f"engine {engine!r} is not available: {why}")
    records, walls, merged = [], 0.0, None
    for i in range(0, len(messages), PROGRESS_CHUNK):
        chunk = messages[i:i + PROGRESS_CHUNK]
        bar.progress(min(i / len(messages), 1.0), text=f"Reading messages {i + 1}–{i + len(chunk)} of {len(messages)}…")
        t0 = time.perf_counter()
        recs, stats = process_batch(chunk, extractor, reference=reference)
        walls += time.perf_counter() - t0
        records.extend(recs)
        s = stats_dict(stats)
        merged = s if merged is None else {k: (merged[k] + v if isinstance(v, (int, float)) and k in merged else v)
                                           for k, v in s.items()}
    bar.progress(1.0, text=f"Read {len(messages)} messages.")
    if len(cache) > 4:
        cache.pop(next(iter(cache)))
    cache[key] = (records, merged or {}, walls)
    return cache[key]


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
        return V.bounds_of(matter_now(volumes, I.demo_time(text) or TL.now_minute()) or volumes)
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
