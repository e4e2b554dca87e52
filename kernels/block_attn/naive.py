"""Readable torch reference for in-block attention (the Clover block step).

Every query of the current block attends, in ONE fp32 softmax, over

* an optional extra slot per query (GDN layers: the history readout S_hist·q_i, with its logit already
  carrying the block-size calibration bias the model computed; the logit is used as given, not scaled),
* an optional prefix of cached keys/values (attention layers: the KV cache of committed tokens),
* the block's own keys, both directions (no causal mask inside the block).

Invalid keys (``key_mask``/``prefix_mask`` False) get no weight; a query row with no valid key at all
returns zeros. Differentiable with autograd (training uses this path for the backward).
"""

from __future__ import annotations

import torch

__all__ = ["naive_block_attention"]


def _check(q, k, v, extra_logit, extra_value, prefix_k, prefix_v, prefix_mask, key_mask):
    if q.dim() != 4 or k.shape != q.shape or v.dim() != 4 or v.shape[:3] != q.shape[:3]:
        raise ValueError(f"q, k must be [B,H,L,D] and v [B,H,L,Dv]; got {tuple(q.shape)}, {tuple(k.shape)}, {tuple(v.shape)}")
    B, H, L, _ = q.shape
    Dv = v.shape[-1]
    if (extra_logit is None) != (extra_value is None):
        raise ValueError("extra_logit and extra_value go together")
    if extra_logit is not None and (extra_logit.shape != (B, H, L) or extra_value.shape != (B, H, L, Dv)):
        raise ValueError(f"extra_logit must be [B,H,L] and extra_value [B,H,L,Dv]; got {tuple(extra_logit.shape)}, {tuple(extra_value.shape)}")
    if (prefix_k is None) != (prefix_v is None):
        raise ValueError("prefix_k and prefix_v go together")
    if prefix_k is not None:
        if prefix_k.dim() != 4 or prefix_k.shape[:2] != (B, H) or prefix_k.shape[-1] != q.shape[-1] \
                or prefix_v.shape != (*prefix_k.shape[:3], Dv):
            raise ValueError(f"prefix_k must be [B,H,P,D] and prefix_v [B,H,P,Dv]; got {tuple(prefix_k.shape)}, {tuple(prefix_v.shape)}")
        if prefix_mask is not None and prefix_mask.shape != (B, prefix_k.shape[2]):
            raise ValueError(f"prefix_mask must be [B,P]; got {tuple(prefix_mask.shape)}")
    elif prefix_mask is not None:
        raise ValueError("prefix_mask given without prefix_k")
    if key_mask is not None and key_mask.shape != (B, L):
        raise ValueError(f"key_mask must be [B,L]; got {tuple(key_mask.shape)}")


def naive_block_attention(q, k, v, *, extra_logit=None, extra_value=None, prefix_k=None, prefix_v=None,
                          prefix_mask=None, key_mask=None, scale=None):
    """o [B,H,L,Dv] in q's dtype: softmax over [extra slot ; prefix keys ; block keys] per query."""
    _check(q, k, v, extra_logit, extra_value, prefix_k, prefix_v, prefix_mask, key_mask)
    B, H, L, D = q.shape
    scale = D ** -0.5 if scale is None else scale
    dt = torch.float64 if q.dtype == torch.float64 else torch.float32
    if L == 0:
        return q.new_zeros(B, H, 0, v.shape[-1])
    neg = float("-inf")
    qd = q.to(dt)
    parts = []                                                                       # logits, one group per source
    if extra_logit is not None:
        parts.append(extra_logit.to(dt)[..., None])                                  # [B,H,L,1]
    if prefix_k is not None:
        s = torch.einsum("bhld,bhpd->bhlp", qd, prefix_k.to(dt)) * scale
        if prefix_mask is not None:
            s = s.masked_fill(~prefix_mask[:, None, None, :], neg)
        parts.append(s)
    s = torch.einsum("bhld,bhmd->bhlm", qd, k.to(dt)) * scale
    if key_mask is not None:
        s = s.masked_fill(~key_mask[:, None, None, :], neg)
    parts.append(s)
    s = torch.cat(parts, -1)
    m = s.amax(-1, keepdim=True)
    alive = torch.isfinite(m)
    p = (s - torch.where(alive, m, torch.zeros_like(m))).exp()                       # exp(-inf) = 0 for dead keys
    den = p.sum(-1, keepdim=True)
    p = torch.where(alive, p / den.clamp_min(torch.finfo(dt).tiny), torch.zeros_like(p))
    # Weighted sum per source (no copy of the prefix per query): extra slot, prefix, block.
    o = p[..., -L:] @ v.to(dt)
    if prefix_k is not None:
        P = prefix_k.shape[2]
        o = o + p[..., -L - P:-L] @ prefix_v.to(dt)
    if extra_logit is not None:
        o = o + p[..., :1] * extra_value.to(dt)
    return o.to(q.dtype)
