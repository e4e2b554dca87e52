"""What the NOTAMs of one batch say about each other: replacements (NOTAMR), cancellations (NOTAMC), repeats.

A batch may hold a NOTAM and the message that replaces or cancels it (``A0130/26 NOTAMR A0129/26``,
``A0131/26 NOTAMC A0129/26``). Read one message at a time, A0129 would stay an active zone; ``link_batch`` reads the
batch's references as a graph, once the records are built:

- a record whose NOTAM another message of the batch replaces or cancels gets ``replaced_by`` / ``cancelled_by`` (the
  id that does it) and a note: it is no longer in force, so it is not active (``is_active``), whatever its times;
- a NOTAMR or NOTAMC naming its own id, or replacements that lead back to where they started (A replaces B, B
  replaces A), cannot be resolved: every record of such a message is ``review``, the chain named;
- the same NOTAM id in two messages is said on both: a note when they read alike (the same text twice, or two
  feeds' layouts of it), ``review`` when their zones, limits or times differ (which one is in force?).

A NOTAM is known by its id and the office that issued it (the Q-line's FIR, else item A)): series numbers repeat
from one office to the next. References to NOTAMs outside the batch are left as they are (``ref_id`` keeps them). Pure: the records are changed
in place, nothing is read from elsewhere.
"""

from __future__ import annotations

import re
from collections import defaultdict

from airspace.core.records import ZoneRecord
from airspace.parser.header import parse_header

__all__ = ["link_batch", "in_force"]


def _key(notam_id: str | None, office: str = "") -> str | None:
    """A NOTAM id as a key: blanks dropped, upper case (``A0129/26``, ``A 0129/26`` and ``a0129/26`` are one), with
    the office that issued it: an ICAO series number is unique only within one office's series (``A1116/26`` of
    DAAA and of WSJC are two NOTAMs)."""
    if not notam_id:
        return None
    k = re.sub(r"\s+", "", notam_id).upper()
    return f"{office}:{k}" if k else None


def _office(text: str) -> str:
    """Who issued a message: the FIR of its Q-line, else the first location of item A); '' where neither is
    stated (an FAA id names its location itself: ``BOS 01/502``)."""
    try:
        h = parse_header(text)
    except Exception:  # noqa: BLE001 - a header that cannot be read names no office
        return ""
    if h.qline is not None and h.qline.fir:
        return h.qline.fir.strip().upper()
    a = h.item("A")
    codes = re.findall(r"\b[A-Z]{4}\b", a.text) if a is not None else []
    return codes[0] if codes else ""


def in_force(rec: ZoneRecord) -> bool:
    """False when a message of the same batch replaced or cancelled this record's NOTAM."""
    return not (rec.replaced_by or rec.cancelled_by)


def link_batch(records: list[ZoneRecord]) -> list[ZoneRecord]:
    """Mark what the batch's NOTAMs replace, cancel or repeat (module doc); returns ``records``."""
    by_msg: dict[int, list[ZoneRecord]] = defaultdict(list)
    for r in records:
        if r.status != "error":  # (a message that could not be read says nothing about the others)
            by_msg[r.message].append(r)
    # one entry per message: (its id key, its type, its reference key)
    msgs: dict[int, tuple[str | None, str | None, str | None]] = {}
    for m, recs in by_msg.items():
        head = next((r for r in recs if r.id), recs[0])
        office = _office(head.text) if head.id else ""
        msgs[m] = (_key(head.id, office), head.notam_type, _key(head.ref_id, office))
    owners: dict[str, list[int]] = defaultdict(list)
    for m, (k, _, _) in msgs.items():
        if k is not None:
            owners[k].append(m)

    for ms in owners.values():
        if len(ms) < 2:
            continue
        texts = {by_msg[m][0].text.strip() for m in ms}
        readings = {_reading(by_msg[m]) for m in ms}
        where = ", ".join(str(m + 1) for m in ms)
        for m in ms:
            for r in by_msg[m]:
                if len(texts) == 1:
                    _note(r, f"note: NOTAM {by_msg[m][0].id} appears {len(ms)} times in this batch (messages {where}), "
                             "the same text each time")
                elif len(readings) == 1:
                    _note(r, f"note: NOTAM {by_msg[m][0].id} appears {len(ms)} times in this batch (messages {where}), "
                             "written differently, read alike")
                else:
                    r.review(f"NOTAM {by_msg[m][0].id} appears {len(ms)} times in this batch (messages {where}) with "
                             "different zones, limits or times: which one is in force is not known")

    for m, (k, typ, ref) in msgs.items():
        if typ not in ("R", "C") or ref is None:
            continue
        if ref == k:
            for r in by_msg[m]:
                r.review(f"NOTAM{typ} {r.id} names itself as the NOTAM it {'replaces' if typ == 'R' else 'cancels'}")
            continue
        cycle = _cycle(m, msgs, owners)
        if cycle is not None:
            chain = " -> ".join(cycle)
            for r in by_msg[m]:
                r.review(f"replacements in this batch go round in a circle ({chain}): which NOTAM is in force is not "
                         "known")
            continue
        this_id = by_msg[m][0].id
        for target in owners.get(ref, []):
            if target == m:
                continue
            for r in by_msg[target]:
                if typ == "R":
                    r.replaced_by = this_id
                    _note(r, f"note: replaced by NOTAM {this_id} (message {m + 1} of this batch): no longer in force")
                else:
                    r.cancelled_by = this_id
                    _note(r, f"note: cancelled by NOTAM {this_id} (message {m + 1} of this batch): no longer in force")
    return records


def _cycle(start: int, msgs: dict, owners: dict[str, list[int]]) -> list[str] | None:
    """The ids of a chain of replacements (R) or cancellations (C) from message ``start`` that comes back to it."""
    seen = [start]
    ids = [msgs[start][0] or "?"]
    cur = start
    for _ in range(len(msgs) + 1):
        _, typ, ref = msgs[cur]
        if typ not in ("R", "C") or ref is None or ref not in owners:
            return None
        nxt = owners[ref][0]
        if nxt == start:
            return ids + [ids[0]]
        if nxt in seen:
            return None  # a circle further on, not through this message: that message reports it
        seen.append(nxt)
        ids.append(msgs[nxt][0] or "?")
        cur = nxt
    return None


def _reading(recs: list[ZoneRecord]) -> str:
    """What a message's records say (zones, limits, times, schedule), to tell a repeat from a different NOTAM."""
    keep = {"geometry", "lower", "upper", "start", "end", "schedule", "permanent"}
    return repr([r.model_dump(mode="json", include=keep) for r in recs])


def _note(rec: ZoneRecord, note: str) -> None:
    if note not in rec.reasons:
        rec.reasons.append(note)
