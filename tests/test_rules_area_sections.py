"""Issue 45: in a notice listing several numbered areas, a value is tied to the area whose section states it.

A value written for every area (before the first label, or in a closing ``以上区域…`` / ``ALL AREAS …`` statement)
is shared and may stay ``ok``; a value written in one area's section is that area's own, and a record of another
area that carries it is ``review`` with a reason naming the area it was read from. The messages are written in the
forms of real Chinese public-security notices and ICAO-style free text.
"""

import re

import pytest

from airspace.core.contract import Span
from airspace.parser.rules import rules_zones
from airspace.parser.rules.areas import area_sections, foreign_values
from airspace.pipeline.batch import process_batch


def _records(text: str):
    recs, _ = process_batch(text, "rules")
    return [r for r in recs if r.geometry is not None]


# a shared period before the list; area 1 states its own height, area 2 none
ZH_ONE_HEIGHT = (
    "深圳市公安局关于实施临时禁飞的通告\n"
    "管控时间：2024年9月23日8时至2024年9月23日18时。\n"
    "区域一：以北纬22度29分、东经114度18分为中心、半径3公里的圆形区域，真高120米以下；\n"
    "区域二：以北纬22度34分、东经113度53分为中心、半径2公里的圆形区域。\n"
)


def test_a_height_stated_in_one_area_is_not_given_to_another_as_ok():
    recs = _records(ZH_ONE_HEIGHT)
    assert len(recs) == 2
    first, second = recs
    assert first.status == "ok", first.reasons
    assert first.upper is not None and first.upper.raw == "真高120米"
    assert second.status == "review"
    assert any("upper limit read from area 1's text" in r for r in second.reasons), second.reasons
    # the period written before the list is both areas': no reason names it
    assert not any("time read from" in r for r in first.reasons + second.reasons)
    assert first.start == second.start is not None


# each area states its own height and period; the reader gives each its own (the message-wide reader alone
# would give every area the first height and the last period)
ZH_OWN_VALUES = (
    "临时禁飞通知\n"
    "第1处：以北纬31°56′07″东经118°59′42″为中心，半径3公里范围内，真高100米（含）以下；"
    "2025年10月23日14时至2025年10月23日18时；\n"
    "第2处：以北纬31°49′20″东经118°55′42″为中心，半径5公里范围内，真高300米以下；"
    "2025年11月27日11时至2025年11月27日19时；\n"
)


def test_each_area_reads_its_own_height_and_period():
    zones = rules_zones(ZH_OWN_VALUES)
    assert [z["upper"] for z in zones] == ["真高100米", "真高300米"]
    assert [z["start"] for z in zones] == ["2025年10月23日14时", "2025年11月27日11时"]
    recs = _records(ZH_OWN_VALUES)
    assert [r.status for r in recs] == ["ok", "ok"], [r.reasons for r in recs]


# a closing statement for every area: its period is shared, and stays ok
ZH_CLOSING = (
    "【空域管制】\n"
    "第一区：以北纬22°23′ 东经113°25′为圆心半径6公里，真高300米以下。\n"
    "第二区：以北纬22°17′ 东经113°42′为圆心半径2公里，真高500米以下。\n"
    "以上区域管控时间：2026年9月30日22时至2026年10月1日4时。\n"
)


def test_a_closing_statement_for_all_areas_is_shared_and_ok():
    recs = _records(ZH_CLOSING)
    assert [r.status for r in recs] == ["ok", "ok"], [r.reasons for r in recs]
    assert [r.upper.raw for r in recs] == ["真高300米", "真高500米"]
    assert recs[0].start == recs[1].start is not None


# lettered areas, each with its own limits; "ALL AREAS" closes with the shared period
EN_AREAS = (
    "TEMPORARY FLIGHT RESTRICTION.\n"
    "AREA A: WI 2NM OF 513000N0001000W SFC-1000FT AGL.\n"
    "AREA B: WI 1NM OF 514000N0002000W.\n"
    "ALL AREAS 2406011000-2406011800.\n"
)


def test_an_english_area_without_limits_does_not_take_area_a_limits_as_ok():
    recs = _records(EN_AREAS)
    assert len(recs) == 2
    assert recs[0].status == "ok", recs[0].reasons
    assert recs[0].upper is not None and recs[0].upper.ft == 1000
    assert recs[1].status == "review"
    assert any("read from area 1's text" in r for r in recs[1].reasons), recs[1].reasons
    assert not any("time read from" in r for r in recs[0].reasons + recs[1].reasons)


