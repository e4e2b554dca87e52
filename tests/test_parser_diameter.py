"""A distance written as the area's diameter is twice the zone's radius: the normaliser halves it, for whichever
engine pointed at the distance, and says so; a radius with a diameter written elsewhere in the sentence stays the
radius. The real row is a Czech news item (``irozhlas:lkp-centrum-2022``, world train) whose zone is ``v oblasti o
průměru 7,4 kilometrů``; the sentences beside it are the same form in the other languages read."""

from __future__ import annotations

import pytest
from world_rows import drawn_records, world_text

from airspace.parser.distwords import diameter_at


def test_the_czech_row_writes_its_area_as_a_diameter():
    text = world_text("irozhlas:lkp-centrum-2022")
    s = text.index("7,4 kilometrů")
    assert diameter_at(text, s, s + len("7,4 kilometrů")) == "průměru 7,4 kilometrů"


@pytest.mark.parametrize("words", ["7,4 kilometrů od Žižkova", "radius 7,4 kilometrů", "7,4 kilometrů, průměr"])
def test_a_distance_without_a_diameter_beside_it_is_none(words):
    s = 0 if words[0].isdigit() else words.index("7,4")
    assert diameter_at(words, s, s + len("7,4 kilometrů")) is None


@pytest.mark.parametrize("text, radius_m", [
    ("Drones are banned in a no-fly zone with a diameter of 10 km around Wembley Stadium on 12 May 2024.", 5000.0),
    ("Flugverbot für Drohnen im Durchmesser von 6 km um den Olympiapark am 5. Juni 2024.", 3000.0),
    ("Temporary restricted area: a circle with a diameter of 2 km centred on 513000N 0000700W, SFC to 400 FT AGL.",
     1000.0),
])
def test_a_diameter_is_read_as_half_its_length_with_a_note(text, radius_m):
    (rec,) = drawn_records(text)
    got = rec.geometry.radius_m
    assert got == pytest.approx(radius_m)
    assert any("half the diameter written" in r for r in rec.reasons)
    assert any("half the diameter written" in i for i in rec.inferred)


def test_a_radius_with_its_diameter_in_brackets_stays_the_radius():
    (rec,) = drawn_records("Temporary restricted area: a circle of radius 1 km (2 km diameter) centred on "
                           "513000N 0000700W, SFC to 400 FT AGL.")
    assert rec.geometry.radius_m == pytest.approx(1000.0)
    assert not any("diameter" in r for r in rec.reasons)
