"""Issue 45: no `ok` record carrying another area's value, or a window read as the period, in hand-written lists.

Each message is a reproducer of the semantic fuzzer (``eval.fuzz``, seeds 80 and 82) cut to the part that matters:
a list of areas, each with its own limits or times, written the way dispatch boards and municipal notices write them.
The reader either reads each area's own values or says which value it could not tie to its area (`review`).
"""

import json
from pathlib import Path

import pytest

from airspace.core.records import NM_TO_M, CircleGeometry, PolygonGeometry
from airspace.parser.rules.areas import labelled_sections
from airspace.pipeline.batch import process_batch

ARCHIVE = Path(__file__).resolve().parents[1] / "data" / "real" / "archive.jsonl"


def zones(text: str):
    return [r for r in process_batch(text, "rules")[0] if r.geometry is not None]


def labels(text: str) -> list[str]:
    """The labels that open the areas' sections of a list."""
    return [text[a:b].lstrip()[:2] for a, b in labelled_sections(text)[0]]


def said(rec, words: str) -> bool:
    return any(words in x for x in rec.reasons)


# ---- periods: the period restated, a window read as the period, a list of windows -----------------------------

def test_a_window_written_beside_the_period_is_not_read_as_the_period_silently():
    one = ("Security zone established by the authorities. inside 1 SM around 483346.8N 1351937.7E between surface and "
           "400 feet MSL EFFECTIVE 2027-11-03T17:30Z-2027-11-03T23:30Z{w}. Ref 1129.")
    (r,) = zones(one.format(w=""))
    assert r.status == "ok" and r.end.hour == 23
    (r,) = zones(one.format(w=" 2711031730 TO 2711031930"))
    assert r.status == "review" and said(r, "two periods near this zone"), r.reasons


def test_a_prose_period_that_holds_the_ten_digit_one():
    text = ("Notice to drone operators. 2707140330 TO 2707140530 - floor SFC, ceiling 120m AMSL - between July 14, 2027 "
            "at 0330 UTC and July 14, 2027 at 0930 UTC, WI AN AREA DEFINED AS N42.12754, W88.37058\nN42.1134, W88.3042\n"
            "N42.065797, W88.313083\nN42.0465, W88.3649")
    (r,) = zones(text)
    assert isinstance(r.geometry, PolygonGeometry)
    assert r.status == "review" and said(r, "the first inside the second"), r.reasons


# ---- one zone, a value the text does not tie to it: review, the reason naming it ---------------------------------

@pytest.mark.parametrize("text, words", [
    pytest.param("RESTRICTED AREA ACTIVATED. SFC TO FL095; 2305212220 TO 2305220020 2305222220 TO 2305230020\n"
                 "Perimeter: 433640N / 0784958W, 434259N/0785445W, 434446N/0790616W, 433717N / 0791251W, 433640N / "
                 "0784958W All UAS flights prohibited.",
                 "list of windows", id="window list"),
    pytest.param("Please note the following.\n(1) at Marina Bay Sands - surface to 600 M AMSL\nTIL 2609130015.\n"
                 "(2) 2 SM radius around 371802S1450657E, ceiling 500 FT AMSL EFFECTIVE 2410160600-2410161000.",
                 "'500 FT AMSL'", id="area before"),
    pytest.param("URGENT: between 2025-05-22 20:30 UTC and 2025-05-23 00:30 UTC\nA. not above 100M AGL\n"
                 "1 NM radius around S0102E03640; B. at Old Trafford\nLIMITS surface/1,500 ft AGL.",
                 "'100M AGL'", id="area after"),
    pytest.param("各飞手注意：自2023年9月18日13时—17时止；\n范围：珠海国际航展中心临时禁止无人机飞行，真高150米以下；"
                 "以222428N1134808E为圆心半径2千米以内；",
                 "another place", id="venue closed by a ban"),
    pytest.param("调度通知：\n\n2024年3月4日21时-2024年3月5日1时期间；\n以下各点连线范围内：北纬45°30′，东经126°45′、北纬45°32′，"
                 "东经126°36′、北纬45°39′ 东经126°39′、北纬45°36′、东经126°46′连线围成的区域\n距太阳岛冰雪大世界850米范围内\n"
                 "距太阳岛冰雪大世界1060米范围内，真高150米以下。",
                 "another place", id="venue measured from"),
])
def test_a_value_the_text_does_not_tie_to_the_zone_is_review(text, words):
    """A list of windows (one read as the period); a limit of the area before or after (the list's other area, not
    made out); a venue closed by a ban, or a distance measured from a venue, standing between the zone and its value."""
    (r,) = zones(text)
    assert r.status == "review" and said(r, words), r.reasons


# ---- circles written without the word radius ------------------------------------------------------------------

def test_a_centre_and_its_radius_joined_by_a_slash_and_a_ring_around_a_point():
    text = ("2. for aerial filming. .1NM ring around 22.7379°N 113.5907°E; 3. area bounded by 23.075560° N, "
            "113.752272° E; 23.05342°N  113.61622°E; 22.936° N / 113.561° E; 22.94ºN  113.83ºE. 4. N23.0909 E113.9538 "
            "/ 0.4 nautical miles.")
    got = zones(text)
    circles = sorted((round(r.geometry.radius_m, 1), r.spans["center"].text) for r in got
                     if isinstance(r.geometry, CircleGeometry))
    assert circles == [(round(0.1 * NM_TO_M, 1), "22.7379°N 113.5907°E"), (round(0.4 * NM_TO_M, 1), "N23.0909 E113.9538")]
    (poly,) = [r for r in got if isinstance(r.geometry, PolygonGeometry)]
    assert len(poly.geometry.points) == 4  # the slash-radius centre is not a fifth vertex


def test_a_radius_written_after_its_centre_is_not_the_radius_of_the_boundary_after_it():
    text = ("禁飞区域如下：\n半径12千米，圆心北纬31.283度 东经121.238度；中心点312007N1214035E 半径3千米\n"
            "北纬31度16分，东经121度32分 北纬31度15分、东经121度28分 北纬31度12分、东经121度29分 北纬31度11分 东经121度31分 "
            "北纬31度13分 东经121度34分围成的范围，真高120米以下。")
    got = zones(text)
    assert sorted(type(r.geometry).__name__ for r in got) == ["CircleGeometry", "CircleGeometry", "PolygonGeometry"]
    (poly,) = [r for r in got if isinstance(r.geometry, PolygonGeometry)]
    assert len(poly.geometry.points) == 5


