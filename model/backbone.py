"""The backbone both models share: embeddings, the hybrid GDN / attention layers with MoE FFNs, the final norm and
a pointer head over the prompt; and the tensors a forward reads and leaves behind (``Memory``, ``Cache``).

The answer is written in pointer slots (``airspace.model.pointers``): every answer token is a position of the
prompt. A committed pointer is embedded as the prompt character it points at plus a projection of its position
(sinusoidal features) plus the embedding of its slot in the block; a masked slot is the MASK embedding plus its slot
embedding. The output head is a pointer head: slot query · key of every prompt position, where a key is a
projection of the prompt's final hidden state plus a projection of its position features.

A subclass says how the layers see the sequence (``CloverLM``: block-causal with noisy query blocks; ``ARLM``:
causal) through its ``MIXERS``, ``BLOCK_CAUSAL`` and ``check_segment``.
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass
from typing import NamedTuple

import torch
import torch.nn as nn

from airspace.model.batch import left_pad_prompts
from airspace.model.config import ModelConfig
from airspace.model.layers import Layer, RMSNorm, SegCtx
from airspace.model.pointers import slot_names
from airspace.model.tokenizer import PAD_ID


@dataclass
class Cache:
    """Committed history of a batch: per-layer GDN state / conv tail or KV cache, and which cached tokens are real."""

    layers: list
    valid: torch.Tensor  # [B, P] bool

    @property
    def length(self) -> int:
        return self.valid.shape[1]

    def select(self, rows: torch.Tensor) -> Cache:
        """The history of some rows of the batch only (decoding drops finished rows from later calls)."""
        return Cache([type(c)(*(getattr(c, f.name)[rows] for f in dataclasses.fields(c))) for c in self.layers],
                     self.valid[rows])

    @staticmethod
    def join(caches: list[Cache]) -> Cache:
        """The histories of several batches of equal length as one batch (rows in the given order)."""
        layers = [type(cs[0])(*(torch.cat([getattr(c, f.name) for c in cs]) for f in dataclasses.fields(cs[0])))
                  for cs in zip(*(c.layers for c in caches))]
        return Cache(layers, torch.cat([c.valid for c in caches]))


INIT_STD = 0.02  # embeddings and projections (output projections are scaled down by depth)
N_POS_FEATURES = 32  # sinusoidal features of a prompt position (pointer embeddings and pointer keys)


def position_features(pos: torch.Tensor, n: int = N_POS_FEATURES) -> torch.Tensor:
    """Sinusoidal features [..., n] of integer positions (wavelengths 4 .. ~10 000 tokens)."""
    freqs = torch.exp(-math.log(2500.0) * torch.arange(n // 2, device=pos.device, dtype=torch.float32) / (n // 2 - 1))
    ang = pos.to(torch.float32)[..., None] * (math.pi / 2) * freqs
    return torch.cat([ang.sin(), ang.cos()], -1)


@dataclass
class Memory:
    """The prompt as the pointer head sees it: ids, left-pad offsets, pointer keys and which positions are real."""

    ids: torch.Tensor  # [B, P] long (left-padded prompt)
    offset: torch.Tensor  # [B] long: pad length, so prompt index j sits at column offset + j
    keys: torch.Tensor | None  # [B, P, D] pointer keys (None until the prompt has been run)
    valid: torch.Tensor  # [B, P] bool

    def select(self, rows: torch.Tensor) -> Memory:
        return Memory(self.ids[rows], self.offset[rows], None if self.keys is None else self.keys[rows],
                      self.valid[rows])

    @staticmethod
    def join(mems: list[Memory]) -> Memory:
        """Several prompt batches of equal padded length as one batch (rows in the given order)."""
        keys = None if mems[0].keys is None else torch.cat([m.keys for m in mems])
        return Memory(torch.cat([m.ids for m in mems]), torch.cat([m.offset for m in mems]), keys,
                      torch.cat([m.valid for m in mems]))


def prompt_memory(prompts: list[list[int]], multiple: int, device: torch.device) -> tuple[Memory, torch.Tensor]:
    """(the prompts left-padded to a multiple of ``multiple`` as pointer memory, each row's NULL column = its SEP
    position)."""
    ids, valid = left_pad_prompts(prompts, PAD_ID, multiple)
    off = torch.tensor([ids.shape[1] - len(p) for p in prompts], dtype=torch.long)
    null = off + torch.tensor([len(p) - 1 for p in prompts], dtype=torch.long)
    return Memory(ids.to(device), off.to(device), None, valid.to(device)), null.to(device)


class SegmentOutput(NamedTuple):
    """What one forward returns: final-normed hidden states of the clean and the noisy tokens, the MoE
    load-balancing loss (mean over layers) and the history extended by the clean tokens."""

    clean: torch.Tensor  # [B, Tc, D]
    noisy: torch.Tensor  # [B, Tn, D]
    aux: torch.Tensor
    cache: Cache


class Backbone(nn.Module):
    """Embedding, hybrid GDN/attention layers with MoE FFNs, final norm and a pointer head over the prompt."""

    ARCH: str  # ``ModelConfig.arch`` of the subclass
    MIXERS: dict[str, type[nn.Module]]  # layer_pattern letter -> mixer class
    BLOCK_CAUSAL: bool  # clean tokens see their own block both ways (else: causal)

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        if cfg.arch != self.ARCH:
            raise ValueError(f"{type(self).__name__} needs arch={self.ARCH!r}")
        if cfg.block_size != cfg.n_slots:
            raise ValueError(f"one zone per block: block_size must be 2 + 2 * {len(cfg.fields)} fields = "
                             f"{cfg.n_slots}, got {cfg.block_size}")
        self.cfg = cfg
        d = cfg.d_model
        self.embed = nn.Embedding(cfg.vocab_size, d)
        self.slot_embed = nn.Embedding(cfg.block_size, d)
        self.ptr_embed_pos = nn.Linear(N_POS_FEATURES, d, bias=False)
        self.layers = nn.ModuleList(Layer(cfg, self.MIXERS[kind]) for kind in cfg.layer_pattern)
        self.norm = RMSNorm(d, cfg.norm_eps)
        self.ptr_q = nn.Linear(d, d, bias=False)
        self.ptr_k = nn.Linear(d, d, bias=False)
        self.ptr_k_pos = nn.Linear(N_POS_FEATURES, d, bias=False)
        self._init_weights()

    def _init_weights(self) -> None:
        std = INIT_STD
        for w in (self.embed.weight, self.slot_embed.weight, self.ptr_embed_pos.weight, self.ptr_q.weight,
                  self.ptr_k.weight, self.ptr_k_pos.weight):
            nn.init.normal_(w, std=std)
        out_std = std / math.sqrt(2 * self.cfg.n_layers)
        for layer in self.layers:
            for name, mod in layer.named_modules():
                if isinstance(mod, nn.Linear):
                    nn.init.normal_(mod.weight, std=out_std if ("out_proj" in name or "shared_down" in name) else std)
                    if mod.bias is not None:
                        nn.init.zeros_(mod.bias)
            nn.init.normal_(layer.ffn.w_down, std=out_std)

    def grow_vocab(self, vocab_size: int) -> None:
        """Append embedding rows (initialised like a fresh model's) for a tokenizer grown to ``vocab_size``; the
        existing rows, and so every id the model already knows, are unchanged."""
        old = self.embed.weight.data
        if vocab_size < old.shape[0]:
            raise ValueError(f"cannot shrink the vocabulary from {old.shape[0]} to {vocab_size}")
        new = old.new_empty(vocab_size - old.shape[0], old.shape[1])
        nn.init.normal_(new, std=INIT_STD)
        self.embed = nn.Embedding.from_pretrained(torch.cat([old, new]), freeze=False)
        self.cfg = dataclasses.replace(self.cfg, vocab_size=vocab_size)

    def grow_fields(self, fields: tuple[str, ...] | list[str]) -> None:
        """Answer with ``fields`` (every current field among them, in any order): the block becomes
        2 + 2 * len(fields) slots; each slot the model knows (anchor, a known field's start or end, next) keeps its
        learnt embedding at its new index, a new field's slots get rows initialised like a fresh model's, and
        every other weight is unchanged. ``max_answer_tokens`` keeps the same number of zones."""
        old_names, new_names = slot_names(self.cfg.fields), slot_names(fields)
        missing = set(self.cfg.fields) - set(fields)
        if missing:
            raise ValueError(f"cannot drop fields the checkpoint writes: {sorted(missing)}")
        old = self.slot_embed.weight.data
        rows = old.new_empty(len(new_names), old.shape[1])
        nn.init.normal_(rows, std=INIT_STD)
        for i, name in enumerate(new_names):
            if name in old_names:
                rows[i] = old[old_names.index(name)]
        self.slot_embed = nn.Embedding.from_pretrained(rows, freeze=False)
        zones = self.cfg.max_answer_tokens // self.cfg.block_size
        self.cfg = dataclasses.replace(self.cfg, fields=tuple(fields), block_size=len(new_names),
                                       max_answer_tokens=zones * len(new_names))

    # ------------------------------------------------------------------ pointers
    def answer_embed(self, mem: Memory, ptr: torch.Tensor, slot: torch.Tensor, mask_id: int) -> torch.Tensor:
        """Embeddings [B, A, D] of answer tokens: ``ptr`` [B, A] prompt indices (-1 = masked), ``slot`` [A] or
        [B, A] slot indices."""
        masked = ptr < 0
        j = ptr.clamp(min=0)
        col = (mem.offset[:, None] + j).clamp(max=mem.ids.shape[1] - 1)
        tok = torch.where(masked, torch.full_like(j, mask_id), mem.ids.gather(1, col))
        x = self.embed(tok)
        pos = self.ptr_embed_pos(position_features(j).to(x.dtype))
        x = x + torch.where(masked[..., None], torch.zeros_like(pos), pos)
        return x + self.slot_embed(slot.expand_as(ptr) if slot.dim() == 1 else slot)

    def set_keys(self, mem: Memory, h_prompt: torch.Tensor) -> None:
        """Pointer keys of the prompt from its final hidden states [B, P, D]."""
        j = torch.arange(mem.ids.shape[1], device=h_prompt.device)[None, :] - mem.offset[:, None]
        mem.keys = self.ptr_k(h_prompt) + self.ptr_k_pos(position_features(j.clamp(min=0)).to(h_prompt.dtype))

    def pointer_logits(self, h: torch.Tensor, mem: Memory) -> torch.Tensor:
        """[B, A, D] queries -> fp32 logits [B, A, P] over prompt columns (padding = -inf)."""
        q = self.ptr_q(h)
        logits = torch.einsum("bad,bpd->bap", q, mem.keys) / math.sqrt(q.shape[-1])
        logits = logits if logits.dtype == torch.float64 else logits.float()
        return logits.masked_fill(~mem.valid[:, None, :], float("-inf"))

    @property
    def device(self) -> torch.device:
        return self.embed.weight.device

    def num_params(self) -> int:
        return sum(p.numel() for p in self.parameters())

    def check_segment(self, Tc: int, Tn: int) -> None:
        """Raise if this model cannot run a segment of ``Tc`` clean and ``Tn`` noisy tokens."""

    def forward(self, *, clean_valid: torch.Tensor, clean_ids: torch.Tensor | None = None,
                clean_x: torch.Tensor | None = None, noisy_valid: torch.Tensor | None = None,
                noisy_x: torch.Tensor | None = None, noisy_hist: torch.Tensor | None = None,
                cache: Cache | None = None) -> SegmentOutput:
        """One segment: ``clean`` tokens (their ids, or ``clean_x`` input embeddings: answer pointers are embedded
        by ``answer_embed``) extend the history in ``cache``; ``noisy`` blocks (``noisy_x`` [B, Tn, D]) each read the
        history before clean block ``noisy_hist[n]`` and change nothing. ``*_valid`` say which tokens are real."""
        if (clean_ids is None) == (clean_x is None):
            raise ValueError("give exactly one of clean_ids and clean_x")
        cfg = self.cfg
        B = clean_valid.shape[0]
        dev = clean_valid.device
        bs = cfg.block_size
        if noisy_x is None:
            noisy_valid = clean_valid.new_zeros(B, 0)
            noisy_hist = torch.zeros(0, dtype=torch.long, device=dev)
        Tc, Tn = clean_valid.shape[1], noisy_valid.shape[1]
        self.check_segment(Tc, Tn)
        P = 0 if cache is None else cache.length
        pos = [P + torch.arange(Tc, device=dev)]
        if Tn:
            nb = torch.arange(Tn, device=dev) // bs
            pos.append(P + noisy_hist.to(dev)[nb] * bs + torch.arange(Tn, device=dev) % bs)
        ctx = SegCtx(block_causal=self.BLOCK_CAUSAL, block_size=bs, clean_valid=clean_valid, noisy_valid=noisy_valid,
                     noisy_hist=noisy_hist.to(dev), positions=torch.cat(pos),
                     prefix_valid=None if cache is None else cache.valid)
        cx = self.embed(clean_ids) if clean_x is None else clean_x
        x = cx if noisy_x is None else torch.cat([cx, noisy_x.to(cx.dtype)], 1)
        flat_idx = torch.cat([clean_valid, noisy_valid], 1).reshape(-1).nonzero().squeeze(1)
        new_layers, aux = [], x.new_zeros((), dtype=torch.float32)
        for i, layer in enumerate(self.layers):
            x, c, a = layer(x, ctx, None if cache is None else cache.layers[i], flat_idx)
            new_layers.append(c)
            aux = aux + a
        x = self.norm(x)
        prev_valid = clean_valid.new_zeros(B, 0) if cache is None else cache.valid
        new_cache = Cache(new_layers, torch.cat([prev_valid, clean_valid], 1))
        return SegmentOutput(x[:, :Tc], x[:, Tc:], aux / len(self.layers), new_cache)
