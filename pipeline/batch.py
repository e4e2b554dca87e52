"""The spine: messages -> engine answers -> grounded drafts -> normalised records -> validated records.

``process_batch`` never raises on a bad message and never loses one: every message yields at least one record —
zones, a cancellation record (NOTAMC), a ``review`` record when nothing could be found, or an ``error`` record
with the reason (over a size limit, binary data, not a message at all, engine failure).

Every engine hands over ``ZoneDraft`` s with exact spans, or an ``EngineError`` for a message it has no answer
for (``airspace.core.contract``). For model engines the rules reader also runs on every message and each record is
cross-checked against the rules record of the same zone (``validate``).
"""

from __future__ import annotations

import time
from typing import Callable

from airspace.core.contract import ZoneDraft
from airspace.core.contract import EngineError, Extractor, ExtractStats, ZoneDraft
from airspace.core.records import CircleGeometry, Limit, ZoneRecord
from airspace.parser.coords import find_coords
from airspace.parser.header import Header, parse_header
from airspace.parser.places import AERODROME_RADIUS_M, aerodrome_name, resolve_icao
from airspace.parser.rules import area_designator, message_times, rules_drafts
from airspace.pipeline.engines import get_extractor
from airspace.pipeline.normalize import normalize as _normalize
from airspace.pipeline.split import BatchTooLarge, Message, split_batch
from airspace.pipeline.validate import validate

__all__ = ["process_batch"]


def _error(msg: Message, reason: str, engine: str, header: Header | None = None) -> ZoneRecord:
    return ZoneRecord(
        message=msg.index,
        status="error",
        reasons=[reason],
        text=msg.text,
        engine=engine,
        id=header.id if header else None,
        notam_type=header.notam_type if header else None,  # type: ignore[arg-type]
        ref_id=header.ref_id if header else None,
    )


def _post(rec: ZoneRecord, draft: ZoneDraft, header: Header) -> ZoneRecord:
    """Header fields, Q-line/aerodrome approximations, implied surface floor."""
    rec.id, rec.ref_id = header.id, header.ref_id
    if header.notam_type in ("N", "R", "C"):
        rec.notam_type = header.notam_type  # type: ignore[assignment]
    for key, value in draft.values.items():
        if value and key not in draft.spans:  # grounding: every value must be copied from the message
            rec.review(f"{key} value {value[:40]!r} is not in the message")
    g = rec.geometry
    q = header.qline
    c = draft.spans.get("center")
    if g is not None and g.type == "circle" and q is not None and q.coord is not None and c is not None:
        if q.raw.start <= c.start < q.raw.end:
            rec.geometry = g.model_copy(update={"approximate": True})
            named = area_designator(rec.text, header)
            rec.review(
                "only the coarse Q-line circle locates this zone (no coordinates in the text"
                + (f"; it names area {named.text}" if named else "")
                + ")"
            )
    if g is not None and g.type == "named":
        # an aerodrome identifier (A) item, FAA "RADIUS OF ATL") -> approximate circle; place names never
        pos = resolve_icao(g.name)
        if pos is not None:
            radius = g.radius_m or AERODROME_RADIUS_M
            rec.geometry = CircleGeometry(center=pos, radius_m=radius, approximate=True)
            rec.reasons = [r for r in rec.reasons if not r.startswith(f"named place {g.name!r}")]
            stated = "stated" if g.radius_m else "default"
            rec.review(
                f"location is only the aerodrome identifier {g.name} ({aerodrome_name(g.name)}); approximate "
                f"{radius / 1852:g} NM ({stated}) circle around its reference point"
            )
    if rec.geometry is not None and rec.lower is None:
        rec.lower = Limit(ref="SFC", ft=0.0, m=0.0, raw="")
        rec.reasons.append("note: no lower limit stated; the surface is assumed")
    return rec


def _body_coords(text: str, header: Header) -> bool:
    """Whether the message states coordinates outside its Q-line (the Q-line circle is only a coarse reference)."""
    if header.qline is not None:
        text = text[: header.qline.raw.start] + " " + text[header.qline.raw.end :]
    return bool(find_coords(text))