def test_a_point_with_a_buffer_after_a_boundary_is_its_own_circle():
    text = ("以下各點連線範圍內：北緯34°37′14″ 東經113°45′20″、北緯34°32′40″ 東經113°38′51″、北緯34°34′30″、東經113°29′33″、"
            "北緯34°41′15″ 東經113°32′42″；\n北緯35度01分、東經113度35分周邊450米範圍；真高150米以下。")
    got = zones(text)
    (poly,) = [r for r in got if isinstance(r.geometry, PolygonGeometry)]
    assert len(poly.geometry.points) == 4  # the buffered point (35°01′N) is no fifth vertex
    assert all(r.geometry.radius_m == 450.0 for r in got if isinstance(r.geometry, CircleGeometry))


# ---- values of another area ----------------------------------------------------------------------------------

def test_a_period_written_before_its_area_is_not_left_for_the_heading():
    text = ("1、管控时间：2023年2月21日17时-2023年2月22日17时，坐标点北纬19度46分 东经110度23分；北纬19度48分 东经110度16分；"
            "北纬19度53分、东经110度15分；真高120米以内；\n管控时间：2027年8月3日7时到2027年8月4日7时，位置北纬20°10′ 东经110°13′，"
            "半径6.9公里，真高150米以下空域。")
    got = zones(text)
    (circle,) = [r for r in got if isinstance(r.geometry, CircleGeometry)]
    if circle.status == "ok":  # read right, or review: never the first area's period
        assert circle.start.year == 2027
    else:
        assert said(circle, "2027年8月3日"), circle.reasons


def test_a_boundary_description_is_no_place_and_its_own_time_is_not_skipped():
    text = ("国际马拉松赛期间无人机管控措施\n\n2025年6月24日23:00至2025年6月25日07:00，首钢园。\n以下各点连线范围内：北纬39°53′东经116°33′、"
            "北纬39°55′ 东经116°27′、北纬39°50′ 东经116°25′、北纬39°49′东经116°31′依次连线范围内；时间：2024年8月14日9时至2024年8月"
            "14日13时。\n半径9公里，中心点北纬39度50分 东经116度23分；2026年8月13日12:00-2026年8月13日18:00；\n均为真高50米以内。")
    (poly,) = [r for r in zones(text) if isinstance(r.geometry, PolygonGeometry)]
    assert poly.start.year == 2024 if poly.status == "ok" else said(poly, "2024年8月14日"), poly.reasons


def test_a_period_opening_the_first_item_is_not_every_items():
    text = ("Dispatch board - from SFC up to 300M AMSL 1. 2024-02-10 17:30Z-2024-02-20 17:30Z; area: 3404N 08411W "
            "3405N 08413W 3406N 08412W 3406N 08410W 3404N 08411W; 2. points 333434N0841923W 333122N0842139W "
            "333201N0842546W 333459N0842531W  All UAS flights prohibited.")
    first, second = zones(text)
    assert second.status == "review" and said(second, "first area's line"), second.reasons


def test_list_labels_run_on_in_one_line_still_number_the_areas():
    text = ("RESTRICTED AREA ACTIVATED. 1) at 395916N1163035E with a radius of 9.3NM valid until 2609211915 2) coordinates "
            "4014N 11641E TO 4013N 11647E TO 4009N 11645E TO 4014N 11641E TO START ref 9048 2502011133 TO 2502011333 "
            "3) coordinates N40.2757, E116.3267; N40.237064 E116.385500; N40.24594 E116.45440; N40.348 E116.325 "
            "2027-01-10 11:30 UTC-2027-01-10 12:30 UTC. 4) Altitude: 500m AGL - 5000 FT AMSL between 2512291730 and "
            "2512291900 coordinates N39.7714 E117.2585 to N39.9210 E117.2520 to N39.93641 E117.04929 to N39.79 E116.98")
    assert labels(text) == ["1)", "2)", "3)", "4)"]
    got = zones(text)
    poly = next(r for r in got if "polygon" in r.spans and r.spans["polygon"].text.startswith("N40.2757"))
    # the limits written after label 4) are area 4's: area 3's zone does not carry them as its own, ok
    assert poly.status == "review" and said(poly, "read from area 4's text"), poly.reasons


def test_bullets_after_a_colon_or_a_wide_gap_are_the_areas_of_the_list():
    text = ("Dispatch board -    from 2510041307 until 2510041707:  * LIMITS GND/18000FT AGL; A CIRCLE WITH RADIUS 14KM "
            "centred at 372237.6S1450257.6E; * from SFC up to 120 meters AGL, inside 8 nm from 372929S1443642E  * PSN "
            "-37.80, 145.39 radius 30000 FT - BLW FL065 (police request).   Ref 6714.")
    first, second, _ = zones(text)
    # each bullet's zone reads its own bullet's ceiling
    assert first.spans["upper"].text == "18000FT AGL" and second.spans["upper"].text == "120 meters AGL"


def test_letters_and_stars_run_on_in_one_line_still_label_the_areas():
    lettered = ("Please note the following. between 2709070646 and 2709070816: A. points 175616S1492442W 175253S1492904W "
                "175558S1493359W 180101S1493143W ceiling 100M AMSL. B. WI AN AREA DEFINED AS 17.0977°S 149.3850°W "
                "17.10754º S 149.38305º W 17.1102° S  149.3927° W 17.1065°S  149.4009°W C. position 17 02 42 S 149 34 01 W "
                "with a radius of 1 statute miles SFC to 5000ft AMSL")
    assert labels(lettered) == ["A.", "B.", "C."]
    b = next(r for r in zones(lettered) if "polygon" in r.spans and r.spans["polygon"].text.startswith("17.0977"))
    assert b.status == "review" or "upper" not in b.spans, (b.spans, b.reasons)
    starred = ("Ops update * within 8 kilometers of 530922.9N0100307.5E - 1500 feet MSL and below WEF 2701061445 TIL "
               "2701070045. * polygon 5319N 01031E TO 5315N 01032E TO 5312N 01027E TO 5319N 01031E TO BEGINNING\n"
               "DAILY 1300-1700, SFC-FL245 2305160700 TO 2305161000")
    assert len(labelled_sections(starred)[0]) == 2
    circle = next(r for r in zones(starred) if isinstance(r.geometry, CircleGeometry))
    assert circle.status == "review" or circle.spans.get("lower") is None, (circle.spans, circle.reasons)


