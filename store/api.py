"""The calls the dashboard makes on the store (the page itself lives in ``app/``): what is in force at T, what a
batch would change before it is committed, committing it, and an operator's review decision.

Every function takes the store (``open_store(url)``) so the page decides which one, and returns plain data: records
(``ZoneRecord``, as the page draws them today) with their store metadata.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime

from airspace.core.records import ZoneRecord
from airspace.pipeline.engines import DEFAULT_ENGINE
from airspace.store.base import Applied, Preview, StoredZone, ZoneStore
from airspace.store.ingest import ingest_text, preview_text

__all__ = ["current_picture", "preview_batch", "preview_records", "commit_batch", "store_decision", "BatchPreview"]


def current_picture(store: ZoneStore, at: datetime, *, until: datetime | None = None,
                    bbox: tuple[float, float, float, float] | None = None) -> list[StoredZone]:
    """The zones in force at ``at`` (or during ``[at, until)``), optionally within a box (west, south, east, north):
    the page opens on this. ``[z.record for z in …]`` are the records the map and tables draw."""
    return store.picture(at, until=until, bbox=bbox)


@dataclass
class BatchPreview:
    """A pasted batch read and compared with the store: ``records`` as the page shows a Run today, ``preview``
    (adds / replaces / cancels / held / duplicates) for the operator to confirm before ``commit_batch``."""

    records: list[ZoneRecord]
    preview: Preview


def preview_batch(store: ZoneStore, text: str, *, engine: str = DEFAULT_ENGINE) -> BatchPreview:
    """Read a batch and say what it would add, replace and cancel; nothing is written."""
    p, records = preview_text(store, text, engine=engine)
    return BatchPreview(records=records, preview=p)


def preview_records(store: ZoneStore, records: list[ZoneRecord]) -> Preview:
    """What committing records the page has already read would add, replace and cancel; nothing is written (the
    page previews the records of its Run, so what it commits is exactly what the operator saw)."""
    return store.preview(records)


def commit_batch(store: ZoneStore, records: list[ZoneRecord], *, operator: str, source: str = "paste") -> Applied:
    """Apply the records the operator saw in the preview (no second reading: what was previewed is stored)."""
    return store.ingest_records(records, source=source, operator=operator)


def store_decision(store: ZoneStore, key: str, zone: int, decision: str, *, operator: str, note: str = "") -> None:
    """Keep an operator's review decision (e.g. ``accepted``, ``rejected``) with the zone's current record; it is in
    the history and comes back on the zone (``StoredZone.decision``)."""
    store.decide(key, zone, decision, operator=operator, note=note)


def ingest_pasted(store: ZoneStore, text: str, *, operator: str, engine: str = DEFAULT_ENGINE) -> Applied:
    """Read and apply a pasted batch in one step (no preview)."""
    applied, _ = ingest_text(store, text, engine=engine, operator=operator)
    return applied
