"""The map's time on the dashboard: the time box, the slider, the step buttons and the active-zones summary, kept in
the session state (``map_t``) so every view of the page reads one time."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import streamlit as st

from airspace.app import batch_input as I
from airspace.app import local_time as LT
from airspace.app import timeline as TL
from airspace.app.run_result import RunResult
from airspace.app.safe_text import md_literal

UTC = timezone.utc
ss = st.session_state

def set_map_time(t: datetime | None) -> None:
    """The map's time, on the slider's grid (``timeline.SLIDER_STEP``), so the slider and the time box always show
    the same moment."""
    if t is not None:
        ss["map_t"] = TL.snap(TL.utc(t))


def _from_slider() -> None:
    set_map_time(ss["t_slider"].replace(tzinfo=UTC))


def _from_date_time() -> None:
    d, tm = ss.get("t_date"), ss.get("t_time")
    if d is not None and tm is not None:
        set_map_time(datetime.combine(d, tm).replace(tzinfo=UTC))


def _shift_time(delta_min: int) -> None:
    set_map_time(ss["map_t"] + timedelta(minutes=delta_min))


def map_time(res: RunResult | None) -> datetime | None:
    """The map's time (UTC): set by Run (the sample's demo time, or now) and by the time controls."""
    if res is None:
        return None
    if "map_t" not in ss:
        set_map_time(I.demo_time(res.text) or TL.now_minute())
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
    b[0].button("◀ change", key="t_prev", on_click=set_map_time, args=(prev_c,), disabled=prev_c is None,
                help="the previous moment a zone starts or stops", width="stretch")
    b[1].button("−1 h", key="t_m60", on_click=_shift_time, args=(-60,), width="stretch")
    b[2].button("−15 min", key="t_m15", on_click=_shift_time, args=(-15,), width="stretch")
    b[3].button("+15 min", key="t_p15", on_click=_shift_time, args=(15,), width="stretch")
    b[4].button("+1 h", key="t_p60", on_click=_shift_time, args=(60,), width="stretch")
    b[5].button("change ▶", key="t_next", on_click=set_map_time, args=(next_c,), disabled=next_c is None,
                help="the next moment a zone starts or stops", width="stretch")
    b[6].button("Now", key="t_now", on_click=lambda: set_map_time(TL.now_minute()), width="stretch")
    if demo is not None:
        b[7].button("Demo time", key="t_demo", on_click=set_map_time, args=(demo,), width="stretch",
                    help="the moment this sample batch is written for")
    st.caption(md_literal(TL.active_summary(vols, t)))
