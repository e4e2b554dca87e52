"""The spine: messages -> engine answers -> grounded drafts -> normalised records -> validated records.

``process_batch`` never raises on a bad message and never loses one: every message yields at least one record —
zones, a cancellation record (NOTAMC), a ``review`` record when nothing could be found, or an ``error`` record
with the reason (over a size limit, binary data, not a message at all, engine failure).

Every engine hands over ``ZoneDraft`` s with exact spans, or an ``EngineError`` for a message it has no answer
for (``airspace.core.contract``). What the pipeline does with an engine follows its ``capabilities``, never its name:
for an engine whose records are cross-checked (the model engines) the rules reader also runs on every message and
each record is cross-checked against the rules record of the same zone (``validate``).

Budgets (``MESSAGE_BUDGET_S``, ``MESSAGE_OUTPUT_BUDGET``): each message gets a time budget for the work done on it
alone (header, rules reading, normalising, validating, the cross-check), counted in processor seconds of this
thread (so a busy machine does not turn good messages into errors), and an output budget for its records; a
message over either becomes an ``error`` record that says which and by how much. Python cannot interrupt a running
regular expression, so the time is checked when each message's work returns: what bounds a stall is that every
stage is linear in its input (``python -m airspace.eval.stress`` measures the worst time per character of each),
the budget is what turns a slow message into an explicit error rather than a silent wait.
"""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from datetime import date
from functools import partial

from airspace.core.contract import PLACE_FIELDS, EngineError, Extractor, ExtractStats, Span, ZoneDraft, capabilities_of
from airspace.core.records import CircleGeometry, Limit, ZoneRecord
from airspace.parser.coords import find_coords
from airspace.parser.cyrillic import CYRILLIC_NOTE, latin_view
from airspace.parser.header import Header, parse_header
from airspace.parser.partial_time import is_warning
from airspace.parser.places import AERODROME_RADIUS_M, aerodrome_name, resolve_icao
from airspace.parser.rules import RulesExtractor, area_designator, message_times, rules_drafts
from airspace.parser.rules.areas import foreign_values, labelled_sections, straddled_values
from airspace.parser.rules.navwarn import surface_hazard
from airspace.parser.rules.readers import location_indicator, qline_circle
from airspace.parser.rules.zone import Message as ReaderMessage
from airspace.parser.rules.zone import body, not_an_area
from airspace.pipeline.complete import (
    NONE_FOUND,
    READ_OTHERWISE,
    RULES_ONLY,
    adopt_rules_places,
    drawn,
    engine_differs_reason,
    engine_filled_reason,
    fill_missing,
    filled_reason,
    pair_zones,
    rules_only_zones,
)
from airspace.pipeline.engines import DEFAULT_ENGINE, get_extractor
from airspace.pipeline.normalize import buffer_zone
from airspace.pipeline.normalize import normalize as _normalize
from airspace.pipeline.notam_graph import link_batch
from airspace.pipeline.split import BatchTooLarge, Message, split_batch
from airspace.pipeline.validate import DISAGREE, note_damage, validate

__all__ = ["process_batch", "MESSAGE_BUDGET_S", "MESSAGE_OUTPUT_BUDGET"]

MESSAGE_BUDGET_S = 10.0  # processor seconds of work on one message alone (20,000 characters take ~2 s at worst)
MESSAGE_OUTPUT_BUDGET = 4 * 1024 * 1024  # estimated JSON bytes of one message's records, its repeated text left out


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


_SURROGATES = re.compile("[\ud800-\udfff]")
_MINUS = re.compile(r"\s*[-\u2212\u2013]\s*\d")  # a limit written with a minus sign: "-500FT AMSL"


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
        # an aerodrome identifier (A) item, FAA "RADIUS OF ATL") -> approximate circle; place names never: an
        # identifier is written in capitals ("Una", a town, is no UNA)
        pos = resolve_icao(g.name) if g.name.isupper() else None
        if pos is not None:
            radius = g.radius_m or AERODROME_RADIUS_M
            rec.geometry = CircleGeometry(center=pos, radius_m=radius, approximate=True)
            rec.reasons = [r for r in rec.reasons if not r.startswith(f"named place {g.name!r}")]
            stated = "stated" if g.radius_m else "default"
            rec.review(
                f"location is only the aerodrome identifier {g.name} ({aerodrome_name(g.name)}); approximate "
                f"{radius / 1852:g} NM ({stated}) circle around its reference point"
            )
    for key in ("lower", "upper"):
        lim = getattr(rec, key)
        if lim is not None and lim.ft is not None and lim.ft > 0 and _MINUS.match(lim.raw):
            # "F) -500FT AMSL": below mean sea level (the Dead Sea shore is -1,400 ft); the value keeps its sign
            setattr(rec, key, lim.model_copy(update={"ft": -lim.ft, "m": -lim.m if lim.m is not None else None}))
    if rec.geometry is not None and rec.lower is None:
        rec.lower = Limit(ref="SFC", ft=0.0, m=0.0, raw="")
        rec.reasons.append("note: no lower limit stated; the surface is assumed")
    return rec


