"""The training mix: silver rows make up the stated share, cycled in seeded order; rare real forms can come more
often; generated rows fill the rest."""

import argparse

import pytest

from airspace.data.mixcorpus import _weights, mix, zone_forms

ROWS = [
    {"id": "P1", "source": "silver:x", "spans": [{"polygon": [10, 40], "lower": [41, 44]}]},
    {"id": "C1", "source": "silver:x", "spans": [{"center": [5, 20], "radius": [21, 24]}]},
    {"id": "T1", "source": "silver:x", "spans": [{"center": [5, 20]}]},
    {"id": "N1", "source": "silver:x", "spans": [{"name": [3, 7], "lower": [9, 12]}]},
    {"id": "Z1", "source": "silver:x", "spans": []},
]


def test_zone_forms_name_what_a_row_draws():
    assert [zone_forms(r) for r in ROWS] == [{"polygon"}, {"circle"}, {"point"}, {"name"}, {"none"}]


def test_form_weight_repeats_rare_forms_in_every_pass_and_keeps_the_share():
    plain = mix(ROWS, 100, 0.5, seed=3, split="train")
    weighted = mix(ROWS, 100, 0.5, seed=3, split="train", form_weight={"name": 4, "point": 2})
    for rows in (plain, weighted):
        assert len(rows) == 100 and sum(r.get("source") == "silver:x" for r in rows) == 50
    count = lambda rows, i: sum(r.get("id") == i for r in rows)  # noqa: E731
    assert count(plain, "N1") == count(plain, "P1") == 10
    # a pass is P1 C1 T1 T1 N1 N1 N1 N1 Z1 (9 rows): 50 silver rows are five passes and five rows of a sixth
    assert 20 <= count(weighted, "N1") <= 24 and 10 <= count(weighted, "T1") <= 12 and count(weighted, "P1") in (5, 6)
    assert mix(ROWS, 100, 0.5, seed=3, split="train", form_weight={"name": 4}) == \
        mix(ROWS, 100, 0.5, seed=3, split="train", form_weight={"name": 4})


def test_a_row_with_two_zones_is_multi_besides_its_forms():
    two = {"id": "M2", "source": "silver:x", "spans": [{"polygon": [10, 40]}, {"center": [50, 60], "radius": [61, 64]}]}
    assert zone_forms(two) == {"multi", "polygon", "circle"}
    rows = mix(ROWS + [two], 120, 0.5, seed=4, split="train", form_weight={"multi": 3})
    # a pass is the five single-zone rows once and M2 three times (8 rows): 60 silver rows are 7.5 passes
    assert 21 <= sum(r.get("id") == "M2" for r in rows) <= 24 and sum(r.get("id") == "P1" for r in rows) in (7, 8)


def test_a_limit_read_from_the_q_line_is_its_own_form():
    text = "A1/26 NOTAMN Q) XXXX/QRTCA/IV/BO/W/000/999/ A) XXXX B) 2601010000 C) 2601020000 E) AREA 10NM RADIUS"
    lo, hi = text.index("000/999") + 0, text.index("000/999") + 4
    row = {"id": "Q1", "text": text, "spans": [{"name": [55, 59], "lower": [lo, lo + 3], "upper": [hi, hi + 3]}]}
    assert zone_forms(row) == {"name", "qline"}
    # the same digits written in item F) are not read from the Q-line
    f = text + " F) 000 G) 999"
    row_f = {"id": "F1", "text": f, "spans": [{"name": [55, 59], "lower": [f.index("F)") + 3, f.index("F)") + 6]}]}
    assert zone_forms(row_f) == {"name"}


def test_form_weight_argument_is_checked():
    assert _weights("name=4, point=3") == {"name": 4, "point": 3} and _weights("") == {}
    for bad in ("fir=2", "name=0", "name=x", "name"):
        with pytest.raises(argparse.ArgumentTypeError):
            _weights(bad)
