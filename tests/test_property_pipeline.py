"""Property tests (hypothesis, derandomized, bounded): the splitter, the normalisers, the rules reader and the
pipeline in both input modes never raise on any text, never lose a message, and always write UTF-8 JSON.

Inputs mix the formats' own pieces (``airspace.eval.fuzz``: fragments, NOTAMs assembled from a grammar, hostile
mutations of them) with arbitrary characters, lone surrogates included.
"""

from __future__ import annotations

import json
import random
from datetime import datetime, timedelta, timezone

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from airspace.eval.fuzz import FRAGMENTS, grammar_message, hostile_line, mutate
from airspace.parser.coords import parse_coord
from airspace.parser.rules import rules_drafts
from airspace.parser.schedule import expand_schedule
from airspace.parser.times import parse_time
from airspace.parser.units import parse_distance_m, parse_limit, parse_limit_range
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import BatchTooLarge, read_jsonl, split_batch

FAST = settings(max_examples=40, deadline=None, derandomize=True, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
SLOW = settings(FAST, max_examples=15)

# any code point, lone surrogates included (hypothesis leaves them out of text() on its own)
_chars = st.one_of(st.characters(), st.sampled_from(["\ud800", "\udc00", "\udfff", "\x00", "\ufffd", "\u2028"]))
junk = st.text(alphabet=_chars, max_size=30)
pieces = st.lists(st.one_of(st.sampled_from(FRAGMENTS), junk), max_size=25).map("".join)
notam = st.randoms(use_true_random=False).map(grammar_message)
mutated = st.tuples(notam, st.randoms(use_true_random=False)).map(lambda t: mutate(*t))
message = st.one_of(pieces, notam, mutated)
batch = st.lists(message, min_size=1, max_size=6)


def _nonblank(s: str) -> int:
    return len("".join(s.split()))


@FAST
@given(st.lists(st.one_of(message, st.sampled_from(["\n\n", "\r\n", "\n", "  "])), max_size=8).map("".join))
def test_splitter_keeps_every_character_and_numbers_every_message(text):
    try:
        msgs = split_batch(text)
    except BatchTooLarge:
        return
    assert [m.index for m in msgs] == list(range(len(msgs)))
    assert sum(_nonblank(m.text) for m in msgs) == _nonblank(text.replace("\r\n", "\n").replace("\r", "\n"))
    for m in msgs:  # what the pipeline will write is always UTF-8
        m.text.encode("utf-8")


@FAST
@given(st.lists(st.tuples(message, st.randoms(use_true_random=False)), min_size=1, max_size=8))
def test_jsonl_reader_gives_every_nonblank_line_its_message(rows):
    text = "\n".join(hostile_line(rnd, msg) for msg, rnd in rows)
    msgs = read_jsonl(text)
    assert [m.index for m in msgs] == [i for i, line in enumerate(text.split("\n")) if line.strip()]
    for m in msgs:
        m.text.encode("utf-8")


@FAST
@given(st.one_of(junk, pieces, st.sampled_from(FRAGMENTS)))
def test_normalisers_raise_nothing_but_value_error(text):
    for parse in (parse_coord, parse_limit, parse_distance_m, parse_limit_range, parse_time):
        try:
            parse(text)
        except ValueError:
            pass


@FAST
@given(st.one_of(junk, pieces, st.sampled_from(["DAILY 0800-1700", "SR-SS", "MON-FRI 0700-1100", "H24"])),
       st.integers(0, 4000), st.integers(1, 400))
def test_schedules_expand_inside_their_period_or_say_why_not(text, start_h, days):
    start = datetime(2026, 1, 1, tzinfo=timezone.utc) + timedelta(hours=start_h)
    end = start + timedelta(days=days)
    try:
        windows = expand_schedule(text, start, end, 48.0, 16.0)
    except ValueError:
        return
    assert all(start <= w.start < w.end <= end for w in windows)


@FAST
@given(message)
def test_rules_reader_never_raises_and_every_span_is_exact(text):
    for draft in rules_drafts(text):
        for key, sp in draft.spans.items():
            assert text[sp.start : sp.end] == sp.text == draft.values[key]


def _check_records(records, expected: set[int]) -> None:
    assert {r.message for r in records} == expected
    assert all(r.status in ("ok", "review", "error") for r in records)
    line = json.dumps([r.to_json() for r in records], ensure_ascii=False)
    json.loads(line.encode("utf-8").decode("utf-8"))
    for r in records:
        if r.status == "error":
            assert r.reasons  # an error always says why
        assert not any("Traceback" in x or "internal failure" in x for x in r.reasons)


@SLOW
@given(batch)
def test_pipeline_on_pasted_text_never_raises_or_loses_a_message(msgs):
    text = "\n\n".join(msgs)
    try:
        parsed = split_batch(text)
    except BatchTooLarge:
        return
    records, _ = process_batch(parsed, "rules")
    _check_records(records, {m.index for m in parsed})
    # the string form reads the same batch
    again, _ = process_batch(text, "rules")
    assert [(r.message, r.zone, r.status) for r in again] == [(r.message, r.zone, r.status) for r in records]


@SLOW
@given(st.lists(st.tuples(message, st.randoms(use_true_random=False)), min_size=1, max_size=6))
def test_pipeline_on_jsonl_never_raises_or_loses_a_line(rows):
    text = "\n".join(hostile_line(rnd, msg) for msg, rnd in rows)
    parsed = read_jsonl(text)
    records, _ = process_batch(parsed, "rules")
    _check_records(records, {i for i, line in enumerate(text.split("\n")) if line.strip()})


def test_generators_are_deterministic():
    assert grammar_message(random.Random(3)) == grammar_message(random.Random(3))
