"""Clover's reference sampler (``model/sampler.py``) and its decoding passes (``model/passes.py``) on the shipped
checkpoint and real messages: the sampler alone reads them, each pass can be switched off alone, and the production
decoder is the sampler with the default passes."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
import torch

from airspace.core.contract import EngineError
from airspace.data.paths import dev_set_path
from airspace.model.clover import CloverLM
from airspace.model.decoding import GO_ON
from airspace.model.engine import load_extractor
from airspace.model.passes import DEFAULT_PASSES, PASSES
from airspace.model.pointers import encode_message
from airspace.pipeline.split import split_batch

torch.set_num_threads(1)
REPO = Path(__file__).resolve().parents[1]


@pytest.fixture(scope="module")
def clover():
    return load_extractor("clover", device="cpu")


@pytest.fixture(scope="module")
def real_messages() -> dict[str, list[str]]:
    """The real development set and the shipped demo batch, as messages."""
    dev = [json.loads(line)["text"] for line in dev_set_path().read_text(encoding="utf-8").splitlines() if line.strip()]
    demo = [m.text for m in split_batch((REPO / "data" / "samples" / "demo20.txt").read_text(encoding="utf-8"))]
    return {"dev": dev, "demo20": demo}


def decode(ex, texts: list[str], passes) -> tuple[list[list[int]], object]:
    """(prompts, the decode of ``texts`` in one batch with ``passes`` at the engine's go-on floor)."""
    prompts = [encode_message(ex.tok, t)[0] for t in texts]
    return prompts, ex.model.decode(prompts, go_on=ex.go_on, passes=passes)


def extract(ex, texts: list[str], passes):
    """The engine's answers (span repair and all) with the model decoding with ``passes``."""
    ex.model.passes = tuple(passes)
    try:
        return ex.extract(texts)[0]
    finally:
        ex.model.passes = CloverLM.passes


def assert_valid(ex, texts: list[str], passes) -> None:
    """Every message decodes to a finished answer of whole blocks, every pointer a position of its own prompt, and
    the engine reads it as zones (no error)."""
    prompts, res = decode(ex, texts, passes)
    bs = ex.cfg.block_size
    for p, slots, done in zip(prompts, res.slots, res.finished):
        assert done and slots and len(slots) % bs == 0
        assert all(0 <= s < len(p) for s in slots)
        null = len(p) - 1
        blocks = [slots[b:b + bs] for b in range(0, len(slots), bs)]
        assert blocks[-1][0] == null or blocks[-1][-1] == null  # it stopped at a NULL anchor or a NULL next
        assert all(b[0] != null and b[-1] != null for b in blocks[:-1])  # ... and not before
    answers = extract(ex, texts, passes)
    assert not [a for a in answers if isinstance(a, EngineError)]


def test_the_reference_sampler_alone_reads_real_messages(clover, real_messages):
    """No pass: the plain confidence-threshold sampler reads the dev set and the demo batch to finished, valid
    answers, and the demo batch's 21 records as its expected records say."""
    from airspace.eval.bench import load_set, score
    from airspace.pipeline.batch import process_batch

    for texts in real_messages.values():
        assert_valid(clover, texts, ())
    messages, golds, _ = load_set("demo20", 0, 0)
    clover.model.passes = ()
    try:
        records, _ = process_batch(messages, clover, cross_check=False)
    finally:
        clover.model.passes = CloverLM.passes
    right, total, problems, _ = score(records, golds)
    assert (right, total) == (21, 21), problems


@pytest.mark.parametrize("off", DEFAULT_PASSES)
def test_each_pass_can_be_switched_off_alone(clover, real_messages, off):
    rest = [p for p in DEFAULT_PASSES if p != off]
    for texts in real_messages.values():
        assert_valid(clover, texts, rest)


def test_the_production_decoder_is_the_reference_sampler_with_the_default_passes(clover, real_messages):
    """The engine decodes with every pass, at its own go-on floor; the same passes named explicitly give the same
    slots, forwards and steps; the reference sampler alone differs only where a pass acted (on these sets: a list
    of six balloon areas, whose sixth the sampler stops before on a close-call NULL ``next``)."""
    assert CloverLM.passes == DEFAULT_PASSES == tuple(PASSES) and clover.go_on == GO_ON["clover"]
    texts = real_messages["dev"] + real_messages["demo20"]
    _, default = decode(clover, texts, None)
    _, named = decode(clover, texts, list(reversed(DEFAULT_PASSES)))  # the order of the names does not matter
    _, plain = decode(clover, texts, ())
    assert named.slots == default.slots and named.forwards == default.forwards
    assert named.steps_per_block == default.steps_per_block
    dev = real_messages["dev"]
    balloons = next(i for i, t in enumerate(dev) if "CAPTIVE BALLOONS OPR AT `GAZA STRIP`" in t)
    changed = [i for i in range(len(texts)) if plain.slots[i] != default.slots[i]]
    assert balloons in changed
    # a pass acts where it leaves a trace: a block continued to, or steps a re-ask took
    assert all(default.went_on[i] or default.steps_per_block[i] != plain.steps_per_block[i] for i in changed)
    places = lambda answer: [d.values["center"] for d in answer]  # noqa: E731
    with_passes = extract(clover, [dev[balloons]], DEFAULT_PASSES)[0]
    assert len(with_passes) == 6 and places(with_passes)[-1] == "N311235E0341655"
    without = extract(clover, [dev[balloons]], [p for p in DEFAULT_PASSES if p != "continue_past_stop"])[0]
    assert places(without) == places(with_passes)[:5]


def test_an_unknown_pass_is_refused(clover, real_messages):
    with pytest.raises(ValueError, match="unknown decoding passes \\['greedy'\\]; known: reask_bare_zone"):
        decode(clover, real_messages["dev"][:1], ["reask_open_end", "greedy"])


def archive_text(archive_path: Path, rid: str) -> str:
    """A message of the real archive by its id (the train split's: no setting is chosen on these)."""
    from airspace.data.realsplit import read_rows, rows_of_split

    return next(r["text"] for r in rows_of_split(read_rows(archive_path), "train") if r["id"] == rid)


def test_reask_bare_zone_gives_a_zone_drawn_alone_the_limits_and_times_its_message_states(clover, archive_path):
    """N4104/26 (a route closure whose only place is its Q-line circle, with F) SFC G) UNL and B) / C)): the
    sampler writes the circle beside the "no zone" reading's NULL limits and times; asked again with the place
    known, the block reads them."""
    text = archive_text(archive_path, "N4104/26")
    without = extract(clover, [text], [p for p in DEFAULT_PASSES if p != "reask_bare_zone"])[0]
    with_pass = extract(clover, [text], DEFAULT_PASSES)[0]
    assert [d.values.get("center") for d in without] == [d.values.get("center") for d in with_pass] == ["4403N03803E"]
    assert not {"lower", "upper", "start", "end"} & set(without[0].values)
    assert {k: with_pass[0].values[k] for k in ("lower", "upper", "start", "end")} == {
        "lower": "SFC", "upper": "UNL", "start": "2604100045", "end": "2604160045"}


def test_reask_open_end_gives_a_zone_that_starts_the_end_its_message_states(clover, archive_path):
    """Q2261/26 (a circle closed from B) to C)): the end commits NULL in a step before the start it follows; its
    two end slots asked again, with the start known, read C)."""
    text = archive_text(archive_path, "Q2261/26")
    without = extract(clover, [text], [p for p in DEFAULT_PASSES if p != "reask_open_end"])[0]
    with_pass = extract(clover, [text], DEFAULT_PASSES)[0]
    assert len(without) == len(with_pass) == 1 and without[0].values["start"] == "2603262100"
    assert "end" not in without[0].values and with_pass[0].values["end"] == "2604012059"
    assert {k: v for k, v in with_pass[0].values.items() if k != "end"} == without[0].values


def test_ban_repeated_places_keeps_a_block_continued_to_off_the_areas_already_read(clover, archive_path):
    """J5607/26 (ten areas in two parts under one heading of times): the sampler skips area 6, and the answer ends
    without it; with the place slots of the block continued to kept off the areas already read, that block reads
    area 6's circle."""
    text = archive_text(archive_path, "J5607/26")
    centres = lambda answer: [d.values.get("center") for d in answer]  # noqa: E731
    without = extract(clover, [text], [p for p in DEFAULT_PASSES if p != "ban_repeated_places"])[0]
    with_pass = extract(clover, [text], DEFAULT_PASSES)[0]
    assert "535741N1015652E" not in centres(without)
    assert centres(with_pass) == centres(without) + ["535741N1015652E"]
