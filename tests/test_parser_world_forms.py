"""The general forms of issue 44 in the rules reader, on real rows of ``data/real/`` (train/val rows of the world set,
archive rows) cited by id, each beside synthetic variants so that the reader is tested as a grammar of the layout and
not as a lookup of one message. Test rows of the world set are never read here.
"""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from world_rows import PIB_VARIANT
from world_rows import archive_text as _archive
from world_rows import drawn_records as _records
from world_rows import utc as _t
from world_rows import world_text as _world

from airspace.core.records import NM_TO_M
from airspace.parser.header import parse_header
from airspace.parser.places import clause_fragment
from airspace.parser.rules import rules_zones
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

UTC = timezone.utc


# --- form 2 + 3: several areas, each with its own period; month and year from the warning's own stamp ----------


def test_navwarn_lettered_areas_share_the_items_period_with_alternates():
    """val ``marlin-nga:NAVAREA IV 418/23``: ``191218Z TO 191647Z APR, ALTERNATE … 250947Z TO 251416Z APR IN AREAS
    BOUND BY: A. … B. …``: both areas run from the first group to the last alternate; the year is the stamp's."""
    recs = _records(_world("marlin-nga:NAVAREA IV 418/23"))
    assert [len(r.geometry.points) for r in recs] == [6, 6]
    assert recs[0].geometry.points[0] == pytest.approx((28 + 38.47 / 60, -(80 + 37.31 / 60)))
    assert recs[1].geometry.points[0] == pytest.approx((26 + 26 / 60, -76.0))
    for r in recs:
        assert (r.start, r.end) == (_t("2023-04-19T12:18Z"), _t("2023-04-25T14:16Z"))
        assert any("year 2023 from the notice's stamp '251516Z APR 23'" in w for w in r.inferred)
        assert any(x.startswith("note: start '191218Z': month APR from the period") for x in r.reasons)


def test_navwarn_each_lettered_area_with_its_own_daily_window_in_a_web_copy():
    """val ``jx-nga:NAVAREA IV 656/18`` (HTML ``<br>`` between vertices): areas B and C each state their own window
    (``2020Z TO 2151Z DAILY 21 AUG THRU 20 SEP``, ``2110Z TO …``)."""
    recs = _records(_world("jx-nga:NAVAREA IV 656/18"))
    assert [len(r.geometry.points) for r in recs] == [4, 4]
    assert recs[0].geometry.points[0] == pytest.approx((19 + 20 / 60, -(53 + 39 / 60)))
    assert recs[1].geometry.points[-1] == pytest.approx((5 + 12.6 / 60, -(52 + 40.98 / 60)))
    assert [(r.start, r.end, r.schedule) for r in recs] == [
        (_t("2018-08-21T20:20Z"), _t("2018-09-20T21:51Z"), "2020Z TO 2151Z"),
        (_t("2018-08-21T21:10Z"), _t("2018-09-20T21:51Z"), "2110Z TO 2151Z"),
    ]
    assert len(recs[0].windows) == 31 and recs[0].windows[0].end == _t("2018-08-21T21:51Z")


def test_navwarn_numbered_items_each_with_their_own_window():
    """val ``marlin-nga:NAVAREA IV 387/23``: item 1 (rocket launching, 1025Z) and item 2 (space debris, 1155Z)
    ``DAILY 17 THRU 21 APR``: the day's month comes from the end of the phrase."""
    recs = _records(_world("marlin-nga:NAVAREA IV 387/23"))
    assert [len(r.geometry.points) for r in recs] == [11, 19]
    assert [r.start for r in recs] == [_t("2023-04-17T10:25Z"), _t("2023-04-17T11:55Z")]
    assert [r.end for r in recs] == [_t("2023-04-21T16:10Z")] * 2


def test_navwarn_window_across_midnight_ends_the_next_day():
    """val ``jx-nga:HYDROPAC 2998/18``: ``2326Z TO 0043Z COMMENCING DAILY 21 AUG THRU 20 SEP``."""
    (r,) = _records(_world("jx-nga:HYDROPAC 2998/18"))
    assert (r.start, r.end) == (_t("2018-08-21T23:26Z"), _t("2018-09-21T00:43Z"))


def test_navwarn_item_period_before_its_lettered_areas_in_the_archive():
    """archive ``HYDROPAC 838/26(76)``: ``0700Z TO 1100Z\\n DAILY 24 MAR THRU 06 APR: A. … B. …``, year from
    ``190050Z MAR 26``; ``NAVAREA IV 268/26``: ``261122Z … 011536Z APR`` across the month end."""
    recs = _records(_archive("HYDROPAC 838/26(76)"))
    assert [len(r.geometry.points) for r in recs] == [7, 4]
    assert {(r.start, r.end) for r in recs} == {(_t("2026-03-24T07:00Z"), _t("2026-04-06T11:00Z"))}
    recs = _records(_archive("NAVAREA IV 268/26"))
    assert {(r.start, r.end) for r in recs} == {(_t("2026-03-26T11:22Z"), _t("2026-04-01T15:36Z"))}


def test_navwarn_an_area_under_way_has_its_own_end_and_no_start():
    """Synthetic: area B is ``IN PROGRESS UNTIL 14 FEB``: its own end (the whole day), never area A's period."""
    text = ("080650Z JAN 24\nNAVAREA IV 730/24.\nWESTERN NORTH ATLANTIC.\n1. HAZARDOUS OPERATIONS, SPACE DEBRIS\n"
            "   A. 0313Z TO 0451Z DAILY 19 THRU 23 JAN\n      IN AREA BOUND BY\n"
            "      40-53.00N 073-28.00W, 39-40.00N 069-46.00W, 37-05.00N 067-57.00W.\n"
            "   B. IN PROGRESS UNTIL 14 FEB\n      IN AREA BOUND BY\n"
            "      37-52.00N 068-25.00W, 38-58.00N 068-53.00W, 38-50.00N 070-33.00W.\n"
            "2. CANCEL THIS MSG 150001Z FEB 24.\n")
    a, b = _records(text)
    assert (a.start, a.end, a.schedule) == (_t("2024-01-19T03:13Z"), _t("2024-01-23T04:51Z"), "0313Z TO 0451Z")
    assert (b.start, b.end) == (None, _t("2024-02-14T23:59Z")) and b.status == "review"


