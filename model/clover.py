"""The Clover block-diffusion language model: training batch and loss, prompt read, and decoding.

Layout of one training sequence (BD3-LM style, one pass)::

    clean:  [ <pad>… message <sep> | answer block 0 | answer block 1 | … ]   block-causal, updates history
    noisy:  [ masked copy of block 0 | block 1 | … ] [ complementary copy of block 0 | … ]

The prompt is left-padded to a multiple of the block size B, so answer blocks line up with the GDN scan's chunks
(chunk = B): the chunked scan of the clean sequence yields, for every block, the GDN state before it, which is the
history a noisy block reads through its extra softmax slot; the attention layers see the clean blocks before it
through the block mask. Each noisy block gets its own mask rate t ~ U[mask_lo, mask_hi]; the second copy masks
exactly the complement, so every answer token is predicted once per example. The loss is the cross-entropy on
masked positions over the prompt's positions (plus the MoE load-balancing loss).

Decoding (``CloverLM.decode``) fills one block — one zone — at a time, several slots per forward: the reference
sampler (``airspace.model.sampler``) over this module's batch machinery (``_Decoding``: prompt reads, caches, rows
leaving), with the decoding passes of ``airspace.model.passes``.
"""

from __future__ import annotations

import time
from collections.abc import Sequence

import torch

from airspace.model.backbone import Backbone, Memory, prompt_memory
from airspace.model.batch import Batch, left_pad_prompts, pointer_ce, prompt_offsets, right_pad_answers, slot_weights
from airspace.model.decoding import DecodeResult, alternatives, max_blocks, since
from airspace.model.layers import BlockGatedDeltaNet, GatedAttention
from airspace.model.passes import DEFAULT_PASSES, make_passes
from airspace.model.reading import PromptRead, ReadCache, left_pad, read_prompts
from airspace.model.sampler import Block, sample
from airspace.model.tokenizer import MASK_ID


