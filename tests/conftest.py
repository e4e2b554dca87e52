"""Suite-wide set-up: Triton kernels run in interpreter mode on CPU, and tests share the real dev messages."""

import atexit
import json
import os
import shutil
import tempfile
from pathlib import Path

# Must be set before anything imports triton: on CPU the kernels run in the interpreter against their references.
# At interpreter exit nanobind prints "leaked N instances / types / functions" for triton's own C++ bindings
# (triton._C.libtriton: ir.builder, ir.attribute, ...): triton keeps module-level references to them that Python's
# shutdown does not release. They come from triton, not from this project, and cost nothing: the process is ending.
os.environ.setdefault("TRITON_INTERPRET", "1")

import pytest  # noqa: E402

# The dashboard opens on the zone store that AIRSPACE_STORE names, else on a file in the user's data directory: the
# suite points it at an empty store of its own (page tests that want one name theirs), so no test reads or writes
# an operator's real store. Browser tests' Streamlit servers inherit it.
_SUITE_STORE = tempfile.mkdtemp(prefix="airspace-test-store-")
os.environ["AIRSPACE_STORE"] = f"sqlite:///{_SUITE_STORE}/zones.sqlite"
atexit.register(shutil.rmtree, _SUITE_STORE, True)

REPO = Path(__file__).resolve().parents[1]


from airspace.data.paths import archive_path as _archive_path  # noqa: E402
from airspace.data.paths import dev_set_path  # noqa: E402


@pytest.fixture(scope="session")
def dev_rows() -> list[dict]:
    """The 25 real messages of the development set (data/real/dev.jsonl)."""
    return [json.loads(line) for line in dev_set_path().read_text(encoding="utf-8").splitlines() if line.strip()]


@pytest.fixture(scope="session")
def dev_by_id(dev_rows) -> dict[str, dict]:
    return {row["id"]: row for row in dev_rows}


@pytest.fixture(scope="session")
def archive_path() -> Path:
    """The real archive (data/real/archive.jsonl: 4,378 messages without truth)."""
    return _archive_path()
