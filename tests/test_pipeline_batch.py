"""The spine on real messages: every message -> records, truth fields right, validation reasons, cross-check."""

import inspect
import json

import pytest

from airspace.core.answer import FIELD_SEP, AnswerFormatError, format_answer, ground, parse_answer
from airspace.core.contract import Capabilities, EngineError, ExtractStats
from airspace.core.records import Limit, ZoneRecord
from airspace.eval.compare import gold_from_dev_truth, record_diffs
from airspace.parser.header import parse_header
from airspace.parser.rules import RulesExtractor, rules_zones
from airspace.pipeline.batch import process_batch
from airspace.pipeline.engines import DEFAULT_ENGINE, ENGINES, LOADERS, EngineUnavailable, get_extractor
from airspace.pipeline.split import Message, read_jsonl
from airspace.pipeline.validate import haversine_m, validate


@pytest.fixture(scope="module")
def dev_records(dev_rows):
    text = "\n".join(json.dumps({"id": r["id"], "text": r["text"]}) for r in dev_rows)
    recs, stats = process_batch(read_jsonl(text), "rules")
    return recs


def _of(recs, i):
    return [r for r in recs if r.message == i]


def test_every_dev_message_comes_back(dev_rows, dev_records):
    assert {r.message for r in dev_records} == set(range(len(dev_rows)))
    assert all(r.status in ("ok", "review") for r in dev_records)
    for r in dev_records:
        assert r.status == "ok" or r.reasons, r
        for sp in r.spans.values():
            assert r.text[sp.start : sp.end] == sp.text


def test_truth_fields_are_right(dev_rows, dev_records):
    checked = 0
    for i, row in enumerate(dev_rows):
        if "truth" not in row:
            continue
        recs = _of(dev_records, i)
        assert len(recs) == 1
        assert record_diffs(recs[0], gold_from_dev_truth(row["truth"])) == [], row["id"]
        checked += 1
    assert checked == 6


def test_truth_messages_with_coordinates_are_ok(dev_rows, dev_records):
    for i, row in enumerate(dev_rows):
        if "truth" in row and row["truth"].get("center") or row.get("truth", {}).get("polygon"):
            assert _of(dev_records, i)[0].status == "ok", (row["id"], _of(dev_records, i)[0].reasons)


def test_composites(dev_by_id, dev_rows, dev_records):
    idx = {r["id"]: i for i, r in enumerate(dev_rows)}
    six = _of(dev_records, idx["pynotam-526438"])
    assert len(six) == 6 and all(r.geometry.type == "circle" and r.geometry.radius_m == 1000 for r in six)
    assert [r.upper.ft for r in six] == [1600, 1500, 1500, 1500, 1800, 1800]
    assert all(r.upper.ref == "AMSL" and r.lower.ref == "GND" for r in six)
    assert [r.zone for r in six] == list(range(6)) and {r.id for r in six} == {"C1761/15"}
    four = _of(dev_records, idx["pynotam-508104"])
    assert len(four) == 4 and all(abs(r.geometry.radius_m - 0.3 * 1852) < 1e-6 for r in four)


def test_faa_and_chinese_are_right_or_review_with_reason(dev_rows, dev_records):
    for i, row in enumerate(dev_rows):
        if row["kind"] in ("faa", "chinese"):
            for r in _of(dev_records, i):
                if "truth" in row:
                    assert record_diffs(r, gold_from_dev_truth(row["truth"])) == []
                assert r.status == "ok" or r.reasons
    obst = _of(dev_records, [i for i, r in enumerate(dev_rows) if r["id"] == "squawk-ATL-03-437-OBST"][0])[0]
    assert obst.status == "review" and any("without lateral extent" in x for x in obst.reasons)
    assert obst.upper.ft == 155 and obst.upper.ref == "AGL"


def test_header_fields_on_records(dev_rows, dev_records):
    i = [k for k, r in enumerate(dev_rows) if r["id"] == "joey-F1096-25"][0]
    r = _of(dev_records, i)[0]
    assert (r.id, r.notam_type, r.ref_id) == ("F1096/25", "R", "F1076/25")


def test_fallback_geometries_are_approximate_and_reviewed(dev_rows, dev_records):
    by = {r["id"]: _of(dev_records, i)[0] for i, r in enumerate(dev_rows)}
    q = by["whisper-UHHH-Y2776-26"]
    assert q.geometry.approximate and q.status == "review" and any("Q-line" in x for x in q.reasons)
    assert q.geometry.radius_m == 21 * 1852
    a = by["whisper-SPIM-A0857-26"]  # birds at an aerodrome (Q-code QMRHX): a notice, not a zone
    assert a.geometry is None and a.status == "review" and a.start is not None
    recs, _ = process_batch("A0857/26 NOTAMN  Q) SPIM/QWULW/IV/BO/A/000/010/  A) SPJC B) 2603092200 C) 2605020000  "
                            "E) UAS ACTIVITY IN THE VICINITY OF AD.  F) SFC G) 400FT AGL", "rules")
    a = recs[0]  # A) SPJC only -> Lima airport, approximate
    assert a.geometry.type == "circle" and a.geometry.approximate and a.status == "review"
    assert abs(a.geometry.center[0] - -12.02) < 0.05 and any("SPJC" in x for x in a.reasons)
    n = by["cn-dalian-2024-09-10"]
    assert n.geometry.type == "named" and n.geometry.radius_m == 2000 and n.status == "review"
    est = by["avwx-PHNL-undefined-qcode"]  # a procedure notice: no zone, but its times are kept
    assert est.geometry is None and est.end_estimated and est.status == "review"


