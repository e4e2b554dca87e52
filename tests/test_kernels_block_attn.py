"""In-block attention: the reference's semantics (one softmax over [history slot ; KV prefix ; block], both
directions inside the block, dead rows -> zeros) and the Triton kernel against it under TRITON_INTERPRET=1.

Tolerances: fp32 1e-5 abs/rel; bf16 inputs 2e-2 abs/rel (bf16 output rounding; bf16 dots on GPU).
"""

import os

import pytest
import torch

from airspace.kernels import ops
from airspace.kernels.block_attn.naive import naive_block_attention

torch.set_num_threads(1)
DEVICE = "cuda" if torch.cuda.is_available() and os.environ.get("TRITON_INTERPRET", "0") in ("", "0") else "cpu"


def make(B, H, L, D, Dv, P=0, *, extra=False, kmask_p=None, pmask_p=None, dtype=torch.float32, seed=0, device=DEVICE):
    gen = torch.Generator().manual_seed(seed)
    r = lambda *s: torch.randn(*s, generator=gen).to(device=device, dtype=dtype)  # noqa: E731
    q, k, v = r(B, H, L, D), r(B, H, L, D), r(B, H, L, Dv)
    kw = {}
    if extra:
        kw["extra_logit"] = (torch.randn(B, H, L, generator=gen) * 2).to(device)
        kw["extra_value"] = r(B, H, L, Dv)
    if P:
        kw["prefix_k"], kw["prefix_v"] = r(B, H, P, D), r(B, H, P, Dv)
        if pmask_p is not None:
            kw["prefix_mask"] = (torch.rand(B, P, generator=gen) < pmask_p).to(device)
    if kmask_p is not None:
        kw["key_mask"] = (torch.rand(B, L, generator=gen) < kmask_p).to(device)
    return q, k, v, kw


# ---------------------------------------------------------------- reference semantics

def test_reference_equals_plain_softmax_attention_without_extras():
    q, k, v, _ = make(2, 3, 6, 8, 5, device="cpu")
    want = torch.softmax(q @ k.transpose(-1, -2) / 8 ** 0.5, -1) @ v
    torch.testing.assert_close(naive_block_attention(q, k, v), want, atol=1e-6, rtol=1e-6)


def test_reference_history_slot_is_one_more_key():
    """The extra slot behaves exactly like one extra key whose logit is given (not scaled)."""
    q, k, v, kw = make(1, 2, 4, 8, 3, extra=True, device="cpu")
    s = torch.cat([kw["extra_logit"][..., None], q @ k.transpose(-1, -2) * 0.5], -1)
    vals = torch.cat([kw["extra_value"][:, :, :, None], v[:, :, None].expand(-1, -1, 4, -1, -1)], -2)
    want = torch.einsum("bhln,bhlnd->bhld", torch.softmax(s, -1), vals)
    torch.testing.assert_close(naive_block_attention(q, k, v, scale=0.5, **kw), want, atol=1e-6, rtol=1e-6)


def test_reference_is_bidirectional_and_masks_keys():
    q, k, v, _ = make(1, 1, 5, 4, 4, device="cpu")
    base = naive_block_attention(q, k, v)
    v2 = v.clone()
    v2[:, :, -1] += 1.0
    assert (naive_block_attention(q, k, v2)[:, :, 0] - base[:, :, 0]).abs().max() > 1e-3   # first query sees last key
    mask = torch.tensor([[True, True, True, True, False]])
    torch.testing.assert_close(naive_block_attention(q, k, v2, key_mask=mask), naive_block_attention(q, k, v, key_mask=mask))


def test_reference_dead_rows_are_zero_and_history_only_rows_copy_history():
    q, k, v, kw = make(2, 1, 3, 4, 4, extra=True, device="cpu")
    none = torch.zeros(2, 3, dtype=torch.bool)
    assert naive_block_attention(q, k, v, key_mask=none).abs().max() == 0
    torch.testing.assert_close(naive_block_attention(q, k, v, key_mask=none, **kw), kw["extra_value"])
    dead = dict(kw, extra_logit=torch.full_like(kw["extra_logit"], float("-inf")))
    assert naive_block_attention(q, k, v, key_mask=none, **dead).abs().max() == 0


def test_reference_shape_errors():
    q, k, v, kw = make(1, 1, 3, 4, 4, extra=True, device="cpu")
    with pytest.raises(ValueError, match="extra_logit and extra_value"):
        naive_block_attention(q, k, v, extra_logit=kw["extra_logit"])
    with pytest.raises(ValueError, match="key_mask"):
        naive_block_attention(q, k, v, key_mask=torch.ones(1, 4, dtype=torch.bool))


# ---------------------------------------------------------------- Triton kernel vs reference

CASES = [  # (B, H, L, D, Dv, P, extra, key_mask p, prefix_mask p, dtype)
    (2, 3, 5, 7, 9, 0, True, 0.7, None, torch.float32),          # GDN layer: history slot + ragged block
    (2, 2, 20, 16, 16, 70, False, 0.8, 0.6, torch.float32),      # attention layer: KV cache over 2 tiles
    (1, 2, 1, 8, 8, 0, True, None, None, torch.float32),         # a block of one token
    (1, 1, 33, 5, 3, 3, True, 0.5, 0.5, torch.float32),          # everything at once, odd sizes
    (2, 2, 8, 16, 16, 5, True, 0.8, 0.8, torch.bfloat16),
]


@pytest.mark.parametrize("case", CASES, ids=lambda c: f"B{c[0]}H{c[1]}L{c[2]}D{c[3]}Dv{c[4]}P{c[5]}-{str(c[9])[6:]}")
def test_kernel_matches_reference(case):
    B, H, L, D, Dv, P, extra, kp, pp, dtype = case
    q, k, v, kw = make(B, H, L, D, Dv, P, extra=extra, kmask_p=kp, pmask_p=pp, dtype=dtype, seed=L + P)
    with ops.backend("torch"):
        want = ops.block_attention(q, k, v, **kw)
    with ops.backend("triton"):
        got = ops.block_attention(q, k, v, **kw)
    assert got.dtype == dtype and got.shape == (B, H, L, Dv)
    tol = dict(atol=1e-5, rtol=1e-5) if dtype == torch.float32 else dict(atol=2e-2, rtol=2e-2)
    torch.testing.assert_close(got.float(), want.float(), **tol)


def test_kernel_dead_rows_and_custom_scale():
    q, k, v, kw = make(2, 1, 4, 8, 8, extra=True)
    none = torch.zeros(2, 4, dtype=torch.bool, device=q.device)
    pnone = torch.zeros(2, 3, dtype=torch.bool, device=q.device)
    dead = dict(kw, extra_logit=torch.full_like(kw["extra_logit"], float("-inf")))
    with ops.backend("triton"):
        assert ops.block_attention(q, k, v, key_mask=none, **dead).abs().max() == 0
        got = ops.block_attention(q, k, v, key_mask=none, **kw)
        torch.testing.assert_close(got, kw["extra_value"])                    # only the history slot is alive
        got = ops.block_attention(q, k, v, key_mask=none, prefix_mask=pnone, prefix_k=k[:, :, :3],
                                  prefix_v=v[:, :, :3])
        assert got.abs().max() == 0
        got = ops.block_attention(q, k, v, scale=0.3, **kw)
    torch.testing.assert_close(got, naive_block_attention(q, k, v, scale=0.3, **kw), atol=1e-5, rtol=1e-5)