def test_a_centre_with_its_radius_after_a_dash_ends_the_boundary_before_it():
    text = ("4) area bounded by N48.4287 E15.8284; N48.28 E15.83; N48.25995 E16.05258; N48.399439, E16.066976\n"
            "5) 4828.7N 01623.1E - 25 SM\nApplies to all: SFC TO FL330 .")
    got = zones(text)
    (poly,) = [r for r in got if isinstance(r.geometry, PolygonGeometry)]
    assert len(poly.geometry.points) == 4
    (circle,) = [r for r in got if isinstance(r.geometry, CircleGeometry)]
    assert circle.spans["radius"].text == "25 SM"


def test_a_number_too_long_for_a_float_beside_a_limit_is_no_internal_failure():
    """The hostile fuzzer's reproducer (seed 484): a limit of a lone zone compared with another one written as a
    hundred-digit number."""
    text = ("调度通知：北纬22.55度，东经114.10度半径500米内，2026年11月30日14时至2026年11月30日17时禁飞，真高120米以下。"
            + "9" * 1965 + "M AMSL")
    recs, _ = process_batch(text, "rules")
    assert recs and not any("internal failure" in x for r in recs for x in r.reasons), [r.reasons for r in recs]


def test_the_next_letter_of_a_list_ends_the_boundary_before_it():
    text = ("N3566/27 NOTAMN\nQ) EPWW/QRDCA/I/B/E/000/188/5232N02058E060\nA) EPWA\nB) 2711070830\nC) 2711160830\n"
            "E) TEMPORARY DANGER AREA DECLARED WI AREAS BOUNDED BY LINES JOINING:\n"
            "A. 522830N 0211550E   521927N 0210124E   522420N 0204048E\n523709N 0205338E B.  523030N 0204339E  "
            "524002N 0204757E  523900N 0210604E  522818N 0210709E\n522441N 0205342E\nF) SFC G) 5700m AMSL")
    assert [len(r.geometry.points) for r in zones(text)] == [4, 5]


def test_a_numbered_label_after_a_word_and_one_blank():
    text = ("Message from ATC: 1. 6°22′52″S 106°13′22″E - 400M - between GND and FL245. 2. area bounded by S06 10 E106 33, "
            "S06 10 E106 23, S06 17 E106 26, S06 10 E106 33, SFC TO 100 M AGL. B) 2023-01-04T17:49Z C) 2023-01-14T18:19Z "
            "3. at Marina Bay Sands, LIMITS 500FT AGL/3000 feet MSL between 2504022130 and 2504022200.")
    assert labels(text) == ["1.", "2.", "3."]
    poly = next(r for r in zones(text) if isinstance(r.geometry, PolygonGeometry))
    assert poly.status == "review" or poly.start.year == 2023, (poly.spans, poly.reasons)


def test_a_venue_after_a_list_label_is_a_place_of_the_list():
    after_label = ("各飞手注意：1)以北纬34度29分 东经109度06分为圆心，半径10千米；2)西安奥体中心，高度真高300米以下；2024年4月27日10时至"
                   "2024年4月27日14时期间。")
    (circle,) = zones(after_label)
    assert circle.status == "review", circle.reasons  # the height is the venue's, or nobody can say


def test_the_next_number_of_a_list_ends_the_boundary_before_it():
    text = ("Q) EDGG/QWALW/IV/M/W/005/040/5015N00848E060\nA) EDGG\nB) 2306041605\nC) 2306041635\nE) AIR DISPLAY AT HANAU: 1.\n"
            "5010N00902E,5019N00916E,5031N00904E,5030N00843E,5019N00836E,5009N00844E 2. 5023N00832E , 5010N00830E , "
            "5002N00845E ,\n5010N00858E , 5023N00855E\nF) 500 FT AGL \nG) 1200 M AMSL")
    assert [len(r.geometry.points) for r in zones(text)] == [6, 5]


def test_a_clocks_minutes_are_not_the_degrees_of_the_coordinate_after_it():
    from airspace.parser.coords import find_coords

    (c,) = find_coords("管控时间：2026年8月27日17:00至2026年8月28日17:00 40.0631N, 116.3474E 半径 4100米")
    assert (c.lat, c.lon, c.text) == (40.0631, 116.3474, "40.0631N, 116.3474E")


# ---- seed 85: an item's label earlier on its line, an unnumbered item inside a labelled area, a labelled period, a
# value between two areas ------------------------------------------------------------------------------------------

def test_the_next_number_ends_a_boundary_whose_own_label_stands_earlier_on_its_item():
    text = ("Dispatch board -\nLIMITS 500FT AGL/FL 125\n3) between April 30, 2024 at 1215 UTC and April 30, 2024 at 1315 "
            "UTC\n48.8959ºN 1.8591ºE to 48.95° N  1.82° E to 48.97ºN 1.90ºE to 48.919875° N / 1.926458° E\n"
            "4) N491031E0025122 (0.6 nm, near the exhibition centre; 2401161300-2401161430")
    polys = [r for r in zones(text) if isinstance(r.geometry, PolygonGeometry)]
    assert len(polys) == 1 and len(polys[0].geometry.points) == 4, polys


def test_an_unnumbered_item_inside_a_labelled_area_keeps_its_own_limit():
    text = ("广州市公安局通告第一区：230309N1132028E半径0.9公里；真高150米（含）以下，时间：2023年11月17日19时至2023年11月18日3时；"
            " 第二区：北纬22度53分、东经113度11分 半径 2公里内，管控时间：2023年12月28日21时至2023年12月29日5时 （三）海心沙亚运公园"
            "范围内，真高300米以下，时间：2026年12月28日12时至2026年12月28日24时。")
    first, second = zones(text)[:2]
    assert first.status == "ok" and first.upper.ft == pytest.approx(150 / 0.3048)
    assert second.status == "review" and said(second, "upper limit read beyond another place"), second.reasons


def test_a_labelled_start_and_end_that_hold_the_ten_digit_period():
    text = ("#3 2504231815 TO 2504232015, from surface up to FL065 - (police request). Start: April 23, 2025 at 1815 UTC\n"
            "End: April 24, 2025 at 0615 UTC, -8.452700, -34.552744 / 14 NM radius.")
    (r,) = zones(text)
    assert isinstance(r.geometry, CircleGeometry) and r.geometry.radius_m == pytest.approx(14 * NM_TO_M)
    assert r.status == "review" and said(r, "two periods near this zone"), r.reasons


