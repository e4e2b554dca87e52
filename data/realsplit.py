"""The real archive's train / val / test split and the draw of the team's hand-checked test messages.

The split is by NOTAM id, so every version of one NOTAM (the feeds keep each revision) lands in the same split:
``sha256(f"{SEED}:{id}")`` read as a number in [0, 1) puts 80 % of ids in train, 10 % in val, 10 % in test. Nothing
from the test split, or derived from it, is ever trained on (``train_rows`` refuses nothing but only ever yields
train rows; the trainers take their real rows from it).

The hand-checked set is a seeded draw from the test split, one row per id, stratified by region so that FAA,
Europe, Russia, Asia, the Middle East, the Americas, Africa/other and the Chinese-area rows all appear
(``QUOTA``). It is a draw, not a choice: ``draw_test`` with the same archive and seed gives the same rows.

    python -m airspace.data.realsplit --archive data/real/archive.jsonl --out data/eval/drawn.jsonl
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
from pathlib import Path

SEED = 20261201
FRACTIONS = (("train", 0.8), ("val", 0.1), ("test", 0.1))
QUOTA = {"faa": 18, "europe": 30, "russia": 16, "asia": 24, "middle_east": 10, "americas": 12, "africa_other": 8,
         "chinese": 28}

_FAA = {"FAA", "USA", "Hawaii", "Alaska", "Puerto Rico", "Mariana Is."}
_RUSSIA = {"Russian Federation", "Belarus", "Kazakhstan", "Turkmenistan"}
_MIDDLE_EAST = {"United Arab Emirates", "Saudi Arabia", "Oman", "Qatar", "Iran (Islamic Republic of)", "Turkey",
                "Cyprus", "Egypt", "Afghanistan", "Pakistan"}
_AMERICAS = {"Canada", "Brazil", "Bahamas", "Netherlands Antilles", "French Guyana", "Trinidad and Tobago", "Uruguay",
             "Chile", "Peru", "Venezuela", "Colombia", "Mexico", "Guyana", "Aruba", "Costa Rica", "Nicaragua",
             "Barbados", "Honduras", "Belize", "Paraguay", "Turks and Caicos Islands", "French Antilles", "Greenland"}
_ASIA = {"SRI LANKA", "Republic of Korea", "Australia", "India", "Thailand", "Japan", "JAPAN", "New Zealand",
         "Singapore", "Indonesia", "French Polynesia", "Malaysia (Peninsular)", "Malaysia", "PHILIPPINES",
         "Philippines", "Bangladesh", "Lao People's Democratic Republic", "Viet Nam", "Fiji", "Papua New Guinea"}
_AFRICA_OTHER = {"Morocco", "Tunisia", "Angola", "Algeria", "Uganda", "Senegal", "South Africa", "Niger", "Congo",
                 "Gabon", "Somalia", "Madagascar", "Chad", "Comoros", "Cameroon", "Sudan", "Mauritania", "Eritrea",
                 "Reunion", "Global", "GLOBAL", "Maritime"}


def split_of(notam_id: str, seed: int = SEED) -> str:
    """'train' | 'val' | 'test' for a NOTAM id (every version of one NOTAM shares its id, hence its split)."""
    h = int.from_bytes(hashlib.sha256(f"{seed}:{notam_id}".encode()).digest()[:8], "big") / 2**64
    acc = 0.0
    for name, frac in FRACTIONS:
        acc += frac
        if h < acc:
            return name
    return FRACTIONS[-1][0]


def region_of(row: dict) -> str:
    """The stratum of an archive row: by its feed (the Chinese-area archive) or the country the feed names."""
    country = row.get("country")
    if row.get("source", "").startswith("Joey0609/") or country in ("China", "CHINA"):
        return "chinese"
    if country in _FAA:
        return "faa"
    if country in _RUSSIA:
        return "russia"
    if country in _MIDDLE_EAST:
        return "middle_east"
    if country in _AMERICAS:
        return "americas"
    if country in _ASIA:
        return "asia"
    if country in _AFRICA_OTHER or country is None:
        return "africa_other"
    return "europe"


def read_rows(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


def rows_of_split(rows: list[dict], split: str, seed: int = SEED) -> list[dict]:
    return [r for r in rows if split_of(r["id"], seed) == split]


def draw_test(rows: list[dict], seed: int = SEED, quota: dict[str, int] = QUOTA) -> list[dict]:
    """The seeded, stratified draw of test-split rows to hand-check (one row per NOTAM id)."""
    rng = random.Random(seed)
    by_region: dict[str, list[dict]] = {}
    seen: set[str] = set()
    for r in rows_of_split(rows, "test", seed):
        if r["id"] in seen:
            continue
        seen.add(r["id"])
        by_region.setdefault(region_of(r), []).append(r)
    out = []
    for region in sorted(quota):
        pool = sorted(by_region.get(region, []), key=lambda r: (r["id"], r["text"]))
        rng.shuffle(pool)
        out.extend(dict(r, region=region) for r in pool[: quota[region]])
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--archive", required=True)
    ap.add_argument("--out", required=True, help="JSONL of the drawn test rows (id, text, source, region, ...)")
    args = ap.parse_args(argv)
    rows = read_rows(args.archive)
    drawn = draw_test(rows)
    with open(args.out, "w", encoding="utf-8") as fh:
        for r in drawn:
            fh.write(json.dumps(r, ensure_ascii=False) + "\n")
    counts = {s: len(rows_of_split(rows, s)) for s, _ in FRACTIONS}
    print(f"archive {len(rows)} rows -> {counts}; drew {len(drawn)} test rows -> {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
