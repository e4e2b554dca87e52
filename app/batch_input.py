"""What the page accepts as a batch: size limits, plain text or JSONL, uploaded files, the shipped samples.
No Streamlit in here, so each piece is tested directly."""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from datetime import datetime, timezone
from pathlib import Path

#: the page takes batches up to this many UTF-8 bytes (the CLI takes bigger ones); checked before any parsing
APP_MAX_BYTES = 1_000_000
#: messages per batch on the page
APP_MAX_MESSAGES = 2_000

SAMPLES_DIR = Path(__file__).resolve().parent.parent / "data" / "samples"
#: the shipped samples and the moment each one is written for (data/samples/README.md): a sample opens the map
#: at its demo time, any other batch at the present moment
SAMPLES = {
    "demo20": ("demo20.txt", datetime(2026, 11, 30, 2, 0, tzinfo=timezone.utc)),
    "composite5": ("composite5.txt", None),
}


class InputTooLarge(ValueError):
    """The batch is over what the page handles; the message says what to do."""


def check_input_size(text: str) -> None:
    """Raise ``InputTooLarge`` with a readable reason when the batch is over ``APP_MAX_BYTES``."""
    size = len(text.encode("utf-8", "surrogatepass"))
    if size > APP_MAX_BYTES:
        raise InputTooLarge(
            f"The batch is {size:,} bytes; this page takes at most {APP_MAX_BYTES:,} bytes. "
            "Split it, or run the CLI (`airspace-parse FILE`) which takes larger batches."
        )


def is_jsonl(text: str) -> bool:
    """True when every non-blank line is a JSON object (a JSONL batch with ``text`` fields), else plain text."""
    lines = [ln for ln in text.splitlines() if ln.strip()]
    if not lines:
        return False
    for ln in lines[:50]:
        s = ln.strip()
        if not (s.startswith("{") and s.endswith("}")):
            return False
        try:
            json.loads(s)
        except (json.JSONDecodeError, ValueError):  # ValueError: an integer over Python's digit limit
            return False
    return True


def decode_upload(name: str, data: bytes) -> str:
    """An uploaded file as text (UTF-8, BOM tolerated); a clear error for anything that is not text."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{name}: not UTF-8 text (byte {exc.start}); upload plain text or JSONL") from exc


def join_uploads(texts: Sequence[str]) -> str:
    """Several uploads as one batch: text files separated by blank lines; JSONL files concatenated line-wise."""
    if texts and all(is_jsonl(t) for t in texts):
        return "\n".join(t.strip("\n") for t in texts)
    return "\n\n".join(t.strip("\n") for t in texts)


def upload_signature(files: Sequence[tuple[str, bytes]]) -> str:
    """Which files are attached (names and contents), so a file is loaded into the text area once, when it is
    attached, and text pasted afterwards is kept."""
    h = hashlib.sha256()
    for name, data in files:
        h.update(name.encode("utf-8", "surrogatepass") + b"\0" + hashlib.sha256(data).digest())
    return h.hexdigest()


def sample_text(name: str) -> str | None:
    path = SAMPLES_DIR / SAMPLES[name][0]
    return path.read_text(encoding="utf-8") if path.is_file() else None


def demo_time(text: str) -> datetime | None:
    """The demo time of a shipped sample when ``text`` is that sample unchanged, else None."""
    for name, (_, t) in SAMPLES.items():
        if t is not None and text.strip() and text == sample_text(name):
            return t
    return None


def live_messages(text: str) -> list:
    """The messages of a batch an engine actually reads (split or JSONL; error messages left out), in order."""
    from airspace.pipeline.split import read_jsonl, split_batch

    msgs = read_jsonl(text) if is_jsonl(text) else split_batch(text)
    return [m for m in msgs if not m.error]