def test_a_value_between_two_areas_is_not_the_first_ones_when_the_second_has_none_of_its_own():
    text = ("Notice to drone operators. from 2611022046 to 2611030046: - WI 28 NM of N613542W1503841. SFC to 1200 m AGL "
            "- WI 16km RADIUS OF N61.42521 W149.54707 - H24, (police request) LIMITS 200M AGL/FL195, 30000FT from "
            "N61.15 W150.85  Confirm receipt.")
    recs = zones(text)
    assert [r.geometry.radius_m for r in recs] == pytest.approx([28 * NM_TO_M, 16_000, 9144])
    assert recs[1].status == "review" and said(recs[1], "written between this area's place and area 3's"), recs[1].reasons
    assert recs[2].status == "review" and said(recs[2], "may be this area's own"), recs[2].reasons


def test_a_field_label_that_writes_each_areas_limits_after_its_place_settles_them():
    # kslv:P1774/26 (archive): each stage's area, then its own "VERTICAL ALTITUDE: SFC-UNL"
    (row,) = [json.loads(x) for x in open(ARCHIVE, encoding="utf-8") if '"P1774/26"' in x]
    recs = zones(row["text"])
    assert len(recs) == 2 and not any(said(r, "written between") for r in recs), [r.reasons for r in recs]


def test_an_exclusions_ceiling_is_not_the_areas_own():
    # P1330/26 (archive): "BOUNDED BY … EXCLUDING THE OVERLAPPING AIRSPACE BLW 9000FT WI 18NM RADIUS OF c(MRE)",
    # F) 5000FT AMSL G) FL240: the area's ceiling is G), not the exclusion's 9000FT
    (row,) = [json.loads(x) for x in open(ARCHIVE, encoding="utf-8") if '"P1330/26"' in x]
    poly = next(r for r in zones(row["text"]) if isinstance(r.geometry, PolygonGeometry))
    assert poly.upper.ft == 9000 and poly.status == "review", (poly.upper, poly.reasons)


# ---- seed 87: a range that runs into a radius, a ring's centre before the next item, a radius that names its own
# centre, a period after the last area's sentence, a venue a distance in words is measured from ------------------

def test_a_limit_then_a_radius_is_no_range():
    (r,) = zones("EFFECTIVE 2508251704-2508260304\nbelow 1200M AGL - 5250M radius of 47.64447N/9.19984E All UAS flights "
                 "prohibited.")
    assert r.geometry.radius_m == pytest.approx(5250)
    assert r.lower is None or r.lower.ft == 0, r.lower
    assert r.upper.ref == "AGL" and r.upper.ft == pytest.approx(1200 / 0.3048), r.upper


def test_a_rings_centre_is_not_the_first_point_of_the_next_items_boundary():
    text = ("UAS activity prohibited as follows. max 3000FT AMSL\n5. 7,650m radius around 34°56'13''S 58°32'39''W\n"
            "6. 22 nm ring around 34.525076°S 58.574752°W\n7. 34.8654° S / 58.1837° W TO 34.806873°S / 57.995408°W TO "
            "34.949°S, 57.913°W TO 34.984939°S / 58.075814°W.\nApplies to all: between April 8, 2025 at 0945 UTC and "
            "April 8, 2025 at 1745 UTC.")
    recs = zones(text)
    assert [type(r.geometry).__name__ for r in recs] == ["CircleGeometry", "CircleGeometry", "PolygonGeometry"]
    assert len(recs[2].geometry.points) == 4


def test_a_radius_that_names_its_own_centre_next_leaves_the_boundarys_last_point():
    text = ("管控时段：2023年8月30日12时—24时。\n范围：北纬31°00′，东经120°32′、北纬31°05′ 东经120°27′、北纬31°10′，东经120°30′、"
            "北纬31°02′、东经120°39′\n半径8公里，中心北纬31°09′、东经120°27′；\n各区域均为真高500米以内。")
    poly, circle = zones(text)
    assert len(poly.geometry.points) == 4 and poly.geometry.points[-1] == pytest.approx((31 + 2 / 60, 120.65))
    assert circle.geometry.center == pytest.approx((31.15, 120.45)) and circle.geometry.radius_m == 8000


def test_a_venue_measured_in_words_is_a_place_of_the_list():
    text = ("Fire-fighting operations in progress. Altitude: SFC - 18,000FT AGL:\n(1) WI AN AREA DEFINED AS 48.31N 12.52E; "
            "48.31280N 12.51202E; 48.31905N 12.51744E; 48.313180N 12.525043E\nfor aerial filming - from April 10, 2026 "
            "at 1320 UTC to April 11, 2026 at 1350 UTC; (2) 0.9 nautical miles of Soldier Field; from 2027-07-16T07:20Z "
            "until 2027-07-16T08:05Z.\n Ref 832.")
    (poly,) = zones(text)
    assert poly.start.year == 2026 or poly.status == "review", (poly.start, poly.reasons)


# ---- seed 88: a date's day after a wrapped coordinate, a venue opening a bullet, a ceiling then a radius -------------

def test_a_dates_day_on_the_line_before_its_month_is_no_coordinates_seconds():
    text = ("B) 2706170630 C) 2706170730\nE) BLASTING OPS. THE AREA IS BOUNDED BY GEO COORD: 17 JUN N31 03 E121 44,"
            "N31 02 E121 41,N31 03 E121 39,N31 05 E121 38,N31 03 E121 44 18\nJUN\nN31 02 E121 42,N31 01 E121 39,"
            "N31 05 E121 37,N31 06 E121 42,\nN31 02 E121 42\nF) SFC G) 150M AGL")
    first = zones(text)[0]
    assert not any(lon == pytest.approx(121 + 44 / 60 + 18 / 3600) for _, lon in first.geometry.points)
    assert len(first.geometry.points) == 4, first.geometry.points


@pytest.mark.parametrize("text", [
    "from March 2, 2027 at 0049 UTC to March 2, 2027 at 0549 UTC - BLW 3,000 feet MSL - 9990m around 37.3574S 145.2731E.",
    "from March 2, 2027 at 0049 UTC to March 2, 2027 at 0549 UTC - 1,000 feet MSL - 9990m ring around 37.3574S 145.2731E.",
])
def test_a_ceiling_then_a_circles_radius_is_no_range(text):
    (r,) = zones(text)
    assert r.geometry.radius_m == pytest.approx(9990)
    assert all(x is None or x.ft < 3001 for x in (r.lower, r.upper)), (r.lower, r.upper)