class CloverLM(Backbone):
    """Block-diffusion LM: history in GDN state / KV cache, the current block bidirectional."""

    ARCH = "clover"
    MIXERS = {"G": BlockGatedDeltaNet, "A": GatedAttention}
    BLOCK_CAUSAL = True
    passes: tuple[str, ...] = DEFAULT_PASSES  # the decoding passes ``decode`` runs unless told otherwise

    @property
    def prompt_multiple(self) -> int:
        """Prompts are left-padded to whole blocks, so answer blocks line up with the GDN scan's chunks."""
        return self.cfg.block_size

    def check_segment(self, Tc: int, Tn: int) -> None:
        bs = self.cfg.block_size
        if Tc % bs or Tn % bs:
            raise ValueError(f"clover segments must be whole blocks of {bs} tokens (got Tc={Tc}, Tn={Tn})")

    # ------------------------------------------------------------------ training
    def objective(self) -> str:
        """The training objective in words (for the checkpoint's recipe)."""
        return ("BD3-LM block diffusion over pointer slots (one zone per block of %d): clean prefix + per-block mask "
                "rate U[%g,%g] + complementary masks, pointer CE on masked slots"
                % (self.cfg.block_size, self.cfg.mask_lo, self.cfg.mask_hi))

    def example_cost(self, prompt_len: int, answer_len: int) -> int:
        """Tokens one example puts in a training forward: the prompt in whole blocks, the answer three times."""
        bs = self.cfg.block_size
        return -(-prompt_len // bs) * bs + 3 * answer_len

    def training_batch(self, prompts: list[list[int]], answers: list[list[int]], *, pad_id: int,
                       generator: torch.Generator, slot_weight: torch.Tensor | None = None) -> Batch:
        """The [clean ; noisy ; complementary noisy] training batch (answers: pointer slots, whole blocks).
        ``slot_weight``: a loss weight per slot of the block (None: every slot the same)."""
        cfg = self.cfg
        bs = cfg.block_size
        if any(len(a) % bs for a in answers):
            raise ValueError(f"pointer answers must be whole blocks of {bs} slots")
        p_ids, p_valid = left_pad_prompts(prompts, pad_id, bs)
        offset = prompt_offsets(prompts, p_ids.shape[1])
        a_ptr, a_valid = right_pad_answers(answers, bs)
        n, A = a_ptr.shape
        nbA = A // bs
        t = cfg.mask_lo + (cfg.mask_hi - cfg.mask_lo) * torch.rand(n, nbA, generator=generator)
        m1 = torch.rand(n, A, generator=generator) < t.repeat_interleave(bs, 1)
        m2 = ~m1
        noisy = torch.cat([torch.where(m1, -1, a_ptr), torch.where(m2, -1, a_ptr)], 1)
        nvalid = torch.cat([a_valid, a_valid], 1)
        hist = (torch.arange(nbA) + p_ids.shape[1] // bs).repeat(2)
        return Batch(prompt_ids=p_ids, prompt_valid=p_valid, offset=offset, answer=a_ptr, answer_valid=a_valid,
                     noisy=noisy, noisy_valid=nvalid, noisy_hist=hist, target=(offset[:, None] + a_ptr).repeat(1, 2),
                     loss_mask=torch.cat([m1, m2], 1) & nvalid, n_tokens=int(p_ids.numel() + 3 * a_ptr.numel()),
                     loss_weight=slot_weights((torch.arange(A) % bs).repeat(n, 2), slot_weight))

    def loss(self, batch: Batch):
        """(total loss, masked-slot pointer cross-entropy, aux) for one batch."""
        bs = self.cfg.block_size
        mem = Memory(batch.prompt_ids, batch.offset, None, batch.prompt_valid)
        P, A = batch.prompt_ids.shape[1], batch.answer.shape[1]
        dev = batch.prompt_ids.device
        clean_x = torch.cat([self.embed(batch.prompt_ids),
                             self.answer_embed(mem, batch.answer, torch.arange(A, device=dev) % bs, MASK_ID)], 1)
        noisy_x = self.answer_embed(mem, batch.noisy, torch.arange(batch.noisy.shape[1], device=dev) % bs, MASK_ID)
        clean_valid = torch.cat([batch.prompt_valid, batch.answer_valid], 1)
        out = self(clean_valid=clean_valid, clean_x=clean_x, noisy_valid=batch.noisy_valid, noisy_x=noisy_x,
                   noisy_hist=batch.noisy_hist)
        self.set_keys(mem, out.clean[:, :P])
        ce = pointer_ce(self.pointer_logits(out.noisy, mem)[batch.loss_mask], batch)
        return ce + self.cfg.aux_loss_coef * out.aux, ce.detach(), out.aux.detach()

    # ------------------------------------------------------------------ decoding
    def read_group(self, prompts: list[list[int]]) -> PromptRead:
        """One length group's first call: the prompts left-padded to whole blocks and read block-causally, their
        pointer keys, and answer block 0's first denoising step in the same call (its pointer logits)."""
        bs = self.cfg.block_size
        dev = self.device
        mem, null = prompt_memory(prompts, bs, dev)
        masked = torch.full((len(prompts), bs), -1, dtype=torch.long, device=dev)
        out = self(clean_valid=mem.valid, clean_x=self.embed(mem.ids),
                   noisy_valid=torch.ones(len(prompts), bs, dtype=torch.bool, device=dev),
                   noisy_x=self.answer_embed(mem, masked, torch.arange(bs, device=dev), MASK_ID),
                   noisy_hist=torch.tensor([mem.ids.shape[1] // bs], device=dev))
        self.set_keys(mem, out.clean)
        return PromptRead(mem, null, out.cache, self.pointer_logits(out.noisy, mem))

    @torch.no_grad()
    def decode(self, prompts: list[list[int]], *, tau: float | None = None, max_answer_tokens: int | None = None,
               min_commit: int = 1, trace: bool = False, read_cache: ReadCache | None = None,
               go_on: float | None = None, passes: Sequence[str] | None = None) -> DecodeResult:
        """Block-diffusion decoding of a batch of prompts (each: message ids + SEP): the reference sampler
        (``sampler.sample``: confidence threshold ``tau``, at least ``min_commit`` slots per step, a NULL anchor or
        ``next`` stops) with the decoding ``passes`` (``airspace.model.passes``; None: ``self.passes``, by default
        all of them; ``()``: the reference sampler alone). ``go_on``: the log-prob floor of ``continue_past_stop``
        (None: off). The prompts are read in length groups fused with block 0's first step; a finished block
        becomes history in the next call, fused with the next block's first step, so history is never recomputed;
        finished rows leave the batch. ``read_cache`` keeps and reuses the prompt reads."""
        run = _Decoding(self, prompts, read_cache, trace)
        chosen = make_passes(self.passes if passes is None else passes, run, go_on)
        return sample(run, threshold=self.cfg.tau if tau is None else tau, min_commit=min_commit,
                      max_blocks=max_blocks(self.cfg, max_answer_tokens), passes=chosen)


class _Decoding:
    """The batch being decoded, the denoiser the sampler runs: the message each row is, its prompt memory, NULL
    column and history, the finished block waiting to become history, and the result so far."""

    def __init__(self, model: CloverLM, prompts: list[list[int]], read_cache: ReadCache | None, trace: bool):
        self.model = model
        self.bs = model.cfg.block_size
        self.device = dev = model.device
        self.slot = torch.arange(self.bs, device=dev)
        n = len(prompts)
        self.res = res = DecodeResult.empty(n, trace=trace)
        t_call = time.perf_counter()
        # the first call, per length group: read the prompts and run answer block 0's first step (``read_group``);
        # then the groups join into one batch for the rest of the decoding
        read = read_prompts(model, prompts, read_cache)
        res.cached = read.cached
        res.forwards += n  # a kept read was a row-forward too, of an earlier call
        res.calls += len(read.groups)
        res.rows_per_call += [len(g) for g in read.groups]
        self.pending = torch.cat([left_pad(s, e, 2, float("-inf")) for s, e in zip(read.starts, read.shifts)])
        res.prefill_s = since(t_call, dev)
        self.rows = torch.tensor(read.order, dtype=torch.long, device=dev)  # finished rows leave
        self.mem, self.null, self.cache = read.memory, read.null, read.cache
        # the block now being written was continued to (``passes.ContinuePastStop``)
        self.went_on = torch.zeros(n, dtype=torch.bool, device=dev)
        # the committed block not yet in the cache (none before block 0)
        self.clean_valid = self.mem.valid[:, :0]
        self.clean_x = model.embed(self.mem.ids[:, :0])

    def step(self, block: Block) -> tuple[torch.Tensor, torch.Tensor | None, torch.Tensor]:
        """One denoising step: (pointer logits, the rows that ran (None: all), their offsets)."""
        if self.pending is not None:  # block 0's first step ran with the prompt read
            logits, self.pending = self.pending, None
            return logits, None, self.mem.offset
        active = block.masked.any(1)
        committing = self.clean_valid.shape[1] > 0
        # a later step of a block commits nothing to the history, so only the rows with masks left run it
        sub = None if committing or bool(active.all()) else active.nonzero()[:, 0]
        x, valid, mem, cache = block.x, block.valid, self.mem, self.cache
        clean_valid, clean_x = self.clean_valid, self.clean_x
        if sub is not None:
            x, mem, cache = x[sub], mem.select(sub), cache.select(sub)
            clean_valid, clean_x, valid = clean_valid[sub], clean_x[sub], valid[sub]
        noisy_x = self.model.answer_embed(mem, torch.where(x < 0, -1, x - mem.offset[:, None]), self.slot, MASK_ID)
        out = self.model(clean_valid=clean_valid, clean_x=clean_x, noisy_valid=valid, noisy_x=noisy_x,
                         noisy_hist=torch.tensor([self.clean_valid.shape[1] // self.bs], device=x.device),
                         cache=cache)
        if committing:  # the finished block is history now
            self.cache = out.cache
            self.clean_valid, self.clean_x = self.clean_valid[:, :0], self.clean_x[:, :0]
        self.res.forwards += int(active.sum())
        self.res.calls += 1
        self.res.rows_per_call.append(x.shape[0])
        return self.model.pointer_logits(out.noisy, mem), sub, mem.offset

    def trace_step(self, block: Block) -> None:
        if self.res.trace is None:
            return
        now = [list(r) for r in self.res.slots]  # finished messages as they ended
        for i, xr, mr, o in zip(self.rows.tolist(), block.x.tolist(), block.masked.tolist(),
                                self.mem.offset.tolist()):
            now[i] += [None if mk else v - o for v, mk in zip(xr, mr)]
        self.res.trace.append(now)

    def write(self, block: Block) -> None:
        """Append the finished block to every row's answer (prompt indices, alternatives, tokens, stop)."""
        res = self.res
        xs, offs, nulls = block.x.tolist(), self.mem.offset.tolist(), self.null.tolist()
        ai, av = block.alt_i.tolist(), block.alt_v.tolist()
        for j, i in enumerate(self.rows.tolist()):
            res.steps_per_block[i].append(int(block.steps[j]))
            res.slots[i].extend(c - offs[j] for c in xs[j])
            # a NULL anchor that stopped the block wrote its other slots without a choice of their own
            stopped = xs[j][0] == nulls[j]
            res.alts[i].extend([(c - offs[j], 0.0)] if stopped and k else alternatives(ai[j][k], av[j][k])
                               for k, c in enumerate(xs[j]))
            if stopped:
                res.tokens[i] += 1
                res.finished[i] = True
            else:
                res.tokens[i] += self.bs
                if xs[j][-1] == nulls[j]:
                    res.finished[i] = True

    def next_block(self, block: Block) -> bool:
        """The rows whose answer ended leave the batch (their history, prompt and keys with them); the finished
        block becomes history in the next call. -> whether any row is left."""
        x, null = block.x, self.null
        keep = (~((x[:, 0] == null) | (x[:, -1] == null))).nonzero()[:, 0]
        if keep.numel() == 0:
            return False
        if keep.numel() < x.shape[0]:
            self.rows, self.mem, self.null, self.cache = (self.rows[keep], self.mem.select(keep), null[keep],
                                                          self.cache.select(keep))
            self.went_on = self.went_on[keep]
            x = x[keep]
        self.clean_valid = torch.ones(keep.numel(), self.bs, dtype=torch.bool, device=x.device)
        self.clean_x = self.model.answer_embed(self.mem, x - self.mem.offset[:, None], self.slot, MASK_ID)
        return True
