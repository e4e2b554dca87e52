"""Decoding for both engines, batched over messages.

Clover (block diffusion): the first forward prefills the left-padded prompt (whole blocks, block-causal) and runs
the first denoising step of answer block 0 in the same call. Each step commits every masked position whose top
probability is >= tau (at least one per row) via ``ops.confidence_select``. When a block has no mask left it is
committed into the GDN state / KV cache by the next call, fused with the next block's first step, so history is
never recomputed. A committed EOA ends the row's answer (positions after it in the block are filled with EOA).

AR baseline: prefill, then one token per forward (greedy) with the KV cache and the recurrent GDN state.

``forwards`` counts row-forwards: a batched call over b still-running rows counts b, so tokens per forward is
comparable between engines and independent of the batch size.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import torch

from airspace.kernels import ops
from airspace.model.clover import Backbone, left_pad_prompts
from airspace.model.constraints import CopyConstraint
from airspace.model.tokenizer import Tokenizer

MASK_GLYPH = "\u2591"  # how a still-masked position shows in a trace


@dataclass
class DecodeResult:
    ids: list[list[int]]  # answer token ids per row (EOA excluded)
    finished: list[bool]  # False: the answer hit max_answer_tokens without EOA
    forwards: int = 0  # row-forwards
    calls: int = 0  # batched model calls
    steps_per_block: list[list[int]] = field(default_factory=list)  # per row
    trace: list[list[str]] | None = None  # per step, per row: the answer so far with the current block


def _cut_at_eoa(ids: list[int], eoa: int) -> tuple[list[int], bool]:
    return (ids[:ids.index(eoa)], True) if eoa in ids else (ids, False)


@torch.no_grad()
def _constraints(prompts, tok, model, constrain):
    if not constrain:
        return None
    return [CopyConstraint(tok, p[:-1] if p and p[-1] == tok.sep_id else p, model.cfg.vocab_size,
                           model.device) for p in prompts]


def clover_decode(model: Backbone, prompts: list[list[int]], tok: Tokenizer, *, tau: float | None = None,
                  max_answer_tokens: int | None = None, min_commit: int = 1, trace: bool = False,
                  constrain: bool = False) -> DecodeResult:
    """Block-diffusion decoding of a batch of prompts (each: message ids + SEP).

    ``constrain``: apply the copy constraint (``airspace.model.constraints``) to every masked position whose left
    context is committed."""
    cfg = model.cfg
    bs = cfg.block_size
    tau = cfg.tau if tau is None else tau
    max_blocks = -(-(max_answer_tokens or cfg.max_answer_tokens) // bs)
    dev = model.device
    n = len(prompts)
    clean, clean_valid = (t.to(dev) for t in left_pad_prompts(prompts, tok.pad_id, bs))
    cache = None
    done = torch.zeros(n, dtype=torch.bool, device=dev)
    out: list[list[int]] = [[] for _ in range(n)]
    res = DecodeResult(out, [False] * n, steps_per_block=[[] for _ in range(n)], trace=[] if trace else None)
    ones = torch.ones(n, bs, dtype=torch.bool, device=dev)
    pos = torch.arange(bs, device=dev)
    cons = _constraints(prompts, tok, model, constrain)
    for _ in range(max_blocks):
        x = torch.full((n, bs), tok.mask_id, dtype=torch.long, device=dev)
        masked = (~done)[:, None].expand(n, bs).clone()
        steps = torch.zeros(n, dtype=torch.long, device=dev)
        while masked.any():
            active = masked.any(1)
            hist = torch.tensor([clean.shape[1] // bs], device=dev)
            _, h, _, new_cache = model(clean, clean_valid, x, ones, hist, cache)
            if clean.shape[1]:
                cache = new_cache
                clean, clean_valid = clean[:, :0], clean_valid[:, :0]
            res.forwards += int(active.sum())
            res.calls += 1
            logits = model.logits(h)
            if cons is not None:
                xs, ms = x.tolist(), masked.tolist()
                for i in range(n):
                    for p in range(bs):
                        if ms[i][p]:
                            a = cons[i].allowed(out[i] + xs[i][:p])
                            if a is not None:
                                logits[i, p].masked_fill_(~a, float("-inf"))
            commit, token, _ = ops.confidence_select(logits, masked, tau, min_commit=min_commit)
            x = torch.where(commit, token, x)
            masked &= ~commit
            steps += active.long()
            # a committed EOA ends the answer: everything after it in the block is EOA too
            eoa_at = torch.where((x == tok.eoa_id) & ~masked, pos[None, :], bs).amin(1)  # [n]
            after = pos[None, :] > eoa_at[:, None]
            x = torch.where(after, tok.eoa_id, x)
            masked &= ~after
            if trace:
                res.trace.append([
                    tok.decode(out[i]) + "".join(MASK_GLYPH if m else tok.decode([t], stop_at_eoa=False)
                                                 for t, m in zip(x[i].tolist(), masked[i].tolist()))
                    for i in range(n)])
        xs = x.tolist()
        for i in range(n):
            if done[i]:
                continue
            res.steps_per_block[i].append(int(steps[i]))
            ids, fin = _cut_at_eoa(xs[i], tok.eoa_id)
            out[i].extend(ids)
            if fin:
                res.finished[i] = True
        # the finished block becomes history in the next call (fused with the next block's first step)
        clean, clean_valid = x, (~done)[:, None].expand(n, bs).clone()
        done |= (x == tok.eoa_id).any(1)
        if bool(done.all()):
            break
    return res


@torch.no_grad()
def ar_decode(model: Backbone, prompts: list[list[int]], tok: Tokenizer, *,
              max_answer_tokens: int | None = None, constrain: bool = False) -> DecodeResult:
    """Greedy autoregressive decoding, one token per forward, KV cache + recurrent GDN state."""
    cfg = model.cfg
    max_tokens = max_answer_tokens or cfg.max_answer_tokens
    dev = model.device
    n = len(prompts)
    ids, valid = (t.to(dev) for t in left_pad_prompts(prompts, tok.pad_id, 1))
    h, _, _, cache = model(ids, valid)
    res = DecodeResult([[] for _ in range(n)], [False] * n, forwards=n, calls=1)
    done = torch.zeros(n, dtype=torch.bool, device=dev)
    last = h[:, -1:]
    cons = _constraints(prompts, tok, model, constrain)
    for _ in range(max_tokens):
        logits = model.logits(last[:, 0])
        if cons is not None:
            for i in range(n):
                a = cons[i].allowed(res.ids[i])
                if a is not None:
                    logits[i].masked_fill_(~a, float("-inf"))
        nxt = logits.argmax(-1)  # [n]
        for i, t in enumerate(nxt.tolist()):
            if done[i]:
                continue
            if t == tok.eoa_id:
                res.finished[i] = True
            else:
                res.ids[i].append(t)
        done |= nxt == tok.eoa_id
        if bool(done.all()):
            break
        active = int((~done).sum())
        last, _, _, cache = model(nxt[:, None], (~done)[:, None], cache=cache)
        res.forwards += active
        res.calls += 1
    return res
