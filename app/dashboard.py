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

import json
from datetime import datetime, timezone

import streamlit as st

from airspace.app import basemap as B
from airspace.app import batch_input as I
from airspace.app import engine_loader as EL
from airspace.app import local_time as LT
from airspace.app import map_click as MC
from airspace.app import map_layers as L
from airspace.app import map_view as V
from airspace.app import place_panel as PP
from airspace.app import resolve as R
from airspace.app import store_panel as SP
from airspace.app import tables as T
from airspace.app import tile_basemap as TB
from airspace.app import timeline as TL
from airspace.app import zone_list as ZL
from airspace.app.engine_views import downloads, timing_section
from airspace.app.feed import apply_feed
from airspace.app.fly_panel import fly_answer, fly_panel
from airspace.app.map_time import map_time, set_map_time, time_controls
from airspace.app.page_engines import (
    LOADER,
    RULES,
    engine_to_read_with,
    matter_now,
    message_count,
    parse,
    parse_with_progress,
    preview_bounds,
    read_ahead,
    start_warming,
    volumes_of_records,
)
from airspace.app.route_panel import route_result, route_section
from airspace.app.run_result import RunResult
from airspace.app.run_summary import reading_summary
from airspace.app.safe_text import escaped, highlight_html, md_literal
from airspace.core.records import ZoneRecord
from airspace.geo import zonetime as Z
from airspace.pipeline.complete import READ_OTHERWISE

# Everything a Run needs is imported with the page (through page_engines), not on first use: after any run that
# imported a new module, Streamlit's file watcher re-scans every module in sys.modules, and on a 2-core machine that
# scan ran while the browser was drawing the Run's map. (The model engines' modules arrive with their loading thread.)
from airspace.pipeline.engines import DEFAULT_ENGINE as DEFAULT_ENGINE_NAME

ENGINES = ("clover", "ar", "rules")
# The page opens on the registry's default engine, as the CLI does (README, "Which engine is the default, and why").
DEFAULT_ENGINE = DEFAULT_ENGINE_NAME
UTC = timezone.utc
ss = st.session_state

st.set_page_config(page_title="Clover Airspace", page_icon="🛩", layout="wide", initial_sidebar_state="auto")


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
    ss["run"] = {"text": text, "engine": used, "wanted": wanted, "why": why, "reference": ss.get("received_on")}
    for k in ("focus", "focus_src", "route_result"):
        ss.pop(k, None)
    ss["list_gen"] = ss.get("list_gen", 0) + 1  # the zone list and table start without a row selected
    set_map_time(I.demo_time(text) or TL.now_minute())
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
    # pasted prose (news, a forwarded notice) often writes "13 November" without a year: the day it was received
    # is then the only source of one, as a JSONL line's `received` is for a feed
    st.date_input("Received on (optional)", value=None, key="received_on", format="YYYY-MM-DD",
                  help="The day these messages were received. A date that writes no year, in a text that dates "
                  "itself nowhere, takes the year nearest this day, and a weekday alone the first such day on or "
                  "after it; such zones are always left for review. A JSONL line's own `received` comes first.")
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


def load_results(where) -> RunResult | None:
    """The last Run's results; without a Run, the zone store's picture (``store_panel``); None (with the reason shown
    in ``where``) when there is neither or the batch cannot be parsed."""
    run = ss.get("run")
    if not run:
        return SP.picture_result(where)
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
                records, stats, wall = parse_with_progress(text, engine, bar, reference=run.get("reference"))
            bar.empty()
        records = R.apply(records, resolutions(run))
        feed = apply_feed(records)
        volumes = volumes_of_records(feed.live)
    except Exception as exc:  # a broken engine must not take the page down
        where.error(md_literal(f"Could not parse the batch with {engine}: {type(exc).__name__}: {exc}"))
        return None
    return RunResult(text=text, engine=engine, records=records, wall_s=wall, volumes=volumes, stats=stats, feed=feed,
                     note=run.get("why"), reference=run.get("reference"))


