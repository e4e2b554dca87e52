"""Issue 45, findings 2 and 5: one answer for a record in every output, and a batch that replaces or cancels its own
NOTAMs. Real-looking ICAO NOTAMs through ``process_batch`` (rules reader) and the real exports."""

from datetime import datetime, timezone

from airspace.geo.export import to_ed269, to_ed318, to_geojson
from airspace.pipeline.batch import process_batch
from airspace.pipeline.cli import is_active

NOTAM = ("({id} NOTAM{typ}{ref}\nQ) KZBW/QRTCA/IV/BO/W/000/050/4221N07103W005\nA) KBOS B) 2601190000 C) 2601192359\n"
         "E) UAS OPS WI {r} RADIUS OF 422100N0710300W.\nF) {f} G) {g})")
CANCEL = "({id} NOTAMC {ref}\nQ) KZBW/QRTCA/IV/BO/W/000/050/4221N07103W005\nA) KBOS B) 2601190000\nE) {ref} CANCELLED.)"
NOON = datetime(2026, 1, 19, 12, tzinfo=timezone.utc)


def notam(id, typ="N", ref=None, r="1NM", f="SFC", g="1000FT AMSL"):
    return NOTAM.format(id=id, typ=typ, ref=f" {ref}" if ref else "", r=r, f=f, g=g)


def by_id(recs):
    return {r.id: r for r in recs}


# ---- 2. the record and every export agree -------------------------------------------------------------------------

def _export_answers(recs):
    gj = {(f["properties"]["message"], f["properties"]["zone"]): f for f in to_geojson(recs)["features"]}
    e269 = {(f["extendedProperties"]["message"], f["extendedProperties"]["zone"]) for f in to_ed269(recs)["features"]}
    e318 = {(x["message"], x["zone"]) for f in to_ed318(recs)["features"] for x in [f["properties"]["extendedProperties"]]}
    return gj, e269, e318


def test_an_irreconcilable_pair_is_review_in_the_record_and_every_export():
    for f, g in (("5000FT AGL", "1000FT AMSL"), ("3000FT AMSL", "400FT AGL")):
        recs, _ = process_batch(notam("A0129/26", f=f, g=g), "rules")
        (r,) = recs
        assert r.status == "review"
        gj, e269, e318 = _export_answers(recs)
        assert gj[(0, 0)]["properties"]["status"] == "review" and gj[(0, 0)]["geometry"] is None
        assert (0, 0) not in e269 and (0, 0) not in e318


def test_a_reconcilable_mixed_pair_is_written_by_every_export():
    recs, _ = process_batch(notam("A0129/26", f="400FT AGL", g="5000FT AMSL"), "rules")
    (r,) = recs
    assert r.status == "ok"
    gj, e269, e318 = _export_answers(recs)
    assert gj[(0, 0)]["properties"]["status"] == "ok" and gj[(0, 0)]["geometry"] is not None
    assert (0, 0) in e269 and (0, 0) in e318


# ---- 5. the batch's NOTAM graph -------------------------------------------------------------------------------------

def test_a_replaced_and_then_cancelled_notam_is_marked_and_not_active():
    batch = "\n\n".join([notam("A0129/26"), notam("A0130/26", "R", "A0129/26", r="2NM"),
                         CANCEL.format(id="A0131/26", ref="A0130/26")])
    recs, _ = process_batch(batch, "rules")
    got = by_id(recs)
    assert got["A0129/26"].replaced_by == "A0130/26" and not is_active(got["A0129/26"], NOON)
    assert got["A0130/26"].cancelled_by == "A0131/26" and not is_active(got["A0130/26"], NOON)
    assert any("replaced by NOTAM A0130/26" in x for x in got["A0129/26"].reasons)
    # the zone files hold what is in force; GeoJSON keeps the features, marked inactive
    assert to_ed269(recs)["features"] == []
    gj = to_geojson(recs, at=NOON)["features"]
    assert [f["properties"]["active"] for f in gj[:2]] == [False, False]
    assert gj[0]["properties"]["replaced_by"] == "A0130/26"


def test_without_the_replacement_the_zone_stays_active():
    recs, _ = process_batch(notam("A0129/26"), "rules")
    assert recs[0].status == "ok" and recs[0].replaced_by is None and is_active(recs[0], NOON)


def test_a_notamr_naming_itself_is_review():
    recs, _ = process_batch(notam("A0140/26", "R", "A0140/26"), "rules")
    assert recs[0].status == "review" and any("names itself" in x for x in recs[0].reasons)


def test_a_cycle_of_replacements_is_review():
    batch = "\n\n".join([notam("A0150/26", "R", "A0151/26"), notam("A0151/26", "R", "A0150/26", r="2NM")])
    recs, _ = process_batch(batch, "rules")
    assert [r.status for r in recs] == ["review", "review"]
    assert all(any("circle" in x and "A0150/26" in x and "A0151/26" in x for x in r.reasons) for r in recs)


def test_the_same_notam_twice_says_so():
    same, _ = process_batch("\n\n".join([notam("A0160/26")] * 2), "rules")
    assert all(any("appears 2 times" in x and "same text" in x for x in r.reasons) for r in same)
    assert [r.status for r in same] == ["ok", "ok"]  # one message given twice: no doubt about its values
    differ, _ = process_batch("\n\n".join([notam("A0160/26"), notam("A0160/26", r="3NM")]), "rules")
    assert [r.status for r in differ] == ["review", "review"]
    assert all(any("different zones" in x for x in r.reasons) for r in differ)
