"""Routed MoE FFN: the reference against a dense formula, the aux loss, and the grouped-matmul Triton kernel
against the reference under TRITON_INTERPRET=1 (experts with no tokens, several tiles per expert, odd sizes).

Tolerances: fp32 1e-5 abs/rel; bf16 inputs 2e-2 abs/rel (bf16 dots and a bf16 intermediate on GPU).
"""

import os

import pytest
import torch
import torch.nn.functional as F

from airspace.kernels import ops
from airspace.kernels.moe.naive import moe_aux_loss, naive_moe_ffn, route
from airspace.kernels.moe.triton_kernel import sort_by_expert

torch.set_num_threads(1)
DEVICE = "cuda" if torch.cuda.is_available() and os.environ.get("TRITON_INTERPRET", "0") in ("", "0") else "cpu"


def make(N, D, Fd, E, *, dead=(), dtype=torch.float32, seed=0, device=DEVICE):
    gen = torch.Generator().manual_seed(seed)
    x = torch.randn(N, D, generator=gen)
    logits = torch.randn(N, E, generator=gen)
    for e in dead:
        logits[:, e] = -30.0                                     # this expert never makes the top-k
    ws = [torch.randn(E, D, Fd, generator=gen) * D ** -0.5, torch.randn(E, D, Fd, generator=gen) * D ** -0.5,
          torch.randn(E, Fd, D, generator=gen) * Fd ** -0.5]
    to = lambda t: t.to(device=device, dtype=dtype)  # noqa: E731
    return to(x), logits.to(device), *(to(w) for w in ws)


def test_reference_equals_dense_mixture():
    x, logits, wg, wu, wd = make(9, 8, 12, 4, device="cpu", dtype=torch.float64)
    logits = logits.double()
    y, w, idx = naive_moe_ffn(x, logits, wg, wu, wd, 2)
    probs = logits.double().softmax(-1)
    top = probs.topk(2, -1)
    gate = torch.zeros_like(probs).scatter(-1, top.indices, top.values / top.values.sum(-1, keepdim=True))
    experts = torch.stack([(F.silu(x @ wg[e]) * (x @ wu[e])) @ wd[e] for e in range(4)], 1)   # [N,E,D]
    torch.testing.assert_close(y, (gate[..., None] * experts).sum(1), atol=1e-12, rtol=0)
    torch.testing.assert_close(w.sum(-1), torch.ones(9, dtype=torch.float64))
    assert torch.equal(idx, top.indices)


def test_route_rejects_bad_top_k():
    with pytest.raises(ValueError, match="top_k"):
        route(torch.zeros(3, 4), 5)


def test_aux_loss_is_one_when_balanced_and_has_router_gradient():
    logits = torch.zeros(8, 4, requires_grad=True)
    idx = torch.arange(8).remainder(4)[:, None]
    loss = moe_aux_loss(logits, idx, 4)
    assert abs(loss.item() - 1.0) < 1e-6
    skewed = moe_aux_loss(torch.tensor([[5.0, 0, 0, 0]] * 8), torch.zeros(8, 1, dtype=torch.long), 4)
    assert skewed.item() > 3.5                                   # everything on expert 0 -> close to E
    loss.backward()
    assert logits.grad is not None


def test_sort_by_expert_tiles_cover_every_assignment_once():
    idx = torch.tensor([[2, 0], [2, 3], [0, 2], [2, 0], [3, 2]])        # expert 1 has no tokens
    order, row_end, tile_e, tile_r0 = sort_by_expert(idx, 4, block_m=2)
    flat = idx.reshape(-1)[order]
    assert torch.equal(flat, flat.sort().values)
    assert row_end.tolist() == [3, 3, 8, 10]
    rows = []
    for e, r0 in zip(tile_e.tolist(), tile_r0.tolist()):
        if e < 4:
            rows += [r for r in range(r0, r0 + 2) if r < row_end[e]]
            assert all(flat[r] == e for r in range(r0, min(r0 + 2, row_end[e])))
    assert sorted(rows) == list(range(10))


CASES = [  # (N, D, F, E, top_k, dead experts, dtype)
    (37, 24, 40, 5, 2, (3,), torch.float32),     # an expert with no tokens, several tiles per expert
    (1, 16, 16, 4, 1, (), torch.float32),        # a single token
    (20, 7, 9, 3, 3, (), torch.float32),         # odd sizes, every expert for every token
    (70, 32, 48, 4, 2, (0,), torch.float32),
    (24, 16, 32, 4, 2, (1,), torch.bfloat16),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"N{c[0]}D{c[1]}F{c[2]}E{c[3]}k{c[4]}-{str(c[6])[6:]}")
def test_kernel_matches_reference(case):
    N, D, Fd, E, k, dead, dtype = case
    args = make(N, D, Fd, E, dead=dead, dtype=dtype, seed=N)
    with ops.backend("torch"):
        y_r, w_r, i_r = ops.moe_ffn(*args, k)
    with ops.backend("triton"):
        y_k, w_k, i_k = ops.moe_ffn(*args, k)
    for e in dead:
        assert not (i_k == e).any()
    assert torch.equal(i_k, i_r) and y_k.dtype == dtype and w_k.dtype == torch.float32
    torch.testing.assert_close(w_k, w_r)
    tol = dict(atol=1e-5, rtol=1e-5) if dtype == torch.float32 else dict(atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(y_k.float(), y_r.float(), **tol)
