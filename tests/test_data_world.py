"""The world set's split by source: whole sources in one split, the sizes the yardstick needs, provenance on
every row."""

from __future__ import annotations

import json
import re
from collections import Counter, defaultdict

import pytest

from airspace.data.paths import archive_path, dev_set_path
from airspace.data.world import SCORED_PER_SOURCE, read_world, scored_rows, split_of


@pytest.fixture(scope="module")
def rows():
    return read_world()


def test_a_source_lies_in_one_split_and_the_rule_is_the_seeded_hash(rows):
    splits = defaultdict(set)
    for r in rows:
        splits[r["source_key"]].add(r["split"])
    assert all(len(s) == 1 for s in splits.values())
    assert split_of("l-four-notam-parser") == "test" and split_of("ngageoint-marlin-ios") == "val"


def test_the_held_out_sources_carry_at_least_200_scored_messages_with_truth_from_15_sources(rows):
    test = [r for r in scored_rows("test") if r.get("truth")]
    assert len(test) >= 200 and len({r["source_key"] for r in test}) >= 15
    assert Counter(r["split"] for r in rows)["val"] > 0


def test_a_score_counts_each_source_with_at_most_its_first_rows_in_file_order(rows):
    kept = scored_rows("test")
    per_source = Counter(r["source_key"] for r in kept)
    assert max(per_source.values()) == SCORED_PER_SOURCE  # the largest feed is cut, not left to dominate
    every = [r for r in rows if r["split"] == "test"]
    for key, n in per_source.items():
        assert [r["id"] for r in kept if r["source_key"] == key] == [
            r["id"] for r in every if r["source_key"] == key][:n]


def test_every_row_names_its_source_and_ids_are_unique(rows):
    assert len({r["id"] for r in rows}) == len(rows)
    for r in rows:
        assert r["text"].strip() and r["source_key"] and r["kind"] and r["language"]
        assert re.match(r"^(https?://\S+|[\w.-]+/[\w.-]+:\S+@[0-9a-f]{40})$", r["source"]), r["source"]


def test_no_world_row_repeats_a_message_of_the_feeds_it_must_be_independent_of(rows):
    def squash(t):
        return " ".join(t.split())

    feeds = "\n".join(squash(json.loads(line)["text"]) for p in (archive_path(), dev_set_path())
                      for line in p.read_text(encoding="utf-8").splitlines() if line.strip())
    assert not [r["id"] for r in rows if len(squash(r["text"])) > 60 and squash(r["text"]) in feeds]
