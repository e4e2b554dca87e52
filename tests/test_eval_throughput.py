"""eval.throughput: each engine's run reads the same archive rows and reports what it read; the world-year
arithmetic follows from the measured rate."""

from __future__ import annotations

import json

from airspace.eval import throughput


def test_a_run_reads_the_first_n_archive_messages_and_says_how_many_records_came_back():
    out = throughput.one("rules", 30, 1, None)
    assert out["messages"] == 30 and out["records"] >= 30 and out["msg_per_s"] > 0 and out["peak_rss_mb"] > 0


def test_the_report_extrapolates_a_year_of_world_traffic_from_the_measured_rate(tmp_path, capsys):
    out = tmp_path / "t.json"
    throughput.main(["--engines", "rules", "--n", "20", "--no-busy", "--out", str(out)])
    report = json.loads(out.read_text())
    (run,) = report["runs"]
    assert run["engine"] == "rules" and run["messages"] == 20 and not run["busy_neighbour"]
    assert "world_year" not in report  # only from Clover's rate, the product's engine


def test_the_read_flops_count_whole_blocks_the_routed_top_k_only_and_block_causal_keys():
    from airspace.model.config import ModelConfig

    cfg = ModelConfig(layer_pattern="GA", block_size=20)  # d 128, 4 experts, top 2, expert/shared width 192
    one = throughput.read_flops(cfg, 1)
    assert throughput.read_flops(cfg, 20) == one  # a prompt is read in whole blocks
    two = throughput.read_flops(cfg, 21)
    assert two["linear_and_experts"] == 2 * one["linear_and_experts"]  # linear in the tokens
    assert two["attention"] == 3 * one["attention"]  # block 1 sees both blocks: (1 + 2) / 1
    # one token's matmuls by hand: GDN in/z/ab/out projections, attention qkvg/out, two MoE layers (router, 2 of 4
    # routed SwiGLU experts, the shared one and its gate), pointer keys (hidden and 32 position features)
    per_token = (128 * (384 + 128 + 8) + 128 * 128) + (128 * 512 + 128 * 128) \
        + 2 * (128 * 4 + 2 * 3 * 128 * 192 + 3 * 128 * 192 + 128) + 128 * 128 + 32 * 128
    assert one["linear_and_experts"] == 2 * 20 * per_token
    wider = throughput.read_flops(ModelConfig(layer_pattern="GA", block_size=20, n_experts=8), 1)
    assert wider["linear_and_experts"] - one["linear_and_experts"] == 2 * 20 * 2 * 128 * 4  # only the router grows


def test_the_device_check_bench_steps_fit_one_device_call_after_setup():
    """scripts/device-check.sh bench runs in one run(timeout_s=540): its steps after setup are limited to 480 s."""
    import re
    from pathlib import Path

    script = (Path(throughput.__file__).resolve().parents[1] / "scripts" / "device-check.sh").read_text()
    bench = script[script.index('if [ "$MODE" = bench ]'):script.index("exit 0")]
    limits = [int(x) for x in re.findall(r"\$\{[A-Z_]+_LIMIT:-(\d+)\}", bench)]
    assert len(limits) == 4 and sum(limits) <= 480, limits
    for wanted in ("gpu_check", "--sets demo20", "airspace.eval.throughput --engines clover,ar", "--no-busy"):
        assert wanted in bench


def test_int8_records_compares_the_two_load_modes_record_for_record():
    out = throughput.int8_records("composite5", "clover")
    row = out["clover"]["composite5"]
    assert row["messages"] == 1 and row["records_fp32"] == row["records_int8"] == 5  # its five zones, both modes
    assert row["messages_differing"] == 0 and out["identical_everywhere"] and not row["validation"]
    assert row["cpu_s"]["fp32"] > 0 and row["cpu_s"]["int8"] > 0