def test_named_points_in_polygon_go_to_review_naming_them(dev_rows, dev_records):
    i = [k for k, r in enumerate(dev_rows) if r["id"] == "joey-A2400-21"][0]
    r = _of(dev_records, i)[0]
    assert r.status == "review" and r.geometry is None
    assert any("GURIN" in x for x in r.reasons)


def test_cancellation_and_unreadable_messages():
    recs, _ = process_batch(
        "A0006/26 NOTAMC A0005/26\nQ) LFFF/QRDXX/IV/BO/W/000/100/4850N00220E030\nA) LFFF B) 2603011000\n"
        "E) REF NOTAM CANCELLED\n\nsome words that are not a message\n\n" + "\x00\x01\x02" * 50, "rules"
    )
    assert [r.message for r in recs] == [0, 1, 2]
    assert (recs[0].status, recs[0].notam_type, recs[0].ref_id, recs[0].geometry) == ("ok", "C", "A0005/26", None)
    assert recs[1].status == "error" and "not understood" in recs[1].reasons[0]
    assert recs[2].status == "error" and "binary" in recs[2].reasons[0]


def test_message_errors_are_kept_with_their_index():
    msgs = [Message(0, "A1/26 NOTAMN"), Message(7, "x", error="line 8: not valid JSON")]
    recs, _ = process_batch(msgs, "rules")
    assert recs[-1].message == 7 and recs[-1].status == "error" and "JSON" in recs[-1].reasons[0]


# ------------------------------------------------------------------------------------------ validation
def _rec(**kw):
    base = dict(message=0, text="x", geometry={"type": "circle", "center": (10.0, 10.0), "radius_m": 1000.0},
                start="2026-01-01T00:00:00Z", end="2026-01-02T00:00:00Z")
    base.update(kw)
    return ZoneRecord(**base)


def test_validation_reasons():
    r = validate(_rec(lower=Limit(ref="AMSL", ft=2000, m=609.6, raw="2000FT AMSL"),
                      upper=Limit(ref="FL", ft=1500, m=457.2, raw="FL015")), None)
    assert r.status == "review" and any("not below" in x for x in r.reasons)
    r = validate(_rec(lower=Limit(ref="AGL", ft=300, m=91.44, raw="100M AGL"),
                      upper=Limit(ref="FL", ft=33000, m=10058.4, raw="FL330")), None)
    assert r.status == "ok" and any(x.startswith("note:") for x in r.reasons)
    r = validate(_rec(start="2026-01-03T00:00:00Z"), None)
    assert r.status == "review" and any("not before end" in x for x in r.reasons)
    r = validate(_rec(geometry={"type": "circle", "center": (95.0, 10.0), "radius_m": 10.0}), None)
    assert any("out of range" in x for x in r.reasons)
    r = validate(_rec(spans={"center": {"start": 0, "end": 3, "text": "abc"}}), None)
    assert any("not where its span says" in x for x in r.reasons)
    r = validate(_rec(end=None), None)
    assert "no end time found" in r.reasons


def test_q_line_coarse_check_flags_far_geometry():
    text = ("A0001/26 NOTAMN\nQ) EGTT/QRDCA/IV/BO/W/000/050/5130N00007W005\nA) EGTT B) 2603010800 C) 2603011700\n"
            "E) CIRCLE RADIUS 2NM CENTRED ON 523000N 0000700W.\nF) SFC G) 2000FT AMSL")
    recs, _ = process_batch(text, "rules")
    assert recs[0].status == "review" and any("outside its 5 NM circle" in x for x in recs[0].reasons)
    near = text.replace("523000N", "513100N")
    recs, _ = process_batch(near, "rules")
    assert recs[0].status == "ok", recs[0].reasons


# ------------------------------------------------------------------------------------------ engines
class _Engine:
    """A stand-in model engine (protocol-conforming test input): rules answers, optionally altered."""

    name = "test-engine"

    def __init__(self, alter=None, fail=False):
        self.alter, self.fail = alter, fail

    def extract(self, messages):
        if self.fail:
            raise RuntimeError("device lost")
        answers = []
        for m in messages:
            zones = rules_zones(m)
            answer = self.alter(zones) if self.alter else format_answer(zones)
            try:
                answers.append(ground(m, parse_answer(answer)))
            except AnswerFormatError:
                answers.append(answer)  # handed over as it is: the pipeline must refuse it
        return answers, ExtractStats(engine=self.name, messages=len(messages))


def test_model_engine_agreeing_with_rules_is_ok(dev_by_id):
    recs, _ = process_batch(dev_by_id["pynotam-readme-A1912-15"]["text"], _Engine())
    assert recs[0].status == "ok" and recs[0].engine == "test-engine"


def _wrong_radius(zones):
    zones[0]["radius"] = "RADIUS"  # a verbatim span, but not a distance -> no radius
    zones[0]["upper"] = "GND"
    return format_answer(zones)


