"""What a clone costs and what a newcomer reads first stay small, and the results index matches its folder.

The bounds are the sizes measured on 2026-12-05 plus about a quarter: tracked files 27.2 MiB (two checkpoints of
7.9 MB, the offline basemap, the real archive), each `model.safetensors` 7.92 MB. A change that crosses one is a
decision to state (a bigger model, a new data file), not something to slip in. History is not counted here: it
already holds every earlier checkpoint version (README, "What a clone costs").
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
CHECKPOINTS = ROOT / "data" / "checkpoints"
RESULTS = ROOT / "docs" / "results"

TRACKED_BYTES_MAX = 34 * 2**20  # measured 28 527 969 bytes (27.2 MiB)
CHECKPOINT_BYTES_MAX = 10_000_000  # measured 7 922 592 (clover) and 7 912 576 (ar)
MODEL_CARD_LINES_MAX = 130  # the model card is a summary; the history is docs/experiments.md


def tracked_files() -> list[Path]:
    out = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, check=True, capture_output=True).stdout
    return [ROOT / name for name in out.decode("utf-8").split("\0") if name]


def test_tracked_files_stay_under_the_bound():
    files = tracked_files()
    assert len(files) > 100, "git ls-files listed almost nothing: not the repository"
    total = sum(p.lstat().st_size for p in files if p.exists() or p.is_symlink())
    assert total < TRACKED_BYTES_MAX, (
        f"tracked files are {total / 2**20:.1f} MiB, over the stated {TRACKED_BYTES_MAX / 2**20:.0f} MiB; "
        "largest: " + ", ".join(f"{p.relative_to(ROOT)} {p.stat().st_size / 1e6:.1f} MB" for p in sorted(
            (p for p in files if p.is_file()), key=lambda p: p.stat().st_size, reverse=True)[:5]))


def test_each_shipped_checkpoint_stays_under_the_bound():
    weights = sorted(CHECKPOINTS.glob("*/model.safetensors"))
    assert {p.parent.name for p in weights} >= {"clover", "ar"}
    for p in weights:
        size = p.stat().st_size
        assert size < CHECKPOINT_BYTES_MAX, f"{p.relative_to(ROOT)} is {size:,} bytes, over {CHECKPOINT_BYTES_MAX:,}"


def test_the_model_card_stays_short():
    lines = (CHECKPOINTS / "README.md").read_text(encoding="utf-8").splitlines()
    assert 20 < len(lines) < MODEL_CARD_LINES_MAX, f"data/checkpoints/README.md has {len(lines)} lines"


def listed_results(index: str) -> list[str]:
    """The file names in the first column of the index's table rows."""
    names: list[str] = []
    for line in index.splitlines():
        if line.startswith("| `"):
            names += re.findall(r"`([^`]+)`", line.split("|")[1])
    return names


def test_every_result_file_is_in_the_index_and_every_listed_file_exists():
    listed = listed_results((RESULTS / "README.md").read_text(encoding="utf-8"))
    present = {p.name for p in RESULTS.iterdir() if p.name != "README.md"}
    assert present, "docs/results/ is empty"
    assert len(listed) == len(set(listed)), f"listed twice: {sorted({n for n in listed if listed.count(n) > 1})}"
    assert all("/" not in name for name in listed), "the index lists files of its own folder by name"
    assert sorted(present - set(listed)) == [], "in docs/results/ but not in its README.md"
    assert sorted(set(listed) - present) == [], "in docs/results/README.md but not in the folder"


def test_listed_results_reads_the_first_column_only():
    index = ("| file | date | what | command |\n|---|---|---|---|\n"
             "| `a.json`, `b.txt` | 2026-12-05 | see `c.json` | `make bench` |\n"
             "Prose naming `d.json` is not a listing.\n")
    assert listed_results(index) == ["a.json", "b.txt"]
