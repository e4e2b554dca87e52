"""Suite-wide set-up: Triton kernels run in interpreter mode on CPU, and tests share the real dev messages."""

import json
import os
from pathlib import Path

# Must be set before anything imports triton: on CPU the kernels run in the interpreter against their references.
# At interpreter exit nanobind prints "leaked N instances / types / functions" for triton's own C++ bindings
# (triton._C.libtriton: ir.builder, ir.attribute, ...): triton keeps module-level references to them that Python's
# shutdown does not release. They come from triton, not from this project, and cost nothing: the process is ending.
os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


SHARED = REPO.parent / "shared" / "real-notams"  # CI lays shared/ beside its clone, as the team's checkouts have it
DEV_PATH = SHARED / "dev.jsonl" if (SHARED / "dev.jsonl").exists() else None


@pytest.fixture(scope="session")
def dev_rows() -> list[dict]:
    """The 25 real messages of the development set."""
    if DEV_PATH is None:
        pytest.fail("shared/real-notams/dev.jsonl not found beside the checkout")
    return [json.loads(line) for line in DEV_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def dev_by_id(dev_rows) -> dict[str, dict]:
    return {row["id"]: row for row in dev_rows}


@pytest.fixture(scope="session")
def archive_path() -> Path:
    """The real archive (4,378 messages without truth)."""
    p = SHARED / "archive.jsonl"
    if not p.exists():
        pytest.fail("shared/real-notams/archive.jsonl not found beside the checkout")
    return p
