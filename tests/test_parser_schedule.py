"""D-item schedules expanded into UTC windows (the forms of dev.jsonl and more), and NOAA sunrise/sunset."""

from datetime import date, datetime, timedelta, timezone

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from airspace.parser.schedule import expand_schedule
from airspace.parser.sun import daylight_kind, sun_times
from airspace.parser.times import parse_time

UTC = timezone.utc


def utc(*a):
    return datetime(*a, tzinfo=UTC)


def t(s):
    return parse_time(s).dt


def spans(ws):
    return [(w.start, w.end) for w in ws]


def test_no_schedule_and_h24():
    assert spans(expand_schedule(None, t("2310271845"), t("2310271945"))) == [(utc(2023, 10, 27, 18, 45), utc(2023, 10, 27, 19, 45))]
    assert spans(expand_schedule("H24", t("2603160825"), t("2603182025"))) == [(utc(2026, 3, 16, 8, 25), utc(2026, 3, 18, 20, 25))]


def test_perm_expands_at_most_366_days():
    ws = expand_schedule("DAILY 0800-1700", t("2601010000"), None)
    assert len(ws) == 366  # Jan 1 2026 .. Jan 1 2027 (horizon = start + 366 days = Jan 2 2027 00:00)
    assert ws[-1].end <= t("2601010000") + timedelta(days=366)
    assert spans(expand_schedule(None, t("2601010000"), None)) == [(utc(2026, 1, 1), utc(2027, 1, 2))]


def test_daily_without_prefix_egll():
    ws = expand_schedule("1600-2200", t("2311131600"), t("2401072200"))
    assert len(ws) == 56
    assert spans(ws[:1]) == [(utc(2023, 11, 13, 16), utc(2023, 11, 13, 22))]
    assert spans(ws[-1:]) == [(utc(2024, 1, 7, 16), utc(2024, 1, 7, 22))]


def test_weekdays_kmco():
    ws = expand_schedule("MON-FRI 1100-2100", t("2305221100"), t("2311032100"))
    assert all(w.start.weekday() < 5 for w in ws)
    assert len(ws) == 120
    assert (ws[0].start, ws[0].end) == (utc(2023, 5, 22, 11), utc(2023, 5, 22, 21))


def test_weekday_list_two_periods():
    ws = expand_schedule("MON WED FRI 0700-1100 1300-1700", t("2603160000"), t("2603230000"))
    assert [w.start for w in ws] == [utc(2026, 3, d, h) for d in (16, 18, 20) for h in (7, 13)]


def test_weekday_wrap_and_list():
    ws = expand_schedule("FRI-MON 0800-0900", t("2603160000"), t("2603230000"))  # Mon 16 .. Mon 23
    assert [w.start.day for w in ws] == [16, 20, 21, 22]


def test_exclusions_eisn():
    ws = expand_schedule("MON-FRI 1000-1700 EXC MAR 17 APR 06 MAY 04 JUN 01", t("2603061000"), t("2606051700"))
    days = {w.start.date() for w in ws}
    for d in (date(2026, 3, 17), date(2026, 4, 6), date(2026, 5, 4), date(2026, 6, 1)):
        assert d not in days
    assert date(2026, 3, 16) in days and date(2026, 3, 18) in days
    assert len(ws) == 66 - 4


def test_exclude_weekdays():
    ws = expand_schedule("DAILY 0800-1700 EXC SAT SUN", t("2603160000"), t("2603230000"))
    assert len(ws) == 5


def test_day_of_month_ranges_lsas():
    ws = expand_schedule("27-30 0630-1000 1130-1530", t("2604270630"), t("2604301530"))
    assert len(ws) == 8
    assert spans(ws[:2]) == [(utc(2026, 4, 27, 6, 30), utc(2026, 4, 27, 10)), (utc(2026, 4, 27, 11, 30), utc(2026, 4, 27, 15, 30))]