def test_navwarn_days_alone_are_whole_days_and_a_year_turns_over():
    """Synthetic: days alone (whole days), and a warning stamped in late December for early January."""
    text = ("CARIBBEAN SEA.\n1. UNDERWATER OPERATIONS 30 DEC THRU 03 JAN\n   IN AREA BOUND BY\n"
            "   10-00.00N 060-00.00W, 10-00.00N 061-00.00W,\n   11-00.00N 061-00.00W.\n"
            "2. CANCEL THIS MSG 040001Z JAN 25.\n")
    (r,) = _records(text)
    assert (r.start, r.end) == (_t("2024-12-30T00:00Z"), _t("2025-01-03T23:59Z"))
    assert any("the whole day" in w for w in r.inferred)
    # the same period with no stamp anywhere: no year to take, so no time is made up
    (r,) = _records(text.replace("2. CANCEL THIS MSG 040001Z JAN 25.\n", ""))
    assert r.start is None and r.status == "review"


def test_numbered_area_blocks_with_limits_before_their_boundaries():
    """Synthetic ICAO item E: ``1. AREA 1 / LOWER/UPPER LIMITS: FL060 / FL170 / LATERAL LIMITS: …``: each area keeps
    its own limits even when they are written before its boundary (the next area's are not its own)."""
    text = ("(A0124/24 NOTAMN\nQ) VABF/QRTCA/IV/BO/W/000/170/1900N07300E050\nA) VABF B) 2403010330 C) 2403011130\n"
            "E) TEMPORARY RESTRICTED AREAS ACTIVATED:\n1. AREA 1\nLOWER/UPPER LIMITS: FL060 / FL170\n"
            "LATERAL LIMITS: 185000N0724500E 190500N0731000E 184000N0732000E 185000N0724500E\n2. AREA 2\n"
            "LOWER/UPPER LIMITS: GND / FL090\n"
            "LATERAL LIMITS: 191000N0725000E 192000N0731500E 190000N0732500E 191000N0725000E\nF) GND G) FL170)")
    assert [(z["lower"], z["upper"]) for z in rules_zones(text)] == [("FL060", "FL170"), ("GND", "FL090")]
    after = text.replace("1. AREA 1\nLOWER/UPPER LIMITS: FL060 / FL170\nLATERAL LIMITS: 185000N0724500E "
                         "190500N0731000E 184000N0732000E 185000N0724500E",
                         "AREA A: 185000N0724500E 190500N0731000E 184000N0732000E 185000N0724500E FL060-FL170")
    after = after.replace("2. AREA 2", "AREA B:")
    assert [(z["lower"], z["upper"]) for z in rules_zones(after)] == [("FL060", "FL170"), ("GND", "FL090")]


def test_chinese_list_of_venues_each_with_its_own_days_and_daily_window():
    """Synthetic: ``（一）X周边3公里，6月7日至9日每日8时至18时；（二）…``: one zone per venue with its own radius, days and
    window (the year from the heading)."""
    text = ("关于2024年全民运动会期间无人机临时禁飞的通告\n运动会期间，对以下场馆实施临时管控：\n"
            "（一）体育中心周边3公里，6月7日至9日每日8时至18时；\n（二）会展中心周边2公里，6月10日至12日每日9时至17时；\n"
            "（三）奥体公园周边1公里，6月13日至14日每日7时至20时。\n某市公安局 2024年6月1日")
    recs = _records(text)
    assert [(r.geometry.name, r.geometry.radius_m, r.schedule) for r in recs] == [
        ("体育中心", 3000.0, "每日8时至18时"), ("会展中心", 2000.0, "每日9时至17时"), ("奥体公园", 1000.0, "每日7时至20时")]
    assert [(r.start, r.end) for r in recs] == [
        (_t("2024-06-06T16:00Z"), _t("2024-06-09T16:00Z")), (_t("2024-06-09T16:00Z"), _t("2024-06-12T16:00Z")),
        (_t("2024-06-12T16:00Z"), _t("2024-06-14T16:00Z"))]
    assert all(any("2024 taken from the notice" in w for w in r.inferred) for r in recs)


def test_chinese_days_without_a_month_take_the_notices_own_date():
    """Synthetic: ``26日至30日的每日8时至18时`` in a notice dated ``2024年9月20日``: September 2024, said as inferred;
    dated after the days (``2024年9月28日`` for ``5日至8日``): the next month."""
    text = ("关于无人机临时禁飞的通告\n26日至30日的每日8时至18时，在体育中心周边3公里范围内禁止无人机飞行。\n"
            "某市公安局\n2024年9月20日")
    (r,) = _records(text)
    assert (r.start, r.end) == (_t("2024-09-25T16:00Z"), _t("2024-09-30T16:00Z"))
    assert any("2024-09 from the notice's date '2024年9月20日'" in w for w in r.inferred)
    (r,) = _records(text.replace("26日至30日", "5日至8日").replace("9月20日", "9月28日"))
    assert (r.start, r.end) == (_t("2024-10-04T16:00Z"), _t("2024-10-08T16:00Z"))


def test_a_chinese_day_without_hours_is_the_whole_day_of_the_ban_or_of_the_event():
    """World train row hk-meetinghk:victoria-harbour-tra-2025: the flight display "於3月30日(周日)下午進行", the
    restricted area set up for it in the next paragraph; the year from the page's stamp ``2025-03-26 13:44``."""
    (r,) = _records(_world("hk-meetinghk:victoria-harbour-tra-2025"))
    assert (r.start, r.end) == (_t("2025-03-29T16:00Z"), _t("2025-03-30T16:00Z"))
    assert any("2025 from the page's date '2025-03-26'" in w for w in r.inferred)
    ban = "人民广场周边500米范围内禁止无人机飞行。"
    # synthetic: the day of the ban's own sentence, not the notice's date under its signature
    (r,) = _records(f"关于无人机临时禁飞的通告\n2024年5月1日，{ban}\n某市公安局\n2024年4月20日")
    assert (r.start, r.end) == (_t("2024-04-30T16:00Z"), _t("2024-05-01T16:00Z"))
    # a page dated in December announces a day of January: the next year
    (r,) = _records(f"发布时间：2024-12-20\n1月5日，{ban}")
    assert (r.start, r.end) == (_t("2025-01-04T16:00Z"), _t("2025-01-05T16:00Z"))
    # two days are two periods, and a day only under the signature is the notice's: no period read
    for text in (f"5月1日和5月3日，{ban}", f"关于无人机临时禁飞的通告\n{ban}\n某市公安局\n2024年4月20日"):
        (r,) = _records(text)
        assert (r.start, r.end) == (None, None)


