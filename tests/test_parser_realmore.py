"""Real published messages outside dev.jsonl (the 'realmore' robustness set): formats the rules path must read.

Each test quotes the real text it needs inline, with its source. Expected values are worked out by hand from the
text (coordinates, radii, bearings), not copied from the parser's output.
"""

import math

import pytest
from pyproj import Geod

from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

GEOD = Geod(ellps="WGS84")
NM = 1852.0


def _records(text):
    recs, _ = process_batch([Message(index=0, text=text)], "rules")
    return recs


def _dist(a, b):
    return GEOD.inv(a[1], a[0], b[1], b[0])[2]


def _flat(points):
    return [x for p in points for x in p]


def _area(points):
    lats, lons = [p[0] for p in points], [p[1] for p in points]
    return abs(GEOD.polygon_area_perimeter(lons, lats)[0])


# RKRR E) string quoted in a public Korean NOTAM position-text plan (realmore rk-semicircle-exc)
RKRR_SEMICIRCLE = ("E)A SEMICIRCLE, 360118N1281017E - A CLOCKWISE 3NM ARC CENTERED ON 360243N1281333E "
                   "EXC A CIRCLE RADIUS 1.5NM CENTERED ON 360243N1281333E")


def test_semicircle_with_its_centre_circle_excluded_is_a_half_annulus():
    recs = _records(RKRR_SEMICIRCLE)
    assert len(recs) == 1  # the EXC circle is cut out, never a zone of its own
    rec = recs[0]
    assert rec.geometry.type == "polygon"
    assert rec.spans["polygon"].text == RKRR_SEMICIRCLE[4:]  # the whole description, exclusion included
    p = (36 + 1 / 60 + 18 / 3600, 128 + 10 / 60 + 17 / 3600)
    c = (36 + 2 / 60 + 43 / 3600, 128 + 13 / 60 + 33 / 3600)
    pts = rec.geometry.points
    assert pts[0] == pytest.approx(p, abs=1e-9)
    r = _dist(c, p)
    assert abs(r - 3 * NM) < 0.02 * 3 * NM  # the start point lies on the stated 3NM circle
    outer = [q for q in pts if abs(_dist(c, q) - r) < 0.5]
    inner = [q for q in pts if abs(_dist(c, q) - 1.5 * NM) < 0.5]
    assert len(outer) + len(inner) == len(pts) and len(outer) == len(inner) == 61  # every vertex on one circle
    # the outer arc ends diametrically opposite the start, clockwise from the south-west start
    az_p = GEOD.inv(c[1], c[0], p[1], p[0])[0]
    az_end = GEOD.inv(c[1], c[0], outer[-1][1], outer[-1][0])[0]
    assert (az_end - az_p) % 360 == pytest.approx(180.0, abs=1e-6)
    az_2 = GEOD.inv(c[1], c[0], pts[1][1], pts[1][0])[0]
    assert 0 < (az_2 - az_p) % 360 < 10
    assert _area(pts) == pytest.approx(math.pi * (r * r - (1.5 * NM) ** 2) / 2, rel=0.01)
    assert rec.status == "review"  # a fragment: no limits, no times
    assert not any("excludes an area" in x or "approximates" in x for x in rec.reasons)


# ---- format probes: Doc 8126 wording for which no real message is at hand (the real header is FDC-free ICAO)
_HEAD = ("A1234/26 NOTAMN\nQ) EGTT/QRTCA/IV/BO/W/000/100/5120N00010W020\nA) EGTT B) 2604010600 C) 2604051800\n")


def test_sector_message_gives_one_polygon_zone_with_its_own_span():
    text = _HEAD + "E) RESTRICTED AREA WI 5NM RADIUS OF 512000N0001000W BTN BRG 090 AND 180 DEG TRUE\nF) SFC G) 3000FT AMSL"
    (rec,) = _records(text)
    assert rec.spans["polygon"].text == "WI 5NM RADIUS OF 512000N0001000W BTN BRG 090 AND 180 DEG TRUE"
    assert rec.status == "ok", rec.reasons  # centre, radius and true bearings all stated: exact
    assert rec.geometry.points[0] == pytest.approx((51 + 20 / 60, -1 / 6), abs=1e-12)
    assert _area(rec.geometry.points) == pytest.approx(math.pi * (5 * NM) ** 2 / 4, rel=0.01)


def test_magnetic_sector_and_holiday_schedule_are_review_with_reasons():
    text = (_HEAD + "D) MON-FRI 0700-1500 EXC HOL\n"
            "E) FIRING WI RADIUS 10KM OF 512000N0001000W IN SECTOR BTN BRG 030 AND 120 MAG\nF) SFC G) 3000FT AMSL")
    (rec,) = _records(text)
    assert rec.geometry.type == "polygon" and rec.status == "review"
    assert any("magnetic" in r for r in rec.reasons)
    assert any("EXC HOL" in r and "still include" in r for r in rec.reasons)
    # Wed 1 .. Sun 5 April 2026: the weekdays 1-3 April, holidays not removed
    assert [(w.start.day, w.start.hour, w.end.hour) for w in rec.windows] == [(1, 7, 15), (2, 7, 15), (3, 7, 15)]


