"""What decoding returns, and the pieces both models' decoders share.

Both decoders (``CloverLM.decode``, ``ARLM.decode``) work batched over messages, in pointer slots
(``airspace.model.pointers``): they read the prompts in length groups (``airspace.model.reading``), join them into
one batch, and drop a finished message's row from the batch (its prompt, pointer keys, GDN state and KV cache with
it), so a long composite does not make every short message in its batch pay for its extra blocks or slots. The
same stop rules hold for both: a NULL ``anchor`` means "no (more) zone" (the rest of its block is NULL) and ends
the answer, and so does a NULL ``next``.

Each written slot keeps the model's ``N_ALTS`` likeliest pointers with their log-probabilities (``alts``), for the
span-constrained choice of ``pointers.repair_block``.

``forwards`` counts row-forwards: a batched call over b still-running rows counts b, so tokens per forward is
comparable between engines and independent of the batch size. ``tokens`` counts the slots each answer holds
(a zone block is one block of slots; a final NULL anchor is 1), the same number for the same answer whichever
engine wrote it.
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

import torch

from airspace.model.config import ModelConfig
from airspace.model.pointers import placed_spans


@dataclass
class DecodeResult:
    slots: list[list[int]]  # pointer slots per row (prompt indices), whole blocks; a trailing NULL block included
    finished: list[bool]  # False: the answer hit the block limit without a stop
    forwards: int = 0  # row-forwards
    prefill_s: float = 0.0  # wall seconds of the first call (reads the prompts; Clover fuses its first step)
    calls: int = 0  # batched model calls
    tokens: list[int] = field(default_factory=list)  # answer tokens per row (see module docstring)
    steps_per_block: list[list[int]] = field(default_factory=list)  # per row, denoising steps of each block (Clover)
    rows_per_call: list[int] = field(default_factory=list)  # batch rows each call computed (finished rows leave)
    trace: list[list[list[int | None]]] | None = None  # per step, per row: slots so far + current block (None=mask)
    # per row, per slot: the model's N_ALTS likeliest prompt indices with their log-probabilities when the slot was
    # written (the first is the one written), for ``pointers.repair_block``
    alts: list[list[list[tuple[int, float]]]] = field(default_factory=list)
    cached: int = 0  # prompts whose read came from a ``ReadCache`` (read by an earlier call, not this one)
    went_on: list[list[int]] = field(default_factory=list)  # per row, the blocks a close-call NULL next went on to

    def note_going_on(self, rows: list[int], go: list[bool], bs: int) -> None:
        """Rows whose ``next`` went on (``going_on``), written while their current block is: the block after it."""
        for i, g in zip(rows, go):
            if g:
                self.went_on[i].append(len(self.slots[i]) // bs + 1)

    @classmethod
    def empty(cls, n: int, *, trace: bool) -> DecodeResult:
        """The result of ``n`` rows before anything is decoded."""
        return cls([[] for _ in range(n)], [False] * n, tokens=[0] * n, steps_per_block=[[] for _ in range(n)],
                   trace=[] if trace else None, alts=[[] for _ in range(n)], went_on=[[] for _ in range(n)])


N_ALTS = 4  # alternatives kept per slot


def top_alternatives(logits: torch.Tensor, offset: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor]:
    """(prompt indices [.., N_ALTS], log-probs [.., N_ALTS]) of the likeliest columns of pointer logits [B, .., P]."""
    lp, col = logits.log_softmax(-1).topk(min(N_ALTS, logits.shape[-1]), -1)
    return col - offset.view(-1, *([1] * (col.dim() - 1))), lp


# the log-probability a non-NULL ``next`` needs for a NULL ``next`` to go on (``going_on``), per engine, chosen on the
# generated val split and the archive's val split (``make bench``'s ``--sets generated_val,archive_val --go-on``).
# Clover: e^-5 (600 generated val rows of seed 5000: 965 -> 966 / 1113 records right against -2; archive val 414 =
# 414 / 447), which the place ban of the block gone on to (``fresh_place_bans``) made safe: without it the block
# went back to the first area of a list and was taken back at any floor. AR: e^-2, from stage 15 (archive val
# 397 -> 399, test 433 -> 434 against greedy; docs/results/accuracy-cpu-2026-12-03-b.json); at -5 it ties (964 =
# 964, 414 = 414), so it stays (docs/results/accuracy-cpu-2026-12-05-go-on.json)
GO_ON = {"clover": -5.0, "ar": -2.0}


def going_on(nxt: torch.Tensor, null: torch.Tensor, alt_cols: torch.Tensor, alt_lps: torch.Tensor, floor: float,
             new: torch.Tensor, went_on: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, torch.Tensor]:
    """One decoder step at the ``next`` slot of every running row -> (``next`` columns, went on, taken back).

    A NULL ``next`` whose likeliest other column (``alt_cols`` [rows, N_ALTS], the same columns as ``nxt``) has
    log-prob >= ``floor`` takes that column, where the block placed a zone anew (``new``: ``pointers.places_anew``).
    The ``next`` slot is a close call more often than any other (a model that stops a list early is the commonest
    miss on real lists), and the block after it costs little: a NULL anchor there ends the answer. A block the
    decoder went on to (``went_on``) that places nothing new is taken back: its row ends there (``next`` NULL), so a
    list the model writes twice cannot run on to the answer's limit."""
    lps = torch.where(alt_cols == null[:, None], float("-inf"), alt_lps)
    best, k = lps.max(-1)
    col = alt_cols.gather(-1, k[:, None])[:, 0]
    back = went_on & ~new
    go = (nxt == null) & (best >= floor) & new
    return torch.where(back, null, torch.where(go, col, nxt)), go, back