def test_crossing_midnight_uhhh():
    ws = expand_schedule("DAILY 2000-1800", t("2604012000"), t("2605011800"))
    assert len(ws) == 30
    assert (ws[0].start, ws[0].end) == (utc(2026, 4, 1, 20), utc(2026, 4, 2, 18))
    assert ws[-1].end == utc(2026, 5, 1, 18)


def test_two_periods_one_to_midnight_spim():
    ws = expand_schedule("1000-1400 2200-0000", t("2603092200"), t("2605020000"))
    assert (ws[0].start, ws[0].end) == (utc(2026, 3, 9, 22), utc(2026, 3, 10, 0))
    assert (ws[1].start, ws[1].end) == (utc(2026, 3, 10, 10), utc(2026, 3, 10, 14))
    assert ws[-1].end == utc(2026, 5, 2, 0)


def test_times_on_dates_zgzu():
    ws = expand_schedule("0145-0510 ON SEP,28\n0300-0620 ON SEP,29 - OCT,03", t("2109280145"), t("2110030620"))
    assert spans(ws) == [(utc(2021, 9, 28, 1, 45), utc(2021, 9, 28, 5, 10))] + [
        (utc(2021, m, d, 3), utc(2021, m, d, 6, 20)) for m, d in ((9, 29), (9, 30), (10, 1), (10, 2), (10, 3))]


def test_per_day_windows_across_months_nttt():
    d = ("MAR 29 0906-1052, 30 0845-1030, 31 0823-1009,  APR 01 0802-0948, 02 0741-0926, 03 0720-0905, "
         "04 0658-0844")
    ws = expand_schedule(d, t("2603290906"), t("2604040844"))
    assert len(ws) == 7
    assert (ws[3].start, ws[3].end) == (utc(2026, 4, 1, 8, 2), utc(2026, 4, 1, 9, 48))
    assert ws[-1].end == utc(2026, 4, 4, 8, 44)


def test_explicit_datetime_ranges_ymmm():
    d = ("2603271320 TO 2603271816     2603281258 TO 2603281754     2603292335 TO 2603300431     "
         "2603302335 TO 2603310431     2603312014 TO 2604010110     2604011314 TO 2604011810")
    ws = expand_schedule(d, t("2603271320"), t("2604011810"))
    assert len(ws) == 6
    assert (ws[2].start, ws[2].end) == (utc(2026, 3, 29, 23, 35), utc(2026, 3, 30, 4, 31))


def test_month_days_and_year_rollover():
    ws = expand_schedule("DEC 30 31 JAN 01 02 0800-0900", t("2612290000"), t("2701050000"))
    assert [w.start.date() for w in ws] == [date(2026, 12, 30), date(2026, 12, 31), date(2027, 1, 1), date(2027, 1, 2)]
    ws = expand_schedule("30 31 01 02 1000-1100", t("2603290000"), t("2604050000"))
    assert [w.start.date() for w in ws] == [date(2026, 3, 30), date(2026, 3, 31), date(2026, 4, 1), date(2026, 4, 2)]


@pytest.mark.parametrize(
    "text,n",
    [
        ("0800-1700 MON-FRI", 5),  # days after their times
        ("MAR 16-18 DAILY 0800-1200", 3),
        ("DAILY 0800-1700 EXC 17 MAR 19 MAR", 5),  # day-first exclusions
        ("16 MAR - 18 MAR 0300-0620", 3),
        ("0800Z-1700Z", 7),
        ("0800-1700 UTC", 7),
        ("MON TO WED 0800 TO 1700", 3),
        ("0600-1800 ON MON WED", 2),
        ("MONDAY-FRIDAY 0700-0800", 5),
    ],
)
def test_more_forms(text, n):
    assert len(expand_schedule(text, t("2603160000"), t("2603230000"))) == n


def test_sunrise_sunset_sbre():
    lat, lon = -(5 + 56 / 60), -(34 + 51 / 60)  # Q-line 0556S03451W
    ws = expand_schedule("DAILY SR-SS", t("2603160825"), t("2604032025"), lat, lon)
    assert len(ws) == 19
    # the NOTAM's own B) 0825 and C) 2025 are that day's sunrise/sunset (to a few minutes)
    assert abs((ws[1].start - utc(2026, 3, 17, 8, 24)).total_seconds()) < 300
    assert abs((ws[-1].end - utc(2026, 4, 3, 20, 24)).total_seconds()) < 300


