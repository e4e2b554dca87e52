"""Reading the prompts of a batch before its answers are decoded, for either model.

The prompts are read in groups of similar length (``length_buckets``: each group left-padded to its own longest,
not the batch's), and the groups join into one batch for decoding (``merge_prompt_reads``). On a CPU the groups
are read side by side, one worker thread per core with one torch thread each (``read_groups``): the groups are
independent, so no core waits on another at every op the way torch's own threads do. A ``ReadCache`` keeps each
message's read, so a batch that holds it again (a re-run, one message edited, a batch read ahead before Run)
reads only what is new.

What a group's read is belongs to the model (``read_group``: Clover runs answer block 0's first denoising step in
the same call, AR keeps the last prompt position); this module only groups, schedules, keeps and joins reads.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

import torch

from airspace.model.backbone import Backbone, Cache, Memory
from airspace.model.layers import AttnCache, rope
from airspace.model.tokenizer import PAD_ID


@dataclass
class PromptRead:
    """What a model's first call computes for some prompts from the messages alone: their pointer memory, NULL
    columns, GDN states / conv tails / KV cache, and the output the answer starts from (Clover: block 0's first
    denoising step's pointer logits; AR: the last prompt position's hidden state)."""

    memory: Memory
    null: torch.Tensor  # [B] each row's NULL column (its SEP)
    cache: Cache
    start: torch.Tensor

    def select(self, rows: torch.Tensor) -> PromptRead:
        return PromptRead(self.memory.select(rows), self.null[rows], self.cache.select(rows), self.start[rows])


@dataclass
class ReadBatch:
    """A batch's prompts read and joined: one memory, NULL columns and history for every row; each part's start
    output with the columns its rows were shifted by when joined (``merge_prompt_reads``)."""

    memory: Memory
    null: torch.Tensor
    cache: Cache
    starts: list[torch.Tensor]  # per part read (a length group or a kept row), in row order
    shifts: list[int]  # columns of left padding each part gained in the join
    order: list[int]  # batch row -> prompt index
    groups: list[list[int]]  # the length groups read by this call (prompt indices)
    cached: int  # prompts whose read came from the cache


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


def usable_cores() -> int:
    """The cores this process may run on (its affinity mask: a container's or ``taskset``'s share, not the
    machine's count)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


def read_workers(device: torch.device, n_groups: int) -> int:
    """How many prompt groups to read at once: 1 on CUDA (one stream does it), else one per usable core (at most
    ``MAX_READ_WORKERS``) and never more than there are groups. ``AIRSPACE_READ_WORKERS`` overrides (1 = in turn),
    up to the usable cores: more workers than cores only wait on each other."""
    env = os.environ.get("AIRSPACE_READ_WORKERS", "").strip()
    if env:
        try:
            n = int(env)
        except ValueError:
            raise ValueError(f"AIRSPACE_READ_WORKERS must be a whole number, got {env!r}") from None
        n = min(n, usable_cores()) if device.type != "cuda" else n
    else:
        n = 1 if device.type == "cuda" else min(usable_cores(), MAX_READ_WORKERS)
    return max(1, min(n, n_groups))


def cpu_threads() -> int:
    """Torch threads per read worker on a CPU, so that workers x threads never exceed the usable cores. With more
    threads than that, every OpenMP barrier waits on a thread the OS has parked for another process: on 2 busy
    cores, 225 messages took ~4x the time of one thread per worker (``python -m airspace.eval.threads``)."""
    return max(1, usable_cores() // read_workers(torch.device("cpu"), MAX_READ_WORKERS))


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
    threads = max(1, min(before, usable_cores()) // workers)
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


def left_pad(t: torch.Tensor, extra: int, dim: int, value=0) -> torch.Tensor:
    """``t`` with ``extra`` entries of ``value`` put before it along ``dim``."""
    if not extra:
        return t
    shape = list(t.shape)
    shape[dim] = extra
    return torch.cat([t.new_full(shape, value), t], dim)


def merge_prompt_reads(parts: list[PromptRead], rope_theta: float) -> tuple[Memory, torch.Tensor, Cache, list[int]]:
    """Join prompt groups read separately into one batch: every group is left-padded to the longest (padding is
    invalid everywhere: prompt, pointer keys, KV cache) and its cached attention keys are rotated on by the columns
    they moved (RoPE angles add), so each row's history is what reading it in the joined batch would have given.
    GDN states and conv tails carry no positions and are joined as they are. -> (memory, NULL columns, cache,
    column shift of each group)."""
    P = max(r.memory.ids.shape[1] for r in parts)
    shifts = [P - r.memory.ids.shape[1] for r in parts]
    if len(parts) == 1:
        return parts[0].memory, parts[0].null, parts[0].cache, shifts
    mems, nulls, caches = [], [], []
    for r, e in zip(parts, shifts):
        mem = r.memory
        keys = None if mem.keys is None else left_pad(mem.keys, e, 1)
        mems.append(Memory(left_pad(mem.ids, e, 1, PAD_ID), mem.offset + e, keys, left_pad(mem.valid, e, 1, False)))
        nulls.append(r.null + e)
        layers = []
        for c in r.cache.layers:
            if isinstance(c, AttnCache):
                k = c.k if not e else rope(c.k, torch.full((c.k.shape[2],), e, device=c.k.device), rope_theta)
                c = AttnCache(left_pad(k, e, 2), left_pad(c.v, e, 2))
            layers.append(c)
        caches.append(Cache(layers, left_pad(r.cache.valid, e, 1, False)))
    return Memory.join(mems), torch.cat(nulls), Cache.join(caches), shifts


class ReadCache:
    """Prompt reads kept per message, least recently used first out, keyed by the prompt's token ids.

    A kept read is one row's ``PromptRead`` (with its group's padding). A later batch that holds the message joins
    the kept row to the rows it reads itself (``merge_prompt_reads``, as it joins its own length groups), so an
    operator's re-run, a batch with one message edited, or a batch read ahead before Run (``read_ahead``) reads
    only what is new. One cache serves one model. Bounded by the bytes its tensors hold (demo20's 20 messages keep
    ~11 MB with the shipped model, ~0.55 MB a message). Thread-safe."""

    def __init__(self, max_bytes: int = 128 * 2**20):
        self.max_bytes = max_bytes
        self.bytes = 0
        self._rows: OrderedDict = OrderedDict()  # prompt ids -> (row, its bytes)
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._rows)

    def get(self, prompt: list[int]) -> PromptRead | None:
        key = tuple(prompt)
        with self._lock:
            kept = self._rows.get(key)
            if kept is None:
                return None
            self._rows.move_to_end(key)
            return kept[0]

    def put(self, prompt: list[int], row: PromptRead) -> None:
        key, size = tuple(prompt), tensor_bytes(row)
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


def tensor_bytes(x) -> int:
    """Bytes held by the tensors in a nest of tuples, lists and dataclasses (a kept prompt read)."""
    if isinstance(x, torch.Tensor):
        return x.numel() * x.element_size()
    if isinstance(x, (tuple, list)):
        return sum(tensor_bytes(v) for v in x)
    if hasattr(x, "__dataclass_fields__"):
        return sum(tensor_bytes(getattr(x, f)) for f in x.__dataclass_fields__)
    return 0


def _read_new(model: Backbone, prompts: list[list[int]], cache: ReadCache | None):
    """Read the prompts ``cache`` does not hold, in length groups side by side, and keep each row's read there.
    -> (index -> kept read, the groups read, their reads)."""
    kept = {i: r for i, p in enumerate(prompts) if cache is not None and (r := cache.get(p)) is not None}
    todo = [i for i in range(len(prompts)) if i not in kept]
    multiple = model.prompt_multiple
    buckets = length_buckets([len(prompts[i]) for i in todo], multiple, bucket_overhead(model.device))
    groups = [[todo[j] for j in g] for g in buckets]
    reads = read_groups(lambda g: model.read_group([prompts[i] for i in g]), groups,
                        _group_costs(prompts, groups, multiple), model.device)
    if cache is not None:  # each row of a group on its own, with the group's padding (it is joined as a group)
        for g, read in zip(groups, reads):
            for j, i in enumerate(g):
                cache.put(prompts[i], read.select(torch.tensor([j], device=model.device)))
    return kept, groups, reads


def read_prompts(model: Backbone, prompts: list[list[int]], cache: ReadCache | None) -> ReadBatch:
    """Read every prompt (``model.read_group`` per length group) or take its read from ``cache``, and join them
    into one batch: the groups read here first, then the kept rows."""
    kept, groups, reads = _read_new(model, prompts, cache)
    parts = reads + list(kept.values())
    mem, null, kv, shifts = merge_prompt_reads(parts, model.cfg.rope_theta)
    return ReadBatch(memory=mem, null=null, cache=kv, starts=[r.start for r in parts], shifts=shifts,
                     order=[i for g in groups for i in g] + list(kept), groups=groups, cached=len(kept))


@torch.no_grad()
def read_ahead(model: Backbone, prompts: list[list[int]], cache: ReadCache) -> int:
    """Read the prompts not yet in ``cache`` into it (the decoders' first call), without decoding; -> how many were
    read. The dashboard calls this for a batch on the page before its Run."""
    _, groups, _ = _read_new(model, prompts, cache)
    return sum(len(g) for g in groups)


def _group_costs(prompts: list[list[int]], groups: list[list[int]], multiple: int) -> list[int]:
    """Padded prompt tokens of each group (what reading it costs), for ordering the reads."""
    return [len(g) * -(-max(len(prompts[i]) for i in g) // multiple) * multiple for g in groups]
