"""Triton chunked gated delta rule forward (WY/UT form) with initial state, final state and per-chunk states.

One program per (batch·head, block of BV value columns) keeps its K x BV slice of the state in registers and walks
the chunks in order. Per chunk of C positions (G = within-chunk cumulative log decay, see gdn/naive.py):

    rhs = diag(beta) (V − exp(G) ⊙ K S_0)                    tl.dot [C,K]x[K,BV]
    (I + A) U = rhs,  A_ij = beta_i exp(G_i − G_j) k_i·k_j  (j < i)   forward substitution, row by row
    O   = scale (exp(G) ⊙ Q S_0 + (Q Kᵀ ⊙ Γ) U)                 tl.dot
    S_C = exp(G_C) S_0 + (K ⊙ exp(G_C − G))ᵀ U                 tl.dot

Solving for U directly (instead of forming T = (I+A)⁻¹ and W) keeps the kernel to one pass, because the
state S_0 is already known when the chunk is processed. The result does not depend on how the sequence is cut,
so the kernel walks steps of SUB rows, SUB = the largest divisor of the caller's chunk size that is <= 16, in a
16-row tile (tl.dot needs >= 16 rows), and writes the per-chunk states every C / SUB steps. Small steps keep
every tile in registers on sm_90 (checked with an ahead-of-time compile: no spills for K <= 128 in bf16 with
BV = 32 and 8 warps; fp32 spills a little at K = 128). Rows past the step or past T load g = 0, beta = 0,
k = q = 0 and leave the state unchanged. All arithmetic is fp32: tf32 dots for bf16/fp16 inputs, 3xTF32
(about fp32 accuracy) for fp32 inputs.

Forward only: under autograd the dispatcher runs the torch reference (training differentiates through it).
"""

from __future__ import annotations

import torch
import triton
import triton.language as tl

from airspace.kernels.gdn.naive import _check

__all__ = ["chunk_gated_delta_rule_fwd"]