def _placed(draft: ZoneDraft) -> bool:
    """Whether the draft says where its zone is at all (a centre, a boundary or a name)."""
    return any(k in draft.spans or draft.values.get(k) for k in PLACE_FIELDS)


def _header_only(draft: ZoneDraft, header: Header) -> bool:
    """Whether the draft has no place but the notice's header gives: none at all, or only spans of the Q-line (its
    own position) or of item A) (a location indicator), never a word of item E)."""
    if any(draft.values.get(k) and k not in draft.spans for k in PLACE_FIELDS):
        return False
    a = header.item("A")
    heads = [s for s in (header.qline.raw if header.qline else None, a.span if a else None) if s is not None]
    places = [draft.spans[k] for k in PLACE_FIELDS if k in draft.spans]
    return all(any(h.start <= p.start and p.end <= h.end for h in heads) for p in places)


def _by_header(drafts: list[ZoneDraft], text: str, header: Header) -> tuple[list[ZoneDraft], str | None]:
    """Where the header stands for a zone, as the rules reader has it: the Q-line circle and item A) say where a
    notice is filed, and they locate a zone only in a notice about an area (``zone_notice``).

    - In a notice that is not about an area (a Q-code subject M/F/I/L/N/C/P/S/G/O, a route, a point, a
      deactivation), drafts with no place but the header's are not drawn; the reason is returned, so the message's
      ``review`` record says so. A zone item E) places is kept.
    - In an area notice, drafts read without any place (only limits or times) get the header's place
      (``_header_places``): the notice's Q-line circle, spans in the Q-line, so ``_post`` marks it approximate and
      the record ``review``; where that circle means nothing, each FIR of item A) (the draft once per FIR) or its
      aerodrome. A draft so located that reads exactly as one before it (two danger areas with the same hours,
      neither located in the text) is the same volume twice and is kept once.

    Every other draft comes back as it was."""
    if header.qline is None:
        return drafts, None
    bare = [_header_only(d, header) for d in drafts]
    if not any(bare):
        return drafts, None
    m = ReaderMessage.of(text, header)
    if not m.zone_notice:
        kept = [d for d, b in zip(drafts, bare) if not b]
        n = len(drafts) - len(kept)
        return kept, (f"{n} zone{'s' if n > 1 else ''} the engine read with no place but the notice's Q-line or "
                      f"item A) not drawn: the Q-code {header.qline.code or '(none)'} does not mark an area notice")
    placed = [_placed(d) for d in drafts]
    places = _header_places(m) if not all(placed) else []
    if not places:
        return drafts, None
    out: list[ZoneDraft] = []
    for d, has_place in zip(drafts, placed):
        if has_place:
            out.append(d)
            continue
        for fields in places:
            located = ZoneDraft(values={**d.values, **{k: v.text for k, v in fields.items()}}, spans={**d.spans, **fields})
            if not any(located.values == o.values for o in out):
                out.append(located)
    return out, None


