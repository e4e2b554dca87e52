"""Decoding passes: named, optional heuristics on top of Clover's reference sampler (``sampler.sample``).

Each pass fixes one failure the plain confidence-threshold sampler was measured to make on real messages (each
class's docstring says which) and can be switched off alone: ``CloverLM.decode(passes=...)`` takes pass names, and
the production decoder is the reference sampler with ``DEFAULT_PASSES``. A pass hooks into the sampler at up to
four points, each a no-op unless the pass overrides it:

* ``begin(block)``: a block starts (every slot masked);
* ``constrain(block, logits, rows)``: a denoising step's pointer logits, before the confidence threshold
  (constrained decoding: a column set to -inf is never committed);
* ``remask(block) -> bool``: the block has no mask left: mask written slots again (a re-ask) -> whether any were;
  every pass is asked, then the block is denoised again, until none re-asks;
* ``finish(block)``: the block is done, before it is written (early stopping and continuing).

A pass sees the batch being decoded (``run``: ``clover._Decoding``): its rows, prompt memory, NULL columns, the
answer so far (``run.res``) and which rows' current block was continued to (``run.went_on``).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from airspace.model.decoding import fresh_place_bans, fresh_place_slots, going_on
from airspace.model.pointers import places_anew, slot_names
from airspace.model.sampler import Block


class Pass:
    """A decoding pass (see the module docstring); ``name`` is how ``decode(passes=...)`` names it."""

    name = ""

    def __init__(self, run, go_on: float | None):
        self.run = run

    def begin(self, block: Block) -> None:
        pass

    def constrain(self, block: Block, logits: torch.Tensor, rows: torch.Tensor | None) -> torch.Tensor:
        return logits

    def remask(self, block: Block) -> bool:
        return False

    def finish(self, block: Block) -> None:
        pass


class ReaskBareZone(Pass):
    """Re-ask a bare zone (with ``ReaskOpenEnd``, once ``clover._BareZones``).

    Failure: slots committed in one step are chosen each on its own, so where the model hesitates between "no
    zone" and "a zone" one step can write the zone's place beside the "no zone" reading's NULL limits and times: a
    zone drawn with nothing else, though the message states them (Q-line-only areas, a circle in prose; 6 of 447
    archive val rows at stage 27). Fix: a block whose anchor is placed and whose ``lower``/``upper``/``start``/
    ``end`` are all NULL has its NULL slots (all but the anchor and ``next``) masked again and decoded with the place
    known; a row that then fills some of them is asked again while that fills more, ``ROUNDS`` rounds at most. A
    block that states any limit or time never runs an extra step."""

    name = "reask_bare_zone"
    ROUNDS = 3
    ASKED = ("lower", "upper", "start", "end")

    def __init__(self, run, go_on: float | None):
        super().__init__(run, go_on)
        self.cols = [i for i, name in enumerate(slot_names(run.model.cfg.fields)) if name.split(".")[0] in self.ASKED]

    def begin(self, block: Block) -> None:
        self.rounds = 0
        self.rows: torch.Tensor | None = None  # the rows asked in the last round
        self.nulls: torch.Tensor | None = None  # how many of their asked slots were NULL then

    def remask(self, block: Block) -> bool:
        if self.rounds >= self.ROUNDS or not self.cols:
            return False
        null = self.run.null
        nulls = (block.x[:, self.cols] == null[:, None]).sum(1)
        if self.rows is None:
            rows = (block.x[:, 0] != null) & (nulls == len(self.cols))
        else:
            rows = self.rows & (nulls > 0) & (nulls < self.nulls)
        again = (block.x == null[:, None]) & rows[:, None]
        again[:, 0] = again[:, -1] = False
        if not bool(again.any()):
            return False
        block.remask(again)
        self.rounds, self.rows, self.nulls = self.rounds + 1, rows, nulls
        return True


class ReaskOpenEnd(Pass):
    """Re-ask an open end.

    Failure: a zone's end can commit NULL in a step before the start it follows, so a zone that starts is written
    without the end the message states (a whole-FIR closure's ``C) PERM`` at log-prob -3.8 beside the NULL it wrote,
    -0.01 when asked again). Fix: a block that places a zone and starts but has a NULL end has its two end slots
    (only those) masked again once, the rest of the block known. A block with an end never runs an extra step."""

    name = "reask_open_end"

    def __init__(self, run, go_on: float | None):
        super().__init__(run, go_on)
        col = {name: i for i, name in enumerate(slot_names(run.model.cfg.fields))}
        self.start, self.end = col.get("start.start"), col.get("end.start")

    def begin(self, block: Block) -> None:
        self.asked = False  # once per block: when it is first written out

    def remask(self, block: Block) -> bool:
        if self.asked or self.start is None or self.end is None:
            return False
        self.asked = True
        x, null = block.x, self.run.null
        unended = (x[:, 0] != null) & (x[:, self.start] != null) & (x[:, self.end] == null)
        if not bool(unended.any()):
            return False
        again = torch.zeros_like(block.masked)
        again[:, self.end:self.end + 2] = unended[:, None]  # end.start, end.end
        block.remask(again)
        return True


class ContinuePastStop(Pass):
    """Continue past a low-confidence stop (``decoding.going_on``; ``decode(go_on=floor)``, None: off).

    Failure: the ``next`` slot (the next zone's anchor, NULL after the last zone) is a close call more often than
    any other, and a model that stops a list early is the commonest miss on real lists. Fix: a finished block's NULL
    ``next`` whose likeliest other column has log-prob >= the floor (``decoding.GO_ON``) takes that column, where the
    block placed a zone anew (``pointers.places_anew``), so one more block is decoded; the block continued to is
    taken back (its row ends, as at a NULL ``next``) unless it too places a zone anew, so a list the model writes
    twice cannot run on to the answer's limit. The engine checks the kept block again after the span repair
    (``pointers.take_back``)."""

    name = "continue_past_stop"

    def __init__(self, run, go_on: float | None):
        super().__init__(run, go_on)
        self.floor = go_on

    def finish(self, block: Block) -> None:
        run = self.run
        if self.floor is None:
            return
        nxt, null = block.x[:, -1], run.null
        need = ((nxt == null) | run.went_on) & (block.x[:, 0] != null)
        if not bool(need.any()):
            run.went_on = torch.zeros_like(run.went_on)
            return
        rows, fields = run.rows.tolist(), run.model.cfg.fields
        new = [nd and places_anew([c - o for c in x], run.res.slots[i], nl - o, fields) for i, x, o, nl, nd
               in zip(rows, block.x.tolist(), run.mem.offset.tolist(), null.tolist(), need.tolist())]
        nxt, run.went_on, back = going_on(nxt, null, block.alt_i[:, -1] + run.mem.offset[:, None],
                                          block.alt_v[:, -1], self.floor, torch.tensor(new, device=nxt.device),
                                          run.went_on)
        block.x = torch.where(back[:, None], null[:, None], block.x)
        block.x[:, -1] = nxt
        run.res.note_going_on(rows, run.went_on.tolist(), run.bs)


class BanRepeatedPlaces(Pass):
    """Ban repeated places in a block continued to (``decoding.fresh_place_bans``; only acts after
    ``ContinuePastStop``).

    Failure: a list of areas under one pair of times anchors every zone on the shared times, so a block continued
    to was led back to the first area, repeated it and was taken back — at any floor (7 of 40 generated
    ``multi_ring`` lists at stage 34). Fix: in a block continued to, the ``center`` and ``polygon`` slots may not
    point into a place span an earlier block wrote (constrained decoding: those columns get -inf), so the model's
    own next choice stands; the bans are computed at the block's first step and kept for its others."""

    name = "ban_repeated_places"

    def __init__(self, run, go_on: float | None):
        super().__init__(run, go_on)
        self.slots = fresh_place_slots(run.model.cfg.fields)  # (start slots, end slots)
        self.bans: dict[tuple[int, int], tuple[torch.Tensor, torch.Tensor]] = {}  # (row, slots written): its bans

    def constrain(self, block: Block, logits: torch.Tensor, sub: torch.Tensor | None) -> torch.Tensor:
        run = self.run
        went = run.went_on if sub is None else run.went_on[sub]
        if not bool(went.any()):
            return logits
        rows = run.rows if sub is None else run.rows[sub]
        offs = run.mem.offset if sub is None else run.mem.offset[sub]
        nulls = run.null if sub is None else run.null[sub]
        start_slots, end_slots = self.slots
        banned = torch.zeros_like(logits, dtype=torch.bool)
        for j in went.nonzero()[:, 0].tolist():
            i, o = int(rows[j]), int(offs[j])
            key = (i, len(run.res.slots[i]))  # the row and the block it is writing
            if key not in self.bans:
                self.bans[key] = fresh_place_bans(run.res.slots[i], int(nulls[j]) - o, o, logits.shape[-1],
                                                  run.model.cfg.fields, logits.device)
            starts, ends = self.bans[key]
            banned[j, start_slots] = starts
            banned[j, end_slots] = ends
        return logits.masked_fill(banned, float("-inf"))


# every pass, in the order the sampler runs their hooks; the production decoder runs them all
PASSES: dict[str, type[Pass]] = {p.name: p for p in (ReaskBareZone, ReaskOpenEnd, ContinuePastStop,
                                                      BanRepeatedPlaces)}
DEFAULT_PASSES: tuple[str, ...] = tuple(PASSES)


def make_passes(names: Sequence[str], run, go_on: float | None) -> list[Pass]:
    """The passes ``names`` for one decode of ``run``, in ``PASSES`` order; an unknown name is refused."""
    unknown = sorted(set(names) - set(PASSES))
    if unknown:
        raise ValueError(f"unknown decoding passes {unknown}; known: {', '.join(PASSES)}")
    return [cls(run, go_on) for name, cls in PASSES.items() if name in names]