def test_model_engine_disagreeing_with_rules_goes_to_review(dev_by_id):
    recs, _ = process_batch(dev_by_id["pynotam-readme-A1912-15"]["text"], _Engine(_wrong_radius))
    assert recs[0].status == "review"
    assert "engine and rules disagree on upper" in recs[0].reasons
    recs, _ = process_batch(dev_by_id["pynotam-readme-A1912-15"]["text"], _Engine(_wrong_radius), cross_check=False)
    assert "engine and rules disagree on upper" not in recs[0].reasons


def test_engine_failures_become_error_records(dev_rows):
    texts = "\n\n".join(r["text"] for r in dev_rows[:3])
    recs, _ = process_batch(texts, _Engine(fail=True))
    assert len(recs) == 3 and all(r.status == "error" and "device lost" in r.reasons[0] for r in recs)
    recs, _ = process_batch(texts, _Engine(alter=lambda z: "center" + FIELD_SEP + "junk"))
    assert len(recs) == 3 and all(r.status == "error" and "malformed" in r.reasons[0] for r in recs)


def test_get_extractor():
    assert isinstance(get_extractor("rules"), RulesExtractor)
    with pytest.raises(ValueError, match="unknown engine"):
        get_extractor("gpt")
    with pytest.raises(EngineUnavailable, match="clover"):
        get_extractor("clover", "/nonexistent/checkpoint")


def test_the_registry_is_one_table_and_the_pipeline_default_is_the_product_default():
    assert ENGINES == tuple(LOADERS) and DEFAULT_ENGINE in LOADERS
    assert inspect.signature(process_batch).parameters["engine"].default == DEFAULT_ENGINE
    assert get_extractor("rules").capabilities == Capabilities(per_message=True, cross_checked=False,
                                                               says_not_understood=True, model=False)


class _Stated(_Engine):
    """A stand-in engine that reads as the rules reader does, states its capabilities and counts its calls."""

    def __init__(self, capabilities: Capabilities, alter=None, refuse: str | None = None):
        super().__init__(alter)
        self.capabilities, self.refuse, self.calls = capabilities, refuse, []

    def extract(self, messages):
        self.calls.append(len(messages))
        answers, stats = super().extract(messages)
        return [EngineError(f"this engine does not read {self.refuse}") if self.refuse and self.refuse in m else a
                for m, a in zip(messages, answers)], stats


def test_an_engine_that_reads_one_message_at_a_time_gets_each_message_alone(dev_rows):
    msgs = [Message(i, r["text"]) for i, r in enumerate(dev_rows[:3])]
    alone, batched = _Stated(Capabilities(per_message=True)), _Stated(Capabilities())
    assert process_batch(msgs, alone)[0] == process_batch(msgs, batched)[0]
    assert alone.calls == [1, 1, 1] and batched.calls == [3]


def test_only_an_engine_stated_as_cross_checked_is_checked_against_the_rules_reading(dev_by_id):
    text = dev_by_id["pynotam-readme-A1912-15"]["text"]
    (checked,) = process_batch(text, _Stated(Capabilities(), _wrong_radius))[0]
    (unchecked,) = process_batch(text, _Stated(Capabilities(cross_checked=False), _wrong_radius))[0]
    assert checked.status == "review" and "engine and rules disagree on upper" in checked.reasons
    assert not any("disagree" in r for r in unchecked.reasons)


def test_words_read_as_no_zone_are_not_understood_only_by_an_engine_that_says_so():
    text = "some words that are not a message"
    (says,) = process_batch(text, _Stated(Capabilities(says_not_understood=True)))[0]
    (quiet,) = process_batch(text, _Stated(Capabilities()))[0]
    assert says.status == "error" and says.reasons[0].startswith("not understood")
    assert quiet.status == "review" and quiet.reasons[0].startswith("no zone found")


@pytest.mark.parametrize("per_message", [True, False])
def test_a_message_an_engine_does_not_read_is_an_error_record_with_the_engines_reason(dev_rows, per_message):
    msgs = [Message(i, r["text"]) for i, r in enumerate(dev_rows[:3])]
    refused = msgs[1].text[:20]
    recs, _ = process_batch(msgs, _Stated(Capabilities(per_message=per_message), refuse=refused))
    by = {r.message: r for r in recs}
    assert by[1].status == "error" and by[1].reasons == [f"this engine does not read {refused}"]
    assert by[0].status != "error" and by[2].status != "error"


def test_haversine():
    assert abs(haversine_m((0, 0), (0, 1)) - 111195) < 5
    assert parse_header("").kind == "other"


def test_faa_aerodrome_circle_and_zoneless_message_keep_their_times():
    recs, _ = process_batch(
        "!ATL 03/213 ATL AIRSPACE CONTROLLED BURN WI AN AREA DEFINED AS .5NM RADIUS OF ATL SFC-2000FT AGL "
        "2603121638-2611191700\n!HNL 05/347 HNL RWY 04R/22L CHANGED TO 9002FT X 150FT. LDA 8937FT. 2505241947-PERM", "rules"
    )
    atl, hnl = recs
    assert atl.geometry.type == "circle" and atl.geometry.approximate and atl.geometry.radius_m == 926
    assert abs(atl.geometry.center[0] - 33.6367) < 0.01 and atl.status == "review"
    assert any("aerodrome identifier ATL" in r for r in atl.reasons)
    assert hnl.geometry is None and hnl.status == "review" and hnl.permanent
    assert hnl.start.year == 2025 and any("no zone found" in r for r in hnl.reasons)


