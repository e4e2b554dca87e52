"""geo.restriction: the UAS restriction class and reasons of an exported zone, read from its message's Q-code and
words (strictest signal wins, none -> PROHIBITED), carried into ED-269 and ED-318; review, EST and PERM in the zone.

Real messages: the archive (data/real/archive.jsonl, first row of each id; train/val split ids only, none of the
world test sources) and the demo sample (data/samples/demo20.txt)."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from airspace.eval.fuzz import _schema_validator
from airspace.geo.export import to_ed269, to_ed318
from airspace.geo.restriction import ED318_TYPE, ORDER, REASONS, restriction_of_text
from airspace.pipeline.batch import process_batch

ROOT = Path(__file__).resolve().parents[1]
ED318_TYPES = json.loads((ROOT / "data/standards/ED-318/schema/Schema_GeoZoneDataTypes.json").read_text())[
    "definitions"]
ED269_RESTRICTIONS = {"PROHIBITED", "REQ_AUTHORISATION", "CONDITIONAL", "NO_RESTRICTION"}
ED269_REASONS = {"AIR_TRAFFIC", "SENSITIVE", "PRIVACY", "POPULATION", "NATURE", "NOISE", "FOREIGN_TERRITORY",
                 "EMERGENCY", "OTHER"}


@pytest.fixture(scope="module")
def archive(archive_path) -> dict[str, dict]:
    out: dict[str, dict] = {}
    for line in Path(archive_path).read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        out.setdefault(row["id"], row)
    return out


@pytest.fixture(scope="module")
def schema():
    return _schema_validator()


def exports(text: str, schema) -> tuple[list, dict, dict]:
    records, _ = process_batch(text, engine="rules")
    e269, e318 = to_ed269(records), to_ed318(records)
    assert list(schema.iter_errors(e318)) == []
    assert len(e269["features"]) == len(e318["features"]) >= 1
    return records, e269, e318


def test_the_classes_and_reasons_are_the_standards_values():
    assert set(ORDER) == ED269_RESTRICTIONS
    assert set(ED318_TYPE.values()) <= set(ED318_TYPES["zoneType"]["enum"])
    assert ED318_TYPE["REQ_AUTHORISATION"] == "REQ_AUTHORIZATION"  # ED-318's spelling, not ED-269's
    assert set(REASONS) <= set(ED318_TYPES["zoneReason"]["items"]["enum"]) and set(REASONS) <= ED269_REASONS


# (archive id, Q-code, ED-269 restriction, a reason it must carry, words of the why)
ARCHIVE_CASES = [
    ("C2435/26", "QRPCA", "PROHIBITED", "AIR_TRAFFIC", "Q-code RPCA: prohibited area activated"),
    ("D0822/26", "QRRCA", "REQ_AUTHORISATION", "AIR_TRAFFIC", "Q-code RRCA: restricted area activated"),
    ("A0170/26", "QRTCA", "REQ_AUTHORISATION", "AIR_TRAFFIC", "Q-code RTCA: temporary restricted area activated"),
    ("G0886/26", "QRACA", "REQ_AUTHORISATION", "AIR_TRAFFIC", "Q-code RACA: airspace reservation activated"),
    ("A1886/26", "QRACA", "REQ_AUTHORISATION", "SENSITIVE", "airspace reservation"),  # MILITARY OPERATIONS
    ("U0491/26", "QRDCA", "CONDITIONAL", "AIR_TRAFFIC", "Q-code RDCA: danger area activated"),
    ("N0483/26", "QWULW", "CONDITIONAL", "AIR_TRAFFIC", "Q-code WULW: unmanned aircraft activity will take place"),
    ("N0700/26", "QWPLW", "CONDITIONAL", "AIR_TRAFFIC", "parachute jumping"),
    ("G0136/26", "QWMLW", "CONDITIONAL", "AIR_TRAFFIC", "missile, gun or rocket firing"),
    # a temporary restricted area whose text closes the airspace: the stricter signal wins
    ("E7878/26", "QRTCA", "PROHIBITED", "AIR_TRAFFIC", "'AREA CLOSED' (stricter than Q-code RTCA"),
]


@pytest.mark.parametrize(("ident", "code", "restriction", "reason", "why"), ARCHIVE_CASES,
                         ids=[c[0] for c in ARCHIVE_CASES])
def test_real_archive_zones_get_the_class_their_message_states(archive, schema, ident, code, restriction, reason,
                                                               why):
    row = archive[ident]
    assert re.search(r"Q\)\s*\w{4}/" + code, row["text"])
    _, e269, e318 = exports(row["text"], schema)
    for z, f in zip(e269["features"], e318["features"]):
        p = f["properties"]
        assert z["restriction"] == restriction and p["type"] == ED318_TYPE[restriction]
        assert reason in z["reason"] and z["reason"] == p["reason"] and "OTHER" not in z["reason"]
        assert why in z["otherReasonInfo"] and f"restriction {restriction}: " in z["message"]
        assert any(why in t["text"] for t in p["otherReasonInfo"])
        assert any(t["text"].startswith(f"restriction {restriction}: ") for t in p["message"])
        # a class that lets a drone in says on what terms; a prohibition needs none
        assert ("restrictionConditions" in p) == (restriction != "PROHIBITED")


@pytest.fixture(scope="module")
def demo(schema):
    records, e269, e318 = exports((ROOT / "data/samples/demo20.txt").read_text(encoding="utf-8"), schema)
    by_rec = {}
    for z, f in zip(e269["features"], e318["features"]):
        key = (z["extendedProperties"]["message"], z["extendedProperties"]["zone"])
        by_rec[key] = (z, f["properties"])
    return records, by_rec


@pytest.mark.parametrize(("message", "restriction", "reasons", "why"), [
    (0, "PROHIBITED", {"AIR_TRAFFIC", "POPULATION"}, "text 'PROHIBITED' (stricter than Q-code WULW"),  # A2231/26
    (1, "REQ_AUTHORISATION", {"AIR_TRAFFIC"}, "Q-code RTCA"),  # A2232/26 TEMPO RESTRICTED AREA
    (2, "PROHIBITED", {"SENSITIVE"}, "FAA temporary flight restriction"),  # FDC 6/0871, TFR for VIP movement
    (6, "PROHIBITED", {"POPULATION"}, "'禁飞/禁止'"),  # the Shenzhen marathon notice: 管控 and 禁止, stricter kept
    (8, "PROHIBITED", {"OTHER"}, "no Q-code or wording names a class"),  # !SZX 11/045: nothing says less
    (9, "CONDITIONAL", {"AIR_TRAFFIC"}, "Q-code RDCA: danger area activated"),  # A2236/26
    (14, "PROHIBITED", {"AIR_TRAFFIC"}, "'AREA CLOSED' (stricter than Q-code WCLW"),  # A2244/26 captive balloons
    (16, "PROHIBITED", {"AIR_TRAFFIC"}, "Q-code RPCA"),  # A2101/26 PERM prohibited area
])
def test_demo_sample_zones(demo, message, restriction, reasons, why):
    records, by_rec = demo
    z, p = by_rec[(message, 0)]
    assert z["restriction"] == restriction and p["type"] == ED318_TYPE[restriction]
    assert set(z["reason"]) == reasons and why in z["otherReasonInfo"]


def test_an_estimated_end_and_a_review_are_said_in_the_zone_itself(archive, schema, demo):
    """A0009/26 (archive: danger area, C) 2604232359 EST) and A2243/26 (demo sample, EST): the end is written, and
    the zone's own message says it is estimated and that the record needs review."""
    records, e269, e318 = exports(archive["A0009/26"]["text"], schema)
    assert records[0].end_estimated and records[0].status == "review"
    (z,), (f,) = e269["features"], e318["features"]
    assert z["applicability"][-1]["endDateTime"] == "2026-04-23T23:59:00Z"
    assert "status review" in z["message"]
    assert "end 2026-04-23T23:59:00Z is estimated (EST): the zone may stay in force after it" in z["message"]
    texts = [t["text"] for t in f["properties"]["message"]]
    assert texts[0].startswith("status review")
    assert any("is estimated (EST)" in t for t in texts)
    assert f["properties"]["extendedProperties"]["endEstimated"] is True
    assert z["restriction"] == "CONDITIONAL"  # Q-code RDCA
    _, by_rec = demo
    z, p = by_rec[(7, 0)]  # A2243/26
    assert "is estimated (EST)" in z["message"] and "status review" in z["message"]
    assert p["extendedProperties"]["endEstimated"] is True


