"""The one entry point the model calls: each op runs the Triton kernel or the torch reference.

Choice ("auto", the default): the Triton kernel when the inputs are on CUDA and triton imports, the torch
reference otherwise. One switch forces either: the environment variable ``AIRSPACE_KERNELS=auto|triton|torch``
(read at import), ``set_backend(name)``, or the context manager ``with backend("triton"): ...``.
"triton" on CPU tensors works only under ``TRITON_INTERPRET=1`` (that is how the tests run the kernels).

Backward: the Triton kernels are forward-only. Whenever autograd needs gradients through a call (grad mode on
and any input requires grad), the op runs the torch reference, whatever the backend, so training
differentiates through the readable reference path. Inference (``torch.no_grad()``/``inference_mode``) uses
the kernels.

Safety net: in "auto" mode, a kernel that raises (a GPU or triton version it was never run on) logs one warning
and that op falls back to the reference for the rest of the process; forced "triton" re-raises, so
``gpu_check`` and the tests see every failure.

Layout is [B, T, H, D] for the GDN ops (as in flash-linear-attention) and [B, H, L, D] for block attention.
"""

from __future__ import annotations

import contextlib
import importlib
import logging
import os

import torch

from airspace.kernels.block_attn.naive import naive_block_attention
from airspace.kernels.gdn.naive import naive_chunk_gated_delta_rule, naive_recurrent_gated_delta_rule
from airspace.kernels.moe.naive import moe_aux_loss, naive_moe_ffn  # noqa: F401  (moe_aux_loss re-exported for the model)
from airspace.kernels.select.naive import naive_confidence_select

__all__ = [
    "BACKENDS", "set_backend", "get_backend", "backend", "triton_available", "uses_triton",
    "chunk_gated_delta_rule", "fused_recurrent_gated_delta_rule", "block_attention", "moe_ffn",
    "confidence_select", "moe_aux_loss",
]

_log = logging.getLogger(__name__)
_broken: set[str] = set()          # ops whose kernel raised once in "auto" mode

BACKENDS = ("auto", "triton", "torch")


def _validated(name: str) -> str:
    name = (name or "auto").strip().lower()
    if name not in BACKENDS:
        raise ValueError(f"kernel backend must be one of {BACKENDS}, got {name!r}")
    return name


_backend = _validated(os.environ.get("AIRSPACE_KERNELS", "auto"))


def set_backend(name: str) -> None:
    """Force the backend for every op: "auto" (CUDA -> Triton, else torch), "triton" or "torch"."""
    global _backend
    _backend = _validated(name)


def get_backend() -> str:
    return _backend


@contextlib.contextmanager
def backend(name: str):
    """Temporarily force a backend: ``with ops.backend("torch"): ...``."""
    global _backend
    old, _backend = _backend, _validated(name)
    try:
        yield
    finally:
        _backend = old


_triton_ok: bool | None = None


def triton_available() -> bool:
    """True when ``import triton`` works (checked once)."""
    global _triton_ok
    if _triton_ok is None:
        try:
            import triton  # noqa: F401
            import triton.language  # noqa: F401
            _triton_ok = True
        except Exception:  # pragma: no cover - depends on the machine
            _triton_ok = False
    return _triton_ok


def _interpret() -> bool:
    return os.environ.get("TRITON_INTERPRET", "0") not in ("", "0")


def uses_triton(*tensors) -> bool:
    """Would an op with these inputs run the Triton kernel under the current backend?"""
    ts = [t for t in tensors if isinstance(t, torch.Tensor)]
    if torch.is_grad_enabled() and any(t.requires_grad for t in ts):
        return False                       # forward-only kernels: autograd goes through the reference
    if _backend == "torch":
        return False
    on_cuda = all(t.is_cuda for t in ts)
    if _backend == "auto":
        return on_cuda and triton_available()
    # forced "triton"
    if not triton_available():
        raise RuntimeError("AIRSPACE_KERNELS=triton but triton cannot be imported")
    if not on_cuda and not _interpret():
        raise RuntimeError("backend 'triton' on CPU tensors needs TRITON_INTERPRET=1 (set before triton is imported)")
    return True


