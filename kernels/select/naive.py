"""Readable torch reference for confidence select (one decoding step of block diffusion).

conf = max softmax probability (fp32) and token = argmax over the vocabulary, per position.
Rule: commit = masked & (conf >= tau); a row that still has masked positions but none passing commits its
``min_commit`` most confident masked positions (ties -> lowest position); rows with nothing masked commit nothing.
"""

from __future__ import annotations

import torch

__all__ = ["naive_confidence", "tau_rule", "naive_confidence_select"]


def naive_confidence(logits: torch.Tensor):
    """(conf [B,L] fp32, token [B,L] int64) from logits [B,L,V]; argmax ties -> lowest token id."""
    lf = logits.float()
    m = lf.amax(-1, keepdim=True)
    conf = 1.0 / (lf - m).exp().sum(-1)
    token = lf.argmax(-1)
    return conf, token


def tau_rule(conf: torch.Tensor, masked: torch.Tensor, tau, min_commit: int = 1) -> torch.Tensor:
    """Commit mask [B,L] bool from per-position confidence and the still-masked positions."""
    if conf.shape != masked.shape:
        raise ValueError(f"conf and masked must have the same [B,L] shape; got {tuple(conf.shape)}, {tuple(masked.shape)}")
    masked = masked.bool()
    tau_t = torch.as_tensor(tau, dtype=conf.dtype, device=conf.device)
    if tau_t.dim() == 1:
        tau_t = tau_t[:, None]
    commit = masked & (conf >= tau_t)
    need = masked.any(-1) & ~commit.any(-1)                                     # rows to force
    if need.any() and min_commit > 0:
        score = conf.masked_fill(~masked, float("-inf"))
        order = torch.sort(score, dim=-1, descending=True, stable=True).indices   # ties: lowest position first
        rank = torch.empty_like(order)
        rank.scatter_(-1, order, torch.arange(conf.shape[-1], device=conf.device).expand_as(order))
        forced = masked & (rank < min_commit) & need[:, None]
        commit = commit | forced
    return commit


def naive_confidence_select(logits: torch.Tensor, masked: torch.Tensor, tau, *, min_commit: int = 1):
    """Returns (commit [B,L] bool, token [B,L] int64, conf [B,L] fp32)."""
    if logits.dim() != 3 or masked.shape != logits.shape[:2]:
        raise ValueError(f"logits must be [B,L,V] and masked [B,L]; got {tuple(logits.shape)}, {tuple(masked.shape)}")
    conf, token = naive_confidence(logits)
    return tau_rule(conf, masked, tau, min_commit), token, conf
