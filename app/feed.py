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
    # what the batch's NOTAMR / NOTAMC take off the map is the pipeline's reading of the batch as a graph
    # (``pipeline.notam_graph``: ids keyed by issuing office, cycles and self-references ``review``)
    gone: dict[str, str] = {}
    acted: set[str] = set()
    for r in records:
        by = r.cancelled_by or r.replaced_by
        if by:
            gone[record_key(r)] = f"{'cancelled' if r.cancelled_by else 'replaced'} by {by}"
            acted.add(_norm_id(by))
    refs: dict[str, str] = {}
    for r in records:
        if r.notam_type in ("C", "R") and r.ref_id and r.status != "error":
            verb = "cancels" if r.notam_type == "C" else "replaces"
            where = ": removed from the map" if _norm_id(r.id) in acted else ", not in this batch"
            refs[record_key(r)] = f"{verb} {r.ref_id}{where}"
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
