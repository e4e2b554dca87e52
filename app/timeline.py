"""The map's time: which moment the map opens on, the span its slider covers, the steps its buttons take, and which
zones are active then. Pure functions over ``geo.volumes.Volume``; no Streamlit in here.

The slider covers the span that matters: the windows of at most ``SHORT_WINDOW`` (a NOTAM's hours, a TFR's days),
not a permanent zone or a six-month UAS area, which are active over the whole slider anyway, and never more than
``MAX_SPAN`` around the chosen moment, so that a small drag is minutes, not hours. Windows further away are reached
with the date entry or the "previous / next change" steps."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timedelta, timezone

from airspace.app.tables import record_label, utc_text

UTC = timezone.utc
SHORT_WINDOW = timedelta(days=3)
MAX_SPAN = timedelta(days=3)
MIN_SPAN = timedelta(hours=6)
SLIDER_STEP = timedelta(minutes=5)


def utc(t: datetime) -> datetime:
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)


def now_minute(now: datetime | None = None) -> datetime:
    """The present moment (UTC), to the minute."""
    return utc(now or datetime.now(UTC)).replace(second=0, microsecond=0)


def change_points(volumes: Sequence) -> list[datetime]:
    """Every moment a zone becomes active or stops (window starts and ends), sorted, UTC."""
    pts = set()
    for v in volumes:
        for w in v.windows:
            pts.add(utc(w.start))
            pts.add(utc(w.end))
        if not v.windows and v.record.start is not None:
            pts.add(utc(v.record.start))
    return sorted(pts)


def _floor_hour(t: datetime) -> datetime:
    return t.replace(minute=0, second=0, microsecond=0)


def _ceil_hour(t: datetime) -> datetime:
    f = _floor_hour(t)
    return f if f == t else f + timedelta(hours=1)


def slider_span(volumes: Sequence, t: datetime) -> tuple[datetime, datetime]:
    """(first, last) moment of the slider: the short windows' span, grown to contain ``t`` and at least
    ``MIN_SPAN``, cut to ``MAX_SPAN`` centred on ``t`` when longer; whole hours (so up to an hour more)."""
    t = utc(t)
    pts = [utc(p) for v in volumes for w in v.windows if utc(w.end) - utc(w.start) <= SHORT_WINDOW
           for p in (w.start, w.end)]
    lo, hi = (min(pts + [t]), max(pts + [t])) if pts else (t, t)
    if hi - lo > MAX_SPAN:  # centred on t: the slider is for moving near it
        lo, hi = t - MAX_SPAN / 2, t + MAX_SPAN / 2
    if hi - lo < MIN_SPAN:
        pad = (MIN_SPAN - (hi - lo)) / 2
        lo, hi = lo - pad, hi + pad
    return _floor_hour(lo), _ceil_hour(hi)


def snap(t: datetime, step: timedelta = SLIDER_STEP) -> datetime:
    """``t`` rounded down to the slider's step."""
    t = utc(t)
    s = step.total_seconds()
    return datetime.fromtimestamp(math.floor(t.timestamp() / s) * s, UTC)


def step_change(volumes: Sequence, t: datetime, direction: int) -> datetime | None:
    """The next (``direction`` +1) or previous (-1) moment after/before ``t`` at which some zone starts or stops,
    or None."""
    t = utc(t)
    pts = change_points(volumes)
    if direction > 0:
        return next((p for p in pts if p > t), None)
    return next((p for p in reversed(pts) if p < t), None)


def active_keys(volumes: Sequence, t: datetime | None) -> dict[str, bool]:
    """``"message:zone"`` -> whether that volume is active at ``t`` (every one, when ``t`` is None)."""
    return {f"{v.key[0]}:{v.key[1]}": (True if t is None else bool(v.active_at(t))) for v in volumes}


def active_summary(volumes: Sequence, t: datetime) -> str:
    """Plain text: how many zones are active at ``t`` and which (by NOTAM id or 1-based message number); when
    none is, when the next one starts."""
    act = [v for v in volumes if v.active_at(t)]
    if not volumes:
        return ""
    if act:
        names = ", ".join(record_label(v.record) for v in act[:12]) + (f", … (+{len(act) - 12})" if len(act) > 12 else "")
        return f"{len(act)} of {len(volumes)} zones active at {utc_text(utc(t))}: {names}."
    nxt = step_change(volumes, t, +1)
    upcoming = [v for v in volumes if nxt is not None and v.active_at(nxt + timedelta(seconds=1))]
    tail = (f" Next: {', '.join(record_label(v.record) for v in upcoming[:6])} from {utc_text(nxt)}."
            if upcoming else "")
    return f"No zone is active at {utc_text(utc(t))}." + tail
