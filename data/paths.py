"""Where the project's own data lies: everything the code, the tests and the benchmarks read is in the repository.

``data/real/`` holds the real messages (provenance in its README), ``data/standards/`` the published schemas the
exports are checked against. ``AIRSPACE_DEV_SET`` / ``AIRSPACE_ARCHIVE`` point a run at other files of the same form.
"""

from __future__ import annotations

import os
from pathlib import Path

DATA = Path(__file__).resolve().parent
REAL = DATA / "real"
ED318_SCHEMA = DATA / "standards" / "ED-318" / "schema"


def _env_path(var: str, default: Path) -> Path:
    env = os.environ.get(var, "").strip()
    if not env:
        return default
    if not Path(env).is_file():
        raise FileNotFoundError(f"{var}={env} is not a file")
    return Path(env)


def dev_set_path() -> Path:
    """The 25 real development messages (6 with hand-derived truth)."""
    return _env_path("AIRSPACE_DEV_SET", REAL / "dev.jsonl")


def archive_path() -> Path:
    """The real archive of 4,378 messages from two public feeds, without truth."""
    return _env_path("AIRSPACE_ARCHIVE", REAL / "archive.jsonl")
