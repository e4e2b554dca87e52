"""Readable torch references for the gated delta rule (GDN), layout [B, T, H, D] as in flash-linear-attention.

Recurrence, with the state S_t a K x V matrix per (batch, head):

    S_t = exp(g_t) S_{t-1} + k_t ⊗ beta_t (v_t − (exp(g_t) S_{t-1})ᵀ k_t)
    o_t = scale · S_tᵀ q_t                                  (scale defaults to K ** -0.5)

``naive_recurrent_gated_delta_rule`` is the plain step-by-step loop: the ground truth in tests.
``naive_chunk_gated_delta_rule`` is the chunked WY/UT form the kernels follow:

within a chunk of C positions with cumulative log decay G_i = Σ_{j≤i} g_j, the per-position updates
u_i = beta_i (v_i − (exp(g_i) S_{i-1})ᵀ k_i) satisfy a unit lower-triangular system

    (I + A) U = diag(beta) V − diag(beta · exp(G)) K S_0,     A_ij = beta_i exp(G_i − G_j) k_i·k_j   (j < i)

so with T = (I + A)⁻¹ (the "UT transform"):  U = T diag(beta) V − T diag(beta exp(G)) K S_0 = Ũ − W S_0, and

    O   = scale · (exp(G) ⊙ Q S_0 + (Q Kᵀ ⊙ exp(G_i − G_j))_{j≤i} U)
    S_C = exp(G_C) S_0 + (K ⊙ exp(G_C − G))ᵀ U.

Positions with g = 0 and beta = 0 leave the state unchanged, which is how a ragged tail (T not a multiple of
the chunk) is padded. Both functions are differentiable with autograd; training uses them for the backward.
Arithmetic is fp32 (fp64 when the inputs are fp64); ``o`` comes back in v's dtype, states in fp32/fp64.
"""

from __future__ import annotations

import torch

__all__ = ["naive_recurrent_gated_delta_rule", "naive_chunk_gated_delta_rule", "compute_dtype"]


def compute_dtype(*tensors: torch.Tensor | None) -> torch.dtype:
    """fp64 if any input is fp64, else fp32: the precision every reference computes in."""
    return torch.float64 if any(t is not None and t.dtype == torch.float64 for t in tensors) else torch.float32


def _check(q, k, v, g, beta, initial_state):
    if q.dim() != 4 or k.shape != q.shape:
        raise ValueError(f"q, k must be [B,T,H,K] with equal shapes, got {tuple(q.shape)} and {tuple(k.shape)}")
    B, T, H, K = q.shape
    if v.dim() != 4 or v.shape[:3] != (B, T, H):
        raise ValueError(f"v must be [B,T,H,V] matching q, got {tuple(v.shape)}")
    if g.shape != (B, T, H) or beta.shape != (B, T, H):
        raise ValueError(f"g and beta must be [B,T,H]={B, T, H}, got {tuple(g.shape)} and {tuple(beta.shape)}")
    if initial_state is not None and initial_state.shape != (B, H, K, v.shape[-1]):
        raise ValueError(f"initial_state must be [B,H,K,V]={(B, H, K, v.shape[-1])}, got {tuple(initial_state.shape)}")


def naive_recurrent_gated_delta_rule(q, k, v, g, beta, *, scale=None, initial_state=None, output_states=False):
    """Step-by-step gated delta rule.

    Returns ``(o [B,T,H,V], final_state [B,H,K,V])``, and with ``output_states=True`` a third tensor
    ``states [B,T,H,K,V]`` holding S_t after every step (tests compare chunk boundaries against it).
    """
    _check(q, k, v, g, beta, initial_state)
    B, T, H, K = q.shape
    V = v.shape[-1]
    dt = compute_dtype(q, k, v, g, beta, initial_state)
    scale = K ** -0.5 if scale is None else scale
    q, k, v, g, beta = (x.to(dt) for x in (q, k, v, g, beta))
    S = q.new_zeros(B, H, K, V) if initial_state is None else initial_state.to(dt).clone()
    outs, states = [], []
    for t in range(T):
        S = S * g[:, t].exp()[..., None, None]
        kt, qt = k[:, t], q[:, t]                                     # [B,H,K]
        pred = torch.einsum("bhkv,bhk->bhv", S, kt)
        u = beta[:, t][..., None] * (v[:, t] - pred)                  # [B,H,V]
        S = S + kt[..., :, None] * u[..., None, :]
        outs.append(scale * torch.einsum("bhkv,bhk->bhv", S, qt))
        if output_states:
            states.append(S)
    o = torch.stack(outs, 1) if T else v.new_zeros(B, 0, H, V, dtype=dt)
    o = o.to(v.dtype)
    if output_states:
        st = torch.stack(states, 1) if T else S.new_zeros(B, 0, H, K, V)
        return o, S, st
    return o, S


