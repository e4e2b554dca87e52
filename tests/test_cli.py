"""airspace-parse end to end, as a subprocess (real console entry point, real dev messages)."""

import json
import subprocess
import sys
from pathlib import Path

import pytest

from airspace.data.paths import dev_set_path

CLI = [sys.executable, "-m", "airspace.pipeline.cli"]


def run(args, stdin=None, timeout=120):
    p = subprocess.run(CLI + args, input=stdin, capture_output=True, timeout=timeout)
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


def test_console_script_is_installed():
    script = Path(sys.executable).parent / "airspace-parse"
    assert script.exists()
    p = subprocess.run([str(script), "--help"], capture_output=True, timeout=60)
    assert p.returncode == 0 and b"--engine" in p.stdout and b"max_batch_bytes" in p.stdout


def test_dev_jsonl_every_message_comes_back(dev_rows):
    code, out, err = run([str(dev_set_path()), "--input", "jsonl", "--format", "jsonl"])
    assert code == 1  # some records are review (named place, obstacles, Q-line only)
    objs = [json.loads(line) for line in out.splitlines()]
    assert {o["message"] for o in objs} == set(range(len(dev_rows)))
    required = {"message", "id", "status", "reasons", "geometry", "lower", "upper", "start", "end", "end_estimated",
                "permanent", "schedule", "windows", "spans"}
    assert all(required <= set(o) for o in objs)
    first = objs[0]
    assert first["geometry"] == {"type": "circle", "center": [pytest.approx(48.158333, abs=1e-5),
                                 pytest.approx(16.174444, abs=1e-5)], "radius_m": 1852.0, "approximate": False,
                                 "inner_radius_m": None}
    assert first["upper"] == {"ref": "FL", "ft": 13000.0, "m": pytest.approx(3962.4), "raw": "FL130"}
    assert (first["start"], first["end"], first["status"]) == ("2015-09-26T11:00:00Z", "2015-09-26T12:30:00Z", "ok")
    assert "25 messages" in err


def test_text_from_stdin_table_and_at(dev_by_id):
    text = dev_by_id["pynotam-readme-A1912-15"]["text"] + "\n\n" + dev_by_id["avwx-EGLL-H6658-23"]["text"]
    code, out, err = run(["-", "--at", "2015-09-26T12:00:00Z"], stdin=text.encode())
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split("\t")[:4] == ["msg", "zone", "id", "status"] and "active" in lines[0]
    row0, row1 = lines[1].split("\t"), lines[2].split("\t")
    assert row0[2] == "A1912/15" and row0[3] == "ok" and "GND-FL130" in row0 and row0[-2] == "yes"
    assert row1[2] == "H6658/23" and row1[-2] == "no"


def test_jsonl_active_flag_and_output_file(tmp_path, dev_by_id):
    src = tmp_path / "in.txt"
    src.write_text(dev_by_id["squawk-BOS-01-502-UAS"]["text"], encoding="utf-8")
    out = tmp_path / "out.jsonl"
    code, stdout, err = run([str(src), "--format", "jsonl", "--at", "2026-03-01T00:00:00Z", "-o", str(out)])
    assert code == 0 and stdout == ""
    obj = json.loads(out.read_text(encoding="utf-8"))
    assert obj["active"] is True and obj["id"] == "BOS 01/502"
    assert obj["upper"]["ref"] == "AGL" and obj["upper"]["ft"] == 400


@pytest.mark.parametrize("fmt", ["geojson", "ed269", "ed318"])
def test_exports(fmt, tmp_path):
    out = tmp_path / f"o.{fmt}"
    code, _, err = run([str(dev_set_path()), "--input", "jsonl", "--format", fmt, "-o", str(out)])
    assert code == 1, err
    doc = json.loads(out.read_text(encoding="utf-8"))
    assert isinstance(doc, dict) and doc


def test_usage_errors_exit_2(tmp_path):
    assert run(["--format", "pdf"], stdin=b"")[0] == 2
    code, _, err = run([str(tmp_path / "missing.txt")])
    assert code == 2 and "cannot read" in err
    code, _, err = run(["--at", "yesterday"], stdin=b"x")
    assert code == 2 and "--at" in err