def test_sr_ss_offsets():
    lat, lon = 51.4779, 0.0
    ws = expand_schedule("SR MINUS30 - SS PLUS30", t("2603190000"), t("2603220000"), lat, lon)
    rise, sset = sun_times(date(2026, 3, 20), lat, lon)
    assert ws[1].start == rise - timedelta(minutes=30) and ws[1].end == sset + timedelta(minutes=30)
    hj = expand_schedule("HJ", t("2603190000"), t("2603220000"), lat, lon)
    assert hj[1].start == rise and hj[1].end == sset


def test_item_letter_and_long_periods():
    assert len(expand_schedule("D) DAILY 0900-1300", t("2503010900"), t("2503031300"))) == 3
    with pytest.raises(ValueError, match="longer than"):
        expand_schedule("DAILY 0900-1300", t("2503010900"), t("4503031300"))
    assert len(expand_schedule(None, t("2503010900"), t("4503031300"))) == 1


def test_sr_ss_needs_position():
    with pytest.raises(ValueError, match="position"):
        expand_schedule("DAILY SR-SS", t("2603160825"), t("2604032025"))


@pytest.mark.parametrize(
    "bad",
    ["EVERY FULL MOON", "MON-FRI", "0800-1700 EXC", "MON 27 0800-0900", "2603271320 TO", "0800-2500",
     "FEB 30 0800-0900"],
)
def test_unknown_syntax_raises(bad):
    with pytest.raises(ValueError):
        expand_schedule(bad, t("2603010000"), t("2603310000"))


def test_greenwich_sun_times_reference():
    # reference (NOAA calculator): 2026-06-21 Greenwich sunrise 03:43, sunset 20:21 UTC; equinox ~06:03/18:13
    rise, sset = sun_times(date(2026, 6, 21), 51.4779, 0.0)
    assert abs((rise - utc(2026, 6, 21, 3, 43)).total_seconds()) < 120
    assert abs((sset - utc(2026, 6, 21, 20, 21)).total_seconds()) < 120
    rise, sset = sun_times(date(2024, 1, 1), 40.7128, -74.006)  # New York 07:20 / 16:39 EST
    assert abs((rise - utc(2024, 1, 1, 12, 20)).total_seconds()) < 120
    assert abs((sset - utc(2024, 1, 1, 21, 39)).total_seconds()) < 120


def test_polar():
    assert sun_times(date(2026, 6, 21), 78.22, 15.65) == (None, None)
    assert daylight_kind(date(2026, 6, 21), 78.22, 15.65) == "polar_day"
    assert daylight_kind(date(2026, 12, 21), 78.22, 15.65) == "polar_night"
    day = expand_schedule("SR-SS", t("2606200000"), t("2606230000"), 78.22, 15.65)
    assert spans(day) == [(utc(2026, 6, 20), utc(2026, 6, 23))]
    assert expand_schedule("SR-SS", t("2612200000"), t("2612230000"), 78.22, 15.65) == []


@settings(max_examples=60, deadline=None)
@given(lat=st.floats(-60, 60), lon=st.floats(-180, 180), doy=st.integers(0, 364))
def test_sun_order_property(lat, lon, doy):
    d = date(2026, 1, 1) + timedelta(days=doy)
    rise, sset = sun_times(d, lat, lon)
    assert rise is not None and sset is not None
    assert timedelta(hours=5) < sset - rise < timedelta(hours=19)  # |lat| <= 60: 5.8 h .. 18.8 h


@settings(max_examples=60, deadline=None)
@given(h1=st.integers(0, 23), m1=st.integers(0, 59), h2=st.integers(0, 23), m2=st.integers(0, 59),
       days=st.integers(1, 20))
