"""What only the rules reader read is added to a cross-checked engine's reading, always for review
(``pipeline.complete``), on real messages: world train rows fr-jorf:lf-r45-a-d-2008 (four polygons) and
de-pilothub:nfl-2024-1-3308 (two numbered areas), and the dev row whisper-EDWW-B0111-26 (an ICAO NOTAM)."""

from __future__ import annotations

import pytest
from test_pipeline_batch import _Engine

from airspace.core.answer import format_answer
from airspace.core.records import CircleGeometry, ZoneRecord, iso_utc
from airspace.data.world import read_world
from airspace.pipeline.batch import process_batch
from airspace.pipeline.complete import (
    NONE_FOUND,
    READ_OTHERWISE,
    RULES_ONLY,
    drawn,
    fill_missing,
    rules_only_zones,
    same_place,
)
from airspace.pipeline.split import Message


def _reader(alter):
    """The stand-in model engine of test_pipeline_batch (rules answers, altered): a model that misses zones or fields,
    as a model does."""
    return _Engine(lambda zones: format_answer(alter(zones)))


@pytest.fixture(scope="module")
def world_train():
    return {r["id"]: [Message(0, r["text"])] for r in read_world("train")}


def test_zones_only_the_rules_reader_found_are_added_for_review(world_train):
    msg = world_train["fr-jorf:lf-r45-a-d-2008"]
    rules = drawn(process_batch(msg, "rules")[0])
    assert len(rules) == 4
    recs, _ = process_batch(msg, _reader(lambda zones: zones[:1]))
    assert [r.zone for r in recs] == [0, 1, 2, 3]
    assert recs[0].engine == "test-engine" and "engine found 1 zones, rules found 4" in recs[0].reasons
    for mine, theirs in zip(recs[1:], rules[1:]):
        assert mine.engine == "rules" and mine.status == "review" and RULES_ONLY in mine.reasons
        assert mine.geometry == theirs.geometry and mine.spans == theirs.spans
    # without the cross-check there is no second reading to add from
    assert len(process_batch(msg, _reader(lambda zones: zones[:1]), cross_check=False)[0]) == 1


def test_a_message_the_engine_found_no_zone_in_gets_the_rules_readers_zones_for_review(world_train):
    msg = world_train["de-pilothub:nfl-2024-1-3308"]
    recs, _ = process_batch(msg, _reader(lambda zones: []))
    assert len(recs) == 2 and all(r.status == "review" and NONE_FOUND in r.reasons for r in recs)
    assert [r.zone for r in recs] == [0, 1] and [r.geometry.radius_m for r in recs] == pytest.approx([1481.6, 2037.2])
    (alone,) = process_batch(msg, _reader(lambda zones: []), cross_check=False)[0]
    assert alone.geometry is None and any("no zone found" in x for x in alone.reasons)


def test_an_empty_field_is_filled_from_the_rules_reading_for_review_and_a_differing_one_shown_as_its(dev_by_id):
    msg = [Message(0, dev_by_id["whisper-EDWW-B0111-26"]["text"])]
    (rules,) = process_batch(msg, "rules")[0]
    assert rules.start is not None and rules.end is not None

    def no_times(zones):
        return [{k: v for k, v in z.items() if k not in ("start", "end")} for z in zones]

    (rec,) = process_batch(msg, _reader(no_times))[0]
    assert rec.start == rules.start and rec.end == rules.end and rec.spans["start"] == rules.spans["start"]
    assert rec.windows == rules.windows and rec.windows  # the daily windows expand from the start: unread with it
    assert rec.status == "review"
    assert ("the start, the end and the daily schedule: read by the rules reader only (the engine read none), for "
            "review") in rec.reasons
    assert not any("no start time" in x or "disagree" in x for x in rec.reasons)

    def wrong_end(zones):  # an end the engine read, wrongly: the cross-check flags it and shows the rules reading
        return [dict(z, end=z["start"]) for z in zones]

    (rec,) = process_batch(msg, _reader(wrong_end))[0]
    assert rec.end == rules.end and rec.spans["end"] == rules.spans["end"] and rec.engine == "rules"
    assert rec.status == "review" and "engine and rules disagree on end" in rec.reasons
    assert f"{READ_OTHERWISE} (the engine read end {iso_utc(rules.start)})" in rec.reasons
    assert not any("rules reader only" in x for x in rec.reasons)
    # without the cross-check the engine's reading is the record
    (alone,) = process_batch(msg, _reader(wrong_end), cross_check=False)[0]
    assert alone.end == rules.start and alone.engine == "test-engine"


def test_a_zone_is_checked_against_the_rules_readers_zone_of_the_same_place_and_none_drawn_twice(world_train):
    msg = world_train["de-pilothub:nfl-2024-1-3308"]
    rules = drawn(process_batch(msg, "rules")[0])

    def second_without_ceiling(zones):  # area 2 alone, its ceiling unread: paired with the rules' area 2, not 1
        return [{k: v for k, v in zones[1].items() if k != "upper"}]

    recs, _ = process_batch(msg, _reader(second_without_ceiling))
    assert len(recs) == 2
    assert recs[0].geometry == rules[1].geometry and recs[0].upper == rules[1].upper
    assert recs[0].engine == "test-engine" and not any("disagree" in x for x in recs[0].reasons)
    assert "the upper limit: read by the rules reader only (the engine read none), for review" in recs[0].reasons
    assert recs[1].geometry == rules[0].geometry and RULES_ONLY in recs[1].reasons


def _circle(lat, lon, r):
    return ZoneRecord(message=0, geometry=CircleGeometry(center=(lat, lon), radius_m=r))


