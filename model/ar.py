"""The autoregressive baseline: the same hybrid backbone (GDN + gated attention + MoE), fully causal, same size.

Training is next-slot prediction of the pointer answer given the message; decoding (``ARLM.decode``) reads the
prompts, then writes one slot per forward (greedy) with the KV cache and the recurrent GDN state.
"""

from __future__ import annotations

import time

import torch

from airspace.model import decoding
from airspace.model.backbone import Backbone, Memory, prompt_memory
from airspace.model.batch import Batch, left_pad_prompts, pointer_ce, prompt_offsets, right_pad_answers, slot_weights
from airspace.model.decoding import DecodeResult, alternatives, max_blocks, since, top_alternatives
from airspace.model.layers import GatedAttention, GatedDeltaNet
from airspace.model.pointers import places_anew
from airspace.model.reading import PromptRead, ReadCache, read_prompts
from airspace.model.tokenizer import MASK_ID


class ARLM(Backbone):
    """Causal pointer LM over [message <sep> answer slots]."""

    ARCH = "ar"
    MIXERS = {"G": GatedDeltaNet, "A": GatedAttention}
    BLOCK_CAUSAL = False
    prompt_multiple = 1  # prompts are left-padded to the longest, token by token

    def check_segment(self, Tc: int, Tn: int) -> None:
        if Tn:
            raise ValueError("the AR baseline has no noisy blocks")

    # ------------------------------------------------------------------ training
    def objective(self) -> str:
        """The training objective in words (for the checkpoint's recipe)."""
        return "next-slot pointer CE on the answer given the message"

    def example_cost(self, prompt_len: int, answer_len: int) -> int:
        """Tokens one example puts in a training forward."""
        return prompt_len + answer_len

    def training_batch(self, prompts: list[list[int]], answers: list[list[int]], *, pad_id: int,
                       generator: torch.Generator | None = None, slot_weight: torch.Tensor | None = None) -> Batch:
        """[left-padded prompt ; right-padded pointer answer]; each slot is predicted from the position before it
        (nothing is drawn: ``generator`` is not used). ``slot_weight``: a loss weight per slot of a zone's block."""
        p_ids, p_valid = left_pad_prompts(prompts, pad_id, 1)
        offset = prompt_offsets(prompts, p_ids.shape[1])
        a_ptr, a_valid = right_pad_answers(answers, 1)
        return Batch(prompt_ids=p_ids, prompt_valid=p_valid, offset=offset, answer=a_ptr, answer_valid=a_valid,
                     target=offset[:, None] + a_ptr, loss_mask=a_valid, n_tokens=int(p_ids.numel() + a_ptr.numel()),
                     loss_weight=slot_weights((torch.arange(a_ptr.shape[1]) % self.cfg.block_size).repeat(
                         a_ptr.shape[0], 1), slot_weight))

    def inputs(self, mem: Memory, prompt_ids: torch.Tensor | None, answer: torch.Tensor,
               first_slot: int) -> torch.Tensor:
        """Input embeddings of a segment: the input at each position carries the embedding of the slot it
        predicts. ``prompt_ids`` (or None in decode steps) end with SEP, which predicts slot 0; answer token i (the
        ``first_slot + i``-th slot of the answer) predicts slot ``first_slot + i + 1``."""
        bs = self.cfg.block_size
        dev = answer.device
        parts = []
        if prompt_ids is not None:
            px = self.embed(prompt_ids)
            px = torch.cat([px[:, :-1], px[:, -1:] + self.slot_embed.weight[0]], 1)
            parts.append(px)
        slot = (first_slot + 1 + torch.arange(answer.shape[1], device=dev)) % bs
        parts.append(self.answer_embed(mem, answer, slot, MASK_ID))
        return torch.cat(parts, 1)

    def loss(self, batch: Batch):
        """(total loss, next-slot pointer cross-entropy, aux)."""
        mem = Memory(batch.prompt_ids, batch.offset, None, batch.prompt_valid)
        P, A = batch.prompt_ids.shape[1], batch.answer.shape[1]
        x = self.inputs(mem, batch.prompt_ids, batch.answer, 0)
        out = self(clean_valid=torch.cat([batch.prompt_valid, batch.answer_valid], 1), clean_x=x)
        self.set_keys(mem, out.clean[:, :P])
        h_pred = out.clean[:, P - 1:P - 1 + A]  # position j predicts slot j + 1
        ce = pointer_ce(self.pointer_logits(h_pred, mem)[batch.loss_mask], batch)
        return ce + self.cfg.aux_loss_coef * out.aux, ce.detach(), out.aux.detach()

    # ------------------------------------------------------------------ decoding
    def read_group(self, prompts: list[list[int]]) -> PromptRead:
        """One length group's first call: the prompts left-padded together and read causally, their pointer keys,
        and the last prompt position's hidden state (it predicts slot 0)."""
        mem, null = prompt_memory(prompts, 1, self.device)
        x = self.inputs(mem, mem.ids, mem.ids.new_zeros(len(prompts), 0), 0)
        out = self(clean_valid=mem.valid, clean_x=x)
        self.set_keys(mem, out.clean)
        return PromptRead(mem, null, out.cache, out.clean[:, -1:])

    @torch.no_grad()
    def decode(self, prompts: list[list[int]], *, max_answer_tokens: int | None = None, trace: bool = False,
               read_cache: ReadCache | None = None, go_on: float | None = None) -> DecodeResult:
        """Greedy decoding, one slot per forward, KV cache + recurrent GDN state: each step writes every running
        row's likeliest pointer; a NULL anchor (no more zones: it stands for its whole block) or a NULL ``next``
        (that was the last zone) ends the row, which leaves the batch. ``trace``: every step's slots so far, the
        block being written padded with None. ``read_cache`` keeps and reuses the prompt reads."""
        bs = self.cfg.block_size
        dev = self.device
        n = len(prompts)
        t_call = time.perf_counter()
        read = read_prompts(self, prompts, read_cache)  # per length group (``read_group``), joined into one batch
        res = DecodeResult.empty(n, trace=trace)
        res.forwards, res.calls, res.cached = n, len(read.groups), read.cached
        res.prefill_s = since(t_call, dev)
        res.rows_per_call = [len(g) for g in read.groups]
        rows = torch.tensor(read.order, dtype=torch.long, device=dev)  # finished rows leave
        mem, null, cache = read.memory, read.null, read.cache
        last = torch.cat(read.starts)  # the last prompt position needs no padding
        went_on = torch.zeros(n, dtype=torch.bool, device=dev)  # the block now being written follows a go-on
        start_slots, end_slots = decoding.fresh_place_slots(self.cfg.fields)
        for t in range(max_blocks(self.cfg, max_answer_tokens) * bs):
            logits = self.pointer_logits(last, mem)[:, 0]
            s = t % bs
            if (s in start_slots or s in end_slots) and bool(went_on.any()):
                # a block gone on to is kept off the places the answer already has
                for j in went_on.nonzero()[:, 0].tolist():
                    o = int(mem.offset[j])
                    starts, ends = decoding.fresh_place_bans(res.slots[int(rows[j])][:t // bs * bs], int(null[j]) - o,
                                                             o, logits.shape[-1], self.cfg.fields, dev)
                    logits[j] = logits[j].masked_fill(starts if s in start_slots else ends, float("-inf"))
            nxt = logits.argmax(-1)  # [rows] prompt columns
            ti, tv = top_alternatives(logits, mem.offset)
            if s == bs - 1 and go_on is not None:
                # a close-call NULL next goes on, or a block gone on to that places nothing new is taken back, its
                # row ending as a NULL anchor would (``decoding.going_on``)
                rl = rows.tolist()
                nulls = [n_ - o for n_, o in zip(null.tolist(), mem.offset.tolist())]
                need = ((nxt == null) | went_on).tolist()
                new = [nd and places_anew(res.slots[i][-(bs - 1):], res.slots[i][:-(bs - 1)], nl, self.cfg.fields)
                       for i, nl, nd in zip(rl, nulls, need)]
                nxt, went_on, back = decoding.going_on(nxt, null, ti + mem.offset[:, None], tv, go_on,
                                                       torch.tensor(new, device=dev), went_on)
                for i, nl, bk in zip(rl, nulls, back.tolist()):
                    if bk:
                        res.slots[i][-(bs - 1):] = [nl] * (bs - 1)
                        res.alts[i][-(bs - 1):] = [[(nl, 0.0)]] * (bs - 1)
                res.note_going_on(rl, went_on.tolist(), bs)
            # a NULL anchor (no more zones) or a NULL next (that was the last zone) ends the row
            stop = (nxt == null) & (s in (0, bs - 1))
            for i, c, o, st, ai, av in zip(rows.tolist(), nxt.tolist(), mem.offset.tolist(), stop.tolist(),
                                           ti.tolist(), tv.tolist()):
                k = bs if s == 0 and st else 1  # a NULL anchor stands for its block
                res.slots[i].extend([c - o] * k)
                res.alts[i].extend([alternatives(ai, av)] + [[(c - o, 0.0)]] * (k - 1))
                res.tokens[i] += 1
                res.finished[i] = st
            if res.trace is not None:
                res.trace.append([r + [None] * (-len(r) % bs) for r in res.slots])
            if bool(stop.all()):
                break
            if bool(stop.any()):
                keep = (~stop).nonzero()[:, 0]
                rows, mem, null, nxt, cache = rows[keep], mem.select(keep), null[keep], nxt[keep], cache.select(keep)
                went_on = went_on[keep]
            m = rows.numel()
            x = self.inputs(mem, None, (nxt - mem.offset)[:, None], t)
            out = self(clean_valid=x.new_ones(m, 1, dtype=torch.bool), clean_x=x, cache=cache)
            last, cache = out.clean, out.cache
            res.forwards += m
            res.calls += 1
            res.rows_per_call.append(m)
        return res