def test_q_line_review_names_the_area(dev_rows, dev_records):
    i = [k for k, r in enumerate(dev_rows) if r["id"] == "whisper-UHHH-Y2776-26"][0]
    assert any("UHD411" in r for r in _of(dev_records, i)[0].reasons)


def test_chinese_notice_naming_districts_is_review_with_its_times():
    recs, _ = process_batch("兰州市公安局关于加强管控的通告\n二、管控时间和区域\n"
                            "   2024年5月25日18时至2024年5月26日18时，兰州市城关区、七里河区、西固区、安宁区。", "rules")
    assert len(recs) == 1 and recs[0].status == "review" and recs[0].geometry.type == "named"
    assert recs[0].geometry.name == "兰州市城关区、七里河区、西固区、安宁区"  # never geocoded
    assert recs[0].start.isoformat() == "2024-05-25T10:00:00+00:00"  # Beijing time -> UTC


def test_engine_value_not_in_the_message_is_flagged(dev_by_id):
    def invented(zones):
        zones[0]["radius"] = "7NM"  # not a substring of the message
        return format_answer(zones)

    text = dev_by_id["pynotam-readme-A1912-15"]["text"]
    recs, _ = process_batch(text, _Engine(invented))
    (rules,) = process_batch(text, "rules")[0]
    # the rules reader's reading is shown, saying what the engine read and that its value is not the message's
    assert recs[0].status == "review" and recs[0].engine == "rules" and recs[0].geometry == rules.geometry
    assert "the engine's reading: radius value '7NM' is not in the message" in recs[0].reasons
    assert "engine and rules disagree on radius" in recs[0].reasons
    (alone,) = process_batch(text, _Engine(invented), cross_check=False)[0]
    assert alone.status == "review" and "radius value '7NM' is not in the message" in alone.reasons


def test_an_engine_span_that_cuts_a_number_is_flagged():
    """A span copied from inside a number reads as a value — ``5NM`` out of ``2.5NM``, ``500FT`` out of ``1500FT`` —
    but not the message's: the record says so instead of drawing a zone twice the size, even with no rules reading
    to disagree with; the whole numbers are fine."""
    text = ("!BOS 01/502 BOS AIRSPACE UAS WI AN AREA DEFINED AS 2.5NM RADIUS OF 421722N0712148W SFC-1500FT AGL "
            "2601190001-2607312359")

    def cut(zones):
        zones[0]["radius"], zones[0]["upper"] = "5NM", "500FT AGL"
        return format_answer(zones)

    whole, _ = process_batch(text, _Engine(), cross_check=False)
    assert whole[0].status == "ok" and not any("cuts the number" in r for r in whole[0].reasons)
    recs, _ = process_batch(text, _Engine(cut), cross_check=False)
    assert recs[0].status == "review" and recs[0].geometry.radius_m == 5 * 1852
    assert "radius value '5NM' cuts the number '2.5' of the message" in recs[0].reasons
    assert "upper value '500FT AGL' cuts the number '1500' of the message" in recs[0].reasons


def test_cut_number_sees_both_ends_and_keeps_whole_numbers_whole():
    from airspace.parser.fieldcheck import cut_number

    t = "0.1 NM RADIUS 2233N11403E001 1,500FT 2611250000-2612052359"
    at = lambda v: (t.index(v), t.index(v) + len(v))  # noqa: E731
    assert cut_number(t, *at("1 NM")) == "0.1"
    assert cut_number(t, *at("2233N1140")) == "11403" and cut_number(t, *at("3N11403E")) == "2233"
    assert cut_number(t, *at("500FT")) == "1,500"
    assert cut_number(t, *at("261125")) == "2611250000"
    for v in ("0.1 NM", "2233N11403E", "2233N11403E001", "1,500FT", "2611250000-2612052359", "NM RADIUS"):
        assert cut_number(t, *at(v)) is None, v


# ---- robustness on unseen formats (real published FDC/TFR texts) ----
_FDC_CHAIN = (
    "!FDC 1/4530 ZJX FL..AIRSPACE CAPE CANAVERAL, FL..TEMPORARY FLIGHT RESTRICTION. AIRCRAFT OPERATIONS ARE "
    "PROHIBITED WITHIN AN AREA DEFINED AS 285116N0804219W (OMN141034.4) TO 290730N0803000W (OMN108033.9) THEN "
    "CLOCKWISE ON A 30 NM ARC CENTERED ON 283703N0803647W (OMN147048.7) TO 281330N0801600W (OMN145078.4) TO "
    "282501N0803029W (OMN149061.9) TO 284910N0805044W (OMN154032.2) TO THE POINT OF ORIGIN SFC-FL180 EFFECTIVE "
    "2104071500 UTC UNTIL 2104071724 UTC. 2104071500-2104071724"
)


def test_fdc_chain_with_navaid_fix_references_is_one_polygon():
    recs, _ = process_batch([Message(0, _FDC_CHAIN)], "rules")
    assert len(recs) == 1
    r = recs[0]
    assert r.status == "ok", r.reasons
    assert r.geometry.type == "polygon" and len(r.geometry.points) > 10  # the arc is densified
    assert r.id == "FDC 1/4530" and r.upper.ref == "FL" and r.upper.ft == 18000


