"""Silver answers: the rules reader's reading of a real archive row is kept only where nothing doubts the reading;
what the message itself says (an estimated end, a point without a radius) does not doubt it."""

from airspace.eval.realsplit import split_of
from airspace.eval.silver import silver_reason, silver_rows

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