def test_windows_inside_period_property(h1, m1, h2, m2, days):
    start, end = utc(2026, 3, 1, 6), utc(2026, 3, 1, 6) + timedelta(days=days)
    ws = expand_schedule(f"DAILY {h1:02d}{m1:02d}-{h2:02d}{m2:02d}", start, end)
    for a, b in zip(ws, ws[1:]):
        assert a.end < b.start  # sorted, disjoint
    for w in ws:
        assert start <= w.start < w.end <= end


# ---- forms found in real published NOTAMs (realmore batch) ------------------------------------------------------


def test_dly_btn_slash_crosses_midnight_oomm():
    # OOMM A0130/26 "D) DLY BTN 1700/0300", B) 2602201700 C) 2605200300
    ws = expand_schedule("DLY BTN 1700/0300", t("2602201700"), t("2605200300"))
    assert spans(ws[:2]) == [(utc(2026, 2, 20, 17), utc(2026, 2, 21, 3)), (utc(2026, 2, 21, 17), utc(2026, 2, 22, 3))]
    assert ws[-1].end == utc(2026, 5, 20, 3) and len(ws) == 89
    # OOMM A0224/26 writes the slash with spaces
    ws = expand_schedule("DLY BTN 1700 / 0230", t("2604141700"), t("2607120230"))
    assert spans(ws[:1]) == [(utc(2026, 4, 14, 17), utc(2026, 4, 15, 2, 30))]
    assert ws[-1].end == utc(2026, 7, 12, 2, 30)


def test_between_and_from_to_and_clock_colons():
    assert spans(expand_schedule("DAILY BETWEEN 0800 AND 1700", t("2603010000"), t("2603030000"))) == [
        (utc(2026, 3, 1, 8), utc(2026, 3, 1, 17)), (utc(2026, 3, 2, 8), utc(2026, 3, 2, 17))]
    assert spans(expand_schedule("DAILY 08:00-17:00 UTC", t("2603010000"), t("2603020000"))) == [
        (utc(2026, 3, 1, 8), utc(2026, 3, 1, 17))]
    assert spans(expand_schedule("FROM 0800 TO 1700", t("2603010000"), t("2603020000"))) == [
        (utc(2026, 3, 1, 8), utc(2026, 3, 1, 17))]
    # "AND" between two bare times is a separator, not a range, without BTN/BETWEEN
    with pytest.raises(ValueError):
        expand_schedule("DAILY 0800 AND 1700", t("2603010000"), t("2603030000"))


def test_faa_dly_with_local_restatement_fdc_4_3473():
    # FDC 4/3473: "EFFECTIVE 2402140200 UTC ... UNTIL 2402201400 UTC ... DLY 0200-1400 (2000-0800 LOCAL)."
    ws = expand_schedule("DLY 0200-1400 (2000-0800 LOCAL).", t("2402140200"), t("2402201400"))
    assert len(ws) == 7
    assert spans(ws[:1]) == [(utc(2024, 2, 14, 2), utc(2024, 2, 14, 14))]
    assert spans(ws[-1:]) == [(utc(2024, 2, 20, 2), utc(2024, 2, 20, 14))]


def test_day_to_day_ranges_rkrr_d0822():
    # RKRR D0822/26, B) 2604192300 C) 2604240700 (the message wraps "23   0000-1300")
    d = "19 2300-20 0700, 21 0000-1300 2300-2359, 22 0000-0700, 23   0000-1300 2300-2359, 24 0000-0700"
    ws = expand_schedule(d, t("2604192300"), t("2604240700"))
    # "2300-2359, 22 0000-0700": 2359 is the day's end, so the night is one window 2300-0700
    assert spans(ws) == [
        (utc(2026, 4, 19, 23), utc(2026, 4, 20, 7)),
        (utc(2026, 4, 21, 0), utc(2026, 4, 21, 13)), (utc(2026, 4, 21, 23), utc(2026, 4, 22, 7)),
        (utc(2026, 4, 23, 0), utc(2026, 4, 23, 13)), (utc(2026, 4, 23, 23), utc(2026, 4, 24, 7)),
    ]


