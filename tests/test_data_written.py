"""Written-form variants of real messages: the same digits, hemisphere letters and units in another feed's form,
the Q-line never touched, and a variant kept for training only where the rules reader reads it to the same values
at the carried spans."""

import random
import re

import pytest

from airspace.data.realsplit import split_of
from airspace.data.silver import _values, layout_rows, silver_reason
from airspace.data.written import COORD_FORMS, MEASURE_FORMS, coord_text, written
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

# archive G0136/26 (train): a polygon over the Atlantic, DDMM vertices written tight
SOOO_G0136 = ("G0136/26 NOTAMN  Q) SOOO/QWMLW/IV/BO /W /000/999/0750N04313W276  A) SOOO B) 2604171015 C) 2604221441  "
              "D) 1015-1441  E) ROCKET PARTS FALLOUT DURING BLUE ORIGIN LAUNCH CTL RESTRICTIONS  AND REROUTING WILL BE "
              "SET :   LATERAL LIMITS :  1022N04659W 1036N04618W 1011N04546W 0836N04334W 0728N04210W  0613N04035W "
              "0516N03929W 0500N03958W 0553N04108W 0759N04340W   0942N04605W  F) SFC G) UNL    CREATED: 14 APR 2026 "
              "05:48  SOURCE: EUECYIYN")
# a firework circle in the archive's Chinese-area form (a DMS centre, a radius in metres, limits in metres);
# its Q-line upper limit (FL040) covers the 1200 m of item G, as ICAO has it (a contradiction is review)
ZSHA_CIRCLE = ("A9001/26 NOTAMN Q) ZSHA/QWMLW/IV/BO/W/000/040/3054N12156E001 A) ZSHA B) 2601031200 C) 2603281230 "
               "E) FIREWORK WILL TAKE PLACE WITHIN A CIRCLE CENTERED AT 305356N1215608E WITH RADIUS OF 1330M. "
               "F) GND G) 1200M AMSL")


def _rules(text: str) -> list:
    return process_batch([Message(0, text)], "rules", cross_check=False)[0]


def _row(text: str, row_id: str) -> dict:
    reason, drafts = silver_reason({"id": row_id, "text": text})
    assert reason is None
    return {"id": row_id, "text": text, "source": "silver:test",
            "spans": [{k: [sp.start, sp.end] for k, sp in d.spans.items()} for d in drafts]}


def test_each_coordinate_form_keeps_the_digits_and_hemispheres():
    texts = {f: coord_text("474700", "S", "1310000", "W", f) for f in COORD_FORMS}
    assert texts["slash"] == "474700S / 1310000W" and texts["hemi_first_blank"] == "S474700 W1310000"
    for t in texts.values():
        assert sorted(re.sub(r"\D", "", t)) == sorted("4747001310000") and "S" in t and "W" in t


@pytest.mark.parametrize("seed", range(8))
def test_a_variant_is_read_by_the_rules_reader_to_the_same_values_at_the_carried_spans(seed):
    for text, row_id in ((SOOO_G0136, "G0136/26"), (ZSHA_CIRCLE, "A9001/26")):
        row = _row(text, row_id)
        new, spans, forms = written(row["text"], row["spans"], random.Random(seed))
        q = re.search(r"Q\)\s*\S+", text).group()
        assert q in new  # the Q-line as ICAO fixes it
        if not forms:
            assert new == text  # a form the row already has
            continue
        assert new != text
        reason, drafts = silver_reason({"id": row_id, "text": new})
        assert reason is None
        assert [{k: [sp.start, sp.end] for k, sp in d.spans.items()} for d in drafts] == spans
        assert _values(_rules(new)) == _values(_rules(text))


def test_numbers_are_never_recomputed_only_regrouped():
    row = _row(ZSHA_CIRCLE, "A9001/26")
    seen = set()
    for seed in range(40):
        new, spans, forms = written(row["text"], row["spans"], random.Random(seed))
        (z,) = spans
        seen.add(new[z["radius"][0]:z["radius"][1]])
    assert seen <= {"1330M", "1330 M", "1,330M", "1,330 M"} and len(seen) == len(MEASURE_FORMS)


def test_written_variants_are_kept_for_training_beside_layouts():
    rows = [_row(SOOO_G0136, "G0136/26")]
    assert split_of("G0136/26") == "train"
    out, why = layout_rows(rows, 3, seed=30, written_frac=1.0)
    assert why["kept written"] >= 2 and not [k for k in why if k.endswith("(written)")]
    for r in out:
        (z,) = r["spans"]
        polygon = r["text"][z["polygon"][0]:z["polygon"][1]]
        # the answer is the variant's own text at the reader's spans, in the form the variant writes
        assert r["written"] and r["answer"].startswith(f"polygon={polygon}␟") and polygon not in SOOO_G0136
    plain, _ = layout_rows(rows, 3, seed=30)
    assert not any("written" in r for r in plain)


def test_a_polygons_vertices_may_be_parted_as_another_feed_parts_them():
    row = _row(SOOO_G0136, "G0136/26")
    parted = {}
    for seed in range(60):
        new, spans, forms = written(row["text"], row["spans"], random.Random(seed))
        (z,) = spans
        for f in forms:
            if f.startswith("between:"):
                parted[f] = new[z["polygon"][0]:z["polygon"][1]]
    assert "between:' - '" in parted and "between:', '" in parted
    for f, poly in parted.items():
        sep = f[len("between:") + 1:-1]
        assert poly.count(sep) >= 10  # eleven vertices, ten gaps
        # whatever parts the vertices, a dash never parts a vertex's own halves as well
        assert not ("-" in sep and re.search(r"\d[NS]-\d", poly))
