"""Times: ICAO/FAA stamps, EST (estimated, never US Eastern), PERM, prose dates, Chinese Beijing-time dates."""

from datetime import datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from airspace.parser.times import TimeValue, parse_time, parse_time_range

UTC = timezone.utc


def utc(*a):
    return datetime(*a, tzinfo=UTC)


@pytest.mark.parametrize(
    "text,dt,est",
    [
        ("1509261100", utc(2015, 9, 26, 11, 0), False),
        ("2310271845", utc(2023, 10, 27, 18, 45), False),
        ("2309291346EST", utc(2023, 9, 29, 13, 46), True),
        ("2309291346 EST", utc(2023, 9, 29, 13, 46), True),
        ("2606042359", utc(2026, 6, 4, 23, 59), False),
        ("202607232105", utc(2026, 7, 23, 21, 5), False),
        ("July 23, 2026 at 2105 UTC", utc(2026, 7, 23, 21, 5), False),
        ("July 23, 2026 at 2105 UTC (July 23, 2026 at 1705 EDT)", utc(2026, 7, 23, 21, 5), False),
        ("23 JUL 2026 2105", utc(2026, 7, 23, 21, 5), False),
        ("JUL 23 2026 21:05Z", utc(2026, 7, 23, 21, 5), False),
        ("2026-07-23T21:05Z", utc(2026, 7, 23, 21, 5), False),
        ("2607231600 UTC (1200 local 07/23/26)", utc(2026, 7, 23, 16, 0), False),  # FAA TFR page
        ("2607231600Z", utc(2026, 7, 23, 16, 0), False),
        ("2024年9月10日12时", utc(2024, 9, 10, 4, 0), False),  # Dalian truth: Beijing 12:00 = 04:00Z
        ("2024年9月10日24时", utc(2024, 9, 10, 16, 0), False),  # 24时 = next day 00:00 Beijing = 16:00Z
        ("2024年9月10日20:00", utc(2024, 9, 10, 12, 0), False),
        ("2024年9月10日(星期二)20:00", utc(2024, 9, 10, 12, 0), False),
        ("２０２４年９月１０日１２时", utc(2024, 9, 10, 4, 0), False),
        ("2024年9月10日12時30分", utc(2024, 9, 10, 4, 30), False),
        ("北京时间2024年1月1日6时", utc(2023, 12, 31, 22, 0), False),
    ],
)
def test_parse_time(text, dt, est):
    tv = parse_time(text)
    assert tv == TimeValue(dt, estimated=est, permanent=False)
    assert tv.dt.tzinfo is not None and tv.dt.utcoffset() == timedelta(0)


def test_est_is_never_us_eastern():
    assert parse_time("2309291346EST").dt == parse_time("2309291346").dt


def test_perm():
    assert parse_time("PERM") == TimeValue(None, permanent=True)
    assert parse_time("UFN").permanent


def test_dates_from_ref():
    start = parse_time("2024年9月10日12时").dt
    assert parse_time("24时", ref=start).dt == utc(2024, 9, 10, 16, 0)
    assert parse_time("18时", ref=start).dt == utc(2024, 9, 10, 10, 0)
    assert parse_time("2300 UTC", ref=utc(2026, 7, 23, 21, 5)).dt == utc(2026, 7, 23, 23, 0)
    # an end clock time before the start rolls to the next day
    assert parse_time("0100 UTC", ref=utc(2026, 7, 23, 21, 5)).dt == utc(2026, 7, 24, 1, 0)


def test_prose_time_first_and_local_clock():
    assert parse_time("2105 UTC July 23, 2026").dt == utc(2026, 7, 23, 21, 5)
    assert parse_time("2105Z 23 JUL 2026").dt == utc(2026, 7, 23, 21, 5)
    from airspace.parser.times import BEIJING

    start = parse_time("2024年9月10日20:00").dt
    assert parse_time("22:00", ref=start, local_tz=BEIJING).dt == utc(2024, 9, 10, 14, 0)
    assert parse_time("2024-09-10 20:00", local_tz=BEIJING).dt == utc(2024, 9, 10, 12, 0)
    assert parse_time("2024-09-10 20:00Z", local_tz=BEIJING).dt == utc(2024, 9, 10, 20, 0)
    assert parse_time("1509261100", local_tz=BEIJING).dt == utc(2015, 9, 26, 11, 0)  # ICAO stamps stay UTC


def test_dalian_truth(dev_by_id):
    row = dev_by_id["cn-dalian-2024-09-10"]
    text = row["text"]
    s_raw, e_raw = "2024年9月10日12時", "2024年9月10日24時"
    assert s_raw in text and e_raw in text  # the mirror is in traditional characters (時)
    start = parse_time(s_raw)
    end = parse_time(e_raw, ref=start.dt)
    assert start.dt.strftime("%Y-%m-%dT%H:%M:%SZ") == row["truth"]["start_utc"]
    assert end.dt.strftime("%Y-%m-%dT%H:%M:%SZ") == row["truth"]["end_utc"]


def test_faa_range():
    s, e = parse_time_range("2601190001-2607312359")
    assert s.dt == utc(2026, 1, 19, 0, 1) and e.dt == utc(2026, 7, 31, 23, 59)
    s, e = parse_time_range("2601190001-PERM")
    assert e.permanent


@pytest.mark.parametrize(
    "bad", ["", "junk", "2313011200", "1509261160", "1502301200", "EST", "2309291346 EDT", "12时", "2105"])
def test_parse_time_rejects(bad):
    with pytest.raises(ValueError):
        parse_time(bad)


@settings(max_examples=200, deadline=None)
@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2099, 12, 31, 23, 59)), st.booleans())
def test_icao_round_trip(t, est):
    t = t.replace(second=0, microsecond=0, tzinfo=UTC)
    tv = parse_time(t.strftime("%y%m%d%H%M") + (" EST" if est else ""))
    assert tv.dt == t and tv.estimated == est


@settings(max_examples=200, deadline=None)
@given(st.datetimes(min_value=datetime(2000, 1, 1), max_value=datetime(2099, 12, 31, 23, 0)))
def test_chinese_round_trip(t):
    local = t.replace(minute=0, second=0, microsecond=0)
    text = f"{local.year}年{local.month}月{local.day}日{local.hour}时"
    want = local.replace(tzinfo=timezone(timedelta(hours=8))).astimezone(UTC)
    assert parse_time(text).dt == want
