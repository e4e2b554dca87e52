"""Triton fused recurrent gated delta rule: the one-token (or few-token) decode step.

One program per (batch·head, block of V columns) keeps its K x BV slice of the state in registers and walks
the T tokens in order, doing exactly the recurrence of ``naive_recurrent_gated_delta_rule``:

    S ← exp(g_t) S;   u = beta_t (v_t − Sᵀ k_t);   S ← S + k_t uᵀ;   o_t = scale · Sᵀ q_t

No tl.dot (rank-1 updates and reductions), so any K, V works (padded to powers of two, masked).
Forward only: under autograd the dispatcher uses the torch reference.
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from airspace.kernels.gdn.naive import _check

__all__ = ["fused_recurrent_gated_delta_rule_fwd"]


@triton.jit
def _fused_recurrent_fwd_kernel(q, k, v, g, beta, o, h0, ht, T, H, K, V, scale,
                                BK: tl.constexpr, BV: tl.constexpr, HAS_H0: tl.constexpr):
    i_v = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b = i_bh // H
    i_h = i_bh % H
    o_k = tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    m_k = o_k < K
    m_v = o_v < V
    m_kv = m_k[:, None] & m_v[None, :]
    p_state = i_bh * K * V + o_k[:, None] * V + o_v[None, :]
    if HAS_H0:
        S = tl.load(h0 + p_state, mask=m_kv, other=0.0).to(tl.float32)
    else:
        S = tl.zeros([BK, BV], dtype=tl.float32)
    for t in range(T):
        row = (i_b * T + t) * H + i_h                     # index of (b, t, h) in [B,T,H]
        b_q = tl.load(q + row * K + o_k, mask=m_k, other=0.0).to(tl.float32)
        b_k = tl.load(k + row * K + o_k, mask=m_k, other=0.0).to(tl.float32)
        b_v = tl.load(v + row * V + o_v, mask=m_v, other=0.0).to(tl.float32)
        b_g = tl.load(g + row).to(tl.float32)
        b_beta = tl.load(beta + row).to(tl.float32)
        S = S * tl.exp(b_g)
        u = b_beta * (b_v - tl.sum(S * b_k[:, None], axis=0))
        S = S + b_k[:, None] * u[None, :]
        b_o = tl.sum(S * b_q[:, None], axis=0) * scale
        tl.store(o + row * V + o_v, b_o.to(o.dtype.element_ty), mask=m_v)
    tl.store(ht + p_state, S.to(ht.dtype.element_ty), mask=m_kv)


def fused_recurrent_gated_delta_rule_fwd(q, k, v, g, beta, *, scale=None, initial_state=None):
    """Same contract as ``naive_recurrent_gated_delta_rule`` (without per-step states): (o, final_state fp32)."""
    _check(q, k, v, g, beta, initial_state)
    B, T, H, K = q.shape
    V = v.shape[-1]
    scale = K ** -0.5 if scale is None else float(scale)
    sdt = torch.float64 if initial_state is not None and initial_state.dtype == torch.float64 else torch.float32
    q, k, v, g, beta = (x.contiguous() for x in (q, k, v, g, beta))
    o = torch.empty_like(v)
    ht = torch.empty(B, H, K, V, device=q.device, dtype=sdt)
    h0 = initial_state.contiguous() if initial_state is not None else ht
    BK = triton.next_power_of_2(K)
    BV = min(triton.next_power_of_2(V), 32)        # K=128, BV=32, 4 warps: ~130 registers, no spill on sm_90
    grid = (triton.cdiv(V, BV), B * H)
    _fused_recurrent_fwd_kernel[grid](q, k, v, g, beta, o, h0, ht, T, H, K, V, scale,
                                      BK=BK, BV=BV, HAS_H0=initial_state is not None, num_warps=4)
    return o, ht
