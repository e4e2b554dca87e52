"""Dates as notices outside the ICAO feeds write them (issue 44, form 3), in the rules reader, on train rows of the
world set cited by id, each beside synthetic variants: Taiwan's Republic years and foot ceilings, English day
ranges that write the month once, a Chinese clock on "the event's day", and a start day without its month dated by
a news page's release line. Test rows of the world set are never read here.
"""

from __future__ import annotations

import pytest
from world_rows import utc as _t
from world_rows import world_text as _world

from airspace.parser.endates import DAY_LIST, DAY_RANGE, day_range_spans, read_en_time
from airspace.parser.times import message_year, parse_time
from airspace.parser.units import parse_limit
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message


def _one(text: str):
    recs, _ = process_batch([Message(0, text)], "rules")
    assert len(recs) == 1, [(r.status, r.reasons) for r in recs]
    return recs[0]


# --- Taiwan: 民國 years, a ceiling "from the ground, not exceeding 400 ft" -----------------------------------------


def test_taiwan_notice_republic_years_and_foot_ceiling():
    """train ``drone-caa:drone-caa-chiayi-cgmh-2024``: ``禁止時間自113年7月19日起至113年12月31日止`` is 2024-07-19 to
    the end of 2024-12-31 (Taiwan time, UTC+8) and ``距地表高度不逾400呎`` a ceiling of 400 ft above the ground."""
    rec = _one(_world("drone-caa:drone-caa-chiayi-cgmh-2024"))
    assert (rec.start, rec.end) == (_t("2024-07-18T16:00Z"), _t("2024-12-31T16:00Z"))
    assert (rec.upper.ref, rec.upper.ft) == ("AGL", 400.0)
    assert not any("has no year" in r for r in rec.reasons), rec.reasons  # the year is written, in another era


def test_republic_year_is_read_only_as_a_date():
    assert parse_time("民國113年7月19日").dt == _t("2024-07-18T16:00Z")
    assert parse_time("112年1月5日8时").dt == _t("2023-01-05T00:00Z")
    assert message_year("發文日期:113年7月23日") == 2024
    assert message_year("成立113年来，7月") is None  # a count of years is no date: no month follows it
    recs, _ = process_batch([Message(0, "公告：本区域自113年起禁止无人机飞行。")], "rules")
    assert all(r.start is None for r in recs)


def test_chinese_heights_from_the_ground_and_in_feet():
    assert (parse_limit("距地表高度不逾400呎").ref, parse_limit("距地表高度不逾400呎").ft) == ("AGL", 400.0)
    assert parse_limit("離地高度120公尺").ref == "AGL"
    lim = parse_limit("高度不超过150米")
    assert (lim.ref, lim.m) == ("AMSL", 150.0)  # a height with no reference word stays above sea level, as before
    assert parse_limit("真高500英呎").ft == 500.0


# --- English: days of one month written with the month once ------------------------------------------------------


def test_english_day_range_with_the_month_once():
    """train ``ph-pna:asean-2017-b4588-b4593``: ``from November 9 to 17, 2017`` is 9 to 17 November 2017, whole days
    in Manila's time (UTC+8), read for review (inferred from the places the text names)."""
    recs, _ = process_batch([Message(0, _world("ph-pna:asean-2017-b4588-b4593"))], "rules")
    assert len(recs) == 2
    for rec in recs:
        assert (rec.start, rec.end) == (_t("2017-11-08T16:00Z"), _t("2017-11-17T16:00Z"))
        assert rec.status == "review"
        assert any("month November from the period" in r for r in rec.reasons), rec.reasons


@pytest.mark.parametrize(("pattern", "text", "want"), [
    (DAY_RANGE, "held between 16-18 March 2018 in Sydney", ("16", "18 March 2018")),
    (DAY_RANGE, "during the period 3-5 September 2014 the", ("3", "5 September 2014")),
    (DAY_RANGE, "from November 9 to 17, 2017 in Manila", ("November 9", "17, 2017")),
    (DAY_RANGE, "3 to 5th September", ("3", "5th September")),
    # days listed in one phrase: the first and the last
    (DAY_LIST, "on January 31, February 1 and 2 from 10 a.m.", ("January 31", "2")),
    (DAY_LIST, "on September 7 and 8, 2024 from 9 a.m. to 5 p.m.", ("September 7", "8, 2024")),
    (DAY_LIST, "on September 7, 8, and 9", ("September 7", "9")),
    (DAY_LIST, "on May 3 & May 10", ("May 3", "May 10")),
])
def test_day_range_and_list_forms(pattern, text, want):
    m = pattern.search(text)
    assert m is not None, text
    assert tuple(text[a:b] for a, b in day_range_spans(m)) == want