def test_a_japanese_period_is_read_in_japan_time_with_its_era_year():
    """Synthetic, in the form Japanese police and ministry notices write: an era year (令和7年 = 2025), 午前/午後, the
    end on the same day (同日), connectors から/まで; clocks in Japan time (UTC+9), not Beijing time; the place before
    its 周辺地域の上空."""
    ban = "における小型無人機等の飛行を禁止します。"
    (r,) = _records(f"令和7年5月3日(土)午前9時から同日午後6時まで、東京ビッグサイト周辺地域の上空{ban}")
    assert r.geometry.name == "東京ビッグサイト"
    assert (r.start, r.end) == (_t("2025-05-03T00:00Z"), _t("2025-05-03T09:00Z"))
    # whole days; a later day's clock; a day without its year takes the year the notice writes (its era year)
    (r,) = _records(f"2025年5月3日から5月5日まで、日本武道館の上空{ban}")
    assert (r.geometry.name, r.start, r.end) == ("日本武道館", _t("2025-05-02T15:00Z"), _t("2025-05-05T15:00Z"))
    (r,) = _records(f"5月3日9時～5月5日18時、日本武道館並びにその周辺地域の上空{ban}\n令和7年4月1日 警視庁")
    assert (r.geometry.name, r.start, r.end) == ("日本武道館", _t("2025-05-03T00:00Z"), _t("2025-05-05T09:00Z"))
    # a Chinese notice keeps Beijing time, a borrowed の in a name too
    for place in ("人民广场", "台北の夜市"):
        (r,) = _records(f"2025年5月3日9时至18时，{place}周边500米范围内禁止无人机飞行。")
        assert (r.start, r.end) == (_t("2025-05-03T01:00Z"), _t("2025-05-03T10:00Z"))


def test_a_japanese_facility_and_the_acts_distance_around_it():
    """Synthetic, in the Small Unmanned Aircraft Act's own words for a designated area ("対象施設の敷地又は区域及び
    その周囲おおむね300メートルの地域の上空"), as event designations write it with the facilities named: each
    facility a zone with the distance around it (digits or kanji), after a period or occasion closed by 、; the act's
    words for its categories of facility (対象…, 敷地又は区域) are never a place."""
    ban = "の地域の上空における小型無人機等の飛行を禁止します。"
    (r,) = _records(f"令和5年5月14日から5月22日までの間、広島県立総合体育館及びその周囲おおむね300メートル{ban}")
    assert (r.geometry.name, r.geometry.radius_m) == ("広島県立総合体育館", 300.0)
    assert (r.start, r.end) == (_t("2023-05-13T15:00Z"), _t("2023-05-22T15:00Z"))
    recs = _records(f"サミットの開催に伴い、国会議事堂、首相官邸並びにその周辺概ね三百メートル{ban}")
    assert [(r.geometry.name, r.geometry.radius_m) for r in recs] == [("国会議事堂", 300.0), ("首相官邸", 300.0)]
    assert _records(f"指定する地域(対象施設の敷地又は区域及びその周囲おおむね300メートル{ban}") == []


# --- form 1: location and number first, a title line, items from B) on ------------------------------------------


AIS_LAYOUT = """VIDF - A0212/16
NAV WARNING
B) 1602150230 C) 1602151130
E) AIR EXERCISE WILL TAKE PLACE WI AREA BOUNDED BY 2830N07700E 2845N07730E 2800N07745E 2830N07700E
F) GND G) FL250"""


@pytest.mark.parametrize("text", [
    AIS_LAYOUT,
    AIS_LAYOUT.replace("NAV WARNING", "AERODROME ENROUTE").replace(" - ", "-"),
    AIS_LAYOUT.replace("\n", "  "),  # a feed that collapsed the line breaks
    AIS_LAYOUT.replace("VIDF - A0212/16", "VIDF A0212/16 NOTAMN"),
    AIS_LAYOUT.replace("B) 1602150230 C) 1602151130\n", "B) 1602150230\nC) 1602151130\nD) 0230-1130\n"),
])
def test_location_and_number_first_without_q_or_a(text):
    h = parse_header(text)
    assert (h.kind, h.id, h.item("A").text) == ("icao", "A0212/16", "VIDF")
    (r,) = _records(text)
    assert r.id == "A0212/16" and r.geometry.type == "polygon" and len(r.geometry.points) == 3
    assert (r.start, r.end) == (_t("2016-02-15T02:30Z"), _t("2016-02-15T11:30Z"))
    assert (r.lower.ref, r.upper.ref, r.upper.ft) == ("GND", "FL", 25000.0)


def test_an_ordinary_icao_notam_keeps_its_own_header():
    text = "A1136/25 NOTAMN\nQ) VIDF/QRTCA/IV/BO/W/000/250/2830N07700E005\nA) VIDF B) 2501010000 C) 2501020000\nE) X"
    h = parse_header(text)
    assert (h.id, h.qline.fir, h.item("A").text) == ("A1136/25", "VIDF", "VIDF")


# --- form 4: names are the place itself --------------------------------------------------------------------------


def test_a_name_stops_at_the_end_of_its_sentence():
    """val ``ie-irishexaminer:cork-airport-uas-zone``: ``a 4.5km radius around Cork Airport. The GAA stadium …``."""
    (r,) = _records(_world("ie-irishexaminer:cork-airport-uas-zone"))
    assert (r.geometry.name, r.geometry.radius_m) == ("Cork Airport", 4500.0)


