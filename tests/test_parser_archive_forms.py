"""Forms the real archive writes (``data/real/archive.jsonl``), read as general forms.

Every string is a real archive row (or a verbatim excerpt of one), cited by its id; all are from the train/val
split of ``airspace.data.realsplit`` (``test_the_cited_rows_are_not_test_rows`` checks). Expected values are
worked out by hand from the text.
"""

import pytest

from airspace.data.realsplit import split_of
from airspace.parser.header import parse_header
from airspace.parser.polygon import area_points
from airspace.parser.rules import rules_zones
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

CITED = ["A1629/26", "A3406/23", "F0092/24", "U0405/26", "A0626/26", "A2527/26", "A0031/26", "E0562/26", "D1387/26",
         "A1335/26", "M0170/26", "H6297/26", "A1116/26", "A2575/26", "W0507/26", "A0055/26", "A0391/23", "D0430/26",
         "G0066/26", "A1043/26", "F1252/26", "A2686/26", "L1276/25", "V0004/26", "V0020/26", "G0130/26",
         "D0671/26", "NAVAREA IV 251/26", "HYDROPAC 838/26(76)", "A0678/26", "B1855/26", "N3243/26", "D1086/26"]


def _records(text):
    recs, _ = process_batch([Message(index=0, text=text)], "rules")
    return recs


def test_the_cited_rows_are_not_test_rows():
    assert all(split_of(i) in ("train", "val") for i in CITED)


# ------------------------------------------------------------------------------------------------ polygons
# A1629/26 (val): one vertex wrapped across a line break that the collector collapsed into two blanks ("N3  50047E…")
ZXXX_A1629 = ("A1629/26 NOTAMN  Q)ZXXX/QRTCA/IV/BO/W/000/999/3812N11017E516  A)ZLHW ZBPE ZHWH ZSHA B)2605241458 "
              "C)2605241538   E) A TEMPORARY RESTRICTED AREA ESTABLISHED BOUNDED BY:  N412353E1002512-N395035E1060947-"
              "N371214E1155429-N355443E1204041-N3  50047E1200943-N361905E1152505-N385501E1055837-N403105E1000932,  "
              "BACK TO START.VERTICAL LIMITS:SFC-UNL.  AIRCRAFT ARE FORBIDDEN TO FLY INTO THE AREA.  F)SFC G)UNL")


# A0678/26 (train): two vertices wrapped at line breaks the collector collapsed into one blank ("56371 3N0241601E")
EVRR_A0678 = ("A0678/26 NOTAMN Q) EVRR/QRDCA/IV/BO /W /000/005/5637N02414E002 A) EVRR B) 2603010000 C) 2605132359 "
              "E) DANGER AREA EVD84 'BALTICOVO' ACT FOR UA FLT WI AREA: 563723N0241230E-563802N0241306E-563739N0241543E-"
              "563725N0241600E-56371 3N0241601E-563632N0241518E-563617N0241442E-563623N0241300E-563700N024 1305E-"
              "563723N0241230E. BEYOND VISUAL LINE OF SIGHT (BVLOS) OPERATIONS ARE CONDUCTED WITHIN  THE AREA. F) GND "
              "G) 500FT AMSL CREATED: 20 FEB 2026 14:04 SOURCE: EUECYIYN")


@pytest.mark.parametrize("text, n, wrapped", [
    (ZXXX_A1629, 8, {4: (35 + 47 / 3600, 120 + 9 / 60 + 43 / 3600)}),
    (EVRR_A0678, 9, {4: (56 + 37 / 60 + 13 / 3600, 24 + 16 / 60 + 1 / 3600), 8: (56 + 37 / 60, 24 + 13 / 60 + 5 / 3600)}),
])
def test_vertices_wrapped_at_a_collapsed_line_break(text, n, wrapped):
    """A collector collapses a line break inside a vertex into two blanks or one; the vertex is read whole."""
    (rec,) = _records(text)
    assert rec.geometry.type == "polygon" and len(rec.geometry.points) == n
    for i, want in wrapped.items():
        assert rec.geometry.points[i] == pytest.approx(want, abs=1e-9)


