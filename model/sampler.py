"""Clover's reference sampler: confidence-threshold block diffusion, one block (one zone) at a time.

The plain rule of docs/DESIGN.md, as LLaDA's ``generate.py`` samples: a block starts with every slot masked; each
denoising step predicts every masked slot at once, commits those whose confidence (top pointer probability) reaches
the threshold — at least the most confident one (``min_commit``) — and leaves the rest masked for the next step
(low-confidence remasking); a committed NULL ``anchor`` means "no (more) zone" and fills its block with NULL. When
no mask is left the block is written, and a row whose block has a NULL anchor or a NULL ``next`` stops.

``sample`` runs that loop over a ``denoiser`` (``clover._Decoding``: the model, the batch, its caches and its
result) and takes optional decoding passes (``airspace.model.passes``) that hook into it; with no passes it is the
reference sampler, with ``passes.DEFAULT_PASSES`` it is the production decoder (``CloverLM.decode``).
"""

from __future__ import annotations

from collections.abc import Sequence

import torch

from airspace.kernels import ops
from airspace.model.decoding import N_ALTS, DecodeResult, top_alternatives


def sample(denoiser, *, threshold: float, max_blocks: int, min_commit: int = 1,
           passes: Sequence = ()) -> DecodeResult:
    """Decode ``max_blocks`` blocks at most for every row of ``denoiser``; ``passes`` as in ``passes.Pass``."""
    for _ in range(max_blocks):
        block = Block(denoiser.rows.numel(), denoiser.bs, denoiser.device)  # every slot masked
        for p in passes:
            p.begin(block)
        while True:
            while block.masked.any():
                # one forward: every masked slot of every running row predicted at once
                logits, rows, offset = denoiser.step(block)
                for p in passes:
                    logits = p.constrain(block, logits, rows)
                # confidence threshold: commit what reaches it (at least the most confident), remask the rest
                commit, col, _ = ops.confidence_select(logits, block.masked_rows(rows), threshold,
                                                       min_commit=min_commit)
                block.commit(rows, commit, col, *top_alternatives(logits, offset))
                block.stop_at_null_anchor(denoiser.null)
                denoiser.trace_step(block)
            # re-ask: a pass may mask written slots again; every pass has its say before the block runs again
            if not any([p.remask(block) for p in passes]):
                break
        for p in passes:
            p.finish(block)
        denoiser.write(block)
        if not denoiser.next_block(block):  # stopping: rows with a NULL anchor or a NULL next leave the batch
            break
    return denoiser.res


class Block:
    """One block being denoised, for every row of the batch: the slots (prompt columns, -1 = masked), which are
    still masked, each slot's alternatives at its commit, and the denoising steps each row took."""

    def __init__(self, rows: int, bs: int, device: torch.device):
        self.valid = torch.ones(rows, bs, dtype=torch.bool, device=device)  # every slot is a real token
        self.x = torch.full((rows, bs), -1, dtype=torch.long, device=device)
        self.alt_i = torch.zeros(rows, bs, N_ALTS, dtype=torch.long, device=device)
        self.alt_v = torch.zeros(rows, bs, N_ALTS, dtype=torch.float32, device=device)
        self.masked = self.valid.clone()
        self.steps = torch.zeros(rows, dtype=torch.long, device=device)

    def masked_rows(self, sub: torch.Tensor | None) -> torch.Tensor:
        return self.masked if sub is None else self.masked[sub]

    def commit(self, sub: torch.Tensor | None, commit, col, alt_i, alt_v) -> None:
        """Write the committed slots of the rows ``sub`` (None: every row) that ran this step, with their
        alternatives; a row with masks left took one more step."""
        if sub is not None:  # the rows that sat the step out commit nothing
            commit = torch.zeros_like(self.masked).index_copy_(0, sub, commit)
            col = torch.zeros_like(self.x).index_copy_(0, sub, col)
            alt_i = torch.zeros_like(self.alt_i).index_copy_(0, sub, alt_i)
            alt_v = torch.zeros_like(self.alt_v).index_copy_(0, sub, alt_v)
        self.steps += self.masked.any(1).long()
        self.x = torch.where(commit, col, self.x)
        self.alt_i = torch.where(commit[..., None], alt_i, self.alt_i)
        self.alt_v = torch.where(commit[..., None], alt_v, self.alt_v)
        self.masked &= ~commit

    def stop_at_null_anchor(self, null: torch.Tensor) -> None:
        """A committed NULL anchor: the message has no (more) zones, so the whole block is NULL."""
        stop = (self.x[:, 0] == null) & ~self.masked[:, 0]
        self.x = torch.where(stop[:, None], null[:, None], self.x)
        self.masked &= ~stop[:, None]

    def remask(self, again: torch.Tensor) -> None:
        """Mask the slots ``again`` [rows, bs] once more (a re-ask: they are predicted again with the rest known)."""
        self.x = torch.where(again, -1, self.x)
        self.masked |= again
