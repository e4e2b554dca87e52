"""Korean prose and notices that ban drone flights (``parser.rules.korean``, the periods in ``rules.times``): the
place before its anchor (일대, 상공, 반경 …), the period in Korea time. On the world set's train row kr-sbs, cited by
id, and on variants that move what the form must not depend on."""

import pytest

from airspace.parser.times import KST, cjk_script, parse_time, text_zone
from tests.world_rows import drawn_records, utc, world_text

_BAN = "드론 비행이 금지됩니다."


def _read(text: str) -> list[tuple[str, float | None, object, object]]:
    return [(r.geometry.name, r.geometry.radius_m, r.start, r.end) for r in drawn_records(text)]


def test_the_area_a_ministry_sets_as_a_no_fly_zone():
    # kr-sbs:apec-2025-gyeongju-gimhae: "…김해국제공항 일대를 비행금지 구역으로 설정한다고…": the words before 일대,
    # not the subject (국토교통부는) nor the object's particle; review, as every named place
    recs = drawn_records(world_text("kr-sbs:apec-2025-gyeongju-gimhae"))
    assert [(r.geometry.name, r.status) for r in recs] == [("김해국제공항", "review")]


@pytest.mark.parametrize("text, expected", [
    (f"2025년 5월 3일 오전 9시부터 오후 6시까지 서울 여의도 한강공원 일대에서 {_BAN}",
     [("서울 여의도 한강공원", None, utc("2025-05-03T00:00Z"), utc("2025-05-03T09:00Z"))]),
    # the dotted date of a notice, a weekday in brackets; a radius after the place
    ("기간: 2025. 5. 3.(토) 09:00 ~ 5. 5.(월) 18:00\n잠실종합운동장 반경 1km 드론 비행금지",
     [("잠실종합운동장", 1000.0, utc("2025-05-03T00:00Z"), utc("2025-05-05T09:00Z"))]),
    # whole days; two places, each with its radius (㎞, a decimal point that ends no sentence)
    ("국토교통부는 행사장 중심 반경 3.7㎞와 공항 중심 반경 9.3㎞를 비행금지구역으로 설정했습니다. "
     "기간은 2025년 10월 27일부터 11월 2일까지입니다.",
     [("행사장", 3700.0, utc("2025-10-26T15:00Z"), utc("2025-11-02T15:00Z")),
      ("공항", 9300.0, utc("2025-10-26T15:00Z"), utc("2025-11-02T15:00Z"))]),
])
def test_korean_places_and_periods(text, expected):
    assert _read(text) == expected


@pytest.mark.parametrize("text", [
    "국토교통부가 발표했다. 김해공항 일대는 평소처럼 운영됩니다.",  # no ban
    f"행사를 위해 일대에서 {_BAN}",  # the word before the anchor carries a particle: no place
])
def test_no_korean_place(text):
    assert _read(text) == []


def test_korean_clock_times_are_korea_time():
    assert text_zone(f"서울 여의도 {_BAN}") is KST
    # a Korean text keeps its language with a few Chinese characters in it (北, 美 in a headline)
    assert cjk_script(f"北 미사일 발사 … 서울 여의도 {_BAN}") == "ko"
    assert _read(f"北 미사일 발사. 2025년 5월 3일 오전 9시부터 오후 6시까지 여의도 일대에서 {_BAN}") == [
        ("여의도", None, utc("2025-05-03T00:00Z"), utc("2025-05-03T09:00Z"))]
    assert text_zone("2025-05-03 09:00 RWY 09 CLOSED") is None
    start = parse_time("2025년 5월 3일 오후 11시 30분", local_tz=KST).dt
    assert start == utc("2025-05-03T14:30Z")
    assert parse_time("다음날 오전 2시", local_tz=KST, ref=start).dt == utc("2025-05-03T17:00Z")


def test_a_notice_that_labels_its_place_period_and_height():
    # kr-sbs:apec-2025-gyeongju-gimhae writes in prose "공항 중심 반경 9.3㎞" and the period "29일 오전 0시부터 … 다음 달 2일
    # 오후 11시 59분까지"; notices write the same as labelled lines: the place's line after "장소:" (in a text that bans;
    # the label no part of the place), whole dotted days (Korea time, the end the last day's midnight), a height
    assert "공항 중심 반경 9.3㎞" in world_text("kr-sbs:apec-2025-gyeongju-gimhae")
    text = "APEC 정상회의 비행금지구역 설정\n장소: 김해국제공항 중심 반경 9.3㎞, 고도 150m 이하\n운영기간: 2025.10.29 ~ 2025.11.02\n"
    (rec,) = drawn_records(text)
    assert (rec.geometry.name, rec.geometry.radius_m) == ("김해국제공항", 9300.0)
    assert (rec.start, rec.end) == (utc("2025-10-28T15:00Z"), utc("2025-11-02T15:00Z"))
    assert (rec.upper.m, rec.upper.ref) == (150.0, "AMSL")
    # without a ban anywhere in the text a labelled place is none
    assert drawn_records(text.replace("비행금지구역 설정", "행사 안내")) == []
    # above the ground ("지상 고도")
    (rec,) = drawn_records(text.replace("고도 150m", "지상 고도 150m"))
    assert rec.upper.ref == "AGL"