# B1855/26 (train), as a feed that wraps item E at 66 columns lays it out: the line breaks fall inside spaced
# coordinates ("30 00\nS 157 00 W", "25 40 S 157\n00 W")
NZZO_B1855_WRAPPED = ("B1855/26 NOTAMN\nQ) NZZO/QRDCA/IV/BO /W /000/999/4245S15220W999\nA) NZZO\nB) 2604090420\n"
                      "C) 2604090910\nE) TEMPO DANGER AREA NZD095 (AUCKLAND OCEANIC FIR) IS PRESCRIBED\nAS  FLW:  ALL "
                      "THAT AIRSPACE BOUNDED BY A LINE JOINING:  30 00 S 154\n08 W  59 49 S 163 34 W  59 13 S 168 58 W"
                      "  25 40 S 157\n00 W  30 00\nS 157 00 W  30 00 S 154 08 W  ACTIVITY: SPACE DEBRIS\nRETURN  USING "
                      "AGENCY: FOREIGN SPACE AGENCY\nF) SFC\nG) UNL")


def test_spaced_coordinates_wrapped_across_a_line_are_read_whole():
    (rec,) = _records(NZZO_B1855_WRAPPED)
    assert rec.geometry.type == "polygon" and len(rec.geometry.points) == 5
    want = [(-30.0, -154 - 8 / 60), (-59 - 49 / 60, -163 - 34 / 60), (-59 - 13 / 60, -168 - 58 / 60),
            (-25 - 40 / 60, -157.0), (-30.0, -157.0)]
    assert [c for p in rec.geometry.points for c in p] == pytest.approx([c for p in want for c in p], abs=1e-9)
    # the same notice on one line reads the same ring
    (flat,) = _records(" ".join(NZZO_B1855_WRAPPED.split()))
    assert flat.geometry.points == rec.geometry.points


# N3243/26 (train), laid out in lines with blanks left at the line ends: each circle's limits on the line after it
URRV_N3243_LINES = ("N3243/26 NOTAMN\nQ) URRV/QRTCA/IV/BO/W/000/999/4410N04305E019\nA) URRV\nB) 2603250600\n"
                    "C) 2603271300\nD) 25-27 0600-1300\nE) AIRSPACE CLSD AS FLW:  1. WI CIRCLE RADIUS 2KM CENTRE "
                    "441132N0423837E    \nGND-150M AGL.  2. WI CIRCLE RADIUS 3KM CENTRE 440851N0433026E    \n"
                    "GND-50M AGL.\nF) GND\nG) 150M AGL")


def test_a_zones_limits_on_the_next_line_after_trailing_blanks():
    recs = _records(URRV_N3243_LINES)
    assert [r.upper.raw for r in recs] == ["150M AGL", "50M AGL"]
    assert [r.upper.raw for r in _records(" ".join(URRV_N3243_LINES.split("\n")))] == ["150M AGL", "50M AGL"]


# D1086/26 (train), item E wrapped at 80 columns: the excluded area's range breaks after "TO"
LELN_D1086_WRAPPED = ("D1086/26 NOTAMN\nQ) LECM/QRTCA/IV/BO /AW/000/065/4239N00545W009\nA) LELN\nB) 2603090830\n"
                      "C) 2603271400\nD) 09-13 16-20 23-27 0830-1400\nE) TEMPORARY SEGREGATED AREA FOR UNMANNED "
                      "AIRCRAFT VEHICLES  FLYING ACTIVATED WI\n09NM RADIUS OF 423926N 0054458W  EXC LED7 AND THE "
                      "OVERLAPPED AREA WITH 423904N 0054455W, \n424256N 0054452W, 424247N 0054127W, 423959N 0054134W,  "
                      "423904N 0054455W FM SFC TO\nFL100  LEON/GROSA-AD LOW ZONE\nF) SFC G) 06500FT AMSL")


def test_a_zones_range_cut_by_a_line_break_reads_whole():
    polys = [r for r in _records(LELN_D1086_WRAPPED) if r.geometry.type == "polygon"]
    flat = [r for r in _records(" ".join(LELN_D1086_WRAPPED.split())) if r.geometry.type == "polygon"]
    assert [(r.lower.raw, r.upper.raw) for r in polys] == [(r.lower.raw, r.upper.raw) for r in flat] == [("SFC", "FL100")]


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


# G0130/26 (train): a notice about a whole FIR, with no F)/G) items: its limits are the Q-line's 000/999
OAKX_G0130 = ("G0130/26 NOTAMR G0557/25  Q) OAKX/QAFXX/IV/NBO/E/000/999/  A) OAKX B) 2603200925 C) 2606142359 EST  "
              "E) AFGHANISTAN FIR IS UNCONTROLLED CLASS G AIRSPACE.  ALL INTERNATIONAL AND DOMESTIC AIRLINES ARE "
              "REQUESTED TO FILL  FLIGHT PERMISSIONS FORM AT LEAST 72 HOURS PRIOR FLIGHT AND  SHALL EMAIL TO "
              "FLIGHTPERMISSIONS.ACAA(A)GMAIL.COM  FOR PROCESSING PERMISSIONS.    CREATED: 20 MAR 2026 09:56  SOURCE: "
              "OPKCYNYX")


