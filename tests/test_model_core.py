"""Core model tests: GDN forms agree, caches equal recomputation, block structure, conv branch, MoE, decoding."""

from __future__ import annotations

import os

import pytest
import torch

from airspace.kernels import ops
from airspace.model import reading
from airspace.model.backbone import Memory
from airspace.model.batch import left_pad_prompts
from airspace.model.build import build_model
from airspace.model.clover import _Decoding
from airspace.model.config import ModelConfig
from airspace.model.layers import BlockGatedDeltaNet, GatedDeltaNet, MoEFFN, SegCtx
from airspace.model.passes import ReaskBareZone, ReaskOpenEnd
from airspace.model.pointers import (
    N_SLOTS,
    encode_message,
    render_block,
    repair_slots,
    slot_names,
    slots_to_drafts,
    spans_to_slots,
)
from airspace.model.sampler import Block
from airspace.model.tokenizer import MASK_ID, Tokenizer

torch.set_num_threads(1)
TOK = Tokenizer()


def tiny_cfg(arch: str, **kw) -> ModelConfig:
    base = dict(arch=arch, vocab_size=TOK.vocab_size, d_model=32, layer_pattern="GGA", attn_heads=2,
                attn_head_dim=16, gdn_heads=2, gdn_head_k=16, gdn_head_v=16, n_experts=3, top_k=2, expert_ff=32,
                shared_ff=32, block_size=N_SLOTS, max_answer_tokens=3 * N_SLOTS)
    base.update(kw)
    return ModelConfig(**base)


def tiny_model(arch: str, seed: int = 0, dtype=torch.float64, **kw):
    torch.manual_seed(seed)
    m = build_model(tiny_cfg(arch, **kw)).to(dtype).eval()
    # make the zero-initialised branches non-trivial so the tests exercise them
    with torch.no_grad():
        for layer in m.layers:
            if hasattr(layer.mixer, "rconv_w"):
                layer.mixer.rconv_w.normal_(0, 0.3)
                layer.mixer.hist_b.normal_(0, 1.0)
    return m


def rand_ids(n, seed):
    g = torch.Generator().manual_seed(seed)
    return torch.randint(TOK.char_offset, TOK.vocab_size, (n,), generator=g).tolist()


def rand_ptrs(n, hi, seed):
    """n random pointer slots into a prompt of hi tokens (SEP = hi - 1 included)."""
    g = torch.Generator().manual_seed(seed)
    return torch.randint(0, hi, (n,), generator=g).tolist()


def memory(prompts, multiple):
    ids, valid = left_pad_prompts(prompts, TOK.pad_id, multiple)
    return Memory(ids, torch.tensor([ids.shape[1] - len(p) for p in prompts]), None, valid)


