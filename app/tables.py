"""Small pure helpers behind the dashboard: input reading and limits, the records table, span highlighting, the time
axis, and comparing two engines' records. No Streamlit in here, so each piece is tested directly.
"""

from __future__ import annotations

import html
import json
from datetime import datetime, timedelta, timezone
from typing import Iterable, Sequence

import pandas as pd

from airspace.core.records import CircleGeometry, NamedGeometry, PolygonGeometry, ZoneRecord, iso_utc

#: the page takes batches up to this many UTF-8 bytes (the CLI takes bigger ones); checked before any parsing
APP_MAX_BYTES = 1_000_000
#: messages per batch on the page
APP_MAX_MESSAGES = 2_000


def torch_threads(env: str | None, cpus: int | None) -> int:
    """Threads the dashboard lets torch use: ``env`` (``AIRSPACE_APP_THREADS``) when it is a positive integer,
    else half of ``cpus`` (at least one).

    The browser drawing the map (software WebGL where there is no GPU) needs CPU at the moment the model runs, and
    other work may share the machine. With as many torch threads as cores every OpenMP barrier waits on a thread
    the OS has parked: on 2 cores a demo20 Run measured 0.4 s alone took 1.7 s beside the browser and ~19 s
    beside a training; with one thread 0.6-1.0 s in all three cases."""
    try:
        n = int((env or "").strip())
    except ValueError:
        n = 0
    return n if n > 0 else max(1, (cpus or 2) // 2)


class InputTooLarge(ValueError):
    """The batch is over what the page handles; the message says what to do."""


def check_input_size(text: str) -> None:
    """Raise ``InputTooLarge`` with a readable reason when the batch is over ``APP_MAX_BYTES``."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > APP_MAX_BYTES:
        raise InputTooLarge(
            f"The batch is {size:,} bytes; this page takes at most {APP_MAX_BYTES:,} bytes. "
            "Split it, or run the CLI (`airspace-parse FILE`) which takes larger batches."
        )


def is_jsonl(text: str) -> bool:
    """True when every non-blank line is a JSON object (a JSONL batch with ``text`` fields), else plain text."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return False
    for ln in lines[:50]:
        s = ln.strip()
        if not (s.startswith("{") and s.endswith("}")):
            return False
        try:
            json.loads(s)
        except json.JSONDecodeError:
            return False
    return True


def decode_upload(name: str, data: bytes) -> str:
    """An uploaded file as text (UTF-8, BOM tolerated); a clear error for anything that is not text."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: not UTF-8 text (byte {exc.start}); upload plain text or JSONL") from exc


def join_uploads(texts: Sequence[str]) -> str:
    """Several uploads as one batch: text files separated by blank lines; JSONL files concatenated line-wise."""
    if texts and all(is_jsonl(t) for t in texts):
        return "\n".join(t.strip("\n") for t in texts)
    return "\n\n".join(t.strip("\n") for t in texts)


# -------------------------------------------------------------------------------------------------------------
# Records table
# -------------------------------------------------------------------------------------------------------------


def _limit_text(limit) -> str:
    if limit is None:
        return ""
    if limit.ref == "UNL":
        return "UNL"
    value = f"{limit.m:,.0f} m" if limit.m is not None else ""
    if limit.ref == "FL" and limit.ft is not None:
        return f"FL{round(limit.ft / 100):03d} ({value})"
    return f"{value} {limit.ref}".strip() + f" ({limit.raw})"


def geometry_text(rec: ZoneRecord) -> tuple[str, str]:
    """(centre or polygon, radius) as table text."""
    g = rec.geometry
    if isinstance(g, CircleGeometry):
        c = f"{g.center[0]:.5f}, {g.center[1]:.5f}" + (" (approx.)" if g.approximate else "")
        r = g.radius_m
        return c, f"{r / 1852:.2f} NM ({r:,.0f} m)"
    if isinstance(g, PolygonGeometry):
        pts = "; ".join(f"{la:.4f},{lo:.4f}" for la, lo in g.points[:4])
        more = f" … ({len(g.points)} points)" if len(g.points) > 4 else f" ({len(g.points)} points)"
        return "polygon " + pts + more, ""
    if isinstance(g, NamedGeometry):
        return f"named: {g.name} (not located)", ""
    return "", ""


def record_key(rec: ZoneRecord) -> str:
    return f"{rec.message}:{rec.zone}"


def records_frame(records: Iterable[ZoneRecord]) -> pd.DataFrame:
    """One row per record: the columns of the records table (strings, so the table shows what the record says)."""
    rows = []
    for r in records:
        centre, radius = geometry_text(r)
        rows.append(
            {
                "key": record_key(r),
                "msg": r.message + 1,
                "id": r.id or "",
                "status": r.status,
                "reasons": "; ".join(r.reasons),
                "centre / polygon": centre,
                "radius": radius,
                "lower": _limit_text(r.lower),
                "upper": _limit_text(r.upper),
                "start": iso_utc(r.start) or "",
                "end": ("PERM" if r.permanent else (iso_utc(r.end) or "")) + (" EST" if r.end_estimated else ""),
                "schedule": r.schedule or "",
                "engine": r.engine,
            }
        )
    cols = ["key", "msg", "id", "status", "reasons", "centre / polygon", "radius", "lower", "upper", "start", "end", "schedule", "engine"]
    return pd.DataFrame(rows, columns=cols)


def status_counts(records: Iterable[ZoneRecord]) -> dict[str, int]:
    out = {"ok": 0, "review": 0, "error": 0}
    for r in records:
        out[r.status] = out.get(r.status, 0) + 1
    return out


# -------------------------------------------------------------------------------------------------------------
# Span highlighting
# -------------------------------------------------------------------------------------------------------------


def highlight_html(text: str, spans: dict) -> str:
    """The message as HTML with every field's source span wrapped in ``<mark title="field">``.

    Spans are ``SpanModel``/``Span``-like (``start``, ``end``); out-of-range or overlapping ones are clipped so the
    output is always well formed and every character of the message appears exactly once, escaped."""
    marks = []
    for field, sp in spans.items():
        s, e = max(0, int(sp.start)), min(len(text), int(sp.end))
        if e > s:
            marks.append((s, e, field))
    marks.sort()
    out, pos = [], 0
    for s, e, field in marks:
        s = max(s, pos)
        if e <= s:
            continue
        out.append(html.escape(text[pos:s]))
        out.append(f'<mark title="{html.escape(field)}" data-field="{html.escape(field)}">{html.escape(text[s:e])}</mark>')
        pos = e
    out.append(html.escape(text[pos:]))
    # line breaks as <br/>: the block stays one line of HTML, which Markdown renderers pass through untouched
    body = "".join(out).replace("\r\n", "\n").replace("\n", "<br/>")
    return '<pre class="msg" style="white-space: pre-wrap">' + body + "</pre>"


# -------------------------------------------------------------------------------------------------------------
# Time axis
# -------------------------------------------------------------------------------------------------------------


def _utc(t: datetime) -> datetime:
    return t.replace(tzinfo=timezone.utc) if t.tzinfo is None else t.astimezone(timezone.utc)


def time_points(volumes: Sequence) -> list[datetime]:
    """Every window start/end (or record start/end) of the volumes, sorted, UTC."""
    pts = set()
    for v in volumes:
        for w in v.windows:
            pts.add(_utc(w.start))
            pts.add(_utc(w.end))
        for t in (v.record.start, v.record.end):
            if t is not None:
                pts.add(_utc(t))
    return sorted(pts)


def time_range(volumes: Sequence, now: datetime | None = None) -> tuple[datetime, datetime]:
    """The slider's span: first to last time of the batch (a day around ``now`` when the batch has no times)."""
    pts = time_points(volumes)
    if not pts:
        now = _utc(now or datetime.now(timezone.utc)).replace(minute=0, second=0, microsecond=0)
        return now, now + timedelta(days=1)
    lo, hi = pts[0], pts[-1]
    if hi - lo < timedelta(hours=1):
        hi = lo + timedelta(hours=1)
    return lo, hi


def busiest_time(volumes: Sequence) -> datetime | None:
    """The moment (a window start, plus one minute) at which the most volumes are active: a useful default."""
    best, best_n = None, -1
    for t in time_points(volumes):
        probe = t + timedelta(minutes=1)
        n = sum(1 for v in volumes if v.active_at(probe))
        if n > best_n:
            best, best_n = probe, n
    return best


# -------------------------------------------------------------------------------------------------------------
# Engine comparison
# -------------------------------------------------------------------------------------------------------------

_COMPARED = ("status", "geometry", "lower", "upper", "start", "end", "permanent", "schedule", "windows")


def record_signature(rec: ZoneRecord) -> dict:
    """The parts of a record that must match for two engines to 'agree' (not spans, reasons wording or engine)."""
    d = rec.to_json()
    return {k: d.get(k) for k in _COMPARED}


def records_agree(a: Sequence[ZoneRecord], b: Sequence[ZoneRecord]) -> tuple[int, int, list[int]]:
    """(messages that agree, messages compared, 1-based numbers of those that differ) between two engine runs."""
    def by_msg(recs):
        out: dict[int, list] = {}
        for r in recs:
            out.setdefault(r.message, []).append(record_signature(r))
        return out

    ma, mb = by_msg(a), by_msg(b)
    msgs = sorted(set(ma) | set(mb))
    differ = [m + 1 for m in msgs if ma.get(m) != mb.get(m)]
    return len(msgs) - len(differ), len(msgs), differ


def live_messages(text: str) -> list:
    """The messages of a batch an engine actually reads (split or JSONL; error messages left out), in order."""
    from airspace.pipeline.split import read_jsonl, split_batch

    msgs = read_jsonl(text) if is_jsonl(text) else split_batch(text)
    return [m for m in msgs if not m.error]


MASK_GLYPH = "\u2591"  # what the model's trace shows for a still-masked slot (airspace.model.pointers)


def trace_html(step: str) -> str:
    """One denoising step as HTML: masked positions greyed, field separators shown, one zone per line."""
    from airspace.core.answer import FIELD_SEP, ZONE_SEP

    out = []
    i = 0
    while i < len(step):
        ch = step[i]
        if ch == MASK_GLYPH:
            j = i
            while j < len(step) and step[j] == MASK_GLYPH:
                j += 1
            out.append(f'<span class="mask" style="color:#777">{ch * (j - i)}</span>')
            i = j
            continue
        if ch == FIELD_SEP:
            out.append('<span style="color:#6af"> ␟ </span>')
        elif ch == ZONE_SEP:
            out.append('<br/><span style="color:#6af">␞ next zone</span><br/>')
        else:
            out.append(html.escape(ch))
        i += 1
    return '<pre class="trace" style="white-space: pre-wrap">' + "".join(out) + "</pre>"


def records_jsonl(records: Iterable[ZoneRecord]) -> str:
    """The CLI's ``--format jsonl``: one record object per line."""
    return "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in records)