def test_counterclockwise_full_arc_to_point_of_origin_is_one_polygon():
    text = ("WI AN AREA DEFINED AS 301918N0812606W THEN COUNTERCLOCKWISE ON A 4.2 NM ARC CENTERED ON "
            "302329N0812528W (CRG058005) TO THE POINT OF ORIGIN SFC-2500FT")
    recs, _ = process_batch([Message(0, text)], "rules")
    assert len(recs) == 1 and recs[0].geometry.type == "polygon"


def test_fdc_without_bang_effective_until_and_daily_schedule():
    text = ("FDC 4/3473 ZAB PART 1 OF 2 TX..AIRSPACE VAN HORN, TX..TEMPORARY\r\n FLIGHT\r\nRESTRICTIONS. ALL ACFT \r\n"
            "FLT OPS ARE PROHIBITED: WI AN AREA DEFINED AS 305920N1044129W \r\n(HUP122049.4) TO 304329N1045617W "
            "(HUP144055.3) TO 301152N1043828W \r\n(MRF250036.2) TO 295558N1043739W (MRF227041.3) TO THE POINT OF \r\n"
            "ORIGIN 10000FT MSL-13000FT MSL  \r\nEFFECTIVE 2402140200 UTC (2000 LOCAL 02/13/24) UNTIL 2402201400 UTC \r\n"
            "(0800 LOCAL 02/20/24) DLY 0200-1400 (2000-0800 LOCAL).  \r\nEND PART 1 OF 2")
    recs, _ = process_batch([Message(0, text)], "rules")
    assert len(recs) == 1
    r = recs[0]
    assert r.id == "FDC 4/3473" and r.geometry.type == "polygon" and len(r.geometry.points) == 4
    assert (r.start.isoformat(), r.end.isoformat()) == ("2024-02-14T02:00:00+00:00", "2024-02-20T14:00:00+00:00")
    assert r.schedule == "DLY 0200-1400"
    assert len(r.windows) == 7 and all(w.start.hour == 2 and w.end.hour == 14 for w in r.windows)


def test_tfr_page_areas_keep_their_own_dates_and_altitude():
    areas = ""
    for name, lat, rad, alt, s, e in (("A", "42º57'54\"N", 30, "and including", "1610", "1850"),
                                      ("B", "42º52'51\"N", 10, "but not including", "1610", "1715")):
        areas += (f"Area {name}\nAirspace Definition:\nCenter: 12.6 nautical miles from GRAND RAPIDS VOR/DME(GRR) "
                  f"on the 332 radial (Latitude: {lat}, Longitude: 85º39'00\"W)\nRadius: {rad} nautical miles\n"
                  f"Altitude: From the surface up to {alt} FL(180)\nEffective Date(s):\n"
                  f"From April 20, 2007 at {s} UTC\nTo April 20, 2007 at {e} UTC\n")
    text = ("Sample XML Data Packet NOTAM Number : FDC 7/8363\nIssue Date : April 16, 2007 at 1901 UTC\n"
            "Beginning Date and Time : April 20, 2007 at 1610 UTC\nEnding Date and Time : April 20, 2007 at 1850 UTC\n"
            "Affected Area(s) Top\n" + areas)
    recs, _ = process_batch([Message(0, text)], "rules")
    assert [r.id for r in recs] == ["FDC 7/8363"] * 2
    assert [r.end.strftime("%H%M") for r in recs] == ["1850", "1715"]
    assert all(r.upper is not None and r.upper.ref == "FL" and r.upper.ft == 18000 for r in recs)


def _icao(e, fg="F) SFC G) 3000FT AMSL", q="Q) EGTT/QRDCA/IV/BO/W/000/030/5130N00010W005"):
    return f"A1234/26 NOTAMN\n{q}\nA) EGTT B) 2604010800 C) 2604011800\nE) {e}\n{fg}"


def test_exclusion_area_is_not_a_zone_and_is_cut_out_or_flagged():
    # an inner circle around the same centre: the zone is the ring between the radii
    recs, _ = process_batch([Message(0, _icao("DANGER AREA WI 2NM RADIUS OF 513000N 0001000W EXC AREA WI 1NM "
                                              "RADIUS OF 513000N 0001000W"))], "rules")
    assert len(recs) == 1 and recs[0].geometry.radius_m == 2 * 1852 and recs[0].geometry.inner_radius_m == 1852
    assert recs[0].status == "ok" and recs[0].spans["exclude"].text == "EXC AREA WI 1NM"
    # an excluded circle elsewhere is not cut out: review, saying so
    recs, _ = process_batch([Message(0, _icao("DANGER AREA WI 2NM RADIUS OF 513000N 0001000W EXC AREA WI 1NM "
                                              "RADIUS OF 513100N 0001000W"))], "rules")
    assert len(recs) == 1 and recs[0].geometry.radius_m == 2 * 1852 and recs[0].geometry.inner_radius_m is None
    assert recs[0].status == "review" and any("EXC" in r for r in recs[0].reasons)


