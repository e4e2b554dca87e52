"""The Clover block-diffusion language model (and the backbone it shares with the AR baseline).

The answer is written in pointer slots (``airspace.model.pointers``): every answer token is a position of the
prompt. A committed pointer is embedded as the prompt character it points at plus a projection of its position
(sinusoidal features) plus the embedding of its slot in the block; a masked slot is the MASK embedding plus its slot
embedding. The output head is a pointer head: slot query · key of every prompt position, where a key is a
projection of the prompt's final hidden state plus a projection of its position features.

Layout of one training sequence (BD3-LM style, one pass)::

    clean:  [ <pad>… message <sep> | answer block 0 | answer block 1 | … ]   block-causal, updates history
    noisy:  [ masked copy of block 0 | block 1 | … ] [ complementary copy of block 0 | … ]

The prompt is left-padded to a multiple of the block size B, so answer blocks line up with the GDN scan's chunks
(chunk = B): the chunked scan of the clean sequence yields, for every block, the GDN state before it, which is the
history a noisy block reads through its extra softmax slot; the attention layers see the clean blocks before it
through the block mask. Each noisy block gets its own mask rate t ~ U[mask_lo, mask_hi]; the second copy masks
exactly the complement, so every answer token is predicted once per example. The loss is the cross-entropy on
masked positions over the prompt's positions (plus the MoE load-balancing loss).
"""

from __future__ import annotations

import dataclasses
import math
from dataclasses import dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from airspace.model.config import ModelConfig
from airspace.model.layers import Layer, RMSNorm, SegCtx
from airspace.model.tokenizer import MASK_ID


@dataclass
class Cache:
    """Committed history of a batch: per-layer GDN state / conv tail or KV cache, and which cached tokens are real."""

    layers: list
    valid: torch.Tensor  # [B, P] bool

    @property
    def length(self) -> int:
        return self.valid.shape[1]

    def select(self, rows: torch.Tensor) -> "Cache":
        """The history of some rows of the batch only (decoding drops finished rows from later calls)."""
        return Cache([type(c)(*(getattr(c, f.name)[rows] for f in dataclasses.fields(c))) for c in self.layers],
                     self.valid[rows])

    @staticmethod
    def join(caches: list["Cache"]) -> "Cache":
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

    def select(self, rows: torch.Tensor) -> "Memory":
        return Memory(self.ids[rows], self.offset[rows], None if self.keys is None else self.keys[rows],
                      self.valid[rows])

    @staticmethod
    def join(mems: list["Memory"]) -> "Memory":
        """Several prompt batches of equal padded length as one batch (rows in the given order)."""
        keys = None if mems[0].keys is None else torch.cat([m.keys for m in mems])
        return Memory(torch.cat([m.ids for m in mems]), torch.cat([m.offset for m in mems]), keys,
                      torch.cat([m.valid for m in mems]))


class Backbone(nn.Module):
    """Embedding, hybrid GDN/attention layers with MoE FFNs, final norm and a pointer head over the prompt."""

    def __init__(self, cfg: ModelConfig):
        super().__init__()
        self.cfg = cfg
        d = cfg.d_model
        self.embed = nn.Embedding(cfg.vocab_size, d)
        self.slot_embed = nn.Embedding(cfg.block_size, d)
        self.ptr_embed_pos = nn.Linear(N_POS_FEATURES, d, bias=False)
        self.layers = nn.ModuleList(Layer(cfg, kind) for kind in cfg.layer_pattern)
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

    def forward(self, clean_ids: torch.Tensor, clean_valid: torch.Tensor, noisy_ids: torch.Tensor | None = None,
                noisy_valid: torch.Tensor | None = None, noisy_hist: torch.Tensor | None = None,
                cache: Cache | None = None, *, clean_x: torch.Tensor | None = None,
                noisy_x: torch.Tensor | None = None):
        """One segment: returns (h_clean [B,Tc,D], h_noisy [B,Tn,D], aux loss, new cache). h are final-normed.

        ``clean_x`` / ``noisy_x`` are input embeddings that replace the lookup of ``clean_ids`` / ``noisy_ids``
        (answer pointers are embedded by ``answer_embed``); the ids then only give the shapes."""
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
        cx = self.embed(clean_ids) if clean_x is None else clean_x
        nx = self.embed(noisy_ids) if noisy_x is None else noisy_x
        x = torch.cat([cx, nx.to(cx.dtype)], 1)
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


class CloverLM(Backbone):
    """Block-diffusion LM: history in GDN state / KV cache, the current block bidirectional."""

    def __init__(self, cfg: ModelConfig):
        if cfg.arch != "clover":
            raise ValueError("CloverLM needs arch='clover'")
        super().__init__(cfg)


