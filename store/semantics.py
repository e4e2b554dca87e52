"""Feed semantics, as a pure plan: what a batch of messages does to the picture, before anything is written.

- A message already seen (same fingerprint, ``identity.fingerprint``) changes nothing: ingest is idempotent. (A
  text that could not be read counts as seen only for another failed reading: its readable reading still applies.)
- A notice is in one of three states: ``active``, ``replaced`` (by a NOTAMR naming it) or ``cancelled`` (by a
  NOTAMC naming it). The state is a function of the *set* of notices the store holds, never of the order they
  came in: a NOTAMC (or NOTAMR) whose target has not arrived is simply held, and the target is cancelled (replaced)
  the moment it arrives. So the same messages in any order give the same picture.
- Only a cancellation, a replacement or the zone's own end takes a zone out of the picture. Nothing is removed
  because a batch is empty, failed, or lacks a notice: the plan has no "missing from this batch" rule at all.
- A NOTAMR whose text could not be read (every record an ``error``) does not take its target out: the target stays,
  flagged, until a readable text of the replacement arrives — a failed read must not delete a no-fly zone. For the
  same reason an unreadable text never overwrites a readable one of the same notice.
- The same notice number arriving again with a *different* text is a revision: the later text is kept and the
  history says so.

``plan`` reads the store only through a ``Lookup`` (three questions, each about a few keys); the backends answer
it inside their write lock, and ``preview`` answers it without writing.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Protocol

from airspace.core.records import ZoneRecord
from airspace.store.identity import MessageIdentity, identify

ACTIVE, REPLACED, CANCELLED = "active", "replaced", "cancelled"


@dataclass
class Incoming:
    """One message of a batch with its records (all records of one message share its text and header)."""

    ident: MessageIdentity
    records: list[ZoneRecord]
    text: str

    @property
    def readable(self) -> bool:
        return any(r.status != "error" for r in self.records)


@dataclass(frozen=True)
class Notice:
    """What the store knows of one notice (its current text)."""

    key: str
    digest: str
    number: str | None
    kind: str
    ref: str | None
    readable: bool
    state: str = ACTIVE
    by: str | None = None
    flag: str | None = None


@dataclass(frozen=True)
class Event:
    """One entry of the history: ``key`` changed (``event``) because message ``cause`` (a key) arrived."""

    key: str
    event: str  # received | revised | replaced | cancelled | held | restored | flagged | ignored
    cause: str
    cause_digest: str
    detail: dict = field(default_factory=dict)


class Lookup(Protocol):
    def known_digests(self, digests: list[str]) -> dict[str, bool]:
        """Which of these fingerprints the store has applied, and whether that text was readable."""
        ...

    def notices(self, keys: list[str]) -> dict[str, Notice]: ...

    def targeting(self, keys: list[str]) -> list[Notice]:
        """Every stored notice whose ``ref`` is one of ``keys``."""
        ...


@dataclass
class Plan:
    writes: list[Incoming]  # new notices and revisions, in arrival order (one per key: the last)
    states: dict[str, Notice]  # the resulting notice of every key whose row changes (written or state change)
    before: dict[str, Notice]  # the stored notice of those keys before the batch (absent: new)
    events: list[Event]
    duplicates: list[Incoming]
    ignored: list[tuple[Incoming, str]]


def incoming(records: Iterable[ZoneRecord]) -> list[Incoming]:
    """The batch's records grouped by message, in message order (``process_batch`` gives records so)."""
    groups: dict[int, list[ZoneRecord]] = defaultdict(list)
    order: list[int] = []
    for r in records:
        if r.message not in groups:
            order.append(r.message)
        groups[r.message].append(r)
    out = []
    for m in order:
        recs = groups[m]
        first = recs[0]
        text = first.text
        if not text.strip():
            continue  # an empty message (a batch that failed before any text): nothing to keep, nothing it says
        out.append(Incoming(ident=identify(text, first.id, first.notam_type, first.ref_id), records=recs, text=text))
    return out


def resolve(targeting: Iterable[Notice]) -> tuple[str, str | None, str | None]:
    """(state, by, flag) of a notice from the notices that name it (module doc)."""
    ts = sorted(targeting, key=lambda n: n.key)
    for n in ts:
        if n.kind == "C":
            return CANCELLED, n.key, None
    for n in ts:
        if n.kind == "R" and n.readable:
            return REPLACED, n.key, None
    unread = [n.key for n in ts if n.kind == "R"]
    if unread:
        return ACTIVE, None, (f"replaced by {unread[0]}, whose text could not be read: kept in the picture until a "
                              "readable text of it arrives")
    return ACTIVE, None, None