def test_sector_without_bearings_stays_a_circle_flagged_as_approximate():
    text = _HEAD + "E) DANGER AREA: SECTOR OF CIRCLE CENTRED ON 512000N0001000W RADIUS 5NM\nF) SFC G) 3000FT AMSL"
    (rec,) = _records(text)
    assert rec.geometry.type == "circle" and rec.geometry.radius_m == pytest.approx(5 * NM)
    assert rec.status == "review" and any("sector that was not built" in r for r in rec.reasons)


# ---- obstacles whose height is written before their position

# squawk (neilcochran/squawk notam-parser.spec.ts), ICAO EGSS B0987/24
EGSS_CRANE = """B0987/24 NOTAMN
Q) EGSS/QABXX/IV/NBO/A/000/015/5200N00015E003
A) EGSS
B) 2404100600
C) 2404302359
D) MON-FRI 0700-1700
E) CRANE OPERATING HGT 450FT AGL AT 52 02 44N 000 15 32E"""

# notam-whisper 2026-W13, OIIX A0289/26 (one line, as published)
OIIX_OBST = ("A0289/26 NOTAMR A3118/25  Q) OIIX/QOBCE/IV/M/AE/000/999/  A) OICS B) 2601221137 C) 2604221430 EST  "
             "E) AN UNLGTD OBSTACLE AFFECTED CIRCLING  AREA EXIST WITH FLW SPECIFICATION:  OBSTACLE TYPE: BLDG, "
             "HGT: 4613 FT AMSL,  PSN:351557N  0470050E, DIST: 920 M BFR THR RWY 19,  DIST:400 M  RIGHT SIDE OF "
             "EXTD CL RWY 19.    CREATED: 22 JAN 2026 11:38  SOURCE: OIIIYNYX")


@pytest.mark.parametrize("text, centre, ref, ft, raw", [
    (EGSS_CRANE, (52 + 2 / 60 + 44 / 3600, 15 / 60 + 32 / 3600), "AGL", 450.0, "450FT AGL"),
    (OIIX_OBST, (35 + 15 / 60 + 57 / 3600, 47 + 50 / 3600), "AMSL", 4613.0, "4613 FT AMSL"),
])
def test_obstacle_height_stated_before_its_position(text, centre, ref, ft, raw):
    (rec,) = _records(text)
    assert rec.geometry.type == "circle" and rec.geometry.center == pytest.approx(centre, abs=1e-9)
    assert (rec.upper.ref, rec.upper.ft, rec.upper.raw) == (ref, ft, raw)
    assert rec.status == "review"  # a point without lateral extent
    assert not any("no upper limit" in r for r in rec.reasons)


# ---- a message that breaks off (FIS-B TFR 0/6733 Dayton, as received: part 2 ends "(DQ(INCMPL)")
FISB_DAYTON = """NOTAM-TFR 0/6733 211945Z PART 1 OF 6 OH..AIRSPACE
     ZID PART 2 OF 6 OH..AIRSPACE DAYTON, OHIO..TEMPORARY FLIGHT
     REGULATIONS, AIRCRAFT FLIGHT OPERATIONS ARE PROHIBITED WITHIN AN
     AREA DEFINED AS 30 NM RADIUS OF 395408N0841310W (DQN131010.7)
     SFC-17999FT MSL EFFECTIVE 2009211945 UTC (1545 LOCAL 09/21/20)
     UNTIL 2009220000 UTC (2000 LOCAL 09/21/20). WITHIN AN AREA
     DEFINED AS 10 NM RADIUS OF 395408N0841310W (DQ(INCMPL)"""


def test_zone_cut_off_by_incmpl_is_review_and_the_complete_one_is_not():
    recs = _records(FISB_DAYTON)
    assert [r.geometry.radius_m for r in recs] == [30 * NM, 10 * NM]
    full, cut = recs
    assert (full.lower.ref, full.upper.ft) == ("SFC", 17999.0)
    assert full.start.isoformat() == "2020-09-21T19:45:00+00:00" and full.end.isoformat() == "2020-09-22T00:00:00+00:00"
    assert not any("INCMPL" in r for r in full.reasons)
    assert cut.status == "review" and any("INCMPL" in r for r in cut.reasons)


