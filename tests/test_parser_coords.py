"""Coordinates: every written form from the real messages, free-text search with offsets, round-trip properties."""

import math

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from airspace.parser.coords import STYLE_PRECISION_DEG, STYLES, find_coords, format_coord, parse_coord

REAL = [
    # (text as in dev.jsonl, lat, lon) — hand arithmetic: deg + min/60 + sec/3600
    ("N480930 E0161028", 48 + 9 / 60 + 30 / 3600, 16 + 10 / 60 + 28 / 3600),
    ("512107N 0003608W", 51 + 21 / 60 + 7 / 3600, -(36 / 60 + 8 / 3600)),
    ("404108.00N0733635.00W", 40 + 41 / 60 + 8 / 3600, -(73 + 36 / 60 + 35 / 3600)),
    ("N391100E1005400", 39 + 11 / 60, 100 + 54 / 60),
    ("112400S1065000E", -(11 + 24 / 60), 106 + 50 / 60),
    ("0641S08916E", -(6 + 41 / 60), 89 + 16 / 60),
    ("0816S 13047W", -(8 + 16 / 60), -(130 + 47 / 60)),
    ("3952S 08205E", -(39 + 52 / 60), 82 + 5 / 60),
    ("524452.36N 0093036.12W", 52 + 44 / 60 + 52.36 / 3600, -(9 + 30 / 60 + 36.12 / 3600)),
    ("421722N0712148W", 42 + 17 / 60 + 22 / 3600, -(71 + 21 / 60 + 48 / 3600)),
    ("4809N01610E", 48 + 9 / 60, 16 + 10 / 60),
    ("421421.80N0705752.60W", 42 + 14 / 60 + 21.8 / 3600, -(70 + 57 / 60 + 52.6 / 3600)),
]

OTHER_FORMS = [
    ("52 38 00 S 163 00 00 E", -(52 + 38 / 60), 163.0),
    ("S06 42 E089 16", -(6 + 42 / 60), 89 + 16 / 60),
    ("11.5416° N 104.9200° E", 11.5416, 104.92),
    ("11.5416N 104.92E", 11.5416, 104.92),
    ("22°38′15″N 113°49′02″E", 22 + 38 / 60 + 15 / 3600, 113 + 49 / 60 + 2 / 3600),
    ("22º38'15\"N 113º49'02\"E", 22 + 38 / 60 + 15 / 3600, 113 + 49 / 60 + 2 / 3600),
    ("22°38'15''N 113°49'02''E", 22 + 38 / 60 + 15 / 3600, 113 + 49 / 60 + 2 / 3600),
    ("22°38&apos;15&quot;N 113°49&apos;02&quot;E", 22 + 38 / 60 + 15 / 3600, 113 + 49 / 60 + 2 / 3600),
    ("N22°38′ E113°49′", 22 + 38 / 60, 113 + 49 / 60),
    ("北纬22°38′ 东经113°49′", 22 + 38 / 60, 113 + 49 / 60),
    ("北緯22°38′ 東經113°49′", 22 + 38 / 60, 113 + 49 / 60),
    ("北纬２２°３８′ 东经１１３°４９′", 22 + 38 / 60, 113 + 49 / 60),
    ("东经113度49分30秒，北纬22度38分", 22 + 38 / 60, 113 + 49 / 60 + 30 / 3600),
    ("南纬33°52′ 西经151°12′", -(33 + 52 / 60), -(151 + 12 / 60)),
    ("5130.5N00007.25W", 51 + 30.5 / 60, -7.25 / 60),
    ("38-52-12N 077-02-11.5W", 38 + 52 / 60 + 12 / 3600, -(77 + 2 / 60 + 11.5 / 3600)),
    ("31-57.00N 077-01.00W", 31 + 57 / 60, -(77 + 1 / 60)),  # NAVAREA IV / HYDROPAC warnings
    ("28-39.69N 080-38.17W", 28 + 39.69 / 60, -(80 + 38.17 / 60)),
    ("39-12.00S 177-49.00E", -(39 + 12 / 60), 177 + 49 / 60),
    ("38°52'12\"N, Longitude: 77°02'11\"W", 38 + 52 / 60 + 12 / 3600, -(77 + 2 / 60 + 11 / 3600)),
    ("385212N/0770211W", 38 + 52 / 60 + 12 / 3600, -(77 + 2 / 60 + 11 / 3600)),
    ("N 48 09 30 E 016 10 28", 48 + 9 / 60 + 30 / 3600, 16 + 10 / 60 + 28 / 3600),
    ("北纬22.6375° 东经113.8172°", 22.6375, 113.8172),
    ("N22.6375 E113.8172", 22.6375, 113.8172),
    ("22.5431, 114.0579", 22.5431, 114.0579),
    ("-33.86882 151.20929", -33.86882, 151.20929),
]


