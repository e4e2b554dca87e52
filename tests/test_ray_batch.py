"""``airspace-parse --ray``: a real local Ray cluster reads the batch on an actor pool, and the records are the
one-process run's, message for message, error records included."""

from __future__ import annotations

import os
import subprocess
import sys
from datetime import date

import pytest
from world_rows import world_text

from airspace.data.paths import dev_set_path

CLI = [sys.executable, "-m", "airspace.pipeline.cli"]
# two lines that are no message: each keeps its own error record, in its place
BAD_LINES = '{"text": 5}\nnot json\n'


def _parse(args: list[str], stdin: str) -> tuple[int, str, str]:
    p = subprocess.run(CLI + args, input=stdin.encode("utf-8"), capture_output=True, timeout=900,
                       env={**os.environ, "OMP_NUM_THREADS": "1"})
    return p.returncode, p.stdout.decode("utf-8"), p.stderr.decode("utf-8")


# a NOTAM, its replacement and the replacement's cancellation, in shards of their own: what they say about each
# other is read over the whole batch, as in one process
CHAIN = [
    "A0129/26 NOTAMN Q) LFFF/QRTCA/IV/BO/W/000/040/4850N00220E005 A) LFFF B) 2607010800 C) 2607011800 "
    "E) TEMPO RESTRICTED AREA PSN 485000N 0022000E RADIUS 5NM F) SFC G) 4000FT AMSL",
    "A0130/26 NOTAMR A0129/26 Q) LFFF/QRTCA/IV/BO/W/000/040/4850N00220E005 A) LFFF B) 2607010800 "
    "C) 2607012000 E) TEMPO RESTRICTED AREA PSN 485000N 0022000E RADIUS 5NM F) SFC G) 4000FT AMSL",
    "A0131/26 NOTAMC A0130/26 Q) LFFF/QRTCA/IV/BO/W/000/040/4850N00220E005 A) LFFF B) 2607011200 E) CANCELLED",
]


@pytest.mark.slow
def test_ray_shards_give_the_one_process_records_and_link_the_whole_batch():
    from airspace.pipeline.batch import process_batch
    from airspace.pipeline.ray_batch import read_with_ray
    from airspace.pipeline.split import Message, read_jsonl

    messages = read_jsonl(dev_set_path().read_text(encoding="utf-8") + BAD_LINES)
    messages += [Message(len(messages) + i, t) for i, t in enumerate(CHAIN)]
    # a message received on a day it names no year of: the day travels with it to its shard
    messages.append(Message(len(messages), world_text("in-oneindia:mumbai-2022-11"), received=date(2022, 11, 10)))
    one, _ = process_batch(messages, "rules")
    many, _ = read_with_ray(messages, "rules", workers=2, shard_size=4)
    assert [r.model_dump_json() for r in many] == [r.model_dump_json() for r in one]
    first = next(r for r in many if r.id == "A0129/26")
    assert first.replaced_by == "A0130/26"  # its replacement was read in another shard
    assert many[-1].start is not None and many[-1].start.year == 2022


@pytest.mark.slow
def test_ray_from_the_cli_gives_the_one_process_records_with_clover():
    text = dev_set_path().read_text(encoding="utf-8") + BAD_LINES
    args = ["-", "--input", "jsonl", "--format", "jsonl", "--engine", "clover"]
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