# ---- D) nights written as "2100-2359, 06 0000-0900" and a day-to-day span with a month (notam-whisper 2026-W20)
RKRR_D0866 = ("D0866/26 NOTAMN    Q) RKRR/QRDCA/IV/BO/W/000/020/3536N12905E003  A) RKRR B) 2605302100 C) 2606210900  "
              "D) MAY 30 2100-31 0900, JUN 05 2100-2359, 06 0000-0900 2100-2359, 07   0000-0900, 12 2100-2359, 13 "
              "0000-0900 2100-2359, 14 0000-0900, 19   2100-2359, 20 0000-0900 2100-2359, 21 0000-0900  E) TEMPO "
              "DANGER AREA ACT AS FLW  A CIRCLE RADIUS 2.2NM CENTERED ON 353623N1290438E  RMK:THIS AREA IS "
              "ESTABLISHED FOR DRONE FLIGHT  F) SFC G) 2000FT AGL    CREATED: 14 APR 2026 08:38  SOURCE: RKRRYNYX")


def test_night_windows_split_at_2359_are_one_window_each():
    (rec,) = _records(RKRR_D0866)
    nights = [((5, 30), (5, 31)), ((6, 5), (6, 6)), ((6, 6), (6, 7)), ((6, 12), (6, 13)), ((6, 13), (6, 14)),
              ((6, 19), (6, 20)), ((6, 20), (6, 21))]
    assert [(w.start.month, w.start.day, w.start.hour, w.end.month, w.end.day, w.end.hour) for w in rec.windows] == [
        (a[0], a[1], 21, b[0], b[1], 9) for a, b in nights]
    assert all(w.start.minute == 0 and w.end.minute == 0 for w in rec.windows)
    assert rec.status == "ok" and rec.geometry.radius_m == pytest.approx(2.2 * NM)


# ---- a named danger area switched on, no coordinates and no Q-line position (notam-whisper 2026-W20, VOMF/VABF)
VOMF_A0658 = ("A0658/26 NOTAMR A3548/25  Q) VOMF/QRDCA/IV/BO/W/000/050/  A) VOMF B) 2602210030 C) 2605201430  "
              "D) 0030-1430  E) VOD-188 CHENGALPATTU FRNG RANGE ACT  F) GND G) 5000FT AGL  CREATED: 21 FEB 2026 "
              "00:32  SOURCE: VOMMYNYX")
VABF_A0600 = ("A0600/26 NOTAMN  Q) VABF/QRDCA/IV/BO/W/000/140/  A) VABF B) 2605020030 C) 2606301730  D) MAY 02 "
              "04-09 11-16 18-23 25 26 28-30     JUN 01-06 08-13 15-20 22-25 27 29 30 0030-1730  E) VAD 8 (BERCHHA) "
              "ACT  F) GND G) 12000FT AGL    CREATED: 13 APR 2026 05:43  SOURCE: VABBYNYX")


@pytest.mark.parametrize("text, name, n_windows", [(VOMF_A0658, "VOD-188", 89), (VABF_A0600, "VAD 8", 49)])
def test_danger_area_designator_is_the_zone_not_the_fir(text, name, n_windows):
    (rec,) = _records(text)
    assert rec.geometry.type == "named" and rec.geometry.name == name
    assert rec.status == "review" and any(r.startswith(f"named area {name!r}") and "not in the message" in r for r in rec.reasons)
    assert rec.geometry.kind == "area"
    assert len(rec.windows) == n_windows


# ---- a launch notice (notam-whisper 2026-W20, VOMF A1541/26 part 1, shortened after zone 3): roman-numeral vertex
# labels with a lost blank ("I.?1200N"), and a circle "AROUND THE LAUNCHER" located by the launch pad line
VOMF_A1541 = ("A1541/26 NOTAMN Q) VOMF/QWMLW/IV/BO/W/000/999/ A) VOMF  PART 1 OF 2  B) 2605210315  C) 2606100715  "
              "D) 0315-0715  E) GSLV-F17 ROCKET LAUNCH FM SHAR RANGE, SRIHARIKOTA WILL TAKE   PLACE AS PER FLW "
              "DETAILS.THE LAUNCH WILL BE ON ANY ONE   OF THE DAY DRG THIS PERIOD.ACTUAL DATE OF LAUNCH WILL BE   "
              "INTIMATED ATLEAST 24 HR IN ADVANCE THROUGH A SEPARATE NOTAM.      LAUNCH PAD COORD: 134312N 0801348E"
              "   NO FLT IS PERMITTED OVER THE DNG ZONES.         1) DANGER ZONE -1: IS A CIRCLE OF 10 NM AROUND THE "
              "LAUNCHER.      2) DANGER ZONE -2: IS AN AREA BOUNDED BY FLW COORD:   I.?1200N 08440E   II.?1230N "
              "08450E   III.?1205N 08610E   IV.?1135N 08600E   V. 1200N 08440E      3) DANGER ZONE -3: IS AN AREA "
              "BOUNDED BY FLW COORD:   I.?1055N 08750E   II.?1135N 08800E   III.?1045N 09030E   IV.?1005N 09020E   "
              "V. 1055N 08750E         F) GND  G) UNL")


