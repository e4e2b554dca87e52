"""Issue 45, findings 1-4: no confident wrong value from a damaged or self-contradicting message.

Each test reads a real-looking message (the dev set's Boston UAS NOTAM, an ICAO circle NOTAM) damaged or made to
contradict itself, through the rules reader (``process_batch``), and asserts the record is ``review`` with a reason
that names the value, never an ``ok`` record carrying a different value.
"""

import pytest

from airspace.parser.coords import find_coords
from airspace.parser.textnorm import damaged_number_at, damaged_numbers
from airspace.parser.units import parse_distance_m, parse_limit
from airspace.pipeline.batch import process_batch

BOS = ("!BOS 01/502 BOS AIRSPACE UAS WI AN AREA DEFINED AS .5NM RADIUS OF 421722N0712148W (9.5NM NW OWD) "
       "SFC-400FT AGL 2601190001-2607312359")
ICAO = ("(A0129/26 NOTAMN\nQ) KZBW/QRTCA/IV/BO/W/{q}/4221N07103W005\nA) KBOS B) 2601190000 C) 2601192359\n"
        "E) {e}\nF) {f} G) {g})")
CIRCLE = "UAS OPS WI 2NM RADIUS OF 422100N0710300W."


def read(text: str):
    recs, _ = process_batch(text, "rules")
    assert len(recs) == 1
    return recs[0]


def icao(q="000/010", e=CIRCLE, f="SFC", g="1000FT AMSL"):
    return ICAO.format(q=q, e=e, f=f, g=g)


def test_the_undamaged_messages_read_ok():
    r = read(BOS)
    assert r.status == "ok" and r.geometry.center == pytest.approx((42.289444, -71.363333), abs=1e-5)
    assert read(icao()).status == "ok"


# ---- 1. a damaged character inside a number ------------------------------------------------------------------

@pytest.mark.parametrize("bad", ["\x00", "\ufffd", "\x07", "\x1b"])
@pytest.mark.parametrize("where", [2, 4, 9])
def test_a_damaged_character_inside_the_coordinate_is_never_read_as_another_position(bad, where):
    coord = "421722N0712148W"
    text = BOS.replace(coord, coord[:where] + bad + coord[where:])
    r = read(text)
    assert r.status == "review"
    assert r.geometry is None or r.geometry.type != "circle" or r.geometry.center == pytest.approx(
        (42.289444, -71.363333), abs=1e-5)
    assert any("damaged" in x for x in r.reasons), r.reasons


def test_a_nul_in_a_boston_coordinate_no_longer_puts_the_zone_at_17_degrees_north():
    r = read(BOS.replace("421722N", "42\x001722N"))
    assert r.status == "review" and r.geometry is None
    assert any("'42\\x001722N0712148W'" in x for x in r.reasons), r.reasons


@pytest.mark.parametrize("radius", ["1\ufffd5NM", "2.\x005NM", "1\x005NM", ".\x005NM"])
def test_a_damaged_radius_is_unreadable_and_named(radius):
    r = read(BOS.replace(".5NM RADIUS", radius + " RADIUS"))
    assert r.status == "review"
    assert r.geometry is None or r.geometry.radius_m in (0.0,)
    assert any("radius" in x and "damaged" in x for x in r.reasons), r.reasons


@pytest.mark.parametrize("old,new", [("400FT AGL", "4\x0000FT AGL"), ("2607312359", "26073\ufffd12359"),
                                     ("SFC-400FT", "SFC-40\x070FT")])
def test_a_damaged_limit_or_time_is_review(old, new):
    r = read(BOS.replace(old, new))
    assert r.status == "review"
    assert not (r.upper is not None and r.upper.ft == 400.0 and "\x00" in new)


def test_damage_outside_a_number_is_not_damage_of_a_number():
    assert damaged_numbers("UAS\x00 OPS 5NM") == ()
    assert damaged_numbers("5NM RADIUS\x00") == ()
    assert damaged_numbers("A 1\ufffd5NM B") == ((2, 7),)
    assert damaged_number_at("WI 1\ufffd5NM", 5, 8) == "1\ufffd5NM"
    # the coordinate reader no longer reads a coordinate out of the part after the damage
    assert find_coords("42\x002100N0710300W") == []
    assert [c.text for c in find_coords("422100N0710300W \x00")] == ["422100N0710300W"]


