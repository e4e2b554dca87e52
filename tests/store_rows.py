"""Real archive rows the store tests replay (``data/real/archive.jsonl``): a number is unique only with its issuer."""

from __future__ import annotations

import json

from airspace.data.paths import archive_path
from airspace.store.identity import issuer


def mmfr(number: str) -> str:
    """The text of Mexico FIR's (MMFR) NOTAM ``number`` in the archive."""
    for line in archive_path().read_text(encoding="utf-8").splitlines():
        row = json.loads(line)
        if row.get("id") == number and issuer(row["text"]) == "MMFR":
            return row["text"]
    raise AssertionError(number)