def test_sections_follow_one_run_of_labels_even_when_the_form_switches():
    text = "通告\nA区：甲地；\nB区：乙地；\n3、丙地；\nD区：丁地；\n"
    secs = area_sections(text)
    assert [text[a:b].split("：")[0].split("、")[0] for a, b in secs] == ["A区", "B区", "3", "D区"]


def test_a_numbered_item_that_is_no_area_is_shared():
    # "2." numbers the limits of the one area, not a second area: nothing there is another area's
    text = "1. WI 2NM OF 513000N0001000W\n2. SFC-1000FT AGL\n"
    zone = {"center": Span(9, 27, "513000N0001000W"), "upper": Span(38, 48, "1000FT AGL")}
    assert area_sections(text)
    assert foreign_values(text, 0, len(text), [zone]) == [[]]


def test_a_boundary_written_one_vertex_a_line_stays_in_its_area():
    """Archive A0430/26 (VVHM, train split): each AREA's boundary goes on over a line that starts with the vertex
    separator '- ', and each area states its own limits after it. The dash is no bullet, and the AREA labels are
    the areas: both zones are read from their own text and ok."""
    import json

    from airspace.data.paths import archive_path

    text = next(json.loads(x)["text"] for x in archive_path().read_text(encoding="utf-8").splitlines()
                if '"A0430/26' in x)
    n = len(re.findall(r"AREA \d", text))
    assert n >= 2 and "\n- 0" in text  # a vertex line that starts with the separator
    secs = area_sections(text, text.index("AREA 1") - 2, len(text))
    assert len(secs) == n and all(text[a:b].lstrip("- ").startswith(f"AREA {k + 1}") for k, (a, b) in enumerate(secs))
    recs, _ = process_batch(text, "rules")
    assert len(recs) == n and all(r.status == "ok" for r in recs), [r.reasons for r in recs]


# ---- where a value stands, whatever labels the list has (parser.rules.areas.straddled_values) ----------------------

def _statuses(text: str):
    return [(r.status, [x for x in r.reasons if not x.startswith("note")]) for r in _records(text)]


def test_a_value_beyond_a_coordinate_no_zone_was_read_from_is_review():
    # the circle's radius is glued to its coordinate ("″3公里") with no "离" before it, so no zone is read from it; the
    # height after it is the circle's or the boundary's, and the text does not say which
    text = ("杭州市公安局关于实施临时禁飞的通告\n由北纬30度05分 东经120度08分、北纬30度08分 东经120度10分、"
            "北纬30度10分 东经120度06分依次连线范围内；{}北纬30°24′47″东经120°12′28″3公里范围内，真高50米（含）以下。\n"
            "2027年5月22日5时至7时。")
    got = _statuses(text.format(""))
    assert got and all(s == "review" for s, _ in got), got
    assert any("upper limit read beyond another place (a place no zone was read from" in r for _, why in got for r in why)
    # "离c3公里范围内" is the circle of 3 km around c: the height in its own clause is its own, the boundary's is not
    got = _statuses(text.format("离"))
    assert [s for s, _ in got] == ["review", "ok"], got
    assert any("written in the last area's own clause" in r for r in got[0][1]), got


def test_a_value_beyond_a_venue_no_zone_was_read_from_is_review():
    # item 1 is a venue with a radius, item 2 a point with a radius: a circle that pairs item 1's radius and height
    # with item 2's point is no area of the notice
    text = ("【空域管制】 1)拓东体育场半径1.5公里以内，真高300米以下空域；2)距北纬25.18度东经102.92度点2.5千米范围内，"
            "真高500米（含）以下；以上区域禁飞时段：2027年11月5日04:00到2027年11月5日16:00。")
    got = _statuses(text)
    assert got and all(s == "review" for s, _ in got), got


def test_a_value_on_the_first_areas_line_is_not_a_heading_for_all():
    # "#1 … #2 …": the hash labels stand mid-line ("Dispatch board - #1"); #2 states only its end
    text = ("Dispatch board - #1 2603021800 - 2603022300. between GND and 100M AGL. centre point 315430N 0351753E, "
            "radius 14NM\n#2 in force until 2024-12-12T23:55Z\ncenter 32° 15′ 26″N 35° 25′ 22″E RADIUS 5,900FT.")
    assert len(area_sections(text)) == 2
    (s1, why1), (s2, why2) = _statuses(text)
    assert s1 == "ok", why1
    assert s2 == "review" and any("read from area 1's text" in r for r in why2), why2


