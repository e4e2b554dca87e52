"""Pretraining the shared backbone on message text, and Clover's conversion from that base (``model/pretrain.py``)."""

from __future__ import annotations

import json
import math
import random

import pytest
import torch
import torch.nn as nn

from airspace.eval.realsplit import read_rows, split_of
from airspace.model import pretrain
from airspace.model.build import build_model
from airspace.model.checkpoint import load_checkpoint, save_checkpoint
from airspace.model.clover import CloverLM
from airspace.model.config import ModelConfig
from airspace.model.layers import BlockGatedDeltaNet, GatedDeltaNet
from airspace.model.tokenizer import Tokenizer

torch.set_num_threads(1)


def tiny(arch: str, tok: Tokenizer, pattern: str = "GAGA") -> ModelConfig:
    return ModelConfig(arch=arch, vocab_size=tok.vocab_size, d_model=32, layer_pattern=pattern, attn_heads=2,
                       attn_head_dim=16, gdn_heads=2, gdn_head_k=16, gdn_head_v=16, n_experts=2, top_k=1,
                       expert_ff=32, shared_ff=32, block_size=20)


def tiny_base(tok: Tokenizer, seed: int = 0, dtype=torch.float32):
    torch.manual_seed(seed)
    return build_model(tiny("ar", tok)).to(dtype)


def test_lm_loss_falls_on_real_dev_texts(dev_rows):
    """A few steps of next-token prediction over the real dev messages lower the loss (tied head, no labels)."""
    texts = [r["text"] for r in dev_rows]
    tok = Tokenizer.from_texts(texts)
    model = tiny_base(tok).train()
    opt = pretrain.make_optimizer(model, 1e-2, 0.01)
    encoded = [pretrain.encode(tok, t) for t in texts]
    batch = pretrain.pad_right([e[:96] for e in encoded[:8]], tok.pad_id)
    ces = [pretrain.train_step(model, opt, *batch, lr=1e-2)[0] for _ in range(12)]
    assert ces[0] == pytest.approx(math.log(tok.vocab_size), abs=0.5)  # a fresh tied head is near uniform
    assert sum(ces[-3:]) / 3 < ces[0] - 1.0
    # the batcher's windows cover every text, none longer than asked
    it = pretrain.lm_batches(encoded, max_len=64, batch_tokens=512, rng=random.Random(0))
    seen = [w for _ in range(10) for w in next(it)]
    assert all(2 <= len(w) <= 64 for w in seen) and all(len(b) * max(map(len, b)) <= 512 or len(b) == 1
                                                        for b in [next(it) for _ in range(5)])
    # a text of one token is no example
    with pytest.raises(ValueError, match="no text"):
        next(pretrain.lm_batches([[5]], max_len=8, batch_tokens=64, rng=random.Random(0)))


def test_only_the_archive_train_split_enters_the_base(archive_path, tmp_path):
    """Archive rows come from the train split only (by NOTAM id); no val/test id, nor the text of a val/test row
    (whichever source brings it: a dev message may repeat one), ever enters the base; held-back texts keep whole
    ids."""
    rows = read_rows(archive_path)
    withheld_ids = {r["id"] for r in rows if split_of(r["id"]) != "train"}
    withheld_texts = {r["text"] for r in rows if split_of(r["id"]) != "train"}
    val_row = next(r for r in rows if split_of(r["id"]) == "val")
    dev = tmp_path / "dev.jsonl"
    dev.write_text(json.dumps({"id": "dev-1", "text": val_row["text"]}) + "\n"
                   + json.dumps({"id": "dev-2", "text": "PSN N4809 E01610 RADIUS 1NM"}) + "\n")
    texts = pretrain.base_texts(str(archive_path), str(dev), 0, seed=0)
    archive = [t for t in texts if t.source == "archive"]
    assert archive and all(split_of(t.id) == "train" for t in archive)
    assert not {t.id for t in texts} & withheld_ids
    assert not {t.text for t in texts} & withheld_texts
    assert [t.id for t in texts if t.source == "dev"] == ["dev-2"]
    assert len({t.text for t in texts}) == len(texts)
    train, held = pretrain.hold_back(texts, 64, seed=0)
    assert len(held) >= 64 and len(train) + len(held) == len(texts)
    assert not {t.id for t in train} & {t.id for t in held}
    assert all(t.source == "archive" for t in held)  # no generated texts asked for here


def test_clover_own_parameters_are_the_gdn_layers_history_slot_calibration_and_right_context():
    tok = Tokenizer()
    cfg = tiny("ar", tok)
    own = pretrain.clover_own_keys(cfg)
    g_layers = [i for i, k in enumerate(cfg.layer_pattern) if k == "G"]
    assert own == {f"layers.{i}.mixer.{name}" for i in g_layers for name in pretrain.CLOVER_OWN}