def test_a_fir_indicator_is_a_fir_not_an_unknown_aerodrome():
    (rec,) = _records(OAKX_G0130)
    assert rec.geometry.type == "named" and rec.geometry.name == "OAKX" and rec.geometry.kind == "fir"
    assert rec.status == "review" and any(r.startswith("the zone is the whole FIR 'OAKX'") for r in rec.reasons)
    assert not any(r.startswith("named place") for r in rec.reasons)


def test_without_f_and_g_the_q_line_000_999_is_surface_to_unlimited():
    (rec,) = _records(OAKX_G0130)
    assert (rec.lower.ref, rec.lower.ft, rec.upper.ref) == ("SFC", 0.0, "UNL")
    text = OAKX_G0130
    assert rec.spans["lower"].text == "000" and text.index("/000/999/") + 1 == rec.spans["lower"].start
    assert not any("no upper limit" in r or "no lower limit" in r for r in rec.reasons)


def test_a_route_notice_without_an_area_has_no_zone():
    # A2527/26 (train): Q-code ARLC (an ATS route closed) over a FIR: the route is closed, no area is drawn
    (rec,) = _records(ZWUQ_A2527)
    assert rec.geometry is None and rec.reasons == ["no zone: the Q-code QARLC marks an ATS route, not an area"]


# F1252/26 (train): a restricted area deactivated; A2686/26 (train): a trigger NOTAM for an AIP supplement's area
CZEG_F1252 = ("F1252/26 NOTAMN  Q) CZEG/QRRCD/IV/BO/W/290/999/5503N10953W053  A) CZEG B) 2603202156 C) 2603231400  "
              "E) RESTRICTED AREA CYR204 COLD LAKE DEACTIVATED.  F) FL290 G) UNL    CREATED: 20 MAR 2026 21:56  SOURCE: "
              "CYHQYNYX")
ENXX_A2686 = ("A2686/26 NOTAMN  Q) ENXX/QRDTT/IV/BO /W /000/999/7002N01041E126  A) ENOR ENOB B) 2605140000 C) "
              "2605242359  E) TRIGGER NOTAM - AIP AIRAC SUP 25/2026 WEF 14 MAY 2026.  TEMPO DANGER AREA END490 GARRET "
              "ESTABLISHED IN CONNECTION WITH  ACTIVITIES FROM ANDOYA SPACE. SUP AVBL AT WWW.AVINOR.NO/AIS/  F) GND G) "
              "UNL    CREATED: 16 APR 2026 12:11  SOURCE: EUECYIYN")


@pytest.mark.parametrize("text, what", [(CZEG_F1252, "QRRCD marks a deactivation"),
                                        (ENXX_A2686, "QRDTT marks a trigger NOTAM")])
def test_a_deactivation_or_a_trigger_without_coordinates_draws_no_q_line_circle(text, what):
    (rec,) = _records(text)
    assert rec.geometry is None and rec.reasons[0].startswith(f"no zone: the Q-code {what}")


def test_waypoints_of_a_significant_point_notice_are_not_zones():
    # L1276/25 (train): Q-code AXCH, thirteen IFR waypoints with their coordinates: an AIP amendment, no hazard
    text = ("L1276/25 NOTAMN  Q) YMMM/QAXCH/IV/BO/E/000/999/5842S14509E999  A) YMMM  B) 2511261600 C) PERM  E) "
            "AERONAUTICAL INFORMATION PACKAGE (AIP) AMD  LELOV  450000.0S 1455630.0E  PADVA  500000.0S 1414354.0E  "
            "SALAL  550000.0S 1361936.0E  AMD DESIGNATED AIRSPACE HANDBOOK (DAH) SECTION 22 - IFR WAYPOINTS")
    (rec,) = _records(text)
    assert rec.geometry is None and rec.status == "review"


def test_several_firs_in_item_a_are_one_zone_each():
    # V0004/26 (train): A) EGTT EGPX EGGX, a notice for three FIRs that names no FIR in its text
    text = ("V0004/26 NOTAMN  Q) EGXX/QROXX/IV/NBO/W /000/999/5218N01451W999  A) EGTT EGPX EGGX B) 2601151700 C) "
            "2604150800  E) NATIONAL SECURITY / SAFETY - AFGHANISTAN. UK CIVIL AIR OPERATORS   ARE STILL REQUIRED TO "
            "CONSIDER THE ICAO CONTINGENCY COORDINATION   TEAM BULLETIN 14 DATED 06 OCT 2025 FOR FLIGHT PLANNING AND   "
            "OPERATIONAL PURPOSES. FOR INFO CTC 02079 443111. AR-2026-368/02.  F) SFC G) UNL")
    recs = _records(text)
    assert [r.geometry.name for r in recs] == ["EGTT", "EGPX", "EGGX"]
    assert all(r.geometry.kind == "fir" and r.status == "review" for r in recs)