def test_launch_notice_gives_the_pad_circle_and_both_polygons():
    pad, z2, z3 = _records(VOMF_A1541)
    assert pad.geometry.type == "circle" and pad.geometry.radius_m == pytest.approx(10 * NM)
    assert pad.geometry.center == pytest.approx((13 + 43 / 60 + 12 / 3600, 80 + 13 / 60 + 48 / 3600), abs=1e-9)
    assert pad.status == "review" and any("'LAUNCHER'" in r for r in pad.reasons)
    assert _flat(z2.geometry.points) == pytest.approx(_flat([(12.0, 84 + 40 / 60), (12.5, 84 + 50 / 60),
                                                             (12 + 5 / 60, 86 + 10 / 60), (11 + 35 / 60, 86.0)]))
    assert _flat(z3.geometry.points) == pytest.approx(_flat([(10 + 55 / 60, 87 + 50 / 60), (11 + 35 / 60, 88.0),
                                                             (10.75, 90.5), (10 + 5 / 60, 90 + 20 / 60)]))
    assert z2.status == z3.status == "ok"
    assert [(w.start.hour, w.start.minute, w.end.hour, w.end.minute) for w in z2.windows[:1]] == [(3, 15, 7, 15)]


# a danger area named in a notice whose Q-line radius is 999 (whole FIR) and whose FIR code is also an airport's
VIDF_A0594 = ("A0594/26 NOTAMN  Q) VIDF/QRDCA/IV/BO/W/000/200/3055N07523E999  A) VIDF B) 2603160700 C) 2606150700  "
              "E) VID 129 ACT. NO ACFT PERMITTED TO OVERFLY WI VID 129.  F) GND G) 20000FT AMSL    CREATED: 13 MAR "
              "2026 12:35  SOURCE: VIDPYNYX")


def test_designator_not_an_airport_that_shares_the_fir_code():
    (rec,) = _records(VIDF_A0594)
    assert rec.geometry.type == "named" and rec.geometry.name == "VID 129"
    assert rec.status == "review"


# ---- a GNSS interference notice (notam-whisper 2026-W20, LECM G0032/26 part 1, shortened): an area, not a
# restriction, so never 'ok' as a no-fly zone
LECM_G0032 = ("G0032/26 NOTAMN Q) LECM/QGWAU/IV/NBO/E /000/999/3609N00552W015 A) LECM  PART 1 OF 2  B) 2605130805  "
              "C) 2605161100  D) 13 0805-1200, 15 1700-2100, 16 0600-1100  E) GNSS/GPS MAY BE UNAVAILABLE DUE TO "
              "INTERFERENCE IN THE   SOUTHEAST OF CADIZ AND NEARBY AIRSPACE VOLUMES.  FM 360952N 0055257W, FM "
              "AZIMUTH 205 UP TO 245 DEGREES:  VERY LIKELY UNAVAILABLE FM 0NM UP TO 1NM RADIUS, FM GND UP TO FL030.")


def test_gnss_interference_area_is_review():
    recs = _records(LECM_G0032)
    assert recs and all(r.status == "review" for r in recs)
    assert any("GNSS" in reason for r in recs for reason in r.reasons)


# ---- LTAA (Turkey) air defence zones: a hyphen inside each pair ("370712N-0372046E"), and a malformed closing
# vertex "365852N-351722E" (a 6-digit longitude) that must be named, not dropped (notam-whisper 2026-W20)
LTAA_G5394 = ("G5394/13 NOTAMR G0553/13  Q) LTAA/QRRCA/IV/BO /W /000/110/3657N03523E012  A) LTAA B) 1312131335 "
              "C) PERM  E) ASAGIDAKI KOORDINATLARDA HAVA SAVUNMA BOLGESI OLUSTURULMUSTUR.    SAHA 1 (ADANA):  "
              "YATAY LIMITLER:365852N-0351720E, 365846N-0352254E, 370023N-0352409E,   370015N-0353134E, "
              "365745N-0353101E, 365527N-0352837E,   365424N-0352528E, 365358N-0352133E, 365257N-0351858E,   "
              "365257N-0351543E, 365345N-0351330E, 365852N-351722E    DIKEY LIMITLER:  SFC- 11000FT AMSL  "
              "F) SFC G) 11000FT AMSL    CREATED: 07 JAN 2015 07:46  SOURCE: EUECYIYN")


def test_hyphenated_pairs_read_and_a_malformed_last_vertex_is_named():
    (rec,) = _records(LTAA_G5394)
    assert rec.geometry.type == "polygon" and len(rec.geometry.points) == 11
    assert rec.geometry.points[0] == pytest.approx((36 + 58 / 60 + 52 / 3600, 35 + 17 / 60 + 20 / 3600), abs=1e-9)
    assert rec.geometry.points[-1] == pytest.approx((36 + 53 / 60 + 45 / 3600, 35 + 13 / 60 + 30 / 3600), abs=1e-9)
    assert rec.status == "review"
    assert any("351722E" in r and "6 digits" in r for r in rec.reasons)
    assert (rec.lower.ref, rec.upper.ft) == ("SFC", 11000.0)


