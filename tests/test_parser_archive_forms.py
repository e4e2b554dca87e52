"""Forms the real archive writes (``../shared/real-notams/archive.jsonl``), read as general forms.

Every string is a real archive row (or a verbatim excerpt of one), cited by its id; all are from the train/val
split of ``airspace.eval.realsplit`` (``test_the_cited_rows_are_not_test_rows`` checks). Expected values are
worked out by hand from the text.
"""

import pytest

from airspace.eval.realsplit import split_of
from airspace.parser.header import parse_header
from airspace.parser.polygon import area_points
from airspace.parser.rules import rules_zones
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

CITED = ["A1629/26", "A3406/23", "F0092/24", "U0405/26", "A0626/26", "A2527/26", "A0031/26", "E0562/26",
         "G0066/26", "A1043/26"]


def _records(text):
    recs, _ = process_batch([Message(index=0, text=text)])
    return recs


def test_the_cited_rows_are_not_test_rows():
    assert all(split_of(i) in ("train", "val") for i in CITED)


# ------------------------------------------------------------------------------------------------ polygons
# A1629/26 (val): one vertex wrapped across a line break that the collector collapsed into two blanks ("N3  50047E…")
ZXXX_A1629 = ("A1629/26 NOTAMN  Q)ZXXX/QRTCA/IV/BO/W/000/999/3812N11017E516  A)ZLHW ZBPE ZHWH ZSHA B)2605241458 "
              "C)2605241538   E) A TEMPORARY RESTRICTED AREA ESTABLISHED BOUNDED BY:  N412353E1002512-N395035E1060947-"
              "N371214E1155429-N355443E1204041-N3  50047E1200943-N361905E1152505-N385501E1055837-N403105E1000932,  "
              "BACK TO START.VERTICAL LIMITS:SFC-UNL.  AIRCRAFT ARE FORBIDDEN TO FLY INTO THE AREA.  F)SFC G)UNL")


def test_vertex_wrapped_at_a_collapsed_line_break():
    (rec,) = _records(ZXXX_A1629)
    assert rec.geometry.type == "polygon" and len(rec.geometry.points) == 8
    assert rec.geometry.points[4] == pytest.approx((35 + 0 / 60 + 47 / 3600, 120 + 9 / 60 + 43 / 3600), abs=1e-9)


# A3406/23 (val): a vertex's name in parentheses between two vertices
VVHN_A3406 = ("A3406/23 NOTAMN \nQ) VVHN/QAFXX/IV/NBO/E/000/999/1826N10740E022\nA) VVHN B) 2310312212 C) 2311010005 \n"
              "E) DUE TO AEROSPACE FLIGHT ACTIVITY FM CHINA, THE FLIGHT SAFETY OF \nTHE ACFT IN THE FLW AREA MAY BE "
              "AFFECTED:\n180900N1075400E - 181300N1072500E - 184250N1072904E - 182028N1074053E\n (ASSAD) - "
              "180909N1075401E \nFIVE-POINT CONNECTION RANGE.\nVERTICAL ALTITUDE: SFC-UNL.\n")
# F0092/24 (train): where a vertex lies, in parentheses after it
YMMM_F0092 = ("F0092/24 NOTAMR F4393/23\nQ) YMMM/QWMLW/IV/BO/W/000/999/0346S09248E085\nA) YMMM\nB) 2401110345 C) "
              "2401110443\nE) CHINESE AEROSPACE FLIGHT ACTIVITIES WILL TAKE PLACE\nFLW RECEIVED FROM CIVIL AVIATION "
              "ADMINISTRATION OF CHINA:\nDUE TO AEROSPACE FLIGHT ACTIVITIES, THE FLIGHT SAFETY OF THE AIRCRAFT\nIN THE "
              "FOLLOWING AREA MAY BE AFFECTED DUE UNBURNED DEBRIS:\nS05 07 E093 00\nS05 01 E092 16\nS02 25 E092 38 (ON "
              "YMMM FIR BOUNDRY)\nS02 53 E093 19 (ON YMMM FIR BOUNDRY)\n(SVC447/23)\nF) SFC G) UNL")


def test_remarks_in_parentheses_between_vertices_keep_the_ring():
    (z,) = rules_zones(VVHN_A3406)
    pts = area_points(z["polygon"])
    assert len(pts) == 5 and pts[-1] == pytest.approx((18 + 9 / 60 + 9 / 3600, 107 + 54 / 60 + 1 / 3600), abs=1e-9)
    (z,) = rules_zones(YMMM_F0092)
    pts = area_points(z["polygon"])
    assert len(pts) == 4 and pts[-1] == pytest.approx((-(2 + 53 / 60), 93 + 19 / 60), abs=1e-9)