@pytest.mark.parametrize("text,lat,lon", REAL + OTHER_FORMS)
def test_parse_coord_forms(text, lat, lon):
    got = parse_coord(text)
    assert got[0] == pytest.approx(lat, abs=1e-12)
    assert got[1] == pytest.approx(lon, abs=1e-12)


def test_parse_coord_exact_rounding():
    # one rounding only: the float nearest the exact rational
    assert parse_coord("N480930 E0161028") == (48.15833333333333, 16.174444444444443)
    assert parse_coord(" PSN:".replace("PSN:", "") + "(512107N 0003608W).") == (51.35194444444444, -0.6022222222222222)


@pytest.mark.parametrize(
    "bad",
    ["", "hello", "4809N", "N480930", "4860N01610E", "9100N01610E", "4809N18100E", "4809N01660E",
     "N480930 E0161028 N480930 E0161028", "PSN N480930 E0161028", "2309291346EST", "2.2NM"],
)
def test_parse_coord_rejects(bad):
    with pytest.raises(ValueError):
        parse_coord(bad)


def test_find_coords_real_messages(dev_by_id):
    row = dev_by_id["joey-A0511-25"]
    found = find_coords(row["text"])
    assert [m.text for m in found] == [
        "1142S10714E", "112400S1065000E", "111900S1073400E", "120000S1073851E", "120000S1070000E",
        "115548S1065341E", "112400S1065000E",
    ]
    for m in found:
        assert row["text"][m.start : m.end] == m.text
    assert found[3].lon == pytest.approx(107 + 38 / 60 + 51 / 3600, abs=1e-12)


def test_find_coords_every_dev_message_offsets(dev_rows):
    total = 0
    for row in dev_rows:
        for m in find_coords(row["text"]):
            assert row["text"][m.start : m.end] == m.text
            assert -90 <= m.lat <= 90 and -180 <= m.lon <= 180
            assert parse_coord(m.text) == (m.lat, m.lon)
            total += 1
    assert total == 89  # Q-line centres + every PSN/polygon point of the 25 messages


def test_find_coords_ignores_times_distances_and_named_points(dev_by_id):
    text = dev_by_id["joey-A2400-21"]["text"]
    assert [m.text for m in find_coords(text)] == [
        "2152N11314E", "N220216E1130000", "N213000E1130000", "N213000E1130830"]
    assert find_coords("B) 2302171352 C) 2309291346EST 2.2NM 0.5NM RADIUS FL130 1,600FT") == []


def test_find_coords_truth_centres(dev_rows):
    for row in dev_rows:
        truth = row.get("truth") or {}
        if truth.get("center"):
            lats = [(round(m.lat, 6), round(m.lon, 6)) for m in find_coords(row["text"])]
            assert (truth["center"]["lat"], truth["center"]["lon"]) in lats
        if truth.get("polygon"):
            pts = [[round(m.lat, 6), round(m.lon, 6)] for m in find_coords(row["text"])]
            for p in truth["polygon"]:
                assert p in pts


def test_signed_decimals_need_precision_and_range():
    assert find_coords("FREQ 122.055, 121.500 / 118.100 121.500") == []  # frequencies are not latitudes
    assert find_coords("VIS 1.5 2.5 KM, 2.2NM 1.62NM") == []
    (m,) = find_coords("drone pilot at -33.868,-151.209 reports")
    assert (m.lat, m.lon, m.text) == (-33.868, -151.209, "-33.868,-151.209")


def test_find_coords_offsets_with_entities():
    text = "A &apos;22°38&apos;15&quot;N 113°49&apos;02&quot;E&apos; B"
    (m,) = find_coords(text)
    assert text[m.start : m.end] == m.text == "22°38&apos;15&quot;N 113°49&apos;02&quot;E"


