"""The triage tool: reasons counted together, unread values found, silver polygons compared, examples never from
the archive's test split."""

from airspace.data.realsplit import split_of
from airspace.eval.triage import format_table, general_reason, triage

# archive A0471/26 (train): only the Q-line circle locates it
GMMM_A0471 = ("A0471/26 NOTAMN  Q) GMMM/QRDCA/IV/BO/W/000/460/3404N00332W014  A) GMMM  B) 2607010000 C) 2609302359  "
              "E) GMD 07 (GUERCIF) ACT.  F) GND G) FL460")


def test_reasons_of_different_messages_count_together():
    a = general_reason("named place 'ZWUQ' could not be resolved to coordinates")
    assert a == general_reason("named place 'UUUU' could not be resolved to coordinates")
    assert general_reason("only the coarse Q-line circle locates this zone (no coordinates in the text; it names "
                          "area GMD 07)") == ("only the coarse Q-line circle locates this zone (no coordinates in "
                                             "the text; it names area …)")


def test_triage_counts_reasons_unread_values_and_silver():
    poly = "AREA 395400N1162400E - 395500N1162500E - 395400N1162600E  F) GND G) 500M AMSL"
    rows = [
        {"id": "A0471/26", "text": GMMM_A0471},
        {"id": "X1/26", "text": "Q) ZBPE/QRTCA/IV/BO/W/000/010/3954N11624E005\nB) 2601010000 C) 2601020000\nE) " + poly,
         "silver_polygon": "N395400E1162400-N395500E1162500-N395400E1162600"},
        {"id": "X3/26", "text": "Q) ZBPE/QRTCA/IV/BO/W/000/010/3954N11624E005\nB) 2601010000 C) 2601020000\nE) " + poly,
         "silver_polygon": "N395400E1162400-N395500E1162500-N395400E1162700"},
    ]
    rep = triage(rows)
    assert rep["messages"] == rep["accounted"] == 3
    reasons = {r["reason"]: r for r in rep["reasons"]}
    q = "only the coarse Q-line circle locates this zone (no coordinates in the text; it names area …)"
    assert reasons[q]["messages"] == 1 and reasons[q]["examples"][0]["id"] == "A0471/26"
    assert rep["silver"]["both_read"] == 2 and rep["silver"]["agree"] == 1 and rep["silver"]["disagree_ids"] == ["X3/26"]
    assert "silver_polygon: 2 rows" in format_table(rep)


def test_examples_never_come_from_the_test_split():
    tid = next(f"T{k}/26" for k in range(1000) if split_of(f"T{k}/26") == "test")
    rep = triage([{"id": tid, "text": GMMM_A0471.replace("A0471/26", tid)}])
    assert rep["reasons"] and all(not r["examples"] for r in rep["reasons"])