def test_an_area_label_in_parentheses_still_separates_two_areas():
    t = ("E) (AREA A) 180900N1075400E - 181300N1072500E - 184250N1072904E (AREA B) 190900N1075400E - "
         "191300N1072500E - 194250N1072904E F) SFC G) UNL")  # the A3406/23 vertices, twice: the form, not a row
    assert len(rules_zones(t)) == 2


# U0405/26 (val), excerpt: a NOTAM in six parts, each part with its own header and Q-line, stored as one text
UUXX_U0405 = ("U0405/26 NOTAMN  Q) UUXX/QARLC/IV/NBO/E/000/999/4849N04126E560  A) URRV UUWV PART 1 OF 6 B) 2603290045 "
              "C) 2604040045  E) FLW ATS RTE SEGMENTS CLSD:  A100 KRASNYY SULIN NDB(KL)- ARNAD  A102 BABUR-NALEM  "
              "U0405/26 NOTAMN  Q) UUXX/QARLC/IV/NBO/E/000/999/4849N04126E560  A) URRV UUWV PART 2 OF 6 B) "
              "2603290045 C) 2604040045  E) B494 OLGIN-LEGNA  B549 RENAT-AGOY NDB (AG)  F) GND G) UNL")


def test_a_continuation_parts_q_line_is_not_a_point():
    assert not any("center" in z and z["center"] == "4849N04126E" and "radius" not in z for z in rules_zones(UUXX_U0405))


# A0626/26 (train), excerpt: "(D)" inside item E is an enumerator, not item D
LGGG_A0626 = ("A0626/26 NOTAMN  Q) LGGG/QAFXX/IV/NBO/E /000/999/3705N02445E341  A) LGGG PART 1 OF 3 B) 2603112100 C) "
              "2604112059  E) NAVIGATIONAL WARNING TO ALL CONCERNED:  REF (A) GREEK NOTAM A0619/26 (051156 EUECYIYN "
              "MAR 2026).  REF (B) TURKISH NOTAM A0924/26 (061115 EUECYIYN MAR 2026). AIR NAVIGATION AND FOR "
              "UNMANNED AIRCRAFT IDENTIFICATION PURPOSES  IN  CONFORMITY WITH ARTICLE 3 (D) OF THE ICAO CONVENTION "
              "ON INTERNATIONAL  CIVIL AVIATION")


def test_item_letters_inside_item_e_are_not_items():
    h = parse_header(LGGG_A0626)
    assert h.item("D") is None and h.item("E").text.startswith("NAVIGATIONAL WARNING")
    assert h.item("C").text == "2604112059"


# ------------------------------------------------------------------------------------------------ FIRs and areas
ZWUQ_A2527 = ("A2527/26 NOTAMN  Q)ZWUQ/QARLC/IV/NBO/E/000/999/  A)ZWUQ B)2607021310 C)2607022200   E) SEGMENT "
              "ESDEX-RUSDI OF ATS RTE W192 CLSD  F)GND G)UNL")
LAAA_A0031 = ("A0031/26 NOTAMR A0372/25 Q) LAAA/QAFXX/IV/NBO/E /000/999/4109N01959E999 A) LAAA B) 2601291021 C) "
              "2604292359 EST E) MILITARY INVASION OF UKRAINE BY RUSSIAN FEDERATION. ALBANIAN AIR OPERATORS AND OWNERS "
              "OF AIRCRAFT REGISTERED IN ALBANIA  SHALL NOT ENTER: FIR LVIV (UKLV), FIR KYIV (UKBV), UIR KYIV (UKBU), "
              "FIR DNIPROPETROVSK (UKDV), FIR SIMFEROPOL (UKFV), FIR ODESA (UKOV),  FIR ROSTOV-NA-DONU (URRV). "
              "ADDITIONALLY, OPERATORS SHOULD EXERCISE CAUTION WHEN OPERATING IN  THE WHOLE FIR MOSCOW (UUWV) DUE TO "
              "HEIGHTENED MILITARY ACTIVITY  WHICH MAY INCLUDE LAUNCHES OF MID-RANGE MISSILES PENETRATING INTO  "
              "CONTROLLED AIRSPACE. OPERATORS ARE REMINDED THAT OPERATIONS WITHIN FIR MINSK (UMMV) ARE  PROHIBITED. "
              "CREATED: 29 JAN 2026 10:22 SOURCE: EUECYIYN")
