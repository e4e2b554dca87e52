"""The dashboard's engine views: the Clover-vs-AR timing demo, Clover's denoising step by step, and the export
downloads of a Run's records."""

from __future__ import annotations

import json

import streamlit as st

from airspace.app import batch_input as I
from airspace.app import tables as T
from airspace.app.resolve import with_provenance
from airspace.app.safe_text import md_literal, trace_html
from airspace.geo.export import to_ed269, to_ed318, to_geojson
from airspace.geo.kml import to_kml

ss = st.session_state

@st.cache_resource(show_spinner="Loading Clover with step tracing…")
def load_tracing_clover():
    """A second Clover extractor that records every denoising step (kept apart: tracing costs time)."""
    try:
        from airspace.model.engine import load_extractor

        return load_extractor("clover", None, trace=True), None
    except Exception as exc:
        return None, f"{type(exc).__name__}: {exc}"


@st.cache_data(show_spinner=False, max_entries=64)
def denoise_steps(message_text: str) -> list[str]:
    """Clover's partially denoised answer after each forward pass, for one message."""
    extractor, why = load_tracing_clover()
    if extractor is None:
        raise RuntimeError(f"clover is not available: {why}")
    _, stats = extractor.extract([message_text])
    return [step[0] for step in (stats.trace or []) if step]


def timing_section(text: str, parse) -> None:
    """Both models on the batch, cold (``parse(text, engine, cold=True)``: the page's cached parse)."""
    st.caption("The same batch through both models: forward passes, tokens per forward, wall time, and whether "
               "their records agree. Clover commits every confident masked token of a block per forward; AR one.")
    if st.button("Run Clover and AR on this batch", key="timing_button"):
        ss["timing_for"] = text
    if ss.get("timing_for") != text:
        return
    results = {}
    for e in ("clover", "ar"):
        try:
            with st.spinner(f"Running {e}…"):
                results[e] = parse(text, e, cold=True)  # both engines read every message after the click
        except Exception as exc:
            st.error(md_literal(f"{e}: {exc}"))
    if not results:
        return
    rows = []
    for e, (recs, stats, wall) in results.items():
        rows.append({
            "engine": e,
            "model wall s": round(stats["wall_s"], 3),
            "pipeline wall s": round(wall, 3),
            "forward passes": stats["forwards"],
            "answer tokens": stats["answer_tokens"],
            "tokens / forward": round(stats["tokens_per_forward"], 2),
            "prompts read before": stats.get("prompts_cached", 0),  # 0: the demo runs both engines cold
            "records": len(recs),
        })
    st.dataframe(rows, hide_index=True, key="timing_table")
    if len(results) == 2:
        agree, total, differ = T.records_agree(results["clover"][0], results["ar"][0])
        msg = f"Clover and AR records agree on {agree}/{total} messages."
        (st.success if not differ else st.warning)(msg + ("" if not differ else f" They differ on messages {differ}."))
    if "clover" in results:
        denoise_view(text)


def denoise_view(text: str) -> None:
    """Clover filling one message's answer in from masks, forward pass by forward pass."""
    st.markdown("**Clover's denoising, step by step** (░ = still masked)")
    live = I.live_messages(text)
    if not live:
        return
    pick = st.selectbox(
        "Message", range(len(live)), key="trace_msg",
        format_func=lambda i: f"{live[i].index + 1}: {live[i].text[:70].replace(chr(10), ' ')}",
    )
    try:
        steps = denoise_steps(live[pick].text)
    except Exception as exc:
        st.error(md_literal(str(exc)))
        return
    if not steps:
        st.caption("No trace for this message (it may be over the model's context limit).")
        return
    k = st.slider("Forward pass", 1, len(steps), len(steps), key="trace_step") if len(steps) > 1 else 1
    st.html(trace_html(steps[k - 1]))
    st.caption(f"Pass {k} of {len(steps)} for message {live[pick].index + 1}.")


def _json(export, records) -> str:
    """An export as JSON text, with the provenance of the zones the operator resolved (``resolve.with_provenance``)."""
    return json.dumps(with_provenance(export(records), records), ensure_ascii=False, indent=1)


def downloads(records) -> None:
    cols = st.columns(5)
    exports = {
        "GeoJSON": ("zones.geojson", "application/geo+json", lambda: _json(to_geojson, records)),
        "ED-269": ("zones.ed269.json", "application/json", lambda: _json(to_ed269, records)),
        "ED-318": ("zones.ed318.json", "application/json", lambda: _json(to_ed318, records)),
        "JSONL": ("records.jsonl", "application/jsonl", lambda: T.records_jsonl(records)),
        "KML": ("zones.kml", "application/vnd.google-earth.kml+xml", lambda: to_kml(records)),
    }
    # the files are built when a button is clicked (a callable), not on every rerun of the page
    for col, (label, (fname, mime, make)) in zip(cols, exports.items()):
        col.download_button(label, make, file_name=fname, mime=mime, key=f"dl_{label}")
    st.caption(f"{len(records)} records; GeoJSON (RFC 7946), EUROCAE ED-269 and ED-318 zone formats, the CLI's JSONL, and KML "
               "for a GIS.")
