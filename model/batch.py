"""Training batches: prompts left-padded (so every answer starts at the same column), answers right-padded, and
the ``Batch`` a model's ``training_batch`` builds and its ``loss`` reads."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass

import torch
import torch.nn.functional as F


@dataclass(kw_only=True)
class Batch:
    prompt_ids: torch.Tensor  # [B, P] left-padded
    prompt_valid: torch.Tensor
    offset: torch.Tensor  # [B] pad length of each prompt
    answer: torch.Tensor  # [B, A] pointer slots (prompt indices), right-padded
    answer_valid: torch.Tensor
    target: torch.Tensor  # prompt columns the loss positions must point at (noisy for Clover, answer for AR)
    loss_mask: torch.Tensor  # bool, same shape as target
    n_tokens: int  # tokens in the forward (clean + noisy), for throughput
    noisy: torch.Tensor | None = None  # [B, Tn] pointer slots with -1 = masked (Clover)
    noisy_valid: torch.Tensor | None = None
    noisy_hist: torch.Tensor | None = None  # [Tn // block] clean block whose history each noisy block reads
    loss_weight: torch.Tensor | None = None  # per target position (None: every loss position weighs the same)

    def to(self, device) -> Batch:
        return dataclasses.replace(self, **{f.name: getattr(self, f.name).to(device) for f in dataclasses.fields(self)
                                            if isinstance(getattr(self, f.name), torch.Tensor)})


def pointer_ce(logits: torch.Tensor, batch: Batch) -> torch.Tensor:
    """Cross-entropy of the pointer ``logits`` (one row per loss position, in ``loss_mask`` order) against the
    batch's targets: the plain mean, or the ``loss_weight``-weighted mean (a slot the answer rarely gets right, such
    as the ``next`` that ends a zone list, can weigh more without changing the others' relative weights)."""
    target = batch.target[batch.loss_mask]
    if batch.loss_weight is None:
        return F.cross_entropy(logits, target)
    w = batch.loss_weight[batch.loss_mask].to(logits.dtype)
    return (F.cross_entropy(logits, target, reduction="none") * w).sum() / w.sum().clamp_min(1e-9)


def slot_weights(slot_of_position: torch.Tensor, weight: torch.Tensor | None) -> torch.Tensor | None:
    """Per-position loss weights from a per-slot weight vector (None: unweighted)."""
    return None if weight is None else weight.to(slot_of_position.device)[slot_of_position]


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


def prompt_offsets(prompts: list[list[int]], padded: int) -> torch.Tensor:
    """[B] pad length of each prompt left-padded to ``padded`` tokens: prompt index j sits at column offset + j."""
    return torch.tensor([padded - len(p) for p in prompts], dtype=torch.long)
