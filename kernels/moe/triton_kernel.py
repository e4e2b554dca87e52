"""Triton routed MoE FFN: top-k routing, tokens sorted by expert, and a grouped SwiGLU matmul.

1. Routing (torch, tiny): softmax over experts, top-k, renormalised weights (``moe.naive.route``).
2. The N·k (token, expert) assignments are sorted by expert (stable), giving contiguous row ranges per expert.
   A tile table maps each program to (expert, first row); it is built on the device with searchsorted over an
   upper bound of ceil(N·k / BM) + E tiles, so there is no host sync and experts with no tokens cost nothing.
3. Kernel A, per (tile, F block): gather the tile's token rows of x, h = silu(x W_gate[e]) * (x W_up[e]).
4. Kernel B, per (tile, D block): y_rows = (h W_down[e]) · routing weight.
5. Rows are summed back per token with index_add (deterministic for a given order).

The shared expert stays in the model. Dots: IEEE fp32 for fp32 inputs, native bf16/fp16 on GPU otherwise
(the interpreter's bf16 tl.dot is broken, triton-lang/triton#11584, so there low precision is upcast).
Forward only: under autograd the dispatcher runs the torch reference.
"""

from __future__ import annotations

import os

import torch
import triton
import triton.language as tl

from airspace.kernels.moe.naive import _check, route

__all__ = ["triton_moe_ffn", "sort_by_expert"]


@triton.jit
def _moe_gate_up_kernel(x, wg, wu, h, tok, tile_e, tile_r0, row_end, D, F, E,
                        BM: tl.constexpr, BD: tl.constexpr, BF: tl.constexpr, LOW: tl.constexpr):
    i_t = tl.program_id(0)
    i_f = tl.program_id(1)
    e = tl.load(tile_e + i_t)
    if e < E:
        r = tl.load(tile_r0 + i_t) + tl.arange(0, BM)
        m_r = r < tl.load(row_end + e)
        t = tl.load(tok + r, mask=m_r, other=0)
        o_f = i_f * BF + tl.arange(0, BF)
        m_f = o_f < F
        acc_g = tl.zeros([BM, BF], dtype=tl.float32)
        acc_u = tl.zeros([BM, BF], dtype=tl.float32)
        for d0 in range(0, D, BD):
            o_d = d0 + tl.arange(0, BD)
            m_d = o_d < D
            b_x = tl.load(x + t[:, None] * D + o_d[None, :], mask=m_r[:, None] & m_d[None, :], other=0.0)
            p_w = e.to(tl.int64) * D * F + o_d[:, None] * F + o_f[None, :]
            b_g = tl.load(wg + p_w, mask=m_d[:, None] & m_f[None, :], other=0.0)
            b_u = tl.load(wu + p_w, mask=m_d[:, None] & m_f[None, :], other=0.0)
            if LOW:
                acc_g += tl.dot(b_x, b_g)
                acc_u += tl.dot(b_x, b_u)
            else:
                b_x = b_x.to(tl.float32)
                acc_g += tl.dot(b_x, b_g.to(tl.float32), input_precision="ieee")
                acc_u += tl.dot(b_x, b_u.to(tl.float32), input_precision="ieee")
        b_h = acc_g / (1.0 + tl.exp(-acc_g)) * acc_u
        tl.store(h + r[:, None] * F + o_f[None, :], b_h.to(h.dtype.element_ty), mask=m_r[:, None] & m_f[None, :])