def test_missing_upper_limit_is_review_and_unlimited_word_is_read():
    recs, _ = process_batch([Message(0, _icao("DANGER AREA WI 2NM RADIUS OF 513000N 0001000W", fg="", q=""))], "rules")
    assert recs[0].status == "review" and "no upper limit stated" in recs[0].reasons
    # no F)/G) but a Q-line: its upper field (FL030) is the only statement, rounded outwards by item Q: review
    recs, _ = process_batch([Message(0, _icao("DANGER AREA WI 2NM RADIUS OF 513000N 0001000W", fg=""))], "rules")
    assert (recs[0].upper.ref, recs[0].upper.ft, recs[0].status) == ("FL", 3000.0, "review")
    assert any(r.startswith("upper limit only from the Q-line (FL030)") for r in recs[0].reasons)
    recs, _ = process_batch([Message(0, _icao("DANGER AREA WI 2NM RADIUS OF 513000N 0001000W SFC TO UNLIMITED", fg=""))], "rules")
    assert recs[0].upper.ref == "UNL"


def test_qline_radius_999_is_not_a_circle():
    text = ("A0224/26 NOTAMN  Q) OOMM/QRTCA/IV/NBO/W/000/999/2105N05736E999  A) OOMM B) 2604141700 C) 2607120230  "
            "E) TEMPORARY RESTRICTED AREA ACTIVE OVER MUSCAT FIR  F) SFC G) UNL")
    recs, _ = process_batch([Message(0, text)], "rules")
    assert all(r.geometry is None or r.geometry.type != "circle" or r.geometry.radius_m < 999 * 1852 for r in recs)
    assert all(r.status == "review" for r in recs)


def test_route_coordinates_are_not_zones_and_duplicates_merge():
    text = ("A0134/26 NOTAMR A0130/26  Q) OPXX/QARLC/IV/NBO/E/000/999/2946N06816E100  A) OPKR OPLR  B) 2603030400 "
            "C) 2603311000  E) ATLN ATS RTE:  1) QT BIXIR DCT KADLA DCT DADLO DCT      3033N06939E DCT UPVAL  "
            "3) LUBNA DCT 2925N06959E DCT HILAL G202 ZB  F) GND G) UNL")
    recs, _ = process_batch([Message(0, text)], "rules")
    assert all(r.geometry is None or r.geometry.type != "circle" or r.geometry.radius_m > 0 for r in recs)
    text = ("(A0816/15 NOTAMN\nQ) LLLL/QAPCH/I/NBO/E/000/999/3229N03410E050\nA) LLLL B) 1506172101 C) PERM\n"
            "E) COMPULSORY REP FOR ATS RTES CHG\nSUVAS, NEW PSN N321010E0335933, DESIGNATOR SUVAS,\nRDL278 46NM FM BGN.)")
    recs, _ = process_batch([Message(0, text)], "rules")
    assert all(r.geometry is None or r.geometry.radius_m > 0 for r in recs)
    zones = rules_zones(_icao("OBST CRANE 513000N 0001000W 300FT AGL. OBST CRANE 513000N 0001000W 300FT AGL."))
    assert len(zones) == 1


def test_malformed_polygon_vertex_keeps_one_polygon_span_and_names_the_token():
    text = ("B0573/26 NOTAMN  Q) MMFR/QRDCA/IV/BO/W/000/999/  A) MMFO  B) 2603290906  C) 2604040844  "
            "E) DANGEROUS AREA FOR REENTRY: LATERAL LIMIT AREA FORMED BY THE UNION OF THE FLW POINTS:"
            "           1006N 12000W     0856N 11825W     0645N 112000W     1006N 12000W     FIR MAZATLAN  F) SFC  G) UNL")
    zones = rules_zones(text)
    assert len(zones) == 1 and "0645N 112000W" in zones[0]["polygon"]
    recs, _ = process_batch([Message(0, text)], "rules")
    assert recs[0].status == "review" and any("112000W" in r for r in recs[0].reasons)


def test_either_side_of_line_corridor_is_one_buffered_polygon():
    text = _icao("TEMPO RESTRICTED AREA ACT AS FLW: 1NM EITHER SIDE OF LINE 380836N1283554E-381033N1283630E")
    zones = rules_zones(text)
    assert len(zones) == 1 and zones[0]["polygon"].startswith("1NM EITHER SIDE OF LINE")
    recs, _ = process_batch([Message(0, text)], "rules")
    r = recs[0]
    assert r.geometry.type == "polygon" and len(r.geometry.points) == 4  # flat ends at both line points
    a, b = (38 + 8 / 60 + 36 / 3600, 128 + 35 / 60 + 54 / 3600), (38 + 10 / 60 + 33 / 3600, 128 + 36 / 60 + 30 / 3600)
    for p in r.geometry.points:
        assert abs(min(haversine_m(p, a), haversine_m(p, b)) - 1852) < 10


def test_prose_tfr_hyphenated_radius_around_a_named_place_wrapping_lines():
    text = ("Flight restrictions Matthews, Virginia, effective immediately until 9610211200. Pursuant to 14 CFR\n"
            "Section 91.137(a)(1) temporary flight restrictions are in\neffect. Only relief aircraft operations are "
            "authorized in the airspace at and below\n5,000 feet MSL within a 2\u2212nautical\u2212mile radius of Laser\n"
            "AFB, Matthews, Virginia.")
    recs, _ = process_batch([Message(0, text)], "rules")
    r = recs[0]
    assert r.status == "review" and r.geometry.type == "named"
    assert (r.geometry.name, r.geometry.radius_m) == ("Laser AFB", 2 * 1852)
    assert r.upper.ref == "AMSL" and r.upper.ft == 5000


