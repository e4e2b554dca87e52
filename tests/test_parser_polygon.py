"""Polygon spans: vertex labels are labels, not named boundary points."""

import pytest

from airspace.parser.polygon import parse_polygon


@pytest.mark.parametrize("text", [
    "POINT A 513000N 0001000W - POINT B 514000N 0001000W - POINT C 514000N 0000000W",
    "PSN A: 513000N 0001000W PSN B: 514000N 0001000W PSN C: 514000N 0000000W",
    "1) 513000N 0001000W 2) 514000N 0001000W 3) 514000N 0000000W",
])
def test_vertex_labels_are_not_named_points(text):
    assert parse_polygon(text) == [(51.5, -1 / 6), (51 + 40 / 60, -1 / 6), (51 + 40 / 60, 0.0)]


def test_a_real_named_point_still_needs_coordinates():
    with pytest.raises(ValueError, match="GURIN"):
        parse_polygon("PSN B: 513000N 0001000W - 514000N 0001000W - 514000N 0000000W - GURIN")