# ---- 2. limits of different references that no terrain reconciles ----------------------------------------------

@pytest.mark.parametrize("f,g,why", [("5000FT AGL", "1000FT AMSL", "no terrain"),
                                     ("3000FT AMSL", "400FT AGL", "higher than 2,600 ft")])
def test_an_agl_amsl_pair_no_terrain_reconciles_is_review(f, g, why):
    r = read(icao(f=f, g=g))
    assert r.status == "review"
    assert any(why in x for x in r.reasons), r.reasons


def test_an_agl_floor_below_an_amsl_ceiling_stays_ok_with_a_note():
    r = read(icao(q="000/050", f="400FT AGL", g="5000FT AMSL"))
    assert r.status == "ok" and any(x.startswith("note:") and "references" in x for x in r.reasons)


# ---- 3. a message that contradicts itself -----------------------------------------------------------------------

def test_qline_limits_against_f_and_g():
    r = read(icao(q="000/010", f="FL200", g="FL300"))
    assert r.status == "review"
    assert any("Q-line" in x and "010" in x and "FL300" in x for x in r.reasons), r.reasons
    assert read(icao(q="190/310", f="FL200", g="FL300")).status == "ok"  # rounded outwards: consistent


def test_item_e_limits_against_g():
    r = read(icao(e="UAS OPS WI 2NM RADIUS OF 422100N0710300W SFC-5000FT AMSL.", g="1000FT AMSL"))
    assert r.status == "review"
    assert any("5000FT AMSL" in x and "1000FT AMSL" in x for x in r.reasons), r.reasons
    same = read(icao(e="UAS OPS WI 2NM RADIUS OF 422100N0710300W SFC-1000FT AMSL.", g="1000FT AMSL"))
    assert same.status == "ok"


def test_a_ceiling_taken_from_item_e_beyond_g_is_review():
    """What a model engine may do (the semantic fuzz's e_vs_g case): take the ceiling from item E)'s pair rather
    than from G). G) bounds every limit of the notice, so a ceiling above it is the message contradicting itself."""
    from airspace.core.records import SpanModel
    from airspace.parser.header import parse_header
    from airspace.pipeline.validate import validate

    text = icao(e="UAS OPS WI 2NM RADIUS OF 422100N0710300W ACTIVE SFC-5000FT AMSL.", g="1000FT AMSL")
    rec = read(text)
    assert rec.status == "review"  # the rules reader reads G) and names E)'s pair
    at = text.index("5000FT AMSL")
    taken = rec.model_copy(update={"status": "ok", "reasons": [], "upper": parse_limit("5000FT AMSL"),
                                   "spans": {**rec.spans, "upper": SpanModel(start=at, end=at + 11, text="5000FT AMSL")}})
    out = validate(taken, parse_header(text))
    assert out.status == "review"
    assert any("5000" in x and "item G)" in x and "1000" in x for x in out.reasons), out.reasons
    within = icao(e="UAS OPS WI 2NM RADIUS OF 422100N0710300W ACTIVE SFC-800FT AMSL.", g="1000FT AMSL")
    at = within.index("800FT AMSL")
    base = read(within)
    lower_e = base.model_copy(update={"status": "ok", "reasons": [], "upper": parse_limit("800FT AMSL"),
                                      "spans": {**base.spans, "upper": SpanModel(start=at, end=at + 10,
                                                                                 text="800FT AMSL")}})
    assert not any("item G)" in x for x in validate(lower_e, parse_header(within)).reasons)  # inside the envelope
    # E) repeats G)'s ceiling in words and states another pair: the ceiling read from the repetition is G)'s, and
    # the pair contradicts it
    again = icao(e="UAS OPS WI 2NM RADIUS OF 422100N0710300W ACTIVE SFC-5000FT AMSL. VERTICAL LIMITS: SFC TO "
                   "1000FT AMSL.", g="1000FT AMSL")
    at = again.index("1000FT AMSL")
    base = read(again)
    repeated = base.model_copy(update={"status": "ok", "reasons": [], "spans": {
        **base.spans, "upper": SpanModel(start=at, end=at + 11, text="1000FT AMSL")}})
    out = validate(repeated, parse_header(again))
    assert out.status == "review" and any("5000FT AMSL" in x for x in out.reasons), out.reasons


