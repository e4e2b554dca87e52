"""A batch read as a feed: a NOTAMC removes the zone it cancels, a NOTAMR the zone it replaces, and identical zones
(the same NOTAM pasted or received again) are one zone with a count. No Streamlit in here.

Cancellations and replacements apply whatever the order of the messages in the batch (a feed is not always in
order). Nothing is lost: every record stays in the records table and the exports; what the feed removes from the
map is listed with what removed it ("cancelled by A2190/26", "replaced by A2191/26")."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from airspace.app.tables import record_key, record_signature
from airspace.core.records import ZoneRecord


def _norm_id(s: str | None) -> str:
    return "".join((s or "").split()).upper()


@dataclass(frozen=True)
class FeedView:
    """``live``: the records the map shows (cancelled and replaced ones removed, copies merged into the first);
    ``gone``: key -> why a record is not on the map as a zone of its own ("cancelled by X", "replaced by X",
    "copy of X"); ``copies``: key of a kept record -> how many identical records it stands for (>= 2);
    ``refs``: key of a NOTAMC/R -> what it did on this page."""

    live: list[ZoneRecord] = field(default_factory=list)
    gone: dict[str, str] = field(default_factory=dict)
    copies: dict[str, int] = field(default_factory=dict)
    refs: dict[str, str] = field(default_factory=dict)


def _label(r: ZoneRecord) -> str:
    return r.id or f"message {r.message + 1}"


def apply_feed(records: Sequence[ZoneRecord]) -> FeedView:
    by_id: dict[str, list[ZoneRecord]] = {}
    for r in records:
        if r.id:
            by_id.setdefault(_norm_id(r.id), []).append(r)
    gone: dict[str, str] = {}
    refs: dict[str, str] = {}
    for r in records:
        if r.notam_type not in ("C", "R") or r.status == "error":
            continue
        verb = "cancelled" if r.notam_type == "C" else "replaced"
        if not r.ref_id:
            continue
        targets = [t for t in by_id.get(_norm_id(r.ref_id), []) if t is not r and _norm_id(t.id) != _norm_id(r.id)]
        if targets:
            for t in targets:
                gone.setdefault(record_key(t), f"{verb} by {_label(r)}")
            refs[record_key(r)] = f"{'cancels' if verb == 'cancelled' else 'replaces'} {r.ref_id}: removed from the map"
        else:
            refs[record_key(r)] = f"{'cancels' if verb == 'cancelled' else 'replaces'} {r.ref_id}, not in this batch"
    first: dict[str, ZoneRecord] = {}
    copies: dict[str, int] = {}
    for r in records:
        k = record_key(r)
        if k in gone or r.status == "error":
            continue
        sig = repr((_norm_id(r.id), r.notam_type, r.ref_id, sorted(record_signature(r).items())))
        if sig in first:
            keep = record_key(first[sig])
            copies[keep] = copies.get(keep, 1) + 1
            gone[k] = f"copy of {_label(first[sig])} (message {first[sig].message + 1})"
        else:
            first[sig] = r
    live = [r for r in records if record_key(r) not in gone]
    return FeedView(live=live, gone=gone, copies=copies, refs=refs)