@pytest.mark.parametrize("row_id, name", [("ro-lrbb-sample:920", "LRTRA111B"), ("ro-lrbb-sample:1061", "LRTRA85G")])
def test_an_item_e_alone_names_its_activated_area(row_id, name):
    """train ``ro-lrbb-sample`` rows: ``TEMPORARY RESERVED AREA LRTRA111B ACTIVATED.``: the designator is the place."""
    (r,) = _records(_world(row_id))
    assert (r.geometry.type, r.geometry.name, r.geometry.kind) == ("named", name, "area")


@pytest.mark.parametrize("text, name", [
    ("TRA806(A) ACTIVATED 0800-1200", "TRA806(A)"),
    ("AREA VAD 218 ACTIVATED.", "VAD 218"),
    ("R-2508 ACTIVE SFC-FL180", "R-2508"),
])
def test_area_designators(text, name):
    assert [z["name"] for z in rules_zones(text)] == [name]
    assert rules_zones(f"DANGER AREA {name} DEACTIVATED") == []


def test_a_road_bounded_area_is_one_place():
    text = ("为保障活动安全，2024年5月1日8时至18时，东起人民路，西至解放路，北起滨河大道，南至G6高速以内的区域禁止一切无人机飞行。")
    (z,) = rules_zones(text)
    assert z["name"] == "东起人民路，西至解放路，北起滨河大道，南至G6高速以内的区域"
    three = text.replace("，北起滨河大道", "")
    assert rules_zones(three)[0]["name"] == "东起人民路，西至解放路，南至G6高速以内的区域"


def test_an_area_enclosed_by_the_roads_listed_along_it_is_one_place():
    # world train row cn-yichang-concert-2023-07-08: "…，奥体中心沿点军大道、江南二路、将军路、巴王店路形成的合围地域上方空域，…"
    name = "奥体中心沿点军大道、江南二路、将军路、巴王店路形成的合围地域"
    assert [r.geometry.name for r in _records(_world("cn-yichang-concert-2023-07-08"))] == [name]
    text = "一、活动当日17时至23时，在" + name + "上方空域，禁止一切无人机飞行。"
    assert [z["name"] for z in rules_zones(text)] == [name]
    by = "2024年5月1日8时至18时，由人民路、解放路、滨河大道围合的区域禁止无人机飞行。"
    assert [z["name"] for z in rules_zones(by)] == ["由人民路、解放路、滨河大道围合的区域"]
    # a boundary of coordinates is a polygon, never this name
    coords = "2024年5月1日8时至18时，由N30°41′E111°15′、N30°42′E111°16′、N30°40′E111°17′围成的区域禁止无人机飞行。"
    assert all("name" not in z for z in rules_zones(coords))


def test_a_chinese_place_starts_after_its_subject_and_modal():
    # world train row hk-meetinghk:victoria-harbour-tra-2025: "…,民航處將在維多利亞港一帶設立臨時限制飛行區"
    (r,) = _records(_world("hk-meetinghk:victoria-harbour-tra-2025"))
    assert r.geometry.name == "維多利亞港"
    text = "2024年5月1日8时至18时，公安局拟在人民广场周边500米范围内禁止无人机飞行。"
    assert [(z["name"], z["radius"]) for z in rules_zones(text)] == [("人民广场", "500米")]
    # the agency, or a day, right before 在 is no part of the place either
    for text in ("2024年5月1日，民航处在维多利亚港一带设立临时限制飞行区。", "民航处将于2024年5月1日在维多利亚港一带设立临时限制飞行区。"):
        assert [z["name"] for z in rules_zones(text)] == ["维多利亚港"]


def test_a_radius_written_straight_after_the_centre_is_the_radius():
    # world train row nhzj:nhzj-xiao-dragon-2025: "以西岙村行大龙活动路线为中心500米区域内"
    (r,) = _records(_world("nhzj:nhzj-xiao-dragon-2025"))
    assert (r.geometry.name, r.geometry.radius_m) == ("西岙村行大龙活动路线", 500.0)
    text = "2024年5月1日8时至18时，以体育中心为中心3公里范围内禁止无人机飞行。"
    assert [(z["name"], z["radius"]) for z in rules_zones(text)] == [("体育中心", "3公里")]


def test_a_taiwan_county_notice_names_its_place_in_its_title():
    # world train row drone-caa:drone-caa-chiayi-cgmh-2024: "主旨:公告「長庚…紀念醫院之禁止遙控無人機飛航活動之區域及時間」"
    (r,) = _records(_world("drone-caa:drone-caa-chiayi-cgmh-2024"))
    assert r.geometry.name == "長庚醫療財團法人嘉義長庚紀念醫院"
    text = "主旨：公告「臺中市政府禁止遙控無人機飛航活動之區域」，自即日起生效。"
    assert [z["name"] for z in rules_zones(text)] == ["臺中市政府"]


def test_a_degree_sign_typed_as_the_letter_o_is_read_with_signed_minutes_and_a_hemisphere():
    # world train row tricoteuses:lf-r-592-cantal, a French decree as a legal mirror renders it: "44o 56' 00'' N, …"
    from airspace.parser.coords import find_coords

    (r,) = _records(_world("tricoteuses:lf-r-592-cantal"))
    assert r.geometry.type == "polygon" and len(r.geometry.points) == 8
    assert r.geometry.points[0] == pytest.approx((44 + 56 / 60, 2 + 55 / 60))
    (c,) = find_coords("45o 05' 00'' N, 003o 23' 00'' E")
    assert (c.lat, c.lon) == pytest.approx((45 + 5 / 60, 3 + 23 / 60))
    for words in ("the 10o 5'N", "Route 2o 5' to go N", "A 10o 5' N only"):
        assert find_coords(words) == []


def test_decimal_minutes_written_right_before_the_hemisphere_letter():
    # world train row avonhgpg:highgrove-r105-hhpa: "a circle, of radius 600m, centred on 51°37.24N 002°10.48W"
    from airspace.parser.coords import find_coords

    recs = _records(_world("avonhgpg:highgrove-r105-hhpa"))
    assert [(r.geometry.center, r.geometry.radius_m) for r in recs] == [
        (pytest.approx((51 + 37.24 / 60, -(2 + 10.48 / 60))), 600.0)]
    (c,) = find_coords("35°30N 120°15E")
    assert (c.lat, c.lon) == pytest.approx((35.5, 120.25))
    assert find_coords("the 35° 30 N bend") == []  # (a blank before the letter: not this form)


