"""Rings around a named place in prose (issue 44): several rings of their own size around one venue, each with the
limits its own sentence states; "the stadium" standing for the one stadium the text names; a radius in Chinese
numerals, and a radius stated for places in a sentence of its own. Real train rows of the world set cited by id,
beside variants of them that test the grammar rather than the message. Test rows are never read here.
"""

from __future__ import annotations

import pytest
from world_rows import drawn_records as _records
from world_rows import world_text as _world

from airspace.core.records import NM_TO_M
from airspace.parser.distwords import distance_m
from airspace.parser.rules import rules_zones

SUPER_BOWL_LIII = "dronebelow:super-bowl-liii-2019"
SUPER_BOWL_LVI = "cartizzle:super-bowl-lvi"
KAI_TAK = "hk-bau:kaitak-stadium-july"


def _by_radius(zones: list[dict[str, str]]) -> dict[float, dict[str, str]]:
    return {round(distance_m(z["radius"]) / NM_TO_M, 3): z for z in zones}


def test_two_rings_around_one_stadium_each_with_its_own_ceiling():
    """train ``dronebelow:super-bowl-liii-2019``: "within a 30-nautical-mile radius of the stadium up to 17,999
    feet" and "for one nautical mile around the stadium up to an altitude of 1,000 feet": two zones around the
    stadium the article names, each with the ceiling of its own sentence."""
    rings = _by_radius(rules_zones(_world(SUPER_BOWL_LIII)))
    assert sorted(rings) == [1.0, 30.0]
    assert {z["name"] for z in rings.values()} == {"Mercedes-Benz Stadium in Atlanta"}
    assert rings[30.0]["upper"] == "17,999 feet"
    assert rings[1.0]["upper"] == "1,000 feet"
    recs = _records(_world(SUPER_BOWL_LIII))
    assert sorted(round(r.geometry.radius_m) for r in recs) == [1852, 55560]
    assert all(r.status == "review" for r in recs)  # a venue is never geocoded by the reader


def test_the_stadium_stands_for_the_one_stadium_named_with_its_town():
    """train ``cartizzle:super-bowl-lvi``: "over the SoFi Stadium in Inglewood California …", then "within a
    30-nautical-mile radius of the stadium … to an altitude of 18,000 feet" and "within one-nautical-mile of the
    stadium … up to an altitude of 3,000 feet"."""
    rings = _by_radius(rules_zones(_world(SUPER_BOWL_LVI)))
    assert sorted(rings) == [1.0, 30.0]
    assert {z["name"] for z in rings.values()} == {"SoFi Stadium in Inglewood California"}
    assert rings[30.0]["upper"] == "18,000 feet"
    assert rings[1.0]["upper"].rstrip(".") == "3,000 feet"


def test_the_stadium_is_no_place_when_the_text_names_two():
    """The same article with a second stadium named: "the stadium" could be either, so no ring is read; what is left
    is the restriction the article names a stadium for ("Temporary Flight Restriction (TFR) over the SoFi Stadium
    in Inglewood California"), without a radius."""
    text = _world(SUPER_BOWL_LVI) + "\nLast year the game was played at Hard Rock Stadium in Miami Gardens."
    zones = rules_zones(text)
    assert [z["name"] for z in zones] == ["SoFi Stadium in Inglewood California"]
    assert "radius" not in zones[0]


def test_a_rings_town_is_never_a_date():
    """"… Stadium in February": a month after "in" is no town, the venue's name ends at the stadium."""
    text = _world(SUPER_BOWL_LIII).replace("Mercedes-Benz Stadium in Atlanta", "Mercedes-Benz Stadium in February")
    assert {z["name"] for z in rules_zones(text)} == {"Mercedes-Benz Stadium"}


def test_a_radius_in_chinese_numerals_stated_for_the_places_again():
    """train ``hk-bau:kaitak-stadium-july``: the venues are named where their times are listed, and their radius in
    a sentence of its own: "分別為啟德青年運動場及香港大球場向外延伸兩公里範圍": both rings are 2 km."""
    zones = rules_zones(_world(KAI_TAK))
    assert [(z["name"], z["radius"]) for z in zones] == [("啟德青年運動場", "兩公里"), ("香港大球場", "兩公里")]
    assert {r.geometry.radius_m for r in _records(_world(KAI_TAK))} == {2000.0}


@pytest.mark.parametrize(("words", "metres"), [("两公里", 2000.0), ("五百米", 500.0), ("三千米", 3000.0),
                                               ("十五公里", 15000.0), ("2公里", 2000.0)])
def test_a_radius_after_the_place_in_any_numerals(words: str, metres: float):
    """The Kai Tak sentence with other radii, in Chinese numerals or digits: each read as written."""
    text = _world(KAI_TAK).replace("兩公里", words)
    assert {r.geometry.radius_m for r in _records(text)} == {metres}


def test_a_radius_after_another_name_is_not_the_places():
    """A radius written after a name that is none of the zones' ("某公園向外延伸兩公里") is no zone's radius."""
    text = _world(KAI_TAK).replace("分別為啟德青年運動場及香港大球場向外延伸", "分別為某公園向外延伸")
    assert all("radius" not in z for z in rules_zones(text))


def test_the_restrictions_own_radius_is_around_the_one_venue_named():
    """train ``brokenmount:super-bowl-lvi-2022``: "within the TFR’s 30-nautical-mile radius, covering the greater Los
    Angeles area" names no place in its phrase: the ring is around the one venue the article names (SoFi Stadium in
    Inglewood, California; "the Los Angeles area" is where it reaches, not a venue), beside the ring "within a one
    mile radius of SoFi Stadium" that the prose reader reads."""
    text = _world("brokenmount:super-bowl-lvi-2022")
    assert [(z["name"], z["radius"]) for z in rules_zones(text)] == [
        ("SoFi Stadium in Inglewood, California", "30-nautical-mile"), ("SoFi Stadium", "one mile")]
    # with a second venue named, the TFR's own radius is around neither
    two = text + "\nThe Rose Bowl Stadium in Pasadena hosts a watch party."
    assert [z["name"] for z in rules_zones(two)] == ["SoFi Stadium"]