def test_a_fir_named_in_the_text_comes_before_the_q_line_circle():
    # V0020/26 (train): the Q-line circle is centred on the UK; the notice is about FIR KABUL (OAKX)
    text = ("V0020/26 NOTAMR V0013/26  Q) EGXX/QROXX/IV/NBO/W /000/999/5218N01451W999  A) EGTT EGPX EGGX B) "
            "2605270832 C) 2608251200  E) SECURITY - HAZARDOUS SITUATION IN AFGHANISTAN. UK REGISTERED AIR  OPERATORS "
            "ARE ADVISED TO TAKE POTENTIAL RISK INTO ACCOUNT WITHIN FIR   KABUL (OAKX). POTENTIAL RISK FROM HEIGHTENED "
            "MILITARY ACTIVITY.  AR-2026-1616/02.  F) SFC G) UNL")
    (rec,) = _records(text)
    assert rec.geometry.type == "named" and " ".join(rec.geometry.name.split()) == "FIR KABUL (OAKX)"


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


# ------------------------------------------------------------------------------------------------ radius and limits
# D1387/26 (train), excerpts of its parts: Spanish TSAs written with a decimal comma ("5,9NM"), arcs whose direction
# follows the centre ("CENTRED ON C COUNTER CLOCKWISE UP TO A"), and "2500FT/5000FT AMSL" as a band
LECM_D1387_CIRCLE = ("D1387/26 NOTAMN  Q) LECM/QRTCA/IV/BO /AW/000/350/3732N00646W101  A) LEBZ PART 1 OF 9 B) "
                     "2603231900 C) 2603250730  E) TSA TALAVERA LOW    LATERAL LIMITS:      CIRCLE OF 5,9NM RADIUS "
                     "CENTRED ON                        385329N 0064917W.   VERTICAL LIMITS:     SFC/2500FT AMSL   "
                     "LATERAL LIMITS:      CIRCLE OF 08NM RADIUS CENTRED ON                        385329N 0064917W.   "
                     "VERTICAL LIMITS:     2500FT/5000FT AMSL   DATES AND TIMES:     MAR 23 HR 1930-2359")
LECM_D1387_ARC = ("D1387/26 NOTAMN  Q) LECM/QRTCA/IV/BO /AW/000/350/3732N00646W101  A) LEBZ PART 2 OF 9 B) 2603231900 C) "
                  "2603250730  E) TSA TALAVERA LOW NORTH   LATERAL LIMITS:      385658N 0065446W, 385036N 0064303W,     "
                  "                   FROM THIS POINT FOLLOWING AN ARC OF 5,9NM                        RADIUS CENTRED "
                  "ON 385329N 0064917W                        COUNTER CLOCKWISE UP TO 385658N 0065446W.   VERTICAL "
                  "LIMITS:     SFC/2500FT AMSL   ")


def test_decimal_comma_radius_and_a_slash_band():
    inner, outer = _records(LECM_D1387_CIRCLE)
    assert inner.geometry.radius_m == pytest.approx(5.9 * 1852) and inner.spans["radius"].text == "5,9NM"
    assert (inner.lower.ref, inner.upper.ft) == ("SFC", 2500.0)
    assert outer.geometry.radius_m == pytest.approx(8 * 1852)
    assert (outer.lower.raw, outer.lower.ft, outer.upper.raw) == ("2500FT", 2500.0, "5000FT AMSL")
    assert inner.status == outer.status == "ok", inner.reasons + outer.reasons