def test_a_ceiling_to_a_height_with_its_reference_spelled_out():
    # world train row avonhgpg:highgrove-r105-hhpa: "extending from the surface to a height of 500ft above ground
    # level (860 ft AMSL)": the height written first is the zone's, its equivalent kept beside it
    (r,) = _records(_world("avonhgpg:highgrove-r105-hhpa"))
    assert (r.upper.ref, r.upper.ft, r.upper_also.ref, r.upper_also.ft) == ("AGL", 500.0, "AMSL", 860.0)
    text = "Drones are prohibited within 2NM of 512000N 0010000W up to a height of 400 feet above ground level."
    assert rules_zones(text)[0]["upper"] == "400 feet above ground level"
    assert rules_zones(text.replace("up to a height", "to an altitude"))[0]["upper"] == "400 feet above ground level"


@pytest.mark.parametrize("fragment", ["至2月11日", "，具有", "南至G6高速以内的", "Cork Airport. The GAA", "the"])
def test_clause_fragments_are_no_place(fragment):
    assert clause_fragment(fragment) is not None


@pytest.mark.parametrize("place", ["体育中心", "全市各高考考点", "3号路口", "VAD 218", "TRA806(A)", "Cork Airport",
                                   "东起人民路，西至解放路，北起滨河大道，南至G6高速以内的区域"])
def test_places_are_places(place):
    assert clause_fragment(place) is None


def test_an_engines_fragment_name_is_flagged():
    from airspace.core.answer import ground
    from airspace.pipeline.normalize import normalize

    text = "2024年2月1日0时至2月11日24时，禁止无人机飞行。"
    (d,) = ground(text, [{"name": "至2月11日"}])
    rec = normalize(d, text=text, message=0)
    assert rec.status == "review" and any("is no place" in x for x in rec.reasons)


# --- form 5: local time without an offset: the zone's own time zone ------------------------------------------------


@pytest.mark.parametrize("date, clock, zone, start, end", [
    ("14 Jan 2027", "0930-1600", "Europe/Dublin", "2027-01-14T09:30Z", "2027-01-14T16:00Z"),  # GMT
    ("14 Jul 2027", "0930-1600", "Europe/Dublin", "2027-07-14T08:30Z", "2027-07-14T15:00Z"),  # IST, UTC+1
])
def test_local_clock_times_take_the_time_zone_at_the_zone(date, clock, zone, start, end):
    text = f"Ops note {date}: drones grounded {clock} local within 2 NM of 5321N00616W."
    (r,) = _records(text)
    assert (r.start, r.end) == (_t(start), _t(end))
    assert any(zone in w for w in r.inferred)


def test_local_clock_times_across_a_dst_change_are_exact_and_a_missing_hour_is_review():
    """America/Chicago goes to CDT on 14 Mar 2027 at 02:00: 01:30 is CST, 03:00 CDT; 02:30 does not exist."""
    (r,) = _records("Ops note 14 Mar 2027: drones grounded 0130-0300 local within 2 NM of 3907N09436W.")
    assert (r.start, r.end) == (_t("2027-03-14T07:30Z"), _t("2027-03-14T08:00Z"))
    (r,) = _records("Ops note 14 Mar 2027: drones grounded 0230-0400 local within 2 NM of 3907N09436W.")
    assert r.status == "review" and any("does not exist" in x for x in r.reasons)


def test_a_stated_offset_wins_over_the_position():
    (r,) = _records("Ops note 14 Jul 2027: drones grounded 0930-1600 local, UTC+8, within 2 NM of 5321N00616W.")
    assert (r.start, r.inferred) == (_t("2027-07-14T01:30Z"), [])


# --- form 6: FAA VIP rings and VOR/DME alternates ----------------------------------------------------------------

VIP = ("!FDC 4/6543 ZKC MO..AIRSPACE KANSAS CITY, MO..TEMPORARY FLIGHT RESTRICTIONS. PURSUANT TO 14 CFR SECTION "
       "91.141 AIRCRAFT FLIGHT OPERATIONS ARE PROHIBITED WITHIN AN AREA DEFINED AS 10 NM RADIUS OF 390713N/0943548W "
       "OR THE RIS136016.7 SFC-17999FT MSL EFFECTIVE 2404021500 UTC (1000 LOCAL 04/02/24) UNTIL 2404022130 UTC "
       "(1630 LOCAL 04/02/24). WITHIN AN AREA DEFINED AS 30 NM RADIUS OF 390713N/0943548W OR THE RIS136016.7 "
       "SFC-17999FT MSL EXCLUDING THE AIRSPACE WITHIN 10 NM RADIUS OF 390713N/0943548W OR THE RIS136016.7 EFFECTIVE "
       "2404021400 UTC (0900 LOCAL 04/02/24) UNTIL 2404022230 UTC (1730 LOCAL 04/02/24).")


@pytest.mark.parametrize("text", [VIP, VIP.replace(" OR THE RIS136016.7", " (RIS136016.7)"),
                                  VIP.replace("390713N/0943548W OR THE", "390713N0943548W OR THE\n")])
def test_vip_rings_with_vor_dme_alternates(text):
    recs = _records(text)
    centre = (39 + 7 / 60 + 13 / 3600, -(94 + 35 / 60 + 48 / 3600))
    assert [(r.geometry.radius_m, r.geometry.inner_radius_m) for r in recs] == [(10 * NM_TO_M, None),
                                                                             (30 * NM_TO_M, 10 * NM_TO_M)]
    assert all(r.geometry.center == pytest.approx(centre) for r in recs)
    assert [(r.start, r.end) for r in recs] == [(_t("2024-04-02T15:00Z"), _t("2024-04-02T21:30Z")),
                                                (_t("2024-04-02T14:00Z"), _t("2024-04-02T22:30Z"))]


def test_tfr_page_fix_references_are_not_vertices():
    """archive ``FDC 6/7491`` (TFR web page): ``From: 255600N 0971000W BRO078011.3 To: …``: six vertices, the FRD
    of each vertex the same point again."""
    (r,) = _records(_archive("FDC 6/7491"))
    assert len(r.geometry.points) == 6 and r.geometry.points[0] == pytest.approx((25 + 56 / 60, -(97 + 10 / 60)))
    assert (r.lower.ref, r.upper.ref) == ("SFC", "UNL")