LIXX_E0562 = ("E0562/26 NOTAMR E2883/25 Q) LIXX/QAFXX/IV/NBO/E /000/999/4119N01321E999 A) LIBB LIMM LIRR B) 2603131357 "
              "C) 2606102359 EST E) ITALIAN AIR CARRIERS AND CAPTAINS OF AIRCRAFT IN CHARGE OF AIR SERVICES OPERATED BY "
              "CARRIERS HOLDING AN OPERATING LICENSE ISSUED BY ITALY, WHETHER THEY ARE CONTRACTUAL CARRIERS AND/OR "
              "OPERATING CARRIERS, OR PERFORMING AIR SERVICES THROUGH A WET LEASE OR A CODESHARE AGREEMENT AS WELL AS "
              "FOR ANY FLIGHT MADE WITH AN AIRCRAFT REGISTERED IN ITALY ARE RECOMMENDED TO AVOID AIRSPACE NORTH KOREA "
              "(FIR PYONGYANG ZKKP) DUE TO POTENTIAL RISK FROM BALLISTIC MISSILES CREATED: 13 MAR 2026 13:57 SOURCE: "
              "EUECYIYN")


def test_a_fir_indicator_is_a_fir_not_an_unknown_aerodrome():
    (rec,) = _records(ZWUQ_A2527)
    assert rec.geometry.type == "named" and rec.geometry.name == "ZWUQ" and rec.geometry.kind == "fir"
    assert rec.status == "review" and any(r.startswith("the zone is the whole FIR 'ZWUQ'") for r in rec.reasons)
    assert not any(r.startswith("named place") for r in rec.reasons)


def test_every_fir_the_advisory_names_is_a_zone():
    recs = _records(LAAA_A0031)
    assert [r.geometry.name for r in recs] == [
        "FIR LVIV (UKLV)", "FIR KYIV (UKBV)", "UIR KYIV (UKBU)", "FIR DNIPROPETROVSK (UKDV)", "FIR SIMFEROPOL (UKFV)",
        "FIR ODESA (UKOV)", "FIR ROSTOV-NA-DONU (URRV)", "FIR MOSCOW (UUWV)", "FIR MINSK (UMMV)"]
    assert all(r.geometry.kind == "fir" and r.status == "review" for r in recs)
    (rec,) = _records(LIXX_E0562)  # the FIR in parentheses with its indicator, not A)'s Italian FIRs
    assert (rec.geometry.name, rec.geometry.kind) == ("FIR PYONGYANG ZKKP", "fir")


def test_a_published_area_is_a_named_area():
    t = ("A1043/26 NOTAMN  Q) VOMF/QWMLW/IV/BO/W/000/999/  A) VOMF PART 1 OF 2 B) 2603280530 C) 2603300700  D) 28 30 "
         "0530-0700  E) VOD175(A) THUMBA-1 ROCKET FRNG RANGE ACT.    1.LAUNCH WILL TAKE PLACE BTN 0530 AND 0700 Z.")
    (rec,) = _records(t)  # A1043/26 (train), excerpt
    assert (rec.geometry.name, rec.geometry.kind) == ("VOD175", "area")
    assert any(r.startswith("named area 'VOD175'") for r in rec.reasons)


# G0066/26 (train): "30 NAUTICAL MILES FROM  AIRFIELD" is no radius around an aerodrome called FROM
OAKX_G0066 = ("G0066/26 NOTAMR G0035/26  Q) OAKX/QSTXX/IV/BO/A/000/999/3642N06713E030  A) OAMS B) 2602161115 C) "
              "2605151730  E) ALL ARRIVING AIRCRAFT TO CONTACT MAZAR-E-SHARIF TOWER ON  FREQUENCY 135.350 MHZ ALTERNATE "
              "FREQUENCY 126.125 MHZ WHEN  ENTERING OAMS AIRSPACE NOT LATER THAN 30 NAUTICAL MILES FROM  AIRFIELD "
              "PROVIDE THE FOLLOWING INFORMATION:  1) CALLSIGN  2) TYPE OF THE AIRCRAFT  3) POSITION  4) INTENTION.    "
              "CREATED: 16 FEB 2026 11:17  SOURCE: OPKCYNYX")


def test_a_preposition_is_not_an_aerodrome_identifier():
    assert rules_zones(OAKX_G0066) == []
