"""Chinese notices' whole areas, areas bounded by the roads on their sides, and a ban in force "from today until" a
day (issue 44, forms 3 and 4), on train rows of the world set cited by id beside variants of them. Test rows are
never read."""

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