def plan(batch: list[Incoming], lookup: Lookup) -> Plan:
    known = lookup.known_digests(sorted({i.ident.digest for i in batch}))
    duplicates: list[Incoming] = []
    fresh: list[Incoming] = []
    for inc in batch:
        d = inc.ident.digest
        # a text that failed to read may be read again (a budget overrun, a failed engine): only a readable
        # text, or the same failure again, is a duplicate
        if d in known and (known[d] or not inc.readable):
            duplicates.append(inc)
        else:
            known[d] = inc.readable
            fresh.append(inc)
    keys = {i.ident.key for i in fresh}
    refs = {i.ident.ref for i in fresh if i.ident.ref}
    stored = lookup.notices(sorted(keys | refs))
    view: dict[str, Notice] = dict(stored)
    writes: dict[str, Incoming] = {}
    events: list[Event] = []
    ignored: list[tuple[Incoming, str]] = []
    for inc in fresh:
        idt = inc.ident
        old = view.get(idt.key)
        if old is not None and old.readable and not inc.readable:
            why = "an unreadable text of a notice already held readable: the readable text is kept"
            ignored.append((inc, why))
            events.append(Event(idt.key, "ignored", idt.key, idt.digest, {"why": why}))
            continue
        view[idt.key] = Notice(idt.key, idt.digest, idt.number, idt.kind, idt.ref, inc.readable,
                               old.state if old else ACTIVE, old.by if old else None, old.flag if old else None)
        writes.pop(idt.key, None)
        writes[idt.key] = inc
        events.append(Event(idt.key, "revised" if old is not None else "received", idt.key, idt.digest,
                            {"number": idt.number, "type": idt.kind, "ref": idt.ref, "readable": inc.readable,
                             "zones": sum(1 for r in inc.records if r.geometry is not None and r.status != "error"),
                             **({"previous": old.digest} if old is not None else {})}))
    # who names whom, the store's notices overlaid with the batch's
    # a revision may name another notice than its previous text did: the one it named before is resolved again
    affected = sorted(set(writes) | {n.ref for k, n in view.items() if k in writes and n.ref}
                      | {stored[k].ref for k in writes if k in stored and stored[k].ref})
    naming: dict[str, dict[str, Notice]] = defaultdict(dict)
    for n in lookup.targeting(affected):
        if n.key not in writes:
            naming[n.ref][n.key] = n  # type: ignore[index]
    for k in writes:
        n = view[k]
        if n.ref:
            naming[n.ref][k] = n
    states: dict[str, Notice] = {}
    for k in affected:
        cur = view.get(k)
        by_inc = writes.get(k)
        if cur is None:  # named by a NOTAMR/NOTAMC of this batch, not (yet) in the store: held
            for n in naming.get(k, {}).values():
                if n.key in writes:
                    events.append(Event(k, "held", n.key, n.digest,
                                        {"action": "cancel" if n.kind == "C" else "replace",
                                         "why": f"{k} is not in the store yet; applied when it arrives"}))
            continue
        state, by, flag = resolve(naming.get(k, {}).values())
        new = Notice(cur.key, cur.digest, cur.number, cur.kind, cur.ref, cur.readable, state, by, flag)
        if by_inc is not None or (new.state, new.by, new.flag) != (cur.state, cur.by, cur.flag):
            states[k] = new
            view[k] = new
        if (state, by) != (cur.state, cur.by):
            if by is not None and by in writes:
                c_key, c_digest, held = by, writes[by].ident.digest, False
            else:  # the target itself arrived after the notice that names it (a held cancellation/replacement)
                c_key, c_digest, held = k, new.digest, by is not None
            events.append(Event(k, state if state != ACTIVE else "restored", c_key, c_digest,
                                {"by": by, **({"held": True} if held else {})}))
        if flag and flag != cur.flag:
            events.append(Event(k, "flagged", k, new.digest, {"why": flag}))
    before = {k: stored[k] for k in states if k in stored}
    return Plan(writes=list(writes.values()), states=states, before=before, events=events, duplicates=duplicates,
                ignored=ignored)