def test_a_negative_radius_is_not_read_as_positive():
    r = read(icao(e="UAS OPS WI -2NM RADIUS OF 422100N0710300W."))
    assert r.status == "review" and not (r.geometry and r.geometry.radius_m == 3704.0)
    assert any("minus" in x and "-2NM" in x for x in r.reasons), r.reasons
    with pytest.raises(ValueError, match="negative"):
        parse_distance_m("-2NM")
    assert parse_distance_m("RADIUS - 2NM") == 3704.0  # a separator, not a sign


def test_fl999_is_unlimited_and_said():
    assert parse_limit("FL999").ref == "UNL"
    r = read(icao(q="000/999", g="FL999"))
    assert r.upper.ref == "UNL" and r.status == "review"
    assert any("FL999" in x and "unlimited" in x and "99,900" in x for x in r.reasons), r.reasons


def test_a_later_radius_change_names_both_readings():
    r = read(icao(e="UAS OPS WI 2NM RADIUS OF 422100N0710300W. RADIUS INCREASED TO 5NM."))
    assert r.status == "review"
    assert any("RADIUS INCREASED TO 5NM" in x and "2NM" in x for x in r.reasons), r.reasons


# ---- 4. FAA times marked local ------------------------------------------------------------------------------------

def test_local_daily_hours_are_placed_with_the_zones_time_zone():
    text = BOS.replace("2601190001-2607312359", "DLY 1800-2200 LOCAL 2601192300-2601250300")
    r = read(text)
    # 18:00-22:00 in Boston in January is 23:00-03:00 UTC (EST, UTC-5)
    assert [(w.start.hour, w.end.hour) for w in r.windows][:2] == [(23, 3), (23, 3)]
    assert any("America/New_York" in x and "inferred" in x for x in r.reasons), r.reasons


def test_local_hours_across_a_daylight_saving_change_are_review():
    text = BOS.replace("2601190001-2607312359", "DLY 1800-2200 LOCAL 2603012300-2603310300")
    r = read(text)
    assert r.status == "review" and any("daylight saving" in x for x in r.reasons), r.reasons


def test_local_times_that_are_not_applied_are_review():
    r = read(BOS.replace("SFC-400FT AGL", "SFC-400FT AGL 1800-2200 LOCAL"))
    assert r.status == "review"
    assert any("'1800-2200 LOCAL'" in x for x in r.reasons), r.reasons


def test_two_periods_with_one_start_and_two_ends_are_review():
    """The semantic fuzzer's reproducer (seed 78 row 50947): one zone, two periods that share their start; the end
    the reader took is one of two the message writes."""
    text = ("TEMPORARY FLIGHT RESTRICTION.\nwithin the area 10°51'49\" N 106°14'42\" E TO 10º53'59\" N 106º12'54\" E TO "
            "10º56′53″N 106º12′45″E TO 10º56′50″N, 106º15′50″E. 2411022222-2411030422, 2411022222 TO 2411030022 - "
            "BLW 150M AMSL. Confirm receipt.")
    (r,) = [x for x in process_batch(text, "rules")[0] if x.geometry is not None]
    assert r.status == "review"
    assert any("two periods for this zone" in x for x in r.reasons), r.reasons
    # a D) list of windows inside B) and C) is no contradiction
    notam = ("F1159/22 NOTAMN\nQ) YMMM/QWMLW/IV/BO/W/000/999/3753S10103E120\nA) YMMM\nB) 2205201000 C) 2205241400\n"
             "D) 2205201000 TO 2205201400\n   2205211000 TO 2205211400\n   2205241000 TO 2205241400\n"
             "E) DANGER AREA 2NM RADIUS OF 375300S 1010300E\nF) SFC G) UNL")
    (r,) = [x for x in process_batch(notam, "rules")[0] if x.geometry is not None]
    assert not any("two periods" in x for x in r.reasons), r.reasons
