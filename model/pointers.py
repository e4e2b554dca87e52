"""The engine's answer as span pointers: one block of slots per zone, every slot a position of the prompt.

The model copies a field by pointing at where its value starts and where it ends in the message (a pointer
network over the prompt's positions), so every value is a verbatim span by construction and a field costs two
tokens whatever its length. One zone is one block of ``2 + 2 * len(fields)`` slots::

    anchor | center.start center.end | radius.start radius.end | … | schedule.start schedule.end | next

* a pointer ``j`` is an index into the prompt ``message tokens + [SEP]``; spans are half-open token ranges
  ``[start, end)``, so ``end`` may be the SEP position (a value running to the end of the message);
* ``NULL`` is the SEP position: a field the message does not state has ``start = end = NULL``;
* ``anchor`` is where the zone's first value starts (``NULL`` in the first block: the message defines no zone);
* ``next`` is the next zone's anchor, or ``NULL`` after the last zone.

So a message with k zones is k blocks (one block of NULLs when it has none); Clover fills a block's slots in
parallel, the AR baseline one slot per forward. Pointer answers convert to and from the answer text of
``airspace.core.answer`` (training data and serialisation) and become ``ZoneDraft`` s for the pipeline.

The fields, and so the block, are a checkpoint's own (``ModelConfig.fields``): every function that reads or
writes slots takes ``fields`` (default: the nine of a config without the key, whose layout ``SLOTS`` / ``N_SLOTS``
are; the shipped checkpoints write eleven, ``date`` and ``tz`` appended: 24 slots).
"""

from __future__ import annotations

from collections.abc import Sequence

from airspace.core.answer import NO_ZONE, AnswerFormatError, format_answer, ground, parse_answer
from airspace.core.contract import PLACE_FIELDS, Span, ZoneDraft
from airspace.model.config import DEFAULT_FIELDS
from airspace.parser.fieldcheck import span_reads_as


def slot_names(fields: Sequence[str]) -> tuple[str, ...]:
    """The slots of one zone block for ``fields``: anchor, ``<field>.start`` / ``<field>.end`` per field, next."""
    return ("anchor",) + tuple(f"{k}.{e}" for k in fields for e in ("start", "end")) + ("next",)


SLOTS: tuple[str, ...] = slot_names(DEFAULT_FIELDS)  # the default nine fields' block
N_SLOTS = len(SLOTS)
MASK_GLYPH = "\u2591"  # how a still-masked slot shows in a trace


class Offsets:
    """Character <-> token positions of one message under a tokenizer (byte fallback makes some chars k tokens)."""

    def __init__(self, text: str, char_to_tok: list[int]):
        self.text = text
        self.char_to_tok = char_to_tok  # len(text) + 1 entries; the last is the SEP position (= NULL)
        self.null = char_to_tok[-1]
        tok_to_char = [-1] * (self.null + 1)
        for c in range(len(text), -1, -1):  # the char each token starts; byte tokens inside a char map to that char
            tok_to_char[char_to_tok[c]] = c
        for t in range(1, self.null + 1):
            if tok_to_char[t] < 0:
                tok_to_char[t] = tok_to_char[t - 1]
        self.tok_to_char = tok_to_char

    def span(self, start: int, end: int) -> Span | None:
        """The characters of token span [start, end), white space trimmed at both ends; None if the span is empty
        or not a span."""
        if not (0 <= start < end <= self.null):
            return None
        a = self.tok_to_char[start]
        b = self.tok_to_char[end] if end < self.null else len(self.text)
        while a < b and self.text[a].isspace():
            a += 1
        while b > a and self.text[b - 1].isspace():
            b -= 1
        return Span(a, b, self.text[a:b]) if a < b else None

    def value(self, start: int, end: int) -> str | None:
        """The message text of token span [start, end), stripped; None if the span is empty or not a span."""
        sp = self.span(start, end)
        return sp.text if sp else None


def answer_to_slots(text: str, answer: str, offsets: Offsets, fields: Sequence[str] = DEFAULT_FIELDS) -> list[int]:
    """Gold answer text -> pointer slots (whole blocks). Raises AnswerFormatError if a value is not in the message;
    a value of a field outside ``fields`` is not written."""
    zones = parse_answer(answer)
    drafts = ground(text, zones)
    for zone, draft in zip(zones, drafts):
        for key in fields:
            if key in zone and key not in draft.spans:
                raise AnswerFormatError(f"{key}={zone[key]!r} is not a span of the message")
    return spans_to_slots([{k: (sp.start, sp.end) for k, sp in d.spans.items()} for d in drafts], offsets, fields)


