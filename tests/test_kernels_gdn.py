"""Gated delta rule: the chunked reference against the step-by-step ground truth (fp64), and the Triton kernels
(chunked forward, fused recurrent step) against the references under TRITON_INTERPRET=1 on CPU (natively on CUDA
when the interpreter is off, as `make gpu-check` runs them).

Tolerances: fp32 kernels vs fp32 reference 1e-4 abs on o and states (interpreter: IEEE fp32 dots);
bf16 inputs: o within 3e-2 abs + 2e-2 rel (bf16 output rounding, tf32 dots on GPU), states within 3e-2 abs.
"""

import os

import pytest
import torch
import torch.nn.functional as F

from airspace.kernels import ops
from airspace.kernels.gdn.naive import naive_chunk_gated_delta_rule, naive_recurrent_gated_delta_rule

torch.set_num_threads(1)
DEVICE = "cuda" if torch.cuda.is_available() and os.environ.get("TRITON_INTERPRET", "0") in ("", "0") else "cpu"


def make(B, T, H, K, V, *, dtype=torch.float32, g_range=(0.0, 3.0), seed=0, device=DEVICE):
    gen = torch.Generator().manual_seed(seed)
    q = F.normalize(torch.randn(B, T, H, K, generator=gen, dtype=torch.float64), dim=-1)
    k = F.normalize(torch.randn(B, T, H, K, generator=gen, dtype=torch.float64), dim=-1)
    v = torch.randn(B, T, H, V, generator=gen, dtype=torch.float64)
    lo, hi = g_range
    g = -(lo + (hi - lo) * torch.rand(B, T, H, generator=gen, dtype=torch.float64))
    beta = torch.rand(B, T, H, generator=gen, dtype=torch.float64) * 0.98 + 0.01
    h0 = torch.randn(B, H, K, V, generator=gen, dtype=torch.float64)
    to = lambda x: x.to(device=device, dtype=dtype)  # noqa: E731
    return dict(q=to(q), k=to(k), v=to(v), g=to(g), beta=to(beta)), to(h0)


# ---------------------------------------------------------------- reference-level facts (fp64)

