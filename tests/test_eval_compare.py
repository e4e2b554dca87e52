"""'Record right' is defined once (parser/compare.py); check it on real records from the real dev set."""

from airspace.eval.compare import gold_from_dev_truth, record_diffs, records_right
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message


def _records(text):
    records, _ = process_batch([Message(0, text)], "rules")
    return records


def test_dev_truths_are_right_and_a_perturbed_gold_is_not(dev_rows):
    scored = 0
    for row in dev_rows:
        if not row.get("truth"):
            continue
        gold = gold_from_dev_truth(row["truth"])
        recs = _records(row["text"])
        right, problems = records_right(recs, [gold])
        assert right == 1, (row["id"], problems)
        scored += 1
        # the same gold with the end time moved one minute must be caught
        if gold.get("end"):
            moved = dict(gold, end=gold["end"].replace(":00Z", ":01Z"))
            assert any(d.startswith("end:") for d in record_diffs(recs[0], moved))
    assert scored == 6


def test_geometry_and_limit_mismatches_are_named(dev_by_id):
    rec = _records(dev_by_id["pynotam-readme-A1912-15"]["text"])[0]
    gold = gold_from_dev_truth(dev_by_id["pynotam-readme-A1912-15"]["truth"])
    off = dict(gold, geometry=dict(gold["geometry"], center=[48.1584, 16.174444]))
    assert any(d.startswith("centre:") for d in record_diffs(rec, off))
    wrong_ref = dict(gold, upper={"ref": "AMSL", "ft": 13000})
    assert any(d.startswith("upper:") for d in record_diffs(rec, wrong_ref))
    assert records_right([], [gold])[0] == 0


def test_implied_surface_floor_counts_as_no_stated_floor():
    # FAA obstacle-free UAS text with only a ceiling: the pipeline states the floor as an implied surface
    text = "UAV ops prohibited within 3 km of 22.54N 114.06E up to 120 m AGL 2611300800-2611301800"
    recs = _records(text)
    assert recs and recs[0].lower is not None and recs[0].lower.raw == ""
    assert not [d for d in record_diffs(recs[0], {"lower": None}) if d.startswith("lower")]
    assert [d for d in record_diffs(recs[0], {"lower": {"ref": "SFC", "ft": 100}}) if d.startswith("lower")]
