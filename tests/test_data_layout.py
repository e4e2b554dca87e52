"""Layout variants of real messages: whitespace edits (and the feed's tail) only, every span carried to the same
words, and a variant kept for training only where the rules reader reads it to the same spans."""

import random

from airspace.data.layout import ITEM, Edit, apply_edits, move, relayout, squash, variant
from airspace.data.mixcorpus import mix
from airspace.data.realsplit import split_of
from airspace.data.silver import layout_rows, silver_reason

# archive G0136/26 (train): a polygon over the Atlantic, stored on one line with the feed's tail
SOOO_G0136 = ("G0136/26 NOTAMN  Q) SOOO/QWMLW/IV/BO /W /000/999/0750N04313W276  A) SOOO B) 2604171015 C) 2604221441  "
              "D) 1015-1441  E) ROCKET PARTS FALLOUT DURING BLUE ORIGIN LAUNCH CTL RESTRICTIONS  AND REROUTING WILL BE "
              "SET :   LATERAL LIMITS :  1022N04659W 1036N04618W 1011N04546W 0836N04334W 0728N04210W  0613N04035W "
              "0516N03929W 0500N03958W 0553N04108W 0759N04340W   0942N04605W  F) SFC G) UNL    CREATED: 14 APR 2026 "
              "05:48  SOURCE: EUECYIYN")
# archive B0329/25 (train): laid out in lines, the vertex list one vertex a line
RPHI_B0329 = ("B0329/25 NOTAMN\nQ) RPHI/QWMLW/IV/BO /W /000/999/1226N11644E033\nA) RPHI B) 2502110953 C) 2502111046\n"
              "E) SPECIAL OPS (AEROSPACE FLT ACT) WILL BE CONDUCTED BY CHINA.\nEST FALL AREA FOR UNBURNED DEBRIS WI:\n"
              "123800N 1161400E -\n125800N 1164000E -\n121400N 1171400E -\n115400N 1164800E -\n123800N 1161400E.\n"
              "F) SFC G) UNL")


def _silver(text: str, row_id: str) -> dict:
    reason, drafts = silver_reason({"id": row_id, "text": text})
    assert reason is None and split_of(row_id) == "train"
    return {"id": row_id, "text": text, "source": "silver:test",
            "spans": [{k: [sp.start, sp.end] for k, sp in d.spans.items()} for d in drafts]}


def _words(text: str, spans: list[dict]) -> list[dict]:
    return [{k: squash(text[s:e]) for k, (s, e) in z.items()} for z in spans]


def test_each_layout_op_keeps_every_span_on_the_same_words():
    row = _silver(SOOO_G0136, "G0136/26")
    want = _words(row["text"], row["spans"])
    for op in ("item_lines", "wrap", "tight_items", "single_blanks", "no_tail"):
        text, spans = relayout(row["text"], row["spans"], op, random.Random(1))
        assert text != row["text"], op
        assert _words(text, spans) == want, op
    text, _ = relayout(row["text"], row["spans"], "item_lines", random.Random(0))
    # every ICAO item from Q) on begins a line, unless C) shares B)'s line (drawn), and the tail has its own
    starts = [m.group(1) for m in ITEM.finditer(text) if m.start() == 0 or text[m.start() - 1] == "\n"]
    assert set(starts) >= {"Q", "A", "B", "D", "E", "F", "G"} and "\nCREATED:" in text
    assert "B)2604171015" in relayout(row["text"], row["spans"], "tight_items", random.Random(0))[0]
    assert "CREATED" not in relayout(row["text"], row["spans"], "no_tail", random.Random(0))[0]