def test_list_labels_glued_to_the_heading_or_run_on_in_one_line_are_found():
    glued = ("深圳湾公园周边临时管控通知1)位置22.431N, 114.230E；半径0.4千米；\n2)以北纬22°20′、东经114°10′为中心、"
             "半径10千米范围内\n自2024年12月30日10时至24时止。以上区域均为真高50米（含）以下。")
    assert [glued[a:a + 2] for a, _ in area_sections(glued)] == ["1)", "2)"]
    one_line = "國際航空航天博覽會期間無人機管控措施  1、以北緯34.52°、東經108.92°為圓心半徑2.5千米範圍內；2、半徑1千米，中心341551N1084510E"
    assert [one_line[a:a + 2] for a, _ in area_sections(one_line)] == ["1、", "2、"]
    bullets = ("Ops update\n* a ring of 1 SM around the point S054928E1062620; LIMITS GND/3,000ft AMSL; * area bounded by S062627E1062753 "
               "S063034.8E1062838.3 S063340E1062439 S062627E1062753\n* points 6.49°S 106.77°E TO 6.5505º S / 106.6805º E "
               "TO 6.4399º S 106.6562º E")
    assert len(area_sections(bullets)) == 3
    # glued to a heading in 【】 (the fuzzer's reproducer, seed 77 row 9984: without label 1 no list was found and the
    # first item's period went to every zone, ok)
    bracket = ("【空域管制】1)管控时段：2024年10月9日08:00-2024年10月9日20:00，航海体育场划设临时管控区。\n"
               "2)北纬34°38′24″ 东经113°49′22″半径1570米，自2024年11月23日14时至24时止；3)半径8.7公里，"
               "中心343055N1133940E，管控时段：2025年11月15日5时-2025年11月15日17时\n各区域均为真高1000米以内。")
    assert [bracket[a:a + 2] for a, _ in area_sections(bracket)] == ["1)", "2)", "3)"]
    recs = _records(bracket)
    assert [(r.start.isoformat(), r.end.isoformat()) for r in recs] == [
        ("2024-11-23T06:00:00+00:00", "2024-11-23T16:00:00+00:00"),
        ("2025-11-14T21:00:00+00:00", "2025-11-15T09:00:00+00:00")]
    # a date's "1." is no label: "通知1.2027年" stays a number
    assert area_sections("通知1.2027年5月起 2.2028年") == []


def test_a_coordinate_introduced_as_a_centre_is_not_a_boundary_vertex():
    text = ("临时禁飞通知\n半径3600米，中心点36.5104N 117.2097E；北纬36度48分 东经117度14分，北纬36度48分、东经117度17分，"
            "北纬36度51分、东经117度18分依次连线范围内，真高100米以下。\n管控时间：2023年2月25日6时至2023年2月26日6时。")
    recs = _records(text)
    assert [r.geometry.type for r in recs] == ["circle", "polygon"]
    assert abs(recs[0].geometry.center[0] - 36.5104) < 1e-6 and recs[0].geometry.radius_m == 3600
    assert len(recs[1].geometry.points) == 3


def test_a_value_in_the_last_areas_own_clause_is_not_every_areas():
    # "…半径10千米范围内，真高150米（含）以下；": the height stands in the second circle's clause, the period in the first's
    text = ("时间：2026年1月19日13时-2026年1月20日13时，半径3750米，圆心北纬24°57′25″ 东经102°28′53″。  以北纬25°04′07″，"
            "东经102°51′54″为中心、半径10千米范围内，真高150米（含）以下；特此通告。")
    (s1, why1), (s2, why2) = _statuses(text)
    assert s1 == s2 == "review"
    assert any("in the last area's own clause" in r for r in why1), why1
    assert any("on the first area's line" in r for r in why2), why2


def test_values_in_a_closing_statement_for_every_area_stay_ok():
    text = ("临时禁飞通知\n以北纬24°57′25″ 东经102°28′53″为中心，半径3750米范围内；\n以北纬25°04′07″，东经102°51′54″为中心、"
            "半径10千米范围内。\n以上区域均为真高150米（含）以下，管控时间：2026年1月19日13时至2026年1月20日13时。")
    recs = _records(text)
    assert [r.status for r in recs] == ["ok", "ok"], [r.reasons for r in recs]
    assert [r.upper.raw for r in recs] == ["真高150米", "真高150米"]