# ---- seed 89: the next item's number after a boundary's last point, one end of another area's range --------------

def test_the_next_items_number_is_no_seconds_of_the_boundarys_last_point():
    text = ("valid November 9, 2024 at 1000 UTC to November 9, 2024 at 1800 UTC: 1. between GND and 18,000 FT AMSL. "
            "area bounded by N40 16 W073 32 N40 23 W073 24 N40 28 W073 32 N40 22 W073 39 2. ceiling 3000ft AGL, WI AN "
            "AREA DEFINED AS N40.78 W74.09 N40.71109, W74.00368 N40.64 W74.08 N40.6366, W74.1857")
    first = zones(text)[0]
    assert first.geometry.points[-1] == pytest.approx((40 + 22 / 60, -(73 + 39 / 60))), first.geometry.points


def test_a_zone_stating_its_ceiling_takes_no_floor_from_another_areas_range():
    text = ("between 2026-09-04 17:00 UTC and 2026-09-18T17:59Z.  - between GND and 3000ft AGL; LOCATION: N4025W07334. "
            "Radius 40 KM  - 3.7 nautical miles ring around N4110 W07348 600 m AGL and below;  Violators will be "
            "prosecuted.")
    ring = zones(text)[-1]
    assert ring.upper.ft == pytest.approx(600 / 0.3048) and "lower" not in ring.spans, ring.spans


# ---- seed 90: a ring "about" its centre, a venue before 划設 or before a blank, a period stated for all ------------

def test_a_ring_about_its_centre_is_a_circle_not_the_next_items_first_vertex():
    text = ("Message from ATC:    between 2024-07-16T16:31Z and 2024-07-16 18:31Z:  between SFC and 3,000FT AMSL:  1. a "
            "ring of 1200FT about 10.556629°N / 106.985151°E; 2. N10.82658 E106.68124  N10.883 E106.476  N11.0916 "
            "E106.5036  N11.0545 E106.6986  3. 10 KM ring around N1117E10652.")
    ring, poly, circle = zones(text)
    assert ring.geometry.radius_m == pytest.approx(1200 * 0.3048) and ring.geometry.center[0] == pytest.approx(10.556629)
    assert len(poly.geometry.points) == 4 and circle.geometry.radius_m == 10_000


@pytest.mark.parametrize("text", [
    "北緯31度52分 東經118度49分半徑8公里；南京奧體中心划設臨時管控區；真高100米以下\n管控時間：2023年5月8日10時-2023年5月8日24時。",
    "以北纬45.644°，东经126.523°为圆心，半径0.4公里范围内；太阳岛冰雪大世界区域 真高100米以下；2027年7月10日5时—11时。",
], ids=["venue-before-huashe", "venue-area-before-blank"])
def test_a_venue_named_before_its_measures_keeps_them_from_the_circle_before_it(text):
    circle = zones(text)[0]
    assert circle.status == "review", (circle.upper, circle.reasons)


# ---- seed 91: a range before the next line's circle, a statement for all areas in items, venues of any ending, a
# distance in lower case before a venue ------------------------------------------------------------------------------

def test_a_range_keeps_its_reference_before_the_next_lines_circle():
    (r,) = zones("between 2310120915 and 2310141115 from GND up to 400 feet AGL\nA CIRCLE WITH RADIUS 1 statute miles "
                 "CENTRE 372641S1745534E.  Confirm receipt.")
    assert r.upper.ref == "AGL" and r.upper.ft == 400, r.upper


@pytest.mark.parametrize("text", [
    "1)以北纬35°55′东经120°20′为中心，半径1.0公里以内，时间：2024年6月25日19时—2024年6月26日1时；\n2)自2027年7月7日8时至12时止 "
    "青岛青春足球场；真高50米以内；上述区域内禁止无人驾驶航空器飞行活动。",
    "1. 以45.68183N 126.41091E为圆心半径1850米。\n2. 太阳岛冰雪大世界实施临时禁飞，飞行高度真高150米以下\n禁飞时段：2023年6月17日05:00至"
    "2023年6月18日05:00。",
    "1. polygon 305525N / 1220810E  305238N/1220213E  305645N/1215903E  310005N/1220416E  from 100 FT AGL up to 400 "
    "feet MSL  2. 3.2km of Croke Park below UNL; 2705092321-2705100221",
], ids=["football-ground", "venue-acted-on", "km-of-venue"])
def test_a_venue_item_after_an_area_keeps_its_values(text):
    first = zones(text)[0]
    assert first.status == "review" and said(first, "read beyond another place"), first.reasons


def test_a_radius_in_its_centres_clause_is_not_a_following_venues():
    text = ("1)以北纬35°55′东经120°20′为中心，半径1.0公里以内，真高120米以下，时间：2024年6月25日19时—2024年6月26日1时；\n"
            "2)青岛青春足球场；真高50米以内；2027年7月7日8时至12时。")
    first = zones(text)[0]
    assert not said(first, "radius read beyond"), first.reasons


# ---- seed 92: one distance read as the radius and as a limit ----------------------------------------------------

@pytest.mark.parametrize("text", [
    "EFFECTIVE 2309131755-2309241825.\nZONE 2 140824.67N 1003743.42E / 1700 FT up to 3,000 feet AGL;  Violators will "
    "be prosecuted.",
    "All areas EFFECTIVE 2408281354-2409111424. C. centre point S12.06623 W77.55305, radius 9990 m - up to UNL.",
], ids=["slash-radius", "radius-then-up-to"])
def test_a_distance_read_as_the_radius_and_as_a_limit_is_review(text):
    (r,) = zones(text)
    assert r.status == "review" and said(r, "is read both as the radius and as the"), (r.spans, r.reasons)


# ---- seed 93: a limit's reference before the next circle, a venue in a notice's title line, the first area's own
# period written before its place --------------------------------------------------------------------------------

def test_a_range_before_a_circle_keeps_its_reference():
    text = ("2503012330-2503100000:\n1. ref 402; Altitude: surface - 400FT AGL circle r 22 km centred at N512050 W0000620; "
            "2. Centre: 511614N 0005555W, R 20 kilometres\n200 m AGL TO 18000 feet MSL")
    first = zones(text)[0]
    assert first.upper.ref == "AGL" and first.upper.ft == 400, first.upper


