"""Small models for the checkpoint tests: real configs, real weights, built in a second."""

from __future__ import annotations

from pathlib import Path

import torch

from airspace.model.build import build_model
from airspace.model.checkpoint import save_checkpoint
from airspace.model.config import ModelConfig
from airspace.model.tokenizer import Tokenizer


def small_model(texts: list[str], *, d: int = 32, noise: float = 0.1):
    """(model, tokenizer): a two-layer Clover of width ``d`` over the characters of ``texts``, seeded, its weights
    moved off their initial values by ``noise`` so that a round trip that loses them shows."""
    tok = Tokenizer.from_texts(texts)
    h = d // 2
    cfg = ModelConfig(arch="clover", vocab_size=tok.vocab_size, d_model=d, layer_pattern="GA", attn_heads=2,
                      attn_head_dim=h, gdn_heads=2, gdn_head_k=h, gdn_head_v=h, n_experts=2, top_k=1,
                      expert_ff=h, shared_ff=h)
    torch.manual_seed(0)
    model = build_model(cfg).eval()
    if noise:
        with torch.no_grad():
            for p in model.parameters():
                p.add_(torch.randn_like(p) * noise)
    return model, tok


def tiny_checkpoint(path: Path) -> Path:
    """A width-16 Clover as initialised, saved: the smallest checkpoint that loads."""
    model, tok = small_model(["北纬22°38′"], d=16, noise=0.0)
    return save_checkpoint(path, model, tok)