@pytest.mark.parametrize("T", [1, 7, 33, 70])
@pytest.mark.parametrize("with_h0", [False, True])
def test_chunked_reference_equals_recurrent_fp64(T, with_h0):
    x, h0 = make(2, T, 3, 5, 6, dtype=torch.float64, device="cpu", seed=T)
    h0 = h0 if with_h0 else None
    o_r, s_r, states = naive_recurrent_gated_delta_rule(**x, initial_state=h0, output_states=True)
    o_c, s_c, cs = naive_chunk_gated_delta_rule(**x, initial_state=h0, chunk_size=16, output_chunk_states=True)
    assert o_c.dtype == torch.float64 and s_c.shape == (2, 3, 5, 6)
    torch.testing.assert_close(o_c, o_r, atol=1e-10, rtol=0)
    torch.testing.assert_close(s_c, s_r, atol=1e-10, rtol=0)
    # chunk_states[:, :, n] is the state BEFORE chunk n: the initial state (or zeros), then S after step 16n - 1.
    assert cs.shape == (2, 3, (T + 15) // 16, 5, 6)
    first = h0 if with_h0 else torch.zeros_like(s_r)
    torch.testing.assert_close(cs[:, :, 0], first, atol=0, rtol=0)
    for n in range(1, cs.shape[2]):
        torch.testing.assert_close(cs[:, :, n], states[:, 16 * n - 1], atol=1e-10, rtol=0)


def test_states_only_gives_the_same_states_without_outputs():
    """Clover reads a prompt's history through the chunk states alone: skipping o changes no state bit."""
    x, h0 = make(2, 45, 3, 8, 4, dtype=torch.float64, device="cpu", seed=11)
    _, s_full, cs_full = naive_chunk_gated_delta_rule(**x, initial_state=h0, chunk_size=10, output_chunk_states=True)
    o, s, cs = naive_chunk_gated_delta_rule(**x, initial_state=h0, chunk_size=10, output_chunk_states=True,
                                            output_o=False)
    assert o is None
    assert torch.equal(s, s_full) and torch.equal(cs, cs_full)
    o_op, s_op, _ = ops.chunk_gated_delta_rule(**{n: t.float() for n, t in x.items()}, chunk_size=10, output_o=False)
    assert o_op is None and s_op.shape == (2, 3, 8, 4)


def test_recurrent_continues_chunked_final_state():
    x, h0 = make(1, 40, 2, 8, 4, dtype=torch.float64, device="cpu", seed=3)
    o_all, s_all, _ = naive_chunk_gated_delta_rule(**x, initial_state=h0, chunk_size=16)
    head = {n: t[:, :37] for n, t in x.items()}
    tail = {n: t[:, 37:] for n, t in x.items()}
    _, s_head, _ = naive_chunk_gated_delta_rule(**head, initial_state=h0, chunk_size=16)
    o_tail, s_tail = naive_recurrent_gated_delta_rule(**tail, initial_state=s_head)
    torch.testing.assert_close(o_tail, o_all[:, 37:], atol=1e-10, rtol=0)
    torch.testing.assert_close(s_tail, s_all, atol=1e-10, rtol=0)


def test_padding_positions_leave_state_unchanged():
    x, h0 = make(2, 12, 2, 4, 4, dtype=torch.float64, device="cpu", seed=4)
    _, s_ref, _ = naive_chunk_gated_delta_rule(**x, initial_state=h0, chunk_size=8)
    padded = {n: torch.cat([t, torch.randn_like(t[:, :5])], 1) for n, t in x.items()}
    padded["g"][:, 12:] = 0.0
    padded["beta"][:, 12:] = 0.0
    _, s_pad, _ = naive_chunk_gated_delta_rule(**padded, initial_state=h0, chunk_size=8)
    torch.testing.assert_close(s_pad, s_ref, atol=1e-12, rtol=0)


def test_strong_decay_forgets_and_delta_rule_writes_value():
    """g = -20 wipes the old state; beta = 1 with a unit key then stores v exactly: Sᵀ k = v."""
    x, h0 = make(1, 3, 1, 4, 3, dtype=torch.float64, device="cpu", seed=5)
    x["g"][:] = -20.0
    x["beta"][:] = 1.0
    _, s = naive_recurrent_gated_delta_rule(**x, initial_state=h0 * 100)
    readout = torch.einsum("bhkv,bhk->bhv", s, x["k"][:, -1])
    torch.testing.assert_close(readout, x["v"][:, -1], atol=1e-6, rtol=0)


def test_reference_is_differentiable():
    x, h0 = make(1, 10, 1, 4, 4, device="cpu", seed=6)
    for t in x.values():
        t.requires_grad_(True)
    o, s, _ = ops.chunk_gated_delta_rule(**x, chunk_size=4)
    (o.square().sum() + s.sum()).backward()
    assert all(t.grad is not None and torch.isfinite(t.grad).all() for t in x.values())


def test_shape_errors_are_clear():
    x, _ = make(1, 4, 2, 4, 4, device="cpu")
    with pytest.raises(ValueError, match="g and beta"):
        naive_chunk_gated_delta_rule(x["q"], x["k"], x["v"], x["g"][:, :3], x["beta"])


# ---------------------------------------------------------------- Triton kernels vs references

CHUNK_CASES = [  # (B, T, H, K, V, chunk, g_range, with_h0, dtype)
    (2, 33, 2, 7, 9, 16, (0.0, 3.0), True, torch.float32),
    (1, 70, 1, 16, 20, 64, (0.0, 0.05), False, torch.float32),     # decay near 1 (g ~ 0); 16-row steps, states every 4
    (1, 50, 1, 8, 8, 24, (0.0, 1.0), True, torch.float32),         # chunk 24: 12-row steps, states every 2
    (1, 20, 3, 8, 8, 16, (19.0, 21.0), True, torch.float32),       # decay near 0 (g ~ -20)
    (2, 1, 1, 5, 3, 64, (0.0, 1.0), True, torch.float32),          # a single token
    (1, 9, 2, 6, 6, 4, (0.0, 1.0), True, torch.float32),           # chunk smaller than a tl.dot tile
    (2, 24, 2, 16, 16, 16, (0.0, 2.0), True, torch.bfloat16),
]


@pytest.mark.parametrize("case", CHUNK_CASES, ids=lambda c: f"B{c[0]}T{c[1]}H{c[2]}K{c[3]}V{c[4]}C{c[5]}-{str(c[8])[6:]}")
def test_chunk_kernel_matches_reference(case):
    B, T, H, K, V, C, g_range, with_h0, dtype = case
    x, h0 = make(B, T, H, K, V, dtype=dtype, g_range=g_range, seed=T + K)
    h0 = h0.float() if with_h0 else None
    with ops.backend("torch"):
        o_r, s_r, cs_r = ops.chunk_gated_delta_rule(**x, initial_state=h0, chunk_size=C, output_chunk_states=True)
    with ops.backend("triton"):
        o_k, s_k, cs_k = ops.chunk_gated_delta_rule(**x, initial_state=h0, chunk_size=C, output_chunk_states=True)
    assert o_k.dtype == dtype and s_k.dtype == torch.float32 and cs_k.shape == cs_r.shape
    if dtype == torch.float32:
        otol, stol = dict(atol=1e-4, rtol=1e-4), dict(atol=1e-4, rtol=1e-4)
    else:
        otol, stol = dict(atol=3e-2, rtol=2e-2), dict(atol=3e-2, rtol=2e-2)
    torch.testing.assert_close(o_k.float(), o_r.float(), **otol)
    torch.testing.assert_close(s_k, s_r, **stol)
    torch.testing.assert_close(cs_k, cs_r, **stol)


def test_chunk_kernel_beta_zero_padding_keeps_state():
    x, h0 = make(1, 20, 2, 8, 8, seed=11)
    h0 = h0.float()
    x["g"][:, 13:] = 0.0
    x["beta"][:, 13:] = 0.0
    with ops.backend("triton"):
        _, s_full, _ = ops.chunk_gated_delta_rule(**x, initial_state=h0, chunk_size=16)
        _, s_head, _ = ops.chunk_gated_delta_rule(**{n: t[:, :13] for n, t in x.items()}, initial_state=h0, chunk_size=16)
    torch.testing.assert_close(s_full, s_head, atol=1e-5, rtol=1e-5)


@pytest.mark.parametrize("T,dtype,with_h0", [(1, torch.float32, True), (3, torch.float32, False), (2, torch.bfloat16, True)])
def test_fused_recurrent_kernel_matches_reference(T, dtype, with_h0):
    x, h0 = make(2, T, 3, 7, 9, dtype=dtype, seed=20 + T)
    h0 = h0.float() if with_h0 else None
    with ops.backend("torch"):
        o_r, s_r = ops.fused_recurrent_gated_delta_rule(**x, initial_state=h0)
    with ops.backend("triton"):
        o_k, s_k = ops.fused_recurrent_gated_delta_rule(**x, initial_state=h0)
    tol = dict(atol=1e-5, rtol=1e-5) if dtype == torch.float32 else dict(atol=3e-2, rtol=2e-2)
    assert o_k.dtype == dtype and s_k.dtype == torch.float32
    torch.testing.assert_close(o_k.float(), o_r.float(), **tol)
    torch.testing.assert_close(s_k, s_r, atol=1e-5, rtol=1e-5)


def test_fused_recurrent_kernel_continues_chunk_kernel():
    """Decode after prefill: recurrent steps from the chunked final state == chunked over the whole sequence."""
    x, h0 = make(1, 19, 2, 8, 8, seed=30)
    h0 = h0.float()
    with ops.backend("triton"):
        o_all, s_all, _ = ops.chunk_gated_delta_rule(**x, initial_state=h0, chunk_size=16)
        _, s_head, _ = ops.chunk_gated_delta_rule(**{n: t[:, :17] for n, t in x.items()}, initial_state=h0, chunk_size=16)
        o_tail, s_tail = ops.fused_recurrent_gated_delta_rule(**{n: t[:, 17:] for n, t in x.items()}, initial_state=s_head)
    torch.testing.assert_close(o_tail, o_all[:, 17:], atol=1e-4, rtol=1e-4)
    torch.testing.assert_close(s_tail, s_all, atol=1e-4, rtol=1e-4)


def test_dispatcher_switch_and_autograd_fallback(monkeypatch):
    x, _ = make(1, 5, 1, 4, 4)
    assert ops.get_backend() in ops.BACKENDS
    with ops.backend("torch"):
        assert not ops.uses_triton(*x.values())
    with ops.backend("auto"):
        assert ops.uses_triton(*x.values()) == (DEVICE == "cuda")   # CPU tensors -> reference
    with ops.backend("triton"):
        assert ops.uses_triton(*x.values())               # interpreter mode
        x["q"].requires_grad_(True)
        assert not ops.uses_triton(*x.values())           # gradients needed -> reference
        with torch.no_grad():
            assert ops.uses_triton(*x.values())
    with pytest.raises(ValueError):
        ops.set_backend("cuda")
    monkeypatch.setenv("TRITON_INTERPRET", "0")
    with ops.backend("triton"), pytest.raises(RuntimeError, match="TRITON_INTERPRET"):
        ops.uses_triton(x["k"].cpu())


@pytest.mark.skipif(DEVICE == "cuda", reason="the dry run is the CPU/interpreter plumbing check")
def test_gpu_check_dry_run_reports_every_kernel(monkeypatch, capsys):
    import json

    from airspace.kernels import gpu_check

    monkeypatch.setenv("TRITON_INTERPRET", "1")
    assert gpu_check.main(["--dry-run"]) == 0
    rows = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert rows[0]["name"] == "gpu_check" and rows[0]["dry_run"] is True
    names = {r["name"] for r in rows[1:]}
    assert names == {"gdn_chunk", "gdn_recurrent", "block_attn", "moe", "select"}
    for r in rows[1:]:
        assert r["ok"] and r["max_abs_err"] < 1e-5 and r["ms_kernel"] > 0 and r["ms_reference"] > 0