def _header_places(m: ReaderMessage) -> list[dict[str, Span]]:
    """Where the header of an area notice puts a zone the text does not place: its Q-line circle; where that
    circle means nothing (a 999 NM radius, "the whole FIR", or the 0000N00000E placeholder), item A): each FIR of
    a notice filed for several (``A) GOOO DRRR``), or the one aerodrome it is filed for. The rules reader's own
    header readers, so every engine's unplaced zone is placed as the rules reader places a notice without one."""
    for reader in (qline_circle, location_indicator):
        zones = reader(m)
        if zones:
            return [z.fields for z in zones]
    return []


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
    rules: tuple[list[ZoneDraft], list[ZoneRecord]] | None = None,
    says_not_understood: bool = False,
) -> list[ZoneRecord]:
    """The records of one message from its engine's drafts; ``rules``: the rules reader's drafts and records of the
    same message where the engine's are cross-checked (each zone against the rules record of its index), and what
    only the rules reader read is added for review (``pipeline.complete``)."""
    if drafts is None:
        return [_error(msg, "the engine could not produce an answer for this message", engine, header)]
    rules_recs = rules[1] if rules is not None else None
    drafts, unfounded = _by_header(drafts, msg.text, header)
    if not drafts and header.notam_type != "C" and (only := _rules_only(msg, [], rules, header, normalize)):
        for r in only:
            r.review(NONE_FOUND)
        return only
    if not drafts:
        times = message_times(msg.text, header)
        # a fragment with coordinates that are not a zone (a substitute fix, an excluded area) was read, not "not
        # understood": it gets the "no zone found" review below
        # (a warning of a hazard to ships alone was understood, coordinates or not: a station off air)
        hazard = surface_hazard(msg.text) if header.kind == "other" and is_warning(msg.text) else None
        if (header.kind == "other" and says_not_understood and not times.values and not _body_coords(msg.text, header)
                and hazard is None):
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
        if (why := not_an_area(header)) is not None:
            rec.review(f"no zone: {why}")
        elif hazard is not None:
            rec.review(f"no zone: a navigational warning of a hazard to ships alone ({hazard}); the airspace above "
                       "it is free")
        elif _body_coords(msg.text, header):
            rec.review("no zone found in the message (its coordinates are navigation points, an excluded area or "
                       "otherwise not a zone boundary)")
        else:
            rec.review("no zone found in the message (no coordinates, area or location)")
        if unfounded:
            rec.review(unfounded)
        note_damage(rec)
        return [rec]
    normalised: list[ZoneRecord | None] = []
    for z, draft in enumerate(drafts):
        try:
            normalised.append(_normalise_zone(draft, msg, z, engine, normalize))
        except Exception:  # noqa: BLE001 - reported as that zone's error below
            normalised.append(None)
    if rules_recs is not None:
        adopt_rules_places(normalised, rules_recs)  # (before the pairs: an adopted place then pairs like its own)
    # each zone's second reading: the rules reader's zone of the same place, else the next one left in order
    mates = {j: z for z, j in pair_zones(rules_recs, normalised).items()} if rules_recs is not None else {}
    out = []
    for z, (draft, rec) in enumerate(zip(drafts, normalised)):
        try:
            if rec is None:
                raise ValueError("the zone could not be normalised")
            rules_rec = rules_recs[mates[z]] if z in mates else None
            filled = fill_missing(rec, rules_rec) if rules_rec is not None else []
            rec = _post(rec, draft, header)
            if rules_recs is not None and rules_rec is None:
                rec.review(f"engine found {len(drafts)} zones, rules found {len(rules_recs)}")
            rec.reasons = [_in_words(r) for r in rec.reasons]
            out.append(validate(rec, header, rules_rec=rules_rec))
            if filled:
                out[-1].review(filled_reason(filled))
            if _as_placed(rules_rec, out[-1]) and any(r.startswith(DISAGREE) for r in out[-1].reasons):
                out[-1] = _rules_reading_shown(out[-1], rules_rec, header, filled)
        except Exception:  # noqa: BLE001 - one bad zone must not take the batch down
            out.append(_error(msg, f"zone {z + 1} of the message could not be read: "
                                   + _values_summary(draft), engine, header))
            out[-1].zone = z
    _check_areas(out, header)
    if rules_recs is not None and len(rules_recs) > len(drafts):
        out[-1].review(f"engine found {len(drafts)} zones, rules found {len(rules_recs)}")
    if unfounded:
        out[-1].review(unfounded)
    for r in _rules_only(msg, out, rules, header, normalize):
        r.zone = len(out)
        r.review(RULES_ONLY)
        out.append(r)
    return out


def _as_placed(rules_rec: ZoneRecord | None, mine: ZoneRecord) -> bool:
    """Whether the rules reader's record places its zone at least as well as the engine's (by name, roughly by the
    Q-line circle, by the message's own coordinates: in that order). Its record is shown in a disagreement only then:
    a reading that cannot be drawn, or only roughly, never replaces one that can."""
    def placed(r: ZoneRecord | None) -> int:
        g = r.geometry if r is not None else None
        return -1 if g is None else 0 if g.type == "named" else 1 if getattr(g, "approximate", False) else 2

    return placed(rules_rec) >= max(placed(mine), 0)


