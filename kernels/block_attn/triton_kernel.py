"""Triton in-block attention: one online softmax per query over [extra slot ; prefix keys ; block keys].

One program per (batch·head, tile of BM block queries). The running max / sum / accumulator start from the
extra slot (the GDN history readout: logit as given, value S_hist·q_i) when there is one, then fold in the
prefix (KV cache, masked by prefix_mask) and the block's own keys (masked by key_mask; no causal mask inside
the block), tile by tile, as in flash attention. Softmax statistics are fp32; rows that never see a valid
key return zeros. Dots: IEEE fp32 for fp32 inputs, native bf16/fp16 operands with fp32 accumulation otherwise
(on GPU; the Triton interpreter multiplies bf16 bit patterns in tl.dot, triton-lang/triton#11584, so under
TRITON_INTERPRET=1 low-precision inputs are upcast and dotted in fp32).

Forward only: under autograd the dispatcher runs the torch reference.
"""

from __future__ import annotations

import os

import torch
import triton
import triton.language as tl

from airspace.kernels.block_attn.naive import _check

__all__ = ["triton_block_attention"]


@triton.jit
def _online_update(m, l, acc, s, b_v, LOW: tl.constexpr):
    m_new = tl.maximum(m, tl.max(s, axis=1))
    m_safe = tl.where(m_new == float("-inf"), 0.0, m_new)
    alpha = tl.exp(m - m_safe)
    p = tl.exp(s - m_safe[:, None])
    l = l * alpha + tl.sum(p, axis=1)
    if LOW:
        pv = tl.dot(p.to(b_v.dtype), b_v)
    else:
        pv = tl.dot(p, b_v.to(tl.float32), input_precision="ieee")
    acc = acc * alpha[:, None] + pv
    return m_new, l, acc


@triton.jit
def _block_attn_fwd_kernel(q, k, v, el, ev, pk, pv, pmask, kmask, o, H, L, P, D, DV, scale,
                           BM: tl.constexpr, BN: tl.constexpr, BD: tl.constexpr, BDV: tl.constexpr,
                           HAS_EXTRA: tl.constexpr, HAS_PREFIX: tl.constexpr, HAS_PMASK: tl.constexpr,
                           HAS_KMASK: tl.constexpr, LOW: tl.constexpr):
    i_m = tl.program_id(0)
    i_bh = tl.program_id(1)
    i_b = i_bh // H
    o_m = i_m * BM + tl.arange(0, BM)
    o_d = tl.arange(0, BD)
    o_dv = tl.arange(0, BDV)
    o_n = tl.arange(0, BN)
    m_m = o_m < L
    m_d = o_d < D
    m_dv = o_dv < DV
    b_q = tl.load(q + (i_bh * L + o_m)[:, None] * D + o_d[None, :], mask=m_m[:, None] & m_d[None, :], other=0.0)
    if not LOW:
        b_q = b_q.to(tl.float32)
    if HAS_EXTRA:
        m = tl.load(el + i_bh * L + o_m, mask=m_m, other=float("-inf")).to(tl.float32)
        l = tl.where(m == float("-inf"), 0.0, 1.0)
        acc = tl.load(ev + (i_bh * L + o_m)[:, None] * DV + o_dv[None, :], mask=m_m[:, None] & m_dv[None, :],
                      other=0.0).to(tl.float32)
        acc = acc * l[:, None]
    else:
        m = tl.full([BM], float("-inf"), dtype=tl.float32)
        l = tl.zeros([BM], dtype=tl.float32)
        acc = tl.zeros([BM, BDV], dtype=tl.float32)
    if HAS_PREFIX:
        for start in range(0, P, BN):
            n = start + o_n
            valid = n < P
            if HAS_PMASK:
                valid = valid & (tl.load(pmask + i_b * P + n, mask=n < P, other=0) != 0)
            b_k = tl.load(pk + (i_bh * P + n)[:, None] * D + o_d[None, :], mask=(n < P)[:, None] & m_d[None, :], other=0.0)
            b_v = tl.load(pv + (i_bh * P + n)[:, None] * DV + o_dv[None, :], mask=(n < P)[:, None] & m_dv[None, :], other=0.0)
            if LOW:
                s = tl.dot(b_q, tl.trans(b_k)) * scale
            else:
                s = tl.dot(b_q, tl.trans(b_k.to(tl.float32)), input_precision="ieee") * scale
            s = tl.where(valid[None, :], s, float("-inf"))
            m, l, acc = _online_update(m, l, acc, s, b_v, LOW)
    for start in range(0, L, BN):
        n = start + o_n
        valid = n < L
        if HAS_KMASK:
            valid = valid & (tl.load(kmask + i_b * L + n, mask=n < L, other=0) != 0)
        b_k = tl.load(k + (i_bh * L + n)[:, None] * D + o_d[None, :], mask=(n < L)[:, None] & m_d[None, :], other=0.0)
        b_v = tl.load(v + (i_bh * L + n)[:, None] * DV + o_dv[None, :], mask=(n < L)[:, None] & m_dv[None, :], other=0.0)
        if LOW:
            s = tl.dot(b_q, tl.trans(b_k)) * scale
        else:
            s = tl.dot(b_q, tl.trans(b_k.to(tl.float32)), input_precision="ieee") * scale
        s = tl.where(valid[None, :], s, float("-inf"))
        m, l, acc = _online_update(m, l, acc, s, b_v, LOW)
    out = tl.where(l[:, None] > 0, acc / tl.where(l > 0, l, 1.0)[:, None], 0.0)
    tl.store(o + (i_bh * L + o_m)[:, None] * DV + o_dv[None, :], out.to(o.dtype.element_ty),
             mask=m_m[:, None] & m_dv[None, :])