# ---- a security advisory about another state's FIR (notam-whisper 2026-W20, EGXX V0009/26): the zone is that FIR,
# never the issuing FIRs listed in A)
EGXX_V0009 = ("V0009/26 NOTAMN  Q) EGXX/QROXX/IV/NBO/W /000/999/5218N01451W999  A) EGTT EGPX EGGX B) 2602201338 "
              "C) PERM  E) SECURITY - HAZARDOUS SITUATION IN LIBYA  UK REGISTERED AIR OPERATORS ARE RECOMMENDED NOT "
              "TO ENTER FIR  TRIPOLI (HLLL). POTENTIAL RISK FROM ANTI-AIRCRAFT WEAPONRY.  THIS SUPERSEDES THE "
              "ADVICE IN THE CURRENT UK AIP.  UK AIP ENR 1.1. PARA 1.4.5 REFERS.  F) SFC G) UNL  CREATED: 20 FEB "
              "2026 13:52  SOURCE: EUECYIYN")


def test_advisory_names_the_fir_it_is_about():
    (rec,) = _records(EGXX_V0009)
    assert rec.geometry.type == "named" and rec.geometry.name == "FIR TRIPOLI (HLLL)"
    assert rec.status == "review" and rec.permanent


# ---- a boundary along a FIR border (Joey0609/notams data/notam_db/2024-08.json, WAAF A2556/24): the ring is kept
# with a straight edge there, and the record says so
WAAF_A2556 = ("A2556/24 NOTAMN\nQ) WAAF/QWMLW/IV/BO/W/000/999/1111S11715E056\nA) WAAF\nB) 2408290514\nC) 2408290556\n"
              "E) REF NOTAM YBBB N3791/24 CHINESE AEROSPACE FLIGHT ACTIVITIES\nWILL TAKE PLACE FLW RECEIVED FROM CIVIL "
              "AVIATION ADMINISTRATION \nOF CHINA : DUE TO AEROSPACE FLIGHT ACTIVITIES, THE FLIGHT SAFETY OF\n THE "
              "AIRCRAFT IN THE FOLLOWING AREA MAY BE AFFECTED :   \n101600S1170900E - 102200S1174200E - 115959S1172253E "
              "THENCE ALONG \nFIR BOUNDARY TO 115959S1164835E - 101600S1170900E \nTHESE ATS ROUTES MAY BE AFFECTED : \n"
              "- B349 SEGMENT KALIV - BOPLO\n- M635 SEGMENT BLI - ATMAP\n- L511 SEGMENT SBR - BOPLO\nF) SFC\nG) UNL")


def test_boundary_along_a_fir_border_is_kept_as_a_straight_edge_and_flagged():
    (rec,) = _records(WAAF_A2556)
    assert rec.geometry.type == "polygon"
    assert _flat(rec.geometry.points) == pytest.approx(_flat([
        (-(10 + 16 / 60), 117 + 9 / 60), (-(10 + 22 / 60), 117 + 42 / 60),
        (-(11 + 59 / 60 + 59 / 3600), 117 + 22 / 60 + 53 / 3600), (-(11 + 59 / 60 + 59 / 3600), 116 + 48 / 60 + 35 / 3600)]))
    assert rec.status == "review" and any("FIR BOUNDARY" in r and "straight edge" in r for r in rec.reasons)


# ---- an FAA TFR web page flattened to one line (notam-whisper 2026-W29, FDC 6/5187, shortened): bare fix/radial/
# distance references after each point ("OMN141034.4"), "To:" with a colon, "Clockwise on a 30 NM ARC Centered on:"
FDC_6_5187 = ("FDC 6/5187 AIRSPACE SPACE OPERATIONS TFR. Cape Canaveral, FL, Tuesday, July 14, 2026 Local. NOTAM "
              "Number : FDC 6/5187 Download shapefiles Issue Date : July 13, 2026 at 1347 UTC Location : Cape "
              "Canaveral, Florida Beginning Date and Time : July 14, 2026 at 0705 UTC Ending Date and Time : July 14, "
              "2026 at 1157 UTC Reason for NOTAM : Space Operations Area Type : Space Operations Affected Area(s) Top "
              "Airspace Definition: Region bounded by: Latitude: Longitude: FRD: From: 285116N 0804219W OMN141034.4 "
              "To: 290730N 0803000W OMN108033.9 Clockwise on a 30 NM ARC Centered on: 283703N 0803647W MLB009030.7 "
              "To: 281330N 0801600W MLB077020.8 To: 282501N 0803029W MLB027019.8 To: 282501N 0803759W MLB007018.7 To: "
              "282501N 0804144W MLB357018.9 To: 283121N 0804349W MLB356025.5 To: 283801N 0804701W ORL079029.6 To: "
              "284910N 0805044W ORL057030.7 To: 285116N 0804714W OMN147031.8 To: 285116N 0804219W OMN141034.4 "
              "Altitude: From the surface up to and including 18000 feet MSL Effective Date(s): From July 14, 2026 at "
              "0705 UTC (July 14, 2026 at 0305 EDT) To July 14, 2026 at 1157 UTC (July 14, 2026 at 0757 EDT) "
              "ENDSECTION1 Operating Restrictions and Requirements Top No pilots may operate an aircraft in the areas "
              "covered by this NOTAM (except as described). EXCLUDING AIRSPACE OVER INTERNATIONAL WATERS.")


