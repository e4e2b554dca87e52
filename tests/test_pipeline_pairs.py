"""A cross-checked engine's zones, each checked against the rules reader's zone of the same place
(``complete.pair_zones``), and the rules reader's reading shown where the two differ
(``batch._rules_reading_shown``), on the vendored archive's NAVAREA XII 185/26(18) (two lettered areas, each with
alternates that end in a daily window) and NAVAREA IV 268/26 (one period for areas A and B)."""

from __future__ import annotations

from datetime import datetime, timezone

from test_pipeline_batch import _Engine
from world_rows import archive_text

from airspace.core.answer import format_answer
from airspace.core.records import CircleGeometry, ZoneRecord
from airspace.pipeline.batch import _as_placed, process_batch
from airspace.pipeline.complete import READ_OTHERWISE, RULES_ONLY, drawn, pair_zones
from airspace.pipeline.split import Message

UTC = timezone.utc
ALTERNATES = "NAVAREA XII 185/26(18)"  # A. 242303Z TO 250327Z MAR, ALTERNATE 2303Z TO 0327Z DAILY 25 THRU 30 MAR


def _msg(key: str) -> list[Message]:
    return [Message(0, archive_text(key))]


def _reader(alter):
    """The stand-in model engine of test_pipeline_batch: the rules reader's answer, altered as a model errs."""
    return _Engine(lambda zones: format_answer(alter([dict(z) for z in zones])))


def _values(r: ZoneRecord):
    return r.geometry, r.lower, r.upper, r.start, r.end, r.schedule


def test_an_engine_that_reads_the_first_window_only_is_shown_the_rules_readers_period_for_review():
    msg = _msg(ALTERNATES)
    rules = drawn(process_batch(msg, "rules")[0])

    def first_window(zones):  # area A ends with its first group (250327Z), as a model pointing at one span does
        zones[0]["end"] = "250327Z"
        zones[0].pop("schedule")
        return zones

    a, b = process_batch(msg, _reader(first_window))[0]
    assert [_values(r) for r in (a, b)] == [_values(r) for r in rules]
    assert a.end == datetime(2026, 3, 31, 3, 27, tzinfo=UTC) and a.schedule == "2303Z TO 0327Z"
    assert a.spans["end"] == rules[0].spans["end"] and (a.engine, b.engine) == ("rules", "test-engine")
    assert a.status == "review" and "engine and rules disagree on end" in a.reasons
    assert f"{READ_OTHERWISE} (the engine read end 2026-03-25T03:27:00Z)" in a.reasons
    # area B, read alike, is the engine's record and not said to differ
    assert not any("disagree" in x or x.startswith(READ_OTHERWISE) for x in b.reasons)


def test_the_areas_in_another_order_are_checked_place_against_place():
    msg = _msg(ALTERNATES)
    rules = drawn(process_batch(msg, "rules")[0])
    recs = process_batch(msg, _reader(lambda zones: zones[::-1]))[0]
    assert [_values(r) for r in recs] == [_values(r) for r in rules[::-1]]  # (the engine's order)
    assert all(r.engine == "test-engine" for r in recs)
    assert not any("disagree" in x or x.startswith(READ_OTHERWISE) or x == RULES_ONLY for r in recs for x in r.reasons)


def test_times_only_the_rules_reader_read_are_said_so_not_a_disagreement():
    msg = _msg("NAVAREA IV 268/26")

    def no_times(zones):
        return [{k: v for k, v in z.items() if k not in ("start", "end", "schedule")} for z in zones]

    recs = process_batch(msg, _reader(no_times))[0]
    assert len(recs) == 2 and all(r.start == datetime(2026, 3, 26, 11, 22, tzinfo=UTC) for r in recs)
    for r in recs:
        assert not any("disagree" in x for x in r.reasons)
        assert any(x.startswith("the start") and "read by the rules reader only" in x for x in r.reasons)