def _rules_reading_shown(mine: ZoneRecord, rules_rec: ZoneRecord, header: Header, rules_alone: list[str]
                         ) -> ZoneRecord:
    """The rules reader's record of a zone in place of the engine's record ``mine`` that the cross-check found
    different (``mine`` already holds what only the rules reader read, ``rules_alone``): ``review``, the engine's
    differing values named, what the engine alone read added, for review.

    Why the rules reader's values are the ones shown: it reads a value only where one of its forms matches the
    text, and where it and a model both read a field and differ it was right far more often (world train and val,
    every kind of message: 30 fields to 1 against Clover, 15 to 0 against AR; the model's pointer at a piece of a
    sentence, at one window of a period with alternates, at another area of a list). Agreement still decides
    ``ok``, so nothing dispatchable changes; the record is marked as the rules reader's (the page shows it as that
    one reading, the engine's values in its reasons)."""
    rec = rules_rec.model_copy(deep=True)
    rec.zone = mine.zone
    filled = fill_missing(rec, mine)
    rec.reasons = [_in_words(r) for r in rec.reasons]
    rec = validate(rec, header)
    for r in mine.reasons:  # (the cross-check's words as it said them of the engine's record: "circle vs rules …")
        if r.startswith(DISAGREE):
            rec.review(r)
    rec.engine = RulesExtractor.name
    rec.review(engine_differs_reason(rec, mine) or READ_OTHERWISE)
    for r in mine.reasons:  # (what the engine's own reading was flagged for: a value not in the message)
        if r.endswith(" is not in the message"):
            rec.review(f"the engine's reading: {r}")
    if rules_alone:
        rec.review(filled_reason(rules_alone))
    if filled:
        rec.review(engine_filled_reason(filled))
    return rec


def _rules_only(msg: Message, recs: list[ZoneRecord], rules: tuple[list[ZoneDraft], list[ZoneRecord]] | None,
                header: Header, normalize) -> list[ZoneRecord]:
    """The rules reader's zones of the message that ``recs`` do not draw (``complete.rules_only_zones``), as its own
    engine gives them (the header's step and every check included); read only where it drew more."""
    if rules is None:
        return []
    if len(drawn(rules[1])) <= len(drawn(recs)):
        return []
    view = _records_for(msg, list(rules[0]), header, RulesExtractor.name, normalize)
    return rules_only_zones(recs, view)


# What Python says about a value it cannot convert, and what that means about the message (a normaliser passes the
# ValueError's text on as its reason; these few are the interpreter's words, not the message's problem).
_PYTHON_WORDS = (
    (re.compile(r"Exceeds the limit \(\d+ digits\) for integer string conversion(?:: value has (\d+) digits)?[^']*$"),
     lambda m: f"a number of {m.group(1) or 'over 4300'} digits, too long to be a value"),
    (re.compile(r"(?:integer division result|int) too large to convert to float|result too large$"),
     lambda m: "a number too large to be a value"),
)


def _check_areas(recs: list[ZoneRecord], header: Header) -> None:
    """A message listing numbered areas: a zone whose value stands in another area's section is review
    (``parser.rules.areas``). Every engine's spans are where it read each value (the rules reader's matches, a
    model's pointers), so the same check holds for all of them."""
    live = [r for r in recs if r.status != "error" and r.geometry is not None]
    if not live:
        return
    lo, hi = body(live[0].text, header)
    text, spans = live[0].text, [r.spans for r in live]
    listed = labelled_sections(text, lo, hi)  # read once for both checks
    for rec, why, loose in zip(live, foreign_values(text, lo, hi, spans, listed),
                               straddled_values(text, lo, hi, spans, listed)):
        for reason in dict.fromkeys(why + loose):
            rec.review(reason)


def _in_words(reason: str) -> str:
    for rx, say in _PYTHON_WORDS:
        m = rx.search(reason)
        if m:
            return reason[: m.start()] + say(m)
    return reason


def _values_summary(draft: ZoneDraft) -> str:
    """What the zone states, shortened, for a reason that says what in the message is wrong (never a traceback)."""
    shown = [f"{k} '{_short(v)}'" for k, v in draft.values.items() if isinstance(v, str)]
    return ("its values (" + ", ".join(shown) + ") are out of the range this reader handles")[:400]


def _short(raw: str, limit: int = 40) -> str:
    s = " ".join(raw.split())
    return s if len(s) <= limit else s[: limit - 1] + "…"


