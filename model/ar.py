"""The autoregressive baseline: the same hybrid backbone (GDN + gated attention + MoE), fully causal, same size.

Training is next-token prediction of the answer given the message; decoding (``airspace.model.decoding``) uses
the KV cache and the recurrent GDN state, one token per forward.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from airspace.model.clover import Backbone, Batch, left_pad_prompts
from airspace.model.config import ModelConfig


class ARLM(Backbone):
    """Causal LM over [message <sep> answer <eoa>]."""

    def __init__(self, cfg: ModelConfig):
        if cfg.arch != "ar":
            raise ValueError("ARLM needs arch='ar'")
        super().__init__(cfg)


def ar_batch(prompts: list[list[int]], answers: list[list[int]], cfg: ModelConfig, *, pad_id: int) -> Batch:
    """[left-padded prompt ; right-padded answer]; targets are the answer tokens (each predicted from its left)."""
    p_ids, p_valid = left_pad_prompts(prompts, pad_id, 1)
    A = max(len(a) for a in answers)
    a_ids = torch.full((len(answers), A), pad_id, dtype=torch.long)
    a_valid = torch.zeros(len(answers), A, dtype=torch.bool)
    for i, a in enumerate(answers):
        a_ids[i, :len(a)] = torch.tensor(a, dtype=torch.long)
        a_valid[i, :len(a)] = True
    ids = torch.cat([p_ids, a_ids], 1)
    return Batch(ids, torch.cat([p_valid, a_valid], 1), None, None, None, a_ids, a_valid, int(ids.numel()))


def ar_loss(model: Backbone, batch: Batch):
    """(total loss, next-token cross-entropy on the answer, aux)."""
    h, _, aux, _ = model(batch.clean_ids, batch.clean_valid)
    A = batch.target.shape[1]
    P = batch.clean_ids.shape[1] - A
    h_pred = h[:, P - 1:P - 1 + A]  # position j predicts token j + 1
    logits = model.logits(h_pred[batch.loss_mask])
    ce = F.cross_entropy(logits, batch.target[batch.loss_mask])
    return ce + model.cfg.aux_loss_coef * aux, ce.detach(), aux.detach()


def build_model(cfg: ModelConfig) -> Backbone:
    """The model class for ``cfg.arch``."""
    from airspace.model.clover import CloverLM

    return CloverLM(cfg) if cfg.arch == "clover" else ARLM(cfg)
