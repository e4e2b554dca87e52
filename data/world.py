"""The world set: real messages from many public sources beyond the two archive feeds (``data/real/world_*.jsonl``),
each with hand-derived truth for every zone, split **by source**.

A whole source (``source_key``: one publisher, feed or repository) lies in one split, drawn from a seeded hash of its
key, so a source never seen in training or in any choice is what the test measures. The rule is fixed before any
engine was scored on these rows and does not depend on what else is collected: a source added later falls into its
split by the same hash. ``test``: scored once per shipped change, never used to choose anything; ``val``: where
stages, means, decoding floors and thresholds are chosen; ``train``: may enter the training corpus and be read
while writing the rules reader's forms.
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

from airspace.data.paths import REAL

SPLIT_SALT = "clover-world-split-v1:"
SPLITS = ("train", "val", "test")
# A yardstick of the world, not of its largest feed: one capture of tfr.faa.gov holds 171 messages, so each source
# counts with at most its first SCORED_PER_SOURCE rows (file order) when a split is scored. Fixed with the split,
# before any engine was scored on the rows it keeps.
SCORED_PER_SOURCE = 25


def world_files() -> list[Path]:
    return sorted(REAL.glob("world_*.jsonl"))


def split_of(source_key: str) -> str:
    """70 % of the hash range is test, 15 % val, 15 % train."""
    h = int(hashlib.sha256((SPLIT_SALT + source_key).encode("utf-8")).hexdigest(), 16) % 100
    return "test" if h < 70 else "val" if h < 85 else "train"


def scored_rows(split: str) -> list[dict]:
    """The rows of ``split`` a score counts: each source's first ``SCORED_PER_SOURCE``."""
    seen: dict[str, int] = {}
    out = []
    for row in read_world(split):
        seen[row["source_key"]] = seen.get(row["source_key"], 0) + 1
        if seen[row["source_key"]] <= SCORED_PER_SOURCE:
            out.append(row)
    return out


def read_world(split: str | None = None) -> list[dict]:
    """Every world row in file order (or those of one split), each with its ``split``."""
    if split is not None and split not in SPLITS:
        raise ValueError(f"unknown split {split!r}; choose one of {', '.join(SPLITS)}")
    rows = []
    for path in world_files():
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                row["split"] = split_of(row["source_key"])
                if split is None or row["split"] == split:
                    rows.append(row)
    return rows
