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


# ---- sectors and semicircles (Doc 8126 style wording; bearings clockwise from the first to the second)
from pyproj import Geod  # noqa: E402

from airspace.parser.polygon import is_sector, parse_sector, sector_notes  # noqa: E402

_G = Geod(ellps="WGS84")


def _az_dist(c, p):
    az, _, d = _G.inv(c[1], c[0], p[1], p[0])
    return az % 360, d


@pytest.mark.parametrize("text, radius_m, a, b", [
    ("SECTOR CENTRED ON 512000N0001000W RADIUS 10KM BTN BRG 030 AND 120 DEG TRUE", 10000, 30, 120),
    ("SECTOR CENTRE 512000N0001000W AZM 030-120 DEG RADIUS 10KM", 10000, 30, 120),
    ("WI 5NM RADIUS OF 512000N0001000W BTN THE 090 AND 180 BRG", 9260, 90, 180),
    ("SECTOR CENTRED ON 512000N0001000W RADIUS 10KM BTN BRG 300 AND 060", 10000, 300, 60),
])
def test_sector_is_the_centre_then_the_arc_clockwise_between_the_bearings(text, radius_m, a, b):
    c = (51 + 20 / 60, -1 / 6)
    pts = parse_polygon(text)
    assert is_sector(text)
    assert pts[0] == pytest.approx(c, abs=1e-12)
    arc = [_az_dist(c, p) for p in pts[1:]]
    assert all(abs(d - radius_m) < 1e-3 for _, d in arc)
    assert arc[0][0] == pytest.approx(a % 360, abs=1e-6) and arc[-1][0] == pytest.approx(b % 360, abs=1e-6)
    sweep = (b - a) % 360
    steps = [(y[0] - x[0]) % 360 for x, y in zip(arc, arc[1:])]
    assert sum(steps) == pytest.approx(sweep, abs=1e-6) and max(steps) <= 3.0 + 1e-9  # clockwise, densified


def test_sector_notes_say_when_bearings_are_magnetic_or_unreferenced():
    assert sector_notes("SECTOR CENTRED ON 512000N0001000W RADIUS 10KM BTN BRG 030 AND 120 DEG TRUE") == []
    assert "magnetic" in sector_notes("SECTOR BTN AZMAG 030-120 DEG FROM 612800N0401500E RADIUS 10KM")[0]
    assert "no TRUE/MAG" in sector_notes("SECTOR CENTRE 612800N0401500E AZM 030-120 DEG RADIUS 10KM")[0]


def test_northern_semicircle_is_the_half_north_of_the_centre():
    c = (51 + 20 / 60, -1 / 6)
    pts = parse_polygon("NORTHERN SEMICIRCLE OF A CIRCLE RADIUS 5NM CENTRED ON 512000N0001000W")
    assert pts[0] == pytest.approx(c, abs=1e-12)
    arc = [_az_dist(c, p) for p in pts[1:]]
    assert arc[0][0] == pytest.approx(270) and arc[-1][0] == pytest.approx(90)
    assert all(abs(d - 9260) < 1e-3 for _, d in arc)
    assert all(p[0] > c[0] for p in pts[2:-1])  # the arc between due west and due east runs north of the centre


@pytest.mark.parametrize("text, why", [
    ("SECTOR CENTRED ON 512000N0001000W RADIUS 10KM", "bearings"),
    ("SECTOR CENTRED ON 512000N0001000W BTN BRG 030 AND 120", "radius"),
    ("SECTOR CENTRED ON 512000N0001000W RADIUS 5NM BTN BRG 030 AND 120 RADIUS 10NM", "more than one radius"),
    ("SECTOR RADIUS 10KM BTN BRG 030 AND 120", "one centre"),
])
def test_incomplete_or_ambiguous_sectors_say_what_is_missing(text, why):
    with pytest.raises(ValueError, match=why):
        parse_sector(text)


def test_sector_between_two_radii_is_the_ring_part_between_them():
    c = (51 + 20 / 60, -1 / 6)
    pts = parse_polygon("SECTOR BTN 5NM AND 10NM RADIUS CENTRED ON 512000N0001000W BTN BRG 030 AND 120")
    dist = [_az_dist(c, p) for p in pts]
    outer = [az for az, d in dist if abs(d - 18520) < 1e-3]
    inner = [az for az, d in dist if abs(d - 9260) < 1e-3]
    assert len(outer) + len(inner) == len(pts)
    assert outer[0] == pytest.approx(30) and outer[-1] == pytest.approx(120)
    assert inner[0] == pytest.approx(120) and inner[-1] == pytest.approx(30)  # back along the inner arc
    # "FM 0NM UP TO 1NM": from the centre itself, a plain sector
    pie = parse_polygon("SECTOR CENTRED ON 512000N0001000W FROM 0NM UP TO 1NM RADIUS BTN BRG 205 AND 245 TRUE")
    assert pie[0] == pytest.approx(c, abs=1e-12) and all(abs(_az_dist(c, p)[1] - 1852) < 1e-3 for p in pie[1:])


def test_arc_whose_extent_is_also_given_by_bearings_stays_one_polygon():
    # "… CLOCKWISE ARC RADIUS 10NM CENTRED ON C FROM BRG 000 TO BRG 180 - D …": the bearings restate the arc's ends
    pts = parse_polygon("513000N0001000W - 513000N0000000E - CLOCKWISE ARC RADIUS 10NM CENTRED ON 512000N0000000E "
                        "FROM BRG 000 TO BRG 180 - 511000N0000000E - 511000N0001000W")
    c = (51 + 20 / 60, 0.0)
    arc = [_az_dist(c, p) for p in pts[1:-1]]
    assert arc[0][0] == pytest.approx(0.0, abs=1e-6) and arc[-1][0] == pytest.approx(180.0, abs=1e-6)
    assert all(abs(d - 18520) < 30 for _, d in arc)  # the two ends are 10' of latitude away, about 10 NM
    assert all(0 <= az <= 180 for az, _ in arc)  # clockwise through the east


def test_the_word_sector_inside_a_point_chain_is_not_a_sector():
    assert not is_sector("513000N0001000W - 513000N0000000E (SECTOR A) - 511000N0000000E - 511000N0001000W")
    assert len(parse_polygon("513000N0001000W - 513000N0000000E (SECTOR A) - 511000N0000000E - 511000N0001000W")) == 4


@pytest.mark.parametrize("radius, metres", [("5,380M", 5380.0), ("3,900 M", 3900.0), ("13,200FT", 4023.36)])
def test_an_arcs_radius_written_with_thousands_is_the_arcs_radius(radius, metres):
    """The semantic fuzzer's reproducer (seed 78 row 3458): ``ON A 5,380M ARC`` was not read, so the arc ran from
    one endpoint's distance to the other's (1.6 km off the written radius) and the zone came back ok."""
    c = (61.0, -150 - 7 / 60)
    pts = parse_polygon(f"6056N15003W-6058N15007W THEN CLOCKWISE ON A {radius} ARC CENTERED ON 6100N15007W TO "
                        "6101N15013W-6104N15015W BACK TO START")
    arc = [_az_dist(c, p) for p in pts[2:-3]]
    assert len(arc) > 10 and all(d == pytest.approx(metres, abs=0.01) for _, d in arc)


def test_an_arcs_radius_that_cannot_be_read_is_said():
    with pytest.raises(ValueError, match="arc radius not read"):
        parse_polygon("6056N15003W-6058N15007W THEN CLOCKWISE ON A 5 380 ARC CENTERED ON 6100N15007W TO "
                      "6101N15013W-6104N15015W BACK TO START")
