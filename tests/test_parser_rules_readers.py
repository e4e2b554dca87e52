"""The fallback readers of ``airspace.parser.rules.readers``, each on its own, in the order ``FALLBACKS`` runs them.

Archive rows are cited by id (all from the train/val split of ``airspace.data.realsplit``); the other strings are
the published forms the rules tests already quote.
"""

from airspace.parser.header import parse_header
from airspace.parser.rules import FALLBACKS, rules_zones
from airspace.parser.rules import readers as R
from airspace.parser.rules.zone import Message

# archive A0471/26 (train): a named area switched on, the Q-line with a position and a radius
GMMM_A0471 = ("A0471/26 NOTAMN  Q) GMMM/QRDCA/IV/BO/W/000/460/3404N00332W014  A) GMMM  B) 2607010000 C) 2609302359  "
              "E) GMD 07 (GUERCIF) ACT.  F) GND G) FL460")
# archive A1555/26 (train): the same form with a Q-line that has no position
VOMF_A1555 = ("A1555/26 NOTAMN  Q) VOMF/QRDCA/IV/BO/W/000/050/  A) VOMF B) 2605090030 C) 2608080030  E) VOD 179A ACT  "
              "F) GND G) 5000FT AMSL")
# archive A2527/26 (train): an airspace-organisation notice (route segment closed) whose A) is the FIR itself
ZWUQ_A2527 = ("A2527/26 NOTAMN  Q)ZWUQ/QARLC/IV/NBO/E/000/999/  A)ZWUQ B)2607021310 C)2607022200   E) SEGMENT "
              "ESDEX-RUSDI OF ATS RTE W192 CLSD  F)GND G)UNL")
# archive V0009/26 (train; also tests/test_parser_realmore.py): an advisory about another state's FIR
EGXX_V0009 = ("V0009/26 NOTAMN  Q) EGXX/QROXX/IV/NBO/W /000/999/5218N01451W999  A) EGTT EGPX EGGX B) 2602201338 "
              "C) PERM  E) SECURITY - HAZARDOUS SITUATION IN LIBYA  UK REGISTERED AIR OPERATORS ARE RECOMMENDED NOT "
              "TO ENTER FIR  TRIPOLI (HLLL). POTENTIAL RISK FROM ANTI-AIRCRAFT WEAPONRY.  THIS SUPERSEDES THE "
              "ADVICE IN THE CURRENT UK AIP.  UK AIP ENR 1.1. PARA 1.4.5 REFERS.  F) SFC G) UNL  CREATED: 20 FEB "
              "2026 13:52  SOURCE: EUECYIYN")
# archive A4460/24 (train; also the realmore set): a security warning about a list of FIRs
OIIX_A4460 = ("A4460/24 NOTAMR A2844/24  Q) OIIX/QAFXX/IV/NBO/E/000/999/3220N05324E999  A) OIIX  B) 2411110717 C) "
              "2502092030EST  E) AIRSPACE SECURITY WARNING ISSUED   BY IRAN CAA IN RESPONSE TO   THE VOLATILE SECURITY "
              "SITUATION IN UKRAINE.  IRANIAN REGISTERED AIR OPERATORS ARE ADVISED   TO TAKE ALL POTENTIAL RISK INTO "
              "ACCOUNT IN RISK ASSESSMENT   AND FLT PLANNING DECISIONS WHEN OPERATING  IN THE FLW FLIGHT INFORMATION "
              "REGIONS (FIR):  DNIPRO (UKDV), SIMFEROPOL (UKFV), LVIV (UKLV), ODESA (UKOV),  KYIV (UKBV), ROSTOV (URRV) "
              "AND MOLDOVA (LUUU).  FROM GND TO UNL)")


def _read(reader, text):
    zones = reader(Message.of(text, parse_header(text)))
    return [{k: s.text for k, s in z.fields.items()} for z in zones]


def test_the_order_of_the_readers():
    assert [f.__name__ for f in FALLBACKS] == [
        "aerodrome_radius", "prose_place", "news_places", "designator_list", "jp_facilities", "cn_labelled", "cn_items",
        "cn_periods", "cn_place", "cn_event", "fir_list", "fir_named", "qline_circle", "named_area", "news_eu_places",
        "news_ru_tr_places", "pl_cs_el_places", "ko_places", "th_places", "prose_designator", "location_indicator",
        "report_place"]
    assert all(f.__doc__ for f in FALLBACKS)