def _read_key(run: dict) -> tuple:
    """What a Run's records depend on: the batch, the engine that read it and the day it was received."""
    return run.get("text"), run.get("engine"), run.get("reference")


def resolutions(run: dict) -> dict[str, dict]:
    """The operator's resolutions of this Run's batch as read by its engine on its received day (key -> the resolved
    record's JSON); a new batch, engine or day starts with none."""
    held = ss.get("resolved")
    if not held or held.get("run") != _read_key(run):
        return {}
    return held["recs"]


def _resolve(key: str, rec_json: dict) -> None:
    if not ss.get("run") and SP.keep_decision(key, rec_json):
        return  # a zone of the stored picture: the decision is kept in the store, with the zone
    run = ss.get("run") or {}
    held = ss.get("resolved")
    if not held or held.get("run") != _read_key(run):
        held = {"run": _read_key(run), "recs": {}}
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
# Selection: map click, zone list, records table, focus box
# ------------------------------------------------------------------------------------------------------------------


def _rows_selected(state_key: str) -> list[int]:
    sel = ss.get(state_key) or {}
    selection = sel.get("selection", {}) if hasattr(sel, "get") else getattr(sel, "selection", {})
    return list((selection.get("rows") if hasattr(selection, "get") else getattr(selection, "rows", None)) or [])


ALL = "all"  # the focus box's "all zones" (a None value would show the box's placeholder instead)


def _focus(key: str | None, src: str) -> None:
    ss["focus"], ss["focus_src"] = key, src


