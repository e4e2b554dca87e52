"""Decoding for both engines, batched over messages, in pointer slots (``airspace.model.pointers``).

Both engines read the prompts in groups of similar length (``length_buckets``: each group left-padded to its own
longest, not the batch's) and join the groups into one batch for decoding (``merge_prompt_reads``). On a CPU the
groups are read side by side, one worker thread per core with one torch thread each (``read_groups``): the groups
are independent, so no core waits on another at every op the way torch's own threads do.

Clover (block diffusion): the first forward of a group reads its left-padded prompts (whole blocks, block-causal),
computes the prompts' pointer keys, and runs the first denoising step of answer block 0 in the same call. Each
step commits every masked slot whose top pointer probability is >= tau (at least one per row) via
``ops.confidence_select``.
When a block has no mask left it is committed into the GDN state / KV cache by the next call, fused with the next
block's first step, so history is never recomputed. A block is one zone; a committed NULL ``anchor`` means "no
(more) zone" and fills the rest of the block with NULL; a row stops after such a block or after a NULL ``next``.

AR baseline: the prompt read (per group), then one slot per forward (greedy) with the KV cache and the recurrent
GDN state; the same stop rules (a NULL anchor ends the answer at once; so does a NULL ``next``).

A later denoising step of a block runs only the rows that still have masks (it adds nothing to the history), and
both engines drop a finished message's row from the batch (its prompt, pointer keys, GDN state and KV cache with
it), so a long composite does not make every short message in its batch pay for its extra blocks or slots.

Each written slot keeps the model's ``N_ALTS`` likeliest pointers with their log-probabilities (``alts``), for the
span-constrained choice of ``pointers.repair_block``.

``forwards`` counts row-forwards: a batched call over b still-running rows counts b, so tokens per forward is
comparable between engines and independent of the batch size. ``tokens`` counts the slots each answer holds
(a zone block is N_SLOTS; a final NULL anchor is 1), the same number for the same answer whichever engine wrote it.
"""

from __future__ import annotations

import os
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field

import torch

from airspace.kernels import ops
from airspace.model.ar import ar_inputs
from airspace.model.clover import Backbone, Cache, Memory, left_pad_prompts
from airspace.model.layers import AttnCache, rope
from airspace.model.pointers import N_SLOTS
from airspace.model.tokenizer import MASK_ID, PAD_ID


@dataclass
class DecodeResult:
    slots: list[list[int]]  # pointer slots per row (prompt indices), whole blocks; a trailing NULL block included
    finished: list[bool]  # False: the answer hit the block limit without a stop
    forwards: int = 0  # row-forwards
    prefill_s: float = 0.0  # wall seconds of the first call (reads the prompts; Clover fuses its first step)
    calls: int = 0  # batched model calls
    tokens: list[int] = field(default_factory=list)  # answer tokens per row (see module docstring)
    steps_per_block: list[list[int]] = field(default_factory=list)  # per row (Clover)
    rows_per_call: list[int] = field(default_factory=list)  # batch rows each call computed (finished rows leave)
    trace: list[list[list[int | None]]] | None = None  # per step, per row: slots so far + current block (None=mask)
    # per row, per slot: the model's N_ALTS likeliest prompt indices with their log-probabilities when the slot was
    # written (the first is the one written), for ``pointers.repair_block``
    alts: list[list[list[tuple[int, float]]]] = field(default_factory=list)
    cached: int = 0  # prompts whose read came from a ``ReadCache`` (read by an earlier call, not this one)


N_ALTS = 4  # alternatives kept per slot


