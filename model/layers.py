"""Layers of the hybrid backbone: RMSNorm, RoPE, gated DeltaNet, gated softmax attention, MoE FFN.

Every mixer layer takes one forward "segment" description (``SegCtx``) and an optional per-layer cache, so the
same code serves training, prefill, block decoding and AR decoding:

* ``clean`` tokens (Tc of them) extend the committed history: they update the GDN state / KV cache.
* ``noisy`` blocks (Clover only; Tn tokens, a multiple of the block size) are queries that see the history
  before a given clean block (``noisy_hist``) plus their own block in both directions; they change no cache.

Clover (``SegCtx.block_causal``): clean tokens are processed block-causally (each block of B tokens sees the
history before it and itself bidirectionally), exactly like a noisy block with no masks, so committing a finished
block at decode time is the same computation as in training; its GDN layers are ``BlockGatedDeltaNet``. AR: clean
tokens are fully causal, there are no noisy tokens, and its GDN layers are the plain ``GatedDeltaNet``.

All the special math (chunked/recurrent delta rule, in-block attention with the history slot, routed experts)
goes through ``airspace.kernels.ops``.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field

import torch
import torch.nn as nn
import torch.nn.functional as F

from airspace.kernels import ops
from airspace.model.config import ModelConfig


# ---------------------------------------------------------------------------------------------------- contexts
@dataclass
class SegCtx:
    """What one forward call processes (shared by every layer of that call)."""

    block_causal: bool  # clean tokens see their own block both ways (Clover); else fully causal (AR)
    block_size: int
    clean_valid: torch.Tensor  # [B, Tc] bool (False = padding)
    noisy_valid: torch.Tensor  # [B, Tn] bool
    noisy_hist: torch.Tensor  # [Tn // block] long: clean-block index whose "state before" is the history
    positions: torch.Tensor  # [Tc + Tn] long (RoPE)
    prefix_valid: torch.Tensor | None  # [B, P] bool: cached tokens (None = no cache)
    attn_mask: torch.Tensor | None = None  # [B, 1, Tc+Tn, P+Tc+Tn] bool, built lazily
    _bias: dict = field(default_factory=dict)  # dtype -> additive mask (0 / -inf), built lazily
    _rope: dict = field(default_factory=dict)  # (theta, D, dtype) -> (cos, sin) at ``positions``

    @property
    def Tc(self) -> int:
        return self.clean_valid.shape[1]

    @property
    def Tn(self) -> int:
        return self.noisy_valid.shape[1]

    def single_block_query(self) -> bool:
        """Only one query block and nothing to commit: the in-block attention kernel with a KV prefix applies."""
        if self.block_causal:
            return self.Tc == 0 and self.Tn == self.block_size
        return self.Tn == 0 and self.Tc == 1

    def mask(self) -> torch.Tensor:
        if self.attn_mask is None:
            self.attn_mask = build_attn_mask(self)
        return self.attn_mask

    def bias(self, dtype: torch.dtype) -> torch.Tensor:
        """The mask as an additive bias (0 where allowed, -inf elsewhere): SDPA's float-mask path is faster on CPU
        than its boolean one, and every attention layer of the call shares it."""
        if dtype not in self._bias:
            m = self.mask()
            self._bias[dtype] = torch.zeros(m.shape, dtype=dtype, device=m.device).masked_fill_(~m, float("-inf"))
        return self._bias[dtype]

    def rope_tables(self, theta: float, D: int, dtype: torch.dtype) -> tuple[torch.Tensor, torch.Tensor]:
        """(cos, sin) [T, D/2] of this call's positions, computed once for every attention layer, q and k."""
        key = (theta, D, dtype)
        if key not in self._rope:
            self._rope[key] = rope_tables(self.positions, theta, D, dtype)
        return self._rope[key]