@dataclass
class Batch:
    prompt_ids: torch.Tensor  # [B, P] left-padded
    prompt_valid: torch.Tensor
    offset: torch.Tensor  # [B] pad length of each prompt
    answer: torch.Tensor  # [B, A] pointer slots (prompt indices), right-padded
    answer_valid: torch.Tensor
    noisy: torch.Tensor | None  # [B, Tn] pointer slots with -1 = masked (clover)
    noisy_valid: torch.Tensor | None
    noisy_hist: torch.Tensor | None
    target: torch.Tensor  # prompt columns the loss positions must point at (noisy for clover, answer for AR)
    loss_mask: torch.Tensor  # bool, same shape as target
    n_tokens: int  # tokens in the forward (clean + noisy), for throughput

    def to(self, device) -> "Batch":
        mv = lambda t: None if t is None else t.to(device)  # noqa: E731
        return Batch(*(mv(getattr(self, f)) for f in ("prompt_ids", "prompt_valid", "offset", "answer",
                                                      "answer_valid", "noisy", "noisy_valid", "noisy_hist",
                                                      "target", "loss_mask")), self.n_tokens)

    def memory(self) -> Memory:
        return Memory(self.prompt_ids, self.offset, None, self.prompt_valid)


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


def right_pad_answers(answers: list[list[int]], multiple: int = 1):
    """Right-pad pointer answers -> (ptr [B, A], valid [B, A])."""
    A = max(len(a) for a in answers)
    A = -(-A // multiple) * multiple
    ids = torch.zeros(len(answers), A, dtype=torch.long)
    valid = torch.zeros(len(answers), A, dtype=torch.bool)
    for i, a in enumerate(answers):
        ids[i, :len(a)] = torch.tensor(a, dtype=torch.long)
        valid[i, :len(a)] = True
    return ids, valid


def clover_batch(prompts: list[list[int]], answers: list[list[int]], cfg: ModelConfig, *, pad_id: int,
                 generator: torch.Generator) -> Batch:
    """Build the [clean ; noisy ; complementary noisy] training batch (answers: pointer slots, whole blocks)."""
    bs = cfg.block_size
    if any(len(a) % bs for a in answers):
        raise ValueError(f"pointer answers must be whole blocks of {bs} slots")
    p_ids, p_valid = left_pad_prompts(prompts, pad_id, bs)
    offset = torch.tensor([p_ids.shape[1] - len(p) for p in prompts], dtype=torch.long)
    a_ptr, a_valid = right_pad_answers(answers, bs)
    n, A = a_ptr.shape
    nbA = A // bs
    t = cfg.mask_lo + (cfg.mask_hi - cfg.mask_lo) * torch.rand(n, nbA, generator=generator)
    m1 = torch.rand(n, A, generator=generator) < t.repeat_interleave(bs, 1)
    m2 = ~m1
    noisy = torch.cat([torch.where(m1, -1, a_ptr), torch.where(m2, -1, a_ptr)], 1)
    nvalid = torch.cat([a_valid, a_valid], 1)
    hist = (torch.arange(nbA) + p_ids.shape[1] // bs).repeat(2)
    loss_mask = torch.cat([m1, m2], 1) & nvalid
    target = (offset[:, None] + a_ptr).repeat(1, 2)
    return Batch(p_ids, p_valid, offset, a_ptr, a_valid, noisy, nvalid, hist, target, loss_mask,
                 int(p_ids.numel() + 3 * a_ptr.numel()))


def clover_loss(model: Backbone, batch: Batch):
    """(total loss, masked-slot pointer cross-entropy, aux) for one batch."""
    bs = model.cfg.block_size
    mem = batch.memory()
    P, A = batch.prompt_ids.shape[1], batch.answer.shape[1]
    dev = batch.prompt_ids.device
    clean_x = torch.cat([model.embed(batch.prompt_ids),
                         model.answer_embed(mem, batch.answer, torch.arange(A, device=dev) % bs, MASK_ID)], 1)
    noisy_x = model.answer_embed(mem, batch.noisy, torch.arange(batch.noisy.shape[1], device=dev) % bs, MASK_ID)
    clean_valid = torch.cat([batch.prompt_valid, batch.answer_valid], 1)
    h_clean, h_noisy, aux, _ = model(clean_valid.long(), clean_valid, batch.noisy, batch.noisy_valid,
                                     batch.noisy_hist, clean_x=clean_x, noisy_x=noisy_x)
    model.set_keys(mem, h_clean[:, :P])
    logits = model.pointer_logits(h_noisy, mem)[batch.loss_mask]
    ce = F.cross_entropy(logits, batch.target[batch.loss_mask])
    return ce + model.cfg.aux_loss_coef * aux, ce.detach(), aux.detach()
