"""The autoregressive baseline: the same hybrid backbone (GDN + gated attention + MoE), fully causal, same size.

Training is next-slot prediction of the pointer answer given the message; decoding (``airspace.model.decoding``) uses
the KV cache and the recurrent GDN state, one token per forward.
"""

from __future__ import annotations

import torch
import torch.nn.functional as F

from airspace.model.clover import Backbone, Batch, Memory, left_pad_prompts, right_pad_answers
from airspace.model.config import ModelConfig
from airspace.model.tokenizer import MASK_ID


class ARLM(Backbone):
    """Causal pointer LM over [message <sep> answer slots]."""

    def __init__(self, cfg: ModelConfig):
        if cfg.arch != "ar":
            raise ValueError("ARLM needs arch='ar'")
        super().__init__(cfg)


def ar_batch(prompts: list[list[int]], answers: list[list[int]], cfg: ModelConfig, *, pad_id: int) -> Batch:
    """[left-padded prompt ; right-padded pointer answer]; each slot is predicted from the position before it."""
    p_ids, p_valid = left_pad_prompts(prompts, pad_id, 1)
    offset = torch.tensor([p_ids.shape[1] - len(p) for p in prompts], dtype=torch.long)
    a_ptr, a_valid = right_pad_answers(answers, 1)
    return Batch(p_ids, p_valid, offset, a_ptr, a_valid, None, None, None, offset[:, None] + a_ptr, a_valid,
                 int(p_ids.numel() + a_ptr.numel()))


def ar_inputs(model: Backbone, mem: Memory, prompt_ids: torch.Tensor | None, answer: torch.Tensor,
              first_slot: int) -> torch.Tensor:
    """Input embeddings of an AR segment: the input at each position carries the embedding of the slot it
    predicts. ``prompt_ids`` (or None in decode steps) end with SEP, which predicts slot 0; answer token i (the
    ``first_slot + i``-th slot of the answer) predicts slot ``first_slot + i + 1``."""
    bs = model.cfg.block_size
    dev = answer.device
    parts = []
    if prompt_ids is not None:
        px = model.embed(prompt_ids)
        px = torch.cat([px[:, :-1], px[:, -1:] + model.slot_embed.weight[0]], 1)
        parts.append(px)
    slot = (first_slot + 1 + torch.arange(answer.shape[1], device=dev)) % bs
    parts.append(model.answer_embed(mem, answer, slot, MASK_ID))
    return torch.cat(parts, 1)


def ar_loss(model: Backbone, batch: Batch):
    """(total loss, next-slot pointer cross-entropy, aux)."""
    mem = batch.memory()
    P, A = batch.prompt_ids.shape[1], batch.answer.shape[1]
    x = ar_inputs(model, mem, batch.prompt_ids, batch.answer, 0)
    valid = torch.cat([batch.prompt_valid, batch.answer_valid], 1)
    h, _, aux, _ = model(valid.long(), valid, clean_x=x)
    model.set_keys(mem, h[:, :P])
    h_pred = h[:, P - 1:P - 1 + A]  # position j predicts slot j + 1
    logits = model.pointer_logits(h_pred, mem)[batch.loss_mask]
    ce = F.cross_entropy(logits, batch.target[batch.loss_mask])
    return ce + model.cfg.aux_loss_coef * aux, ce.detach(), aux.detach()


def build_model(cfg: ModelConfig) -> Backbone:
    """The model class for ``cfg.arch``."""
    from airspace.model.clover import CloverLM

    return CloverLM(cfg) if cfg.arch == "clover" else ARLM(cfg)
