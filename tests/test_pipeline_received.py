"""The batch's reference date (issue 44, form 3): a date of prose that writes no year, in a text that dates itself
nowhere, takes the year nearest the day the batch was received, and a weekday alone the first such day on or after
it; said on the record, always for review. The text's own date comes first. The day comes from a JSONL line's
``received``, the CLI's ``--received`` or ``process_batch(reference=)``. On world train rows cited by id, whose
truth took the year from the page's date."""

from __future__ import annotations

import json
import subprocess
import sys
from datetime import date

import pytest
from world_rows import utc, world_text

from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message, read_jsonl

MUMBAI = "in-oneindia:mumbai-2022-11"  # "Mumbai, Nov 10: … effective from November 13 to December 12."
PALACE = "in-deccanherald:palace-grounds-2024-04-20"  # "… visit to the city on Saturday … between 10 am and 8 pm."


def _read(text: str, reference: date | None = None, received: date | None = None):
    recs, _ = process_batch([Message(0, text, received=received)], "rules", reference=reference)
    return recs


def test_a_year_from_the_day_the_batch_was_received():
    text = world_text(MUMBAI)
    (before,) = _read(text)
    assert (before.start, before.end) == (None, None)
    (rec,) = _read(text, reference=date(2022, 11, 10))
    # the truth's own arithmetic: 13 Nov 00:00 IST -> 12 Nov 18:30Z; 12 Dec inclusive -> 12 Dec 18:30Z
    assert (rec.start, rec.end) == (utc("2022-11-12T18:30Z"), utc("2022-12-12T18:30Z"))
    assert rec.status == "review"
    assert any("year 2022 from the batch's reference date 2022-11-10" in i for i in rec.inferred)


def test_a_weekday_alone_is_the_first_on_or_after_the_day_received():
    recs = _read(world_text(PALACE), received=date(2024, 4, 19))
    assert [(r.geometry.name, r.start, r.end) for r in recs] == [
        (name, utc("2024-04-20T04:30Z"), utc("2024-04-20T14:30Z"))
        for name in ("Krishna Vihar", "Palace Grounds", "HQTC Helipad")]
    assert all(r.status == "review" for r in recs)


def test_effective_immediately_is_the_day_received():
    """train ``ae-gulfnews:gcaa-suspension-2026-03-01``: "effective immediately and for a period of one week", no
    dateline: from the day the batch was received (the whole day, the places' clock) for the week it states, as
    the row's truth reads it; without that day, no start."""
    text = world_text("ae-gulfnews:gcaa-suspension-2026-03-01")
    (before,) = _read(text)
    assert (before.start, before.end) == (None, None)
    (rec,) = _read(text, reference=date(2026, 3, 1))
    # the truth's arithmetic: 1 Mar 00:00 GST (UTC+4) = 28 Feb 20:00Z; one week -> 7 Mar 20:00Z
    assert (rec.start, rec.end, rec.status) == (utc("2026-02-28T20:00Z"), utc("2026-03-07T20:00Z"), "review")
    assert any("'immediately' = the batch's reference date 2026-03-01" in i for i in rec.inferred)
    # a dateline comes first; "with immediate effect" alike
    (rec,) = _read("London, 3 May 2024: drones are banned within 1 km of Wembley Stadium with immediate effect.",
                   reference=date(2025, 6, 1))
    assert rec.start == utc("2024-05-02T23:00Z")


def test_the_texts_own_date_comes_first():
    (rec,) = _read("London, 3 May 2024: drones are banned within 1 km of Wembley Stadium on May 12.",
                   reference=date(2025, 6, 1))
    assert rec.start == utc("2024-05-11T23:00Z")
    assert any("from the item's date 2024-05-03" in i for i in rec.inferred)
    assert not any("reference date" in i for i in rec.inferred)