def test_an_area_only_the_engine_drew_is_kept_for_review():
    msg = _msg(ALTERNATES)
    rules = drawn(process_batch(msg, "rules")[0])

    def one_more(zones):  # area A, and again with its last vertex left out: another polygon
        extra = dict(zones[0])
        extra["polygon"] = extra["polygon"].rsplit(",", 1)[0]
        return zones + [extra]

    recs = process_batch(msg, _reader(one_more))[0]
    assert [_values(r) for r in recs[:2]] == [_values(r) for r in rules]
    assert len(recs) == 3 and recs[2].zone == 2 and len(recs[2].geometry.points) == 5
    assert recs[2].status == "review" and "engine found 3 zones, rules found 2" in recs[2].reasons
    assert recs[2].engine == "test-engine"


def test_an_area_the_engine_missed_is_the_rules_readers_for_review():
    msg = _msg(ALTERNATES)
    rules = drawn(process_batch(msg, "rules")[0])
    recs = process_batch(msg, _reader(lambda zones: zones[1:]))[0]
    assert [_values(r) for r in recs] == [_values(rules[1]), _values(rules[0])]
    assert RULES_ONLY not in recs[0].reasons and not any("disagree" in x for x in recs[0].reasons)
    assert RULES_ONLY in recs[1].reasons and (recs[0].engine, recs[1].engine) == ("test-engine", "rules")


def test_without_the_cross_check_the_engines_reading_stands():
    msg = _msg(ALTERNATES)

    def first_window(zones):
        zones[0]["end"] = "250327Z"
        zones[0].pop("schedule")
        return zones

    a, _ = process_batch(msg, _reader(first_window), cross_check=False)[0]
    assert a.end == datetime(2026, 3, 25, 3, 27, tzinfo=UTC)


def _circle(lat: float, lon: float, r: float) -> ZoneRecord:
    return ZoneRecord(message=0, geometry=CircleGeometry(center=(lat, lon), radius_m=r))


def test_pair_zones_by_place_first_then_in_order():
    a, b, c = _circle(10.0, 10.0, 1852.0), _circle(20.0, 20.0, 1852.0), _circle(30.0, 30.0, 1852.0)
    assert pair_zones([a, b], [b.model_copy(), a.model_copy()]) == {0: 1, 1: 0}
    # what no place pairs is paired in order, a zone without a place too; a side's surplus stays unpaired; an error
    # record, or a zone that could not be normalised (None), is never paired
    assert pair_zones([a, c], [b, a.model_copy(), c.model_copy()]) == {0: 1, 1: 2}
    assert pair_zones([a, b], [c]) == {0: 0}
    assert pair_zones([ZoneRecord(message=0), a], [a.model_copy(), b]) == {1: 0, 0: 1}
    assert pair_zones([ZoneRecord(message=0, status="error"), a], [None, a.model_copy()]) == {1: 1}
    # two centres 44 m apart on either side of a band of latitude the pairing files places by are one place
    # (in order they would be paired the other way round)
    south, north = _circle(9.9998, 10.0, 1852.0), _circle(10.0002, 10.0, 1852.0)
    assert pair_zones([south, b], [c, north]) == {0: 1, 1: 0}


def test_a_reading_placed_more_roughly_never_replaces_the_engines():
    """The archive's A1938/26 (fireworks near LPLA: only item Q's circle places it, ``F) SFC G) UNL``): where both
    readings are that rough circle the rules reader's is shown in a disagreement; where the engine read a place by
    coordinates and the rules reader only the rough circle, the engine's reading stays, for review."""
    msg = _msg("A1938/26")
    (rules,) = process_batch(msg, "rules")[0]
    assert rules.geometry.approximate and rules.upper.ref == "UNL"

    def floor_as_ceiling(zones):
        return [dict(z, upper="SFC") for z in zones]

    (rec,) = process_batch(msg, _reader(floor_as_ceiling))[0]
    assert rec.engine == "rules" and rec.upper.ref == "UNL" and "engine and rules disagree on upper" in rec.reasons
    assert any(x.startswith(READ_OTHERWISE) and "the engine read upper SFC" in x for x in rec.reasons)
    placed = ZoneRecord(message=0, geometry=CircleGeometry(center=(38.77, -27.08), radius_m=1852.0))
    assert _as_placed(rules, placed) is False and _as_placed(rules, rules) is True
    assert _as_placed(placed, rules) is True and _as_placed(None, placed) is False