def test_a_perm_zone_gets_no_invented_end(archive, schema, demo):
    """K0197/26 (archive, C) PERM, no schedule) was written with an end a year after its start: the schedule
    reader's listing horizon, a date the message never gives."""
    records, e269, e318 = exports(archive["K0197/26"]["text"], schema)
    assert records[0].permanent and records[0].end is None
    (z,), (f,) = e269["features"], e318["features"]
    assert z["applicability"] == [{"permanent": "YES", "startDateTime": "2026-02-18T21:31:00Z"}]
    assert f["properties"]["limitedApplicability"] == [{"startDateTime": "2026-02-18T21:31:00Z"}]
    assert "permanent (PERM): no end date" in z["message"]
    assert any(t["text"] == "permanent (PERM): no end date" for t in f["properties"]["message"])
    assert f["properties"]["extendedProperties"]["permanent"] is True
    _, by_rec = demo
    z, p = by_rec[(16, 0)]  # A2101/26, PERM
    assert all("endDateTime" not in a for a in z["applicability"]) and "no end date" in z["message"]


def test_the_rule_on_text_alone():
    assert restriction_of_text("").ed269 == "PROHIBITED"
    assert restriction_of_text("Q) ZGZU/QRDCA/IV/BO/W/000/020/ E) DANGER AREA D12 ACT").ed269 == "CONDITIONAL"
    # a danger area whose text prohibits UAS: stricter wins, and the weaker signal is named
    r = restriction_of_text("Q) ZGZU/QRDCA/IV/BO/W/000/020/ E) DANGER AREA D12 ACT. UAS PROHIBITED.")
    assert r.ed269 == "PROHIBITED" and "stricter than Q-code RDCA" in r.why
    assert restriction_of_text("E) UAS FLIGHTS PERMISSION REQUIRED WI 1NM").ed269 == "REQ_AUTHORISATION"
    assert restriction_of_text("无人机飞行需报备").ed269 == "CONDITIONAL"
    assert restriction_of_text("UAS GEOGRAPHICAL ZONE ACTIVATED FOR INFORMATION ONLY").ed318 == "NO_RESTRICTION"
    # the prior-permission condition of a Q-code weakens nothing stricter than it
    assert restriction_of_text("Q) EGTT/QRPAP/ E) P101").ed269 == "PROHIBITED"
    assert restriction_of_text("Q) EGTT/QRTAP/ E) R101").ed269 == "REQ_AUTHORISATION"
