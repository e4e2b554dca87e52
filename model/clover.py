"""The Clover block-diffusion language model (and the backbone it shares with the AR baseline).

Layout of one training sequence (BD3-LM style, one pass)::

    clean:  [ <pad>… message <sep> | answer block 0 | answer block 1 | … ]   block-causal, updates history
    noisy:  [ masked copy of block 0 | block 1 | … ] [ complementary copy of block 0 | … ]

The prompt is left-padded to a multiple of the block size B, so answer blocks line up with the GDN scan's chunks
(chunk = B): the chunked scan of the clean sequence yields, for every block, the GDN state before it, which is the
history a noisy block reads through its extra softmax slot; the attention layers see the clean blocks before it
through the block mask. Each noisy block gets its own mask rate t ~ U[mask_lo, mask_hi]; the second copy masks
exactly the complement, so every answer token is predicted once per example. The loss is the cross-entropy on
masked positions (plus the MoE load-balancing loss).
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from airspace.model.config import ModelConfig
from airspace.model.layers import Layer, RMSNorm, SegCtx


@dataclass
class Cache:
    """Committed history of a batch: per-layer GDN state / conv tail or KV cache, and which cached tokens are real."""

    layers: list
    valid: torch.Tensor  # [B, P] bool

    @property
    def length(self) -> int:
        return self.valid.shape[1]


class Backbone(nn.Module):
    """Embedding, hybrid GDN/attention layers with MoE FFNs, final norm and LM head (untied)."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        self.embed = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.layers = nn.ModuleList(Layer(cfg, kind) for kind in cfg.layer_pattern)
        self.norm = RMSNorm(cfg.d_model, cfg.norm_eps)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self._init_weights()

    def _init_weights(self) -> None:
        std = 0.02
        nn.init.normal_(self.embed.weight, std=std)
        nn.init.normal_(self.head.weight, std=std)
        out_std = std / math.sqrt(2 * self.cfg.n_layers)
        for layer in self.layers:
            for name, mod in layer.named_modules():
                if isinstance(mod, nn.Linear):
                    nn.init.normal_(mod.weight, std=out_std if ("out_proj" in name or "shared_down" in name) else std)
                    if mod.bias is not None:
                        nn.init.zeros_(mod.bias)
            nn.init.normal_(layer.ffn.w_down, std=out_std)

    @property
    def device(self) -> torch.device:
        return self.embed.weight.device

    def num_params(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def forward(self, clean_ids: torch.Tensor, clean_valid: torch.Tensor, noisy_ids: torch.Tensor | None = None,
                noisy_valid: torch.Tensor | None = None, noisy_hist: torch.Tensor | None = None,
                cache: Cache | None = None):
        """One segment: returns (h_clean [B,Tc,D], h_noisy [B,Tn,D], aux loss, new cache). h are final-normed."""
        cfg = self.cfg
        B = clean_ids.shape[0]
        dev = clean_ids.device
        bs = cfg.block_size
        if noisy_ids is None:
            noisy_ids = clean_ids.new_zeros(B, 0)
            noisy_valid = clean_valid.new_zeros(B, 0)
            noisy_hist = torch.zeros(0, dtype=torch.long, device=dev)
        Tc, Tn = clean_ids.shape[1], noisy_ids.shape[1]
        if cfg.arch == "clover" and (Tc % bs or Tn % bs):
            raise ValueError(f"clover segments must be whole blocks of {bs} tokens (got Tc={Tc}, Tn={Tn})")
        if cfg.arch == "ar" and Tn:
            raise ValueError("the AR baseline has no noisy blocks")
        P = 0 if cache is None else cache.length
        pos = [P + torch.arange(Tc, device=dev)]
        if Tn:
            nb = torch.arange(Tn, device=dev) // bs
            pos.append(P + noisy_hist.to(dev)[nb] * bs + torch.arange(Tn, device=dev) % bs)
        ctx = SegCtx(cfg.arch, bs, clean_valid, noisy_valid, noisy_hist.to(dev), torch.cat(pos),
                     None if cache is None else cache.valid)
        x = self.embed(torch.cat([clean_ids, noisy_ids], 1))
        flat_idx = torch.cat([clean_valid, noisy_valid], 1).reshape(-1).nonzero().squeeze(1)
        new_layers, aux = [], x.new_zeros((), dtype=torch.float32)
        for i, layer in enumerate(self.layers):
            x, c, a = layer(x, ctx, None if cache is None else cache.layers[i], flat_idx)
            new_layers.append(c)
            aux = aux + a
        x = self.norm(x)
        prev_valid = clean_valid.new_zeros(B, 0) if cache is None else cache.valid
        new_cache = Cache(new_layers, torch.cat([prev_valid, clean_valid], 1))
        return x[:, :Tc], x[:, Tc:], aux / len(self.layers), new_cache

    def logits(self, h: torch.Tensor) -> torch.Tensor:
        out = self.head(h)
        return out if out.dtype == torch.float64 else out.float()


class CloverLM(Backbone):
    """Block-diffusion LM: history in GDN state / KV cache, the current block bidirectional."""

    def __init__(self, cfg: ModelConfig):
        if cfg.arch != "clover":
            raise ValueError("CloverLM needs arch='clover'")
        super().__init__(cfg)


@dataclass
class Batch:
    clean_ids: torch.Tensor
    clean_valid: torch.Tensor
    noisy_ids: torch.Tensor | None
    noisy_valid: torch.Tensor | None
    noisy_hist: torch.Tensor | None
    target: torch.Tensor  # token ids the loss positions must produce (noisy for clover, shifted clean for AR)
    loss_mask: torch.Tensor  # bool, same shape as target
    n_tokens: int  # tokens in the forward (clean + noisy), for throughput

    def to(self, device) -> "Batch":
        mv = lambda t: None if t is None else t.to(device)  # noqa: E731
        return Batch(mv(self.clean_ids), mv(self.clean_valid), mv(self.noisy_ids), mv(self.noisy_valid),
                     mv(self.noisy_hist), mv(self.target), mv(self.loss_mask), self.n_tokens)


def left_pad_prompts(prompts: list[list[int]], pad_id: int, multiple: int = 1):
    """Left-pad prompts to a common length (a multiple of ``multiple``) -> (ids [B,P], valid [B,P])."""
    P = max(len(p) for p in prompts)
    P = -(-P // multiple) * multiple
    ids = torch.full((len(prompts), P), pad_id, dtype=torch.long)
    valid = torch.zeros(len(prompts), P, dtype=torch.bool)
    for i, p in enumerate(prompts):
        if p:
            ids[i, P - len(p):] = torch.tensor(p, dtype=torch.long)
            valid[i, P - len(p):] = True
    return ids, valid


def clover_batch(prompts: list[list[int]], answers: list[list[int]], cfg: ModelConfig, *, pad_id: int,
                 mask_id: int, eoa_id: int, generator: torch.Generator) -> Batch:
    """Build the [clean ; noisy ; complementary noisy] training batch (answers end with EOA)."""
    bs = cfg.block_size
    p_ids, p_valid = left_pad_prompts(prompts, pad_id, bs)
    nbA = max(-(-len(a) // bs) for a in answers)
    A = nbA * bs
    a_ids = torch.full((len(answers), A), pad_id, dtype=torch.long)
    a_valid = torch.zeros(len(answers), A, dtype=torch.bool)
    for i, a in enumerate(answers):
        la = -(-len(a) // bs) * bs
        a_ids[i, :la] = torch.tensor(list(a) + [eoa_id] * (la - len(a)), dtype=torch.long)  # EOA fills its block
        a_valid[i, :la] = True
    n = len(answers)
    t = cfg.mask_lo + (cfg.mask_hi - cfg.mask_lo) * torch.rand(n, nbA, generator=generator)
    m1 = torch.rand(n, A, generator=generator) < t.repeat_interleave(bs, 1)
    m2 = ~m1
    noisy = torch.cat([torch.where(m1, mask_id, a_ids), torch.where(m2, mask_id, a_ids)], 1)
    nvalid = torch.cat([a_valid, a_valid], 1)
    hist = (torch.arange(nbA) + p_ids.shape[1] // bs).repeat(2)
    loss_mask = torch.cat([m1, m2], 1) & nvalid
    return Batch(torch.cat([p_ids, a_ids], 1), torch.cat([p_valid, a_valid], 1), noisy, nvalid, hist,
                 torch.cat([a_ids, a_ids], 1), loss_mask, int(p_ids.numel() + a_ids.numel() + noisy.numel()))


def clover_loss(model: Backbone, batch: Batch):
    """(total loss, masked-token cross-entropy, aux) for one batch."""
    _, h_noisy, aux, _ = model(batch.clean_ids, batch.clean_valid, batch.noisy_ids, batch.noisy_valid,
                               batch.noisy_hist)
    logits = model.logits(h_noisy[batch.loss_mask])
    ce = F.cross_entropy(logits, batch.target[batch.loss_mask])
    return ce + model.cfg.aux_loss_coef * aux, ce.detach(), aux.detach()