def block_draft(block: list[int], offsets: Offsets, fields: Sequence[str] = DEFAULT_FIELDS) -> ZoneDraft:
    """One block of slots -> the zone's draft, each value with its character span; a field whose span is NULL,
    empty or reversed is left out."""
    spans = {}
    for fi, key in enumerate(fields):
        s, e = block[1 + 2 * fi], block[2 + 2 * fi]
        if s == offsets.null:
            continue
        sp = offsets.span(s, e)
        if sp is not None:
            spans[key] = sp
    return ZoneDraft.from_spans(spans)


def _best_pair(key: str, si: int, ei: int, alts, offsets: Offsets, exclude: tuple[int, int] | None = None):
    """(log-prob, start, end) of the likeliest alternative pair for field ``key`` that reads as it (a NULL pair: the
    field is absent), other than ``exclude``; None if there is none."""
    null = offsets.null
    best = None
    for s2, ls in alts[si]:
        for e2, le in alts[ei]:
            if (s2, e2) == exclude:
                continue
            if s2 == null or e2 == null:
                ok = s2 == e2
            else:
                ok = _reads(key, offsets, s2, e2)
            if ok and (best is None or ls + le > best[0]):
                best = (ls + le, s2, e2)
    return best


def _reads(key: str, offsets: Offsets, start: int, end: int) -> bool:
    """Token span [start, end) reads as field ``key`` where it stands in the message (``fieldcheck.span_reads_as``)."""
    sp = offsets.span(start, end)
    return sp is not None and span_reads_as(key, offsets.text, sp.start, sp.end)


# the fields that place and bound a zone, written together in a message (times are often written once, in a heading)
_LOCAL_FIELDS = ("center", "polygon", "name", "radius", "lower", "upper")


def _split_vote(key: str, fi: int, block: list[int], alts, offsets: Offsets, fields: Sequence[str]):
    """A field whose two ends each stand at the edge of a different span that reads as it (the start at one
    occurrence, the end at another: the model's two ends voted for two spans, as where a Q-line's reference point and
    item E's centre, or two zones' radii, are both in the message) is the candidate nearer the zone's other place
    and limit fields as the block has them; how sure each end was says little there, since each is sure of its own
    span. -> (log-prob, start, end), or None where the ends did not split so (``_best_pair`` then chooses)."""
    null = offsets.null
    si, ei = 1 + 2 * fi, 2 + 2 * fi
    s, e = block[si], block[ei]
    if s == null or e == null:
        return None
    keep_start = max(((ls + le, s, e2) for s2, ls in alts[si] if s2 == s for e2, le in alts[ei]
                      if e2 != null and e2 > s and _reads(key, offsets, s, e2)), default=None)
    keep_end = max(((ls + le, s2, e) for s2, ls in alts[si] if s2 != null and s2 < e and _reads(key, offsets, s2, e)
                    for e2, le in alts[ei] if e2 == e), default=None)
    if keep_start is None or keep_end is None:
        return None
    others = []
    for fj, other in enumerate(fields):
        if other == key or other not in _LOCAL_FIELDS:
            continue
        a, b = block[1 + 2 * fj], block[2 + 2 * fj]
        if a != null and _reads(other, offsets, a, b):
            others.append((a, b))
    if not others:
        return None

    def gap(c) -> int:
        return min(max(a - c[2], c[1] - b, 0) for a, b in others)

    return min((keep_start, keep_end), key=lambda c: (gap(c), -c[0]))


def _logp(alts: list[tuple[int, float]], pos: int) -> float:
    return next((v for c, v in alts if c == pos), float("-inf"))


def repair_block(block: list[int], alts: list[list[tuple[int, float]]], offsets: Offsets,
                 fields: Sequence[str] = DEFAULT_FIELDS) -> tuple[list[int], int]:
    """Span-constrained choice: a field whose written span does not read as that field (``parser.fieldcheck``) takes
    the likeliest (start, end) pair of the model's own alternatives that does (a NULL pair drops the field, if the
    model itself ranked NULL among both ends' alternatives). A field no alternative can mend is kept as written, so
    the pipeline flags it. A NULL start with an end that is not NULL is no answer either (Clover writes a block's slots
    in parallel, so its two ends can fall on either side of a close call): it takes the likeliest pair of both ends'
    alternatives that is NULL at both ends or reads as the field. (An end at NULL's position with a start before it
    is a span: the NULL position is the one past the message's last character.) One span cannot be both the floor
    and the ceiling: when lower and upper point at the same span, the one whose best other reading costs less
    log-probability moves. -> (block, number of fields changed)."""
    block = list(block)
    null = offsets.null
    changed = 0
    for fi, key in enumerate(fields):
        si, ei = 1 + 2 * fi, 2 + 2 * fi
        s, e = block[si], block[ei]
        if s == null:
            best = _best_pair(key, si, ei, alts, offsets) if e != null else None
            if best is not None and (best[1], best[2]) != (s, e):
                block[si], block[ei] = best[1], best[2]
                changed += best[1] != null  # a NULL pair only writes down the absence block_draft already reads
            continue
        if _reads(key, offsets, s, e):
            continue
        best = _split_vote(key, fi, block, alts, offsets, fields) or _best_pair(key, si, ei, alts, offsets)
        if best is not None:
            block[si], block[ei] = best[1], best[2]
            changed += 1
    if "lower" not in fields or "upper" not in fields:
        return block, changed
    lo, up = fields.index("lower"), fields.index("upper")
    span = (block[1 + 2 * lo], block[2 + 2 * lo])
    if span[0] != null and span == (block[1 + 2 * up], block[2 + 2 * up]):
        moves = []
        for fi in (lo, up):
            si, ei = 1 + 2 * fi, 2 + 2 * fi
            best = _best_pair(fields[fi], si, ei, alts, offsets, exclude=span)
            if best is not None:
                cost = _logp(alts[si], span[0]) + _logp(alts[ei], span[1]) - best[0]
                moves.append((cost, si, ei, best[1], best[2]))
        if moves:
            _, si, ei, s2, e2 = min(moves)
            block[si], block[ei] = s2, e2
            changed += 1
    return block, changed