# --- form 7: radii with words around them ------------------------------------------------------------------------


def test_navwarn_miles_are_nautical():
    """val ``marlin-nga:NAVAREA IV 396/23`` ``IN AREA WITHIN 150 MILES OF 37-35.15N 045-40.37W`` and
    ``jx-nga:NAVAREA XII 365/18`` ``WITHIN 13 MILES OF 33-40N 119-32W``: maritime miles are nautical."""
    (r,) = _records(_world("marlin-nga:NAVAREA IV 396/23"))
    assert r.geometry.radius_m == 150 * NM_TO_M
    assert r.geometry.center == pytest.approx((37 + 35.15 / 60, -(45 + 40.37 / 60)))
    assert (r.start, r.end) == (_t("2023-04-14T00:30Z"), _t("2023-05-07T10:00Z"))
    (r,) = _records(_world("jx-nga:NAVAREA XII 365/18"))
    assert r.geometry.radius_m == 13 * NM_TO_M and (r.start, r.end) == (_t("2018-08-31T14:00Z"), _t("2018-09-05T02:00Z"))


@pytest.mark.parametrize("phrase, metres", [
    ("WITHIN A RADIUS OF TWO NM OF 5321N00616W", 2 * NM_TO_M),
    ("within a radius of 2 nautical miles of 5321N00616W", 2 * NM_TO_M),
    ("5 KM RADIUS OF 5321N00616W", 5000.0),
    ("RADIUS OF FIVE KILOMETRES CENTRED ON 5321N00616W", 5000.0),
])
def test_radii_in_words(phrase, metres):
    (r,) = _records(f"Drone restriction 14 Jan 2027: {phrase}, SFC-400FT AGL.")
    assert r.geometry.radius_m == pytest.approx(metres)


def test_a_bare_mile_in_prose_is_the_statute_mile_and_review():
    (r,) = _records("Drones are banned within 2.5 miles of 5130N00007W up to 2,500FT AMSL.")
    assert r.geometry.radius_m == pytest.approx(2.5 * 1609.344)
    assert r.status == "review" and any("statute mile" in w for w in r.inferred)


def test_chinese_radius_in_km():
    (z,) = rules_zones("2024年5月1日8时至18时，以北纬36°17′ 东经120°17′为中心，半径5公里范围内禁止无人机飞行。")
    assert z["radius"] == "5公里"


# --- form 3 in prose: a heading's period of whole days, a daily window in UTC --------------------------------------


def test_a_tra_notice_with_its_days_in_the_heading_and_a_utc_daily_window():
    """val ``ie-iaa:galway-2018-10-13``: heading ``13 Oct 2018 - 14 Oct 2018``, ``Duration: 1100hrs to 1500hrs UTC
    daily``: two windows, every field stated or settled by the notice, so ``ok``."""
    (r,) = _records(_world("ie-iaa:galway-2018-10-13"))
    assert (r.start, r.end) == (_t("2018-10-13T11:00Z"), _t("2018-10-14T15:00Z"))
    assert [(w.start, w.end) for w in r.windows] == [(_t("2018-10-13T11:00Z"), _t("2018-10-13T15:00Z")),
                                                    (_t("2018-10-14T11:00Z"), _t("2018-10-14T15:00Z"))]
    assert len(r.geometry.points) == 4 and (r.lower.ref, r.upper.ref, r.upper.ft) == ("SFC", "AMSL", 3500.0)
    assert r.status == "ok" and len(r.inferred) == 2


def test_whole_days_without_a_time_zone_are_read_as_utc_and_left_for_review():
    """val ``ie-iaa:blackrock-2017-03``: ``24 Mar 2017 - 31 Mar 2017`` and no clock or zone: whole UTC days, review."""
    (r,) = _records(_world("ie-iaa:blackrock-2017-03"))
    assert (r.start, r.end) == (_t("2017-03-24T00:00Z"), _t("2017-03-31T23:59Z"))
    assert r.geometry.radius_m == 10 * NM_TO_M
    assert r.status == "review" and any("read as UTC" in x and not x.startswith("note:") for x in r.reasons)
    (r,) = _records("24th March 2017 to 31st March 2017\nRestriction: circle 2NM radius centred on 5404N01019W, "
                    "SFC to 5000FT AMSL, 0900 to 1700 daily.")
    assert (r.start, r.end) == (_t("2017-03-24T09:00Z"), _t("2017-03-31T17:00Z")) and r.status == "review"


def test_several_places_each_with_its_own_distance_in_prose():
    """val ``ie-thejournal:pope-visit-2018``: ``within 10km of Dublin Airport, 8km from the Phoenix Park, or 24km from
    Ireland West Airport Knock``: three named zones, each with its radius."""
    recs = _records(_world("ie-thejournal:pope-visit-2018"))
    assert [(r.geometry.name, r.geometry.radius_m) for r in recs] == [
        ("Dublin Airport", 10000.0), ("Phoenix Park", 8000.0), ("Ireland West Airport Knock", 24000.0)]


def test_a_berth_around_a_lone_position_is_its_radius():
    """val ``marlin-nga:NAVAREA IV 404/23``: ``UNDERWATER OPERATIONS 12 THRU 25 APR … IN 10-15.89N 060-33.25W.
    500 METER BERTH REQUESTED.``; ``WIDE BERTH`` states no distance, so a vessel aground (a hazard to ships alone)
    is then no zone at all."""
    (r,) = _records(_world("marlin-nga:NAVAREA IV 404/23"))
    assert r.geometry.radius_m == 500.0 and r.geometry.center == pytest.approx((10 + 15.89 / 60, -(60 + 33.25 / 60)))
    assert (r.start, r.end) == (_t("2023-04-12T00:00Z"), _t("2023-04-25T23:59Z"))
    text = "ANGUILLA.\nVESSEL AGROUND IN 18-10.07N 063-09.81W.\nWIDE BERTH REQUESTED.\nCANCEL THIS MSG 010000Z MAY 23."
    assert rules_zones(text) == []
    (z,) = rules_zones(text.replace("WIDE BERTH", "TWO MILE BERTH"))
    assert z["radius"] == "TWO MILE"