def test_a_venue_no_zone_was_read_from_is_an_area_of_the_list():
    # line 1 is a venue's own item ("濟南奧體中心區域設立…真高120米"); the circle after it states its own height
    text = ("濟南市公安局通告\n\n2027年1月27日20時到2027年1月29日20時濟南奧體中心區域設立臨時禁飛區飛行高度真高120米以下。\n"
            "以363334N1171516E為圓心，半徑0.7公里範圍內；真高500米以下。")
    ((status, why),) = _statuses(text)
    assert status == "review" and any("a place no zone was read from" in r for r in why), why


def test_labels_after_a_run_of_blanks_are_found():
    text = ("西安市公安局通告    （一）以342111N1085308E为中心，半径5.4公里 真高50米以内；  （二）北纬34°05′56″东经108°59′32″"
            "周围2.5公里范围，真高120米以下空域；  管控时间：2025年5月3日18时至24时。")
    assert [text[a:a + 5].strip() for a, _ in area_sections(text)] == ["（一）", "（二）"]
    glued = "烟花燃放活动期间无人机管控措施（一）距曲江会展中心5公里范围内。\n第2处：坐标北纬34°36′，东经108°52′；半径6公里。"
    assert [glued[a:a + 3] for a, _ in area_sections(glued)] == ["（一）", "第2处"]


def test_a_bullet_before_a_distance_is_a_list_item_and_one_before_a_coordinate_is_a_vertex():
    text = ("Ops update * area bounded by 3707N12625E- 3655N12628E- 3704N12639E BACK TO START. height limit 3,000 FT AGL; "
            "* 7,400FT ring around 372447N1261617E - effective 2026-12-29T06:30Z UFN below UNL.\n* 22300FT radius of Hyde "
            "Park. GND to 300M AGL from 2027-10-21 03:53Z until 2027-10-27 03:53 UTC.")
    # (the first star opens an item too, written after the heading's word: "Ops update * area bounded by …")
    assert len(area_sections(text)) == 3
    # the values after the third item's venue are not the boundary's (the first item's)
    assert all(s == "review" for s, _ in _statuses(text))
    assert area_sections("AREA:\n- 5130N00010W\n- 5131N00011W\n- 5132N00012W\n- 5130N00010W") == []


def test_a_value_right_before_the_first_place_is_the_first_areas():
    # "管控时段：…18时-24时 半径2公里，圆心…": no break between the period and the first circle: it opens area 1
    text = ("【空域管制】\n管控时段：2024年6月10日18时-24时 半径2公里，圆心北纬24°26′东经118°02′，真高120米以下；由北纬24度41分 东经117度57分 "
            "北纬24度39分，东经118度03分 北纬24度44分、东经118度07分 北纬24度48分 东经118度03分围成的范围，真高300米以下。")
    recs = _records(text)
    assert len(recs) == 2 and recs[1].status == "review"
    assert any("on the first area's line" in r for r in recs[1].reasons), recs[1].reasons


@pytest.mark.parametrize("text, doubted", [
    # a venue named as its own clause, its height after it (semantic fuzzer, seed 78 row 63116)
    ("时间：2026年9月10日0时至6时。\n位置 北纬29°35′，东经106°43′；半径1150米；悦来国际会议中心，真高120米（含）以下。\n"
     "位置北纬29°22′，东经106°39′ 半径1千米。", "upper limit"),
    # a venue before what is done there, its height shared with the next line's circle (row 86091)
    ("通告2025年12月10日15时-2025年12月10日19时期间。\n宝安体育场实施临时禁飞，高度真高50米以下；\n"
     "以北纬22.7606°、东经114.0681°为中心，半径7.5公里以内；\n北纬22°20′、东经114°02′周围1公里；", "upper limit"),
    # a distance from a venue (row 65933)
    ("管控时段：2024年1月7日22时—2024年1月8日0时  半径3公里，中心北纬28°26′ 东经113°02′  距贺龙体育中心0.4公里范围内，"
     "真高50米以下空域", "upper limit"),
    # a venue before "区域禁飞" (seed 79 row 88284)
    ("通告时间：2025年3月10日12时至2025年3月11日12时，禁飞区域如下：\n环东海域体育公园区域禁飞飞行高度真高50米以下。\n"
     "半径5.2千米，中心点北纬24度25分东经118度09分 真高500米（含）以下；", "upper limit"),
    # "above" a Title-Case venue (row 6331)
    ("Dispatch board -\nfrom 2505150045 until 2505150215\n- above Silverstone Circuit - between 500m AGL and 1200M AMSL\n"
     "- CENTRE 403957N 0742144W; RADIUS: 30000 FT.", "limit"),
])
def test_a_venue_named_without_a_cue_word_still_owns_the_values_beside_it(text, doubted):
    """A venue the reader draws no zone for still stands between a value and the zone that would take it: the
    value is the venue's or the zone's, and the text does not say which, so nothing that took it is ok."""
    got = _statuses(text)
    assert got and not any(s == "ok" and any(r for r in why) for s, why in got)
    assert any(any(doubted in r for r in why) for s, why in got if s == "review"), got
    assert all(s == "review" for s, why in got if any(doubted in r for r in why))