def test_conversion_keeps_every_shared_tensor_and_clovers_own_at_init():
    tok = Tokenizer()
    base = tiny_base(tok, seed=1)
    with torch.no_grad():  # a base that has learnt something: every tensor away from its init
        for p in base.parameters():
            p.add_(0.01 * torch.randn_like(p))
    clover = pretrain.convert_model(base)
    assert isinstance(clover, CloverLM) and clover.cfg == ModelConfig(**{**base.cfg.to_dict(), "arch": "clover"})
    sd_b, sd_c = base.state_dict(), clover.state_dict()
    for k, v in sd_b.items():
        assert torch.equal(sd_c[k], v) and sd_c[k].dtype == v.dtype, k
    fresh = build_model(tiny("clover", tok)).state_dict()
    for k in set(sd_c) - set(sd_b):
        assert torch.equal(sd_c[k], fresh[k]), k  # at Clover's own init
    mixers = [m for m in clover.modules() if isinstance(m, BlockGatedDeltaNet)]
    assert len(mixers) == 2
    for m in mixers:
        assert not m.rconv_w.any()
        assert not m.hist_b.any() and torch.all(m.hist_c == clover.cfg.calib_init_c)
        assert torch.allclose(m.q_logtemp, torch.full_like(m.q_logtemp, math.log(math.sqrt(m.K))))


def _layer_io(model, ids: torch.Tensor) -> list[tuple[torch.Tensor, object]]:
    """Each layer's input and segment context in one forward of ``model`` over ``ids`` (no padding)."""
    seen = []
    hooks = [layer.register_forward_pre_hook(lambda _m, args: seen.append((args[0], args[1])))
             for layer in model.layers]
    try:
        model(clean_valid=torch.ones_like(ids, dtype=torch.bool), clean_ids=ids)
    finally:
        for h in hooks:
            h.remove()
    return seen


@pytest.mark.parametrize("grad", [False, True], ids=["inference", "training"])
def test_converted_layers_read_and_remember_what_the_base_does(dev_rows, grad):
    """The exact equivalence the architecture allows. Clover's mixers are not the base's (a GDN block query is a
    softmax over its block plus the history slot, not the delta rule's readout; attention sees the block both
    ways), so hidden states differ after the first mixer. Given the same layer input, each converted layer: GDN -
    the q/k/v features (causal conv + zero right-context conv) and conv tail bit-identical, the recurrent state
    the history slot reads equal at every block boundary (fp64; the chunk scan is cut at 20 instead of 64);
    attention - the KV cache bit-identical and the output at each block's last position equal."""
    texts = [r["text"] for r in dev_rows]
    tok = Tokenizer.from_texts(texts)
    base = tiny_base(tok, seed=2, dtype=torch.float64).eval()
    clover = pretrain.convert_model(base).eval()
    bs = clover.cfg.block_size
    ids = torch.tensor([pretrain.encode(tok, texts[0])[:3 * bs]])
    with torch.set_grad_enabled(grad):
        assert torch.equal(base.embed(ids), clover.embed(ids))
        for n in (1, 2, 3):  # every block boundary: the history before block n
            part = ids[:, :n * bs]
            io_b, io_c = _layer_io(base, part), _layer_io(clover, part)
            for i, (lb, lc) in enumerate(zip(base.layers, clover.layers)):
                x, ctx_b = io_b[i]
                ctx_c = io_c[i][1]
                xn = lb.norm1(x)
                assert torch.equal(xn, lc.norm1(x))
                yb, cb = lb.mixer(xn, ctx_b, None)
                yc, cc = lc.mixer(xn, ctx_c, None)
                if isinstance(lb.mixer, GatedDeltaNet):
                    empty = lb.mixer.empty_cache(1, x.device, x.dtype)
                    fb, _ = lb.mixer.conv_features(xn, ctx_b, empty)
                    fc, _ = lc.mixer.conv_features(xn, ctx_c, empty)
                    assert torch.equal(fb, fc)
                    assert torch.equal(cb.conv, cc.conv)
                    torch.testing.assert_close(cc.state, cb.state, rtol=0, atol=1e-12)
                    assert not torch.allclose(yb, yc, atol=1e-6)  # the readout differs: no hidden-state equality
                else:
                    assert torch.equal(cb.k, cc.k) and torch.equal(cb.v, cc.v)
                    torch.testing.assert_close(yc[:, bs - 1::bs], yb[:, bs - 1::bs], rtol=0, atol=1e-12)