@pytest.mark.parametrize(("pattern", "text"), [
    *((DAY_RANGE, t) for t in ("DAILY 0046Z TO 0532Z 25 THRU 31 MAR", "on January 31, February 1 and 2 from 10 a.m.",
                               "November 9 to 17:00", "from 16 to 18:30 hrs", "on 2017-11-09 to 17 March",
                               "March 3 to 5 pm")),
    *((DAY_LIST, t) for t in ("on May 3 and 8 pm", "May 3 and 4 March", "on May 3, 2024", "May 3 and 10:30")),
])
def test_day_range_and_list_non_forms(pattern, text):
    assert pattern.search(text) is None


def test_days_listed_in_a_zones_clause_are_its_period():
    """train ``dronebelow:super-bowl-liii-2019``: the one-mile ban "on January 31, February 1 and 2 from 10 a.m. to
    11:59 p.m. Eastern Time" runs from the first day listed to the last (it read the first day alone), each end
    taking the month written before it."""
    recs, _ = process_batch([Message(0, _world("dronebelow:super-bowl-liii-2019"))], "rules")
    mile = next(r for r in recs if r.geometry.radius_m == 1852.0)
    assert (mile.start, mile.end) == (_t("2019-01-31T15:00Z"), _t("2019-02-03T04:59Z"))
    assert mile.status == "review"
    # (the list's own forms: test_day_range_and_list_forms)
    assert read_en_time("2", "", before="on January 31, February 1 and ", after=", 2019").day.isoformat() == "2019-02-02"
    assert read_en_time("9", "", before="on September 7, 8, and ", after=", 2024").day.isoformat() == "2024-09-09"


def test_an_end_written_with_its_clock_is_that_instant_and_the_start_unstated():
    """train ``flyer:stratford-2006-06`` ("… until 0900 UTC on Tuesday 6th June"): the end is 6 June 2006 09:00Z and
    no start is written (the whole day was read for both); ``visahq:dublin-t3-2025`` ("expired at 06:00 on 3
    December", its page dated 4 December 2025) with that day as the batch's reference date: 3 December 06:00."""
    (rec,) = process_batch([Message(0, _world("flyer:stratford-2006-06"))], "rules")[0]
    assert (rec.start, rec.end) == (None, _t("2006-06-06T09:00Z"))
    from datetime import date

    (rec,) = process_batch([Message(0, _world("visahq:dublin-t3-2025"))], "rules", reference=date(2025, 12, 4))[0]
    assert (rec.start, rec.end, rec.status) == (None, _t("2025-12-03T06:00Z"), "review")
    # hours written before it are never its end ("from 2:00pm until 9:00pm on July 22": test_parser_paragraphs)


def test_a_clock_and_its_day_without_a_zone_are_local_never_utc():
    """A 24-hour clock written with its day and no zone mark ("from 06:00 on 3 December 2025") was read as UTC and
    the zone dispatchable: at a New York position that is five hours off. It is the position's clock, for review;
    marked UTC it stays UTC and `ok`."""
    text = ("Drones are banned within 1 NM of 404700N0735800W from 06:00{z} on 3 December 2025 to 18:00{z} on "
            "4 December 2025, surface to 400 FT AGL.")
    (rec,) = process_batch([Message(0, text.format(z=""))], "rules")[0]
    assert (rec.start, rec.end, rec.status) == (_t("2025-12-03T11:00Z"), _t("2025-12-04T23:00Z"), "review")
    assert any("America/New_York" in r for r in rec.reasons)
    (rec,) = process_batch([Message(0, text.format(z=" UTC"))], "rules")[0]
    assert (rec.start, rec.end, rec.status) == (_t("2025-12-03T06:00Z"), _t("2025-12-04T18:00Z"), "ok")
    day_first = "Drones are banned within 1 NM of 404700N0735800W from 3 December 2025 06:00 to 4 December 2025 18:00."
    (rec,) = process_batch([Message(0, day_first)], "rules")[0]
    assert (rec.start, rec.status) == (_t("2025-12-03T11:00Z"), "review")