def test_arc_direction_after_its_centre():
    from pyproj import Geod

    (rec,) = _records(LECM_D1387_ARC)
    assert rec.status == "ok" and rec.geometry.type == "polygon", rec.reasons
    c = (38 + 53 / 60 + 29 / 3600, -(6 + 49 / 60 + 17 / 3600))
    geod = Geod(ellps="WGS84")
    d = [geod.inv(c[1], c[0], p[1], p[0])[2] for p in rec.geometry.points]
    assert max(d) == pytest.approx(5.9 * 1852, rel=1e-6)  # the arc lies on the 5,9 NM circle
    # counter-clockwise from B (385036N 0064303W, south-east of C) back to A (north-west): through the north-east
    arc = rec.geometry.points[2:-1]
    assert all(p[0] > c[0] - 0.05 for p in arc[: len(arc) // 2])


# A1335/26 (val): "RDO" (radio, radius) and a "COORD:" label before the centre
MUFH_A1335 = ("A1335/26 NOTAMN  Q) MUFH/QRALW/IV/NBO/W/000/999/2205N08102W005  A) MUXX B) 2604191000 C) 2604191600  "
              "E) AIRSPACE RESERVATION WILL TAKE PLACE RDO 5NM CENTERED COORD:    2205N08102W ( PLAYA GIRON/MATANZAS )"
              "   F) SFC G) UNL    CREATED: 16 APR 2026 20:26  SOURCE: MUHAYNYX")
# M0170/26 (val): "UNLIMTED", misspelt
RKRR_M0170 = ("M0170/26 NOTAMN   Q) RKRR/QFAXX/IV/NBO/A/000/999/3554N12636E005   A) RKJK   B) 2603300715   C) "
              "2603300745   E) AERODROME CLOSED, ALL AIRCRAFT PROHIBITED FROM TAKING OFF AND LANDING. AIRSPACE "
              "RESTRICTED WITHIN 5NM OF 355749N1263628E SURFACE TO UNLIMTED. EXEMPTIONS ARE SCHEDULED CIVIL AIRCRAFT, "
              "MILITARY SURVEILLANCE/RECONNAISSANCE ARIRCRAFT AND AIRCRAFT WITH PERMISSION FROM ROKAF SODO.  CREATED: 27 "
              "MAR 2026 04:05  SOURCE:")


def test_rdo_radius_and_misspelt_unlimited():
    (rec,) = _records(MUFH_A1335)
    assert (rec.status, rec.geometry.radius_m, rec.spans["radius"].text) == ("ok", 5 * 1852, "5NM")
    (rec,) = _records(RKRR_M0170)
    assert (rec.lower.ref, rec.upper.ref, rec.upper.raw) == ("SFC", "UNL", "UNLIMTED") and rec.status == "ok"


# The vertical-limit forms that no train/val row or dev message writes around a zone: the A1335/26 circle
# with the limit phrase swapped (the form, not a row). An upper alone leaves the lower to the Q-line's 000.
@pytest.mark.parametrize("limits, lower, upper", [
    ("UP 500FT AGL", "000", "500FT AGL"),
    ("GND-UP TO 300M AGL", "GND", "300M AGL"),
    ("500FT AGL AND BELOW", "000", "500FT AGL"),
    ("BLW FL100", "000", "FL100"),
    ("FM 500FT TO 1500FT AMSL", "500FT", "1500FT AMSL"),
])
def test_vertical_limit_phrasings(limits, lower, upper):
    t = MUFH_A1335.replace("( PLAYA GIRON/MATANZAS )   F) SFC G) UNL", limits)
    (z,) = rules_zones(t)
    assert (z.get("lower"), z.get("upper")) == (lower, upper)


def test_a_limit_stated_twice_keeps_both():
    t = MUFH_A1335.replace("( PLAYA GIRON/MATANZAS )   F) SFC G) UNL", "SFC-1000FT AGL (1500FT AMSL)")
    (rec,) = _records(t)
    assert (rec.upper.raw, rec.upper.ref, rec.upper_also.raw, rec.upper_also.ref) == (
        "1000FT AGL", "AGL", "1500FT AMSL", "AMSL")
    assert rec.spans["upper_also"].text == "1500FT AMSL"
    assert any(r.startswith("note: upper limit stated as 1000FT AGL and as 1500FT AMSL; the volume uses 1000FT AGL")
               for r in rec.reasons)
    # a band written with a slash is not a second statement
    (rec,) = _records(MUFH_A1335.replace("( PLAYA GIRON/MATANZAS )   F) SFC G) UNL", "4000FT AMSL/FL080"))
    assert (rec.lower.raw, rec.upper.raw, rec.lower_also, rec.upper_also) == ("4000FT AMSL", "FL080", None, None)


# ------------------------------------------------------------------------------------------------ shapes
# H6297/26 (train): a circle and a corridor in one NOTAM; the corridor is built as its own zone, so the circle is
# not "a geometry that only approximates a corridor"
UUWV_H6297 = ("H6297/26 NOTAMN  Q) UUWV/QRTCA/IV/BO/W/000/020/5631N03506E004  A) UUWV B) 2603230600 C) 2603261900  "
              "D) DAILY 0600-1900  E) AIRSPACE CLSD AS FLW:  1. WI CIRCLE RADIUS 1KM CENTRE 563053N0345933E  2. WI "
              "1.5KM EITHER SIDE OF LINE JOINING POINTS:     563051N0345954E-563103N0351313E.  F) GND  G) 450M AMSL    "
              "CREATED: 21 MAR 2026 06:46  SOURCE: UUUUYNYX")
# A1116/26 (train): four corners listed row by row
DAAA_A1116 = ("A1116/26 NOTAMN   Q) DAAA/QWMLW/IV/BO/W/000/999/3205N00315E233  A) DAAA B) 2604150001 C) 2604302359  "
              "D) H24  E) FRNG EXER G/A WILL TAKE PLACE WI AREA  PSN:  345925N 0023116E  345925N 0023616E  345425N "
              "0023116E  345425N 0023616E  F) GND G) UNL    CREATED: 08 APR 2026 11:18  SOURCE: DAAAYNYX")


def test_a_built_corridor_does_not_flag_the_other_zones():
    circle, corridor = _records(UUWV_H6297)
    assert circle.geometry.type == "circle" and corridor.geometry.type == "polygon"
    assert circle.status == corridor.status == "ok", circle.reasons + corridor.reasons


def test_row_by_row_corners_are_drawn_as_the_one_simple_ring():
    from shapely.geometry import Polygon

    from airspace.parser.polygon import HULL_ORDER_NOTE

    (rec,) = _records(DAAA_A1116)
    ring = Polygon([(lon, lat) for lat, lon in rec.geometry.points])
    # drawn as the one simple ring, yet in review: the message wrote a ring that crosses itself
    assert ring.is_valid and rec.status == "review", rec.reasons
    assert rec.reasons == [HULL_ORDER_NOTE]


# ------------------------------------------------------------------------------------------------ D) items
def _windows(text):
    (rec,) = _records(text)
    assert not any(r.startswith("schedule") for r in rec.reasons), rec.reasons
    return [(w.start.strftime("%m-%d %H%M"), w.end.strftime("%m-%d %H%M")) for w in rec.windows]


def test_d_item_next_day_marker():
    # A2575/26 (val): "2315-0125(NEXT DAY) ON 7" is the night from the 7th into the 8th
    t = ("A2575/26 NOTAMN  Q) ZSHA/QRTCA/IV/BO/W/000/999/3823N12128E025  A)ZSHA B)2607060400 C)2607080538   "
         "D)0400-0630,0630-0722 ON 6,0050-0255,0500-0715,2315-0125(NEXT DAY)   ON 7,0308-0538 ON 8  E) A TEMPORARY "
         "DANGER AREA ESTABLISHED BOUNDED BY:  N384700E1211700-N382200E1222200-N380000E1220900-N382500E1210300,  "
         "BACK TO START.  F)SFC G)UNL")  # (excerpt: the Q-line as the archive row has it, item E shortened)
    assert _windows(t) == [("07-06 0400", "07-06 0722"), ("07-07 0050", "07-07 0255"), ("07-07 0500", "07-07 0715"),
                           ("07-07 2315", "07-08 0125"), ("07-08 0308", "07-08 0538")]


def test_d_item_every_weekday_and_dated_days():
    # W0507/26 (train): "EV FRI SAT 0500-1500" and, on the dated days, 1500-2100
    t = ("W0507/26 NOTAMN  Q) OEJD/QRRCA/IV/NBO/W/000/999/2149N04217E086  A) OEJD  B) 2604030500 C) 2605301500  D) "
         "EV FRI SAT 0500-1500   APR 05-09 12-16 1500-2100  E) OER05B ACT.  F) SFC G) UNL    CREATED: 29 MAR 2026 "
         "07:26  SOURCE: OEJDYNYX")
    w = _windows(t)
    assert w[:3] == [("04-03 0500", "04-03 1500"), ("04-04 0500", "04-04 1500"), ("04-05 1500", "04-05 2100")]
    assert ("04-16 1500", "04-16 2100") in w and ("05-29 0500", "05-29 1500") in w
    assert len(w) == 18 + 10  # 18 Fridays and Saturdays from 3 April to 30 May, and the ten dated days


def test_d_item_year_after_the_month():
    # A0055/26 (val): "ON 10,11,12,15 AND 25 MAR 2026"
    t = ("A0055/26 NOTAMN  Q) VGFR/QWMLW/IV/BO/W/000/140/2350N09014E999 A) VGFR B) 2603100445 C) 2603250645 D) BTN "
         "0445-0645 ON 10,11,12,15 AND 25 MAR 2026 E) BAF WILL CONDUCT INDIVIDUAL/COMBINED LEADERS PRACTICE WI "
         "10NM RADIUS OF 234500N0902400E. F) SFC G) 14000FT AMSL")  # (excerpt; the circle is from the row's form)
    assert [a for a, _ in _windows(t)] == ["03-10 0445", "03-11 0445", "03-12 0445", "03-15 0445", "03-25 0445"]


def test_d_item_times_written_before_their_day():
    # A0391/23 (train): "1345-1416,1419-1459 25 AND 1058-1121 26"
    t = ("A0391/23 NOTAMN\nQ) ZLHW/QRDCA/IV/BO/W/000/999/3931N10826E040\nA) ZLHW B) 2302251345 C) 2302261121 \nD) "
         "1345-1416,1419-1459 25 AND 1058-1121 26\nE) A TEMPORARY DANGER AREA ESTABLISHED BOUNDED BY:\nN3944E10759-"
         "N3932E10908-N3910E10901-N3922E10753 BACK TO START. \nVERTICAL LIMITS:SFC-UNL.\n\nF) SFC G) UNL")
    assert _windows(t) == [("02-25 1345", "02-25 1416"), ("02-25 1419", "02-25 1459"), ("02-26 1058", "02-26 1121")]


def test_d_item_day_out_of_order_inside_a_one_month_period():
    # D0430/26 (train): "03 10-12 2030-2150, 06 0900-2150, 30-31 0800-2150" from 3 to 31 March: the 6th is March's
    t = ("D0430/26 NOTAMN  Q) LECM/QRTCA/IV/BO/W/000/250/4140N00050W020  A) LECM B) 2603032030 C) 2603312150 D) 03 "
         "10-12 2030-2150, 06 0900-2150, 30-31 0800-2150 E) LED129 ACTIVATED FOR AIR OPERATIONS  F) GND G) FL250")
    (rec,) = _records(t)  # (excerpt; the Q-line is the form's, LED129 a named area)
    assert [w.start.strftime("%m-%d") for w in rec.windows] == ["03-03", "03-06", "03-10", "03-11", "03-12", "03-30",
                                                                "03-31"]


# ------------------------------------------------------------------------------------------------ VIP TFR rings
# No train/val row or dev message is an FAA VIP TFR; this is the form of the FAA's domestic VIP NOTAMs (an inner
# and an outer ring around one point, "NMR" = nautical mile radius, the outer excluding the inner), not a row.
VIP_FORM = ("!FDC 6/1234 ZNY NY..AIRSPACE NEW YORK, NY..TEMPORARY FLIGHT RESTRICTIONS. PURSUANT TO 49 USC 40103(B) "
            "THE FAA CLASSIFIES THE AIRSPACE DEFINED IN THIS NOTAM AS NATIONAL DEFENSE AIRSPACE. A. 10 NMR OF "
            "404500N0735800W (JFK293012.1) SFC-17999FT MSL EFFECTIVE 2609221400 UTC UNTIL 2609222200 UTC. B. 30 NMR OF "
            "404500N0735800W (JFK293012.1) SFC-17999FT MSL EXCLUDING THE AIRSPACE WITHIN 10 NMR OF 404500N0735800W "
            "EFFECTIVE 2609221400 UTC UNTIL 2609222300 UTC.")


def test_vip_tfr_rings_are_separate_zones_the_outer_a_ring():
    inner, outer = _records(VIP_FORM)
    assert (inner.geometry.radius_m, inner.geometry.inner_radius_m) == (10 * 1852, None)
    assert (outer.geometry.radius_m, outer.geometry.inner_radius_m) == (30 * 1852, 10 * 1852)
    assert inner.end.isoformat() == "2026-09-22T22:00:00+00:00" and outer.end.isoformat() == "2026-09-22T23:00:00+00:00"
    assert inner.status == outer.status == "ok", inner.reasons + outer.reasons
    assert any("ring between the two radii" in r for r in outer.reasons)


def test_the_outer_ring_volume_has_the_inner_circle_cut_out():
    from pyproj import Geod

    from airspace.geo.volumes import record_shape

    inner, outer = _records(VIP_FORM)
    shape = record_shape(outer)
    assert shape.geom_type == "Polygon" and len(shape.interiors) == 1
    lon, lat = -(73 + 58 / 60), 40.75
    geod = Geod(ellps="WGS84")
    hole = [geod.inv(lon, lat, x, y)[2] for x, y in shape.interiors[0].coords]
    assert 10 * 1852 * (1 - 2e-4) <= min(hole) and max(hole) <= 10 * 1852  # inside the true 10 NM circle
    assert record_shape(inner).geom_type == "Polygon" and not record_shape(inner).interiors


# D0671/26 (train): a Korean TEMPO prohibited circle and the buffer zone stated around it
RKRR_D0671 = ("D0671/26 NOTAMN    Q) RKRR/QRPCA/IV/NBO/W/000/999/3321N12646E016  A) RKRR B) 2603290505 C) 2603300430  "
              "E) TEMPO PROHIBITED AREA ACT AS FLW:  1. AREA : A CIRCLE RADIUS 5NM CENTERED ON 332111N1264615E  2. "
              "BUFFER ZONE : TEMPO BUFFER ZONE FM OUTSIDE OF PROHIBITED AREA TO                   10NM  3. RMK :     - "
              "EXC SKED CIV ACFT USING AWY, EMERG MISSION ACFT    - FOR PRE-COORDINATION AND APV FOR PASSING THROUGH "
              "OR      ENTERING BUFFER ZONE CTC ROKAF SODO AT 031-669-7020/1  F) SFC G) UNL")


def test_a_buffer_zone_around_a_circle_is_its_own_ring():
    from airspace.geo.export import to_geojson

    area, buffer = _records(RKRR_D0671)
    assert area.status == "ok" and (area.geometry.radius_m, area.geometry.inner_radius_m) == (5 * 1852, None)
    assert buffer.zone == 1 and buffer.geometry.center == area.geometry.center
    assert (buffer.geometry.radius_m, buffer.geometry.inner_radius_m) == (15 * 1852, 5 * 1852)
    assert buffer.spans["buffer"].text == "10NM" and buffer.status == "review"
    assert (buffer.lower, buffer.upper, buffer.start, buffer.end) == (area.lower, area.upper, area.start, area.end)
    ring = next(f for f in to_geojson([area, buffer])["features"] if f["properties"]["zone"] == 1)["geometry"]
    assert ring["type"] == "Polygon" and len(ring["coordinates"]) == 2  # outer ring and the area cut out


# NAVAREA IV 251/26 (val): a maritime warning in degrees and decimal minutes, two lettered areas; the second label
# follows the full stop that ends the first area's last point, so it starts an area, not a vertex
NAVAREA_IV_251 = """161759Z MAR 26
NAVAREA IV 251/26.
NORTH ATLANTIC.
FLORIDA.
1. HAZARDOUS OPERATIONS, ROCKET LAUNCHING
   221443Z TO 221925Z MAR, ALTERNATE
   231421Z TO 231903Z, 241359Z TO 241841Z,
   251336Z TO 251818Z, 261314Z TO 261756Z,
   271252Z TO 271734Z AND 281230Z TO 281712Z MAR
   IN AREAS BOUND BY:
   A. 31-57.00N 077-01.00W, 32-23.00N 076-52.00W,
      33-08.00N 075-40.00W, 33-28.00N 074-58.00W,
      33-19.00N 074-46.00W, 32-36.00N 075-02.00W,
      31-51.00N 076-13.00W, 31-41.00N 076-43.00W.
   B. 28-39.69N 080-38.17W, 28-55.00N 080-20.00W,
      28-46.00N 080-09.00W, 28-28.66N 080-32.15W.
2. CANCEL THIS MSG 281812Z MAR 26."""


def test_lettered_areas_in_degrees_and_decimal_minutes_are_one_polygon_each():
    recs = _records(NAVAREA_IV_251)
    assert [len(r.geometry.points) for r in recs] == [8, 4]
    assert recs[0].geometry.points[0] == pytest.approx((31 + 57 / 60, -(77 + 1 / 60)), abs=1e-9)
    assert recs[1].geometry.points[-1] == pytest.approx((28 + 28.66 / 60, -(80 + 32.15 / 60)), abs=1e-9)
    # the warning states no vertical limits: every area says so (review), never a silent default ceiling
    assert all(r.status == "review" and r.upper is None for r in recs)
    # a feed that collapsed the line breaks into blank runs (NAVAREA IV 268/26, train, writes it so)
    flat = _records(NAVAREA_IV_251.replace("\n", "     "))
    assert [len(r.geometry.points) for r in flat] == [8, 4]


def test_a_letter_label_between_vertices_of_one_ring_still_joins_them():
    text = ("E) DANGER AREA ACT WI: A. 3157N07701W, B. 3223N07652W, C. 3308N07540W, D. 3157N07701W. F) SFC G) 5000FT AMSL")
    recs = _records(text)
    assert len(recs) == 1 and recs[0].geometry.type == "polygon"
    want = [31 + 57 / 60, -(77 + 1 / 60), 32 + 23 / 60, -(76 + 52 / 60), 33 + 8 / 60, -(75 + 40 / 60)]
    assert [v for p in recs[0].geometry.points for v in p] == pytest.approx(want, abs=1e-9)
