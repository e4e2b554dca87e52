"""The model engines as ``Extractor``s for the pipeline: ``load_extractor('clover' | 'ar', checkpoint)``.

Messages are encoded whole (one token per character); a message longer than the checkpoint's context limit gets
an ``EngineError`` with the reason, never a cut read. Messages are decoded in batches of similar length into
pointer slots (``airspace.model.pointers``), and each zone's slots become a ``ZoneDraft`` whose spans are the
characters the pointers name. ``ModelStats`` reports row-forwards (a batched call over b messages counts b),
answer tokens (slots), the denoising steps of every Clover block, wall time and peak memory.
"""

from __future__ import annotations

import contextlib
import os
import resource
import threading
import time
from pathlib import Path
from typing import Literal

import torch

from airspace.core.answer import ZONE_SEP
from airspace.core.contract import Answer, Capabilities, EngineError, ModelStats
from airspace.model.backbone import Backbone
from airspace.model.checkpoint import load_checkpoint
from airspace.model.decoding import GO_ON
from airspace.model.pointers import encode_message, render_block, repair_slots, slots_to_drafts, take_back
from airspace.model.reading import ReadCache, cpu_threads, read_ahead
from airspace.model.tokenizer import Tokenizer
from airspace.parser.view import View, message_draft, reading_view

REPO = Path(__file__).resolve().parents[1]
DEFAULT_CHECKPOINTS = {"clover": REPO / "data" / "checkpoints" / "clover", "ar": REPO / "data" / "checkpoints" / "ar"}


def _peak_mb(device: torch.device) -> float:
    if device.type == "cuda":
        return torch.cuda.max_memory_allocated(device) / 2**20
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0  # process peak RSS (Linux: KiB)


class ModelExtractor:
    """Clover or AR extraction over a trained checkpoint."""

    # batches of messages of similar length; records cross-checked against the rules reading; an empty answer is
    # "no zone", not "not understood"; a trained model with a checkpoint, ``ModelStats`` and a ``go_on`` floor
    capabilities = Capabilities(per_message=False, cross_checked=True, says_not_understood=False, model=True)

    def __init__(self, name: str, model: Backbone, tok: Tokenizer, *, batch_size: int = 32, tau: float | None = None,
                 trace: bool = False, seed: int = 0, checkpoint: str | None = None, repair: bool = True,
                 read_cache: int = 0,  # bytes of prompt reads to keep (0: none)
                 go_on: float | None | Literal["engine"] = "engine"):
        if name not in ("clover", "ar") or model.cfg.arch != name:
            raise ValueError(f"engine {name!r} does not match the checkpoint's arch {model.cfg.arch!r}")
        if tau is not None and name != "clover":
            raise ValueError("tau is Clover's commit threshold; the ar engine has none")
        self.name = name
        self.model = model
        self.tok = tok
        self.batch_size = batch_size
        self.tau = tau
        self.trace = trace
        self.seed = seed
        self.checkpoint = checkpoint
        self.repair = repair  # span-constrained choice among the model's alternatives (pointers.repair_slots)
        # a close-call NULL next goes on to one more block (decoding.going_on) at the engine's floor or at
        # ``go_on``; None: greedy
        self.go_on = GO_ON[name] if go_on == "engine" else go_on
        # prompt reads kept per message (reading.ReadCache), or None: a re-run or a batch read ahead before its
        # Run reads only the messages it has not read before
        self.keep_prompt_reads(read_cache)
        self._lock = threading.Lock()  # one extraction at a time (a read ahead and a Run share the model's workers)
        self._cold = threading.local()

    @property
    def cfg(self):
        return self.model.cfg

    def warm_up(self, rounds: int = 3) -> None:
        """Decode a few messages of very different lengths ``rounds`` times, so that an operator's first batch does
        not pay first-call costs: torch's lazy set-up, and on a CPU the prompt-reading worker threads' first ops
        (each thread's allocator arena and thread pool; ``reading.read_groups``), which made the first batches
        ~30 % slower than later ones."""
        base = "A0001/26 NOTAMN Q) ZGZU/QRDCA/IV/BO/W/000/010/2232N11356E001 A) ZGZU E) UAS AREA 2232N11356E RADIUS 1NM"
        batch = [base[:60], base, " ".join([base] * 3), " ".join([base] * 6)]  # four lengths: four length groups
        with self.cold():  # the read cache would spare the workers the later rounds
            for _ in range(rounds):
                self.extract(batch)

    @contextlib.contextmanager
    def cold(self):
        """Extractions in this block (this thread) read every prompt themselves, as a first run would: for timing
        the engines against each other."""
        self._cold.on = True
        try:
            yield self
        finally:
            self._cold.on = False

    def keep_prompt_reads(self, max_bytes: int = 128 * 2**20) -> None:
        """Keep prompt reads (``reading.ReadCache``, up to ``max_bytes`` of tensors) from now on; 0: none."""
        self.read_cache = ReadCache(max_bytes) if max_bytes else None

    def _cache(self) -> ReadCache | None:
        return None if getattr(self._cold, "on", False) else self.read_cache

    def read_ahead(self, messages: list[str]) -> int:
        """Read the messages' prompts into the read cache before they are extracted (nothing decoded); -> how many
        were read. Messages over the context limit are left to ``extract`` (which says why)."""
        if self.read_cache is None:
            return 0
        prompts = [p for p in (self._encode(m)[0] for m in messages) if len(p) <= self.cfg.max_prompt_tokens]
        prompts.sort(key=len)  # the batches ``extract`` would decode them in (it sorts by length too)
        with self._lock:
            done = 0
            for s in range(0, len(prompts), self.batch_size):
                done += read_ahead(self.model, prompts[s:s + self.batch_size], self.read_cache)
            return done

    def _encode(self, message: str):
        """(prompt, offsets, view): a feed's named items are read in the lettered layout (``parser.view``)."""
        view = reading_view(message)
        prompt, offs = encode_message(self.tok, view.text if view is not None else message)
        return prompt, offs, view

    def extract(self, messages: list[str]) -> tuple[list[Answer], ModelStats]:
        with self._lock:
            return self._extract(messages)

    def _extract(self, messages: list[str]) -> tuple[list[Answer], ModelStats]:
        t0 = time.perf_counter()
        torch.manual_seed(self.seed)
        dev = self.model.device
        if dev.type == "cuda":
            torch.cuda.reset_peak_memory_stats(dev)
        stats = ModelStats(engine=self.name, messages=len(messages))
        answers: list[Answer] = [EngineError("message was not read")] * len(messages)
        todo = []
        views: dict[int, View] = {}
        for i, m in enumerate(messages):
            p, offs, view = self._encode(m)
            if len(p) > self.cfg.max_prompt_tokens:
                answers[i] = EngineError(f"message is {len(p)} tokens, over the {self.name} engine's context limit "
                                         f"of {self.cfg.max_prompt_tokens}; not cut, not read")
            else:
                todo.append((len(p), i, p, offs))
                if view is not None:
                    views[i] = view
        todo.sort(key=lambda t: t[:2])
        if self.trace:
            stats.trace = []
        current = ["" for _ in messages]
        for s in range(0, len(todo), self.batch_size):
            chunk = todo[s:s + self.batch_size]
            prompts = [t[2] for t in chunk]
            options = {"go_on": self.go_on} if self.tau is None else {"go_on": self.go_on, "tau": self.tau}
            res = self.model.decode(prompts, trace=self.trace, read_cache=self._cache(), **options)
            stats.forwards += res.forwards
            stats.prompts_cached += res.cached
            stats.prefill_s += res.prefill_s
            for j, (_, i, _, offs) in enumerate(chunk):
                stats.answer_tokens += res.tokens[j]
                stats.steps_per_block.extend(res.steps_per_block[j])  # Clover's denoising steps (AR: none)
                if res.finished[j]:
                    slots = res.slots[j]
                    if self.repair:
                        slots, changed = repair_slots(slots, res.alts[j], offs, self.cfg.fields)
                        stats.repaired += changed
                    if res.went_on[j]:
                        slots = take_back(slots, res.went_on[j], offs, self.cfg.fields)
                    answers[i] = slots_to_drafts(slots, offs, self.cfg.fields)
                    if i in views:
                        answers[i] = [message_draft(views[i], messages[i], d) for d in answers[i]]
                else:
                    zones = self.cfg.max_answer_tokens // self.cfg.block_size
                    answers[i] = EngineError(f"the answer did not end within {zones} zones (left unread rather than "
                                             f"cut)")
            if self.trace and res.trace:
                for step in res.trace:
                    for j, (_, i, _, offs) in enumerate(chunk):
                        current[i] = trace_text(step[j], offs, self.cfg.fields)
                    stats.trace.append(list(current))
        stats.wall_s = time.perf_counter() - t0
        stats.peak_mb = _peak_mb(dev)
        return answers, stats