def repair_slots(slots: list[int], alts: list[list[tuple[int, float]]], offsets: Offsets,
                 fields: Sequence[str] = DEFAULT_FIELDS) -> tuple[list[int], int]:
    """``repair_block`` on every zone block of a decoded answer -> (slots, fields changed)."""
    out, changed = [], 0
    n = 2 + 2 * len(fields)
    for b in range(0, len(slots) - n + 1, n):
        block, c = repair_block(slots[b:b + n], alts[b:b + n], offsets, fields)
        out.extend(block)
        changed += c
    return out + slots[len(out):], changed


def repeats(draft: ZoneDraft, earlier: Sequence[ZoneDraft]) -> bool:
    """Whether a later block only says again what the zones before it said: every span of an earlier zone again
    (the last zone of a list written twice), or no place of its own and nothing but spans earlier zones already
    use (the shared times of a list, written once more after its last zone). Either is no new zone."""
    if any(draft.spans == d.spans for d in earlier):
        return True
    if any(k in draft.spans for k in PLACE_FIELDS):
        return False
    said = {(sp.start, sp.end) for d in earlier for sp in d.spans.values()}
    return bool(earlier) and all((sp.start, sp.end) in said for sp in draft.spans.values())


def placed_spans(earlier: Sequence[int], null: int, fields: Sequence[str] = DEFAULT_FIELDS) -> list[tuple[int, int, int]]:
    """The place spans the blocks ``earlier`` (their slots, whole blocks) wrote: (field index, start, end) each."""
    n = 2 + 2 * len(fields)
    idx = [fi for fi, key in enumerate(fields) if key in PLACE_FIELDS]
    return [(fi, earlier[b + 1 + 2 * fi], earlier[b + 2 + 2 * fi]) for b in range(0, len(earlier) - n + 1, n)
            for fi in idx if earlier[b + 1 + 2 * fi] != null]


def places_anew(block: Sequence[int], earlier: Sequence[int], null: int,
                fields: Sequence[str] = DEFAULT_FIELDS) -> bool:
    """Whether a block (its slots; ``next`` may be missing) places a zone that no earlier block of the answer
    (``earlier``: their slots, whole blocks) placed: a place field whose span overlaps no place span before it, and
    an anchor outside those spans (an anchor inside one says the block reads that zone again, whatever other span
    its place slots were kept on: ``decoding.fresh_place_bans``)."""
    placed = [(a, e) for _, a, e in placed_spans(earlier, null, fields)]
    if any(a <= block[0] < e for a, e in placed):
        return False
    idx = [fi for fi, key in enumerate(fields) if key in PLACE_FIELDS]
    return any(block[1 + 2 * fi] != null and block[2 + 2 * fi] > block[1 + 2 * fi]
               and all(block[2 + 2 * fi] <= a or block[1 + 2 * fi] >= e for a, e in placed) for fi in idx)