def test_day_to_day_ranges_with_months_either_side():
    assert spans(expand_schedule("MAR 30 2300 - APR 02 0500", t("2603010000"), t("2604050000"))) == [
        (utc(2026, 3, 30, 23), utc(2026, 4, 2, 5))]
    assert spans(expand_schedule("29 SEP 2200-30 SEP 0400", t("2609010000"), t("2610050000"))) == [
        (utc(2026, 9, 29, 22), utc(2026, 9, 30, 4))]
    # a day number lower than the last one rolls into the next month
    assert spans(expand_schedule("30 2300-01 0500", t("2609010000"), t("2610050000"))) == [
        (utc(2026, 9, 30, 23), utc(2026, 10, 1, 5))]
    with pytest.raises(ValueError, match="backwards"):
        expand_schedule("APR 02 0500 - MAR 30 2300", t("2603010000"), t("2604050000"))


def test_sunrise_sunset_words():
    ws = expand_schedule("DAILY SUNRISE-SUNSET", t("2606210000"), t("2606220000"), 51.47, -0.46)
    assert len(ws) == 1 and ws[0].start.hour == 3 and ws[0].end.hour == 20  # London midsummer, UTC


def test_exc_days_before_the_times_weekdays_and_plural_days():
    a, b = t("2603020000"), t("2603160000")  # Mon 2 .. Mon 16 March 2026
    ws = expand_schedule("DAILY EXC SUN 0800-1700", a, b)
    assert len(ws) == 12 and all(w.start.weekday() != 6 for w in ws)
    assert spans(expand_schedule("WEEKDAYS 0800-1700", a, b)) == spans(expand_schedule("MON-FRI 0800-1700", a, b))
    assert [w.start.day for w in expand_schedule("SUNDAYS 0800-1200", a, b)] == [8, 15]
    ws = expand_schedule("DAILY EXC SUN 0800-1700 EXC MON", a, b)  # two EXC lists add up
    assert len(ws) == 10 and all(w.start.weekday() not in (0, 6) for w in ws)
    assert spans(expand_schedule("MAR 03 TIL MAR 05 0800-1600", a, b))[-1] == (utc(2026, 3, 5, 8), utc(2026, 3, 5, 16))
    assert spans(expand_schedule("0800UTC-1700UTC", a, t("2603030000"))) == [(utc(2026, 3, 2, 8), utc(2026, 3, 2, 17))]


def test_sun_offsets_written_with_signs():
    a, b = t("2603020000"), t("2603030000")
    signed = expand_schedule("SR-30 - SS+30", a, b, 50.0, 10.0)
    spelled = expand_schedule("SR MINUS30-SS PLUS30", a, b, 50.0, 10.0)
    assert spans(signed) == spans(spelled)
    plain = expand_schedule("SR-SS", a, b, 50.0, 10.0)
    assert signed[0].start == plain[0].start - timedelta(minutes=30)
    # "SR-2300" is sunrise to 23:00, not sunrise minus 2300 minutes
    assert expand_schedule("SR-2300", a, b, 50.0, 10.0)[0].end == utc(2026, 3, 2, 23)


def test_chinese_daily_schedule_in_beijing_time():
    bj = timedelta(hours=8)
    a, b = utc(2024, 9, 9, 16), utc(2024, 9, 12, 16)  # 2024-09-10 00:00 .. 09-13 00:00 Beijing
    ws = expand_schedule("每日8时至18时", a, b, local_offset=bj)
    assert spans(ws) == [(utc(2024, 9, d, 0), utc(2024, 9, d, 10)) for d in (10, 11, 12)]
    assert spans(expand_schedule("每天08:00-18:00", a, b, local_offset=bj)) == spans(ws)
    ws = expand_schedule("每日8时30分至11时30分、14时至17时", a, b, local_offset=bj)
    assert spans(ws[:2]) == [(utc(2024, 9, 10, 0, 30), utc(2024, 9, 10, 3, 30)), (utc(2024, 9, 10, 6), utc(2024, 9, 10, 9))]
    ws = expand_schedule("每日20时至次日6时", a, b, local_offset=bj)  # crosses local midnight
    assert spans(ws[1:2]) == [(utc(2024, 9, 10, 12), utc(2024, 9, 10, 22))]
    assert [w.start.day for w in expand_schedule("周一至周五9时至17时", utc(2024, 9, 13, 16), utc(2024, 9, 17, 16),
                                                  local_offset=bj)] == [16, 17]  # Sat 14, Sun 15 skipped
    assert spans(expand_schedule("9月10日、9月12日8时至12时", a, b, local_offset=bj)) == [
        (utc(2024, 9, 10, 0), utc(2024, 9, 10, 4)), (utc(2024, 9, 12, 0), utc(2024, 9, 12, 4))]
    with pytest.raises(ValueError, match="sunrise"):
        expand_schedule("DAILY SR-SS", a, b, 22.0, 113.0, local_offset=bj)