def full_clover_logits(model, prompt, blocks, query):
    """No cache: clean = prompt + committed blocks, noisy = query block (-1 = masked), in one call -> pointer
    logits [1, bs, P] over prompt columns."""
    bs = model.cfg.block_size
    mem = memory([prompt], bs)
    slot = torch.arange(bs)
    clean_x = torch.cat([model.embed(mem.ids)] + [model.answer_embed(mem, torch.tensor([b]), slot, MASK_ID)
                                                  for b in blocks], 1)
    valid = torch.cat([mem.valid, torch.ones(1, len(blocks) * bs, dtype=torch.bool)], 1)
    q = torch.tensor([query])
    h_c, h, _, _ = model(clean_valid=valid, clean_x=clean_x, noisy_valid=torch.ones_like(q, dtype=torch.bool),
                         noisy_x=model.answer_embed(mem, q, slot, MASK_ID),
                         noisy_hist=torch.tensor([valid.shape[1] // bs]))
    model.set_keys(mem, h_c[:, :mem.ids.shape[1]])
    return model.pointer_logits(h, mem)


def ctx_for(T, arch="ar", bs=4, B=1):
    v = torch.ones(B, T, dtype=torch.bool)
    return SegCtx(block_causal=arch == "clover", block_size=bs, clean_valid=v, noisy_valid=v[:, :0],
                  noisy_hist=torch.zeros(0, dtype=torch.long), positions=torch.arange(T), prefix_valid=None)


# ------------------------------------------------------------------------------------------------ GDN layer
@pytest.mark.parametrize("decay", ["fast", "slow"])
def test_gdn_layer_chunked_equals_recurrent(decay):
    """AR GDN layer: the whole sequence at once (chunked scan) == token by token (recurrent step + caches)."""
    torch.manual_seed(1)
    cfg = tiny_cfg("ar")
    layer = GatedDeltaNet(cfg).double()
    with torch.no_grad():
        if decay == "fast":  # alpha ~ 0: the state forgets almost everything each step
            layer.A_log.fill_(6.0)
            layer.dt_bias.fill_(5.0)
        else:  # alpha ~ 1
            layer.A_log.fill_(-12.0)
            layer.dt_bias.fill_(-8.0)
    B, T = 2, 150  # more than two 64-chunks
    x = torch.randn(B, T, cfg.d_model, dtype=torch.float64)
    full, cache_full = layer(x, ctx_for(T, B=B), None)
    cache, outs = None, []
    for t in range(T):
        y, cache = layer(x[:, t:t + 1], ctx_for(1, B=B), cache)
        outs.append(y)
    step = torch.cat(outs, 1)
    torch.testing.assert_close(step, full, rtol=1e-9, atol=1e-10)
    torch.testing.assert_close(cache.state, cache_full.state, rtol=1e-9, atol=1e-10)


# ------------------------------------------------------------------------------------------------ caches
def test_clover_cached_blocks_equal_recomputing_history():
    m = tiny_model("clover")
    bs = m.cfg.block_size
    prompt = rand_ids(9, 0) + [TOK.sep_id]
    blocks = [rand_ptrs(bs, len(prompt), 10 + i) for i in range(3)]
    query = rand_ptrs(bs, len(prompt), 99)
    query[1] = -1
    ref = full_clover_logits(m, prompt, blocks, query)
    # incremental: prefill, then commit the blocks one call at a time (the last commit fused with the query)
    mem = memory([prompt], bs)
    slot = torch.arange(bs)
    h_p, _, _, cache = m(clean_valid=mem.valid, clean_ids=mem.ids)
    m.set_keys(mem, h_p)
    one = torch.ones(1, bs, dtype=torch.bool)
    emb = lambda ptrs: m.answer_embed(mem, torch.tensor([ptrs]), slot, MASK_ID)  # noqa: E731
    for b in blocks[:-1]:
        _, _, _, cache = m(clean_valid=one, clean_x=emb(b), cache=cache)
    _, h, _, cache = m(clean_valid=one, clean_x=emb(blocks[-1]), noisy_valid=one, noisy_x=emb(query),
                       noisy_hist=torch.tensor([1]), cache=cache)
    torch.testing.assert_close(m.pointer_logits(h, mem), ref, rtol=1e-9, atol=1e-9)
    # and a pure query step against the cache gives the same again, through SDPA and through the op
    from airspace.model import layers

    for via_op in (False, True):
        layers.PREFIX_ATTN_VIA_OP = via_op
        try:
            _, h2, _, _ = m(clean_valid=one[:, :0], clean_ids=mem.ids[:, :0], noisy_valid=one, noisy_x=emb(query),
                            noisy_hist=torch.tensor([0]), cache=cache)
        finally:
            layers.PREFIX_ATTN_VIA_OP = None
        torch.testing.assert_close(m.pointer_logits(h2, mem), ref, rtol=1e-9, atol=1e-9)


def test_left_padding_does_not_touch_states():
    """A prompt decoded in a batch beside a longer one (so it is left-padded) gives the same logits as alone."""
    m = tiny_model("clover")
    bs = m.cfg.block_size
    short, long_ = rand_ids(5, 1) + [TOK.sep_id], rand_ids(27, 2) + [TOK.sep_id]
    query = [-1] * bs
    query[3] = 2
    alone = full_clover_logits(m, short, [], query)
    mem = memory([short, long_], bs)
    slot = torch.arange(bs)
    q = torch.tensor([query, query])
    h_c, h, _, _ = m(clean_valid=mem.valid, clean_ids=mem.ids, noisy_valid=torch.ones_like(q, dtype=torch.bool),
                     noisy_x=m.answer_embed(mem, q, slot, MASK_ID), noisy_hist=torch.tensor([mem.ids.shape[1] // bs]))
    m.set_keys(mem, h_c)
    both = m.pointer_logits(h, mem)
    P = alone.shape[-1]
    torch.testing.assert_close(both[:1, :, -P:], alone, rtol=1e-9, atol=1e-9)
    assert torch.isinf(both[0, :, :-P]).all()  # padding columns can never be pointed at


def test_ar_cached_steps_equal_full_forward():
    m = tiny_model("ar")
    ids = torch.tensor([rand_ids(23, 3)])
    valid = torch.ones_like(ids, dtype=torch.bool)
    full, _, _, _ = m(clean_valid=valid, clean_ids=ids)
    h0, _, _, cache = m(clean_valid=valid[:, :10], clean_ids=ids[:, :10])
    outs = [h0]
    for t in range(10, 23):
        h, _, _, cache = m(clean_valid=valid[:, t:t + 1], clean_ids=ids[:, t:t + 1], cache=cache)
        outs.append(h)
    torch.testing.assert_close(torch.cat(outs, 1), full, rtol=1e-9, atol=1e-9)


# ------------------------------------------------------------------------------------------------ block structure
def test_in_block_bidirectional_and_history_untouched():
    m = tiny_model("clover")
    bs = m.cfg.block_size
    prompt = rand_ids(7, 4) + [TOK.sep_id]
    block = rand_ptrs(bs, len(prompt), 5)
    query = [-1] * bs
    base = full_clover_logits(m, prompt, [block], query)
    q2 = list(query)
    q2[-1] = block[0]  # commit the LAST slot of the block
    changed = full_clover_logits(m, prompt, [block], q2)
    P = len(prompt)
    assert (changed[0, 0, -P:] - base[0, 0, -P:]).abs().max() > 1e-6  # the first slot saw a later one
    # committed history does not see the query block, nor a later clean block
    mem = memory([prompt], bs)
    slot = torch.arange(bs)
    emb = lambda ptrs: m.answer_embed(mem, torch.tensor([ptrs]), slot, MASK_ID)  # noqa: E731
    clean_x = torch.cat([m.embed(mem.ids), emb(block)], 1)
    valid = torch.cat([mem.valid, torch.ones(1, bs, dtype=torch.bool)], 1)
    one = torch.ones(1, bs, dtype=torch.bool)
    hist = torch.tensor([valid.shape[1] // bs])
    h_a, _, _, c_a = m(clean_valid=valid, clean_x=clean_x, noisy_valid=one, noisy_x=emb(query), noisy_hist=hist)
    h_b, _, _, c_b = m(clean_valid=valid, clean_x=clean_x, noisy_valid=one, noisy_x=emb(q2), noisy_hist=hist)
    assert torch.equal(h_a, h_b)
    for la, lb in zip(c_a.layers, c_b.layers):
        for fa, fb in zip(vars(la).values(), vars(lb).values()):
            assert torch.equal(fa, fb)
    # inside a CLEAN block it is bidirectional too, across blocks it is causal
    block2 = list(block)
    block2[-1] = (block[-1] + 1) % len(prompt)
    clean_x2 = torch.cat([m.embed(mem.ids), emb(block2)], 1)
    h_c, _, _, _ = m(clean_valid=valid, clean_x=clean_x2)
    assert (h_c[0, -bs] - h_a[0, -bs]).abs().max() > 1e-6
    # h_a came from a call with a noisy block as well (other matmul shapes, so other BLAS blocking): equal to the
    # last few fp64 ulps, while the one changed later slot moved its own block by > 1e-6 above
    torch.testing.assert_close(h_c[0, :-bs], h_a[0, :-bs], rtol=0, atol=1e-13)


def test_zero_init_right_conv_keeps_the_causal_path():
    torch.manual_seed(0)
    cfg = tiny_cfg("clover")  # the layer takes its block size from the segment (ctx_for: 4)
    layer = BlockGatedDeltaNet(cfg).double()
    assert torch.count_nonzero(layer.rconv_w) == 0
    T = 8
    x = torch.randn(1, T, cfg.d_model, dtype=torch.float64)
    ctx = ctx_for(T, arch="clover")
    cache = layer.empty_cache(1, x.device, x.dtype)
    c0, _ = layer.conv_features(x, ctx, cache)
    x2 = x.clone()
    x2[0, 2] += 1.0  # a token in the middle of block 0 (positions 0..3)
    c1, _ = layer.conv_features(x2, ctx, cache)
    assert torch.equal(c0[0, :2], c1[0, :2])  # causal at init: earlier positions unchanged
    with torch.no_grad():
        layer.rconv_w.normal_()
    c2, _ = layer.conv_features(x, ctx, cache)
    c3, _ = layer.conv_features(x2, ctx, cache)
    assert (c2[0, :2] - c3[0, :2]).abs().max() > 1e-6  # the trained branch sees right context...
    x3 = x.clone()
    x3[0, 4] += 1.0  # first token of block 1
    c4, _ = layer.conv_features(x3, ctx, cache)
    assert torch.equal(c2[0, :4], c4[0, :4])  # ...but never across the block edge


# ------------------------------------------------------------------------------------------------ MoE
def test_inference_fast_paths_equal_the_training_paths():
    """Without autograd the layers take faster routes (grouped conv1d, in-place in-block anti-causal conv, states-only
    chunk scan for Clover's history): the logits are those of the differentiable training path."""
    for arch in ("clover", "ar"):
        m = tiny_model(arch, seed=3)
        bs = m.cfg.block_size
        prompt = rand_ids(2 * bs + 7, 5) + [TOK.sep_id]
        blocks = [rand_ptrs(bs, len(prompt), 20 + i) for i in range(2)]
        query = rand_ptrs(bs, len(prompt), 77)
        query[3] = query[5] = -1
        if arch == "clover":
            with torch.enable_grad():
                train = full_clover_logits(m, prompt, blocks, query)
            with torch.no_grad():
                infer = full_clover_logits(m, prompt, blocks, query)
        else:
            mem = memory([prompt], 1)
            outs = []
            for grad in (True, False):
                with torch.set_grad_enabled(grad):
                    h, _, _, _ = m(clean_valid=mem.valid, clean_ids=mem.ids)
                    m.set_keys(mem, h)
                    outs.append(m.pointer_logits(h, mem))
            train, infer = outs
        assert train.requires_grad and not infer.requires_grad
        torch.testing.assert_close(infer, train.detach(), rtol=1e-9, atol=1e-9)


def test_length_buckets_are_the_cheapest_grouping():
    """Exact optimum of padded tokens + a fixed cost per group, against brute force over every contiguous split."""
    import itertools

    from airspace.model.reading import length_buckets

    lengths = [73, 105, 131, 400, 132, 165, 1900, 172, 2000, 20]
    order = sorted(range(len(lengths)), key=lambda i: lengths[i])
    pad = lambda n: -(-n // 20) * 20  # noqa: E731

    def cost(groups, ov):
        return sum(len(g) * max(pad(lengths[i]) for i in g) + ov for g in groups)

    for ov in (0, 64, 400, 10**6):
        best = min(cost([order[a:b] for a, b in zip((0,) + cuts, cuts + (len(order),))], ov)
                   for r in range(len(order)) for cuts in itertools.combinations(range(1, len(order)), r))
        got = length_buckets(lengths, 20, ov)
        assert sorted(i for g in got for i in g) == list(range(len(lengths)))
        assert cost(got, ov) == best
    assert len(length_buckets(lengths, 20, 10**6)) == 1 and len(length_buckets(lengths, 20, 0)) >= 6


def test_a_cuda_batch_is_read_as_one_group_unless_lengths_differ_wildly():
    """On CUDA a reading call costs its launches, not its padding: demo20's prompt lengths are one group there and
    several on a CPU; a page-long TFR beside short notices is still read on its own."""
    from airspace.model.reading import BUCKET_OVERHEAD, bucket_overhead, length_buckets

    cpu, cuda = bucket_overhead(torch.device("cpu")), bucket_overhead(torch.device("cuda"))
    assert cpu == BUCKET_OVERHEAD
    demo20 = [72, 104, 130, 131, 164, 171, 176, 181, 189, 193, 196, 203, 204, 214, 224, 228, 238, 244, 270, 272]
    assert len(length_buckets(demo20, 20, cpu)) > 1
    assert len(length_buckets(demo20, 20, cuda)) == 1
    assert [len(g) for g in length_buckets([150] * 20 + [6000], 20, cuda)] == [20, 1]


@pytest.mark.parametrize("arch", ["clover", "ar"])
def test_prompts_read_in_length_groups_decode_as_one_batch(arch):
    """Prompts of very different lengths read in separate groups and joined (padding added, cached attention keys
    rotated on by the columns they moved) decode to exactly what reading them as one padded batch gives."""
    m = tiny_model(arch, seed=5)
    prompts = [rand_ids(n, 40 + n) + [TOK.sep_id] for n in (3, 50, 8, 47, 21, 95)]
    runs, default = {}, reading.BUCKET_OVERHEAD
    for ov in (10**9, 0):
        reading.BUCKET_OVERHEAD = ov
        try:
            runs[ov] = m.decode(prompts)
        finally:
            reading.BUCKET_OVERHEAD = default
    one, grouped = runs[10**9], runs[0]
    assert one.rows_per_call[0] == len(prompts) and len(grouped.rows_per_call) > len(one.rows_per_call)
    assert grouped.slots == one.slots
    for a, b in zip(grouped.alts, one.alts):
        assert [[c for c, _ in x] for x in a] == [[c for c, _ in x] for x in b]
        assert all(abs(u - v) < 1e-6 for x, y in zip(a, b) for (_, u), (_, v) in zip(x, y))


@pytest.mark.parametrize("arch", ["clover", "ar"])
def test_length_groups_read_side_by_side_decode_as_read_in_turn(arch, monkeypatch):
    """The length groups read on worker threads (one torch thread each) give every row exactly the answer, the
    alternatives and the counts of reading the groups one after another, and the caller's torch thread count is
    what it was."""
    import threading

    m = tiny_model(arch, seed=6)
    prompts = [rand_ids(n, 60 + n) + [TOK.sep_id] for n in (3, 95, 8, 47, 21, 50, 140)]
    monkeypatch.setattr(reading, "BUCKET_OVERHEAD", 0)  # several groups
    readers = set()
    real_forward = type(m).forward

    def forward(self, *a, **k):
        readers.add(threading.current_thread().name)
        return real_forward(self, *a, **k)

    monkeypatch.setattr(type(m), "forward", forward)
    monkeypatch.setenv("AIRSPACE_READ_WORKERS", "1")
    in_turn = m.decode(prompts)
    assert readers == {threading.current_thread().name}
    monkeypatch.setenv("AIRSPACE_READ_WORKERS", "3")
    threads = torch.get_num_threads()
    side = m.decode(prompts)
    assert any(r.startswith("airspace-read") for r in readers)  # the workers did read
    assert torch.get_num_threads() == threads
    assert len(reading.length_buckets([len(p) for p in prompts], m.prompt_multiple)) >= 3
    assert side.slots == in_turn.slots and side.alts == in_turn.alts
    assert (side.forwards, side.calls, side.rows_per_call) == (in_turn.forwards, in_turn.calls, in_turn.rows_per_call)


@pytest.mark.parametrize("arch", ["clover", "ar"])
def test_kept_prompt_reads_decode_as_reading_them_again(arch, monkeypatch):
    """A read cache: prompts read by an earlier call (or read ahead) are joined to the ones a call reads itself,
    and every row gets the answer, alternatives and counts a cold call gives; decoding leaves the kept reads as
    they were (a second call from the cache alone gives the same again); the cache forgets the least recently used
    message first."""
    m = tiny_model(arch, seed=7)
    prompts = [rand_ids(n, 70 + n) + [TOK.sep_id] for n in (3, 95, 8, 47, 21, 50)]
    monkeypatch.setattr(reading, "BUCKET_OVERHEAD", 0)  # several groups, so kept rows come from different groups
    cold = m.decode(prompts)
    cache = reading.ReadCache(2**30)
    assert reading.read_ahead(m, prompts[1::2], cache) == 3 and len(cache) == 3
    assert reading.read_ahead(m, prompts[1::2], cache) == 0  # already kept: nothing read
    part = m.decode(prompts, read_cache=cache)
    assert part.cached == 3 and len(cache) == len(prompts)
    hot = m.decode(prompts, read_cache=cache)
    again = m.decode(prompts, read_cache=cache)
    assert hot.cached == again.cached == len(prompts) and hot.calls < part.calls
    for r in (part, hot, again):
        assert r.slots == cold.slots and r.finished == cold.finished and r.tokens == cold.tokens
        assert [[[c for c, _ in a] for a in row] for row in r.alts] == [[[c for c, _ in a] for a in row] for row in cold.alts]
        assert all(abs(u - v) < 1e-9 for ra, ca in zip(r.alts, cold.alts) for x, y in zip(ra, ca)
                   for (_, u), (_, v) in zip(x, y))
        assert r.forwards == cold.forwards
    # bounded by bytes: the kept reads' tensors are counted, and the least recently used message goes first
    assert cache.bytes == sum(reading.tensor_bytes(cache.get(p)) for p in prompts) > 0
    one = reading.tensor_bytes(cache.get(prompts[0]))
    small = reading.ReadCache(3 * one)
    for p in (prompts[0], prompts[2], prompts[4]):  # the three shortest, together more than three of the first
        reading.read_ahead(m, [p], small)
    assert small.bytes <= 3 * one
    assert small.get(prompts[0]) is None and small.get(prompts[4]) is not None
    small.clear()
    assert len(small) == 0 and small.bytes == 0


def test_read_workers_follow_the_device_the_groups_and_the_override(monkeypatch):
    from airspace.model.reading import MAX_READ_WORKERS, read_workers

    monkeypatch.delenv("AIRSPACE_READ_WORKERS", raising=False)
    cpu, cuda = torch.device("cpu"), torch.device("cuda")
    assert read_workers(cuda, 5) == 1  # one stream reads them all
    assert read_workers(cpu, 1) == 1
    assert read_workers(cpu, 64) == min(os.cpu_count() or 1, MAX_READ_WORKERS)
    monkeypatch.setenv("AIRSPACE_READ_WORKERS", "2")
    assert read_workers(cpu, 5) == 2 and read_workers(cpu, 1) == 1
    monkeypatch.setenv("AIRSPACE_READ_WORKERS", "two")
    with pytest.raises(ValueError, match="AIRSPACE_READ_WORKERS"):
        read_workers(cpu, 5)


def test_moe_routing_weights_and_aux_loss():
    torch.manual_seed(0)
    cfg = tiny_cfg("clover")
    moe = MoEFFN(cfg).double()
    x = torch.randn(50, cfg.d_model, dtype=torch.float64)
    logits = moe.router(x)
    y, w, idx = ops.moe_ffn(x, logits, moe.w_gate, moe.w_up, moe.w_down, cfg.top_k)
    torch.testing.assert_close(w.sum(-1), torch.ones(50, dtype=w.dtype))
    # the layer output = routed experts + sigmoid-gated shared expert, token 0 by hand
    y_full, aux, _, idx2 = moe(x)
    p = logits[0].softmax(-1)
    top = p.topk(cfg.top_k)
    manual = torch.zeros(cfg.d_model, dtype=torch.float64)
    for wt, e in zip(top.values / top.values.sum(), top.indices):
        h = torch.nn.functional.silu(x[0] @ moe.w_gate[e]) * (x[0] @ moe.w_up[e])
        manual += wt * (h @ moe.w_down[e])
    gs, us = moe.shared(x[:1]).chunk(2, -1)
    manual += (torch.sigmoid(moe.shared_gate(x[:1])) * moe.shared_down(torch.nn.functional.silu(gs) * us))[0]
    torch.testing.assert_close(y_full[0], manual)
    # aux: 1.0 for a uniform router, ~E/top_k... up to E when collapsed onto one expert; it has a gradient
    with torch.no_grad():
        moe.router.weight.zero_()
    _, aux_uniform, _, _ = moe(x)
    assert abs(float(aux_uniform.detach()) - 1.0) < 1e-9
    with torch.no_grad():
        moe.router.weight.zero_()
        moe.router.weight[0] = 50.0 * x.mean(0) / x.mean(0).norm() ** 2
    x_c = x.mean(0, keepdim=True).expand(50, -1).contiguous()
    _, aux_col, _, _ = moe(x_c)
    assert float(aux_col.detach()) > 1.4
    moe.router.weight.requires_grad_(True)
    _, aux_g, _, _ = moe(x)
    aux_g.backward()
    assert moe.router.weight.grad.abs().sum() > 0


# ------------------------------------------------------------------------------------------------ decoding
@torch.no_grad()
def reference_one_per_step(model, prompt, n_blocks):
    """Recompute everything each step; commit the single most confident masked slot (lowest on ties)."""
    bs = model.cfg.block_size
    null = len(prompt) - 1
    names = slot_names(model.cfg.fields)
    asked = [i for i, name in enumerate(names) if name.split(".")[0] in ("lower", "upper", "start", "end")]
    ss, es = names.index("start.start"), names.index("end.start")
    blocks, steps = [], []
    for _ in range(n_blocks):
        x = [-1] * bs
        n = rounds = 0
        last = None  # NULLs among the asked slots when the block was last asked again
        while -1 in x:
            logits = full_clover_logits(model, prompt, blocks, x)[0].float()
            P = logits.shape[-1]
            conf = logits.softmax(-1).amax(-1)
            col = logits.argmax(-1)
            best = max((i for i in range(bs) if x[i] < 0), key=lambda i: (float(conf[i]), -i))
            x[best] = int(col[best]) - (P - len(prompt))
            if x[0] == null:
                x = [null] * bs
            n += 1
            nulls = sum(x[i] == null for i in asked)
            if -1 not in x and rounds < ReaskBareZone.ROUNDS and (
                    (last is None and x[0] != null and nulls == len(asked)) or (last is not None and 0 < nulls < last)):
                x = [-1 if (v == null and 0 < i < bs - 1) else v for i, v in enumerate(x)]  # a bare zone: again
                rounds, last = rounds + 1, nulls
            elif -1 not in x and last is None and x[0] != null and x[ss] != null and x[es] == null:
                x[es] = x[es + 1] = -1  # a zone that starts and never ends: its end again, once
                rounds, last = rounds + 1, 0
        steps.append(n)
        blocks.append(list(x))
        if x[0] == null or x[-1] == null:
            break
    return [s for b in blocks for s in b], steps


def test_one_token_per_step_decoding_matches_reference():
    m = tiny_model("clover", seed=3)
    prompts = [rand_ids(6, 7) + [TOK.sep_id], rand_ids(11, 8) + [TOK.sep_id]]
    res = m.decode(prompts, tau=2.0, max_answer_tokens=3 * N_SLOTS)  # tau > 1: one commit per step
    for i, p in enumerate(prompts):
        slots, steps = reference_one_per_step(m, p, 3)
        assert res.slots[i] == slots
        assert res.steps_per_block[i] == steps
    assert res.forwards == sum(sum(s) for s in res.steps_per_block)


def test_batched_clover_decoding_equals_single_and_is_deterministic():
    m = tiny_model("clover", seed=5)
    prompts = [rand_ids(n, 20 + n) + [TOK.sep_id] for n in (3, 23, 8)]
    batch = m.decode(prompts, tau=0.05, trace=True)
    again = m.decode(prompts, tau=0.05)
    assert batch.slots == again.slots
    for i, p in enumerate(prompts):
        one = m.decode([p], tau=0.05)
        assert one.slots[0] == batch.slots[i]
        assert one.steps_per_block[0] == batch.steps_per_block[i]
        assert all(0 <= s < len(p) for s in batch.slots[i])  # pointers stay inside the row's own prompt
    assert len(batch.trace) == batch.calls and len(batch.trace[0]) == 3


def test_ar_decoding_matches_greedy_recompute():
    m = tiny_model("ar", seed=2)
    bs = m.cfg.block_size
    prompts = [rand_ids(5, 30) + [TOK.sep_id], rand_ids(9, 31) + [TOK.sep_id]]
    res = m.decode(prompts, max_answer_tokens=2 * bs)
    for i, p in enumerate(prompts):
        mem = memory([p], 1)
        ans: list[int] = []
        null = len(p) - 1
        while len(ans) < 2 * bs:
            x = m.inputs(mem, mem.ids, torch.tensor([ans], dtype=torch.long), 0)[:, :len(p) + len(ans)]
            v = torch.ones(1, x.shape[1], dtype=torch.bool)
            h, _, _, _ = m(clean_valid=v, clean_x=x)
            m.set_keys(mem, h[:, :len(p)])
            t = int(m.pointer_logits(h[:, -1:], mem)[0, 0].argmax())
            if len(ans) % bs == 0 and t == null:
                ans += [null] * bs
                break
            ans.append(t)
            if len(ans) % bs == 0 and t == null:
                break
        assert res.slots[i] == ans
    # a traced run writes the same answers and shows every step: each row's slots so far, the block being
    # written padded with None (masked); the last step shows the answers as written
    traced = m.decode(prompts, max_answer_tokens=2 * bs, trace=True)
    assert traced.slots == res.slots and traced.trace[-1] == res.slots
    assert len(traced.trace) == max(res.tokens)  # one slot per step
    assert all(len(row) % bs == 0 for step in traced.trace for row in step)
    first = [bs if s[0] == len(p) - 1 else 1 for s, p in zip(res.slots, prompts)]  # a NULL anchor fills its block
    assert [sum(v is not None for v in row) for row in traced.trace[0]] == first


def test_training_differentiates_through_block_attention():
    """Training calls ops.block_attention with grad on (the reference path): its gradients are the true ones."""
    g = torch.Generator().manual_seed(0)
    N, H, L, D = 3, 2, 4, 5
    q, k, v, ev = (torch.randn(N, H, L, D, generator=g, dtype=torch.float64, requires_grad=True) for _ in range(4))
    el = torch.randn(N, H, L, generator=g, dtype=torch.float64, requires_grad=True)
    km = torch.rand(N, L, generator=g) > 0.3
    km[0] = False  # a block of padding only: the history slot alone

    def f(q, k, v, el, ev):
        return ops.block_attention(q, k, v, extra_logit=el, extra_value=ev, key_mask=km, scale=0.7)

    assert torch.autograd.gradcheck(f, (q, k, v, el, ev))
    # padding keys get no gradient
    f(q, k, v, el, ev).sum().backward()
    assert torch.all(k.grad[0] == 0) and torch.all(v.grad[0] == 0)



# ------------------------------------------------------------------------------------------------ fields
def test_the_config_fields_set_the_block_and_default_to_the_shipped_nine():
    """A config without ``fields`` (every shipped checkpoint's) answers in the nine fields of today's contract, 20
    slots a zone; a later config may name more, and the models insist on one zone per block."""
    from airspace.core.contract import FIELDS
    from airspace.model.config import DEFAULT_FIELDS

    cfg = ModelConfig()
    assert cfg.fields == DEFAULT_FIELDS == FIELDS[: len(DEFAULT_FIELDS)] and cfg.n_slots == N_SLOTS == cfg.block_size == 20
    d = cfg.to_dict()
    del d["fields"]
    assert ModelConfig.from_dict(d) == cfg
    more = tiny_cfg("clover", fields=list(DEFAULT_FIELDS) + ["date", "tz"], block_size=24)
    assert more.fields == DEFAULT_FIELDS + ("date", "tz") and more.n_slots == 24
    assert ModelConfig.from_dict(more.to_dict()) == more
    for bad in ((), ("center", "center"), ("center.start",), ("",)):
        with pytest.raises(ValueError, match="fields"):
            tiny_cfg("clover", fields=bad)
    with pytest.raises(ValueError, match="block_size"):
        build_model(tiny_cfg("ar", block_size=N_SLOTS + 2))
    with pytest.raises(ValueError, match="needs arch"):
        type(build_model(tiny_cfg("ar")))(tiny_cfg("clover"))


def test_block_size_is_derived_from_the_fields_and_old_config_files_still_load(tmp_path):
    """``block_size`` is the slot layout's (2 + 2 * fields), not a setting of its own; a config.json (the shipped
    ones hold ``block_size: 24`` beside eleven fields) loads, and one whose ``block_size`` is not its fields' is
    refused with the reason, as is a constructor or ``replace`` given a block size the fields do not make."""
    import dataclasses
    import json
    import shutil
    from pathlib import Path

    from airspace.model.checkpoint import load_checkpoint

    shipped = Path(__file__).resolve().parents[1] / "data" / "checkpoints" / "clover"
    stored = json.loads((shipped / "config.json").read_text())
    cfg = ModelConfig.load(shipped / "config.json")
    assert stored["block_size"] == cfg.block_size == cfg.n_slots == 2 + 2 * len(stored["fields"])
    assert cfg.to_dict()["block_size"] == cfg.n_slots  # written out beside the fields, as a check
    assert ModelConfig.from_dict(cfg.to_dict()) == cfg
    grown = dataclasses.replace(cfg, fields=cfg.fields + ("extra",), block_size=cfg.block_size + 2)
    assert grown.block_size == cfg.block_size + 2 and dataclasses.replace(cfg, d_model=64).block_size == cfg.block_size
    with pytest.raises(ValueError, match="block_size is derived from the fields.*= 24 slots, but the config says 20"):
        ModelConfig.from_dict({**stored, "block_size": 20})
    with pytest.raises(ValueError, match="block_size is derived"):
        dataclasses.replace(cfg, fields=cfg.fields + ("extra",))  # the old size travels with replace: say the new
    bad = tmp_path / "clover"
    shutil.copytree(shipped, bad)
    (bad / "config.json").write_text(json.dumps({**stored, "block_size": 20}))
    with pytest.raises(ValueError, match="config.json: block_size is derived from the fields"):
        load_checkpoint(bad)


def _psn_list():
    """A three-zone list with shared times -> (fields, text, offsets, span of a value, times, zone 1, zone 2)."""
    fields = ("center", "radius", "start", "end")
    text = "1. PSN 2231N11403E R 2NM 2. PSN 2301N11402E R 2NM 3. PSN 2310N11400E TIME 0800-1200"
    _, offs = encode_message(TOK, text)
    sp = lambda v, start=0: (text.index(v, start), text.index(v, start) + len(v))  # noqa: E731
    times = {"start": sp("0800"), "end": sp("1200")}
    z1 = {"center": sp("2231N11403E"), "radius": sp("2NM"), **times}
    z2 = {"center": sp("2301N11402E"), "radius": sp("2NM", text.index("2301")), **times}
    return fields, text, offs, sp, times, z1, z2


def test_a_block_that_only_repeats_earlier_zones_is_no_zone():
    """The last zone of a list written twice, or the list's shared times written once more after it, add no zone;
    a later zone with a place of its own stays even when every other value is shared."""
    fields, text, offs, sp, times, z1, z2 = _psn_list()
    z3 = {"center": sp("2310N11400E"), "radius": z1["radius"], **times}  # shared radius and times, its own place
    want = [{"center": "2231N11403E", "radius": "2NM", "start": "0800", "end": "1200"},
            {"center": "2301N11402E", "radius": "2NM", "start": "0800", "end": "1200"},
            {"center": "2310N11400E", "radius": "2NM", "start": "0800", "end": "1200"}]
    for extra in ([z2], [times], [{"radius": z1["radius"]}]):
        drafts = slots_to_drafts(spans_to_slots([z1, z2, z3] + extra, offs, fields), offs, fields)
        assert [d.values for d in drafts] == want
    # a block of nothing but a value no earlier zone used is kept (the pipeline flags it: no place)
    own = {"start": sp("0800-1200")}
    drafts = slots_to_drafts(spans_to_slots([z1, own], offs, fields), offs, fields)
    assert [d.values for d in drafts] == [want[0], {"start": "0800-1200"}]


def test_a_close_call_null_next_goes_on_only_to_a_zone_placed_anew():
    """``decoding.going_on``: a NULL ``next`` whose likeliest other column reaches the floor takes it (only where
    the block placed a zone anew), and a block gone on to that places nothing new is taken back (its ``next``
    NULL); ``pointers.places_anew``: a block places a new zone when a place span overlaps none before it and its
    anchor stands in none;
    ``pointers.take_back``: a block gone on to that, as repaired, places nothing new that reads as a place ends the
    answer there."""
    from airspace.model.decoding import going_on
    from airspace.model.pointers import places_anew, take_back

    null = torch.tensor([9, 9, 9, 9, 9])
    nxt = torch.tensor([9, 9, 9, 4, 5])  # the last row: a block gone on to that placed nothing new
    cols = torch.tensor([[9, 3, 5, 6], [9, 3, 5, 6], [9, 3, 5, 6], [4, 9, 5, 6], [9, 3, 5, 6]])
    lps = torch.tensor([[-0.5, -1.5, -3.0, -4.0], [-0.1, -2.5, -3.0, -4.0], [-0.5, -1.5, -3.0, -4.0],
                        [-0.1, -2.5, -3.0, -4.0], [-0.5, -1.5, -3.0, -4.0]])
    new = torch.tensor([True, True, False, True, False])
    went_on = torch.tensor([False, False, False, False, True])
    got, go, back = going_on(nxt, null, cols, lps, -2.0, new, went_on)
    assert got.tolist() == [3, 9, 9, 4, 9]
    assert go.tolist() == [True, False, False, False, False] and back.tolist() == [False] * 4 + [True]

    fields, text, offs, sp, times, z1, z2 = _psn_list()
    again = {"center": sp("2231N11403E R"), **times}  # overlaps zone 1's centre: no new place
    one, two, three = (spans_to_slots(zs, offs, fields) for zs in ([z1], [z1, z2], [z1, again]))
    n = 2 + 2 * len(fields)
    assert places_anew(two[n:], two[:n], offs.null, fields)
    assert not places_anew(three[n:], three[:n], offs.null, fields)
    assert places_anew(three[n:], [], offs.null, fields)  # alone, any place is new
    anchored = [two[1]] + two[n + 1:]  # its own place, anchored inside zone 1's centre: zone 1 read again
    assert not places_anew(anchored, two[:n], offs.null, fields)
    assert take_back(two, [1], offs, fields) == two
    assert take_back(three, [1], offs, fields)[n:] == [offs.null] * n
    assert [d.values["center"] for d in slots_to_drafts(take_back(three, [1], offs, fields), offs, fields)] == [
        "2231N11403E"]
    assert take_back(three, [], offs, fields) == three and take_back(one, [1], offs, fields) == one
    junk = spans_to_slots([z1, {"center": sp("TIME"), **times}], offs, fields)  # a new span, but no coordinate
    assert places_anew(junk[n:], junk[:n], offs.null, fields)
    assert take_back(junk, [1], offs, fields)[n:] == [offs.null] * n
    said = "PSN 2231N11403E R 2NM PART 2 PSN 2231N11403E R 2NM"  # a feed that repeats a part: the same centre again
    _, offs2 = encode_message(TOK, said)
    at = lambda v, start=0: (said.index(v, start), said.index(v, start) + len(v))  # noqa: E731
    again2 = spans_to_slots([{"center": at("2231N11403E")}, {"center": at("2231N11403E", 5)}], offs2, fields)
    assert places_anew(again2[n:], again2[:n], offs2.null, fields)
    assert take_back(again2, [1], offs2, fields)[n:] == [offs2.null] * n


def test_a_block_gone_on_to_may_not_point_its_place_into_a_place_already_read():
    """``decoding.fresh_place_bans``: the centre and boundary slots of a block gone on to are kept off the place spans
    the blocks before it wrote (a start inside [a, e), an end inside (a, e]); the other slots (a name's too), and
    columns outside, are free."""
    from airspace.model.decoding import fresh_place_bans, fresh_place_slots

    _, text, offs, sp, times, z1, z2 = _psn_list()
    fields = ("center", "name", "radius", "start", "end")
    two = spans_to_slots([z1, z2], offs, fields)
    n = 2 + 2 * len(fields)
    names = slot_names(fields)
    o, cols = 3, offs.null + 1 + 3  # the row's left padding: prompt index j is column j + 3
    starts, ends = fresh_place_bans(two, offs.null, o, cols, fields, torch.device("cpu"))
    assert starts.shape == ends.shape == (cols,)
    ban = torch.zeros(n, cols, dtype=torch.bool)  # per slot of the block, as the decoders apply them
    start_slots, end_slots = fresh_place_slots(fields)
    ban[start_slots], ban[end_slots] = starts, ends
    spans = [(two[b + names.index("center.start")], two[b + names.index("center.end")]) for b in (0, n)]
    for k, name in enumerate(names):
        got = set((ban[k].nonzero()[:, 0] - o).tolist())
        if name.split(".")[0] in ("center", "polygon"):  # a name is any words: left free
            lo = 0 if name.endswith(".start") else 1
            assert got == {j for a, e in spans for j in range(a + lo, e + lo)}, name
        else:
            assert not got, name
    assert not any(b.any() for b in fresh_place_bans([], offs.null, o, cols, fields, torch.device("cpu")))  # none yet


def test_pointer_slots_follow_the_field_list():
    """Slots, drafts, repair and the trace rendering all read a block through the checkpoint's own field list."""
    fields = ("center", "date", "radius")
    assert slot_names(fields) == ("anchor", "center.start", "center.end", "date.start", "date.end", "radius.start",
                                  "radius.end", "next")
    text = "PSN 2231N11403E ON 12 MAY R 2NM / PSN 2301N11402E R 5NM"
    _, offs = encode_message(TOK, text)
    sp = lambda v, start=0: (text.index(v, start), text.index(v, start) + len(v))  # noqa: E731
    zones = [{"center": sp("2231N11403E"), "date": sp("12 MAY"), "radius": sp("2NM")},
             {"center": sp("2301N11402E"), "radius": sp("5NM")}]
    slots = spans_to_slots(zones, offs, fields)
    assert len(slots) == 2 * 8 and slots[7] == slots[8] and slots[-1] == offs.null  # next = the following anchor
    drafts = slots_to_drafts(slots, offs, fields)
    assert [d.values for d in drafts] == [{"center": "2231N11403E", "date": "12 MAY", "radius": "2NM"},
                                          {"center": "2301N11402E", "radius": "5NM"}]
    assert drafts[1].spans["radius"].start == text.index("5NM")
    alts = [[(s, 0.0)] for s in slots]
    assert repair_slots(slots, alts, offs, fields) == (slots, 0)  # no lower/upper pair to tell apart
    assert render_block(slots[:8], offs, fields) == "center=2231N11403E date=12 MAY radius=2NM"


def test_one_blank_per_run_makes_two_layouts_one_prompt_and_keeps_each_ones_spans(tmp_path):
    """Under ``blank_runs="one"`` a notice stored on one line with double blanks and the same notice one item per
    line are the same prompt, and the same pointers come back as each text's own characters (the polygon's line
    break in one, its double blank in the other)."""
    one = Tokenizer(blank_runs="one")
    wide = "Q) ZBPE/QRTCA  A) ZBPE  E) AREA 3955N11620E -  4000N11630E -\t3950N11635E  F) SFC  G) 3000M AMSL"
    tall = "Q) ZBPE/QRTCA\nA) ZBPE\nE) AREA 3955N11620E -\n4000N11630E - 3950N11635E\nF) SFC\nG) 3000M AMSL\n"
    fields = ("polygon", "lower", "upper")

    def zones(text):
        sp = lambda a, b: (text.index(a), text.index(b) + len(b))  # noqa: E731
        return [{"polygon": sp("3955N", "11635E"), "lower": sp("SFC", "SFC"), "upper": sp("3000M", "AMSL")}]

    (p_wide, o_wide), (p_tall, o_tall) = encode_message(one, wide), encode_message(one, tall)
    assert p_wide == p_tall and len(p_wide) < len(encode_message(TOK, wide)[0])
    slots = spans_to_slots(zones(wide), o_wide, fields)
    assert spans_to_slots(zones(tall), o_tall, fields) == slots
    (d_wide,), (d_tall,) = slots_to_drafts(slots, o_wide, fields), slots_to_drafts(slots, o_tall, fields)
    assert d_wide.values["polygon"] == "3955N11620E -  4000N11630E -\t3950N11635E"
    assert d_tall.values["polygon"] == "3955N11620E -\n4000N11630E - 3950N11635E"
    for d, text in ((d_wide, wide), (d_tall, tall)):
        assert all(text[s.start:s.end] == d.values[k] for k, s in d.spans.items())
    # the default keeps every character, and the choice travels with the tokenizer file
    assert encode_message(TOK, wide)[0] != encode_message(TOK, tall)[0]
    one.save(tmp_path / "one.json")
    TOK.save(tmp_path / "keep.json")
    assert Tokenizer.load(tmp_path / "one.json").blank_runs == "one"
    assert Tokenizer.load(tmp_path / "keep.json").blank_runs == "keep"
    assert "blank_runs" not in (tmp_path / "keep.json").read_text()  # files from before the option read as they did
    with pytest.raises(ValueError, match="blank_runs"):
        Tokenizer(blank_runs="two")


def _written_block(rows: int, null: int = 99):
    """A finished block of ``rows`` rows in the default fields' layout, every slot NULL and none masked -> (block,
    slot column by name, a fresh ``ReaskBareZone`` and ``ReaskOpenEnd`` over a batch of rows whose NULL is ``null``)."""
    model = tiny_model("clover")
    names = slot_names(model.cfg.fields)
    block = Block(rows, len(names), torch.device("cpu"))
    block.x, block.masked = torch.full((rows, len(names)), null), torch.zeros(rows, len(names), dtype=torch.bool)
    # a batch of prompts whose NULL (SEP) column is ``null``: whole blocks long, so no left padding
    run = _Decoding(model, [rand_ids(null, 40 + r) + [TOK.sep_id] for r in range(rows)], None, False)
    assert run.null.tolist() == [null] * rows
    bare, end = ReaskBareZone(run, None), ReaskOpenEnd(run, None)
    bare.begin(block)
    end.begin(block)
    return block, {n: i for i, n in enumerate(names)}, bare, end


def test_a_zone_placed_without_limits_or_times_is_asked_again_with_its_place_known():
    block, col, bare, end = _written_block(3)
    bs, null = block.x.shape[1], 99
    x = block.x
    x[0, [col["anchor"], col["center.start"]]] = 10  # a place and nothing else: the "no zone" NULLs beside it
    x[0, [col["center.end"], col["radius.start"], col["radius.end"]]] = torch.tensor([21, 30, 33])
    x[1] = x[0]
    x[1, [col["upper.start"], col["upper.end"]]] = torch.tensor([40, 45])  # states a limit: written as it is
    x = x.clone()
    assert not end.remask(block)  # no start: no end to ask for
    assert bare.remask(block)
    again = block.masked[0]
    assert again.tolist() == [bool(v == null) and 0 < i < bs - 1 for i, v in enumerate(x[0].tolist())]
    assert not block.masked[1:].any() and torch.equal(block.x[1:], x[1:])  # a NULL anchor's row too
    assert block.x[0, col["anchor"]] == 10 and block.x[0, col["next"]] == null
    block.x[0] = torch.where(again, null, block.x[0])
    block.x[0, [col["lower.start"], col["lower.end"]]] = torch.tensor([50, 53])  # the place known, it reads more
    block.masked[:] = False
    assert bare.remask(block) and block.masked[0, col["start.start"]]  # ... so it is asked once more
    block.x[0] = torch.where(block.masked[0], null, block.x[0])
    block.masked[:] = False
    assert not bare.remask(block) and not end.remask(block)  # nothing more: the block is written


def test_a_zone_that_starts_and_never_ends_has_only_its_end_asked_again_once():
    block, col, bare, end = _written_block(2)
    x = block.x
    x[:, col["anchor"]] = 10
    x[:, [col["lower.start"], col["lower.end"], col["start.start"], col["start.end"]]] = torch.tensor([10, 13, 20, 25])
    x[1, [col["end.start"], col["end.end"]]] = torch.tensor([30, 35])  # ends: written as it is
    x = x.clone()
    assert not bare.remask(block)  # it states a limit and a start: not bare
    assert end.remask(block)
    assert block.masked[0].nonzero()[:, 0].tolist() == [col["end.start"], col["end.end"]]  # not its other NULLs
    assert not block.masked[1].any() and torch.equal(block.x[1], x[1])
    block.x[0, [col["end.start"], col["end.end"]]] = 99  # asked, it still reads no end: the block is written
    block.masked[:] = False
    assert not end.remask(block) and not bare.remask(block)