_WHY = {
    "lower": "a height too large to represent",
    "upper": "a height too large to represent",
    "radius": "a distance too large to represent",
    "start": "a date outside the years that can be represented",
    "end": "a date outside the years that can be represented",
    "schedule": "a schedule whose days or times are out of range",
}


def _normalise_zone(draft: ZoneDraft, msg: Message, z: int, engine: str, normalize) -> ZoneRecord:
    """``normalize`` of one zone. The normalisers turn every unreadable value into a review reason; a value they
    cannot even represent (a 400-digit height, a date in year 1) is found by leaving each field out in turn, and the
    record is built without it, with a reason that names the value. Raises when no single field explains it."""
    try:
        return normalize(draft, text=msg.text, message=msg.index, zone=z, engine=engine)
    except Exception:  # noqa: BLE001
        pass
    for key, raw in draft.values.items():
        rest = ZoneDraft(values={k: v for k, v in draft.values.items() if k != key},
                         spans={k: v for k, v in draft.spans.items() if k != key})
        try:
            rec = normalize(rest, text=msg.text, message=msg.index, zone=z, engine=engine)
        except Exception:  # noqa: BLE001
            continue
        rec.review(f"{key} '{_short(str(raw))}' is {_WHY.get(key, 'a value out of range')}; not read")
        return rec
    raise ValueError("no single field explains the failure")


def _rules_reading(msg: Message, header: Header, normalize) -> tuple[list[ZoneDraft], list[ZoneRecord]]:
    """The rules reader's drafts of the message and a record of each, in draft order (the cross-check's pairs)."""
    try:
        drafts = rules_drafts(msg.text, header)
    except Exception:  # noqa: BLE001
        return [], []
    recs = []
    for z, d in enumerate(drafts):
        try:
            recs.append(_post(normalize(d, text=msg.text, message=msg.index, zone=z,
                                         engine=RulesExtractor.name), d, header))
        except Exception:  # noqa: BLE001
            recs.append(ZoneRecord(message=msg.index, zone=z, status="error", text=msg.text))
    return drafts, recs


def _output_estimate(recs: list[ZoneRecord]) -> tuple[int, int, int]:
    """(estimated JSON bytes of the records without their repeated message text, time windows, polygon points)."""
    size = windows = points = 0
    for r in recs:
        n_pts = len(r.geometry.points) if r.geometry is not None and r.geometry.type == "polygon" else 0
        size += (600 + sum(len(x) + 4 for x in r.reasons) + 60 * len(r.windows) + 48 * n_pts
                 + len(r.schedule or "") + sum(len(sp.text) + 40 for sp in r.spans.values()))
        windows += len(r.windows)
        points += n_pts
    return size, windows, points


def _over_budget(msg: Message, recs: list[ZoneRecord], seconds: float, budget_s: float, output_budget: int,
                 engine: str, header: Header | None) -> ZoneRecord | None:
    """The error record that replaces a message's records when its work or its output ran over budget."""
    if seconds > budget_s:
        return _error(msg, f"reading this message took {seconds:.1f} s of processor time, over the per-message "
                           f"time budget of {budget_s:g} s; its records are not returned", engine, header)
    size, windows, points = _output_estimate(recs)
    if size > output_budget:
        return _error(msg, f"this message's records would take about {size / 2**20:.1f} MiB ({len(recs)} zones, "
                           f"{windows} time windows, {points} polygon points), over the per-message output budget of "
                           f"{output_budget / 2**20:g} MiB; not returned", engine, header)
    return None


def _extract_alone(extractor: Extractor, name: str, msgs: list[Message]) -> tuple[list, float]:
    """Each message through the engine on its own: one message the engine cannot read costs only its own record."""
    answers, wall = [], 0.0
    for m in msgs:
        t = time.perf_counter()
        try:
            ans, _ = extractor.extract([m.text])
            answers.append(ans[0] if len(ans) == 1 else EngineError(f"the {name} engine gave no answer for this message"))
        except Exception as exc:  # noqa: BLE001 - a crashing engine yields this message's error record
            why = _SURROGATES.sub("\ufffd", " ".join(str(exc).split()))[:160] or type(exc).__name__
            answers.append(EngineError(f"the {name} engine failed on this message ({why}); a failure of the "
                                       "engine, not something the message says"))
        wall += time.perf_counter() - t
    return answers, wall