def _records_for(
    msg: Message,
    drafts: list[ZoneDraft] | None,
    header: Header,
    engine: str,
    normalize: Callable[..., ZoneRecord],
    rules_recs: list[ZoneRecord] | None = None,
) -> list[ZoneRecord]:
    if drafts is None:
        return [_error(msg, "the engine could not produce an answer for this message", engine, header)]
    if not drafts:
        times = message_times(msg.text, header)
        # a fragment with coordinates that are not a zone (a substitute fix, an excluded area) was read, not "not
        # understood": it gets the "no zone found" review below
        if header.kind == "other" and engine == "rules" and not times.values and not _body_coords(msg.text, header):
            return [_error(msg, "not understood: no NOTAM header, Q-line, coordinates, times or zone found", engine,
                           header)]
        try:  # keep the message's own times on its record (a runway closure still says when)
            rec = normalize(times, text=msg.text, message=msg.index, engine=engine)
            rec.reasons, rec.status = [], "ok"
        except Exception:  # noqa: BLE001
            rec = ZoneRecord(message=msg.index, text=msg.text, engine=engine)
        rec.id, rec.ref_id = header.id, header.ref_id
        if header.notam_type in ("N", "R", "C"):
            rec.notam_type = header.notam_type  # type: ignore[assignment]
        if header.notam_type == "C":
            return [rec]  # a cancellation: no zone, nothing wrong
        if _body_coords(msg.text, header):
            rec.review("no zone found in the message (its coordinates are navigation points, an excluded area or "
                       "otherwise not a zone boundary)")
        else:
            rec.review("no zone found in the message (no coordinates, area or location)")
        return [rec]
    out = []
    for z, draft in enumerate(drafts):
        try:
            rec = normalize(draft, text=msg.text, message=msg.index, zone=z, engine=engine)
            rec = _post(rec, draft, header)
            rules_rec = None
            if rules_recs is not None:
                rules_rec = rules_recs[z] if z < len(rules_recs) else None
                if rules_rec is None:
                    rec.review(f"engine found {len(drafts)} zones, rules found {len(rules_recs)}")
            out.append(validate(rec, header, rules_rec=rules_rec))
        except Exception as exc:  # noqa: BLE001 - one bad zone must not take the batch down
            out.append(_error(msg, f"zone {z} could not be normalised: {type(exc).__name__}: {exc}"[:300], engine, header))
    if rules_recs is not None and len(rules_recs) > len(drafts):
        out[-1].review(f"engine found {len(drafts)} zones, rules found {len(rules_recs)}")
    return out


def _rules_records(msg: Message, header: Header, normalize) -> list[ZoneRecord]:
    try:
        drafts = rules_drafts(msg.text, header)
    except Exception:  # noqa: BLE001
        return []
    recs = []
    for z, d in enumerate(drafts):
        try:
            recs.append(_post(normalize(d, text=msg.text, message=msg.index, zone=z, engine="rules"), d, header))
        except Exception:  # noqa: BLE001
            recs.append(ZoneRecord(message=msg.index, zone=z, status="error", text=msg.text))
    return recs


def process_batch(
    messages: list[Message] | str,
    engine: str | Extractor = "rules",
    *,
    cross_check: bool = True,
) -> tuple[list[ZoneRecord], ExtractStats]:
    """Every message -> >=1 record (zones, cancellation, review or error), in message order; never raises on input."""
    t0 = time.perf_counter()
    if isinstance(messages, str):
        try:
            messages = split_batch(messages)
        except BatchTooLarge as exc:
            err = ZoneRecord(message=0, status="error", reasons=[str(exc)], text="")
            return [err], ExtractStats(engine=str(engine), wall_s=time.perf_counter() - t0)
    extractor = get_extractor(engine) if isinstance(engine, str) else engine
    name = getattr(extractor, "name", "engine")
    normalize = _normalize
    live = [m for m in messages if not m.error]
    headers: dict[int, Header] = {}
    for m in live:
        try:
            headers[id(m)] = parse_header(m.text)
        except Exception:  # noqa: BLE001
            headers[id(m)] = Header()

    drafts: dict[int, list[ZoneDraft] | None] = {}
    errors: dict[int, str] = {}  # engine failures per message; the caller's Message objects are never mutated
    try:
        answers, stats = extractor.extract([m.text for m in live])
        if len(answers) != len(live):
            raise RuntimeError(f"{len(answers)} answers for {len(live)} messages")
    except Exception as exc:  # noqa: BLE001 - a crashing engine yields error records, not a traceback
        answers = [EngineError(f"engine {name} failed: {type(exc).__name__}: {exc}"[:300])] * len(live)
        stats = ExtractStats(engine=name, messages=len(live))
    for m, ans in zip(live, answers):
        if isinstance(ans, EngineError):
            drafts[id(m)] = None
            if name != "rules":  # the rules reader's failures keep their own record (below)
                errors[id(m)] = ans.reason
        elif isinstance(ans, list) and all(isinstance(d, ZoneDraft) for d in ans):
            drafts[id(m)] = ans
        else:
            drafts[id(m)] = None
            errors[id(m)] = f"engine answer is malformed: {type(ans).__name__}, not a list of zone drafts"

    records: list[ZoneRecord] = []
    for m in messages:
        h = headers.get(id(m))
        error = m.error or errors.get(id(m))
        if error or h is None:
            records.append(_error(m, error or "message was not processed", name, h))
            continue
        rules_recs = None
        if cross_check and name != "rules":
            rules_recs = _rules_records(m, h, normalize)
        records.extend(_records_for(m, drafts.get(id(m)), h, name, normalize, rules_recs))
    stats.wall_s = max(stats.wall_s, 0.0)
    return records, stats