def test_chinese_height_pair_shares_its_reference_word():
    text = ("关于2024年某市马拉松期间临时禁飞的通告\n2024年11月3日6时至14时，在马拉松赛道沿线两侧500米范围内，"
            "禁止无人机飞行，真高0米至120米。")
    recs, _ = process_batch([Message(0, text)], "rules")
    r = recs[0]
    assert (r.lower.ref, r.upper.ref, r.upper.m) == ("AGL", "AGL", 120.0)
    assert r.geometry.type == "named" and r.geometry.radius_m == 500
    assert (r.start.isoformat(), r.end.isoformat()) == ("2024-11-02T22:00:00+00:00", "2024-11-03T06:00:00+00:00")


def test_fragment_whose_coordinates_are_not_a_zone_is_review_not_error():
    recs, _ = process_batch([Message(0, "E)SOT VORTAC U/S. USE 370500N1270100E INSTEAD OF SOT")], "rules")
    assert len(recs) == 1 and recs[0].status == "review" and recs[0].geometry is None
    assert "navigation points" in recs[0].reasons[-1]


def test_malformed_vertex_keeps_the_readable_ring_when_it_is_still_an_area():
    text = _icao("DANGER AREA: 513000N 0001000W - 514000N 0001000W - 5140N 000000W - 514000N 0000000W - "
                 "513000N 0000000W")
    recs, _ = process_batch([Message(0, text)], "rules")
    r = recs[0]
    assert r.status == "review" and r.geometry is not None and r.geometry.type == "polygon"
    assert len(r.geometry.points) == 4 and any("5140N 000000W" in x for x in r.reasons)


class _CrashingEngine:
    """An engine that fails on every call (as a model engine does when its checkpoint is broken)."""

    name = "crashing"

    def extract(self, messages):
        raise RuntimeError("weights are corrupt")


class _GarbageEngine:
    """An engine whose answers are not in the answer format."""

    name = "garbage"

    def extract(self, messages):
        from airspace.core.contract import ExtractStats

        return ["center" for _ in messages], ExtractStats(engine=self.name, messages=len(messages))


def test_a_failing_engine_gives_error_records_and_leaves_the_batch_reusable(dev_rows):
    from airspace.pipeline.batch import process_batch
    from airspace.pipeline.split import Message

    messages = [Message(i, row["text"]) for i, row in enumerate(dev_rows[:4])]
    for engine in (_CrashingEngine(), _GarbageEngine()):
        records, _ = process_batch(messages, engine, cross_check=False)
        assert [r.message for r in records] == [0, 1, 2, 3]
        assert all(r.status == "error" and r.reasons for r in records)
    # the caller's messages were not marked: the same list still parses with the rules engine
    assert all(m.error is None for m in messages)
    records, _ = process_batch(messages, "rules", cross_check=False)
    assert records[0].status == "ok" and records[0].geometry.type == "circle"


class _FragileEngine(_Engine):
    """A stand-in model engine that fails on a whole batch holding one particular message (as a tokenizer did on a
    lone surrogate) and reads every other message."""

    name = "fragile"

    def extract(self, messages):
        if any("POISON" in m for m in messages):
            raise RuntimeError("cannot encode this text")
        return super().extract(messages)


def test_an_engine_failing_on_one_message_costs_only_that_message(dev_rows):
    texts = [dev_rows[0]["text"], "POISON " + dev_rows[0]["text"], dev_rows[0]["text"]]
    recs, _ = process_batch([Message(index=i, text=t) for i, t in enumerate(texts)], _FragileEngine())
    assert [r.message for r in recs] == [0, 1, 2]
    assert [r.status for r in recs] == ["ok", "error", "ok"]
    assert "fragile engine failed on this message (cannot encode this text)" in recs[1].reasons[0]


def test_areas_headed_by_their_own_dates_are_review_not_the_whole_period():
    # the form of space-debris NOTAMs that list one area per day under D) (made up here: the form, not a row)
    text = ("A1234/26 NOTAMN  Q) SCIZ/QRDCA/IV/BO/W/000/999/5000S11800W715  A) SCIZ B) 2604210100 C) 2604220400  "
            "D) 21 APR 0100-0300, 22 APR 0200-0400  E) DANGER AREA BOUNDED BY:  APR 21  474700S 1310000W  480200S "
            "1300100W  503800S 1134600W  474700S 1310000W  APR 22  503000S 1310000W  504600S 1223900W  490400S "
            "1070900W  503000S 1310000W  F) SFC G) UNL")
    recs, _ = process_batch([Message(0, text)], "rules")
    assert len(recs) == 2 and all(r.status == "review" for r in recs)
    assert [next(x for x in r.reasons if x.startswith("the area is headed by the date")) for r in recs] == [
        f"the area is headed by the date '{d}': only its own day of the D) item applies to it; the record keeps the "
        "whole B)-C) period and every D) window" for d in ("APR 21", "APR 22")]


_AREA_NOTICE = ("A0412/26 NOTAMN Q) LFBB/QRDCA/IV/BO/W/000/095/4512N00130E012 A) LFBB B) 2605040800 "
                "C) 2605041600 E) TSA 41 ACT. F) SFC G) FL095")


def _unlocated(zones):
    """An engine that read the limits and times but no location (as Clover did on area notices without
    coordinates)."""
    return format_answer([{k: v for k, v in z.items() if k not in ("center", "radius", "name")} for z in zones])