def test_a_hazard_to_ships_at_lone_positions_without_a_series_line_is_no_zone():
    """The same warning without its cancellation line (a feed that keeps the series line apart from the text) is
    still a hazard to ships alone at a lone position: no zone. An obstacle at a lone position stands in the air:
    archive ``A0289/26``'s item E copied alone (``AN UNLGTD OBSTACLE … HGT: 4613 FT AMSL, PSN:351557N 0470050E``, its
    light written ``UNLIT``) keeps its point."""
    text = "ANGUILLA.\nVESSEL AGROUND IN 18-10.07N 063-09.81W.\nWIDE BERTH REQUESTED."
    assert rules_zones(text) == []
    assert rules_zones(text.replace("VESSEL AGROUND", "UNDERWATER OPERATIONS")) != []  # (no surface hazard named)
    item_e = _archive("A0289/26").split("E) ", 1)[1].split("CREATED:")[0].replace("UNLGTD", "UNLIT")
    assert len(rules_zones(item_e)) == 1


# ---- feeds that name their items instead of lettering them -------------------------------------------------------

@pytest.mark.parametrize("text", [_world("pce1:H7712/24"), PIB_VARIANT], ids=["pce1-H7712", "variant"])
def test_a_pib_export_names_its_items_in_tags(text):
    """An EAD/NATS PIB export: B) and C) are <StartValidity>/<EndValidity>, F) and G) <ItemF>/<ItemG>; the number
    is <Series><Number>/<Year> and the Q-line's fields are tags. G) is the upper limit, not the height E) quotes."""
    h = parse_header(text)
    assert h.kind == "icao" and {"B", "C", "E", "F", "G"} <= set(h.items)
    assert h.qline is not None and h.qline.code in ("QWULW", "QRDCA") and h.qline.radius_nm in (2.0, 3.0)
    assert h.id in ("H7712/24", "Q123/25")
    recs, _ = process_batch(text, "rules")
    (r,) = recs
    assert r.status == "ok", r.reasons
    assert r.lower.ref == "SFC" and r.upper.ref == "AMSL" and r.upper.ft in (1300.0, 2500.0)
    assert r.start in (datetime(2024, 11, 18, 9, tzinfo=UTC), datetime(2025, 3, 3, 10, tzinfo=UTC))
    assert r.end in (datetime(2024, 12, 18, 18, 30, tzinfo=UTC), datetime(2025, 3, 7, 16, tzinfo=UTC))
    assert r.spans["upper"].text in ("1300FT AMSL", "2500FT AMSL")


WEB_VARIANT = """EGTT/QRTCA/IV/BO/W/000/040/5120N00015W003
RESTRICTED AREA (TEMPORARY) ACTIVE WI 2NM RADIUS OF 512000N 0001500W (EPSOM).
LOWER: Surface
UPPER: 4,000 Feet AMSL
FROM: 05 Jun 2025 11:00 GMT   TO: 05 Jun 2025 17:30 GMT"""


@pytest.mark.parametrize("text", [_world("psylsph:J4570/24"), WEB_VARIANT], ids=["psylsph-J4570", "variant"])
def test_a_notam_web_page_labels_its_items(text):
    """A NOTAM web page: the Q-line's fields without "Q)", the text (in <pre> or not), then LOWER:, UPPER:,
    FROM: … TO: … lines, with HTML line breaks or newlines; its dates are written "05 Jun 2025 11:00 GMT"."""
    h = parse_header(text)
    assert h.kind == "icao" and h.qline is not None and h.qline.code in ("QRDCA", "QRTCA")
    assert h.item("F").text == "Surface" and h.item("G").text in ("2,000 Feet AMSL", "4,000 Feet AMSL")
    assert "<pre>" not in h.item("E").text and "LOWER" not in h.item("E").text
    recs, _ = process_batch(text, "rules")
    (r,) = recs
    assert r.status == "ok", r.reasons
    assert r.upper.ref == "AMSL" and r.upper.ft in (2000.0, 4000.0)
    assert r.start in (datetime(2025, 1, 2, 0, tzinfo=UTC), datetime(2025, 6, 5, 11, tzinfo=UTC))
    assert r.end in (datetime(2025, 1, 2, 19, tzinfo=UTC), datetime(2025, 6, 5, 17, 30, tzinfo=UTC))


@pytest.mark.parametrize("text", [
    "DRONE SHOW TONIGHT. FROM: the harbour TO: the old bridge, keep clear.",  # labels in prose
    "UAS OPS WI 1NM OF 512000N 0001500W\nLOWER: Surface\nUPPER: 400 Feet AGL",  # limits but no time label
    "!FDC 4/1234 ZNY NY..AIRSPACE NEW YORK, NY. 2NM RADIUS OF 404200N0740000W SFC-3000FT\nFROM: 01 Jan 2025 "
    "10:00 GMT\nLOWER: Surface",  # an FAA NOTAM keeps its own reading
])
def test_labels_are_items_only_in_a_labelled_layout(text):
    h = parse_header(text)
    assert "F" not in h.items and "B" not in h.items


@pytest.mark.parametrize("text, metres", [
    (_world("yeewee:D1366/26"), 2.5 * NM_TO_M),
    ("A0456/25 NOTAMN\nQ) YMMM/QRDCA/IV/BO/W/000/050/3400S15100E005\nA) YMMM B) 2504010000 C) 2504020000\n"
     "E) DANGER AREA WI 1.\n5KM OF 340000S 1510000E\nF) SFC G) 5000FT AMSL", 1500.0),
])
def test_a_number_broken_across_a_line_is_read_whole_and_left_for_review(text, metres):
    """A feed broke "2.5NM" at its line end ("WI 2." / "5NM OF …"): read whole, never as 5 NM, and review, by
    every engine."""
    for engine in ("rules", "clover"):  # the normaliser every engine shares
        (r,) = [x for x in process_batch(text, engine)[0] if x.geometry is not None]
        assert r.geometry.radius_m == pytest.approx(metres)
        assert r.status == "review" and any("broken across a line" in x for x in r.reasons)


