"""Checkpoint round trip and tokenizer behaviour."""

from __future__ import annotations

import json

import pytest
import torch

from airspace.model.ar import build_model
from airspace.model.checkpoint import load_checkpoint, save_checkpoint
from airspace.model.config import ModelConfig
from airspace.model.decoding import clover_decode
from airspace.model.tokenizer import Tokenizer
from airspace.parser.answer import FIELD_SEP, ZONE_SEP, format_answer

torch.set_num_threads(1)


def test_checkpoint_round_trip_is_bit_exact(tmp_path):
    tok = Tokenizer.from_texts(["北纬22°38′ 东经113°49′ 真高120米 大连梭鱼湾"])
    cfg = ModelConfig(arch="clover", vocab_size=tok.vocab_size, d_model=32, layer_pattern="GA", attn_heads=2,
                      attn_head_dim=16, gdn_heads=2, gdn_head_k=16, gdn_head_v=16, n_experts=2, top_k=1,
                      expert_ff=16, shared_ff=16, block_size=4)
    torch.manual_seed(0)
    model = build_model(cfg).eval()
    with torch.no_grad():
        for p in model.parameters():
            p.add_(torch.randn_like(p) * 0.1)
    save_checkpoint(tmp_path / "ck", model, tok, recipe={"seed": 0}, metrics={"val_exact": 0.0})
    assert not list((tmp_path / "ck").glob("*.pt")) and not list((tmp_path / "ck").glob("*.bin"))
    loaded, tok2 = load_checkpoint(tmp_path / "ck")
    assert loaded.cfg == cfg and tok2.chars == tok.chars
    sd1, sd2 = model.state_dict(), loaded.state_dict()
    assert sd1.keys() == sd2.keys()
    for k in sd1:
        assert torch.equal(sd1[k], sd2[k]), k
    prompt = [tok.encode_prompt("PSN N480930 E0161028 RADIUS 1NM")]
    a = clover_decode(model, prompt, tok, max_answer_tokens=8)
    b = clover_decode(loaded, prompt, tok, max_answer_tokens=8)
    assert a.ids == b.ids and a.steps_per_block == b.steps_per_block
    assert json.loads((tmp_path / "ck" / "recipe.json").read_text()) == {"seed": 0}


def test_checkpoint_refuses_incomplete_directory(tmp_path):
    (tmp_path / "config.json").write_text("{}")
    with pytest.raises(FileNotFoundError):
        load_checkpoint(tmp_path)


def test_tokenizer_copies_every_character_and_round_trips():
    tok = Tokenizer.from_texts(["北纬22°38′"])
    msg = "(A1912/15 NOTAMN\nPSN:N480930 E0161028 北纬22°38′ 东经 ✈ Ω"
    ids = tok.encode_text(msg)
    assert tok.decode(ids) == msg
    assert len(tok.encode_text("N480930")) == 7 and len(tok.encode_text("北纬")) == 2  # one token per character
    assert len(tok.encode_text("✈")) == 3  # unknown -> UTF-8 bytes
    ans = format_answer([{"center": "N480930 E0161028", "radius": "1NM"}, {"name": "大连梭鱼湾", "lower": "SFC"}])
    aid = tok.encode_answer(ans)
    assert aid[0] == tok.key_ids["center"] and aid[-1] == tok.eoa_id
    assert tok.field_sep_id in aid and tok.zone_sep_id in aid
    assert tok.decode(aid) == ans and FIELD_SEP in ans and ZONE_SEP in ans
    assert tok.decode(tok.encode_answer("NONE")) == "NONE" and len(tok.encode_answer("NONE")) == 2


def test_tokenizer_file_round_trip(tmp_path):
    tok = Tokenizer.from_texts(["空域 限制 ±"])
    tok.save(tmp_path / "t.json")
    t2 = Tokenizer.load(tmp_path / "t.json")
    assert t2.chars == tok.chars and t2.vocab_size == tok.vocab_size
