"""Hard rows: the silver train rows a model engine reads otherwise than the rules reader, each with the kinds of
its disagreement; never a row of the val or test split."""

import json

import pytest

from airspace.eval.hardrows import hard_rows
from airspace.eval.realsplit import split_of
from tests.test_eval_silver import OAKX_G0130, YSSY_F1444


def _archive_row(path, notam_id: str) -> dict:
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            r = json.loads(line)
            if r["id"] == notam_id:
                return r
    raise AssertionError(f"{notam_id} not in the archive")


def test_the_rules_reader_against_itself_has_no_hard_row():
    rows = [{"id": "G0130/26", "text": OAKX_G0130}, {"id": "F1444/26", "text": YSSY_F1444}]
    res = hard_rows(rows, {"rules": "rules"})
    assert res == {"rows": {}, "by_engine": {"rules": {"rows": 0, "kinds": {}}}, "read": 2}


def test_a_row_the_model_cannot_read_is_hard_with_its_kind(archive_path):
    # archive G5398/13 (train, 7 846 characters): over the model's context limit, so the model answers an error
    # where the rules reader reads a zone; the short row beside it is not counted against the long one
    long = _archive_row(archive_path, "G5398/13")
    assert split_of("G5398/13") == "train" and len(long["text"]) > 6144
    res = hard_rows([{"id": "G0130/26", "text": OAKX_G0130}, long], {"ar": "ar"})
    assert res["rows"]["G5398/13"] == {"ar": ["error"]}
    assert res["by_engine"]["ar"]["kinds"].get("error") == 1 and res["read"] == 2


def test_rows_of_the_val_or_test_split_are_refused():
    test_id = next(f"T{k:04d}/26" for k in range(10000) if split_of(f"T{k:04d}/26") == "test")
    with pytest.raises(ValueError, match="not a train row"):
        hard_rows([{"id": test_id, "text": OAKX_G0130}], {"rules": "rules"})