def test_holidays_are_not_known_so_the_windows_are_a_superset():
    # Doc 8126 D-item forms with public holidays: EXC HOL excludes nothing (the holidays stay in), a HOL day
    # selector applies its times to every day; holiday_note gives the review reason for either
    from airspace.parser.schedule import holiday_note

    a, b = t("2603020000"), t("2603082359")  # Mon 2 .. Sun 8 March 2026
    exc = expand_schedule("MON-FRI 0700-1500 EXC HOL", a, b)
    assert spans(exc) == [(utc(2026, 3, d, 7), utc(2026, 3, d, 15)) for d in range(2, 7)]
    assert spans(expand_schedule("0800-1700 EXC SAT, SUN AND HOL", a, b)) == [
        (utc(2026, 3, d, 8), utc(2026, 3, d, 17)) for d in range(2, 7)]
    assert "EXC HOL" in holiday_note("MON-FRI 0700-1500 EXC HOL")
    assert "EXC HOL" in holiday_note("MON-FRI 0700-2100 EXC PUBLIC HOLIDAYS")
    both = expand_schedule("MON-FRI 0700-1500, SAT SUN HOL 0900-1200", a, b)
    assert spans(both) == ([(utc(2026, 3, d, 7), utc(2026, 3, d, 15)) for d in range(2, 7)]
                           + [(utc(2026, 3, d, 9), utc(2026, 3, d, 12)) for d in (7, 8)])
    assert "applied to every day" in holiday_note("SAT SUN HOL 0900-1200")
    assert holiday_note("MON-FRI 0700-1500") is None and holiday_note(None) is None


def test_day_to_day_span_written_with_til_or_until():
    a, b = t("2603010000"), t("2603312359")
    assert spans(expand_schedule("12 0800 TIL 13 1600, 14 0800-1600", a, b)) == [
        (utc(2026, 3, 12, 8), utc(2026, 3, 13, 16)), (utc(2026, 3, 14, 8), utc(2026, 3, 14, 16))]
    assert spans(expand_schedule("MAR 12 0800 UNTIL MAR 13 1600", a, b)) == [(utc(2026, 3, 12, 8), utc(2026, 3, 13, 16))]


def test_weekday_to_weekday_windows_and_dates_restricted_to_weekdays():
    a, b = t("2603010000"), t("2603222359")  # Sun 1 .. Sun 22 March 2026
    assert spans(expand_schedule("FRI 1800-MON 0600", a, b)) == [
        (utc(2026, 3, 6, 18), utc(2026, 3, 9, 6)), (utc(2026, 3, 13, 18), utc(2026, 3, 16, 6)),
        (utc(2026, 3, 20, 18), b)]
    assert spans(expand_schedule("FRI 1800-MON 0600 EXC MAR 13", a, b))[1] == (utc(2026, 3, 20, 18), b)
    assert spans(expand_schedule("MAR 09-20 MON WED 0800-1000", a, b)) == [
        (utc(2026, 3, d, 8), utc(2026, 3, d, 10)) for d in (9, 11, 16, 18)]
    assert spans(expand_schedule("EVERY MON 0700-1200", a, b)) == [
        (utc(2026, 3, d, 7), utc(2026, 3, d, 12)) for d in (2, 9, 16)]