def test_aerodrome_radius():
    t = "!ATL 03/213 ATL AIRSPACE CONTROLLED BURN WI AN AREA DEFINED AS .5NM RADIUS OF ATL SFC-2000FT AGL 2603121638-2611191700"
    assert _read(R.aerodrome_radius, t) == [{"radius": ".5NM", "name": "ATL"}]
    assert _read(R.aerodrome_radius, GMMM_A0471) == []


def test_prose_place_only_in_free_text():
    t = "TFR: no flying within 0.4NM of Wembley Stadium - police request below 30 meters AGL 2024-05-20 19:00Z."
    assert _read(R.prose_place, t) == [{"radius": "0.4NM", "name": "Wembley Stadium"}]
    assert _read(R.prose_place, GMMM_A0471) == []  # an ICAO NOTAM: never a prose place


def test_cn_periods_and_cn_place():
    t = "管控时段和区域:2023年8月8日0时至9月1日0时,杭州奥体中心场馆群区域。2023年9月1日0时至10月28日24时,杭州市行政区域全境。"
    assert _read(R.cn_periods, t) == [{"name": "杭州市行政区域全境"}]
    one = "2024年9月10日至9月20日每日8时至18时，以大连梭鱼湾足球场为中心，半径3公里，禁止无人机飞行。"
    assert _read(R.cn_periods, one) == []  # one period: not this reader's form
    assert _read(R.cn_place, one) == [{"name": "大连梭鱼湾足球场", "radius": "3公里"}]


def test_qline_circle_only_with_a_usable_position():
    assert _read(R.qline_circle, GMMM_A0471) == [{"center": "3404N00332W", "radius": "014"}]
    assert _read(R.qline_circle, VOMF_A1555) == []
    assert _read(R.qline_circle, EGXX_V0009) == []  # 999 NM: the whole FIR, not a circle


def test_named_area_when_the_qline_has_no_position():
    assert _read(R.named_area, VOMF_A1555) == [{"name": "VOD 179A"}]
    assert _read(R.named_area, GMMM_A0471) == []  # the Q-line circle stands for it (earlier reader)
    assert _read(R.named_area, "!SUAE 03/010 ZNY AIRSPACE R5206 ACT SFC-5000FT 2603141000-2603150400") == [
        {"name": "R5206"}]


def test_fir_list_and_fir_named():
    assert [z["name"] for z in _read(R.fir_list, OIIX_A4460)] == [
        "DNIPRO (UKDV)", "SIMFEROPOL (UKFV)", "LVIV (UKLV)", "ODESA (UKOV)", "KYIV (UKBV)", "ROSTOV (URRV)",
        "MOLDOVA (LUUU)"]
    assert _read(R.fir_list, EGXX_V0009) == []
    assert _read(R.fir_named, EGXX_V0009) == [{"name": "FIR  TRIPOLI (HLLL)"}]


def test_location_indicator():
    assert _read(R.location_indicator, ZWUQ_A2527) == []  # an ATS route closure (QARLC): no area
    t = ZWUQ_A2527.replace("QARLC", "QRTCA")  # the same header for a restricted area: A)'s FIR is the zone
    assert _read(R.location_indicator, t) == [{"name": "ZWUQ"}]
    # an aerodrome-data notice (subject M/F/I/L/N/C/P/S/G/O) without coordinates is no zone notice
    t = "A0123/26 NOTAMN  Q) EGTT/QMRLC/IV/NBO/A/000/999/  A) EGLL B) 2602201338 C) 2602211338  E) RWY 09L CLSD"
    assert _read(R.location_indicator, t) == []  # (a made-up runway closure: the form, not a real row)


def test_first_reader_that_finds_a_zone_decides():
    # A0471/26: the Q-line circle comes before the named area and the A) indicator
    assert rules_zones(GMMM_A0471)[0]["center"] == "3404N00332W"
    assert rules_zones(VOMF_A1555)[0]["name"] == "VOD 179A"
