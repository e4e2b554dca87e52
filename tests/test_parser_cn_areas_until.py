"""Chinese notices' whole areas, areas bounded by the roads on their sides, an area label's place, lists of venues
numbered with Arabic numbers, polygons of labelled points, clocks in a part of the day, and a ban in force "from
today until" a day (issue 44, forms 2, 3 and 4), on train rows of the world set cited by id beside variants of them.
Test rows are never read."""

from __future__ import annotations

import pytest
from world_rows import utc as _t
from world_rows import world_text as _world

from airspace.parser.rules import rules_zones
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

BEIJING = "ihouhe:ihouhe-beijing-2022"
YICHANG = "cn-yichang-concert-2023-07-08"


def _one(text: str):
    (rec,) = [r for r in process_batch([Message(0, text)], "rules")[0] if r.geometry is not None]
    return rec


@pytest.mark.parametrize(("area", "name"), [
    # ihouhe-beijing-2022 writes "在本市行政區域內"; a city's whole area is written in these ways too (the area without
    # the "within" its sentence says)
    ("在本市行政區域內", "本市行政區域"),
    ("在合肥市城区全域", "合肥市城区全域"),
    ("全市范围内", "全市"),
    ("在我市市区范围内", "我市市区"),
    ("朝阳区辖区内", "朝阳区"),
])
def test_a_whole_administrative_area(area, name):
    text = _world(BEIJING).replace("在本市行政區域內", area)
    assert [z["name"] for z in rules_zones(text)] == [name]


def test_an_area_bounded_by_the_road_on_each_side():
    # cn-yichang-concert-2023-07-08 bounds its area by the roads along it ("奥体中心沿点军大道、江南二路、将军路、巴王店路
    # 形成的合围地域"); notices also write each side's road first ("X以东、Y以西、Z以南、W以北围合区域"): the whole
    # description is the place
    text = _world(YICHANG).replace("奥体中心沿点军大道、江南二路、将军路、巴王店路形成的合围地域",
                                   "点军大道以东、江南二路以西、将军路以南、巴王店路以北围合区域")
    assert _one(text).geometry.name == "点军大道以东、江南二路以西、将军路以南、巴王店路以北围合区域"
    # two sides are no bounded area
    assert "围合区域" not in str(rules_zones(text.replace("将军路以南、巴王店路以北围合区域", "的区域")))


def test_in_force_from_today_until_a_day():
    # ihouhe-beijing-2022: "19日起至10月31日24時" from the 19th; a notice in force from its own day writes
    # "自即日起至…": the end alone (the start, the notice's day, is not written), a bare day's end its midnight
    text = _world(BEIJING).replace("19日起至10月31日24時", "自即日起至2022年10月31日")
    rec = _one(text)
    assert (rec.start, rec.end) == (None, _t("2022-10-31T16:00Z"))
    rec = _one(_world(BEIJING).replace("19日起至10月31日24時", "从本通告发布之日起至2022年10月31日18时"))
    assert (rec.start, rec.end) == (None, _t("2022-10-31T10:00Z"))


_ITEM = "一、活动当日17时至23时,奥体中心沿点军大道、江南二路、将军路、巴王店路形成的合围地域上方空域,"


def test_venues_numbered_with_arabic_numbers_are_each_a_zone():
    # cn-yichang-concert-2023-07-08's first item as a list of venues numbered "1." / "2、" after a colon or a
    # semicolon: each its own zone with its own radius, the period before the list for all of them
    for a, b, c in (("1.", "2.", "3."), ("1、", "2、", "3、")):
        text = _world(YICHANG).replace(_ITEM, f"一、2023年7月8日17时至23时，禁止在以下区域飞行：{a}奥体中心体育场周边1公里；"
                                              f"{b}点军区政府周边500米；{c}江南二路上空。")
        got = [(z["name"], z.get("radius")) for z in rules_zones(text)]
        assert got == [("奥体中心体育场", "1公里"), ("点军区政府", "500米"), ("江南二路", None)]
    # a number with a point inside a value is no list ("1.5公里")
    text = _world(YICHANG).replace(_ITEM, "一、2023年7月8日17时至23时，奥体中心体育场周边1.5公里范围内，")
    assert [z["name"] for z in rules_zones(text)] == ["奥体中心体育场"]