def triton_block_attention(q, k, v, *, extra_logit=None, extra_value=None, prefix_k=None, prefix_v=None,
                           prefix_mask=None, key_mask=None, scale=None):
    """Same contract as ``naive_block_attention``: o [B,H,L,Dv] in q's dtype."""
    _check(q, k, v, extra_logit, extra_value, prefix_k, prefix_v, prefix_mask, key_mask)
    B, H, L, D = q.shape
    DV = v.shape[-1]
    scale = D ** -0.5 if scale is None else float(scale)
    interpret = os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")
    low = q.dtype in (torch.bfloat16, torch.float16) and not interpret
    cdt = q.dtype if low else torch.float32
    out_dtype = q.dtype
    q, k, v = (x.to(cdt).contiguous() for x in (q, k, v))
    o = torch.empty(B, H, L, DV, device=q.device, dtype=out_dtype)
    has_extra = extra_logit is not None
    has_prefix = prefix_k is not None
    el = extra_logit.float().contiguous() if has_extra else o
    ev = extra_value.contiguous() if has_extra else o
    pk = prefix_k.to(cdt).contiguous() if has_prefix else q
    pv = prefix_v.to(cdt).contiguous() if has_prefix else v
    P = prefix_k.shape[2] if has_prefix else 0
    pm = prefix_mask.to(torch.uint8).contiguous() if prefix_mask is not None else o
    km = key_mask.to(torch.uint8).contiguous() if key_mask is not None else o
    # Tiles picked from an ahead-of-time sm_90 compile (no register spills at D <= 64): bf16 64x32, fp32 32x32.
    BM = min(64 if low else 32, max(16, triton.next_power_of_2(L)))
    BN = min(32, max(16, triton.next_power_of_2(max(L, P))))
    BD = max(16, triton.next_power_of_2(D))
    BDV = max(16, triton.next_power_of_2(DV))
    grid = (triton.cdiv(L, BM), B * H)
    _block_attn_fwd_kernel[grid](q, k, v, el, ev, pk, pv, pm, km, o, H, L, P, D, DV, scale,
                                 BM=BM, BN=BN, BD=BD, BDV=BDV, HAS_EXTRA=has_extra, HAS_PREFIX=has_prefix,
                                 HAS_PMASK=prefix_mask is not None, HAS_KMASK=key_mask is not None, LOW=low,
                                 num_warps=8)
    return o