def test_bare_day_takes_its_partners_month():
    t = read_en_time("16", "", after="-18 March 2018 in Sydney")
    assert (t.day.isoformat(), t.taken[0]) == ("2018-03-16", "month March from the period")
    t = read_en_time("17, 2017", "", before="held from November 9 to ")
    assert t.day.isoformat() == "2017-11-17"
    with pytest.raises(ValueError, match="no month"):  # a day with no month beside it
        read_en_time("17", "", after=" people", before="in the 9 ")


# --- Chinese: a clock on the event's day; a day dated by the page's release line ---------------------------------


def test_event_day_window_takes_the_day_the_event_is_held():
    """train ``cn-yichang-concert-2023-07-08``: ``将于2023年7月8日在…举行`` then ``活动当日17时至23时``: 17:00-23:00 Beijing
    time on 8 July 2023, said to be inferred."""
    rec = _one(_world("cn-yichang-concert-2023-07-08"))
    assert (rec.start, rec.end) == (_t("2023-07-08T09:00Z"), _t("2023-07-08T15:00Z"))
    assert any("the notice says the event is held on" in r for r in rec.reasons), rec.reasons


def test_event_day_needs_one_day_held():
    head = "关于禁止无人机飞行的通告\n某市马拉松将于2024年3月2日在市体育中心举行。"
    window = "活动当天7时至13时，市体育中心周边1公里范围内禁止无人机飞行。"
    rec = _one(head + window)
    assert (rec.start, rec.end) == (_t("2024-03-01T23:00Z"), _t("2024-03-02T05:00Z"))
    # two events on two days: which day "当天" is cannot be known, and no start is taken
    two = head + "闭幕式将于2024年3月3日在市体育中心举行。" + window
    rec = _one(two)
    assert rec.start is None and rec.status == "review"


def test_start_day_dated_by_the_pages_release_line():
    """train ``ihouhe:ihouhe-beijing-2022``: ``19日起至10月31日24时`` under ``发布时间:2022-09-20``: from 19 September
    2022 (the release line's month) to the end of 31 October, Beijing time."""
    rec = _one(_world("ihouhe:ihouhe-beijing-2022"))
    assert (rec.start, rec.end) == (_t("2022-09-18T16:00Z"), _t("2022-10-31T16:00Z"))
    assert any("2022-09 from the notice's date" in r for r in rec.reasons), rec.reasons
    undated = "19日起至10月31日24时，在本市行政区域内禁止无人机飞行。"
    assert _one(undated).start is None  # no month for the 19th anywhere: never guessed


def test_weekday_names_the_year_among_those_written():
    """train ``ae-eastcoastdaily:dubai-airshow-2019``: ``between Wednesday, November 13 to Thursday, November 21`` in
    an item with no dated line, which writes "Dubai Airshow 2019": 13 November is a Wednesday in 2019 (and not in
    any other year the text writes): 13-21 November 2019, whole days in Dubai's time (UTC+4)."""
    rec = _one(_world("ae-eastcoastdaily:dubai-airshow-2019"))
    assert (rec.start, rec.end) == (_t("2019-11-12T20:00Z"), _t("2019-11-21T20:00Z"))
    assert rec.status == "review"
    text = "Drones are banned on Wednesday, November 13 near the stadium (opened 2019, rebuilt 2024)."
    with pytest.raises(ValueError, match="2 years"):  # 13 November is a Wednesday in 2019 and in 2024: which is not known
        read_en_time("Wednesday, November 13", text)
    assert read_en_time("Wednesday, November 13", text.replace("2024", "2023")).day.isoformat() == "2019-11-13"


def test_day_range_month_once_is_english_even_where_german_spells_the_month_alike():
    """train ``rcha:nato-summit-newport-2014`` writes ``during the period 3-5 September 2014``: whole days in the
    zone's own time (London, BST), not the UTC whole days a German "3.-5. September" would be read as."""
    assert DAY_RANGE.search(_world("rcha:nato-summit-newport-2014")) is not None
    text = ("Restriction of flying: no drone may be flown within 2 km of 513518N 0025955W during the period "
            "3-5 September 2014.")
    rec = _one(text)
    assert rec.geometry is not None
    assert (rec.start, rec.end) == (_t("2014-09-02T23:00Z"), _t("2014-09-05T23:00Z"))
    assert rec.status == "review"  # an English whole day is a reading a person checks


