"""Thai prose that bans drone flights (``parser.rules.thai``): the places its markers name (เหนือ, บริเวณ, ที่ตั้งของ,
รอบ, a radius จาก a place), joined places (และ), tails that are no part of a name, and the one radius the ban
states in Thai units. On the world set's train row th-brighttv, cited by id, and on variants that move what the form
must not depend on."""

import pytest

from airspace.parser.units import parse_distance_m
from tests.world_rows import drawn_records, world_text


def _read(text: str) -> list[tuple[str, float | None, str]]:
    return [(r.geometry.name, r.geometry.radius_m, r.status) for r in drawn_records(text)]


def test_the_sites_an_authority_bans_drones_over():
    # th-brighttv:caat-no2-2560-phra-meru-mat: "…ซึ่งเป็นที่ตั้งของพระเมรุมาศจำลอง และซุ้มถวายดอกไม้จันทน์ในเขตปริมณฑล และใน
    # ส่วนภูมิภาคทั่วประเทศ รวมถึงเขตพื้นที่โดยรอบรัศมี 9 ก.ม.": two sites (the headline's shorter พระเมรุมาศ is the first),
    # "in the regions" and "the radius" are no places; the notice's date is no period
    recs = drawn_records(world_text("th-brighttv:caat-no2-2560-phra-meru-mat"))
    assert [(r.geometry.name, r.geometry.radius_m, r.status, r.start, r.end) for r in recs] == [
        ("พระเมรุมาศจำลอง", 9000.0, "review", None, None), ("ซุ้มถวายดอกไม้จันทน์", 9000.0, "review", None, None)]


@pytest.mark.parametrize("text, expected", [
    ("ห้ามบินโดรนในรัศมี 5 กิโลเมตร จากสนามบินสุวรรณภูมิ", [("สนามบินสุวรรณภูมิ", 5000.0, "review")]),
    ("ขอความร่วมมืองดบินโดรน รัศมี 9 กม. รอบพระบรมมหาราชวัง", [("พระบรมมหาราชวัง", 9000.0, "review")]),
    # two places joined, no radius: named only
    ("ห้ามใช้อากาศยานไร้คนขับเหนือสนามกีฬาแห่งชาติ และทำเนียบรัฐบาล", [("สนามกีฬาแห่งชาติ", None, "review"),
                                                                   ("ทำเนียบรัฐบาล", None, "review")]),
    # two radii: which is whose the text does not say, so none is taken
    ("ห้ามบินโดรนบริเวณสนามบินดอนเมือง รัศมี 5 กม. และรัศมี 9 กม.", [("สนามบินดอนเมือง", None, "review")]),
])
def test_thai_places_and_radius(text, expected):
    assert _read(text) == expected


@pytest.mark.parametrize("text", [
    "โดรนเป็นอากาศยานที่ได้รับความนิยมเหนือความคาดหมาย",  # drones, no ban
    "ห้ามบินโดรน",  # a ban, no place
])
def test_no_thai_place(text):
    assert _read(text) == []


@pytest.mark.parametrize("written, metres", [("9 ก.ม.", 9000.0), ("9 กม.", 9000.0), ("5 กิโลเมตร", 5000.0),
                                             ("300 เมตร", 300.0), ("3 ไมล์ทะเล", 5556.0)])
def test_thai_units(written, metres):
    assert parse_distance_m(written) == pytest.approx(metres)
