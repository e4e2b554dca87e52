"""model.quant: the int8 load mode. The routed experts keep their routing and arithmetic when recast as linear
layers; int8 moves the hidden states only a little; what picks (router, gates, pointer head) stays float32; the
mode is refused where it cannot run; and on demo20 it reads the records float32 reads."""

from __future__ import annotations

import pytest
import torch
import torch.nn as nn

from airspace.model.checkpoint import load_checkpoint
from airspace.model.engine import DEFAULT_CHECKPOINTS, load_extractor
from airspace.model.pointers import encode_message
from airspace.model.quant import KEEP_FLOAT, Int8MoEFFN, quantize_int8


@pytest.fixture(scope="module")
def shipped():
    return load_checkpoint(DEFAULT_CHECKPOINTS["clover"])


def test_the_experts_as_linear_layers_compute_what_the_moe_ffn_computes(shipped):
    model, _ = shipped
    ffn = model.layers[0].ffn
    x = torch.randn(300, model.cfg.d_model, generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        want, _, logits, idx = ffn(x)
        got, _, logits2, idx2 = Int8MoEFFN(ffn)(x)  # not yet quantised: the same float32 weights, fused
    assert torch.equal(idx, idx2) and torch.equal(logits, logits2)
    torch.testing.assert_close(got, want, rtol=1e-5, atol=1e-6)


def test_int8_weights_move_the_hidden_states_a_little_and_leave_routing_and_pointers_in_float32():
    model, tok = load_checkpoint(DEFAULT_CHECKPOINTS["clover"])
    prompt = encode_message(tok, "A0001/26 NOTAMN Q) ZGZU/QRDCA/IV/BO/W/000/010/2232N11356E001 E) UAS AREA "
                                 "2232N11356E RADIUS 1NM")[0]
    with torch.no_grad():
        read = model.read_group([prompt])  # the pointer keys: from the prompt's final hidden states
        want = read.memory.keys[read.memory.valid]
        quantize_int8(model)
        got = model.read_group([prompt]).memory.keys[read.memory.valid]
    rel = ((got - want).norm() / want.norm()).item()
    assert 0 < rel < 0.12, rel  # changed (int8: ~8 % here), far from noise
    from torch.ao.nn.quantized.dynamic import Linear as Int8Linear

    last = {name.rsplit(".", 1)[-1]: m for name, m in model.named_modules()}
    assert all(isinstance(last[k], Int8Linear) for k in ("in_proj", "z_proj", "qkvg", "out_proj", "shared",
                                                          "shared_down"))
    assert all(isinstance(m, Int8Linear) for layer in model.layers for m in (*layer.ffn.gate_up, *layer.ffn.down))
    for name, m in model.named_modules():
        if name.rsplit(".", 1)[-1] in KEEP_FLOAT:
            assert type(m) is nn.Linear and m.weight.dtype == torch.float32, name
    assert all(isinstance(layer.ffn, Int8MoEFFN) for layer in model.layers)


def test_int8_is_refused_for_a_model_not_in_float32():
    model, _ = load_checkpoint(DEFAULT_CHECKPOINTS["clover"], dtype=torch.float64)
    with pytest.raises(ValueError, match="float32"):
        quantize_int8(model)


def test_int8_reads_demo20_as_float32_does(demo20_messages):
    from airspace.pipeline.batch import process_batch

    texts = {}
    for int8 in (False, True):
        records, _ = process_batch(demo20_messages, load_extractor("clover", int8=int8))
        texts[int8] = [r.model_dump_json() for r in records]
    assert texts[True] == texts[False]


@pytest.fixture(scope="module")
def demo20_messages():
    from airspace.eval.bench import SAMPLES
    from airspace.pipeline.split import split_batch

    return split_batch((SAMPLES / "demo20.txt").read_text(encoding="utf-8"))