@triton.jit
def _moe_down_kernel(h, wd, ys, wts, tile_e, tile_r0, row_end, D, F, E,
                     BM: tl.constexpr, BD: tl.constexpr, BF: tl.constexpr, LOW: tl.constexpr):
    i_t = tl.program_id(0)
    i_d = tl.program_id(1)
    e = tl.load(tile_e + i_t)
    if e < E:
        r = tl.load(tile_r0 + i_t) + tl.arange(0, BM)
        m_r = r < tl.load(row_end + e)
        o_d = i_d * BD + tl.arange(0, BD)
        m_d = o_d < D
        acc = tl.zeros([BM, BD], dtype=tl.float32)
        for f0 in range(0, F, BF):
            o_f = f0 + tl.arange(0, BF)
            m_f = o_f < F
            b_h = tl.load(h + r[:, None] * F + o_f[None, :], mask=m_r[:, None] & m_f[None, :], other=0.0)
            b_w = tl.load(wd + e.to(tl.int64) * F * D + o_f[:, None] * D + o_d[None, :],
                          mask=m_f[:, None] & m_d[None, :], other=0.0)
            if LOW:
                acc += tl.dot(b_h, b_w)
            else:
                acc += tl.dot(b_h.to(tl.float32), b_w.to(tl.float32), input_precision="ieee")
        w = tl.load(wts + r, mask=m_r, other=0.0)
        tl.store(ys + r[:, None] * D + o_d[None, :], acc * w[:, None], mask=m_r[:, None] & m_d[None, :])


def sort_by_expert(topk_idx: torch.Tensor, num_experts: int, block_m: int):
    """Sort the N·k assignments by expert and build the tile table (all on the device, no host sync).

    Returns (order [N·k] (flat assignment ids by expert), row_end [E] (end row of each expert's range),
    tile_e [max_tiles] (expert per tile; E = no work), tile_r0 [max_tiles] (first sorted row of each tile)).
    """
    flat = topk_idx.reshape(-1)
    order = torch.argsort(flat, stable=True)
    counts = torch.bincount(flat, minlength=num_experts)
    row_end = counts.cumsum(0)
    tiles = (counts + block_m - 1) // block_m
    tile_end = tiles.cumsum(0)
    max_tiles = (flat.numel() + block_m - 1) // block_m + num_experts
    t = torch.arange(max_tiles, device=flat.device)
    tile_e = torch.searchsorted(tile_end, t, right=True)
    e_safe = tile_e.clamp_max(num_experts - 1)
    first_tile = tile_end[e_safe] - tiles[e_safe]
    tile_r0 = (row_end[e_safe] - counts[e_safe]) + (t - first_tile) * block_m
    return order, row_end.to(torch.int32), tile_e.to(torch.int32), tile_r0.to(torch.int32)


def triton_moe_ffn(x, router_logits, w_gate, w_up, w_down, top_k):
    """Same contract as ``naive_moe_ffn``: (y [N,D] in x's dtype, topk_weight [N,k] fp32, topk_idx [N,k])."""
    _check(x, router_logits, w_gate, w_up, w_down)
    N, D = x.shape
    E, _, F = w_gate.shape
    w, idx = route(router_logits, top_k)
    if N == 0:
        return x.new_zeros(0, D), w, idx
    interpret = os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")
    low = x.dtype in (torch.bfloat16, torch.float16) and not interpret
    BM = 16 if interpret else 64
    order, row_end, tile_e, tile_r0 = sort_by_expert(idx, E, BM)
    tok = (order // top_k).to(torch.int32).contiguous()
    wts = w.reshape(-1)[order].float().contiguous()
    x, w_gate, w_up, w_down = (t.contiguous() for t in (x, w_gate, w_up, w_down))
    R = N * top_k
    h = torch.empty(R, F, device=x.device, dtype=x.dtype if low else torch.float32)
    ys = torch.empty(R, D, device=x.device, dtype=torch.float32)
    # Tiles picked from an ahead-of-time sm_90 compile (no register spills with 8 warps).
    BD = min(64 if low else 32, max(16, triton.next_power_of_2(D)))
    BF = min(64, max(16, triton.next_power_of_2(F)))
    nt = tile_e.numel()
    _moe_gate_up_kernel[(nt, triton.cdiv(F, BF))](x, w_gate, w_up, h, tok, tile_e, tile_r0, row_end, D, F, E,
                                                  BM=BM, BD=BD, BF=BF, LOW=low, num_warps=8)
    _moe_down_kernel[(nt, triton.cdiv(D, BD))](h, w_down, ys, wts, tile_e, tile_r0, row_end, D, F, E,
                                               BM=BM, BD=BD, BF=BF, LOW=low, num_warps=8)
    y = torch.zeros(N, D, device=x.device, dtype=torch.float32).index_add_(0, tok.long(), ys)
    return y.to(x.dtype), w, idx