def test_a_venue_glued_to_a_notices_title_is_still_a_place():
    text = ("关于实施临时空域管制的通告以拓东体育场为中心，半径8.2公里范围内；真高1000米以下空域；\n北纬25°13′ 东经102°40′ 半径 1.4公里范围；"
            "以上区域管控时段：2023年2月25日9时-2023年2月25日13时。")
    circle = next(r for r in zones(text) if isinstance(r.geometry, CircleGeometry))
    assert circle.status == "review" and said(circle, "read beyond another place"), circle.reasons


def test_the_first_areas_own_period_before_its_place_outranks_a_later_one():
    text = ("RESTRICTED AREA ACTIVATED.\n- LIMITS GND/1,200m AMSL; from November 4, 2023 at 0000 UTC to November 4, 2023 "
            "at 0800 UTC inside 3 SM of 11.28513ºN / 106.54553ºE.\n- 10.49073, 106.38587 / 7,500FT\nfloor surface, "
            "ceiling 150M AMSL from 2027-05-28T17:30Z until 2027-06-07 03:30 UTC.")
    first = zones(text)[0]
    assert first.start.year == 2023 or (first.status == "review" and said(first, "own clause")), (first.start,
                                                                                                   first.reasons)


# ---- seed 94: a pair run on past the zone's line, a venue before its height, an aerodrome's reference point, a radius
# between two centres -------------------------------------------------------------------------------------------


def test_an_aerodromes_reference_point_is_not_the_circles_centre():
    text = ("Q) VABF/QRDCA/V/BO /A/050/600/1922N07245E019\nA) VABB B) 2705012200 C) 2705072259\nE) DANGER AREA ACTIVATED "
            "IN A CIRCLE WITH CENTER AT 192202N 0724524E AND\nRADIUS OF 35KM. AD ARP 192005N0725134E.\nF) FL050 G) FL600")
    (r,) = zones(text)
    assert r.geometry.center == pytest.approx((19 + 22 / 60 + 2 / 3600, 72 + 45 / 60 + 24 / 3600))


def test_a_radius_before_a_centre_opened_with_yi_is_the_clause_befores():
    text = ("2024年11月2日15时到2024年11月2日19时（北京时间）。位置：北纬29°41′36″东经106°31′20″；半径2.8公里 以北纬29°39′、东经106°41′为圆心"
            "半径11公里范围内；以上区域均为高度真高50米以下。")
    a, b = zones(text)
    assert (a.geometry.radius_m, b.geometry.radius_m) == (2800, 11_000)


# ---- seed 95: venues set up or measured before a circle, a radius after a full-width colon, a well-formed point after
# a boundary ------------------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text", [
    "临时禁飞通知\n天津团泊体育中心设立临时禁飞区，真高120米以内\n以北纬39.35度 东经117.33度为中心，半径8公里；\n管控时间：2025年10月2日10时到12时。",
    "无人机管控措施  黄龙体育中心半径1公里以内；真高300米以下 以北纬30°15′东经120°03′为圆心，半径3550米范围内；真高500米以下空域。 "
    "管控时间：2025年7月19日0时至12时（北京时间）。",
], ids=["venue-set-up", "venue-radius-then-limit"])
def test_a_venues_limit_before_a_circle_is_not_the_circles(text):
    (circle,) = zones(text)
    assert circle.status == "review" and said(circle, "read beyond another place"), circle.reasons


def test_a_radius_after_a_full_width_colon_is_its_centres():
    text = ("【空域管制】 2027年10月3日14時—16時。 第二區：珠海國際航展中心半徑0.5公里以內，真高500米以下 （三）位置北緯22°01′、東經113°37′，"
            "半徑：1千米，真高300米以下；")
    circle = next(r for r in zones(text) if isinstance(r.geometry, CircleGeometry))
    assert circle.geometry.radius_m == 1000, circle.spans


def test_a_well_formed_point_after_a_boundary_is_not_its_malformed_last_vertex():
    text = ("调度通知：自2023年1月16日07:00到2023年1月17日07:00止。\n以下各点连线范围内：北纬34度05分，东经109度03分；北纬34度09分东经109度02分；"
            "北纬34度06分、东经108度59分；\n340543N1090005E 半径 14公里；\n均为真高150米以下空域。")
    poly, circle = zones(text)
    assert len(poly.geometry.points) == 3 and circle.geometry.radius_m == 14_000


# ---- make fuzz, seed 55 (semantic seed 100): a floor word that opens a range after a slash radius -------------------

def test_a_slash_radius_before_a_range_is_a_circle_not_the_boundarys_last_vertex():
    text = ("- area bounded by 7.832ºS / 35.027ºW to 7.7739º S 35.0381º W to 7.735050º S / 34.985128º W to 7.781°S / "
            "34.924°W\n- S075800 W0352301 / 30000FT SFC TO FL330; between 2411152100 and 2411202300")
    poly, circle = zones(text)
    assert len(poly.geometry.points) == 4 and circle.geometry.radius_m == pytest.approx(9144), (poly.geometry, circle)


# ---- a value another item may own, in the forms seeds 87-94 found: review, the reason naming it --------------