def test_a_polygon_of_labelled_points_each_in_brackets():
    text = _world(YICHANG).replace(_ITEM, "一、管控区域：A点（东经111°15′20″，北纬30°39′10″）、B点（东经111°16′00″，北纬30°39′30″）、"
                                          "C点（东经111°16′10″，北纬30°38′40″）三点连线围成的区域，活动当日17时至23时，")
    (rec,) = [r for r in process_batch([Message(0, text)], "rules")[0] if r.geometry is not None]
    assert rec.geometry.type == "polygon" and len(rec.geometry.points) == 3
    assert rec.geometry.points[0] == pytest.approx((30.652778, 111.255556), abs=1e-6)


def test_clock_times_in_a_part_of_the_day():
    # "下午5时至晚上11时" (5 pm to 11 pm) on the concert's day, Beijing time
    text = _world(YICHANG).replace("活动当日17时至23时", "2023年7月8日下午5时至晚上11时")
    rec = _one(text)
    assert (rec.start, rec.end) == (_t("2023-07-08T09:00Z"), _t("2023-07-08T15:00Z"))


def test_the_place_an_area_label_names():
    text = _world(YICHANG).replace(_ITEM, "一、禁飞区域为奥体中心体育场，活动当日17时至23时，")
    assert [z["name"] for z in rules_zones(text)] == ["奥体中心体育场"]


@pytest.mark.parametrize(("item", "zones"), [
    # the place after "对" that a decision or a time puts before it, not the authority's sentence
    ("一、公安机关决定于2023年7月8日17时至23时对奥体中心体育场及周边2公里范围实施临时禁飞，",
     [("奥体中心体育场", "2公里")]),
    # the radius written as "N公里为半径" after the centre
    ("一、活动当日17时至23时,以奥体中心体育场为圆心，3公里为半径的区域内,", [("奥体中心体育场", "3公里")]),
    # venues listed before one radius: each a zone with it
    ("一、活动当日17时至23时,在奥体中心体育场、点军区政府、火车站周边1公里范围内,",
     [("奥体中心体育场", "1公里"), ("点军区政府", "1公里"), ("火车站", "1公里")]),
    # the venue, not its airspace ("上空及周边")
    ("一、活动当日17时至23时,奥体中心体育场上空及周边3公里范围内,", [("奥体中心体育场", "3公里")]),
])
def test_chinese_venue_forms(item, zones):
    text = _world(YICHANG).replace(_ITEM, item)
    assert [(z["name"], z.get("radius")) for z in rules_zones(text)] == zones


def test_a_chinese_label_that_repeats_its_hemisphere_letter():
    # "北纬N30°39′10″、东经E111°15′20″": the label and the letter say the same; a letter that contradicts its label
    # is no coordinate
    item = "一、活动当日17时至23时,以北纬N30°39′10″、东经E111°15′20″为中心，半径2公里范围内,"
    rec = _one(_world(YICHANG).replace(_ITEM, item))
    assert rec.geometry.type == "circle" and rec.geometry.center == pytest.approx((30.652778, 111.255556), abs=1e-6)
    from airspace.parser.coords import find_coords

    assert find_coords("北纬E30°39′10″") == []


@pytest.mark.parametrize(("item", "zones"), [
    # a core instead of a centre ("以X为核心，向外延伸3公里")
    ("一、活动当日17时至23时,以奥体中心体育场为核心，向外延伸3公里,", [("奥体中心体育场", "3公里")]),
    # an area label before the place is no part of it ("管控范围为X及周边1000米区域")
    ("一、活动当日17时至23时,管控范围为奥体中心体育场及周边1000米区域,", [("奥体中心体育场", "1000米")]),
    # the place a measure is put on, or that a ban's flights are in
    ("一、活动当日17时至23时,对奥体中心体育场区域实施空中管控,", [("奥体中心体育场", None)]),
    ("一、活动当日17时至23时,禁止在奥体中心体育场放飞无人机,", [("奥体中心体育场", None)]),
    # the whole city as the subject of its ban
    ("一、活动当日17时至23时,全市禁止无人机飞行,", [("全市", None)]),
])
def test_more_chinese_place_forms(item, zones):
    text = _world(YICHANG).replace(_ITEM, item).replace(
        "禁止无人机、小型航空器具和空飘物等“低慢小”飞机器在相关活动区域飞行", "特通告如下")
    assert [(z["name"], z.get("radius")) for z in rules_zones(text)] == zones