def test_a_base_that_does_not_match_is_refused(tmp_path):
    tok = Tokenizer()
    with pytest.raises(ValueError, match="must be an 'ar'"):
        pretrain.convert_model(build_model(tiny("clover", tok)))
    base = tiny_base(tok)
    mixer = base.layers[0].mixer
    mixer.conv_w = nn.Parameter(torch.zeros(mixer.C, mixer.cs + 1))
    with pytest.raises(ValueError, match=r"1 of another shape \(e.g. layers.0.mixer.conv_w"):
        pretrain.convert_model(base)
    base = tiny_base(tok)
    del base.layers[2].mixer.A_log
    with pytest.raises(ValueError, match=r"1 shared tensors missing \(e.g. layers.2.mixer.A_log"):
        pretrain.convert_model(base)
    base = tiny_base(tok)
    base.register_parameter("lm_head", nn.Parameter(torch.zeros(tok.vocab_size, 32)))
    with pytest.raises(ValueError, match="Clover does not have"):
        pretrain.convert_model(base)
    # a checkpoint whose weights are not what its config says is refused on loading, before any conversion
    save_checkpoint(tmp_path / "b", tiny_base(tok), tok, recipe={}, metrics={})
    cfg = json.loads((tmp_path / "b" / "config.json").read_text())
    (tmp_path / "b" / "config.json").write_text(json.dumps(dict(cfg, d_model=64)))
    with pytest.raises(ValueError, match="does not describe model.safetensors"):
        pretrain.convert_checkpoint(tmp_path / "b", tmp_path / "c")
    assert not (tmp_path / "c").exists()


def test_pretrain_cli_saves_a_base_both_engines_continue_from(archive_path, dev_rows, tmp_path):
    """The CLI end to end on a few rows: a safetensors checkpoint with recipe and metrics that loads, converts,
    and that ``airspace-train --init`` continues (ar as it is, clover converted)."""
    from airspace.model.training import main as train_main

    rows = read_rows(archive_path)[:60]
    archive = tmp_path / "archive.jsonl"
    archive.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in rows), encoding="utf-8")
    dev = tmp_path / "dev.jsonl"
    dev.write_text("".join(json.dumps(r, ensure_ascii=False) + "\n" for r in dev_rows[:6]), encoding="utf-8")
    base, conv = tmp_path / "base", tmp_path / "conv"
    assert pretrain.main(["--out", str(base), "--archive", str(archive), "--dev", str(dev), "--generated", "3",
                          "--minutes", "0.02", "--preset", "tiny", "--held-out", "4", "--max-len", "256",
                          "--seed", "3", "--log-every", "1"]) == 0
    assert sorted(p.name for p in base.iterdir()) == ["config.json", "metrics.json", "model.safetensors",
                                                       "recipe.json", "tokenizer.json"]
    model, tok = load_checkpoint(base)
    assert model.cfg.arch == "ar" and tok.vocab_size == model.cfg.vocab_size
    recipe = json.loads((base / "recipe.json").read_text())
    metrics = json.loads((base / "metrics.json").read_text())
    assert recipe["command"].startswith("python -m airspace.model.pretrain --out")
    n_train = sum(split_of(r["id"]) == "train" for r in rows)
    assert recipe["data"]["train_texts"]["generated"] + recipe["data"]["held_out_texts"] >= 3
    assert 0 < recipe["data"]["train_texts"]["archive"] <= n_train
    assert metrics["steps"] >= 1 and metrics["tokens"] > 0 and metrics["curve"]
    assert metrics["held_out"]["texts"] >= 4 and metrics["held_out"]["ce"] > 0
    assert metrics["held_out_at_init"]["ce"] == pytest.approx(math.log(tok.vocab_size), abs=0.5)
    assert pretrain.main(["--convert", str(base), "--out", str(conv)]) == 0
    clover, tok_c = load_checkpoint(conv)
    assert clover.cfg.arch == "clover" and tok_c.chars == tok.chars
    assert json.loads((conv / "recipe.json").read_text())["init"]["from"] == str(base)
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    row = {"text": "PSN 2231N11403E RADIUS 2NM 北纬", "answer": "center=2231N11403E\u241fradius=2NM"}
    for split in ("train", "val"):
        (corpus / f"{split}.jsonl").write_text((json.dumps(row, ensure_ascii=False) + "\n") * 4, encoding="utf-8")
    for arch, start in (("ar", base), ("clover", conv)):
        out = tmp_path / f"ft-{arch}"
        assert train_main(["--arch", arch, "--init", str(start), "--minutes", "0.01", "--out", str(out),
                           "--corpus", str(corpus), "--val-n", "2", "--no-final-eval"]) == 0
        assert json.loads((out / "recipe.json").read_text())["init"]["from"] == str(start)