def test_tfr_page_point_chain_with_bare_fix_references_is_one_polygon():
    (rec,) = _records(FDC_6_5187)
    assert rec.geometry.type == "polygon"
    pts = rec.geometry.points
    assert pts[0] == pytest.approx((28 + 51 / 60 + 16 / 3600, -(80 + 42 / 60 + 19 / 3600)), abs=1e-9)
    assert pts[-1] == pytest.approx((28 + 51 / 60 + 16 / 3600, -(80 + 47 / 60 + 14 / 3600)), abs=1e-9)
    c = (28 + 37 / 60 + 3 / 3600, -(80 + 36 / 60 + 47 / 3600))
    on_arc = [q for q in pts if abs(_dist(c, q) - 30 * NM) < 0.02 * 30 * NM]
    assert len(on_arc) >= 20  # the 30 NM arc is densified
    assert (rec.lower.ref, rec.upper.ref, rec.upper.ft) == ("SFC", "AMSL", 18000.0)
    assert rec.start.isoformat() == "2026-07-14T07:05:00+00:00" and rec.end.isoformat() == "2026-07-14T11:57:00+00:00"
    # "EXCLUDING AIRSPACE OVER INTERNATIONAL WATERS": the drawn area is larger than the restriction
    assert rec.status == "review" and any("excludes the airspace over international waters" in r for r in rec.reasons)


# ---- a trigger NOTAM (notam-whisper 2026-W29, LFXX R3154/25, shortened polygon): the coordinates are an AIP SUP
# amendment; the areas are "ACTIVATED BY NOTAM AT D-7", so a year-long window must not pass as 'ok'
LFXX_R3154 = ("R3154/25 NOTAMN  Q) LFXX/QRTTT/IV/BO /W /000/999/4551N00432W190  A) LFRR LFBB B) 2601220000 C) "
              "2701212359  E) TRIGGER NOTAM - AIRAC AIP SUP 207/25 MODIFIED :  MISSILE FIRING IN THE ATLANTIC OCEAN "
              "REQUIRING THE CREATION OF 6   TEMPORARY RESTRICTED AREAS (&apos;ZRT&apos;), OF 16 TEMPORARY DANGEROUS "
              "AREAS   (&apos;ZDT&apos;) AND FLIGHT PLAN BUFFER ZONE (FBZ) ASSOCIATED.  THESE &apos;ZRT/ZDT&apos; ARE "
              "ACTIVATED BY NOTAM AT D-7.  ----  PAGE 8 : REPLACE LFDB21Z COORDINATES BY :  455421N 0013949W - "
              "455643N 0013942W - 455237N 0011542W -   455136N 0011253W - 454929N 0011048W - 453516N 0010344W -   "
              "453127N 0010358W - 452845N 0011022W - 452848N 0014111W -   455421N 0013949W  ----  F) SFC G) UNL")


def test_trigger_notam_area_is_review():
    (rec,) = _records(LFXX_R3154)
    assert rec.geometry.type == "polygon" and len(rec.geometry.points) == 9
    assert rec.status == "review" and any("trigger NOTAM" in r for r in rec.reasons)


# ---- a Chinese notice that makes the whole city a restricted area and bans flights in a sub-area given by
# coordinates (realmore cn-wenchang-2026-02, 文昌市公安局通告): both areas are zones
CN_WENCHANG = ("一、自2026年2月3日08时起至2月11日24时止,我市全市行政区域空域为临时空中限制区。其中在龙楼镇、东郊镇、文教镇和相关"
               "海域的临时空中限制区(坐标系:E110.833° N19.496°,E111.153° N19.247°,E111.392° N19.523°,E111.072° "
               "N19.772°)内禁止一切单位、组织和个人的轻型和超轻型飞机、轻型直升机、滑翔机、三角翼、动力三角翼、滑翔伞、动力伞、"
               "热气球、飞艇、无人机、航空模型、空飘气球、系留气球等低空慢速小型航空器和空飘物在地面以及空中进行起降、飞行活动。")