@pytest.mark.parametrize("text, index, words", [
    pytest.param("Security zone established by the authorities. * centred on 6005.05N 01133.78E, radius 9,990 M; LIMITS "
                 "surface/2,000FT AGL\n* 59.892°N, 10.742°E - 1.4KM) SFC TO UNL. 2304072300 TO 2304080030.  Confirm receipt.",
                 0, "written in the last area's own clause", id="period-after-last-sentence"),
    pytest.param("Dispatch board -\n- at Tokyo Big Sight between FL050 and FL245 WEF 2411081100 TIL 2411152100; - Perimeter: "
                 "4147N 08832W,4147N 08821W,4139N 08820W,4139N 08831W,\n4147N 08832W, from SFC up to 50M AGL 2027-02-12T19:00Z "
                 "TO 2027-02-20T19:00Z\n- at Camp Nou\nfrom SFC up to 2000ft AGL.",
                 0, "read from area 1's text", id="venue-opens-bullet"),
    pytest.param("(1) PSN 40°10'22\"N 116°44'12\"E radius 0.2NM BLW 400 feet AGL; (2) Perimeter: 402700N1162141E\n"
                 "402511N1163400E\n403511N1162739E\n402700N1162141E. 2504131800 TO 2504132000 BLW 600M AGL.\n"
                 "Applies to all: from 2025-04-13 18:00 UTC to 2025-04-14 02:00Z.  Confirm receipt.",
                 1, 'two periods near this zone', id="applies-to-all"),
    pytest.param("Message from ATC: A. 2605142357 TO 2605150157 - area: N27.98449 W81.37015 TO N27.9820, W81.3582 TO N27.99, "
                 "W81.36; B. coordinates N28.49 W81.67 TO N28.530606, W81.619287 TO N28.46392 W81.59121 - security ops -\n"
                 "All areas LIMITS SFC/300M AMSL B) 2605142357 C) 2605151157.  Confirm receipt.",
                 0, 'two periods near this zone', id="all-areas-items"),
    pytest.param("AREA D: Perimeter: 16.22S/48.24W\n16.202S 48.174W\n16.26310S 48.18504W, 2511220910 TO 2511221110. max 2000 FT "
                 "AMSL, Start: November 22, 2025 at 0910 UTC\nEnd: November 22, 2025 at 1910 UTC.\n Confirm receipt.",
                 0, 'two periods near this zone', id="start-end-past-line"),
    pytest.param("管控時段：2027年11月6日04:00-2027年11月7日04:00。\n北緯30°33′03″ 東經114°13′47″半徑1050米；4、五環體育中心真高100米以下空域\n"
                 "上述區域內禁止無人駕駛航空器飛行活動。",
                 0, 'read beyond another place', id="venue-before-height"),
    # seed 99: an item labelled in another style ("（三）") inside area 2's labelled section; the period between
    # area 2's venue and the circle may be either's
    pytest.param("第1处：管控时间：2024年6月12日5时到9时，半径1千米，圆心303252N1142942E； 第2处：光谷国际网球中心半径1公里以内；"
                 "2027年2月24日10:00—2027年2月24日16:00 （三）距304334N1141328E点10公里范围内 2023年7月21日20时—2023年7月22日20时"
                 "（北京时间）；以上区域均为真高300米（含）以下。", 1, "start time read beyond another place", id="label-of-another-style"),
    # seed 99: a bullet's list joined by TO, the next bullet's by semicolons
    pytest.param("GND TO 1500 feet MSL:\n2025-11-25T13:00Z TO 2025-11-25T18:00Z:\n- coordinates 7°44'15\"S / 35°04'16\"W TO "
                 "7º39′59″S 34º58′07″W TO 7°33′07″S, 34°57′56″W\n- 8.1584ºS 35.4065ºW; 8.284°S, 35.341°W; 8.19° S  35.27° W.",
                 0, "separator changes ('TO' then ';')", id="bullets-to-then-semicolons"),
    # seed 99: a labelled Start:/End: pair in the message's tail after the last area's own window
    pytest.param("Security zone established by the authorities.\nZONE 4 8.5 km from N321226E0350011 SFC TO 1200m AMSL "
                 "2406170400 TO 2406170600 - for the event\nStart: 2406170400\nEnd: 2406170800\n Ref 9364.",
                 0, "two periods near this zone", id="start-end-in-the-tail"),
])
def test_a_value_another_item_may_own_is_review(text, index, words):
    rec = zones(text)[index]
    assert rec.status == "review" and said(rec, words), rec.reasons


def test_a_list_whose_separator_changes_at_a_bare_line_break_may_be_two_areas():
    """Seed 102: one area's list stopped unclosed at the line's end and the next area's list closed the boundary; a
    list wrapped by layout keeps its separator across the break and stays one ok boundary."""
    two = ("临时禁飞通知\n由北纬24度56分，东经102度35分、北纬25度00分 东经102度31分、北纬25度05分 东经102度37分\n"
           "北纬24°54′56″、东经102°43′28″；北纬24°52′44″ 东经102°46′08″；北纬24°51′25″东经102°43′27″围成的范围；真高120米以内；"
           "时间：2025年12月16日20时至22时。")
    (r,) = zones(two)
    assert r.status == "review" and said(r, "separator changes ('、' then '；')"), r.reasons
    wrapped = two.replace("；北纬24°52′44″", "、北纬24°52′44″").replace("；北纬24°51′25″", "、北纬24°51′25″")
    (r,) = zones(wrapped)
    assert r.status == "ok" and len(r.geometry.points) == 6, r.reasons


def test_a_list_ended_by_a_clause_end_then_a_list_with_another_separator_is_review():
    """Seed 96: "c1、…、c5；\\n d1，d2，d3连线围成的区域" may be two boundaries."""
    text = ("北緯45°37′ 東經126°49′、北緯45°41′東經126°39′、北緯45°35′東經126°34′、北緯45°28′東經126°38′；\n"
            "北緯45度33分 東經126度44分，北緯45度34分 東經126度39分，北緯45度37分、東經126度42分連線圍成的區域；"
            "真高100米以下。管控時間：2025年9月25日00:00—2025年9月25日04:00。")
    (r,) = zones(text)
    assert r.status == "review" and said(r, "separator changes ('、' then '，')"), r.reasons


def test_a_distance_from_a_point_is_that_points_circle():
    """Seed 96: "距c點2900米以內" is a circle of 2.9 km around c, not a point without extent."""
    (r,) = zones("（六）距北緯46°01′，東經126°30′點2900米以內；真高100米以下。2025年9月25日00:00—2025年9月25日04:00")
    assert r.status == "ok" and isinstance(r.geometry, CircleGeometry) and r.geometry.radius_m == 2900.0, r.reasons
    assert r.geometry.center == pytest.approx((46 + 1 / 60, 126.5))


def test_a_venue_run_into_the_title_before_it_is_still_a_place():
    """Seed 96: "…管控措施五环体育中心区域；真高500米以下\\n以c为圆心…": the height is the venue's line's, which no zone
    was read from; the circle after it does not take it as its own."""
    (r,) = zones("国际航空航天博览会期间无人机管控措施五环体育中心区域；真高500米（含）以下\n以北纬30°47′ 东经114°28′为圆心，"
                 "半径1公里以内；管控时段：2023年11月8日10时至2023年11月8日24时。")
    assert r.status == "review" and said(r, "upper limit read beyond another place"), r.reasons