def consume_map_click() -> tuple[float, float, float] | None:
    """A click on a volume (Streamlit's map selection) becomes the page's focus, then the map's pickable layers get
    new ids (``pick_gen``) so that Streamlit drops its own selection (which would dim every other layer) and the
    next click on the same volume counts again. The camera stays where the operator is looking. A click on the
    map's point grid (``map_click``) asks "Can I fly here?" at that point; it is returned as (lat, lon, precision
    in metres) so the page can select the volume under it."""
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
        return None
    ss["pick_gen"] = ss.get("pick_gen", 0) + 1
    key = next((o.get("key") for o in picked if o.get("key") not in (None, "warmup")), None)
    if key is not None:
        _focus(key, "map")
        ss["list_gen"] = ss.get("list_gen", 0) + 1  # the zone list and table drop their own row selection
    point = MC.clicked_point(picked, ss.get("last_view"))
    if point is not None:
        lat, lon, precision = point
        ss["fly_where"] = f"{lat:.5f}, {lon:.5f}"
        ss["fly_point"], ss["fly_error"] = (lat, lon, MC.place_text(lat, lon, precision)), None
        ss["fly_within"] = precision
    return point


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
    # a zone only the rules reader read, added to a model run's records for review, is its one reading (the store's
    # records are the store's, whichever engine read them)
    rules_only = rec.engine == RULES and res.engine not in (RULES, SP.STORE)
    source = RULES if rules_only else res.engine
    if res.engine != RULES and not rules_only:
        try:
            other = {T.record_key(r): r for r in parse(res.text, RULES, reference=res.reference)[0]}.get(key)
        except Exception:  # the rules reader's failure leaves the operator the edit
            other = None
    title = "the rules reader's reading" if rules_only else f"{res.engine}'s reading"
    if other is not None:
        cols = st.columns(2)
        _reading(cols[0], title, rec, "use_engine", source, rec)
        _reading(cols[1], "the rules reader's reading", other, "use_rules", RULES, rec)
    else:
        _reading(st.container(), title, rec, "use_engine", source, rec)
        differs = next((x for x in rec.reasons if x.startswith(READ_OTHERWISE)), None)
        st.caption("The engine read this zone otherwise; what it read is named in the reasons above. Accept the rules "
                   "reader's reading, or correct a field." if differs else
                   "No second reading of this zone: accept it as read, or correct a field.")
    c = st.columns([1, 2, 1])
    c[0].selectbox("Field", R.EDITABLE, key="edit_field")
    c[1].text_input("Value", key="edit_value", placeholder="2026-11-30 12:00 · 120M AGL · 1000FT AMSL · 1NM")
    c[2].button("Apply edit", key="edit_apply", on_click=_edit, args=(key, rec.model_dump(mode="json")),
                width="stretch")
    if ss.get("resolve_error"):
        st.error(md_literal(ss["resolve_error"]))
    PP.place_panel(rec, key, _resolve)  # a named place without coordinates: placed by clicking the map


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
        bits += ["the stored picture"] if res.engine == SP.STORE else []
        bits += [f"{n_msg} {'notice' if res.engine == SP.STORE else 'message'}{'s' if n_msg != 1 else ''}",
                 f"{len(res.records)} records",
                 f"{len(res.volumes)} zone{'s' if len(res.volumes) != 1 else ''} on the map", f"{counts['ok']} ok", f"{counts['review']} review",
                 f"{counts['error']} error"] + ([] if res.engine == SP.STORE else [f"{res.engine} {res.wall_s:.2f} s"])
        if t is not None:
            bits.append("map time " + LT.both_text(t, tz))
    else:
        bits.append("air-traffic messages → 3D no-fly volumes · " + TB.network_note())
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
    with st.sidebar:
        SP.sidebar(res)
    records, volumes = shown_res.records, shown_res.volumes

    df = T.records_frame(records)
    table_keys = list(df["key"])
    by_key = {T.record_key(r): r for r in records}
    clicked = consume_map_click()
    t = map_time(res)
    statuses = ss.get("f_status", ["ok", "review"])
    shown = T.filter_volumes(volumes, t, statuses=statuses, active_only=ss.get("f_active", False),
                             below_m=T.DRONE_CEILING_M if ss.get("f_low", False) else None)
    if t is not None and not ss.get("f_expired", False):
        shown = [v for v in shown if Z.zone_state(v, t) != Z.EXPIRED]
    if (clicked is not None and not PP.placing(by_key.get(ss.get("focus")))
            and (key := MC.volume_at(shown, clicked[0], clicked[1], V.key_str, reach_m=clicked[2])) is not None):
        _focus(key, "map")  # from above, the click landed on this volume
        ss["list_gen"] = ss.get("list_gen", 0) + 1
    tz = ZL.common_tz(shown or volumes) if res else None
    head.html(head_line(res, t, tz))
    if res and res.note:
        head.caption(md_literal(res.note))
    zone_keys = ss.get("_zone_keys") or [V.key_str(v.key) for v in shown]
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
    all_bounds = V.bounds_of(matter)
    if pending is not None:
        view = V.fit_view(pending, pitch=pitch)
    elif focus is not None and ss.get("focus_src") == "map" and ss.get("last_view") is not None:
        view = ss["last_view"]  # clicked on the map: the camera stays where the operator is looking
    elif focus is not None:
        view = V.fit_view(V.focus_bounds(volumes, focus), selected=True, pitch=pitch)
    else:
        view = V.fit_view(all_bounds, pitch=pitch)
    ss["last_view"] = view
    frame = pending if pending is not None else (V.focus_bounds(volumes, focus) if focus else all_bounds)
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
    MC.add_click_layer(deck, view, tilted=pitch > 0, gen=ss.get("pick_gen", 0), volumes=shown, active=res is not None)
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
                       "to select its record and ask \"Can I fly here?\" at that point. Land and borders: Natural Earth; towns: GeoNames (CC BY 4.0); "
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
        if res.engine == SP.STORE:
            return
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
    if TB.configured()[1]:  # the operator's tile URL was refused: say why (the map keeps the shipped basemap)
        st.warning(TB.configured()[1])
page()
start_warming(ss.get("engine", DEFAULT_ENGINE))
