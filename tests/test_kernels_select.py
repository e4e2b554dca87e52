"""Confidence select: the τ rule of the reference, and the one-pass Triton kernel against it under
TRITON_INTERPRET=1 (several vocabulary tiles, argmax ties, rows with nothing masked, forced commits).

Tolerances: conf within 1e-6 abs (fp32 softmax of the same logits, different summation order); token and
commit exact.
"""

import os

import pytest
import torch

from airspace.kernels import ops
from airspace.kernels.select.naive import naive_confidence_select, tau_rule

torch.set_num_threads(1)
DEVICE = "cuda" if torch.cuda.is_available() and os.environ.get("TRITON_INTERPRET", "0") in ("", "0") else "cpu"


def test_reference_confidence_is_max_softmax_probability():
    logits = torch.randn(2, 5, 40) * 4
    commit, token, conf = naive_confidence_select(logits, torch.ones(2, 5, dtype=torch.bool), 0.5)
    probs = logits.softmax(-1)
    torch.testing.assert_close(conf, probs.amax(-1))
    assert torch.equal(token, probs.argmax(-1)) and conf.dtype == torch.float32
    assert torch.equal(commit, conf >= 0.5) or not (conf >= 0.5).any(-1).all()


def test_tau_rule_forces_most_confident_and_skips_done_rows():
    conf = torch.tensor([[0.30, 0.80, 0.50, 0.80],     # nothing passes 0.9: force the best masked (pos 3, as pos 1 is done)
                         [0.95, 0.20, 0.91, 0.10],     # two pass: both, nothing forced
                         [0.40, 0.40, 0.10, 0.20],     # tie: the lowest position wins
                         [0.99, 0.99, 0.99, 0.99]])    # nothing masked: nothing committed
    masked = torch.tensor([[1, 0, 1, 1], [1, 1, 1, 1], [1, 1, 1, 1], [0, 0, 0, 0]], dtype=torch.bool)
    got = tau_rule(conf, masked, 0.9)
    want = torch.tensor([[0, 0, 0, 1], [1, 0, 1, 0], [1, 0, 0, 0], [0, 0, 0, 0]], dtype=torch.bool)
    assert torch.equal(got, want)
    two = tau_rule(conf, masked, 0.9, min_commit=2)
    assert two[0].tolist() == [False, False, True, True] and two[2].tolist() == [True, True, False, False]
    assert torch.equal(two[1], want[1])
    per_row = tau_rule(conf, masked, torch.tensor([0.2, 0.99, 0.99, 0.0]))
    assert per_row[0].tolist() == [True, False, True, True] and per_row[3].sum() == 0


def _check_same(logits, masked, tau, min_commit=1):
    with ops.backend("torch"):
        c_r, t_r, f_r = ops.confidence_select(logits, masked, tau, min_commit=min_commit)
    with ops.backend("triton"):
        c_k, t_k, f_k = ops.confidence_select(logits, masked, tau, min_commit=min_commit)
    assert c_k.dtype == torch.bool and t_k.dtype == torch.int64 and f_k.dtype == torch.float32
    torch.testing.assert_close(f_k, f_r, atol=1e-6, rtol=1e-5)
    assert torch.equal(t_k, t_r)
    assert torch.equal(c_k, tau_rule(f_k, masked, tau, min_commit))    # the rule on the kernel's own conf
    assert torch.equal(c_k, c_r)
    assert not (c_k & ~masked).any()
    return c_k, t_k, f_k


@pytest.mark.parametrize("dtype", [torch.float32, torch.bfloat16, torch.float16])
def test_kernel_matches_reference_over_vocab_tiles(dtype):
    gen = torch.Generator().manual_seed(1)
    logits = (torch.randn(3, 7, 1500, generator=gen) * 3).to(DEVICE, dtype)        # 2 vocabulary tiles
    logits[0, 1, 10] = logits[0, 1, 1300] = 40.0                                   # argmax tie across tiles
    logits[1, 2, 7] = logits[1, 2, 8] = 40.0                                       # tie inside a tile
    masked = (torch.rand(3, 7, generator=gen) < 0.6).to(DEVICE)
    masked[2] = False                                                              # all positions already committed
    c, t, _ = _check_same(logits, masked, 0.9)
    assert t[0, 1] == 10 and t[1, 2] == 7 and c[2].sum() == 0


@pytest.mark.parametrize("tau,min_commit", [(1.01, 1), (1.01, 2), (0.0, 1), (0.6, 3)])
def test_kernel_tau_rule_cases(tau, min_commit):
    gen = torch.Generator().manual_seed(2)
    logits = (torch.randn(4, 5, 33, generator=gen) * 2).to(DEVICE)
    masked = torch.tensor([[1, 1, 1, 1, 1], [0, 0, 1, 0, 0], [0, 0, 0, 0, 0], [1, 0, 1, 0, 1]], dtype=torch.bool).to(DEVICE)
    c, _, _ = _check_same(logits, masked, tau, min_commit)
    if tau > 1:                                                                    # nothing passes: forced commits only
        assert c.sum(-1).tolist() == [min_commit, 1, 0, min(min_commit, 3)]


def test_kernel_block_of_one_token():
    logits = torch.randn(2, 1, 17).to(DEVICE)
    c, _, _ = _check_same(logits, torch.tensor([[True], [False]]).to(DEVICE), 0.99)
    assert c.tolist() == [[True], [False]]


def test_shape_error():
    with pytest.raises(ValueError, match="masked"):
        naive_confidence_select(torch.randn(2, 3, 5), torch.ones(2, 4, dtype=torch.bool), 0.9)