def test_a_list_label_before_a_line_break_is_no_broken_number():
    text = ("A0457/25 NOTAMN\nQ) YMMM/QRDCA/IV/BO/W/000/050/3400S15100E005\nA) YMMM B) 2504010000 C) 2504020000\n"
            "E) DANGER AREA 2.\n5NM RADIUS OF 340000S 1510000E\nF) SFC G) 5000FT AMSL")
    (r,) = process_batch(text, "rules")[0]
    assert r.geometry.radius_m == pytest.approx(5 * NM_TO_M)
    assert not any("broken across a line" in x for x in r.reasons)


@pytest.mark.parametrize("phrase, metres", [
    ("30 Nautischen Meilen", 30 * NM_TO_M), ("2 milles nautiques", 2 * NM_TO_M), ("5 kilomètres", 5000.0),
    ("3 Kilometern", 3000.0), ("500 metros", 500.0), ("4 quilômetros", 4000.0), ("5 км", 5000.0)])
def test_a_radius_in_the_words_of_other_languages(phrase, metres):
    (r,) = [x for x in process_batch(f"ZONE: 5231N01322E, radius {phrase}.", "rules")[0] if x.geometry is not None]
    assert r.geometry.radius_m == pytest.approx(metres)


def test_a_german_notice_writes_its_circles_radius_in_words():
    """uavdach:humboldt-aachen-2023 (val): "in einem Kreis mit einem Radius von 30 Nautischen Meilen (NM) um den
    Bezugspunkt 52 31 34 N 013 22 20 E" — two such circles, each read with its 30 NM."""
    # (the batch splits the notice: its heading, which names the areas "ED-R Humboldt" and "ED-R Aachen", is a message
    # of its own, each a named area for review beside the circles)
    recs = [r for r in process_batch(_world("uavdach:humboldt-aachen-2023"), "rules")[0]
            if r.geometry is not None and r.geometry.type == "circle"]
    assert [round(r.geometry.radius_m) for r in recs] == [55560, 55560]
    assert recs[0].spans["radius"].text == "30 Nautischen Meilen"


def test_a_radius_written_after_its_centre_as_within_a_distance():
    """yeewee:F1008/26 (val): "TRANSITING FROM HOLSWORTHY AD (YSHW) TO PSN 332628S 1493423E AND OPR WI 30NM": the
    operating area is 30 NM around the position; "WI 2NM OF c" (the distance before its centre) reads as before."""
    (r,) = [x for x in process_batch(_world("yeewee:F1008/26"), "rules")[0] if x.geometry is not None]
    assert r.spans["radius"].text == "30NM" and r.status == "ok"
    (r,) = [x for x in process_batch("AREA WI 2NM OF 332628S 1493423E, SFC-3000FT AMSL", "rules")[0]]
    assert r.spans["radius"].text == "2NM"


def test_two_venues_joined_in_one_chinese_name_are_two_zones():
    """train ``hk-bau:kaitak-stadium-july``: ``啟德青年運動場及香港大球場一帶`` (and later "the two temporary restricted
    flying zones are respectively …"): two zones, one per venue; a venue and its surroundings stay one."""
    recs, _ = process_batch([Message(0, _world("hk-bau:kaitak-stadium-july"))], "rules")
    assert [r.geometry.name for r in recs if r.geometry is not None] == ["啟德青年運動場", "香港大球場"]
    recs, _ = process_batch([Message(0, "关于禁飞的通告\n2024年6月6日8时至18时，市体育中心及周边1公里范围内禁止无人机飞行。")],
                            "rules")
    assert [r.geometry.name for r in recs] == ["市体育中心"]
    recs, _ = process_batch([Message(0, "关于禁飞的通告\n2024年6月6日8时至18时，奥体中心和国际会展中心上空禁止无人机飞行。")],
                            "rules")
    assert [r.geometry.name for r in recs] == ["奥体中心", "国际会展中心"]


def test_chinese_points_labelled_before_the_word_for_point_are_one_boundary():
    """train ``tw-line-today:pla-exercise-2022-areas-1-2``: "區域1四角座標分為A點北緯21度14分00秒、東經121度33分00秒；B點…；
    C點…；D點…。區域2四角座標為E點…": each area's four labelled corners are one polygon, never eight points."""
    recs = _records(_world("tw-line-today:pla-exercise-2022-areas-1-2"))
    assert [r.geometry.type for r in recs] == ["polygon", "polygon"]
    want = [(21 + 14 / 60, 121 + 33 / 60), (21 + 33 / 60, 121 + 18 / 60), (21 + 7 / 60, 120 + 43 / 60),
            (20 + 48 / 60, 120 + 59 / 60)]
    for got, pt in zip(recs[0].geometry.points, want, strict=True):
        assert got == pytest.approx(pt)
    assert recs[1].geometry.points[0] == pytest.approx((22 + 43 / 60, 119 + 14 / 60))
    # the same labels as digits ("1点", "2点：") join the same way
    text = _world("tw-line-today:pla-exercise-2022-areas-1-2")
    for a, b in zip("ABCD", ("1點", "2點", "3點", "4點")):
        text = text.replace(f"{a}點", b)
    assert [len(r.geometry.points) for r in _records(text)[:1]] == [4]


def test_a_us_regulations_boundary_from_point_to_point_by_thence():
    """train ``googlebooks:33cfr-204-113-tyndall``: "Beginning at … latitude 29°38′20′′ N, longitude 84°58′30′′ W;
    thence southeast to latitude …; thence southwest to latitude …; thence northwest to latitude …; thence northeast
    to point of beginning": one polygon of four vertices, never four points."""
    text = _world("googlebooks:33cfr-204-113-tyndall")
    (rec,) = _records(text)
    assert rec.geometry.type == "polygon" and len(rec.geometry.points) == 4
    assert rec.geometry.points[0] == pytest.approx((29 + 38 / 60 + 20 / 3600, -(84 + 58 / 60 + 30 / 3600)))
    # the directions as 33 CFR 334 also writes them ("thence southerly to", "thence west to")
    text = text.replace("thence southeast to", "thence southerly to").replace("thence southwest to", "thence west to")
    (rec,) = _records(text)
    assert rec.geometry.type == "polygon" and len(rec.geometry.points) == 4