def fresh_place_slots(fields: tuple[str, ...]) -> tuple[list[int], list[int]]:
    """The block's ``center`` and ``polygon`` slots that ``fresh_place_bans`` applies to: (start slots, end slots)."""
    place = [fi for fi, key in enumerate(fields) if key in ("center", "polygon")]
    return [1 + 2 * fi for fi in place], [2 + 2 * fi for fi in place]


def fresh_place_bans(earlier: list[int], null: int, offset: int, n_cols: int, fields: tuple[str, ...],
                     device: torch.device) -> tuple[torch.Tensor, torch.Tensor]:
    """The prompt columns a block gone on to (``going_on``) may not take: (for its place starts, for its place
    ends), [n_cols] bool each, for the slots of ``fresh_place_slots``.

    The decoder goes on past a NULL ``next`` only to place a zone the answer has not placed (a block that places
    nothing new is taken back), so that block's ``center`` and ``polygon`` slots may not point into a place span an
    ``earlier`` block wrote (its slots, whole blocks, prompt indices; ``offset``: the row's left padding): the
    model's own next choice stands where its first was a ring or centre already read, as in a list of areas that
    share one time heading, where the shared anchor leads back to the first area. A ``name`` slot is left free: a
    name is any words, and one kept off the name already read takes the words beside it (archive val E0557/26:
    ``WITHIN TERRITORY AND AIRSPACE OF MALI`` after ``DAKAR FIR (GOOO) AND NIAMEY FIR (DRRR)``), where a centre or a
    boundary is coordinates, which few other spans of a message are. A block a non-NULL ``next`` led to is the model's
    own choice and may place an area again (one area, two time windows), so it is not constrained."""
    cols = torch.arange(n_cols, device=device) - offset
    starts = torch.zeros(n_cols, dtype=torch.bool, device=device)
    ends = torch.zeros_like(starts)
    for _, a, e in placed_spans(earlier, null, fields):
        starts |= (cols >= a) & (cols < e)  # half-open [a, e): an end may be e
        ends |= (cols > a) & (cols <= e)
    return starts, ends


def alternatives(cols: list, lps: list) -> list[tuple[int, float]]:
    """One slot's alternatives as kept in ``DecodeResult.alts`` (impossible columns dropped)."""
    return [(c, round(v, 4)) for c, v in zip(cols, lps) if v > float("-inf")]


def since(t0: float, device: torch.device) -> float:
    """Wall seconds since ``t0`` once ``device`` has done the work queued so far (CUDA runs asynchronously)."""
    if device.type == "cuda":
        torch.cuda.synchronize(device)
    return time.perf_counter() - t0


def max_blocks(cfg: ModelConfig, max_answer_tokens: int | None) -> int:
    """Zone blocks an answer may hold (``max_answer_tokens`` overrides the config's limit)."""
    return max(1, (max_answer_tokens or cfg.max_answer_tokens) // cfg.block_size)
