"""The copy constraint: values are verbatim spans of the message, keys follow separators."""

from __future__ import annotations

import torch

from airspace.model.ar import build_model
from airspace.model.config import ModelConfig
from airspace.model.constraints import CopyConstraint
from airspace.model.decoding import ar_decode, clover_decode
from airspace.model.tokenizer import Tokenizer
from airspace.parser.answer import parse_answer

torch.set_num_threads(1)
TOK = Tokenizer()
MSG = "PSN N480930 E0161028 RADIUS 1NM SFC-FL130"


def test_allowed_tokens_follow_the_grammar_and_the_message():
    c = CopyConstraint(TOK, TOK.encode_text(MSG), TOK.vocab_size)
    ids = lambda s: TOK.encode_text(s)  # noqa: E731
    start = c.allowed([])
    assert start[TOK.key_ids["center"]] and start[TOK.none_id] and not start[ids("N")[0]]
    first = c.allowed([TOK.key_ids["center"]])
    assert first[ids("N")[0]] and first[ids("4")[0]] and not first[ids("Z")[0]] and not first[TOK.eoa_id]
    nxt = c.allowed([TOK.key_ids["center"]] + ids("N48"))
    allowed = {i for i in range(TOK.vocab_size) if nxt[i]}
    assert allowed == {ids("0")[0], TOK.field_sep_id, TOK.zone_sep_id, TOK.eoa_id}
    after_sep = c.allowed([TOK.key_ids["center"]] + ids("N48") + [TOK.field_sep_id])
    assert after_sep[TOK.key_ids["radius"]] and not after_sep[ids("1")[0]]
    assert c.allowed([TOK.none_id])[TOK.eoa_id] and c.allowed([TOK.none_id]).sum() == 1
    assert c.allowed([TOK.key_ids["center"], TOK.mask_id]) is None  # left context not committed: free
    assert c.allowed([TOK.key_ids["center"]] + ids("QQ")) is None  # already off the message: free


def test_constrained_ar_decoding_writes_grounded_answers_even_untrained():
    torch.manual_seed(0)
    cfg = ModelConfig(arch="ar", vocab_size=TOK.vocab_size, d_model=32, layer_pattern="GA", attn_heads=2,
                      attn_head_dim=16, gdn_heads=2, gdn_head_k=16, gdn_head_v=16, n_experts=2, top_k=1,
                      expert_ff=16, shared_ff=16, block_size=4, max_answer_tokens=40)
    model = build_model(cfg).eval()
    msgs = [MSG, "北纬22°38′ 东经113°49′ 半径2公里 真高120米"]
    res = ar_decode(model, [TOK.encode_prompt(m) for m in msgs], TOK, constrain=True)
    for m, ids, fin in zip(msgs, res.ids, res.finished):
        text = TOK.decode(ids)
        fields = text.replace("\u241e", "\u241f").split("\u241f")
        complete = fields if fin else fields[:-1]  # an unfinished answer's last field may still be growing
        assert complete, text
        for f in complete:
            key, eq, value = f.partition("=")
            assert eq and value and value in m, f
        if fin:
            for zone in parse_answer(text):
                assert all(v in m for v in zone.values())


def test_constraint_off_by_default_and_clover_accepts_it():
    torch.manual_seed(1)
    cfg = ModelConfig(arch="clover", vocab_size=TOK.vocab_size, d_model=32, layer_pattern="GA", attn_heads=2,
                      attn_head_dim=16, gdn_heads=2, gdn_head_k=16, gdn_head_v=16, n_experts=2, top_k=1,
                      expert_ff=16, shared_ff=16, block_size=4, max_answer_tokens=8)
    model = build_model(cfg).eval()
    p = [TOK.encode_prompt(MSG)]
    free = clover_decode(model, p, TOK)
    con = clover_decode(model, p, TOK, constrain=True)
    assert con.ids[0] and con.ids[0][0] in set(TOK.key_ids.values()) | {TOK.none_id}
    assert free.forwards >= 1