def test_city_wide_restricted_area_is_kept_beside_the_coordinate_area():
    city, sub = _records(CN_WENCHANG)
    assert city.geometry.type == "named" and city.geometry.name == "我市全市行政区域"
    assert sub.geometry.type == "polygon"
    assert _flat(sub.geometry.points) == pytest.approx(_flat([(19.496, 110.833), (19.247, 111.153),
                                                              (19.523, 111.392), (19.772, 111.072)]))
    for rec in (city, sub):  # Beijing time: 2月3日08时 = 00:00 UTC, 2月11日24时 = 2月12日 00:00 = 16:00 UTC on the 11th
        assert rec.start.isoformat() == "2026-02-03T00:00:00+00:00"
        assert rec.end.isoformat() == "2026-02-11T16:00:00+00:00"
        assert rec.status == "review"


# ---- a real schedule with public holidays (notam-whisper 2026-W16, CZUL H1576/26): "EXC HOL, APR 07-…" — the
# comma ends the EXC list and starts a clause of its own; holidays are not knowable, so they stay in (review)
CZUL_H1576 = ("H1576/26 NOTAMR H1375/26  Q) CZUL/QRRCA/IV/BO/W/310/999/4957N06932W096  A) CZUL B) 2603301312 C) "
              "2605152200  D) MAR 30-APR 06 MON-FRI 1300-2200 EXC HOL, APR 07-APR 30 MON-THU   1300-0400 FRI "
              "1300-2200, MAY 01-MAY 15 MON-FRI 1300-2200 EXC HOL  E) RESTRICTED AREA CYR666 BAGOTVILLE ACT FM ABV "
              "FL310 TO UNL.  F) FL310 G) UNL    CREATED: 30 MAR 2026 13:12  SOURCE: CYHQYNYX")


def test_holiday_schedule_keeps_every_clause_and_says_holidays_are_included():
    (rec,) = _records(CZUL_H1576)
    w = [(x.start.strftime("%m%d %H%M"), x.end.strftime("%m%d %H%M")) for x in rec.windows]
    assert len(w) == 35
    assert w[:2] == [("0330 1312", "0330 2200"), ("0331 1300", "0331 2200")]  # MAR 30-APR 06 MON-FRI 1300-2200
    assert ("0407 1300", "0408 0400") in w and ("0410 1300", "0410 2200") in w  # APR: MON-THU overnight, FRI
    assert ("0430 1300", "0501 0400") in w and w[-1] == ("0515 1300", "0515 2200")  # MAY 01-15 MON-FRI
    assert rec.status == "review" and any("EXC HOL" in r and "still include" in r for r in rec.reasons)


# ---- Spanish month names in D) (notam-whisper 2026-W16, SCIZ R0095/26, shortened): "21 ABR 0100-0300"
SCIZ_R0095 = ("R0095/26 NOTAMN   Q) SCIZ/QRDCA/IV/BO/W/000/999/5000S11800W715  A) SCIZ B) 2604210100 C) 2604220400  "
              "D) 21 ABR 0100-0300,22 ABR 0200-0400  E) ZONE ...D... SECT WEST PACIFIC DUE TO ROSCOSMOS THE  AREA IS "
              "BOUNDED BY GEO COORD:  APR 21  474700S / 1310000W  480200S / 1300100W  503800S / 1134600W  523000S / "
              "1131100W  502800S / 1300200W  501600S / 1310000W  474700S / 1310000W  INSTRUCTIONS: SANTIAGO OCEANIC "
              "CONTROL 10024KHZ  F) SFC G) UNL")


def test_spanish_month_abbreviations_in_the_schedule():
    (rec,) = _records(SCIZ_R0095)
    assert [(w.start.isoformat(), w.end.isoformat()) for w in rec.windows] == [
        ("2026-04-21T01:00:00+00:00", "2026-04-21T03:00:00+00:00"), ("2026-04-22T02:00:00+00:00", "2026-04-22T04:00:00+00:00")]
    assert rec.geometry.type == "polygon" and len(rec.geometry.points) == 6


# ---- notam-whisper 2026-W29: a corridor "EITHER SIDE OF A STRAIGHT LINE DEFINED BY:" (UAAA K1569), a Q-line
# placeholder position 0000N00000E (UHHH P0059) and a list of FIRs in a security advisory (OIIX A4460)
UAAA_K1569 = ("K1569/26 NOTAMN  Q) UAXX/QRPCA/IV/NBO/W /000/999/4859N07306E435  A) UACN UAAA UAII B) 2607141447 C) "
              "2607141522  E) PROHIBITED AREA ACTIVATED 40.5 NM EITHER SIDE OF A STRAIGHT LINE   DEFINED BY:  455946N "
              "0633351E - 473200N 0680000E - 503000N 0801200E -   505600N 0834100E  F) GND G) UNL")
UHHH_P0059 = ("P0059/26 NOTAMN  Q)UHHH/QRDCA/IV/BO/W/000/080/0000N00000E001  A)UHHH B)2607010200 C)2607311600  D)01-03 "
              "06-10 13-17 20-24 27-31 0200-1600  E)DANGER AREA ACT UHD418.  F)SFC  G)2450M AMSL")