def naive_chunk_gated_delta_rule(q, k, v, g, beta, *, scale=None, initial_state=None, chunk_size=64,
                                 output_chunk_states=False, output_o=True):
    """Chunked (WY/UT) gated delta rule; same results as the recurrent loop.

    Returns ``(o [B,T,H,V], final_state [B,H,K,V], chunk_states [B,H,NC,K,V] or None)`` where
    ``chunk_states[:, :, n]`` is the state *before* chunk n (n = 0: the initial state, or zeros).
    With ``output_o=False`` only the states are computed (Clover reads a prompt's history through the chunk states
    alone) and ``o`` is None.
    """
    _check(q, k, v, g, beta, initial_state)
    if chunk_size < 1:
        raise ValueError("chunk_size must be >= 1")
    B, T, H, K = q.shape
    V = v.shape[-1]
    C = chunk_size
    dt = compute_dtype(q, k, v, g, beta, initial_state)
    scale = K ** -0.5 if scale is None else scale
    NC = (T + C - 1) // C
    pad = NC * C - T
    # [B,T,H,*] -> [B,H,NC,C,*]; padded positions have g=0, beta=0, k=q=0: they leave the state unchanged.
    def prep(x):
        x = x.to(dt).transpose(1, 2)
        if pad:
            x = torch.nn.functional.pad(x, (0, 0, 0, pad) if x.dim() == 4 else (0, pad))
        return x.reshape(B, H, NC, C, *x.shape[3:])

    qc, kc, vc, gc, bc = prep(q), prep(k), prep(v), prep(g), prep(beta)
    G = gc.cumsum(-1)                                                   # [B,H,NC,C]
    diff = G[..., :, None] - G[..., None, :]                            # G_i - G_j
    idx = torch.arange(C, device=q.device)
    strict = idx[:, None] > idx[None, :]
    incl = idx[:, None] >= idx[None, :]
    gamma = torch.where(incl, diff, torch.full_like(diff, float("-inf"))).exp()   # exp(G_i - G_j), j <= i, else 0
    A = (bc[..., None] * (kc @ kc.transpose(-1, -2)) * gamma).masked_fill(~strict, 0.0)
    eye = torch.eye(C, dtype=dt, device=q.device)
    # T = (I + A)^-1 applied by a unit lower-triangular solve (differentiable).
    L = eye + A
    U_tilde = torch.linalg.solve_triangular(L, bc[..., None] * vc, upper=False, unitriangular=True)
    W = torch.linalg.solve_triangular(L, (bc * G.exp())[..., None] * kc, upper=False, unitriangular=True)
    attn = (qc @ kc.transpose(-1, -2)) * gamma if output_o else None     # [B,H,NC,C,C], zero above diagonal
    decay_to_end = (G[..., -1:] - G).exp()                               # exp(G_C - G_j)
    k_end = (kc * decay_to_end[..., None]).transpose(-1, -2)             # [B,H,NC,K,C]
    S = q.new_zeros(B, H, K, V, dtype=dt) if initial_state is None else initial_state.to(dt)
    outs, before = [], []
    for n in range(NC):
        before.append(S)
        U = U_tilde[:, :, n] - W[:, :, n] @ S                            # [B,H,C,V]
        if output_o:
            o = G[:, :, n].exp()[..., None] * (qc[:, :, n] @ S) + attn[:, :, n] @ U
            outs.append(scale * o)
        S = G[:, :, n, -1].exp()[..., None, None] * S + k_end[:, :, n] @ U
    if not output_o:
        o = None
    elif NC:
        o = torch.stack(outs, 2).reshape(B, H, NC * C, V)[:, :, :T].transpose(1, 2)
    else:
        o = q.new_zeros(B, 0, H, V, dtype=dt)
    chunk_states = (torch.stack(before, 2) if NC else S.new_zeros(B, H, 0, K, V)) if output_chunk_states else None
    return (None if o is None else o.to(v.dtype)), S, chunk_states