def test_format_coord_examples():
    assert format_coord(51.5, -7 / 60, "dm") == "5130N00007W"
    assert format_coord(51 + 30 / 60 + 12 / 3600, -(7 / 60 + 12 / 3600), "dms") == "513012N0000712W"
    assert format_coord(40.685556, -73.609722, "dms_dec") == "404108.00N0733635.00W"
    assert format_coord(39 + 11 / 60, 100.9, "hemi_first") == "N391100E1005400"
    assert format_coord(48 + 9 / 60 + 30 / 3600, 16 + 10 / 60 + 28 / 3600, "hemi_first_space") == "N480930 E0161028"
    assert format_coord(-(52 + 38 / 60), 163.0, "spaced") == "52 38 00 S 163 00 00 E"
    assert format_coord(-6.7, 89 + 16 / 60, "spaced_dm") == "S06 42 E089 16"
    assert format_coord(11.5416, 104.92, "decimal_deg") == "11.5416° N 104.9200° E"
    assert format_coord(22 + 38 / 60 + 15 / 3600, 113 + 49 / 60 + 2 / 3600, "dms_symbols") == "22°38′15″N 113°49′02″E"
    assert format_coord(22 + 38 / 60, 113 + 49 / 60, "cn") == "北纬22°38′ 东经113°49′"
    with pytest.raises(ValueError):
        format_coord(0, 0, "nope")


lats = st.floats(min_value=-90, max_value=90, allow_nan=False)
lons = st.one_of(
    st.floats(min_value=-180, max_value=180, allow_nan=False),
    st.floats(min_value=179.9, max_value=180), st.floats(min_value=-180, max_value=-179.9),
)


@settings(max_examples=300, deadline=None)
@given(lat=lats, lon=lons, style=st.sampled_from(STYLES))
def test_format_parse_round_trip(lat, lon, style):
    text = format_coord(lat, lon, style)
    plat, plon = parse_coord(text)
    tol = STYLE_PRECISION_DEG[style] / 2 + 1e-9
    assert abs(plat - lat) <= tol, text
    assert abs(plon - lon) <= tol, text
    # a coordinate in the middle of prose is found with exact offsets
    prose = f"AREA WI 2NM RADIUS OF {text} (PSN) SFC-FL050"
    (m,) = find_coords(prose)
    assert prose[m.start : m.end] == text
    assert (m.lat, m.lon) == (plat, plon)
    assert math.copysign(1, plat) == math.copysign(1, lat) or abs(lat) <= tol


def test_coordinate_split_by_a_line_wrap_rkrr():
    # a real RKRR item E: the first vertex is broken by a line wrap
    text = "E)AREA BOUNDED BY THE FOLLOWING 36242\n4N1262847E-370050N1261446E-365407N1261433E"
    found = find_coords(text)
    assert len(found) == 3
    assert found[0].text == "36242\n4N1262847E" and text[found[0].start:found[0].end] == found[0].text
    assert (round(found[0].lat, 6), round(found[0].lon, 6)) == (36.406667, 126.479722)
    # a break inside the longitude, and hemisphere-first
    assert [(round(c.lat, 4), round(c.lon, 4)) for c in find_coords("365407N126\n1433E")] == [(36.9019, 126.2425)]
    assert len(find_coords("N3911\n00E1005400")) == 1
    # never glued: numbers that are not a broken pair, or a whole pair after a number
    assert find_coords("FL 100\n200") == []
    assert [c.text for c in find_coords("12\n512107N 0003608W")] == ["512107N 0003608W"]


@pytest.mark.parametrize(
    "text,lat,lon",
    [
        # Dongguan (traditional mirror): "(參考坐標點:經度113°606186",緯度22°990196")" — the degree sign stands for
        # the decimal point; 經度/緯度 are the axis labels (longitude/latitude)
        ('(參考坐標點:經度113°606186",緯度22°990196")', 22.990196, 113.606186),
        ("经度113.606186,纬度22.990196", 22.990196, 113.606186),
        ("北纬22.990196,东经113.606186", 22.990196, 113.606186),
        ("经度:-58.25, 纬度:-34.5", -34.5, -58.25),
    ],
)
def test_chinese_labelled_decimal_degrees(text, lat, lon):
    (c,) = find_coords(text)
    assert (c.lat, c.lon) == (lat, lon)


def test_chinese_label_does_not_cut_dms_short():
    (c,) = find_coords("北纬22°38′15″ 东经113°49′02″")
    assert (round(c.lat, 6), round(c.lon, 6)) == (22.6375, 113.817222)
    assert find_coords("北纬22°3 东经113") == []  # "22°3" with no minute mark is not 22.3 (needs 5+ digits)


def test_colon_separated_dms():
    (c,) = find_coords("51:30:15N 000:07:30W")
    assert (c.lat, c.lon) == (51 + 30 / 60 + 15 / 3600, -(7 / 60 + 30 / 3600))
    assert find_coords("51:30-15N 000:07:30W") == []  # one separator style per half


def test_unicode_minus_in_signed_decimals():
    (c,) = find_coords("\u221233.8688, 151.2093")
    assert (c.lat, c.lon) == (-33.8688, 151.2093) and c.text == "\u221233.8688, 151.2093"