def _kernel(module: str, name: str):
    return getattr(importlib.import_module(f"airspace.kernels.{module}"), name)


def _run(op: str, module: str, name: str, reference, tensors, *args, **kwargs):
    """Run the kernel or the reference for one op call (see the module docstring for the rules)."""
    if (op in _broken and _backend == "auto") or not uses_triton(*tensors):
        return reference(*args, **kwargs)
    if _backend == "triton":
        return _kernel(module, name)(*args, **kwargs)
    try:
        return _kernel(module, name)(*args, **kwargs)
    except Exception as exc:  # pragma: no cover - only on a GPU the kernel was never run on
        _broken.add(op)
        _log.warning("airspace.kernels: Triton %s failed (%s: %s); using the torch reference from now on",
                     op, type(exc).__name__, exc)
        return reference(*args, **kwargs)


def chunk_gated_delta_rule(q, k, v, g, beta, *, scale=None, initial_state=None, chunk_size=64,
                           output_chunk_states=False, output_o=True):
    """Chunked gated delta rule -> (o [B,T,H,V] | None, final_state [B,H,K,V] fp32, chunk_states [B,H,NC,K,V] | None).

    q, k [B,T,H,K] (caller L2-normalises), v [B,T,H,V], g [B,T,H] log-decay <= 0, beta [B,T,H] in (0,1),
    initial_state [B,H,K,V] or None. chunk_states[:, :, n] is the state before chunk n. ``output_o=False``: the
    caller needs the states only (o is None). See gdn/naive.py.
    """
    return _run("chunk_gated_delta_rule", "gdn.chunk", "chunk_gated_delta_rule_fwd", naive_chunk_gated_delta_rule,
                (q, k, v, g, beta, initial_state), q, k, v, g, beta, scale=scale, initial_state=initial_state,
                chunk_size=chunk_size, output_chunk_states=output_chunk_states, output_o=output_o)


def fused_recurrent_gated_delta_rule(q, k, v, g, beta, *, scale=None, initial_state=None):
    """Step-by-step gated delta rule for a few tokens (decode) -> (o [B,T,H,V], final_state [B,H,K,V])."""
    return _run("fused_recurrent_gated_delta_rule", "gdn.fused_recurrent", "fused_recurrent_gated_delta_rule_fwd",
                naive_recurrent_gated_delta_rule, (q, k, v, g, beta, initial_state), q, k, v, g, beta, scale=scale,
                initial_state=initial_state)


def block_attention(q, k, v, *, extra_logit=None, extra_value=None, prefix_k=None, prefix_v=None,
                    prefix_mask=None, key_mask=None, scale=None):
    """In-block attention -> o [B,H,L,Dv]: one softmax over [extra slot ; prefix ; block keys]. See block_attn/naive.py."""
    return _run("block_attention", "block_attn.triton_kernel", "triton_block_attention", naive_block_attention,
                (q, k, v, extra_logit, extra_value, prefix_k, prefix_v, prefix_mask, key_mask), q, k, v,
                extra_logit=extra_logit, extra_value=extra_value, prefix_k=prefix_k, prefix_v=prefix_v,
                prefix_mask=prefix_mask, key_mask=key_mask, scale=scale)


def moe_ffn(x, router_logits, w_gate, w_up, w_down, top_k):
    """Routed SwiGLU MoE -> (y [N,D], topk_weight [N,k] fp32, topk_idx [N,k] int64). See moe/naive.py."""
    return _run("moe_ffn", "moe.triton_kernel", "triton_moe_ffn", naive_moe_ffn,
                (x, router_logits, w_gate, w_up, w_down), x, router_logits, w_gate, w_up, w_down, top_k)


def confidence_select(logits, masked, tau, *, min_commit=1):
    """Confidence select -> (commit [B,L] bool, token [B,L] int64, conf [B,L] fp32). See select/naive.py."""
    return _run("confidence_select", "select.triton_kernel", "triton_confidence_select", naive_confidence_select,
                (logits, masked, tau), logits, masked, tau, min_commit=min_commit)