def test_places_labelled_as_such_each_with_its_own_period():
    """train ``bg3:bg3-fuding-yellowcroaker-2024``: ``1.…禁飛時間:11月23日18:00-22:00,地點:福鼎市體育中心;
    2.…禁飛時間:11月22日-11月26日16:00-23:00,地點:桐山溪畔東西岸(江濱橋至彩虹橋)``: two zones, each the place after
    its label (never "保障遊客", a clause about keeping visitors safe), each with the period written before it; the
    second's hours are attached to its days: from 16:00 on the 22nd to 23:00 on the 26th, those hours daily."""
    recs, _ = process_batch([Message(0, _world("bg3:bg3-fuding-yellowcroaker-2024"))], "rules")
    assert [r.geometry.name for r in recs] == ["福鼎市體育中心", "桐山溪畔東西岸(江濱橋至彩虹橋)"]
    assert (recs[0].start, recs[0].end) == (_t("2024-11-23T10:00Z"), _t("2024-11-23T14:00Z"))
    assert (recs[1].start, recs[1].end) == (_t("2024-11-22T08:00Z"), _t("2024-11-26T15:00Z"))
    assert [(w.start.day, w.start.hour, w.end.hour) for w in recs[1].windows] == [(d, 8, 15) for d in range(22, 27)]


def test_days_then_hours_in_one_chinese_phrase():
    rec = _one("关于禁飞的通告\n2024年11月22日-11月26日16:00-23:00，市体育中心周边1公里范围内禁止无人机飞行。")
    assert (rec.start, rec.end, rec.schedule) == (_t("2024-11-22T08:00Z"), _t("2024-11-26T15:00Z"), "16:00-23:00")
    # a daily window in words keeps whole days (the days are the period, the window the hours within each)
    rec = _one("关于禁飞的通告\n2024年6月6日至6月10日(每日8时至18时)，市体育中心周边1公里范围内禁止无人机飞行。")
    assert (rec.start, rec.end) == (_t("2024-06-05T16:00Z"), _t("2024-06-10T16:00Z"))


def test_hours_to_midnight_two_paragraphs_after_the_day():
    """train ``thesouthafrican:sona-2023-city-hall``: ``on Thursday, 09 February 2023`` in the lead, ``between 13:00 to
    midnight`` in a quote two paragraphs on: 13:00 to 24:00 in Cape Town's time (UTC+2), for review."""
    rec = _one(_world("thesouthafrican:sona-2023-city-hall"))
    assert (rec.start, rec.end) == (_t("2023-02-09T11:00Z"), _t("2023-02-09T22:00Z"))
    assert rec.geometry.name == "Cape Town City Hall" and rec.geometry.radius_m == 1.5 * 1852


def test_flights_banned_over_a_named_area():
    """train ``outlookindia:g20-nct-delhi``: ``… aerial platforms … over the jurisdiction of the NCT of Delhi is declared
    prohibited``; train ``visahq:dublin-t3-2025``: ``prohibition on … drone operations across Dublin’s Control
    Zone``: the named area is the zone."""
    assert _one(_world("outlookindia:g20-nct-delhi")).geometry.name == "NCT of Delhi"
    assert _one(_world("visahq:dublin-t3-2025")).geometry.name == "Dublin’s Control Zone"
    recs, _ = process_batch([Message(0, "Police banned drone flights over Hyde Park and Green Park on Sunday.")], "rules")
    assert [r.geometry.name for r in recs] == ["Hyde Park", "Green Park"]
    recs, _ = process_batch([Message(0, "Drone flights over Hyde Park were popular last summer.")], "rules")
    assert all(r.geometry is None for r in recs)  # no ban, no zone


@pytest.mark.parametrize("window", [
    "142158Z MAR 24 TO 150325Z MAR 24", "14 MAR 24 AT 2158Z TO 15 MAR 24 AT 0325Z", "14 MAR 2024 2158Z TO 15 MAR 2024 0325Z",
    "2158Z 14 MAR 24 - 0325Z 15 MAR 24",
])
def test_a_period_of_days_marked_utc_as_maritime_messages_write_it(window):
    """train ``ro-lrbb-sample:1096`` (an area bounded by points, as item E writes it) with its period written as
    launch-hazard and maritime messages write one: day-time groups with month and year, or a day with a two-digit
    year and a clock marked Z: UTC by the Z."""
    rec = _one(_world("ro-lrbb-sample:1096") + f"\nLAUNCH WINDOW: {window}.")
    assert (rec.start, rec.end) == (_t("2024-03-14T21:58Z"), _t("2024-03-15T03:25Z"))
    # a two-digit year without the UTC mark is no date
    assert parse_time("14 MAR 24 2158Z").dt == _t("2024-03-14T21:58Z")
    with pytest.raises(ValueError):
        parse_time("14 MAR 24 2158")
