"""Weight averaging of checkpoints (``airspace.model.soup``): the mean of real saved checkpoints, and refusals."""

from __future__ import annotations

import json

import pytest
import torch

from airspace.model.build import build_model
from airspace.model.checkpoint import load_checkpoint, save_checkpoint
from airspace.model.config import ModelConfig
from airspace.model.soup import average, main
from airspace.model.tokenizer import Tokenizer

torch.set_num_threads(1)
TEXT = "PSN N480930 E0161028 RADIUS 1NM 北纬22°38′"


def _cfg(tok: Tokenizer, d_model: int = 32) -> ModelConfig:
    return ModelConfig(arch="clover", vocab_size=tok.vocab_size, d_model=d_model, layer_pattern="GA", attn_heads=2,
                       attn_head_dim=16, gdn_heads=2, gdn_head_k=16, gdn_head_v=16, n_experts=2, top_k=1,
                       expert_ff=16, shared_ff=16)


def _saved(path, seed: int, tok: Tokenizer, d_model: int = 32):
    torch.manual_seed(seed)
    model = build_model(_cfg(tok, d_model)).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    save_checkpoint(path, model, tok, recipe={"seed": seed})
    return model


def test_average_is_the_weighted_mean_and_loads_as_a_checkpoint(tmp_path):
    tok = Tokenizer.from_texts([TEXT])
    a = _saved(tmp_path / "a", 1, tok)
    b = _saved(tmp_path / "b", 2, tok)
    assert main([str(tmp_path / "a"), str(tmp_path / "b"), "--weights", "3,1", "--out", str(tmp_path / "m")]) == 0
    m, tok_m = load_checkpoint(tmp_path / "m")
    assert tok_m.to_dict() == tok.to_dict() and m.cfg == a.cfg
    sa, sb, sm = a.state_dict(), b.state_dict(), m.state_dict()
    floats = [k for k in sm if sm[k].is_floating_point()]
    assert floats and any(not torch.equal(sa[k], sb[k]) for k in floats)
    for k in floats:
        torch.testing.assert_close(sm[k], 0.75 * sa[k] + 0.25 * sb[k], rtol=1e-6, atol=1e-6)
    recipe = json.loads((tmp_path / "m" / "recipe.json").read_text())
    assert [p["weight"] for p in recipe["soup"]] == [0.75, 0.25]
    assert [p["recipe"]["seed"] for p in recipe["soup"]] == [1, 2]
    metrics = json.loads((tmp_path / "m" / "metrics.json").read_text())
    assert metrics["params"] == a.num_params() and [p["checkpoint"] for p in metrics["soup"]] == [
        str(tmp_path / "a"), str(tmp_path / "b")]
    # the mean decodes like any checkpoint
    out = m.decode([tok_m.encode_prompt(TEXT)], max_answer_tokens=40)
    assert len(out.slots) == 1


def test_average_of_one_checkpoint_with_itself_is_that_checkpoint(tmp_path):
    tok = Tokenizer.from_texts([TEXT])
    a = _saved(tmp_path / "a", 1, tok)
    m, _ = average([tmp_path / "a", tmp_path / "a"])
    for k, v in a.state_dict().items():
        assert torch.equal(m.state_dict()[k], v), k


def test_average_refuses_checkpoints_that_do_not_line_up(tmp_path, capsys):
    tok = Tokenizer.from_texts([TEXT + "ꙮ"])
    _saved(tmp_path / "a", 1, tok)
    _saved(tmp_path / "wide", 2, tok, d_model=48)
    with pytest.raises(ValueError, match="config differs"):
        average([tmp_path / "a", tmp_path / "wide"])
    other = Tokenizer.from_texts([TEXT + "ꙭ"])  # as many characters, the last another
    assert other.vocab_size == tok.vocab_size
    _saved(tmp_path / "tok", 3, other)
    with pytest.raises(ValueError, match="tokenizer differs"):
        average([tmp_path / "a", tmp_path / "tok"])
    with pytest.raises(ValueError, match="at least two"):
        average([tmp_path / "a"])
    with pytest.raises(ValueError, match="weights"):
        average([tmp_path / "a", tmp_path / "a"], [1.0, -1.0])
    with pytest.raises(SystemExit) as exc:
        main([str(tmp_path / "a"), str(tmp_path / "wide"), "--out", str(tmp_path / "m")])
    assert exc.value.code == 2 and "config differs" in capsys.readouterr().err
    assert not (tmp_path / "m").exists()


def test_a_tokenizer_grown_by_a_stage_averages_with_its_parent(tmp_path):
    """A stage that appended characters to its parent's tokenizer (``training.init_from``) averages with the parent:
    the shared characters' rows are the mean, a row only the stage has is the stage's, in either order."""
    tok = Tokenizer.from_texts([TEXT])
    grown = Tokenizer(tok.chars + ["ꙮ", "设"], tok.blank_runs)
    a = _saved(tmp_path / "a", 1, tok)
    b = _saved(tmp_path / "b", 2, grown)
    n = tok.vocab_size
    for order in ([tmp_path / "a", tmp_path / "b"], [tmp_path / "b", tmp_path / "a"]):
        m, tok_m = average(order)
        assert tok_m.to_dict() == grown.to_dict() and m.cfg.vocab_size == grown.vocab_size
        emb, ea, eb = m.embed.weight.data, a.embed.weight.data, b.embed.weight.data
        torch.testing.assert_close(emb[:n], 0.5 * ea + 0.5 * eb[:n], rtol=1e-6, atol=1e-6)
        assert torch.equal(emb[n:], eb[n:])
        other = [k for k in m.state_dict() if k != "embed.weight" and m.state_dict()[k].is_floating_point()]
        for k in other:
            torch.testing.assert_close(m.state_dict()[k], 0.5 * a.state_dict()[k] + 0.5 * b.state_dict()[k],
                                       rtol=1e-6, atol=1e-6)