def take_back(slots: list[int], went_on: Sequence[int], offsets: Offsets,
              fields: Sequence[str] = DEFAULT_FIELDS) -> list[int]:
    """A block the decoder went on to past a close-call NULL ``next`` (``decoding.going_on``; ``went_on``: their
    indices) stays only if, as repaired, it still ``places_anew`` with a place that reads as its field where it
    stands; else the answer ends before it, as if ``next`` had been NULL. (The decoder asked the same of the block
    as written, without the text; the span repair may have moved its place onto an earlier zone's or dropped it, and
    a centre kept off the centres already read (``decoding.fresh_place_bans``) may have found only words that no
    alternative mends: ``04:59`` after the last of a list of circles; or the same centre where the message says it
    again: a feed that repeats the last part of a notice.)"""
    n = 2 + 2 * len(fields)

    def text(s: int, e: int) -> str:  # a span's words, however the message spaces them
        return " ".join((offsets.value(s, e) or "").split())

    for b in sorted(went_on):
        if (b + 1) * n > len(slots):
            continue
        block = list(slots[b * n:(b + 1) * n])
        said = {text(a, e) for _, a, e in placed_spans(slots[:b * n], offsets.null, fields)}
        for fi, a, e in placed_spans(block, offsets.null, fields):  # a place that does not read, or is said again
            if not _reads(fields[fi], offsets, a, e) or text(a, e) in said:
                block[1 + 2 * fi] = block[2 + 2 * fi] = offsets.null
        if not places_anew(block, slots[:b * n], offsets.null, fields):
            return slots[:b * n] + [offsets.null] * n
    return slots


def slots_to_drafts(slots: list[int], offsets: Offsets, fields: Sequence[str] = DEFAULT_FIELDS) -> list[ZoneDraft]:
    """Decoded pointer slots -> the message's zones. Stops at a block whose anchor is NULL or after a NULL
    ``next``; a block with no readable field, or one that only ``repeats`` the zones before it, is no zone."""
    drafts: list[ZoneDraft] = []
    n = 2 + 2 * len(fields)
    for b in range(0, len(slots) - n + 1, n):
        block = slots[b:b + n]
        if block[0] == offsets.null:
            break
        draft = block_draft(block, offsets, fields)
        if draft.values and not repeats(draft, drafts):
            drafts.append(draft)
        if block[-1] == offsets.null:
            break
    return drafts


def slots_to_answer(slots: list[int], offsets: Offsets, fields: Sequence[str] = DEFAULT_FIELDS) -> str:
    """Decoded pointer slots -> answer text (training metrics and serialisation; the pipeline takes drafts)."""
    drafts = slots_to_drafts(slots, offsets, fields)
    return format_answer([d.values for d in drafts]) if drafts else NO_ZONE


def render_block(block: list[int | None], offsets: Offsets, fields: Sequence[str] = DEFAULT_FIELDS) -> str:
    """A partly decoded block for a denoising trace: committed fields as text, masked slots as ``MASK_GLYPH``."""
    if block[0] is not None and block[0] == offsets.null:
        return NO_ZONE
    parts = []
    for fi, key in enumerate(fields):
        s, e = block[1 + 2 * fi], block[2 + 2 * fi]
        if s is None or e is None:
            half = "" if s is None or s == offsets.null else offsets.text[offsets.tok_to_char[s]:][:6]
            parts.append(f"{key}={half}{MASK_GLYPH * (3 if s is None else 2)}")
        elif s != offsets.null:
            parts.append(f"{key}={offsets.value(s, e) or '?'}")
    return " ".join(parts)


def encode_message(tok, text: str, as_bytes: frozenset[int] | set[int] = frozenset()) -> tuple[list[int], Offsets]:
    """(prompt ids = message tokens + SEP, offsets); the SEP position is the NULL pointer. ``as_bytes``: character
    indices written as bytes (see ``Tokenizer.encode_text_offsets``)."""
    ids, char_to_tok = tok.encode_text_offsets(text, as_bytes)
    return ids + [tok.sep_id], Offsets(text, char_to_tok)


def encode_example(tok, text: str, answer: str, as_bytes: frozenset[int] | set[int] = frozenset(),
                   fields: Sequence[str] = DEFAULT_FIELDS) -> tuple[list[int], list[int]]:
    """A training example: (prompt ids, gold pointer slots)."""
    prompt, offsets = encode_message(tok, text, as_bytes)
    return prompt, answer_to_slots(text, answer, offsets, fields)


def spans_to_slots(zone_spans: list[dict[str, tuple[int, int]]], offsets: Offsets,
                   fields: Sequence[str] = DEFAULT_FIELDS) -> list[int]:
    """Gold pointer slots from character spans given per zone (field -> (start, end)), for rows whose reader
    knows where each value is (silver rows from the rules reader), so no value is searched for again."""
    null = offsets.null
    if not zone_spans:
        return [null] * (2 + 2 * len(fields))
    blocks = []
    for spans in zone_spans:
        slots = [null] * (2 + 2 * len(fields))
        for fi, key in enumerate(fields):
            if key in spans:
                s, e = spans[key]
                slots[1 + 2 * fi] = offsets.char_to_tok[s]
                slots[2 + 2 * fi] = offsets.char_to_tok[e]
        starts = [s for s in slots[1:-1:2] if s != null]
        slots[0] = min(starts) if starts else null
        blocks.append(slots)
    for b, nxt in zip(blocks, blocks[1:]):
        b[-1] = nxt[0]
    return [s for b in blocks for s in b]
