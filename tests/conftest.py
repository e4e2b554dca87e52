"""Suite-wide set-up: Triton kernels run in interpreter mode on CPU, and tests share the real dev messages."""

import json
import os
from pathlib import Path

# Must be set before anything imports triton: on CPU the kernels run in the interpreter against their references.
os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402

REPO = Path(__file__).resolve().parents[1]


def _find_dev() -> Path | None:
    """../shared/real-notams/dev.jsonl beside the checkout (CI lays shared/ beside its clone)."""
    for base in (REPO.parent, REPO.parent.parent, Path("/work")):
        p = base / "shared" / "real-notams" / "dev.jsonl"
        if p.exists():
            return p
    return None


DEV_PATH = _find_dev()


@pytest.fixture(scope="session")
def dev_rows() -> list[dict]:
    """The 25 real messages of the development set."""
    if DEV_PATH is None:
        pytest.fail("shared/real-notams/dev.jsonl not found beside the checkout")
    return [json.loads(line) for line in DEV_PATH.read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def dev_by_id(dev_rows) -> dict[str, dict]:
    return {row["id"]: row for row in dev_rows}
