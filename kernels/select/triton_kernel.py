"""Triton confidence select: max softmax probability and argmax over the vocabulary in one pass, then the τ rule.

Kernel A, one program per position (b, l): walks the vocabulary in tiles of BV logits, keeping per lane a
running max, a running sum of exp(x − max) (online softmax) and the first index where the max was seen; at
the end the lanes are merged: conf = 1 / Σ exp(x − max) (= max probability), token = lowest index of the max.
The logits are read exactly once, in their own dtype, and upcast to fp32 in registers.

Kernel B, one program per row: commit = masked & (conf >= τ); a row with masked positions but none passing
commits its ``min_commit`` most confident masked positions (ties -> lowest position); rows with nothing
masked commit nothing.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

__all__ = ["triton_confidence", "triton_confidence_select"]


@triton.jit
def _max_prob_kernel(logits, conf, token, V, BV: tl.constexpr):
    i_row = tl.program_id(0)
    base = logits + i_row.to(tl.int64) * V
    lane = tl.arange(0, BV)
    m = tl.full([BV], float("-inf"), dtype=tl.float32)
    s = tl.zeros([BV], dtype=tl.float32)
    best = tl.zeros([BV], dtype=tl.int32)
    for v0 in range(0, V, BV):
        o_v = v0 + lane
        x = tl.load(base + o_v, mask=o_v < V, other=float("-inf")).to(tl.float32)
        m_new = tl.maximum(m, x)
        m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
        s = s * tl.exp(m - m_safe) + tl.exp(x - m_safe)
        best = tl.where(x > m, o_v, best)                  # strict: keeps the first index of this lane's max
        m = m_new
    M = tl.max(m, axis=0)
    S = tl.sum(s * tl.exp(m - M), axis=0)
    tok = tl.min(tl.where(m == M, best, 2147483647), axis=0)
    tl.store(conf + i_row, 1.0 / S)
    tl.store(token + i_row, tok.to(tl.int64))


@triton.jit
def _tau_rule_kernel(conf, masked, tau, commit, L, min_commit, BL: tl.constexpr):
    i_b = tl.program_id(0)
    o_l = tl.arange(0, BL)
    m_l = o_l < L
    c = tl.load(conf + i_b * L + o_l, mask=m_l, other=-1.0)
    msk = (tl.load(masked + i_b * L + o_l, mask=m_l, other=0) != 0) & m_l
    t = tl.load(tau + i_b)
    passed = msk & (c >= t)
    need = (tl.sum(msk.to(tl.int32), axis=0) > 0) & (tl.sum(passed.to(tl.int32), axis=0) == 0)
    forced = o_l < 0                                              # all False
    for _ in range(min_commit):
        score = tl.where(msk & ~forced, c, -1.0)                  # conf >= 0, so -1 marks "not a candidate"
        top = tl.max(score, axis=0)
        pos = tl.min(tl.where(score == top, o_l, BL), axis=0)
        pos = tl.where(top >= 0.0, pos, BL)                       # no candidate left: pick nothing
        forced = forced | (o_l == pos)
    need_v = (tl.zeros([BL], dtype=tl.int32) + need.to(tl.int32)) != 0
    out = passed | (forced & need_v)
    tl.store(commit + i_b * L + o_l, out.to(tl.int8), mask=m_l)


def triton_confidence(logits: torch.Tensor):
    """(conf [B,L] fp32, token [B,L] int64) from logits [B,L,V] in one pass over the vocabulary."""
    B, L, V = logits.shape
    x = logits.contiguous()
    conf = torch.empty(B, L, device=x.device, dtype=torch.float32)
    token = torch.empty(B, L, device=x.device, dtype=torch.int64)
    if B * L:
        _max_prob_kernel[(B * L,)](x, conf, token, V, BV=min(1024, triton.next_power_of_2(V)))
    return conf, token


def triton_confidence_select(logits: torch.Tensor, masked: torch.Tensor, tau, *, min_commit: int = 1):
    """Same contract as ``naive_confidence_select``: (commit [B,L] bool, token [B,L] int64, conf [B,L] fp32)."""
    if logits.dim() != 3 or masked.shape != logits.shape[:2]:
        raise ValueError(f"logits must be [B,L,V] and masked [B,L]; got {tuple(logits.shape)}, {tuple(masked.shape)}")
    B, L, _ = logits.shape
    conf, token = triton_confidence(logits)
    tau_t = torch.as_tensor(tau, dtype=torch.float32, device=logits.device).reshape(-1).expand(B).contiguous()
    commit = torch.empty(B, L, device=logits.device, dtype=torch.int8)
    if B * L:
        _tau_rule_kernel[(B,)](conf, masked.to(torch.int8).contiguous(), tau_t, commit, L, max(0, int(min_commit)),
                               BL=triton.next_power_of_2(L))
    return commit.bool(), token, conf
