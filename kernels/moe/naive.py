"""Readable torch reference for the routed mixture-of-experts FFN (SwiGLU experts).

Router: softmax over E experts (fp32), top-k, weights renormalised to sum to 1 per token.
Expert e: down_e(silu(x W_gate[e]) * (x W_up[e])). y_n = Σ_k w_nk · expert_{idx_nk}(x_n).
The shared expert and the aux loss stay in the model; ``moe_aux_loss`` is offered here for it.
Differentiable with autograd (training uses this path).
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

__all__ = ["route", "naive_moe_ffn", "moe_aux_loss"]


def route(router_logits: torch.Tensor, top_k: int):
    """Softmax router -> (topk_weight [N,k] fp32 renormalised, topk_idx [N,k] int64), highest first."""
    if router_logits.dim() != 2:
        raise ValueError(f"router_logits must be [N,E], got {tuple(router_logits.shape)}")
    E = router_logits.shape[-1]
    if not 1 <= top_k <= E:
        raise ValueError(f"top_k must be in [1, E={E}], got {top_k}")
    dt = torch.float64 if router_logits.dtype == torch.float64 else torch.float32
    probs = router_logits.to(dt).softmax(-1)
    w, idx = probs.topk(top_k, dim=-1)
    w = w / w.sum(-1, keepdim=True)
    return w, idx


def _check(x, router_logits, w_gate, w_up, w_down):
    if x.dim() != 2 or router_logits.shape[0] != x.shape[0]:
        raise ValueError(f"x must be [N,D] and router_logits [N,E]; got {tuple(x.shape)}, {tuple(router_logits.shape)}")
    N, D = x.shape
    E = router_logits.shape[1]
    if w_gate.dim() != 3 or w_gate.shape[:2] != (E, D) or w_up.shape != w_gate.shape:
        raise ValueError(f"w_gate/w_up must be [E,D,F]=[{E},{D},F]; got {tuple(w_gate.shape)}, {tuple(w_up.shape)}")
    if w_down.shape != (E, w_gate.shape[2], D):
        raise ValueError(f"w_down must be [E,F,D]; got {tuple(w_down.shape)}")


def naive_moe_ffn(x, router_logits, w_gate, w_up, w_down, top_k):
    """Returns (y [N,D] in x's dtype, topk_weight [N,k] fp32, topk_idx [N,k] int64). Loops over experts."""
    _check(x, router_logits, w_gate, w_up, w_down)
    w, idx = route(router_logits, top_k)
    dt = w.dtype
    y = x.new_zeros(x.shape, dtype=dt)
    E = router_logits.shape[1]
    for e in range(E):
        tok, slot = (idx == e).nonzero(as_tuple=True)
        if tok.numel() == 0:
            continue
        xe = x[tok].to(dt)
        h = F.silu(xe @ w_gate[e].to(dt)) * (xe @ w_up[e].to(dt))
        ye = (h @ w_down[e].to(dt)) * w[tok, slot][:, None]
        y.index_add_(0, tok, ye)  # in place: one pass per expert, no copy of y
    return y.to(x.dtype), w, idx


def moe_aux_loss(router_logits: torch.Tensor, topk_idx: torch.Tensor, num_experts: int) -> torch.Tensor:
    """Switch-style load-balancing loss E · Σ_e f_e · P_e (= 1 when perfectly balanced).

    f_e: fraction of the N·k routed assignments that went to expert e (no gradient); P_e: mean router
    probability of expert e (carries the gradient).
    """
    probs = router_logits.float().softmax(-1).reshape(-1, num_experts)
    counts = torch.bincount(topk_idx.reshape(-1), minlength=num_experts).to(probs.dtype)
    f = counts / counts.sum().clamp_min(1)
    return num_experts * (f * probs.mean(0)).sum()
