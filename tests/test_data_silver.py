"""Silver answers: the rules reader's reading of a real archive row is kept only where nothing doubts the reading;
what the message itself says (an estimated end, a point without a radius) does not doubt it."""

from airspace.data.realsplit import split_of
from airspace.data.silver import silver_reason, silver_rows

# archive G0130/26 (train): a whole FIR, its end estimated
OAKX_G0130 = ("G0130/26 NOTAMR G0557/25  Q) OAKX/QAFXX/IV/NBO/E/000/999/  A) OAKX B) 2603200925 C) 2606142359 EST  "
              "E) AFGHANISTAN FIR IS UNCONTROLLED CLASS G AIRSPACE.  ALL INTERNATIONAL AND DOMESTIC AIRLINES ARE "
              "REQUESTED TO FILL  FLIGHT PERMISSIONS FORM AT LEAST 72 HOURS PRIOR FLIGHT AND  SHALL EMAIL TO "
              "FLIGHTPERMISSIONS.ACAA(A)GMAIL.COM  FOR PROCESSING PERMISSIONS.    CREATED: 20 MAR 2026 09:56  "
              "SOURCE: OPKCYNYX")
# archive F1444/26 (train): a light display at a point, no radius
YSSY_F1444 = ("F1444/26 NOTAMN  Q) YMMM/QWYLW/IV/M/AW/000/999/3357S15111E005  A) YSSY  B) 2604220700 C) 2604221100  "
              "E) HIGH-POWERED LIGHT DISPLAY &apos;INTERCONTINENTAL HOTEL COOGEE&apos; WILL  TAKE PLACE  PSN 335522S "
              "1511521E BRG 062 MAG 3.5NM FM THR RWY 25  BEAMS MOVE IN CIRCULAR PATTERN WI 30 DEG OF VERTICAL   OPR "
              "CTC TEL: 0475 878 898  F) SFC G) UNL    CREATED: 16 APR 2026 00:21  SOURCE: YBBBZEZX")

VECF_A0468 = ("A0468/26 NOTAMN Q) VECF/QRDCA/IV/BO/W/000/105/2420N08502E017 A) VECF B) 2603230200 C) 2603311700 "
              "D) 0200-1700 E) VED-57 ACT. DRG ACT FLW ATS RTE/RTE SEGMENTS ARE NOT AVBL/RERTE. 1. R460 NOT AVBL BTN "
              "TEPAL AND GGC. ALTN RTE: TEPAL-DCT-243400N0852000E-DCT-GGC(BIDIRECTIONAL) 2.W106 NOT AVBL F) GND "
              "G) 10000FT AGL CREATED: 11 MAR 2026 13:11 SOURCE: VECCYNYX")


def test_an_estimated_end_does_not_doubt_a_whole_fir_reading():
    reason, drafts = silver_reason({"id": "G0130/26", "text": OAKX_G0130})
    assert reason is None
    (d,) = drafts
    assert d.values["name"] == "OAKX" and d.values["end"] == "2606142359 EST"
    assert OAKX_G0130[d.spans["name"].start:d.spans["name"].end] == "OAKX"


def test_a_point_without_radius_is_silver_and_an_unread_coordinate_is_not():
    reason, drafts = silver_reason({"id": "F1444/26", "text": YSSY_F1444})
    assert reason is None and "center" in drafts[0].values and "radius" not in drafts[0].values
    # archive A0468/26 (train): a route point the reader does not use as a zone: the row is not silver
    assert silver_reason({"id": "A0468/26", "text": VECF_A0468})[0] == "a coordinate was left unread"


def test_a_doubted_reading_and_the_test_split_are_never_silver():
    # the Q-line gives a 5 NM circle and the text a position 120 NM away: the reading is in doubt
    far = YSSY_F1444.replace("PSN 335522S 1511521E", "PSN 315522S 1511521E")
    assert silver_reason({"id": "F1444/26", "text": far})[0] == "a record is in doubt"
    tid = next(f"T{k}/26" for k in range(1000) if split_of(f"T{k}/26") == "test")
    rows = [{"id": i, "text": OAKX_G0130, "source": "faa"} for i in (tid, "G0130/26")]
    kept, why = silver_rows(rows, "train")
    assert split_of("G0130/26") == "train" and [r["id"] for r in kept] == ["G0130/26"]
    assert tid not in {r["id"] for r in kept}


# archive A0430/26_AREA1 (train, shortened after the areas): the other tool writes one row per area of a list,
# named <id>_AREA<k>, with that area's polygon; the reader's k-th polygon is what it must match
VVHM_A0430 = ("A0430/26 NOTAMN \nQ) VVHM/QAFXX/IV/BO/E/000/999/0841N10937E060\nA) VVHM B) 2602110629 C) 2602110705 \n"
              "E) DUE TO AEROSPACE FLIGHT ACTIVITY FM CHINA, THE FLIGHT \nSAFETY OF THE ACFT IN THE FLW AREAS MAY BE "
              "AFFECTED:\n- AREA 1: 094049N1092600E - 093253N1100900E - 080734N1095300E \n- 081528N1091010E \n"
              "POINTS CONNECTION RANGE\nVERTICAL ALTITUDE: SFC-UNL\n- AREA 2: 091503N1092206E - 090711N1100502E - "
              "080728N1095355E \n- 074715N1091937E - 074940N1090623E \nPOINTS CONNECTION RANGE\nVERTICAL ALTITUDE: "
              "SFC-UNL\nF) SFC G) UNL")
AREA1 = "N094049E1092600-N093253E1100900-N080734E1095300-N081528E1091010"


def test_a_row_of_one_area_of_a_list_matches_that_area_and_keeps_every_area():
    row = {"id": "A0430/26_AREA1", "text": VVHM_A0430, "silver_polygon": AREA1}
    reason, drafts = silver_reason(row)
    assert reason is None and len(drafts) == 2  # both areas are the answer, the first is the other tool's
    assert drafts[0].values["polygon"].startswith("094049N1092600E")
    # the same polygon named as a second area, or a row without the suffix (one polygon expected): not silver
    assert silver_reason({**row, "id": "A0430/26_AREA2"})[0] == "silver_polygon differs"
    assert silver_reason({**row, "id": "A0430/26"})[0] == "silver_polygon differs"