def test_a_camel_case_venue_is_a_place_and_a_heading_limit_is_every_areas():
    """Seed 97: "#1 period. over MetLife Stadium; #2 3.2NM circle at c": the period is item 1's (a venue named in
    camel case is a place all the same); the heading's limits and item 2's own radius are the circle's."""
    (r,) = zones("RESTRICTED AREA ACTIVATED.\nSFC TO 1000 FT AGL.\n#1 2305111000-2305111400. over MetLife Stadium; "
                 "#2 3.2NM circle at 474349N0080917E;  Violators will be prosecuted.")
    assert r.status == "review" and said(r, "start time read beyond another place"), r.reasons
    assert not any(said(r, f"{what} read beyond") for what in ("upper limit", "lower limit", "radius")), r.reasons
    assert r.geometry.radius_m == pytest.approx(3.2 * NM_TO_M)


def test_an_areas_own_window_inside_the_headings_period_is_review():
    """Seed 98: a period on the heading's own line speaks for every area; the window an area writes inside it may be
    its daily window or its own period, so the area's record names both."""
    text = ("Security zone established by the authorities.\n\nWEF March 2, 2023 at 1115 UTC TIL March 2, 2023 at 1715 UTC\n"
            "Area C - position 50º 04′ 05″N 7º 49′ 54″E RADIUS 2NM 2303021115 TO 2303021315.\n"
            "All areas 50 m AGL and below .  Confirm receipt.")
    (r,) = zones(text)
    assert r.status == "review" and said(r, "two periods near this zone"), r.reasons
    (r,) = zones(text.replace(" 2303021115 TO 2303021315", ""))
    assert r.status == "ok" and (r.start.hour, r.end.hour) == (11, 17), r.reasons


def test_a_window_inside_the_headings_items_b_and_c_is_review():
    """Seed 105: "B) x C) y" on the heading's line is every area's period; the last area's own window inside it may
    be a daily window or its period."""
    (r,) = zones("Fire-fighting operations in progress.\n\nB) 2609112305 C) 2609120705.\n- center 224124N1140749E RADIUS "
                 "1.0 nautical mile, 2609112305 TO 2609120105\n1500ft AGL and below.  Confirm receipt.")
    assert r.status == "review" and said(r, "'B) 2609112305 C) 2609120705'"), r.reasons


def test_items_b_and_c_in_prose_beside_a_ten_digit_period_are_two_periods():
    """Semantic fuzz seed 66 (generated row 2287 of seed 111, mix.en_mix): a ten-digit pair written after prose items
    B) and C) that end two hours later was read as the period, ``ok``; which is the zone's is unclear."""
    text = ("Ops update 0.3km ring around -27.32427,153.57051 B) August 31, 2023 at 0455 UTC C) August 31, 2023 at 0855 "
            "UTC.{p} Altitude: SFC - 18000 feet AGL.  Emergency services exempt.")
    (r,) = zones(text.format(p=" tel 848-469-5223 2308310455 TO 2308310655."))
    assert r.status == "review" and said(r, "two periods near this zone"), r.reasons
    (r,) = zones(text.format(p=""))
    assert r.status == "ok" and (r.start.hour, r.end.hour) == (4, 8)


def test_a_value_on_the_line_after_an_unfinished_last_item_may_be_its_own():
    """Seed 105: "* c2 / 2 NM)\\nceiling 1500 FT AMSL." may be the last item's own; after a finished item, a labelled
    line or one list of centres sharing its radius, the line speaks for every area (real: A0549/22, C1131/15)."""
    text = ("EFFECTIVE February 1, 2024 at 2300 UTC-February 2, 2024 at 0300 UTC.\n* WI 3450 M RADIUS OF 4918.96N "
            "00207.68E. * 49.16N/2.32E / 2 NM){}\nceiling 1500 FT AMSL.\n Thanks.")
    first, last = zones(text.format(""))
    assert first.status == "review" and said(first, "it may be the last area's own"), first.reasons
    for end in (".", ";"):
        assert [r.status for r in zones(text.format(end))] == ["ok", "ok"]
    labelled = zones(text.format("").replace("ceiling 1500", "VERTICAL LIMITS: SFC-1500"))
    assert [r.status for r in labelled] == ["ok", "ok"], [r.reasons for r in labelled]


def test_a_value_after_another_areas_place_on_its_line_is_not_silently_the_next_areas():
    """Seed 105 (Clover): the model gave area 2 the height written after area 1's boundary on area 1's line; the
    check runs on any engine's spans (a model's pointers), so area 2 is review whoever read it."""
    from airspace.core.contract import Span
    from airspace.parser.rules.areas import straddled_values

    text = ("以下各点连线范围内：北纬34°49′23″东经113°40′27″ 北纬34°46′17″ 东经113°46′31″ 北纬34°41′47″，东经113°48′27″连线围成的区域；"
            "真高150米（含）以下；\n范围：北纬34度41分，东经113度36分，北纬34度37分、东经113度36分，北纬34度36分东经113度30分依次连线范围内；")

    def span(sub: str, after: int = 0) -> Span:
        a = text.index(sub, after)
        return Span(a, a + len(sub), sub)

    one = {"polygon": span("北纬34°49′23″东经113°40′27″ 北纬34°46′17″ 东经113°46′31″ 北纬34°41′47″，东经113°48′27″")}
    two = {"polygon": span("北纬34度41分，东经113度36分，北纬34度37分、东经113度36分，北纬34度36分东经113度30分"),
           "upper": span("真高150米")}
    why = straddled_values(text, 0, len(text), [one, two])
    assert any("written after another area's place on its line" in x for x in why[1]), why
    # the same height taken by the area whose line it is on is that area's own
    one_own = {**one, "upper": two.pop("upper")}
    assert straddled_values(text, 0, len(text), [one_own, two]) == [[], []]


def test_a_hash_labels_number_is_not_a_thousands_group():
    """Seed 103: "#3 100m AGL" is item 3's 100 m, not 3,100 m; a bare "3 100m AGL" is still 3,100 m."""
    text = "{}100m AGL to FL125; WEF 2026-03-21 18:10Z TIL 2026-03-27T18:10Z\ncircle r 20KM CENTRE 161347S 0474349W."
    for label, metres in (("#3 ", 100), ("# 3 ", 100), ("3 ", 3100)):
        (r,) = zones(text.format(label))
        assert r.lower.m == metres, (label, r.lower)
