"""Issue 45, findings 6-9: threads within the usable cores, control characters in the table, exit codes and input
encodings, and checkpoints that would load but cannot work. The CLI runs as a subprocess (its real entry point)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
import torch
from model_fixtures import tiny_checkpoint
from safetensors.torch import load_file, save_file

from airspace.model.checkpoint import load_checkpoint

CLI = [sys.executable, "-m", "airspace.pipeline.cli"]
BOS = ("!BOS 01/502 BOS AIRSPACE UAS WI AN AREA DEFINED AS .5NM RADIUS OF 421722N0712148W (9.5NM NW OWD) "
       "SFC-400FT AGL 2601190001-2607312359")


def run(args, stdin=b"", **kw):
    p = subprocess.run(CLI + args, input=stdin, capture_output=True, timeout=120, **kw)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


# ---- 6. threads ---------------------------------------------------------------------------------------------------

_THREADS = r"""
import os, sys, torch
os.sched_setaffinity(0, {sorted(os.sched_getaffinity(0))[0]})
from airspace.model import reading
cores = len(os.sched_getaffinity(0))
workers = reading.read_workers(torch.device("cpu"), 64)
print(cores, workers, reading.cpu_threads(), workers * reading.cpu_threads() <= cores)
"""


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity on this platform")
def test_read_workers_times_threads_stay_within_the_affinity_mask():
    env = {**os.environ, "AIRSPACE_READ_WORKERS": "8"}  # asked for more than the one core the process may use
    p = subprocess.run([sys.executable, "-c", _THREADS], capture_output=True, text=True, timeout=120, env=env)
    assert p.returncode == 0, p.stderr
    assert p.stdout.split() == ["1", "1", "1", "True"]


def test_on_all_usable_cores_workers_times_threads_fit():
    from airspace.model import reading

    cores = len(os.sched_getaffinity(0))
    assert reading.read_workers(torch.device("cpu"), 64) * reading.cpu_threads() <= cores


# ---- 7. control characters in the table ---------------------------------------------------------------------------

def test_terminal_escapes_from_a_message_are_shown_escaped_in_the_table():
    hostile = BOS.replace("(9.5NM NW OWD)", "(\x1b]0;pwned\x07 \x1b[2J \x9b31m)") + "\n\nHELLO \x1b]2;title\x07 WORLD"
    code, out, err = run(["--engine", "rules", "-"], stdin=hostile.encode())
    assert code in (0, 1), err
    assert not any(ch in out for ch in "\x1b\x07\x9b")
    # a record of the second message shows its text's reason with the escapes spelled out where it quotes it
    assert out.count("\n") >= 3


def test_a_named_place_with_escapes_is_shown_escaped():
    text = BOS.replace("421722N0712148W (9.5NM NW OWD)", "FENWAY\x1b[2JPARK")
    code, out, _ = run(["--engine", "rules", "-"], stdin=text.encode())
    assert "\x1b" not in out


# ---- 8. exit codes and encodings ----------------------------------------------------------------------------------

def test_a_closed_stdout_is_an_io_error_not_a_bug():
    p = subprocess.run(CLI + ["--engine", "rules", "-"], input=BOS.encode(), stdout=subprocess.DEVNULL,
                       stderr=subprocess.PIPE, timeout=120, close_fds=True,
                       preexec_fn=lambda: os.close(1))
    assert p.returncode == 2, p.stderr
    assert b"internal error" not in p.stderr and b"standard output is closed" in p.stderr


def test_a_broken_pipe_is_a_quiet_exit():
    batch = "\n\n".join([BOS] * 400).encode()
    p = subprocess.Popen(CLI + ["--engine", "rules", "--format", "jsonl", "-"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    p.stdin.write(batch)
    p.stdin.close()
    p.stdout.read(10)
    p.stdout.close()
    err = p.stderr.read()
    assert p.wait(timeout=120) in (0, 2) and b"internal error" not in err and b"Traceback" not in err


def test_a_utf8_bom_on_jsonl_line_one_is_accepted(tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_bytes(b"\xef\xbb\xbf" + json.dumps({"text": BOS}).encode() + b"\n")
    code, out, err = run(["--engine", "rules", "--input", "jsonl", "--format", "jsonl", str(f)])
    assert code == 0, err
    assert json.loads(out)["status"] == "ok"


@pytest.mark.parametrize("encoding", ["utf-16", "utf-16-le", "utf-16-be"])
def test_utf16_files_with_a_bom_are_decoded(tmp_path, encoding):
    f = tmp_path / "in.txt"
    bom = {"utf-16": b"", "utf-16-le": b"\xff\xfe", "utf-16-be": b"\xfe\xff"}[encoding]
    f.write_bytes(bom + BOS.encode(encoding))
    code, out, err = run(["--engine", "rules", "--format", "jsonl", str(f)])
    assert code == 0, err
    rec = json.loads(out)
    assert rec["status"] == "ok" and rec["id"] == "BOS 01/502"


def test_a_duplicate_text_key_refuses_that_line_only(tmp_path):
    f = tmp_path / "in.jsonl"
    f.write_text(json.dumps({"text": BOS}) + "\n" + '{"text": "A", "text": ' + json.dumps(BOS) + "}\n")
    code, out, _ = run(["--engine", "rules", "--input", "jsonl", "--format", "jsonl", str(f)])
    recs = [json.loads(x) for x in out.splitlines()]
    assert code == 1 and [r["status"] for r in recs] == ["ok", "error"]
    assert "'text' more than once" in recs[1]["reasons"][0]


def test_empty_stdin_says_no_messages():
    code, out, err = run(["--engine", "rules", "-"], stdin=b"")
    assert "no messages" in err and code == 0


def test_help_documents_exit_130():
    code, out, _ = run(["--help"])
    assert code == 0 and "130" in out


def test_the_summary_counts_the_zones_an_export_wrote():
    batch = BOS + "\n\n" + BOS.replace("421722N0712148W (9.5NM NW OWD)", "FENWAY PARK").replace("01/502", "01/503")
    code, out, err = run(["--engine", "rules", "--format", "ed269", "-"], stdin=batch.encode())
    assert len(json.loads(out)["features"]) == 1
    assert "1 zone written as ed269" in err and "(1 ok, 1 review" in err


# ---- 9. checkpoints that load but cannot work ---------------------------------------------------------------------

def _edit_tensors(ck: Path, edit) -> None:
    sd = load_file(str(ck / "model.safetensors"))
    edit(sd)
    save_file(sd, str(ck / "model.safetensors"))


def _first_matrix(sd) -> str:
    return next(k for k, v in sd.items() if v.dim() >= 2)


def test_a_fresh_checkpoint_still_loads(tmp_path):
    load_checkpoint(tiny_checkpoint(tmp_path / "ck"))


@pytest.mark.parametrize("edit,why", [
    (lambda sd: sd[_first_matrix(sd)].view(-1)[0].fill_(float("nan")), "NaN or infinite"),
    (lambda sd: sd[_first_matrix(sd)].view(-1)[3].fill_(float("inf")), "NaN or infinite"),
    (lambda sd: [v.zero_() for v in sd.values()], "all zeros"),
    (lambda sd: sd.__setitem__(_first_matrix(sd), sd[_first_matrix(sd)].to(torch.int8)), "mixes tensor types"),
])
def test_weights_that_cannot_work_are_refused_at_load(tmp_path, edit, why):
    ck = tiny_checkpoint(tmp_path / "ck")
    _edit_tensors(ck, edit)
    with pytest.raises(ValueError, match=why):
        load_checkpoint(ck)


@pytest.mark.parametrize("key,value", [("tau", "x"), ("norm_eps", float("nan")), ("rope_theta", 0),
                                       ("tau", True), ("norm_eps", -1e-6), ("rope_theta", float("inf"))])
def test_config_numbers_of_the_wrong_type_or_not_finite_are_refused(tmp_path, key, value):
    ck = tiny_checkpoint(tmp_path / "ck")
    cfg = json.loads((ck / "config.json").read_text())
    cfg[key] = value
    (ck / "config.json").write_text(json.dumps(cfg))  # (json writes NaN and Infinity, as a hostile file may)
    with pytest.raises(ValueError, match=key):
        load_checkpoint(ck)


def test_the_cli_refuses_such_a_checkpoint_with_exit_2(tmp_path):
    ck = tiny_checkpoint(tmp_path / "ck")
    _edit_tensors(ck, lambda sd: sd[_first_matrix(sd)].view(-1)[0].fill_(float("nan")))
    code, out, err = run(["--engine", "clover", "--checkpoint", str(ck), "-"], stdin=BOS.encode())
    assert code == 2 and "NaN or infinite" in err and out == ""
