"""Hostile input through the real CLI: per-message errors or a clear size-limit error, never a traceback."""

import json
import random
import subprocess
import sys

import pytest

from airspace.pipeline.split import MAX_BATCH_BYTES, MAX_MESSAGE_CHARS, MAX_MESSAGES

CLI = [sys.executable, "-m", "airspace.pipeline.cli"]


def run(data: bytes, *args, timeout=180):
    p = subprocess.run(CLI + ["--format", "jsonl", *args], input=data, capture_output=True, timeout=timeout)
    err = p.stderr.decode("utf-8", "replace")
    assert "Traceback" not in err, err
    return p.returncode, [json.loads(line) for line in p.stdout.decode("utf-8").splitlines()], err


NOTAM = ("(A1912/15 NOTAMN\nQ) LOVV/QWPLW/IV/BO/W/000/130/4809N01610E001\nA) LOVV B) 1509261100 C) 1509261230\n"
         "E) PJE WILL TAKE PLACE AT AREA LAAB IN WALDE\nPSN:N480930 E0161028 RADIUS - 1NM\nF) GND G) FL130)")


def test_binary_junk():
    rnd = random.Random(7)
    code, recs, _ = run(bytes(rnd.randrange(256) for _ in range(200_000)))
    assert code == 1 and recs and all(r["status"] == "error" for r in recs)


def test_nul_bytes_and_emoji_around_a_real_notam():
    data = ("\x00\x00🚀 hello ✈️\n\n" + NOTAM.replace("PJE", "PJE 🪂") + "\n\n" + "\x00" * 500).encode("utf-8")
    code, recs, _ = run(data)
    assert code == 1
    ok = [r for r in recs if r["status"] == "ok"]
    assert len(ok) == 1 and ok[0]["geometry"]["radius_m"] == 1852.0
    assert [r["status"] for r in recs if r is not ok[0]] == ["error", "error"]


def test_unbalanced_parentheses():
    data = ("(((" + NOTAM + ")))\n\n)(" + NOTAM[1:] + "\n\n((((((((").encode()
    code, recs, _ = run(data)
    assert {r["message"] for r in recs} == {0, 1, 2}
    assert sum(r["status"] == "ok" for r in recs) >= 1


def test_one_megabyte_message_is_a_per_message_error():
    data = (NOTAM + "\n\n" + "lorem ipsum dolor sit amet " * 40_000).encode()
    assert 1_000_000 < len(data) < MAX_BATCH_BYTES
    code, recs, _ = run(data)
    assert code == 1 and recs[0]["status"] == "ok"
    assert recs[1]["status"] == "error" and str(MAX_MESSAGE_CHARS) in recs[1]["reasons"][0]


def test_over_the_batch_limit_is_a_clear_error():
    code, recs, err = run(b"x" * (MAX_BATCH_BYTES + 10))
    assert code == 2 and recs == [] and "over the limit" in err and str(MAX_BATCH_BYTES) in err


@pytest.mark.slow
def test_ten_thousand_messages():
    msgs = ["N0TAM junk %d" % i if i % 100 else NOTAM.replace("A1912", "A%04d" % (i % 10000)) for i in range(10_000)]
    code, recs, err = run("\n\n".join(msgs).encode())
    assert len({r["message"] for r in recs}) == 10_000
    assert sum(r["status"] == "ok" for r in recs) == 100
    assert "10000 messages" in err


@pytest.mark.slow
def test_more_messages_than_the_limit():
    code, recs, _ = run("\n\n".join(f"m{i}" for i in range(MAX_MESSAGES + 5)).encode())
    assert len(recs) == MAX_MESSAGES + 5
    assert all("more than" in r["reasons"][0] for r in recs[MAX_MESSAGES:])


def test_jsonl_hostile_lines():
    lines = ['{"text": "' + "\\u0000" * 10 + '"}', "[1,2,3]", "{" * 5000, '{"text": 5}', "\xff\xfe",
             json.dumps({"text": NOTAM})]
    code, recs, _ = run("\n".join(lines).encode("utf-8", "surrogateescape"), "--input", "jsonl")
    assert [r["message"] for r in recs] == [0, 1, 2, 3, 4, 5]
    assert recs[5]["status"] == "ok" and all(r["status"] == "error" for r in recs[:5])


@pytest.mark.slow
def test_far_too_many_messages_is_refused_with_a_clear_error():
    from airspace.pipeline.split import HARD_MAX_MESSAGES

    code, recs, err = run(("x\n\n" * (HARD_MAX_MESSAGES + 10)).encode())
    assert code == 2 and recs == [] and f"more than {HARD_MAX_MESSAGES} messages" in err
    code, recs, err = run(("!x\n" * 200_000).encode())
    assert code == 2 and "more than" in err
