"""``airspace-parse --ray``: a real local Ray cluster reads the batch on an actor pool, and the records are the
one-process run's, message for message, error records included."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from airspace.data.paths import dev_set_path

CLI = [sys.executable, "-m", "airspace.pipeline.cli"]
# two lines that are no message: each keeps its own error record, in its place
BAD_LINES = '{"text": 5}\nnot json\n'


def _parse(args: list[str], stdin: str) -> tuple[int, str, str]:
    p = subprocess.run(CLI + args, input=stdin.encode("utf-8"), capture_output=True, timeout=900,
                       env={**os.environ, "OMP_NUM_THREADS": "1"})
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


@pytest.mark.slow
@pytest.mark.parametrize("engine", ["rules", "clover"])
def test_ray_records_are_the_one_process_records(engine):
    text = dev_set_path().read_text(encoding="utf-8") + BAD_LINES
    args = ["-", "--input", "jsonl", "--format", "jsonl", "--engine", engine]
    code1, one, err1 = _parse(args, text)
    code2, many, err2 = _parse(args + ["--ray", "--ray-workers", "2"], text)
    assert code1 == code2 == 1, (err1[-500:], err2[-500:])
    assert one.splitlines() and many.splitlines() == one.splitlines()
    assert '"status":"error"' in many.replace(" ", "")  # the two bad lines came back as error records
    summary = [line for line in err2.splitlines() if line.startswith("airspace-parse:")]
    assert summary and summary[-1].split(";")[0] == [x for x in err1.splitlines()
                                                     if x.startswith("airspace-parse:")][-1].split(";")[0]


def test_an_unreachable_cluster_is_a_usage_error_not_a_crash():
    code, out, err = _parse(["-", "--engine", "rules", "--ray", "127.0.0.1:9"], "R0001/26 NOTAMN\n")
    assert code == 2 and out == ""
    assert "cannot start or reach the Ray cluster at 127.0.0.1:9" in err