def test_same_place_two_rings_about_one_centre_are_two_zones():
    assert same_place(_circle(38.9, -77.0, 55560.0), _circle(38.9, -77.0, 55560.0 * 1.005))
    assert not same_place(_circle(38.9, -77.0, 55560.0), _circle(38.9, -77.0, 18520.0))
    assert not same_place(_circle(38.9, -77.0, 1852.0), _circle(38.91, -77.0, 1852.0))  # ~1.1 km apart
    # a VIP TFR's outer ring read, the inner one not: the inner ring is added, the outer one not again
    outer, inner = _circle(38.9, -77.0, 55560.0), _circle(38.9, -77.0, 18520.0)
    assert rules_only_zones([outer], [outer.model_copy(), inner]) == [inner]
    # as many as the rules reader drew more, the ones past the engine's count first
    assert rules_only_zones([_circle(1.0, 1.0, 100.0)], [outer, inner]) == [inner]
    assert rules_only_zones([outer, inner], [outer, inner]) == []


def test_an_error_record_fills_nothing():
    bad = ZoneRecord(message=0, status="error")
    assert fill_missing(_circle(1.0, 1.0, 100.0), bad) == [] and fill_missing(bad, _circle(1.0, 1.0, 100.0)) == []


# --- a model's named place that the rules reader names otherwise (complete.adopt_rules_places) -------------------
PALACE = "in-deccanherald:palace-grounds-2024-04-20"  # "within a 1-km radius at Krishna Vihar, Palace Grounds, and
# HQTC Helipad": three named places, each with the phrase's radius


def _renamed(k: int, name: str, drop_radius: bool = False):
    def alter(zones):
        zones = [dict(z) for z in zones]
        zones[k]["name"] = name
        if drop_radius:
            zones[k].pop("radius", None)
        return zones
    return alter


def test_a_models_piece_of_sentence_gives_way_to_the_rules_readers_place(world_train):
    # a model pointing at "Narendra Modi’s" (the sentence's words before the place) for the first zone
    recs, _ = process_batch(world_train[PALACE], _reader(_renamed(0, "Narendra Modi’s")))
    assert [r.geometry.name for r in recs] == ["Krishna Vihar", "Palace Grounds", "HQTC Helipad"]
    first = recs[0]
    assert first.engine == "test-engine" and first.status == "review"
    assert first.spans["name"].text == "Krishna Vihar" and first.geometry.radius_m == 1000.0
    assert any("the engine named 'Narendra Modi’s'" in x and "'Krishna Vihar'" in x for x in first.reasons)
    assert not any("Narendra Modi’s" in x and "could not be resolved" in x for x in first.reasons)


def test_a_models_place_the_rules_reader_names_for_another_zone_is_kept(world_train):
    # zones in another order: each of the model's places is one the rules reader names, so nothing is changed
    def swap(zones):
        zones = [dict(z) for z in zones]
        zones[0]["name"], zones[1]["name"] = zones[1]["name"], zones[0]["name"]
        return zones
    recs, _ = process_batch(world_train[PALACE], _reader(swap))
    assert [r.geometry.name for r in recs] == ["Palace Grounds", "Krishna Vihar", "HQTC Helipad"]
    assert not any("the engine named" in x for r in recs for x in r.reasons)


def test_the_rules_readers_radius_around_the_same_place(world_train):
    recs, _ = process_batch(world_train[PALACE], _reader(_renamed(1, "Palace Grounds", drop_radius=True)))
    assert recs[1].geometry.radius_m == 1000.0 and recs[1].spans["radius"].text == "1-km"
    assert "the radius: read by the rules reader only (the engine read none), for review" in recs[1].reasons


def test_without_the_cross_check_the_models_place_stands(world_train):
    recs, _ = process_batch(world_train[PALACE], _reader(_renamed(0, "Narendra Modi’s")), cross_check=False)
    assert recs[0].geometry.name == "Narendra Modi’s"


def test_two_rings_about_one_named_place_stay_two_zones(world_train):
    # dronebelow:super-bowl-liii-2019: the rules reader reads the stadium's 30 NM ring and its 1 NM ring; a model that
    # read only the first, named "Mercedes-Benz Stadium", gets the rules reader's place for it, and the 1 NM ring
    # (the same place, another radius) is added, not taken for the one already drawn
    msg = [Message(0, next(r["text"] for r in read_world("train") if r["id"] == "dronebelow:super-bowl-liii-2019"))]
    def first(zones):
        return [dict(zones[0], name="Mercedes-Benz Stadium")]
    recs, _ = process_batch(msg, _reader(first))
    assert [(r.engine, r.geometry.name, r.geometry.radius_m) for r in recs] == [
        ("test-engine", "Mercedes-Benz Stadium in Atlanta", 55560.0), ("rules", "Mercedes-Benz Stadium in Atlanta", 1852.0)]
    assert RULES_ONLY in recs[1].reasons


def test_each_ring_of_one_place_is_given_to_its_own_zone():
    # cartizzle:super-bowl-lvi: two rings about "the stadium" (30 NM, 1 NM); a model naming each with a piece of the
    # sentence gets the rules reader's place for each, each with its own ring
    msg = [Message(0, next(r["text"] for r in read_world("train") if r["id"] == "cartizzle:super-bowl-lvi"))]
    def pieces(zones):
        return [dict(zones[0], name="Super Bowl LVI"), dict(zones[1], name="California beginning at 2:30pm")]
    recs, _ = process_batch(msg, _reader(pieces))
    assert sorted((r.engine, r.geometry.name, r.geometry.radius_m) for r in recs) == [
        ("test-engine", "SoFi Stadium in Inglewood California", 1852.0),
        ("test-engine", "SoFi Stadium in Inglewood California", 55560.0)]