def load_extractor(name: str, checkpoint: str | None = None, *, device: str | None = None, batch_size: int = 32,
                   tau: float | None = None, trace: bool = False, read_cache: int = 0,
                   int8: bool | None = None) -> ModelExtractor:
    """The ``clover`` or ``ar`` engine over ``checkpoint`` (default: the shipped ``data/checkpoints/<name>``).

    Runs on CUDA when available (bf16 weights), else CPU fp32. Any checkpoint of the same format loads the same way.
    ``int8`` (default: ``AIRSPACE_INT8=1`` in the environment, else off): CPU int8 dynamic quantisation
    (``airspace.model.quant``), opt-in because its records are not always the float32 ones.
    """
    if name not in DEFAULT_CHECKPOINTS:
        raise ValueError(f"unknown model engine {name!r}; choose clover or ar")
    ckpt = Path(checkpoint) if checkpoint else DEFAULT_CHECKPOINTS[name]
    dev = torch.device(device or ("cuda" if torch.cuda.is_available() else "cpu"))
    dtype = torch.bfloat16 if dev.type == "cuda" else torch.float32
    if dev.type == "cpu" and torch.get_num_threads() > cpu_threads():
        # the decoding runs beside the read workers' threads: never more torch threads than the cores allow
        # (``reading.cpu_threads``); a lower count set before (OMP_NUM_THREADS, the dashboard's) is kept
        torch.set_num_threads(cpu_threads())
    model, tok = load_checkpoint(ckpt, device=dev, dtype=dtype)
    if int8 is None:
        int8 = os.environ.get("AIRSPACE_INT8", "").strip() == "1"
    if int8:
        from airspace.model.quant import quantize_int8

        quantize_int8(model)
    return ModelExtractor(name, model, tok, batch_size=batch_size, tau=tau, trace=trace, checkpoint=str(ckpt),
                          read_cache=read_cache)


def trace_text(slots: list[int | None], offs, fields) -> str:
    """One row of a decoding trace (whole blocks, the last one partly masked) as answer-like text."""
    n = 2 + 2 * len(fields)
    blocks = [slots[b:b + n] for b in range(0, len(slots), n)]
    return f" {ZONE_SEP} ".join(render_block(b, offs, fields) for b in blocks if b[0] is None or b[0] != offs.null) \
        or render_block(blocks[-1], offs, fields)
