"""Distances and vertical limits: real strings from dev.jsonl, exact conversions, round-trip properties."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from airspace.parser.units import parse_distance_m, parse_limit, parse_limit_range

DIST = [
    ("1NM", 1852.0), (".5NM", 926.0), ("0.5NM", 926.0), ("2.2NM", 2.2 * 1852), ("0.3NM", 555.6),
    ("RADIUS 4.0KM", 4000.0), ("4.0KM", 4000.0), ("1KM", 1000.0), ("RADIUS - 1NM", 1852.0),
    ("5KM (2.7NM)", 5000.0), ("30 NM", 55560.0), ("300M", 300.0), ("500 MTR", 500.0), ("1000FT", 304.8),
    ("2公里", 2000.0), ("2千米", 2000.0), ("500米", 500.0), ("２公里", 2000.0), ("半径2公里范围内", 2000.0),
    ("3海里", 5556.0), ("021", 21 * 1852.0), ("001", 1852.0), ("1,500 M", 1500.0), ("2 NAUTICAL MILES", 3704.0),
    ("5 KILOMETERS", 5000.0), ("1 SM", 1609.344), ("两公里", 2000.0), ("半径三公里", 3000.0), ("五百米", 500.0),
    ("一百零五米", 105.0), ("3 NMR", 5556.0), ("3 nautical mile", 5556.0),
    ("0.5NM RADIUS", 926.0), ("5 NM radius", 9260.0),
]


@pytest.mark.parametrize("text,metres", DIST)
def test_distance(text, metres):
    assert parse_distance_m(text) == pytest.approx(metres, rel=1e-15)


def test_distance_exact():
    assert parse_distance_m("2.2NM") == 4074.4  # exact rational 2.2 * 1852, rounded once
    assert parse_distance_m("2公里") / 1852 == pytest.approx(1.079914, abs=1e-6)  # dalian truth radius_nm


@pytest.mark.parametrize("bad", ["", "junk", "NM", "-1NM", "0NM", "5 MILES", "SFC-UNL", "1NM 2NM", "FL130"])
def test_distance_rejects(bad):
    with pytest.raises(ValueError):
        parse_distance_m(bad)


LIMITS = [
    ("SFC", "SFC", 0.0, 0.0), ("GND", "GND", 0.0, 0.0), ("UNL", "UNL", None, None),
    ("FL130", "FL", 13000.0, 3962.4), ("FL330", "FL", 33000.0, 10058.4), ("FL 050", "FL", 5000.0, 1524.0),
    ("3000FT AMSL", "AMSL", 3000.0, 914.4), ("500FT MSL", "AMSL", 500.0, 152.4),
    ("500FT AMSL", "AMSL", 500.0, 152.4), ("400FT AGL", "AGL", 400.0, 121.92),
    ("200FT AGL", "AGL", 200.0, 60.96), ("1,600FT AMSL", "AMSL", 1600.0, 487.68),
    ("1,500FT", "AMSL", 1500.0, 457.2), ("3000FT", "AMSL", 3000.0, 914.4),
    ("6500FT AMSL", "AMSL", 6500.0, 1981.2), ("18000 feet MSL", "AMSL", 18000.0, 5486.4),
    ("900M AMSL", "AMSL", 900 / 0.3048, 900.0), ("100M AGL", "AGL", 100 / 0.3048, 100.0),
    ("5700M AMSL", "AMSL", 5700 / 0.3048, 5700.0), ("5,700M AMSL", "AMSL", 5700 / 0.3048, 5700.0),
    ("12 200 m", "AMSL", 12200 / 0.3048, 12200.0), ("真高120米", "AGL", 120 / 0.3048, 120.0),
    ("真高120米以下", "AGL", 120 / 0.3048, 120.0), ("UP TO 1,600FT AMSL", "AMSL", 1600.0, 487.68),
    ("500FT AMSL ", "AMSL", 500.0, 152.4), ("SFC ", "SFC", 0.0, 0.0),
    ("400 feet above ground level (AGL)", "AGL", 400.0, 121.92), ("18,000 feet mean sea level", "AMSL", 18000.0, 5486.4),
    ("AT OR BELOW 400FT AGL", "AGL", 400.0, 121.92), ("真高120米（含）以下", "AGL", 120 / 0.3048, 120.0),
    ("相对高度300米", "AGL", 300 / 0.3048, 300.0), ("海拔高度3000米", "AMSL", 3000 / 0.3048, 3000.0),
    ("飞行真高一百二十米以下", "AGL", 120 / 0.3048, 120.0), ("真高１２０米", "AGL", 120 / 0.3048, 120.0),
    ("from the surface", "SFC", 0.0, 0.0),
]


@pytest.mark.parametrize("text,ref,ft,m", LIMITS)
def test_limit(text, ref, ft, m):
    lim = parse_limit(text)
    assert lim.ref == ref
    assert lim.raw == text
    if ft is None:
        assert lim.ft is None and lim.m is None
    else:
        assert lim.ft == pytest.approx(ft, rel=1e-15)
        assert lim.m == pytest.approx(m, rel=1e-15)


def test_limit_exact_metres():
    assert parse_limit("1,600FT AMSL").m == 487.68
    assert parse_limit("FL130").m == 3962.4


@pytest.mark.parametrize("bad", ["", "  ", "junk", "SFC-UNL", "FL", "FT", "1NM", "120", "2309291346", "AMSL"])
def test_limit_rejects(bad):
    with pytest.raises(ValueError):
        parse_limit(bad)


def test_dev_truth_limits(dev_rows):
    """Every F)/G) value of the dev set parses; truth rows match exactly."""
    import re

    seen = 0
    for row in dev_rows:
        for item, value in re.findall(r"\b([FG])\) (.+?)(?=\s+G\)|\s{2,}|\n|\)?$)", row["text"]):
            lim = parse_limit(value)
            seen += 1
            truth = (row.get("truth") or {}).get("lower" if item == "F" else "upper")
            if truth:
                assert lim.ref == truth["ref"], (row["id"], value)
                assert lim.ft == truth["value_ft"], (row["id"], value)
    assert seen >= 30


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=0, max_value=60000), ref=st.sampled_from(["AMSL", "MSL", "AGL", ""]),
       sep=st.sampled_from(["", " "]), thousands=st.booleans())
def test_limit_feet_round_trip(n, ref, sep, thousands):
    num = f"{n:,}" if thousands else str(n)
    text = f"{num}{sep}FT {ref}".strip()
    lim = parse_limit(text)
    assert lim.ft == n
    assert lim.m == pytest.approx(n * 0.3048, rel=1e-15)
    assert lim.ref == {"AGL": "AGL"}.get(ref, "AMSL")


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=0, max_value=998))  # (FL999 is the code for unlimited: test_hardening_values)
def test_limit_fl_round_trip(n):
    lim = parse_limit(f"FL{n:03d}")
    assert (lim.ref, lim.ft) == ("FL", n * 100)


@settings(max_examples=200, deadline=None)
@given(n=st.integers(min_value=1, max_value=20000), ref=st.sampled_from(["AMSL", "AGL"]))
def test_limit_metres_round_trip(n, ref):
    lim = parse_limit(f"{n}M {ref}")
    assert lim.m == n and lim.ref == ref
    assert lim.ft * 0.3048 == pytest.approx(n, rel=1e-12)
    assert parse_limit(f"真高{n}米").m == n


@settings(max_examples=200, deadline=None)
@given(tenths=st.integers(min_value=1, max_value=9999), unit=st.sampled_from(["NM", "KM", "M", "FT"]))
def test_distance_round_trip(tenths, unit):
    value = tenths / 10
    factor = {"NM": 1852, "KM": 1000, "M": 1, "FT": 0.3048}[unit]
    text = f"{value}{unit}" if tenths % 10 else f"{tenths // 10}{unit}"
    assert parse_distance_m(text) == pytest.approx(value * factor, rel=1e-12)


# ---- forms found in real published messages (realmore batch) ---------------------------------------------------


def test_fl_in_parentheses_tfr_page():
    # FDC 7/8363 TFR page: "Altitude: From the surface up to but not including FL(180)"
    for text in ("FL(180)", "FL (180)", "FL 180", "FLIGHT LEVEL 180", "G) FL(180)", "up to but not including FL(180)"):
        lim = parse_limit(text)
        assert (lim.ref, lim.ft, lim.raw) == ("FL", 18000.0, text)
    with pytest.raises(ValueError):
        parse_limit("FL(180")  # an unbalanced parenthesis is not silently accepted


def test_msl_alone_is_sea_level():
    # SAEF A1440/26: "F) MSL G) UNL"
    for text in ("MSL", "F) MSL", "MEAN SEA LEVEL"):  # (a bare "AMSL" has no value and stays rejected)
        lim = parse_limit(text)
        assert (lim.ref, lim.ft, lim.m) == ("AMSL", 0.0, 0.0)


def test_chinese_inclusive_marks_and_unlimited():
    # Xi'an: "半径3公里(含)以内,真高1000米(含)以下"; Beijing: "高度从地面至无限高"
    assert parse_distance_m("半径3公里(含)以内") == 3000.0
    lim = parse_limit("真高1000米(含)以下")
    assert (lim.ref, lim.m) == ("AGL", 1000.0)
    assert parse_limit("无限高").ref == "UNL" and parse_limit("無限高").ref == "UNL"
    assert parse_limit("地面").ref == "GND"


def test_limit_ranges_real_phrases():
    from airspace.parser.units import parse_limit_range

    lo, hi = parse_limit_range("高度从地面至无限高")  # Beijing notice
    assert (lo.ref, lo.ft, hi.ref, hi.ft) == ("GND", 0.0, "UNL", None)
    lo, hi = parse_limit_range("From the surface up to but not including FL(180)")  # FDC 7/8363 page
    assert (lo.ref, hi.ref, hi.ft) == ("SFC", "FL", 18000.0)
    lo, hi = parse_limit_range("SFC-17999FT MSL")  # FIS-B NOTAM-TFR 0/6733
    assert (lo.ref, hi.ref, hi.ft, hi.raw) == ("SFC", "AMSL", 17999.0, "17999FT MSL")
    lo, hi = parse_limit_range("2500FT AMSL\u20134500FT AMSL")
    assert (lo.ft, hi.ft) == (2500.0, 4500.0)
    lo, hi = parse_limit_range("SFC-FL180")  # FDC 1/4530
    assert (lo.ref, hi.ref, hi.ft) == ("SFC", "FL", 18000.0)
    lo, hi = parse_limit_range("真高0米至1000米")  # the reference word is written once for both
    assert (lo.ref, hi.ref, hi.m) == ("AGL", "AGL", 1000.0)
    lo, hi = parse_limit_range("1000-2000FT AMSL")  # the unit is written once, after the upper value
    assert (lo.ref, lo.ft, lo.raw, hi.ft) == ("AMSL", 1000.0, "1000", 2000.0)
    for bad in ("SFC", "1000-2000", "LOW TO HIGH", ""):
        with pytest.raises(ValueError):
            parse_limit_range(bad)


@pytest.mark.parametrize(
    "text,m",
    [
        ("向四周辐射2公里范围", 2000.0),  # Lintao: 以…为中心向四周辐射2公里范围
        ("周边500米范围内", 500.0),  # Ma'anshan: 合围区域及周边500米范围内
        ("周邊200米範圍", 200.0),  # Huizhou (traditional)
        ("两侧3公里内全部空域范围", 3000.0),  # Guangzhou: 赛道沿线两侧3公里内全部空域范围
        ("半徑3公里(含)以內", 3000.0),  # Xi'an (traditional)
        ("方圆5公里", 5000.0),
        ("1NM EITHER SIDE OF LINE", 1852.0),  # corridor half-width
    ],
)
def test_chinese_buffer_phrases_and_corridor_half_width(text, m):
    assert parse_distance_m(text) == m


@pytest.mark.parametrize("bad", ["2NM OF LINE", "5KM NORTH", "周边", "3公里外的城市"])
def test_distance_phrases_that_are_not_a_radius(bad):
    with pytest.raises(ValueError):
        parse_distance_m(bad)


@pytest.mark.parametrize(
    "text,ref,ft",
    [
        ("400FT (AGL)", "AGL", 400.0),  # a parenthesised reference is the reference, not a remark
        ("400FT/120M AGL", "AGL", 400.0),  # the first value rules; the restatement is skipped
        ("120M AGL (400FT)", "AGL", 120 / 0.3048),
        ("5000FT AMSL (1524M)", "AMSL", 5000.0),
        ("1000 FT. AGL", "AGL", 1000.0),
        ("5000' MSL", "AMSL", 5000.0),
        ("5.000FT", "AMSL", 5000.0),  # a dot as thousands separator
        ("A050", "AMSL", 5000.0),
        ("F050", "FL", 5000.0),
        ("FL195 (EXCLUDED)", "FL", 19500.0),
        ("FL180 EXCLUSIVE", "FL", 18000.0),
        ("2000FT AGL OR BELOW", "AGL", 2000.0),
        ("SFC/GND", "SFC", 0.0),
    ],
)
def test_limit_spellings_seen_in_notices(text, ref, ft):
    lim = parse_limit(text)
    assert lim.ref == ref and lim.ft == pytest.approx(ft) and lim.raw == text


@settings(max_examples=150, deadline=None)
@given(st.integers(0, 60000), st.integers(1, 60000), st.sampled_from(["-", " - ", " TO ", "\u2013", "至"]),
       st.sampled_from(["FT AMSL", "FT AGL", "M AMSL", "FT MSL"]))
def test_limit_range_round_trip(lo, extra, sep, unit):
    hi = lo + extra
    lower, upper = parse_limit_range(f"{lo}{unit}{sep}{hi}{unit}")
    metres = unit.startswith("M")
    assert (lower.m if metres else lower.ft) == lo and (upper.m if metres else upper.ft) == hi
    assert lower.ref == upper.ref == ("AGL" if "AGL" in unit else "AMSL")


def test_unicode_minus_and_hyphenated_units_aim_example():
    # AIM 91.137 TFR example: "within a 2−nautical−mile radius of Laser AFB" (U+2212 minus signs)
    assert parse_distance_m("2\u2212nautical\u2212mile radius") == 3704.0
    assert parse_distance_m("2-NM") == 3704.0
    lo, hi = parse_limit_range("2500FT AMSL\u20144500FT AMSL")  # an em dash
    assert (lo.ft, hi.ft) == (2500.0, 4500.0)
    for bad in ("5-mile", "1-2NM"):  # a bare "mile" is ambiguous; a range is not one distance
        with pytest.raises(ValueError):
            parse_distance_m(bad)
