"""int8 dynamic quantisation of a loaded model for CPU reading: an opt-in load mode (``load_extractor(int8=True)``,
or ``AIRSPACE_INT8=1``), not the default.

The weights of the mixers' projections and of the MoE experts (routed and shared) are stored as int8, one scale
per output channel, and each call quantises its activations on the fly (``torch.ao`` dynamic quantisation; the
routed experts, which the model keeps as [E, D, F] tensors rather than ``nn.Linear``, become one fused gate+up and
one down ``nn.Linear`` per expert first). What decides a choice stays in float32: the MoE router (which expert a
token goes to), the GDN decay and write gates (``ab_proj``), the shared expert's gate and the pointer head (the
logits every committed slot is chosen from), so int8 rounding moves hidden states, not routing or the final
scores directly. Whether the records stay the same is measured per bench set (docs/results/profile-cpu-*.md);
where they do not, this stays opt-in.

CPU only: on CUDA the model runs in bf16 and this mode is refused.
"""

from __future__ import annotations

import warnings

import torch
import torch.nn as nn
import torch.nn.functional as F

from airspace.kernels.moe.naive import route
from airspace.model.backbone import Backbone
from airspace.model.layers import MoEFFN

# Linear layers left in float32 (by attribute name): the ones whose outputs pick something (an expert, a gate, a
# pointer) rather than feed a residual stream
KEEP_FLOAT = ("router", "ab_proj", "shared_gate", "ptr_q", "ptr_k", "ptr_k_pos", "ptr_embed_pos")


def _quantize(module: nn.Module) -> nn.Module:
    """``module``'s ``nn.Linear`` children (recursively, except ``KEEP_FLOAT``) as dynamic int8 per-channel."""
    from torch.ao.quantization import per_channel_dynamic_qconfig, quantize_dynamic

    spec = {name: per_channel_dynamic_qconfig for name, m in module.named_modules()
            if isinstance(m, nn.Linear) and name.rsplit(".", 1)[-1] not in KEEP_FLOAT}
    with warnings.catch_warnings():  # torch.ao's eager quantisation announces its move to torchao on every call
        warnings.simplefilter("ignore")
        return quantize_dynamic(module, spec, dtype=torch.qint8, inplace=True)


class Int8MoEFFN(nn.Module):
    """``MoEFFN`` with each routed expert as int8 linear layers (gate and up fused): the same routing (float32
    router, top-k renormalised, ``kernels.moe.naive.route``) and the same shared expert."""

    def __init__(self, ffn: MoEFFN):
        super().__init__()
        self.E, self.top_k = ffn.E, ffn.top_k
        self.router = ffn.router
        E, D, F_ = ffn.w_gate.shape
        self.gate_up = nn.ModuleList()
        self.down = nn.ModuleList()
        with torch.no_grad():
            for e in range(E):
                gu = nn.Linear(D, 2 * F_, bias=False)
                gu.weight.copy_(torch.cat([ffn.w_gate[e], ffn.w_up[e]], 1).t().float())
                dn = nn.Linear(F_, D, bias=False)
                dn.weight.copy_(ffn.w_down[e].t().float())
                self.gate_up.append(gu)
                self.down.append(dn)
        self.shared, self.shared_down, self.shared_gate = ffn.shared, ffn.shared_down, ffn.shared_gate

    def forward(self, x: torch.Tensor):
        logits = self.router(x)
        w, idx = route(logits, self.top_k)
        y = x.new_zeros(x.shape, dtype=w.dtype)
        for e in range(self.E):
            tok, slot = (idx == e).nonzero(as_tuple=True)
            if tok.numel() == 0:
                continue
            g, u = self.gate_up[e](x[tok]).chunk(2, -1)
            y.index_add_(0, tok, self.down[e](F.silu(g) * u) * w[tok, slot][:, None])
        y = y.to(x.dtype)
        if self.shared is not None:
            gs, us = self.shared(x).chunk(2, -1)
            y = y + torch.sigmoid(self.shared_gate(x)) * self.shared_down(F.silu(gs) * us)
        return y, x.new_zeros((), dtype=torch.float32), logits, idx  # no load-balancing loss: inference only


def quantize_int8(model: Backbone) -> Backbone:
    """The model (changed in place, returned) with int8 weights as the module docstring says; for inference on a
    CPU in float32 only."""
    if model.device.type != "cpu":
        raise ValueError(f"int8 dynamic quantisation runs on a CPU; this model is on {model.device.type}")
    if model.embed.weight.dtype != torch.float32:
        raise ValueError(f"int8 dynamic quantisation needs a float32 model, got {model.embed.weight.dtype}")
    if "fbgemm" in torch.backends.quantized.supported_engines:
        torch.backends.quantized.engine = "fbgemm"  # x86: the int8 GEMMs (VNNI where the CPU has it)
    model.eval()
    for layer in model.layers:
        layer.ffn = Int8MoEFFN(layer.ffn)
        _quantize(layer)
    model.int8 = True
    return model


def is_int8(model: nn.Module) -> bool:
    return bool(getattr(model, "int8", False))