def test_spaced_list_last_point_before_a_full_stop():
    found = find_coords("AREA BOUNDED BY N45 30 E008 20, N45 35 E008 22, N45 31 E008 25.")
    assert [c.text for c in found] == ["N45 30 E008 20", "N45 35 E008 22", "N45 31 E008 25"]
    assert found[-1].lon == pytest.approx(8 + 25 / 60)


def test_unsigned_decimal_pair_touching_chinese_text():
    found = find_coords("以25.057960, 102.685240半径0.8KM范围内")
    assert [(c.lat, c.lon, c.text) for c in found] == [(25.05796, 102.68524, "25.057960, 102.685240")]
    assert find_coords("FREQ 118.100, 121.500MHZ") == []  # frequencies are not coordinates


def test_an_item_number_or_a_dates_day_after_a_spaced_coordinate_is_not_its_seconds():
    # "… E107 01  2)  S05 53 …" (a NOTAM listing numbered boundaries on one line), "W007 37  06 AUG" (a day's date)
    got = find_coords("COORDINATES: 1) S05 58 E107 01  S06 03 E106 59  S05 58 E107 01  2)  S05 53 E106 58")
    assert [round(c.lon, 6) for c in got] == [107.016667, 106.983333, 107.016667, 106.966667]
    got = find_coords("05 AUG N33 19 W007 37  06 AUG  N33 15 W007 30")
    assert [c.text for c in got] == ["N33 19 W007 37", "N33 15 W007 30"]
    # a third group that is seconds stays seconds
    assert find_coords("N45 31 15 E008 25 30.")[0].text == "N45 31 15 E008 25 30"


def test_a_full_stop_after_a_decimal_coordinate_ends_the_sentence_not_the_number():
    # the last vertex of "… TO N60.118 E10.864. GND TO 400 feet AGL." was dropped from its boundary
    assert [c.text for c in find_coords("N60.034811, E10.768002 TO N60.118 E10.864. GND TO 400 feet AGL.")] == [
        "N60.034811, E10.768002", "N60.118 E10.864"]
    assert [c.text for c in find_coords("S12.19461 W77.49320\nS12.184293, W77.500923.  Confirm receipt.")] == [
        "S12.19461 W77.49320", "S12.184293, W77.500923"]
    assert [c.text for c in find_coords("22.5431, 114.0579.")] == ["22.5431, 114.0579"]
    assert find_coords("N10.5.5 W20.1.1") == []  # a dotted number is no coordinate


@pytest.mark.parametrize("text, lat, lon", [
    # a list label's number is not a spaced coordinate's degrees (semantic fuzzer, seed 78 row 72462: 8°43.81'N)
    ("ZONE 8 43.810136N, 79.900584W", 43.810136, -79.900584),
    ("AREA 2 30 15N 120 30E", 30.25, 120.5),
    ("#3 30 15N 120 30E", 30.25, 120.5),
    # a position's own words are no label: its numbers are the coordinate's
    ("PSN 51 30 00N 000 10 00W", 51.5, -1 / 6),
    ("POINT 12 30 15N 120 30E", 12 + 30 / 60 + 15 / 3600, 120.5),
])
def test_a_label_number_before_a_spaced_coordinate_is_the_labels(text, lat, lon):
    (c,) = find_coords(text)
    assert (c.lat, c.lon) == (pytest.approx(lat), pytest.approx(lon))


# the coordinates of a text are found once and kept; each caller still gets a list of its own
def test_found_coordinates_are_each_callers_own():
    text = "AREA BOUNDED BY 512107N 0003608W - 5130N00010W - 513000N 0001000E"
    first = find_coords(text)
    assert len(first) == 3
    first.clear()
    assert [c.text for c in find_coords(text)] == ["512107N 0003608W", "5130N00010W", "513000N 0001000E"]


@settings(max_examples=300, deadline=None)
@given(st.text(alphabet=st.sampled_from("AZ09 .-\n\u00a0\u3000\u2013\u2212\uff11\uff2e\u4e00\u00ba"), max_size=40))
def test_clean_up_without_an_entity_maps_each_character_as_the_entity_path_does(text):
    # a text with an entity goes through the character-by-character path; without one, through str.translate
    from airspace.parser.textnorm import clean_with_map

    fast = clean_with_map(text)
    slow = clean_with_map(text + "&amp;")
    n = len(text)
    assert fast == (slow[0][:n], slow[1][:n], slow[2][:n])
    assert slow[0][n:] == "&" and slow[2][n] == n + 5
