"""Inputs to the store: pasted text, files (text, JSONL, FAA NOTAM API responses, AIXM 5.1 Digital NOTAM events)
and a watched folder. Every message goes through the pipeline (``process_batch``) as the CLI and the page read it;
a feed's own geometry is cross-checked against the reading (``crosscheck``); then the store applies the batch.

``read_file`` never loses a file silently: a file that cannot be read becomes one ``error`` record naming it (a
message the store keeps under its own fingerprint, so the operator sees it), and the rest of the batch goes on.
"""

from __future__ import annotations

import os
import time
from dataclasses import dataclass, field
from pathlib import Path

from airspace.core.records import ZoneRecord
from airspace.pipeline.batch import process_batch
from airspace.pipeline.engines import DEFAULT_ENGINE
from airspace.pipeline.split import MAX_BATCH_BYTES, Message, read_jsonl, split_batch
from airspace.store.base import Applied, Preview, ZoneStore
from airspace.store.crosscheck import crosscheck
from airspace.store.feeds import FeedError, read_feed


@dataclass
class Batch:
    """Messages ready for the pipeline, with the feed area of each where the feed gave one."""

    messages: list[Message] = field(default_factory=list)
    areas: dict[int, object] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)  # files that could not be read, and why

    def add(self, text: str, area=None, error: str | None = None, received=None) -> None:
        i = len(self.messages)
        self.messages.append(Message(index=i, text=text, error=error, received=received))
        if area is not None:
            self.areas[i] = area

    def extend_text(self, text: str) -> None:
        for m in split_batch(text):
            self.add(m.text, error=m.error)


def read_file(path: str | os.PathLike, batch: Batch | None = None) -> Batch:
    """Add one file's messages to ``batch`` (a new one when None)."""
    batch = batch if batch is not None else Batch()
    p = Path(path)
    try:
        data = p.read_bytes()
    except OSError as exc:
        batch.problems.append(f"{p}: cannot read ({exc.strerror or exc})")
        return batch
    if len(data) > MAX_BATCH_BYTES:
        batch.problems.append(f"{p}: {len(data)} bytes, over the limit of {MAX_BATCH_BYTES}; split it")
        return batch
    try:
        feed = read_feed(data)
    except FeedError as exc:
        batch.problems.append(f"{p}: {exc}")
        return batch
    if feed is not None:
        for fm in feed:
            batch.add(fm.text, fm.area)
        return batch
    text = data.decode("utf-8", errors="replace")
    try:
        if p.suffix.lower() == ".jsonl":
            for m in read_jsonl(text):
                batch.add(m.text, error=m.error, received=m.received)  # (a line's day: its yearless dates' year)
        else:
            batch.extend_text(text)
    except ValueError as exc:
        batch.problems.append(f"{p}: {exc}")
    return batch


def read_records(batch: Batch, *, engine: str = DEFAULT_ENGINE) -> list[ZoneRecord]:
    """The batch through the pipeline, each message with a feed area cross-checked against it."""
    if not batch.messages:
        return []
    records, _ = process_batch(batch.messages, engine=engine)
    by_msg: dict[int, list[ZoneRecord]] = {}
    for r in records:
        by_msg.setdefault(r.message, []).append(r)
    for i, area in batch.areas.items():
        crosscheck(by_msg.get(i, []), area)
    return records


def ingest_files(store: ZoneStore, paths: list[str], *, engine: str = DEFAULT_ENGINE, operator: str | None = None,
                 source: str | None = None) -> tuple[Applied, list[ZoneRecord], list[str]]:
    """Read, parse and apply files as one batch. Returns what was applied, the records and the unreadable files."""
    batch = Batch()
    for path in paths:
        read_file(path, batch)
    records = read_records(batch, engine=engine)
    applied = store.ingest_records(records, source=source or ",".join(os.path.basename(p) for p in paths)[:500],
                                   operator=operator)
    return applied, records, batch.problems


def ingest_text(store: ZoneStore, text: str, *, engine: str = DEFAULT_ENGINE, operator: str | None = None,
                source: str = "paste") -> tuple[Applied, list[ZoneRecord]]:
    batch = Batch()
    batch.extend_text(text)
    records = read_records(batch, engine=engine)
    return store.ingest_records(records, source=source, operator=operator), records


def preview_text(store: ZoneStore, text: str, *, engine: str = DEFAULT_ENGINE) -> tuple[Preview, list[ZoneRecord]]:
    batch = Batch()
    batch.extend_text(text)
    records = read_records(batch, engine=engine)
    return store.preview(records), records


class Watcher:
    """A folder the store follows: every new or changed file in it is ingested (polled; ``poll`` once, or ``run``).

    A file is taken when its size and modification time have stayed the same over one poll (a feed still writing
    it is left for the next). Re-reading a file is harmless — ingest is idempotent — so a restart simply reads the
    folder again."""

    def __init__(self, store: ZoneStore, folder: str | os.PathLike, *, engine: str = DEFAULT_ENGINE,
                 operator: str | None = None):
        self.store, self.folder, self.engine, self.operator = store, Path(folder), engine, operator
        self._seen: dict[str, tuple[int, int]] = {}
        self._pending: dict[str, tuple[int, int]] = {}

    def poll(self) -> list[tuple[str, Applied, list[str]]]:
        done = []
        for p in sorted(self.folder.iterdir()) if self.folder.is_dir() else []:
            if not p.is_file() or p.name.startswith("."):
                continue
            st = p.stat()
            sig = (st.st_size, st.st_mtime_ns)
            if self._seen.get(p.name) == sig:
                continue
            if self._pending.get(p.name) != sig:
                self._pending[p.name] = sig  # first sight (or still changing): taken at the next poll
                continue
            applied, _, problems = ingest_files(self.store, [str(p)], engine=self.engine, operator=self.operator,
                                                source=f"watch:{p.name}")
            self._seen[p.name] = sig
            self._pending.pop(p.name, None)
            done.append((p.name, applied, problems))
        return done

    def run(self, interval_s: float = 5.0, *, rounds: int | None = None) -> None:
        n = 0
        while rounds is None or n < rounds:
            self.poll()
            n += 1
            time.sleep(interval_s)