def process_batch(
    messages: list[Message] | str,
    engine: str | Extractor = DEFAULT_ENGINE,
    *,
    cross_check: bool = True,
    budget_s: float = MESSAGE_BUDGET_S,
    output_budget: int = MESSAGE_OUTPUT_BUDGET,
    link: bool = True,
    reference: date | None = None,
) -> tuple[list[ZoneRecord], ExtractStats]:
    """Every message -> >=1 record (zones, cancellation, review or error), in message order; never raises on input.

    ``budget_s`` / ``output_budget``: the per-message time and output budgets (module doc). ``link``: read the
    batch's replacements and cancellations as a graph (``notam_graph.link_batch``); a caller that reads one batch in
    shards (``ray_batch``) links the whole batch once, after its shards. ``reference``: the day the batch was
    received, which completes a date of prose that writes no year where the text dates itself nowhere (for review);
    a message's own ``received`` day comes first."""
    t0 = time.perf_counter()
    if isinstance(messages, str):
        try:
            messages = split_batch(messages)
        except BatchTooLarge as exc:
            err = ZoneRecord(message=0, status="error", reasons=[str(exc)], text="")
            return [err], ExtractStats(engine=str(engine), wall_s=time.perf_counter() - t0)
    # a Russian AFTN NOTAM in Cyrillic letters is read as the Latin NOTAM it stands for; the view keeps every
    # character's position, so its records' spans are the message's own, and the records keep the message as written
    views = [m.text if m.error else latin_view(m.text) for m in messages]  # (the text itself when not one)
    written = {m.index: m.text for m, v in zip(messages, views) if v is not m.text}
    messages = [m if v is m.text else Message(m.index, v, m.error, m.source_id) for m, v in zip(messages, views)]
    extractor = get_extractor(engine) if isinstance(engine, str) else engine
    name = getattr(extractor, "name", "engine")
    caps = capabilities_of(extractor)
    per_message = caps.per_message  # an engine that reads one message at a time: each is timed on its own
    normalize = _normalize
    live = [m for m in messages if not m.error]

    answers: dict[int, object] = {}
    stats = ExtractStats(engine=name, messages=len(live))
    if not per_message and live:
        try:
            batch_answers, stats = extractor.extract([m.text for m in live])
            if len(batch_answers) != len(live):
                raise RuntimeError(f"{len(batch_answers)} answers for {len(live)} messages")
        except Exception:  # noqa: BLE001 - read them one by one: only the messages it cannot read are lost
            batch_answers, wall = _extract_alone(extractor, name, live)
            stats = ExtractStats(engine=name, messages=len(live), wall_s=wall)
        answers = {id(m): a for m, a in zip(live, batch_answers)}

    records: list[ZoneRecord] = []
    extract_s = 0.0
    for m in messages:
        if m.error:
            records.append(_error(m, m.error, name, None))
            continue
        t_msg = time.thread_time()
        try:
            h = parse_header(m.text)
        except Exception:  # noqa: BLE001
            h = Header()
        if per_message:
            ans, wall = _extract_alone(extractor, name, [m])
            ans, extract_s = ans[0], extract_s + wall
        else:
            ans = answers.get(id(m))
        drafts: list[ZoneDraft] | None = None
        error = None
        if isinstance(ans, EngineError):
            error = ans.reason
        elif isinstance(ans, list) and all(isinstance(d, ZoneDraft) for d in ans):
            drafts = ans
        else:
            error = f"engine answer is malformed: {type(ans).__name__}, not a list of zone drafts"
        if error:
            recs = [_error(m, error, name, h)]
        else:
            day = m.received or reference
            norm = partial(normalize, reference=day) if day is not None else normalize
            rules = _rules_reading(m, h, norm) if cross_check and caps.cross_checked else None
            try:
                recs = _records_for(m, drafts, h, name, norm, rules, caps.says_not_understood)
                for r in list(recs):  # a buffer stated around a circle zone is a zone of its own
                    if (b := buffer_zone(r, m.text, len(recs))) is not None:
                        recs.append(b)
            except Exception:  # noqa: BLE001 - a failure of ours costs this message's record, never the batch
                recs = [_error(m, "this message could not be read (an internal failure of the reader, not something "
                                  "the message says)", name, h)]
        over = _over_budget(m, recs, time.thread_time() - t_msg, budget_s, output_budget, name, h)
        records.extend([over] if over is not None else recs)
    if per_message:
        stats.wall_s = extract_s
    stats.wall_s = max(stats.wall_s, 0.0)
    records = link_batch(records) if link else records
    for r in records:
        if r.message in written:
            r.text = written[r.message]
            r.reasons.append(CYRILLIC_NOTE)
    return records, stats