def test_a_zone_read_without_location_gets_the_q_line_circle_flagged_approximate():
    recs, _ = process_batch(_AREA_NOTICE, _Engine(_unlocated), cross_check=False)
    (rec,) = recs
    assert rec.geometry.type == "circle" and rec.geometry.approximate
    assert rec.geometry.radius_m == pytest.approx(12 * 1852)
    assert rec.geometry.center == pytest.approx((45.2, 1.5))
    assert rec.spans["center"].text == "4512N00130E" and rec.upper.raw == "FL095"
    assert rec.status == "review" and any("only the coarse Q-line circle" in r for r in rec.reasons)
    rules, _ = process_batch(_AREA_NOTICE, "rules", cross_check=False)
    assert rec.geometry == rules[0].geometry  # located as the rules reader locates it


def test_a_whole_fir_notice_places_an_unlocated_zone_on_the_firs_of_item_a_and_one_volume_once():
    # a 999 NM Q-line radius is "the whole FIR", no circle: the header's place is then item A), each FIR of it
    # (archive val P0806/26, A) RJJJ, and U0053/21, A) UUUU: zones Clover read with times only)
    whole_fir = _AREA_NOTICE.replace("/4512N00130E012", "/4512N00130E999").replace("TSA 41 ACT.", "AIRSPACE CLOSED.")
    (rec,) = process_batch(whole_fir, _Engine(_unlocated), cross_check=False)[0]
    assert rec.geometry.type == "named" and rec.geometry.kind == "fir" and rec.geometry.name == "LFBB"
    assert rec.spans["name"].start == whole_fir.index("A) LFBB") + 3 and rec.upper.raw == "FL095"
    assert rec.status == "review"  # no FIR boundary offline
    (rules,) = process_batch(whole_fir, "rules", cross_check=False)[0]
    assert rec.geometry == rules.geometry  # located as the rules reader locates it
    two = whole_fir.replace("A) LFBB", "A) LFBB LFRR")
    recs, _ = process_batch(two, _Engine(_unlocated), cross_check=False)
    assert [(r.geometry.name, r.upper.raw) for r in recs] == [("LFBB", "FL095"), ("LFRR", "FL095")]
    assert [r.geometry for r in recs] == [r.geometry for r in process_batch(two, "rules", cross_check=False)[0]]
    (named,) = process_batch(whole_fir, _Engine(), cross_check=False)[0]
    assert named.geometry.type == "named"  # a zone the engine located by name keeps it
    twice = lambda zones: _unlocated(zones + zones)  # noqa: E731 - two areas with the same hours, neither located
    recs, _ = process_batch(_AREA_NOTICE, _Engine(twice), cross_check=False)
    assert len(recs) == 1 and recs[0].geometry.approximate


# a service notice (Q-code subject S: not about an area) that still states limits and times
_SERVICE_NOTICE = ("A0413/26 NOTAMN Q) LFBB/QSPXX/IV/NBO/AE/000/095/4512N00130E012 A) LFBO B) 2605040800 "
                   "C) 2605041600 E) APP SER HR CHANGED. RADAR NOT AVBL. F) SFC G) FL095")


def _placed_by(**place):
    """An engine that read the notice's limits and times and placed its zone where ``place`` says."""
    return lambda zones: format_answer([{**{k: v for k, v in z.items() if k not in ("center", "radius", "name")},
                                         **place} for z in (zones or [{"lower": "SFC", "upper": "FL095"}])])


@pytest.mark.parametrize("place", [{"center": "4512N00130E", "radius": "012"}, {"name": "LFBO"}, {}],
                         ids=["q-line position", "item A", "no place"])
def test_a_zone_placed_only_by_the_header_of_a_notice_not_about_an_area_is_not_drawn(place):
    (rec,) = process_batch(_SERVICE_NOTICE, _Engine(_placed_by(**place)), cross_check=False)[0]
    assert rec.geometry is None and rec.status == "review"
    assert any("not drawn: the Q-code QSPXX does not mark an area notice" in r for r in rec.reasons)
    assert rec.start is not None  # the notice's own times stay on its record
    (rules,) = process_batch(_SERVICE_NOTICE, "rules", cross_check=False)[0]
    assert rules.geometry is None  # what the rules reader reads there too
    # the same reading of an area notice is a zone (its Q-line circle or aerodrome stands for the area)
    area = _SERVICE_NOTICE.replace("QSPXX", "QRDCA")
    (drawn,) = process_batch(area, _Engine(_placed_by(**place)), cross_check=False)[0]
    assert drawn.geometry is not None


def test_a_zone_the_text_places_in_a_notice_not_about_an_area_is_kept_and_the_header_one_named():
    text = _SERVICE_NOTICE.replace("RADAR NOT AVBL.", "OBST CRANE PSN 451200N0013000E.")
    both = lambda zones: format_answer([  # noqa: E731 - one zone from item E, one from the Q-line
        {"center": "451200N0013000E", "upper": "FL095"}, {"center": "4512N00130E", "radius": "012"}])
    recs, _ = process_batch(text, _Engine(both), cross_check=False)
    assert [r.geometry.type for r in recs] == ["circle"]
    assert recs[0].spans["center"].text == "451200N0013000E"
    assert any("1 zone the engine read with no place but the notice's Q-line or item A) not drawn" in r
               for r in recs[0].reasons)
