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
        ("23 JUL 2026 2105Z", utc(2026, 7, 23, 21, 5), False),
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


def test_canadian_aprx_marks_an_estimated_end():
    """NAV CANADA's domestic NOTAMs write an estimated end before its stamp (``2412050800 TIL APRX 2412051600``,
    Canadian NOTAM Operating Procedures): the same time as EST after it, marked estimated, in a pair or alone."""
    assert parse_time("APRX 2412051600") == TimeValue(utc(2024, 12, 5, 16, 0), estimated=True)
    start, end = parse_time_range("2412050800 TIL APRX 2412051600")
    assert (start.dt, start.estimated, end.dt, end.estimated) == (utc(2024, 12, 5, 8), False, utc(2024, 12, 5, 16), True)
    from airspace.pipeline.batch import process_batch

    text = ("241015 CYVR VANCOUVER INTL\nFORMAL RESTRICTED AIRSPACE WI 2NM RADIUS OF 491200N 1231100W\n"
            "SFC TO 3000 FT ASL\n2412050800 TIL APRX 2412051600\n")
    (rec,), _ = process_batch(text, "rules")
    assert (rec.start, rec.end, rec.end_estimated, rec.status) == (utc(2024, 12, 5, 8), utc(2024, 12, 5, 16), True,
                                                                   "review")
    assert "end time is estimated (EST)" in rec.reasons


def test_a_clock_and_its_day_are_utc_only_where_they_say_so():
    # ("06:00 on 3 December 2025" without a zone is prose's local time: the English reader places it, not this one)
    assert parse_time("06:00 UTC on 3 December 2025").dt == utc(2025, 12, 3, 6, 0)
    for text in ("06:00 on 3 December 2025", "3 December 2025 06:00", "23 JUL 2026 2105", "December 3, 2025 at 0600"):
        with pytest.raises(ValueError):
            parse_time(text)


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
@given(st.datetimes(min_value=datetime(1970, 1, 1), max_value=datetime(2069, 12, 31, 23, 59)), st.booleans())
def test_icao_round_trip(t, est):  # two-digit years cover 1970-2069 (pivot at 70)
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


# ---- forms found in real published notices (realmore batch) ----------------------------------------------------

BJ = timezone(timedelta(hours=8))


@pytest.mark.parametrize(
    "start,end,s_utc,e_utc",
    [
        # Wenchang: 自2026年2月3日08时起至2月11日24时止 (the range connectors stay on the halves)
        ("自2026年2月3日08时起", "2月11日24时止", utc(2026, 2, 3, 0), utc(2026, 2, 11, 16)),
        # Lintao: 自2024年8月11日0时起至2024年8月12日24时
        ("自2024年8月11日0时起", "2024年8月12日24时", utc(2024, 8, 10, 16), utc(2024, 8, 12, 16)),
        # Beijing (traditional mirror): 自2020年5月20日零時至5月28日24時
        ("自2020年5月20日零時", "5月28日24時", utc(2020, 5, 19, 16), utc(2020, 5, 28, 16)),
        # Lanzhou (traditional, with pinyin glosses): 2024年5月25日18時(shí)至2024年5月26日18時(shí)
        ("2024年5月25日18時(shí)", "2024年5月26日18時(shí)", utc(2024, 5, 25, 10), utc(2024, 5, 26, 10)),
        # Xi'an: 2024年1月24日0時起至2月10日24時
        ("2024年1月24日0時起", "2月10日24時", utc(2024, 1, 23, 16), utc(2024, 2, 10, 16)),
        # Guangzhou: 管控时间:2025年12月21日0时至18时
        ("2025年12月21日0时", "18时", utc(2025, 12, 20, 16), utc(2025, 12, 21, 10)),
    ],
)
def test_chinese_real_ranges(start, end, s_utc, e_utc):
    s = parse_time(start, local_tz=BJ)
    assert s.dt == s_utc
    assert parse_time(end, ref=s.dt, local_tz=BJ).dt == e_utc


def test_chinese_numerals_and_day_parts():
    assert parse_time("二〇二四年九月十日二十时").dt == utc(2024, 9, 10, 12)
    assert parse_time("2024年9月10日下午3时").dt == utc(2024, 9, 10, 7)
    assert parse_time("2024年9月10日晚上8时30分").dt == utc(2024, 9, 10, 12, 30)
    assert parse_time("2024年9月10日上午8时").dt == utc(2024, 9, 10, 0)
    with pytest.raises(ValueError):
        parse_time("今日")


def test_ufn_is_open_ended_and_flagged():
    # squawk A0500/26: "B) 2603010800\nC) UFN"
    tv = parse_time("C) UFN")
    assert tv.dt is None and tv.permanent and tv.until_further_notice
    assert parse_time("UNTIL FURTHER NOTICE").until_further_notice
    assert not parse_time("PERM").until_further_notice
    assert parse_time("B) 2603010800").dt == utc(2026, 3, 1, 8)