@triton.jit
def _chunk_gdn_fwd_kernel(q, k, v, g, beta, o, h0, ht, hs, T, H, K, V, SUB, NS, EVERY, NC, scale,
                          BC: tl.constexpr, BK: tl.constexpr, BV: tl.constexpr, HAS_H0: tl.constexpr,
                          STORE_STATES: tl.constexpr, DOT_PREC: tl.constexpr):
    i_v = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b = i_bh // H
    i_h = i_bh % H
    o_k = tl.arange(0, BK)
    o_v = i_v * BV + tl.arange(0, BV)
    o_r = tl.arange(0, BC)
    m_k = o_k < K
    m_v = o_v < V
    m_kv = m_k[:, None] & m_v[None, :]
    strict = o_r[:, None] > o_r[None, :]
    incl = o_r[:, None] >= o_r[None, :]
    p_state = o_k[:, None] * V + o_v[None, :]
    if HAS_H0:
        S = tl.load(h0 + i_bh * K * V + p_state, mask=m_kv, other=0.0).to(tl.float32)
    else:
        S = tl.zeros([BK, BV], dtype=tl.float32)
    for n in range(NS):
        if STORE_STATES:
            if n % EVERY == 0:                                                 # the state before chunk n / EVERY
                tl.store(hs + (i_bh * NC + n // EVERY) * K * V + p_state, S.to(hs.dtype.element_ty), mask=m_kv)
        t = n * SUB + o_r
        m_t = (o_r < SUB) & (t < T)
        row = (i_b * T + t) * H + i_h                                          # (b, t, h) in [B,T,H]
        b_q = tl.load(q + row[:, None] * K + o_k[None, :], mask=m_t[:, None] & m_k[None, :], other=0.0).to(tl.float32)
        b_k = tl.load(k + row[:, None] * K + o_k[None, :], mask=m_t[:, None] & m_k[None, :], other=0.0).to(tl.float32)
        b_v = tl.load(v + row[:, None] * V + o_v[None, :], mask=m_t[:, None] & m_v[None, :], other=0.0).to(tl.float32)
        b_g = tl.load(g + row, mask=m_t, other=0.0).to(tl.float32)
        b_beta = tl.load(beta + row, mask=m_t, other=0.0).to(tl.float32)
        G = tl.cumsum(b_g, axis=0)
        G_last = tl.sum(b_g, axis=0)
        gamma = tl.where(incl, tl.exp(tl.where(incl, G[:, None] - G[None, :], 0.0)), 0.0)
        kk = tl.dot(b_k, tl.trans(b_k), input_precision=DOT_PREC)
        A = tl.where(strict, b_beta[:, None] * kk * gamma, 0.0)
        eG = tl.exp(G)
        U = b_beta[:, None] * (b_v - eG[:, None] * tl.dot(b_k, S, input_precision=DOT_PREC))
        for i in range(1, BC):                                                 # (I + A) U = rhs, row by row
            a_i = tl.sum(tl.where(o_r[:, None] == i, A, 0.0), axis=0)           # row i of A, indexed by j
            delta = tl.sum(a_i[:, None] * U, axis=0)
            U = tl.where(o_r[:, None] == i, U - delta[None, :], U)
        qk = tl.dot(b_q, tl.trans(b_k), input_precision=DOT_PREC) * gamma
        b_o = eG[:, None] * tl.dot(b_q, S, input_precision=DOT_PREC) + tl.dot(qk, U, input_precision=DOT_PREC)
        tl.store(o + row[:, None] * V + o_v[None, :], (b_o * scale).to(o.dtype.element_ty),
                 mask=m_t[:, None] & m_v[None, :])
        k_dec = b_k * tl.exp(G_last - G)[:, None]
        S = tl.exp(G_last) * S + tl.dot(tl.trans(k_dec), U, input_precision=DOT_PREC)
    tl.store(ht + i_bh * K * V + p_state, S.to(ht.dtype.element_ty), mask=m_kv)


def chunk_gated_delta_rule_fwd(q, k, v, g, beta, *, scale=None, initial_state=None, chunk_size=64,
                               output_chunk_states=False, output_o=True):
    """Same contract as ``naive_chunk_gated_delta_rule``: (o, final_state fp32, chunk_states or None); with
    ``output_o=False`` the kernel still writes o (one pass computes both) and None is returned for it."""
    _check(q, k, v, g, beta, initial_state)
    if chunk_size < 1:
        raise ValueError("chunk_size must be >= 1")
    B, T, H, K = q.shape
    V = v.shape[-1]
    C = int(chunk_size)
    NC = triton.cdiv(T, C)
    scale = K ** -0.5 if scale is None else float(scale)
    q, k, v, g, beta = (x.contiguous() for x in (q, k, v, g, beta))
    o = torch.empty_like(v)
    ht = torch.empty(B, H, K, V, device=q.device, dtype=torch.float32)
    hs = torch.empty(B, H, NC, K, V, device=q.device, dtype=torch.float32) if output_chunk_states else ht
    h0 = initial_state.contiguous() if initial_state is not None else ht
    SUB = max(d for d in range(1, min(C, 16) + 1) if C % d == 0)
    BK = max(16, triton.next_power_of_2(K))
    BV = min(max(16, triton.next_power_of_2(V)), 32)
    low = q.dtype in (torch.bfloat16, torch.float16)
    grid = (triton.cdiv(V, BV), B * H)
    _chunk_gdn_fwd_kernel[grid](q, k, v, g, beta, o, h0, ht, hs, T, H, K, V, SUB, triton.cdiv(T, SUB), C // SUB, NC,
                                scale, BC=16, BK=BK, BV=BV, HAS_H0=initial_state is not None,
                                STORE_STATES=output_chunk_states, DOT_PREC="tf32" if low else "tf32x3",
                                num_warps=8)
    return (o if output_o else None), ht, (hs if output_chunk_states else None)