@pytest.mark.parametrize("text, start", [
    ("Flugverbot für Drohnen im Umkreis von 3 km um den Olympiapark vom 5. bis 7. Juni.", "2025-06-05T00:00Z"),
    ("Interdiction de survol des drones dans un rayon de 5 km autour du Stade de France du 3 au 6 juin.",
     "2025-06-02T22:00Z"),
    # the nearest year: a December date read in January is last December's
    ("Drones are banned within 2 km of Wembley Stadium from December 28 to December 30.", "2024-12-28T00:00Z"),
])
def test_a_year_from_the_reference_in_other_languages_and_across_new_year(text, start):
    (rec,) = _read(text, reference=date(2025, 6, 1) if "Juni" in text or "juin" in text else date(2025, 1, 3))
    assert rec.start == utc(start)
    assert any("from the batch's reference date" in i for i in rec.inferred)


def test_a_jsonl_line_carries_its_own_received_day():
    lines = "\n".join(json.dumps(o) for o in [
        {"text": world_text(MUMBAI), "received": "2022-11-10"},
        {"text": world_text(MUMBAI), "received": "2022-11-10T23:30:00-02:00"},  # that instant's UTC day: 11 Nov
        {"text": "SOMETHING", "received": "10 Nov"},
        {"text": world_text(MUMBAI)},
    ])
    msgs = read_jsonl(lines)
    assert [m.received for m in msgs] == [date(2022, 11, 10), date(2022, 11, 11), None, None]
    assert msgs[2].error is not None and "'received' is not an ISO date" in msgs[2].error
    recs, _ = process_batch(msgs, "rules")
    by = {r.message: r for r in recs}
    assert by[0].start == by[1].start == utc("2022-11-12T18:30Z")
    assert by[2].status == "error" and by[3].start is None


def test_the_cli_takes_the_day_and_refuses_a_bad_one(tmp_path):
    f = tmp_path / "m.txt"
    f.write_text(world_text(MUMBAI), encoding="utf-8")
    run = [sys.executable, "-m", "airspace.pipeline.cli", "--engine", "rules", "--format", "jsonl", str(f)]
    ok = subprocess.run([*run, "--received", "2022-11-10"], capture_output=True, text=True)
    assert ok.returncode == 1  # (read, and for review)
    assert json.loads(ok.stdout.splitlines()[0])["start"] == "2022-11-12T18:30:00Z"
    bad = subprocess.run([*run, "--received", "2022-13-01"], capture_output=True, text=True)
    assert bad.returncode == 2 and "--received '2022-13-01' is not a date" in bad.stderr


def test_the_dashboard_reads_a_pasted_jsonl_lines_received_day():
    from airspace.app.page_engines import parse

    text = json.dumps({"text": world_text(MUMBAI), "received": "2022-11-10"})
    records, _, _ = parse(text, "rules")
    assert records[0].start == utc("2022-11-12T18:30Z")


@pytest.mark.parametrize("text, start", [
    ("3月30日14时至17时，维多利亚港一带禁止无人机飞行。", "2025-03-30T06:00Z"),  # Beijing time
    ("5월 3일 오전 9시부터 오후 6시까지 서울 여의도 한강공원 일대에서 드론 비행이 금지됩니다.", "2025-05-03T00:00Z"),  # Korea time
])
def test_a_cjk_day_without_a_year_takes_the_reference_where_the_notice_dates_itself_nowhere(text, start):
    (before,) = _read(text)
    assert before.start is None
    (rec,) = _read(text, reference=date(2025, 3, 26))
    assert rec.start == utc(start) and rec.status == "review"
    assert any("from the batch's reference date 2025-03-26" in r for r in rec.reasons if not r.startswith("note:"))


def test_the_store_reads_a_jsonl_files_received_days(tmp_path):
    from airspace.store.ingest import read_file, read_records

    f = tmp_path / "feed.jsonl"
    f.write_text(json.dumps({"text": world_text(MUMBAI), "received": "2022-11-10"}) + "\n", encoding="utf-8")
    batch = read_file(f)
    assert [m.received for m in batch.messages] == [date(2022, 11, 10)]
    assert read_records(batch, engine="rules")[0].start == utc("2022-11-12T18:30Z")