def test_an_item_whose_own_time_was_not_read_does_not_take_another_items_period():
    """A list led by "board - 1)", whose item 2 states its own end in prose the reader does not take as a period:
    item 3's period is not item 2's (semantic fuzzer, seed 78 row 44238)."""
    text = ("Dispatch board - 1) area bounded by 4356N07914W , 4404N07927W , 4353N07931W - height limit UNL\n"
            "2) points 431112N0794235W\n432321N0793357W\n432226N0795233W; between surface and 3000ft AGL; UNTIL "
            "January 25, 2024 at 1500 UTC;\n"
            "3) CENTERED ON 435849N 0790142W RADIUS 0.6 kilometres - BLW FL330 \nWEF 2303052101 TIL 2303142200\n")
    assert [text[a:a + 2] for a, _ in area_sections(text)] == ["1)", "2)", "3)"]
    recs = _records(text)
    second = next(r for r in recs if r.geometry.type == "polygon" and abs(r.geometry.points[0][0] - 43.18667) < 1e-4)
    assert second.status == "review"
    assert any(r.startswith(("start time read", "end time read")) for r in second.reasons), second.reasons


def test_a_zone_whose_own_clause_writes_an_unread_time_does_not_take_the_headings():
    """An unlabelled list: the second area's clause writes its own period ("时间：2023年9月1日22:00—…") in a form the
    reader passed over; the period written at the top is not the second area's (semantic fuzzer, seed 78 row 51070)."""
    text = ("关于临时禁飞的通告  2023年8月4日6时至8时；北纬25°06′30″，东经102°44′20″；北纬25°08′51″东经102°41′17″；"
            "北纬25°12′20″、东经102°43′17″围成的范围；真高300米以内  "
            "范围：北纬25度15分、东经102度51分；北纬25度15分、东经102度53分；北纬25度12分 东经102度55分；北纬25度12分，"
            "东经102度50分围成的范围；高度真高100米以下；时间：2023年9月1日22:00—2023年9月2日04:00。")
    recs = _records(text)
    second = next(r for r in recs if abs(r.geometry.points[0][0] - 25.25) < 1e-6)
    assert second.status == "review"
    assert any("outside this area's own clause" in r for r in second.reasons), second.reasons


def test_a_notice_field_and_a_venue_named_beside_its_coordinates_are_the_zones_own():
    # cn-yichang-concert-2023-07-08 (world train), its heading and first item written as many notices write them: a
    # heading sentence that names the venue's surroundings, the period as the notice's own field on a line of its
    # own, the zone's venue named right before its coordinates. Neither the venue beside its coordinates
    # ("奥体中心体育场（东经…）") nor the heading's venue is another area the period was read beyond
    from world_rows import world_text

    text = world_text("cn-yichang-concert-2023-07-08").replace(
        "禁止无人机、小型航空器具和空飘物等“低慢小”飞机器在相关活动区域飞行", "决定对奥体中心周边空域实施临时管控")
    area = ("\n  二、管控区域：以奥体中心体育场（东经111.2695度，北纬30.6582度）为中心，半径2公里范围内，")
    item = "一、活动当日17时至23时,奥体中心沿点军大道、江南二路、将军路、巴王店路形成的合围地域上方空域,"
    (rec,) = _records(text.replace(item, "一、管控时间：2023年7月8日17时至23时。" + area))
    assert rec.geometry.type == "circle" and rec.geometry.radius_m == 2000.0
    assert not [r for r in rec.reasons if "beyond another place" in r]
    # the period on an item line that is no field of the notice may be the heading venue's: still review
    (rec,) = _records(text.replace(item, "一、2023年7月8日17时至23时。" + area))
    assert [r for r in rec.reasons if "beyond another place" in r]