def test_faa_effective_until_with_local_restatements():
    # FDC 4/3473 (Van Horn) and FIS-B NOTAM-TFR 0/6733 (Dayton)
    from airspace.parser.times import find_effective_range

    text = ("EFFECTIVE 2402140200 UTC (2000 LOCAL 02/13/24) UNTIL 2402201400 UTC \r\n(0800 LOCAL 02/20/24) "
            "DLY 0200-1400 (2000-0800 LOCAL).")
    s, e = parse_time_range(text[len("EFFECTIVE "):text.index(" DLY")])
    assert (s.dt, e.dt) == (utc(2024, 2, 14, 2), utc(2024, 2, 20, 14))
    dayton = ("SFC-17999FT MSL EFFECTIVE 2009211945 UTC (1545 LOCAL 09/21/20)\n     UNTIL 2009220000 UTC "
              "(2000 LOCAL 09/21/20). WITHIN AN AREA")
    (a, b), (c, d) = find_effective_range(dayton)
    assert (dayton[a:b], dayton[c:d]) == ("2009211945", "2009220000")
    assert find_effective_range("B) 2009211945 C) 2009220000") is None
    with pytest.raises(ValueError):
        parse_time_range("2402140200 UTC SOMETIME 2402201400")


def test_chinese_date_without_year_takes_the_notice_year_huizhou():
    from airspace.parser.times import message_year

    # Huizhou (traditional mirror): the year is only in the notice title before the time phrase
    text = ("3月15日,惠州市公安局發(fā)布《關(guān)於2024年惠州馬拉松活動(dòng)期間無(wú)人駕駛航空器臨時(shí)禁飛的通告》。"
            "3月17日0時(shí)至14時(shí),全程馬拉松路線")
    year = message_year(text, text.index("3月17日"))
    assert year == 2024
    s = parse_time("3月17日0時(shí)", local_tz=BJ, year=year)
    assert s.dt == utc(2024, 3, 16, 16)
    assert parse_time("14時(shí)", ref=s.dt, local_tz=BJ).dt == utc(2024, 3, 17, 6)
    with pytest.raises(ValueError, match="no year"):
        parse_time("3月17日0時")  # never the clock's year
    assert message_year("自3月2日0时至全国两会闭幕次日12时期间") is None
    assert message_year("2023年规定… 2024年5月25日18时", 30) == 2024
    assert parse_time("2025年3月17日0时", year=2024).dt == utc(2025, 3, 16, 16)  # a written year wins


def test_two_digit_year_pivot_aim_example():
    # AIM 91.137 TFR example: "effective immediately until 9610211200"
    assert parse_time("9610211200").dt == utc(1996, 10, 21, 12)
    assert parse_time("6912312359").dt == utc(2069, 12, 31, 23, 59)
    assert parse_time("7001010000").dt == utc(1970, 1, 1)


def test_connective_words_and_slashed_iso_dates():
    # FDC 7/8363 TFR page: "Effective Date(s):\nFrom April 20, 2007 at 1610 UTC\nTo April 20, 2007 at 1715 UTC"
    assert parse_time("From April 20, 2007 at 1610 UTC").dt == utc(2007, 4, 20, 16, 10)
    assert parse_time("To April 20, 2007 at 1715 UTC").dt == utc(2007, 4, 20, 17, 15)
    assert parse_time("Monday, March 2, 2026 at 1200 UTC").dt == utc(2026, 3, 2, 12)
    assert parse_time("UNTIL FURTHER NOTICE").until_further_notice
    assert parse_time("2026/03/01 12:00").dt == utc(2026, 3, 1, 12)
    assert parse_time("2026.03.01 12:00 UTC").dt == utc(2026, 3, 1, 12)
    assert parse_time("2026年3月1日8时至").dt == utc(2026, 3, 1, 0)  # a range connector left on the start
    for bad in ("2026-03/01 12:00", "01/03/2026 12:00", "TO", "MONTH"):  # mixed separators; D/M vs M/D ambiguous
        with pytest.raises(ValueError):
            parse_time(bad)


def test_chinese_next_day_end_values():
    ref = parse_time("2024年9月9日20时").dt  # 12:00 UTC
    assert parse_time("次日6时", ref=ref, local_tz=BJ).dt == utc(2024, 9, 9, 22)
    assert parse_time("次日24时", ref=ref, local_tz=BJ).dt == utc(2024, 9, 10, 16)  # the end of the next day
    assert parse_time("翌日12时30分", ref=ref, local_tz=BJ).dt == utc(2024, 9, 10, 4, 30)
    assert parse_time("次日下午3时", ref=ref, local_tz=BJ).dt == utc(2024, 9, 10, 7)
    with pytest.raises(ValueError, match="start that is not known"):
        parse_time("次日6时")
    with pytest.raises(ValueError):
        parse_time("次日", ref=ref)