def test_a_message_in_lines_is_collapsed_and_a_tight_item_spaced():
    row = _silver(RPHI_B0329, "B0329/25")
    text, spans = relayout(row["text"], row["spans"], "one_line", random.Random(2))
    assert "\n" not in text and _words(text, spans) == _words(row["text"], row["spans"])
    tight = "A1/26 NOTAMN Q)ZBPE/QRDCA/IV/BO/W/000/999/4209N11125E054 A)ZBPE B)2605250150 C)2605250235"
    spaced, _ = relayout(tight, [], "spaced_items", random.Random(0))
    assert spaced == "A1/26 NOTAMN Q) ZBPE/QRDCA/IV/BO/W/000/999/4209N11125E054 A) ZBPE B) 2605250150 C) 2605250235"
    # archive A1043/26 (train): the designator's '(A)' is no item A, so its blank stays
    named = "A1043/26 NOTAMN  A) VOMF B) 2603280530 C) 2603300700  E) VOD175(A) THUMBA-1 ROCKET FRNG RANGE ACT."
    assert relayout(named, [], "tight_items", random.Random(0))[0] == (
        "A1043/26 NOTAMN  A)VOMF B)2603280530 C)2603300700  E)VOD175(A) THUMBA-1 ROCKET FRNG RANGE ACT.")


def test_spans_move_with_the_edits_and_no_edit_lands_inside_a_kept_value():
    # an insertion at a span's start moves the span; one at its end leaves the end where it was
    old = "B)X123  Y"
    edits = [Edit(2, 2, " "), Edit(6, 8, "")]
    new = apply_edits(old, edits)
    assert new == "B) X123Y"
    assert new[move(2, edits, is_end=False):move(6, edits, is_end=True)] == "X123" and new[move(8, edits, is_end=False)] == "Y"
    ins = [Edit(6, 6, "|")]
    assert apply_edits(old, ins)[move(2, ins, is_end=False):move(6, ins, is_end=True)] == "X123"
    # the blanks inside an estimated end are the value's own: single_blanks leaves them, and those around it go
    text = "A) OAKX  B) 2603200925  C) 2606142359  EST  E) FIR"
    s = text.index("2606142359")
    end = [s, s + len("2606142359  EST")]
    new, (z,) = relayout(text, [{"end": end}], "single_blanks", random.Random(0))
    assert new == "A) OAKX B) 2603200925 C) 2606142359  EST E) FIR" and new[z["end"][0]:z["end"][1]] == "2606142359  EST"


def test_variants_are_kept_with_the_readers_spans_and_drawn_by_mix():
    rows = [_silver(SOOO_G0136, "G0136/26"), _silver(RPHI_B0329, "B0329/25")]
    out, why = layout_rows(rows, 3, seed=5)
    assert out and {r["id"] for r in out} == {"G0136/26", "B0329/25"} and why["read otherwise"] == 0
    for r in out:
        reason, drafts = silver_reason({"id": r["id"], "text": r["text"]})
        assert reason is None
        assert r["spans"] == [{k: [sp.start, sp.end] for k, sp in d.spans.items()} for d in drafts]
        orig = next(x for x in rows if x["id"] == r["id"])
        assert r["text"] != orig["text"] and _words(r["text"], r["spans"]) == _words(orig["text"], orig["spans"])
    layouts: dict = {}
    for r in out:
        layouts.setdefault(r["id"], []).append(r)
    all_variants = mix(rows, 40, 0.5, seed=1, split="train", layouts=layouts, layout_frac=1.0)
    silver = [r for r in all_variants if r.get("source") == "silver:test"]
    assert len(silver) == 20 and all("layout" in r for r in silver)
    assert not any("layout" in r for r in mix(rows, 40, 0.5, seed=1, split="train", layouts=layouts))


def test_a_variant_the_reader_reads_otherwise_is_dropped_never_relabelled():
    row = _silver(SOOO_G0136, "G0136/26")
    # the row's upper limit pointed at its lower limit's SFC: no layout of it reads that way, so none is kept
    (z,) = row["spans"]
    wrong = {**row, "spans": [{**z, "upper": list(z["lower"])}]}
    out, why = layout_rows([wrong], 3, seed=5)
    assert out == [] and why["read otherwise"] >= 1


def test_a_variant_is_a_layout_the_row_did_not_have():
    row = _silver(SOOO_G0136, "G0136/26")
    text, spans, ops = variant(row["text"], row["spans"], random.Random(7))
    assert ops and ops[0] == "item_lines" and text.count("\n") >= 6