def _top(logits: torch.Tensor, offset: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(prompt indices [.., N_ALTS], log-probs [.., N_ALTS]) of the likeliest columns of pointer logits [B, .., P]."""
    lp, col = logits.log_softmax(-1).topk(min(N_ALTS, logits.shape[-1]), -1)
    return col - offset.view(-1, *([1] * (col.dim() - 1))), lp


def _alts(cols: list, lps: list) -> list[tuple[int, float]]:
    return [(c, round(v, 4)) for c, v in zip(cols, lps) if v > float("-inf")]


def _memory(model: Backbone, prompts: list[list[int]], multiple: int) -> tuple[Memory, torch.Tensor]:
    """(the left-padded prompts as pointer memory, each row's NULL column = its SEP position)."""
    ids, valid = left_pad_prompts(prompts, PAD_ID, multiple)
    off = torch.tensor([ids.shape[1] - len(p) for p in prompts], dtype=torch.long)
    dev = model.device
    null = off + torch.tensor([len(p) - 1 for p in prompts], dtype=torch.long)
    return Memory(ids.to(dev), off.to(dev), None, valid.to(dev)), null.to(dev)


BUCKET_OVERHEAD = 64  # a prompt-reading call's fixed cost, in padded prompt tokens (one row-token ≈ 65 µs on CPU)
# On CUDA a call costs its launches (~1 ms for the shipped model) and a padded row-token next to nothing, so a batch
# is read as one group unless its lengths differ by tens of thousands of padded tokens. An estimate from launch
# counts, not yet measured on a GPU.
CUDA_BUCKET_OVERHEAD = 16384


def bucket_overhead(device: torch.device) -> int:
    """A prompt-reading call's fixed cost in padded prompt tokens on ``device`` (for ``length_buckets``)."""
    return CUDA_BUCKET_OVERHEAD if device.type == "cuda" else BUCKET_OVERHEAD


def length_buckets(lengths: list[int], multiple: int, overhead: int | None = None) -> list[list[int]]:
    """Rows grouped by prompt length for reading the prompts: each group is left-padded to its own longest prompt
    (a multiple of ``multiple``) instead of the batch's, minimising padded tokens + ``overhead`` per group (exact,
    by dynamic programming over the rows sorted by length). Returns row indices, shortest group first."""
    overhead = BUCKET_OVERHEAD if overhead is None else overhead
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    padded = [-(-lengths[i] // multiple) * multiple for i in order]
    n = len(order)
    best = [0.0] + [float("inf")] * n  # best[j]: cost of grouping the j shortest rows
    cut = [0] * (n + 1)
    for j in range(1, n + 1):
        for i in range(j):  # rows i..j-1 form the last group, padded to padded[j-1]
            c = best[i] + (j - i) * padded[j - 1] + overhead
            if c < best[j]:
                best[j], cut[j] = c, i
    groups, j = [], n
    while j:
        groups.append(order[cut[j]:j])
        j = cut[j]
    return groups[::-1]


MAX_READ_WORKERS = 8


def read_workers(device: torch.device, n_groups: int) -> int:
    """How many prompt groups to read at once: 1 on CUDA (one stream does it), else one per core (at most
    ``MAX_READ_WORKERS``) and never more than there are groups. ``AIRSPACE_READ_WORKERS`` overrides (1 = in turn)."""
    env = os.environ.get("AIRSPACE_READ_WORKERS", "").strip()
    if env:
        try:
            n = int(env)
        except ValueError:
            raise ValueError(f"AIRSPACE_READ_WORKERS must be a whole number, got {env!r}") from None
    else:
        n = 1 if device.type == "cuda" else min(os.cpu_count() or 1, MAX_READ_WORKERS)
    return max(1, min(n, n_groups))


_pools: dict[tuple[int, int], ThreadPoolExecutor] = {}
_pools_lock = threading.Lock()


def _pool(workers: int, threads: int) -> ThreadPoolExecutor:
    """A process-wide pool of ``workers`` threads, each running torch ops on ``threads`` intra-op threads."""
    with _pools_lock:
        if (workers, threads) not in _pools:
            _pools[workers, threads] = ThreadPoolExecutor(workers, thread_name_prefix="airspace-read",
                                                          initializer=torch.set_num_threads, initargs=(threads,))
        return _pools[workers, threads]


def read_groups(read, groups: list[list[int]], cost: list[int], device: torch.device) -> list:
    """``[read(g) for g in groups]``, computed side by side on a CPU (``read_workers``): the costliest group first,
    each worker taking the next group when it is free, so a core another process holds slows only its own worker.
    The workers run one torch thread each (the caller's thread count is unchanged); each group's numbers are those
    of reading it alone, whichever worker read it."""
    workers = read_workers(device, len(groups))
    if workers == 1:
        return [read(g) for g in groups]
    before = torch.get_num_threads()
    threads = max(1, before // workers)
    order = sorted(range(len(groups)), key=lambda i: -cost[i])
    try:
        futures = {i: _pool(workers, threads).submit(_no_grad_call, read, groups[i]) for i in order}
        return [futures[i].result() for i in range(len(groups))]
    finally:
        if torch.get_num_threads() != before:  # a worker's start set its own count, which torch also reports here
            torch.set_num_threads(before)


def _no_grad_call(fn, *args):
    with torch.no_grad():  # grad mode is per thread: the decoding's no_grad does not reach the workers
        return fn(*args)


def _left_pad(t: torch.Tensor, extra: int, dim: int, value=0) -> torch.Tensor:
    if not extra:
        return t
    shape = list(t.shape)
    shape[dim] = extra
    return torch.cat([t.new_full(shape, value), t], dim)


def merge_prompt_reads(model: Backbone, parts: list[tuple[Memory, torch.Tensor, Cache]]
                       ) -> tuple[Memory, torch.Tensor, Cache, list[int]]:
    """Join prompt groups read separately into one batch: every group is left-padded to the longest (padding is
    invalid everywhere: prompt, pointer keys, KV cache) and its cached attention keys are rotated on by the columns
    they moved (RoPE angles add), so each row's history is what reading it in the joined batch would have given.
    GDN states and conv tails carry no positions and are joined as they are. -> (memory, NULL columns, cache,
    column shift of each group)."""
    P = max(mem.ids.shape[1] for mem, _, _ in parts)
    shifts = [P - mem.ids.shape[1] for mem, _, _ in parts]
    if len(parts) == 1:
        mem, null, cache = parts[0]
        return mem, null, cache, shifts
    theta = model.cfg.rope_theta
    mems, nulls, caches = [], [], []
    for (mem, null, cache), e in zip(parts, shifts):
        keys = None if mem.keys is None else _left_pad(mem.keys, e, 1)
        mems.append(Memory(_left_pad(mem.ids, e, 1, PAD_ID), mem.offset + e, keys, _left_pad(mem.valid, e, 1, False)))
        nulls.append(null + e)
        layers = []
        for c in cache.layers:
            if isinstance(c, AttnCache):
                k = c.k if not e else rope(c.k, torch.full((c.k.shape[2],), e, device=c.k.device), theta)
                c = AttnCache(_left_pad(k, e, 2), _left_pad(c.v, e, 2))
            layers.append(c)
        caches.append(Cache(layers, _left_pad(cache.valid, e, 1, False)))
    return Memory.join(mems), torch.cat(nulls), Cache.join(caches), shifts


class ReadCache:
    """Prompt reads kept per message, least recently used first out, keyed by the prompt's token ids.

    A read is what a decoder's first call computes for one row from the message alone: its pointer memory, NULL
    column, GDN states / conv tails / KV cache, and the output the answer starts from (Clover: block 0's first
    denoising step; AR: the last prompt position). A later batch that holds the message joins the kept row to the
    rows it reads itself (``merge_prompt_reads``, as it joins its own length groups), so an operator's re-run, a
    batch with one message edited, or a batch read ahead before Run (``read_ahead``) reads only what is new. One
    cache serves one model. Bounded by the bytes its tensors hold (demo20's 20 messages keep ~11 MB with the
    shipped model, ~0.55 MB a message). Thread-safe."""

    def __init__(self, max_bytes: int = 128 * 2**20):
        self.max_bytes = max_bytes
        self.bytes = 0
        self._rows: OrderedDict = OrderedDict()  # prompt ids -> (row, its bytes)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._rows)

    def get(self, prompt: list[int]):
        key = tuple(prompt)
        with self._lock:
            kept = self._rows.get(key)
            if kept is None:
                return None
            self._rows.move_to_end(key)
            return kept[0]

    def put(self, prompt: list[int], row) -> None:
        key, size = tuple(prompt), _tensor_bytes(row)
        with self._lock:
            old = self._rows.pop(key, None)
            self.bytes -= old[1] if old else 0
            self._rows[key] = (row, size)
            self.bytes += size
            while self.bytes > self.max_bytes and len(self._rows) > 1:
                _, (_, gone) = self._rows.popitem(last=False)
                self.bytes -= gone

    def clear(self) -> None:
        with self._lock:
            self._rows.clear()
            self.bytes = 0


def _tensor_bytes(x) -> int:
    """Bytes held by the tensors in a nest of tuples, lists and dataclasses (a kept prompt read)."""
    if isinstance(x, torch.Tensor):
        return x.numel() * x.element_size()
    if isinstance(x, (tuple, list)):
        return sum(_tensor_bytes(v) for v in x)
    if hasattr(x, "__dataclass_fields__"):
        return sum(_tensor_bytes(getattr(x, f)) for f in x.__dataclass_fields__)
    return 0


def _read_group(model: Backbone, prompts: list[list[int]]):
    """One length group's first call: the prompts left-padded together and read, and the output the answer starts
    from. Clover reads whole blocks (block-causal) and runs answer block 0's first denoising step in the same call
    (its pointer logits); AR reads causally and keeps the last prompt position's hidden state.
    -> ((memory, NULL columns, KV/state cache), start output)."""
    dev = model.device
    if model.cfg.arch == "clover":
        bs = model.cfg.block_size
        mem, null = _memory(model, prompts, bs)
        masked_x = torch.full((len(prompts), bs), -1, dtype=torch.long, device=dev)
        ones = torch.ones(len(prompts), bs, dtype=torch.bool, device=dev)
        h_clean, h, _, kv = model(mem.valid.long(), mem.valid, masked_x, ones,
                                  torch.tensor([mem.ids.shape[1] // bs], device=dev), None,
                                  clean_x=model.embed(mem.ids),
                                  noisy_x=model.answer_embed(mem, masked_x, torch.arange(bs, device=dev), MASK_ID))
        model.set_keys(mem, h_clean)
        return (mem, null, kv), model.pointer_logits(h, mem)
    mem, null = _memory(model, prompts, 1)
    x = ar_inputs(model, mem, mem.ids, mem.ids.new_zeros(len(prompts), 0), 0)
    h, _, _, kv = model(mem.valid.long(), mem.valid, clean_x=x)
    model.set_keys(mem, h)
    return (mem, null, kv), h[:, -1:]


def _read_new(model: Backbone, prompts: list[list[int]], cache: ReadCache | None):
    """Read the prompts ``cache`` does not hold, in length groups side by side, and keep each row's read there.
    -> (index -> kept read, the groups read, their reads)."""
    kept = {i: r for i, p in enumerate(prompts) if cache is not None and (r := cache.get(p)) is not None}
    todo = [i for i in range(len(prompts)) if i not in kept]
    multiple = model.cfg.block_size if model.cfg.arch == "clover" else 1
    buckets = length_buckets([len(prompts[i]) for i in todo], multiple, bucket_overhead(model.device))
    groups = [[todo[j] for j in g] for g in buckets]
    reads = read_groups(lambda g: _read_group(model, [prompts[i] for i in g]), groups,
                        _group_costs(prompts, groups, multiple), model.device)
    if cache is not None:  # each row of a group on its own, with the group's padding (it is joined as a group)
        for g, ((mem_g, null_g, kv_g), start_g) in zip(groups, reads):
            for j, i in enumerate(g):
                sel = torch.tensor([j], device=model.device)
                cache.put(prompts[i], ((mem_g.select(sel), null_g[sel], kv_g.select(sel)), start_g[sel]))
    return kept, groups, reads


def _read_prompts(model: Backbone, prompts: list[list[int]], cache: ReadCache | None):
    """Read every prompt or take its read from ``cache``, and join them into one batch. -> (memory, NULL columns,
    KV/state cache, per part (its start output, the columns it was shifted by), batch row -> prompt index, the
    groups read here, how many came from the cache)."""
    kept, groups, reads = _read_new(model, prompts, cache)
    parts = [r[0] for r in reads] + [r[0] for r in kept.values()]
    starts = [r[1] for r in reads] + [r[1] for r in kept.values()]
    order = [i for g in groups for i in g] + list(kept)
    mem, null, kv, shifts = merge_prompt_reads(model, parts)
    return mem, null, kv, list(zip(starts, shifts)), order, groups, len(kept)


@torch.no_grad()
def read_ahead(model: Backbone, prompts: list[list[int]], cache: ReadCache) -> int:
    """Read the prompts not yet in ``cache`` into it (the decoders' first call), without decoding; -> how many were
    read. The dashboard calls this for a batch on the page before its Run."""
    _, groups, _ = _read_new(model, prompts, cache)
    return sum(len(g) for g in groups)


def _group_costs(prompts: list[list[int]], groups: list[list[int]], multiple: int) -> list[int]:
    """Padded prompt tokens of each group (what reading it costs), for ordering the reads."""
    return [len(g) * -(-max(len(prompts[i]) for i in g) // multiple) * multiple for g in groups]


def _since(t0: float, device: torch.device) -> float:
    """Wall seconds since ``t0`` once ``device`` has done the work queued so far (CUDA runs asynchronously)."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter() - t0


def _max_blocks(model: Backbone, max_answer_tokens: int | None) -> int:
    return max(1, (max_answer_tokens or model.cfg.max_answer_tokens) // model.cfg.block_size)


@torch.no_grad()
def clover_decode(model: Backbone, prompts: list[list[int]], *, tau: float | None = None,
                  max_answer_tokens: int | None = None, min_commit: int = 1, trace: bool = False,
                  read_cache: ReadCache | None = None) -> DecodeResult:
    """Block-diffusion decoding of a batch of prompts (each: message ids + SEP); ``read_cache`` keeps and reuses
    the prompt reads."""
    cfg = model.cfg
    bs = cfg.block_size
    if bs != N_SLOTS:
        raise ValueError(f"pointer decoding needs block_size == {N_SLOTS}")
    tau = cfg.tau if tau is None else tau
    dev = model.device
    n = len(prompts)
    res = DecodeResult([[] for _ in range(n)], [False] * n, tokens=[0] * n,
                       steps_per_block=[[] for _ in range(n)], trace=[] if trace else None, alts=[[] for _ in range(n)])
    slot = torch.arange(bs, device=dev)
    # The first call, per length group: read the prompts (whole blocks, block-causal) and run answer block 0's first
    # denoising step (``_read_group``); then the groups join into one batch for the rest of the decoding.
    t_call = time.perf_counter()
    mem, null, cache, first, order, groups, res.cached = _read_prompts(model, prompts, read_cache)
    res.forwards += n  # a kept read was a row-forward too, of an earlier call
    res.calls += len(groups)
    res.rows_per_call += [len(g) for g in groups]
    pending = torch.cat([_left_pad(lg, e, 2, float("-inf")) for lg, e in first])
    res.prefill_s = _since(t_call, dev)
    rows = torch.tensor(order, dtype=torch.long, device=dev)  # the message of each batch row: finished rows leave
    clean = mem.ids[:, :0]  # committed answer blocks not yet in the cache (none before block 0)
    clean_valid = mem.valid[:, :0]
    clean_x = model.embed(clean)
    for _ in range(_max_blocks(model, max_answer_tokens)):
        m = rows.numel()
        ones = torch.ones(m, bs, dtype=torch.bool, device=dev)
        x = torch.full((m, bs), -1, dtype=torch.long, device=dev)  # prompt columns; -1 = masked
        alt_i = torch.zeros(m, bs, N_ALTS, dtype=torch.long, device=dev)  # each slot's alternatives at its commit
        alt_v = torch.zeros(m, bs, N_ALTS, dtype=torch.float32, device=dev)
        masked = ones.clone()
        steps = torch.zeros(m, dtype=torch.long, device=dev)
        while masked.any():
            active = masked.any(1)
            if pending is not None:  # block 0's first step ran with the prompt reading
                logits, sub, mem_, pending = pending, None, mem, None
            else:
                hist = torch.tensor([clean.shape[1] // bs], device=dev)  # after this call's clean blocks
                # a later step of a block commits nothing to the history, so only the rows with masks left run it
                sub = None if clean.shape[1] or bool(active.all()) else active.nonzero()[:, 0]
                if sub is None:
                    xs_, mem_, cache_, cv_, cx_, ones_ = x, mem, cache, clean_valid, clean_x, ones
                else:
                    xs_, mem_, cache_ = x[sub], mem.select(sub), cache.select(sub)
                    cv_, cx_, ones_ = clean_valid[sub], clean_x[sub], ones[sub]
                noisy_x = model.answer_embed(mem_, torch.where(xs_ < 0, -1, xs_ - mem_.offset[:, None]), slot,
                                             MASK_ID)
                _, h, _, new_cache = model(cv_.long(), cv_, xs_, ones_, hist, cache_, clean_x=cx_, noisy_x=noisy_x)
                if clean.shape[1]:
                    cache = new_cache
                    clean, clean_valid = clean[:, :0], clean_valid[:, :0]
                    clean_x = clean_x[:, :0]
                res.forwards += int(active.sum())
                res.calls += 1
                res.rows_per_call.append(xs_.shape[0])
                logits = model.pointer_logits(h, mem_)
            commit, col, _conf = ops.confidence_select(logits, masked if sub is None else masked[sub], tau,
                                                       min_commit=min_commit)
            ti, tv = _top(logits, mem_.offset)
            if sub is not None:
                commit = torch.zeros_like(masked).index_copy_(0, sub, commit)
                col = torch.zeros_like(x).index_copy_(0, sub, col)
                ti = torch.zeros_like(alt_i).index_copy_(0, sub, ti)
                tv = torch.zeros_like(alt_v).index_copy_(0, sub, tv)
            x = torch.where(commit, col, x)
            alt_i = torch.where(commit[..., None], ti, alt_i)
            alt_v = torch.where(commit[..., None], tv, alt_v)
            masked &= ~commit
            steps += active.long()
            # a committed NULL anchor: no (more) zones, the whole block is NULL
            stop = (x[:, 0] == null) & ~masked[:, 0]
            x = torch.where(stop[:, None], null[:, None], x)
            masked &= ~stop[:, None]
            if trace:
                now = [list(r) for r in res.slots]  # finished messages as they ended
                for i, xr, mr, o in zip(rows.tolist(), x.tolist(), masked.tolist(), mem.offset.tolist()):
                    now[i] += [None if mk else v - o for v, mk in zip(xr, mr)]
                res.trace.append(now)
        xs, offs, nulls = x.tolist(), mem.offset.tolist(), null.tolist()
        ai, av = alt_i.tolist(), alt_v.tolist()
        for j, i in enumerate(rows.tolist()):
            res.steps_per_block[i].append(int(steps[j]))
            res.slots[i].extend(c - offs[j] for c in xs[j])
            # a NULL anchor that stopped the block wrote its other slots without a choice of their own
            stopped = xs[j][0] == nulls[j]
            res.alts[i].extend([(c - offs[j], 0.0)] if stopped and k else _alts(ai[j][k], av[j][k])
                               for k, c in enumerate(xs[j]))
            if xs[j][0] == nulls[j]:
                res.tokens[i] += 1
                res.finished[i] = True
            else:
                res.tokens[i] += bs
                if xs[j][-1] == nulls[j]:
                    res.finished[i] = True
        keep = (~((x[:, 0] == null) | (x[:, -1] == null))).nonzero()[:, 0]
        if keep.numel() == 0:
            break
        if keep.numel() < m:  # finished rows leave the batch (their history, prompt and keys with them)
            rows, mem, null, x, cache = rows[keep], mem.select(keep), null[keep], x[keep], cache.select(keep)
        # the finished block becomes history in the next call (fused with the next block's first step)
        clean_valid = torch.ones(keep.numel(), bs, dtype=torch.bool, device=dev)
        clean = x
        clean_x = model.answer_embed(mem, x - mem.offset[:, None], slot, MASK_ID)
    return res


@torch.no_grad()
def ar_decode(model: Backbone, prompts: list[list[int]], *, max_answer_tokens: int | None = None,
              read_cache: ReadCache | None = None) -> DecodeResult:
    """Greedy autoregressive decoding, one slot per forward, KV cache + recurrent GDN state; ``read_cache`` keeps
    and reuses the prompt reads."""
    cfg = model.cfg
    bs = cfg.block_size
    max_tokens = _max_blocks(model, max_answer_tokens) * bs
    dev = model.device
    n = len(prompts)
    t_call = time.perf_counter()
    # the prompts are read per length group (causal, ``_read_group``), then the groups join into one batch
    mem, null, cache, lasts, order, groups, cached = _read_prompts(model, prompts, read_cache)
    res = DecodeResult([[] for _ in range(n)], [False] * n, forwards=n, calls=len(groups), tokens=[0] * n,
                       prefill_s=_since(t_call, dev), rows_per_call=[len(g) for g in groups],
                       alts=[[] for _ in range(n)], cached=cached)
    rows = torch.tensor(order, dtype=torch.long, device=dev)  # the message of each batch row: finished rows leave
    last = torch.cat([h for h, _ in lasts])  # the last prompt position needs no padding
    for t in range(max_tokens):
        logits = model.pointer_logits(last, mem)[:, 0]
        nxt = logits.argmax(-1)  # [rows] prompt columns
        ti, tv = _top(logits, mem.offset)
        s = t % bs
        # a NULL anchor (no more zones) or a NULL next (that was the last zone) ends the row
        stop = (nxt == null) & (s in (0, bs - 1))
        for i, c, o, st, ai, av in zip(rows.tolist(), nxt.tolist(), mem.offset.tolist(), stop.tolist(), ti.tolist(),
                                       tv.tolist()):
            k = bs if s == 0 and st else 1  # a NULL anchor stands for its block
            res.slots[i].extend([c - o] * k)
            res.alts[i].extend([_alts(ai, av)] + [[(c - o, 0.0)]] * (k - 1))
            res.tokens[i] += 1
            res.finished[i] = st
        if bool(stop.all()):
            break
        if bool(stop.any()):
            keep = (~stop).nonzero()[:, 0]
            rows, mem, null, nxt, cache = rows[keep], mem.select(keep), null[keep], nxt[keep], cache.select(keep)
        m = rows.numel()
        xin = ar_inputs(model, mem, None, (nxt - mem.offset)[:, None], t)
        last, _, _, cache = model(xin.new_ones(m, 1, dtype=torch.long), xin.new_ones(m, 1, dtype=torch.bool),
                                  cache=cache, clean_x=xin)
        res.forwards += m
        res.calls += 1
        res.rows_per_call.append(m)
    return res
