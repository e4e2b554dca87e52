"""``make bench`` on the demo20 set (one pass per engine): the JSON it writes has every engine's numbers, the
speed-ups, and the prompts-kept mode's records are the cold ones."""

from __future__ import annotations

import json

import pytest

from airspace.eval import bench
from airspace.model.engine import DEFAULT_CHECKPOINTS


def test_bench_on_demo20_writes_every_engine_and_the_speedups(tmp_path, capsys):
    if not all((p / "model.safetensors").is_file() for p in DEFAULT_CHECKPOINTS.values()):
        pytest.skip("no shipped checkpoints")
    out = tmp_path / "bench.json"
    assert bench.main(["--sets", "demo20", "--repeats", "1", "--out", str(out)]) == 0
    d = json.loads(out.read_text())
    assert d == json.loads(capsys.readouterr().out)  # printed and written alike
    sets = d["sets"]["demo20"]
    for engine in ("clover", "ar", "rules"):
        e = sets[engine]
        assert e["records_total"] == 21 and 0 <= e["records_right"] <= 21, e
        assert e["wall_s"] > 0 and e["wall_s_range"][0] <= e["wall_s"] <= e["wall_s_range"][1]
    clover, ar = sets["clover"], sets["ar"]
    # the same answer length, whoever wrote it: 20 blocks of the checkpoints' slots and one more slot
    bs = {json.loads((p / "config.json").read_text())["block_size"] for p in DEFAULT_CHECKPOINTS.values()}
    assert len(bs) == 1 and clover["answer_tokens"] == ar["answer_tokens"] == 20 * bs.pop() + 1
    assert ar["tokens_per_forward"] == 1.0 and clover["tokens_per_forward"] > 6
    # every denoising step of a block is one row-forward (a block's first step shares its call with the commit of
    # the block before, or with the prompt read), so the steps the histogram counts are the forwards
    assert clover["prefill_s"] > 0
    assert sum(int(k) * v for k, v in clover["steps_per_block"]["histogram"].items()) == clover["forwards"]
    for e in (clover, ar):  # every prompt read kept: the answers are still those of the cold passes
        assert e["prompts_kept"]["records_as_cold"] is True
        # (how much faster that is, is the benchmark's number, not this test's: only the count is asserted)
        assert e["prompts_kept"]["prompts_cached"] == 20
    for key in ("speedup_clover_vs_ar", "speedup_clover_vs_ar_after_prefill", "speedup_clover_vs_ar_prompts_kept",
                "speedup_ceiling_at_this_prompt_read"):
        assert d[key]["demo20"] > 0, key
    assert d["speedup_clover_vs_ar"]["demo20"] == round(ar["wall_s"] / clover["wall_s"], 3)


def test_device_script_says_what_to_run_first_when_no_kit_was_made(tmp_path):
    """scripts/device-check.sh (the one prepared run on a lent GPU) needs what `make device-kit` puts in .device/;
    without it the script stops at once with that instruction, before installing anything."""
    import os
    import subprocess

    script = bench.REPO / "scripts" / "device-check.sh"
    env = {**os.environ, "KIT": str(tmp_path / "none"), "OUT": str(tmp_path / "out")}
    r = subprocess.run(["bash", str(script)], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2 and "make device-kit" in r.stderr, (r.returncode, r.stderr)
    assert not (tmp_path / "out" / "steps.txt").exists()
    r = subprocess.run(["bash", str(script), "benchmark"], capture_output=True, text=True, env=env, timeout=60)
    assert r.returncode == 2 and "usage" in r.stderr and "[bench|train]" in r.stderr


def test_the_dev_set_can_be_pointed_at_another_file_with_AIRSPACE_DEV_SET(tmp_path, monkeypatch, dev_rows):
    """The bench reads the vendored dev set unless ``AIRSPACE_DEV_SET`` names another file of the same form."""
    path = tmp_path / "dev.jsonl"
    path.write_text("\n".join(json.dumps(r) for r in dev_rows[:3]) + "\n", encoding="utf-8")
    monkeypatch.setenv("AIRSPACE_DEV_SET", str(path))
    messages, golds, _ = bench.load_set("dev", 0, 0)
    assert [m.text for m in messages] == [r["text"] for r in dev_rows[:3]]
    assert len(golds) == 3
    monkeypatch.setenv("AIRSPACE_DEV_SET", str(tmp_path / "missing.jsonl"))
    with pytest.raises(FileNotFoundError, match="AIRSPACE_DEV_SET"):
        bench.load_set("dev", 0, 0)


def test_the_archive_sets_are_its_test_and_val_splits_and_never_share_a_row():
    from airspace.data.realsplit import read_rows, split_of

    test_msgs, _, _ = bench.load_set("archive", 0, 0)
    val_msgs, _, _ = bench.load_set("archive_val", 0, 0)
    assert len(test_msgs) > 400 and len(val_msgs) > 400
    rows = {r["text"]: r["id"] for r in read_rows(bench.archive_path())}
    assert {split_of(rows[m.text]) for m in test_msgs} == {"test"}
    assert {split_of(rows[m.text]) for m in val_msgs} == {"val"}


def test_bench_on_dev_reports_each_model_engines_agreement_with_the_rules_reader(tmp_path):
    if not (DEFAULT_CHECKPOINTS["clover"] / "model.safetensors").is_file():
        pytest.skip("no shipped checkpoints")
    out = tmp_path / "bench.json"
    assert bench.main(["--sets", "dev", "--engines", "clover,rules", "--repeats", "1", "--out", str(out)]) == 0
    dev = json.loads(out.read_text())["sets"]["dev"]
    agree = dev["clover"]["agreement_with_rules"]
    assert agree["messages"] == 25 and 15 <= agree["agree"] <= 25
    assert sum(agree["disagreements_by_kind"].values()) >= 25 - agree["agree"]
    assert "agreement_with_rules" not in dev["rules"]


def test_generated_val_is_the_corpus_val_split_and_the_go_on_floor_reaches_the_model_engines(tmp_path):
    """``generated_val`` is the generator's val split (gold by construction); ``--go-on`` sets the model engines'
    floor for a run (``none``: greedy) and the JSON says which; by default each engine decodes at its own."""
    from airspace.data.corpus import generate
    from airspace.model.decoding import GO_ON

    msgs, golds, templates = bench.load_set("generated_val", 6, 7)
    rows = list(generate(6, 7, split="val"))
    assert [m.text for m in msgs] == [r["text"] for r in rows] and golds == [r["zones"] for r in rows]
    assert templates == [r["template"] for r in rows]
    assert all(r["split"] == "val" for r in rows)
    for floor, want in (("none", None), ("-3", -3.0), ("engine", GO_ON["clover"])):
        keep: dict = {}
        bench.run_engine("clover", msgs, golds, 6, keep=keep, prompts_kept=False, go_on=bench.go_on_floor(floor))
        assert keep["extractor"].go_on == want
    out = tmp_path / "b.json"
    assert bench.main(["--sets", "generated_val", "--heldout-n", "6", "--seed", "7", "--engines", "clover",
                       "--go-on", "none", "--repeats", "1", "--out", str(out)]) == 0
    res = json.loads(out.read_text())
    assert res["go_on"] == "none"
    with pytest.raises(SystemExit):  # a floor that is no number is a usage error, before any engine runs
        bench.main(["--sets", "generated_val", "--go-on", "low", "--out", str(out)])
    got = res["sets"]["generated_val"]["clover"]
    assert got["records_total"] == sum(len(g) for g in golds) and got["right_by_template"]