def test_the_default_engine_is_clover_and_its_records_are_cross_checked(dev_by_id):
    """Without --engine the CLI reads with Clover (README, "Which engine is the default, and why"), and every record
    it writes says so; a record where the rules reading differs would come back review, never silently ok."""
    code, out, err = run(["-", "--format", "jsonl"], stdin=dev_by_id["pynotam-readme-A1912-15"]["text"].encode())
    assert code == 0, err
    objs = [json.loads(line) for line in out.splitlines()]
    assert [o["engine"] for o in objs] == ["clover"] and objs[0]["status"] == "ok"
    assert objs[0]["upper"]["raw"] == "FL130" and "engine clover" in err
    code, out, _ = run(["--help"])
    assert "clover (the block-diffusion model, default)" in " ".join(out.split())


def test_unavailable_engine_is_a_clear_error():
    code, out, err = run(["--engine", "ar", "--checkpoint", "/nonexistent"], stdin=b"A1/26 NOTAMN")
    if code == 2:
        assert "engine 'ar'" in err and "Traceback" not in err
    else:  # the model engine exists: it must still answer without a traceback
        assert "Traceback" not in err


def test_table_numbers_messages_and_zones_from_one_json_stays_zero_based(dev_by_id):
    text = (dev_by_id["pynotam-readme-A1912-15"]["text"] + "\n\n" + dev_by_id["pynotam-526438"]["text"]).encode()
    code, out, _ = run(["-"], stdin=text)
    rows = [line.split("\t") for line in out.splitlines()[1:]]
    assert rows[0][:2] == ["1", "1"] and [r[:2] for r in rows[1:3]] == [["2", "1"], ["2", "2"]]
    code, out, _ = run(["-", "--format", "jsonl"], stdin=text)
    objs = [json.loads(line) for line in out.splitlines()]
    assert (objs[0]["message"], objs[0]["zone"]) == (0, 0) and (objs[2]["message"], objs[2]["zone"]) == (1, 1)


def test_help_states_the_exit_codes_and_the_numbering():
    p = subprocess.run(CLI + ["--help"], capture_output=True, timeout=60)
    text = " ".join(p.stdout.decode().split())
    assert "3 internal failure" in text and "2 usage or I/O error" in text
    assert "numbers messages and zones from 1" in text and "0-based" in text


def test_at_beyond_the_representable_range_is_a_usage_error():
    """`--at 9999-12-31T23:59:59-23:59` used to end in `internal error: OverflowError`."""
    code, out, err = run(["--at", "9999-12-31T23:59:59-23:59"], stdin=b"A1/26 NOTAMN")
    assert code == 2 and out == "" and "--at" in err and "representable" in err and "Traceback" not in err


@pytest.mark.skipif(not Path("/dev/full").exists(), reason="no /dev/full on this system")
def test_a_full_disk_is_a_clear_write_error(dev_by_id):
    """`-o /dev/full` used to end in `internal error: OSError`."""
    text = dev_by_id["pynotam-readme-A1912-15"]["text"].encode()
    code, _, err = run(["-", "-o", "/dev/full"], stdin=text)
    assert code == 2 and "cannot write /dev/full" in err and "No space left" in err and "internal" not in err
    with open("/dev/full", "wb") as full:  # stdout itself on a full device
        p = subprocess.run(CLI + ["-", "--format", "jsonl"], input=text, stdout=full, stderr=subprocess.PIPE,
                           timeout=120)
    assert p.returncode == 2 and b"cannot write standard output" in p.stderr and b"Traceback" not in p.stderr


def test_input_size_is_measured_as_given(tmp_path):
    """4,000,000 random bytes were refused as "7,247,653 bytes" (measured after U+FFFD replacement)."""
    import random

    from airspace.pipeline.split import MAX_BATCH_BYTES

    rnd = random.Random(4)
    data = bytes(rnd.randrange(256) for _ in range(4_000_000))
    assert len(data) < MAX_BATCH_BYTES < len(data.decode("utf-8", "replace").encode("utf-8"))
    src = tmp_path / "random.bin"
    src.write_bytes(data)
    code, out, err = run([str(src), "--format", "table", "--engine", "rules"], timeout=300)  # a splitter check
    assert code == 1 and "over the limit" not in err and "Traceback" not in err
    assert all(line.split("\t")[3] == "error" for line in out.splitlines()[1:])
    code, _, err = run([str(src), str(src), "--engine", "rules"], timeout=300)
    assert code == 2 and "over the limit" in err