def build_attn_mask(ctx: SegCtx) -> torch.Tensor:
    """Boolean attention mask (True = may attend) over keys [prefix ; clean ; noisy] for queries [clean ; noisy]."""
    Tc, Tn, bs = ctx.Tc, ctx.Tn, ctx.block_size
    dev = ctx.clean_valid.device
    Bn = ctx.clean_valid.shape[0]
    P = 0 if ctx.prefix_valid is None else ctx.prefix_valid.shape[1]
    ic = torch.arange(Tc, device=dev)
    if ctx.block_causal:
        cb = ic // bs
        cc = cb[None, :] <= cb[:, None]  # clean query -> clean key: same or earlier block
    else:
        cc = ic[None, :] <= ic[:, None]  # causal
    struct = torch.zeros(Tc + Tn, Tc + Tn, dtype=torch.bool, device=dev)
    struct[:Tc, :Tc] = cc
    if Tn:
        nb = torch.arange(Tn, device=dev) // bs
        hist = ctx.noisy_hist.to(dev)[nb]  # [Tn]
        struct[Tc:, :Tc] = (ic // bs)[None, :] < hist[:, None]
        struct[Tc:, Tc:] = nb[None, :] == nb[:, None]
    valid = torch.cat([ctx.clean_valid, ctx.noisy_valid], 1)  # [B, Tc+Tn]
    m = struct[None] & valid[:, None, :]
    if P:
        m = torch.cat([ctx.prefix_valid[:, None, :].expand(Bn, Tc + Tn, P), m], 2)
    # a padding query may see no valid key at all: let it see itself (its output is never used)
    eye = torch.eye(Tc + Tn, dtype=torch.bool, device=dev)
    m[:, :, P:] |= eye[None]
    return m[:, None]


# ---------------------------------------------------------------------------------------------------- basics
class RMSNorm(nn.Module):
    def __init__(self, dim: int, eps: float = 1e-6):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        xf = upcast(x)
        return F.rms_norm(xf, (xf.shape[-1],), self.weight.to(xf.dtype), self.eps).to(x.dtype)


def upcast(x: torch.Tensor) -> torch.Tensor:
    """fp32 for half types, fp64 stays fp64 (tests run the model in fp64)."""
    return x if x.dtype == torch.float64 else x.float()


def rope_tables(positions: torch.Tensor, theta: float, D: int, dtype: torch.dtype):
    """(cos, sin) [T, D/2] in ``dtype`` for integer positions [T] (angles computed in fp32, fp64 for fp64)."""
    half = D // 2
    dt = torch.float64 if dtype == torch.float64 else torch.float32
    inv = 1.0 / (theta ** (torch.arange(half, device=positions.device, dtype=dt) / half))
    ang = positions.to(dt)[:, None] * inv[None, :]  # [T, half]
    return ang.cos().to(dtype), ang.sin().to(dtype)


def rope(x: torch.Tensor, positions: torch.Tensor, theta: float, tables=None) -> torch.Tensor:
    """Rotary embedding on x [B, H, T, D] at integer positions [T] (half-split layout); ``tables`` = precomputed
    ``rope_tables`` of those positions."""
    half = x.shape[-1] // 2
    cos, sin = tables if tables is not None else rope_tables(positions, theta, x.shape[-1], x.dtype)
    x1, x2 = x[..., :half], x[..., half:]
    return torch.cat([x1 * cos - x2 * sin, x1 * sin + x2 * cos], -1)


def l2norm(x: torch.Tensor, eps: float = 1e-6) -> torch.Tensor:
    return x * torch.rsqrt(upcast(x).pow(2).sum(-1, keepdim=True) + eps).to(x.dtype)


def depthwise_conv(x: torch.Tensor, w: torch.Tensor) -> torch.Tensor:
    """'Valid' depthwise conv along time: x [N, T, C], w [C, k] -> [N, T - k + 1, C] (contiguous), as k shifted
    multiply-adds: cheaper than conv1d's CPU backward for k = 3..4, and at inference (in place) steadier than its
    forward, whose CPU time varies several-fold from call to call on the same input."""
    k = w.shape[1]
    L = x.shape[1] - k + 1
    w = w.to(x.dtype)
    in_place = not torch.is_grad_enabled()  # autograd needs each tap's output kept
    y = x[:, 0:L] * w[:, 0]
    for j in range(1, k):
        y = y.addcmul_(x[:, j:j + L], w[:, j]) if in_place else y + x[:, j:j + L] * w[:, j]
    return y


# ---------------------------------------------------------------------------------------------------- caches
@dataclass
class GDNCache:
    state: torch.Tensor  # [B, H, K, V] fp32
    conv: torch.Tensor  # [B, conv_size - 1, C]: pre-conv features of the last committed tokens


@dataclass
class AttnCache:
    k: torch.Tensor  # [B, H, P, D] (after RoPE)
    v: torch.Tensor  # [B, H, P, D]


# ---------------------------------------------------------------------------------------------------- GDN
class GatedDeltaNet(nn.Module):
    """Gated DeltaNet mixer, causal (the AR baseline): o_t = S_tᵀ q_t of the gated delta rule (chunked for
    prompts, recurrent for single steps)."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        D, H, K, V = cfg.d_model, cfg.gdn_heads, cfg.gdn_head_k, cfg.gdn_head_v
        self.H, self.K, self.V, self.cs = H, K, V, cfg.conv_size
        self.C = 2 * H * K + H * V
        self.in_proj = nn.Linear(D, self.C, bias=False)
        self.z_proj = nn.Linear(D, H * V, bias=False)
        self.ab_proj = nn.Linear(D, 2 * H, bias=True)
        self.conv_w = nn.Parameter(torch.empty(self.C, self.cs).uniform_(-1.0, 1.0) / math.sqrt(self.cs))
        self.A_log = nn.Parameter(torch.log(torch.empty(H).uniform_(1.0, 16.0)))
        dt = torch.exp(torch.empty(H).uniform_(math.log(1e-3), math.log(1e-1)))
        self.dt_bias = nn.Parameter(dt + torch.log(-torch.expm1(-dt)))  # inverse softplus
        self.o_norm = RMSNorm(V, cfg.norm_eps)
        self.out_proj = nn.Linear(H * V, D, bias=False)

    def empty_cache(self, B: int, device, dtype) -> GDNCache:
        sdt = torch.float64 if dtype == torch.float64 else torch.float32
        return GDNCache(torch.zeros(B, self.H, self.K, self.V, device=device, dtype=sdt),
                        torch.zeros(B, self.cs - 1, self.C, device=device, dtype=dtype))

    def _project(self, x: torch.Tensor, ctx: SegCtx) -> torch.Tensor:
        """Pre-conv q/k/v features [B, T, C]; padding contributes nothing to any conv (no bias)."""
        valid = torch.cat([ctx.clean_valid, ctx.noisy_valid], 1)
        return self.in_proj(x * valid[..., None].to(x.dtype))

    def _causal_conv(self, u: torch.Tensor, ctx: SegCtx, cache: GDNCache):
        """Causal depthwise conv over [conv tail ; clean] (each noisy block continues the clean tokens before it).
        Returns (features [B, T, C], new conv tail)."""
        B = u.shape[0]
        Tc, Tn, bs = ctx.Tc, ctx.Tn, ctx.block_size
        seq = torch.cat([cache.conv.to(u.dtype), u[:, :Tc]], 1)  # [B, cs-1+Tc, C]
        conv_c = depthwise_conv(seq, self.conv_w) if Tc else u[:, :0]  # [B, Tc, C]
        new_conv = seq[:, seq.shape[1] - (self.cs - 1):]
        parts = [conv_c]
        if Tn:
            nbN = Tn // bs
            hist = ctx.noisy_hist.to(u.device)
            idx = hist[:, None] * bs + torch.arange(self.cs - 1, device=u.device)[None, :]  # [nbN, cs-1]
            prev = seq[:, idx.reshape(-1)].reshape(B, nbN, self.cs - 1, self.C)
            blocks = u[:, Tc:].reshape(B, nbN, bs, self.C)
            ext = torch.cat([prev, blocks], 2).reshape(B * nbN, self.cs - 1 + bs, self.C)
            parts.append(depthwise_conv(ext, self.conv_w).reshape(B, Tn, self.C))
        c = torch.cat(parts, 1) if Tc and Tn else parts[-1]  # the clean or the noisy part alone: no copy
        return c, new_conv

    def conv_features(self, x: torch.Tensor, ctx: SegCtx, cache: GDNCache):
        """q/k/v features before SiLU -> (features [B, T, C], new conv tail)."""
        return self._causal_conv(self._project(x, ctx), ctx, cache)

    def forward(self, x: torch.Tensor, ctx: SegCtx, cache: GDNCache | None):
        B, T, _ = x.shape
        if cache is None:
            cache = self.empty_cache(B, x.device, x.dtype)
        valid = torch.cat([ctx.clean_valid, ctx.noisy_valid], 1)
        c, new_conv = self.conv_features(x, ctx, cache)
        c = F.silu(c)
        H, K, V = self.H, self.K, self.V
        q, k, v = c.split([H * K, H * K, H * V], -1)
        q = l2norm(q.reshape(B, T, H, K))
        k = l2norm(k.reshape(B, T, H, K))
        v = v.reshape(B, T, H, V)
        a, b = upcast(self.ab_proj(x)).chunk(2, -1)
        g = -self.A_log.to(a.dtype).exp() * F.softplus(a + self.dt_bias.to(a.dtype))
        beta = torch.sigmoid(b)
        vf = valid.to(g.dtype)[..., None]
        g, beta = g * vf, beta * vf  # g = 0, beta = 0: padding leaves the state unchanged
        o, new_state = self._mix(q, k, v, g, beta, valid, ctx, cache)
        z = self.z_proj(x).reshape(B, T, H, V)
        o = self.o_norm(o) * F.silu(z)
        y = self.out_proj(o.reshape(B, T, H * V))
        return y, GDNCache(new_state, new_conv)

    def _mix(self, q, k, v, g, beta, valid, ctx: SegCtx, cache: GDNCache):
        """(outputs [B, T, H, V], state after the clean tokens): the delta rule's own readout."""
        T = q.shape[1]
        if T <= 2:
            o, S = ops.fused_recurrent_gated_delta_rule(q, k, v, g, beta, initial_state=cache.state)
        else:
            o, S, _ = ops.chunk_gated_delta_rule(q, k, v, g, beta, initial_state=cache.state, chunk_size=64)
        return o.to(v.dtype), S


class BlockGatedDeltaNet(GatedDeltaNet):
    """Gated DeltaNet mixer of Clover: the recurrence only carries history; a block query's output is ONE softmax
    over its block's keys (both directions) plus one extra slot holding the history readout S_histᵀ q_i, whose
    logit is ``b_h + c_h · log L`` (L = valid keys in the block) so the history weight does not dilute as blocks
    grow. A zero-initialised anti-causal depthwise conv over the block adds right context beside the causal conv.
    """

    def __init__(self, cfg: ModelConfig):
        super().__init__(cfg)
        self.rconv_w = nn.Parameter(torch.zeros(self.C, max(self.cs - 1, 1)))  # mechanism 4, zero init
        self.q_logtemp = nn.Parameter(torch.full((self.H,), math.log(math.sqrt(self.K))))
        self.hist_b = nn.Parameter(torch.zeros(self.H))  # mechanism 3
        self.hist_c = nn.Parameter(torch.full((self.H,), float(cfg.calib_init_c)))

    def _add_anti_conv(self, c: torch.Tensor, xb: torch.Tensor) -> torch.Tensor:
        """c + the anti-causal conv inside blocks: c, xb [N, bs, C]; adds Σ_j w_j x_{t+j}, j = 1..k-1, at t."""
        kr = self.rconv_w.shape[1]
        if not torch.is_grad_enabled():  # inference: shifted multiply-adds into c, no padded copy of the blocks
            w = self.rconv_w.to(xb.dtype)
            for j in range(min(kr, xb.shape[1] - 1)):
                c[:, :xb.shape[1] - j - 1].addcmul_(xb[:, j + 1:], w[:, j])
            return c
        xr = F.pad(xb, (0, 0, 0, kr))[:, 1:]
        return c + depthwise_conv(xr, self.rconv_w)

    def conv_features(self, x: torch.Tensor, ctx: SegCtx, cache: GDNCache):
        """The causal conv plus the anti-causal conv inside each block -> (features [B, T, C], new conv tail)."""
        u = self._project(x, ctx)
        c, new_conv = self._causal_conv(u, ctx, cache)
        B, T = x.shape[:2]
        N = B * (T // ctx.block_size)
        bs = ctx.block_size
        return self._add_anti_conv(c.reshape(N, bs, self.C), u.reshape(N, bs, self.C)).reshape(B, T, self.C), new_conv

    def _mix(self, q, k, v, g, beta, valid, ctx: SegCtx, cache: GDNCache):
        """(outputs [B, T, H, V], state after the clean tokens): in-block softmax with the history slot."""
        B, T, H, K = q.shape
        V = v.shape[-1]
        Tc, bs = ctx.Tc, ctx.block_size
        if Tc:
            _, S_final, before = ops.chunk_gated_delta_rule(
                q[:, :Tc], k[:, :Tc], v[:, :Tc], g[:, :Tc], beta[:, :Tc],
                initial_state=cache.state, chunk_size=bs, output_chunk_states=True, output_o=False)
            hist = torch.cat([before, S_final[:, :, None]], 2)  # [B, H, ncb+1, K, V]: state before block n
        else:
            S_final = cache.state
            hist = cache.state[:, :, None]
        ncb = Tc // bs
        blk_hist = torch.cat([torch.arange(ncb, device=q.device), ctx.noisy_hist.to(q.device)])  # [nbt]
        nbt = T // bs
        Sb = hist[:, :, blk_hist]  # [B, H, nbt, K, V]
        qb = q.reshape(B, nbt, bs, H, K)
        readout = torch.einsum("bnlhk,bhnkv->bnhlv", qb.to(Sb.dtype), Sb).to(v.dtype)  # S_histᵀ q_i
        kb = k.reshape(B, nbt, bs, H, K).permute(0, 1, 3, 2, 4).reshape(B * nbt, H, bs, K)
        vb = v.reshape(B, nbt, bs, H, V).permute(0, 1, 3, 2, 4).reshape(B * nbt, H, bs, V)
        qh = qb.permute(0, 1, 3, 2, 4).reshape(B * nbt, H, bs, K)
        q_att = qh * self.q_logtemp.exp().to(qh.dtype)[None, :, None, None]
        key_mask = valid.reshape(B * nbt, bs)
        L = key_mask.sum(-1).clamp_min(1).to(torch.float32)  # [N]
        L = L.to(upcast(q).dtype)
        logit = self.hist_b.to(L.dtype)[None, :] + self.hist_c.to(L.dtype)[None, :] * L.log()[:, None]  # [N, H]
        extra_logit = logit[:, :, None].expand(B * nbt, H, bs)
        # with grad on, the dispatcher runs the torch reference (per-source sums, no per-query copies): training
        o = ops.block_attention(q_att, kb, vb, extra_logit=extra_logit, extra_value=readout.reshape(B * nbt, H, bs, V),
                                key_mask=key_mask, scale=1.0)
        o = o.reshape(B, nbt, H, bs, V).permute(0, 1, 3, 2, 4).reshape(B, T, H, V)
        return o, S_final


# ---------------------------------------------------------------------------------------------------- attention
# Decode steps (one query block against the KV cache) go through ``ops.block_attention`` on CUDA (Triton kernel).
# On CPU the masked SDPA path (same math, tested equal) is used: one fused call is faster there than the
# reference's explicit softmax. Tests set this to True to run the op on CPU.
PREFIX_ATTN_VIA_OP: bool | None = None


class GatedAttention(nn.Module):
    """Softmax attention with QK-RMSNorm, RoPE and a sigmoid output gate (Qwen3-Next style)."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        D, H, Dh = cfg.d_model, cfg.attn_heads, cfg.attn_head_dim
        self.H, self.Dh, self.theta = H, Dh, cfg.rope_theta
        self.qkvg = nn.Linear(D, 4 * H * Dh, bias=False)
        self.q_norm = RMSNorm(Dh, cfg.norm_eps)
        self.k_norm = RMSNorm(Dh, cfg.norm_eps)
        self.out_proj = nn.Linear(H * Dh, D, bias=False)

    def empty_cache(self, B: int, device, dtype) -> AttnCache:
        z = torch.zeros(B, self.H, 0, self.Dh, device=device, dtype=dtype)
        return AttnCache(z, z.clone())

    def forward(self, x: torch.Tensor, ctx: SegCtx, cache: AttnCache | None):
        B, T, _ = x.shape
        H, Dh = self.H, self.Dh
        q, k, v, gate = self.qkvg(x).reshape(B, T, 4, H, Dh).permute(2, 0, 3, 1, 4)  # each [B, H, T, Dh]
        tables = ctx.rope_tables(self.theta, Dh, x.dtype)
        q = rope(self.q_norm(q), ctx.positions, self.theta, tables)
        k = rope(self.k_norm(k), ctx.positions, self.theta, tables)
        if cache is None:
            cache = self.empty_cache(B, x.device, x.dtype)
        use_op = PREFIX_ATTN_VIA_OP if PREFIX_ATTN_VIA_OP is not None else x.is_cuda
        Tc = ctx.Tc
        new = cache if not Tc else None  # a call with no clean tokens leaves the cache as it is (no copy)
        if use_op and ctx.single_block_query() and ctx.prefix_valid is not None:
            o = ops.block_attention(q, k, v, prefix_k=cache.k, prefix_v=cache.v, prefix_mask=ctx.prefix_valid,
                                    key_mask=torch.cat([ctx.clean_valid, ctx.noisy_valid], 1))
        else:
            empty = cache.k.shape[2] == 0  # a prompt read: no history to put before the keys
            kk = k if empty else torch.cat([cache.k, k], 2)
            vv = v if empty else torch.cat([cache.v, v], 2)
            o = F.scaled_dot_product_attention(q, kk, vv, attn_mask=ctx.bias(q.dtype))
            if new is None:  # the clean tokens come first: the new cache is a prefix of what attention just read
                P = cache.k.shape[2]
                new = AttnCache(kk[:, :, :P + Tc], vv[:, :, :P + Tc])
        if new is None:
            new = AttnCache(torch.cat([cache.k, k[:, :, :Tc]], 2), torch.cat([cache.v, v[:, :, :Tc]], 2))
        o = o * torch.sigmoid(gate)
        y = self.out_proj(o.transpose(1, 2).reshape(B, T, H * Dh))
        return y, new


# ---------------------------------------------------------------------------------------------------- MoE
class MoEFFN(nn.Module):
    """Routed SwiGLU experts (softmax router, top-k renormalised) + a sigmoid-gated shared SwiGLU expert."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        D, E, F_, Fs = cfg.d_model, cfg.n_experts, cfg.expert_ff, cfg.shared_ff
        self.E, self.top_k = E, cfg.top_k
        self.router = nn.Linear(D, E, bias=False)
        self.w_gate = nn.Parameter(torch.randn(E, D, F_) * 0.02)
        self.w_up = nn.Parameter(torch.randn(E, D, F_) * 0.02)
        self.w_down = nn.Parameter(torch.randn(E, F_, D) * 0.02)
        self.shared = nn.Linear(D, 2 * Fs, bias=False) if Fs else None
        self.shared_down = nn.Linear(Fs, D, bias=False) if Fs else None
        self.shared_gate = nn.Linear(D, 1, bias=False) if Fs else None

    def forward(self, x: torch.Tensor):
        """x [N, D] -> (y [N, D], aux loss scalar, router logits [N, E], topk_idx [N, k])."""
        logits = self.router(x)
        y, _, idx = ops.moe_ffn(x, logits, self.w_gate.to(x.dtype), self.w_up.to(x.dtype),
                                self.w_down.to(x.dtype), self.top_k)
        if self.shared is not None:
            gs, us = self.shared(x).chunk(2, -1)
            y = y + torch.sigmoid(self.shared_gate(x)) * self.shared_down(F.silu(gs) * us)
        return y, load_balance_loss(logits, idx, self.E), logits, idx


def load_balance_loss(router_logits: torch.Tensor, topk_idx: torch.Tensor, E: int) -> torch.Tensor:
    """Switch-style E · Σ_e f_e P_e (1.0 when balanced); f_e = share of routed slots (no grad), P_e = mean prob."""
    if router_logits.shape[0] == 0:
        return router_logits.new_zeros(())
    probs = upcast(router_logits).softmax(-1)
    f = torch.bincount(topk_idx.reshape(-1), minlength=E).to(probs.dtype)
    f = f / f.sum().clamp_min(1)
    return E * (f * probs.mean(0)).sum()


# ---------------------------------------------------------------------------------------------------- block
class Layer(nn.Module):
    """Pre-norm residual layer: x + mixer(norm(x)), then x + MoE(norm(x)) on the valid tokens only."""

    def __init__(self, cfg: ModelConfig, mixer: type[nn.Module]):
        super().__init__()
        self.norm1 = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.mixer = mixer(cfg)
        self.norm2 = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.ffn = MoEFFN(cfg)

    def forward(self, x, ctx: SegCtx, cache, flat_valid_idx: torch.Tensor):
        y, new_cache = self.mixer(self.norm1(x), ctx, cache)
        x = x + y
        B, T, D = x.shape
        h = self.norm2(x).reshape(B * T, D).index_select(0, flat_valid_idx)
        f, aux, _, _ = self.ffn(h)
        x = x.reshape(B * T, D).index_add(0, flat_valid_idx, f.to(x.dtype)).reshape(B, T, D)  # padding rows: + 0
        return x, new_cache, aux