OIIX_A4460 = ("A4460/24 NOTAMR A2844/24  Q) OIIX/QAFXX/IV/NBO/E/000/999/3220N05324E999  A) OIIX  B) 2411110717 C) "
              "2502092030EST  E) AIRSPACE SECURITY WARNING ISSUED   BY IRAN CAA IN RESPONSE TO   THE VOLATILE SECURITY "
              "SITUATION IN UKRAINE.  IRANIAN REGISTERED AIR OPERATORS ARE ADVISED   TO TAKE ALL POTENTIAL RISK INTO "
              "ACCOUNT IN RISK ASSESSMENT   AND FLT PLANNING DECISIONS WHEN OPERATING  IN THE FLW FLIGHT INFORMATION "
              "REGIONS (FIR):  DNIPRO (UKDV), SIMFEROPOL (UKFV), LVIV (UKLV), ODESA (UKOV),  KYIV (UKBV), ROSTOV (URRV) "
              "AND MOLDOVA (LUUU).  FROM GND TO UNL)")


def test_corridor_either_side_of_a_straight_line_is_buffered():
    (rec,) = _records(UAAA_K1569)
    assert rec.geometry.type == "polygon"
    line = [(45 + 59 / 60 + 46 / 3600, 63 + 33 / 60 + 51 / 3600), (47 + 32 / 60, 68.0), (50.5, 80.2),
            (50 + 56 / 60, 83 + 41 / 60)]
    from shapely.geometry import LineString, Polygon
    ring = Polygon([(lon, lat) for lat, lon in rec.geometry.points])
    assert ring.is_valid and all(ring.contains(LineString([(b, a) for a, b in line]).interpolate(f, normalized=True))
                                 for f in (0.05, 0.3, 0.6, 0.95))
    # 40.5 NM either side: never narrower than that (the flat end at the first point), and not much wider
    near = sorted(_dist(line[0], q) for q in rec.geometry.points)[:2]
    assert all(40.5 * NM <= d <= 40.5 * NM * 1.004 for d in near), near
    assert rec.status == "ok", rec.reasons


def test_placeholder_q_position_is_not_a_place():
    (rec,) = _records(UHHH_P0059)
    assert rec.geometry.type == "named" and rec.geometry.name == "UHD418"


def test_security_advisory_lists_each_fir():
    recs = _records(OIIX_A4460)
    assert [r.geometry.name for r in recs] == ["DNIPRO (UKDV)", "SIMFEROPOL (UKFV)", "LVIV (UKLV)", "ODESA (UKOV)",
                                                "KYIV (UKBV)", "ROSTOV (URRV)", "MOLDOVA (LUUU)"]
    assert all(r.status == "review" for r in recs)


# ---- an airspace use plan for two FIRs (notam-whisper 2026-W29, VIXX A1510/26 part 1, shortened): A) lists FIRs
# (scope W), and VIDF is also an airport's code — never a circle around that airport
VIXX_A1510 = ("A1510/26 NOTAMN Q) VIXX/QRTCA/IV/BO/W/000/999/2834N07707E999 A) VIDF VABF  PART 1 OF 7  B) 2607130000  "
              "C) 2607132359  E) AIRSPACE USE PLAN (AUP)   TSA/TRA /AMC-MANAGEABLE AIRSPACE ACT AS FLW :   NR AIRSPACE "
              "ID TIME FM TIME TO LOWER FL UPPER FL   1 TRA503(A) ?PUNE? 0130 1200 FL325 FL460   2 TRA503(A) ?PUNE? "
              "1330 1730 FL325 FL460   7 TRA509A 0000 2359 SFC FL270   END PART 1 OF 7")


def test_fir_in_a_of_an_en_route_notice_is_never_an_airport():
    recs = _records(VIXX_A1510)
    assert all(r.geometry is None or r.geometry.type != "circle" for r in recs)
    assert all(r.status == "review" for r in recs)


# ---- format probes for Chinese notices (the wording of municipal notices; no real message at hand): a labelled
# height pair "管控高度：真高0米至500米", and a date-only period with a daily schedule
def test_labelled_chinese_height_pair_and_date_only_period():
    (rec,) = _records("管控时间：2023年7月28日18时至8月8日24时；管控区域：成都市行政区域内；管控高度：真高0米至500米。")
    assert (rec.lower.ref, rec.lower.ft, rec.upper.ref, rec.upper.raw) == ("AGL", 0.0, "AGL", "500米")
    assert rec.upper.ft == pytest.approx(500 / 0.3048)
    (rec,) = _records("管控时间为2024年6月6日至6月10日每日8时至18时，管控范围为北纬30.1234度、东经120.5678度为中心半径2公里范围。")
    assert rec.start.isoformat() == "2024-06-05T16:00:00+00:00" and rec.end.isoformat() == "2024-06-10T16:00:00+00:00"
    assert [(w.start.day, w.start.hour, w.end.hour) for w in rec.windows] == [(d, 0, 10) for d in range(6, 11)]
