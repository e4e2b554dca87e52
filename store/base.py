"""The zone store's one interface, and the SQL both backends share.

``ZoneStore``: ``ingest_records`` (a batch's records, grouped by message), ``apply_message`` (one message's
records), ``preview`` (what a batch would add, replace and cancel; nothing written), ``picture`` (the zones in
force at ``T`` or in a window, in a bounding box), ``route_conflicts`` (the 4D route check over the picture),
``history`` (every change of a notice, with its cause), ``decide`` (an operator's review decision, kept with the
record), ``expire``.

Writes are serialised: a batch is planned (``semantics.plan``) and written inside one transaction that holds the
store's write lock (SQLite ``BEGIN IMMEDIATE``; PostgreSQL an advisory transaction lock), so two writers — threads
or processes — never plan from the same stale state and nothing is lost. Readers never wait for writers.

Tables (both backends): ``notices`` (one row per notice: its current text's fingerprint, type, the key it names,
state), ``messages`` (every fingerprint applied: idempotence), ``zones`` (every record of every version: the record
JSON with its spans, status and reasons, the footprint, ``live`` while its notice is active and this is its current
text), ``windows`` (each zone's active windows, indexed), ``history``, ``decisions``. The spatial index is the
backend's: an R*Tree over (lon, lat, time) boxes of live zones (SQLite), a GiST index on the geometry (PostGIS).
"""

from __future__ import annotations

import json
import math
import time
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import numpy as np
import shapely
from shapely.geometry import LineString, Point, box

from airspace.core.records import ZoneRecord
from airspace.geo.conflicts import Conflict, Route
from airspace.geo.conflicts import route_conflicts as _route_conflicts
from airspace.geo.volumes import GEOD
from airspace.store import semantics
from airspace.store.semantics import ACTIVE, Incoming, Notice, Plan
from airspace.store.shapes import OPEN, as_of, epoch, footprints, from_epoch, in_picture, volume_of

CHUNK = 500  # keys per IN (…) list


@dataclass
class StoredZone:
    """A zone of the picture: the record as the reader produced it (spans, status, reasons) and its place in the
    store (the notice key, when and from where it came, the operator's decision)."""

    zid: int
    key: str
    record: ZoneRecord
    received_at: datetime
    source: str | None
    operator: str | None
    decision: dict | None = None
    notes: list[str] = field(default_factory=list)

    def to_json(self) -> dict:
        d = self.record.to_json()
        d["store"] = {"key": self.key, "received_at": self.received_at.strftime("%Y-%m-%dT%H:%M:%SZ"),
                      "source": self.source, "operator": self.operator, "decision": self.decision,
                      "notes": self.notes}
        return d


@dataclass
class Preview:
    """What a batch would do, before it is committed."""

    adds: list[ZoneRecord]  # zones that would enter the picture
    replaces: list[tuple[str, str]]  # (stored key taken out, key of the NOTAMR)
    cancels: list[tuple[str, str]]  # (stored key taken out, key of the NOTAMC)
    held: list[tuple[str, str]]  # (key named but not in the store, key naming it)
    revisions: list[str]
    duplicates: list[str]  # keys of messages already in the store
    ignored: list[tuple[str, str]]  # (key, why)
    kept_flagged: list[tuple[str, str]]  # (key, why it stays although named by a NOTAMR)

    @property
    def empty(self) -> bool:
        return not (self.adds or self.replaces or self.cancels or self.held or self.revisions or self.kept_flagged)


@dataclass
class Applied:
    """What a committed batch did."""

    messages: int
    written: int
    duplicates: int
    ignored: int
    events: list[semantics.Event]


def _chunks(xs: list, n: int = CHUNK) -> Iterator[list]:
    for i in range(0, len(xs), n):
        yield xs[i : i + n]


def _marks(n: int) -> str:
    return ",".join("?" * n)


def _notice(row) -> Notice:
    key, digest, number, kind, ref, readable, state, by, flag = row
    return Notice(key, digest, number, kind, ref, bool(readable), state, by, flag)


_NOTICE_COLS = "key, digest, number, kind, ref, readable, state, by_key, flag"


class ZoneStore:
    """The shared logic over a DB-API connection; a backend supplies the connection, the lock, the DDL and the
    spatial index (the ``_spatial_*`` methods). SQL is written with ``?``; a backend whose driver wants ``%s``
    converts it in ``_x``."""

    url: str
    last_route_timing: dict = {}  # the last route check's time by step (seconds) and its candidate count

    # ---- backend hooks ----------------------------------------------------------------------------------------
    @contextmanager
    def _write(self) -> Iterator[object]:  # a cursor inside a transaction holding the write lock
        raise NotImplementedError

    @contextmanager
    def _read(self) -> Iterator[object]:
        raise NotImplementedError

    def _x(self, cur, sql: str, params=()) -> object:
        return cur.execute(sql, params)

    def _xm(self, cur, sql: str, rows: list) -> None:
        cur.executemany(sql, rows)

    def _spatial_add(self, cur, rows: list[tuple]) -> None:
        """Index live zones: rows of (zid, wkb, west, east, south, north, t0, t1)."""
        raise NotImplementedError

    def _spatial_drop(self, cur, zids: list[int]) -> None:
        raise NotImplementedError

    def _spatial_find(self, cur, boxes: list[tuple[float, float, float, float]], t0: float, t1: float) -> list:
        """(zid, key, digest, record JSON, wkb, received_at, source, operator, flag) of live zones whose box meets
        one of ``boxes`` (west, south, east, north) and whose time envelope meets [t0, t1)."""
        raise NotImplementedError

    def close(self) -> None:
        raise NotImplementedError

    # ---- the lookup that semantics.plan reads -----------------------------------------------------------------
    class _Lookup:
        def __init__(self, store: ZoneStore, cur):
            self.s, self.cur = store, cur

        def known_digests(self, digests: list[str]) -> dict[str, bool]:
            out: dict[str, bool] = {}
            for part in _chunks(digests):
                rows = self.s._x(self.cur, f"SELECT digest, readable FROM messages WHERE digest IN "
                                           f"({_marks(len(part))})", part).fetchall()
                out.update((r[0], bool(r[1])) for r in rows)
            return out

        def notices(self, keys: list[str]) -> dict[str, Notice]:
            out: dict[str, Notice] = {}
            for part in _chunks(keys):
                for row in self.s._x(self.cur, f"SELECT {_NOTICE_COLS} FROM notices WHERE key IN "
                                               f"({_marks(len(part))})", part).fetchall():
                    out[row[0]] = _notice(row)
            return out

        def targeting(self, keys: list[str]) -> list[Notice]:
            out: list[Notice] = []
            for part in _chunks(keys):
                out.extend(_notice(r) for r in self.s._x(
                    self.cur, f"SELECT {_NOTICE_COLS} FROM notices WHERE ref IN ({_marks(len(part))})",
                    part).fetchall())
            return out

    # ---- writing ------------------------------------------------------------------------------------------
    def ingest_records(self, records: Iterable[ZoneRecord], *, source: str | None = None,
                       operator: str | None = None, now: datetime | None = None) -> Applied:
        """Apply a batch (``process_batch``'s records). An empty batch, or one of error records only, removes
        nothing (``semantics``)."""
        batch = semantics.incoming(records)
        if not batch:
            return Applied(0, 0, 0, 0, [])
        at = epoch(now) if now is not None else time.time()
        with self._write() as cur:
            p = semantics.plan(batch, self._Lookup(self, cur))
            self._commit_plan(cur, p, at, source, operator)
        return Applied(len(batch), len(p.writes), len(p.duplicates), len(p.ignored), p.events)

    def apply_message(self, records: list[ZoneRecord], **kw) -> Applied:
        """One message's records (all of one ``message`` index)."""
        return self.ingest_records(records, **kw)

    def _commit_plan(self, cur, p: Plan, at: float, source: str | None, operator: str | None) -> None:
        x = self._x
        written = {inc.ident.key: inc for inc in p.writes}
        fresh = [(inc.ident.digest, inc.ident.key, int(inc.readable), at) for inc in p.writes]
        fresh += [(inc.ident.digest, inc.ident.key, int(inc.readable), at) for inc, _ in p.ignored]
        self._xm(cur, "INSERT INTO messages (digest, key, readable, received_at) VALUES (?, ?, ?, ?) ON CONFLICT "
                      "(digest) DO UPDATE SET readable = excluded.readable", fresh)
        # notices: new and revised rows, and state changes of stored ones
        rows = []
        for k, n in p.states.items():
            rows.append((k, n.digest, n.number, n.kind, n.ref, int(n.readable), n.state, n.by, n.flag, at,
                         source if k in written else None, operator if k in written else None))
        self._xm(cur, "INSERT INTO notices (key, digest, number, kind, ref, readable, state, by_key, flag, "
                      "received_at, source, operator) VALUES (?,?,?,?,?,?,?,?,?,?,?,?) ON CONFLICT (key) DO UPDATE "
                      "SET digest=excluded.digest, number=excluded.number, kind=excluded.kind, ref=excluded.ref, "
                      "readable=excluded.readable, state=excluded.state, by_key=excluded.by_key, flag=excluded.flag, "
                      "received_at=CASE WHEN excluded.source IS NULL AND excluded.operator IS NULL "
                      "AND notices.digest = excluded.digest THEN notices.received_at ELSE excluded.received_at END, "
                      "source=COALESCE(excluded.source, notices.source), "
                      "operator=COALESCE(excluded.operator, notices.operator)", rows)
        # zones going out of the picture: the previous text of a revised notice, and notices no longer active
        out_keys = [k for k, n in p.states.items() if k in p.before and (k in written or n.state != ACTIVE)]
        drop: list[int] = []
        for part in _chunks(out_keys):
            drop += [r[0] for r in x(cur, f"SELECT zid FROM zones WHERE live = 1 AND key IN ({_marks(len(part))})",
                                     part).fetchall()]
        if drop:
            for part in _chunks(drop):
                x(cur, f"UPDATE zones SET live = 0 WHERE zid IN ({_marks(len(part))})", part)
            self._spatial_drop(cur, drop)
        # zones coming back into the picture: a stored notice active again (its current text)
        back = [k for k, n in p.states.items() if k in p.before and k not in written and n.state == ACTIVE
                and p.before[k].state != ACTIVE]
        revive = []
        for part in _chunks(back):
            revive += x(cur, f"SELECT zones.zid, zones.minx, zones.maxx, zones.miny, zones.maxy, zones.t0, zones.t1, "
                             f"zones.shaped FROM zones JOIN notices ON notices.key = zones.key AND notices.digest = "
                             f"zones.digest WHERE zones.in_pic = 1 AND zones.key IN ({_marks(len(part))})",
                        part).fetchall()
        if revive:
            for part in _chunks([r[0] for r in revive]):
                x(cur, f"UPDATE zones SET live = 1 WHERE zid IN ({_marks(len(part))})", part)
            self._spatial_add(cur, [(r[0], None, r[1], r[2], r[3], r[4], r[5], r[6]) for r in revive if r[7]])
        # the new texts' zones
        zid = (x(cur, "SELECT COALESCE(MAX(zid), 0) FROM zones").fetchone()[0] or 0) + 1
        zrows, wrows, srows = [], [], []
        fps = iter(footprints([rec for inc in written.values() for rec in inc.records]))
        for k, inc in written.items():
            live_notice = p.states[k].state == ACTIVE
            for rec in inc.records:
                pic = in_picture(rec)
                fp = next(fps)
                live = int(pic and live_notice)
                b = fp.bounds or (None, None, None, None)
                zrows.append((zid, k, inc.ident.digest, rec.zone, live, int(pic), int(fp.shape is not None),
                              b[0], b[2], b[1], b[3], fp.t0, fp.t1, fp.est_end, rec.model_dump_json(), fp.wkb))
                wrows.extend((zid, a, e) for a, e in fp.windows)
                if live and fp.shape is not None:
                    srows.append((zid, fp.wkb, b[0], b[2], b[1], b[3], fp.t0, fp.t1))
                zid += 1
        self._insert_zones(cur, zrows)
        self._xm(cur, "INSERT INTO windows (zid, t0, t1) VALUES (?, ?, ?)", wrows)
        self._spatial_add(cur, srows)
        hist = [(at, e.key, e.event, e.cause, e.cause_digest, operator, source, json.dumps(e.detail))
                for e in p.events]
        self._xm(cur, "INSERT INTO history (at, key, event, cause, cause_digest, operator, source, detail) "
                      "VALUES (?, ?, ?, ?, ?, ?, ?, ?)", hist)

    def _insert_zones(self, cur, rows: list[tuple]) -> None:
        self._xm(cur, "INSERT INTO zones (zid, key, digest, zone, live, in_pic, shaped, minx, maxx, miny, maxy, t0, "
                      "t1, est_end, record, geom) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)

    def preview(self, records: Iterable[ZoneRecord]) -> Preview:
        """What ``ingest_records`` would do with this batch now; nothing is written."""
        batch = semantics.incoming(records)
        with self._read() as cur:
            p = semantics.plan(batch, self._Lookup(self, cur))
        adds, replaces, cancels, held, kept = [], [], [], [], []
        for inc in p.writes:
            if p.states[inc.ident.key].state == ACTIVE:
                adds.extend(r for r in inc.records if in_picture(r))
        for k, n in p.states.items():
            was = p.before.get(k)
            if was is not None and was.state == ACTIVE and n.state != ACTIVE:
                (cancels if n.state == semantics.CANCELLED else replaces).append((k, n.by or ""))
            if n.flag and (was is None or was.flag != n.flag):
                kept.append((k, n.flag))
        for e in p.events:
            if e.event == "held":
                held.append((e.key, e.cause))
        return Preview(adds=adds, replaces=replaces, cancels=cancels, held=held,
                       revisions=[e.key for e in p.events if e.event == "revised"],
                       duplicates=[i.ident.key for i in p.duplicates],
                       ignored=[(i.ident.key, why) for i, why in p.ignored], kept_flagged=kept)

    def decide(self, key: str, zone: int, decision: str, *, operator: str, note: str = "",
               now: datetime | None = None) -> None:
        """Keep an operator's review decision (``accepted``/``rejected``/any word) with the zone's current record."""
        if not decision or not operator:
            raise ValueError("a decision and the operator who took it are required")
        at = epoch(now) if now is not None else time.time()
        with self._write() as cur:
            row = self._x(cur, "SELECT digest FROM notices WHERE key = ?", (key,)).fetchone()
            if row is None:
                raise KeyError(f"no notice {key!r} in the store")
            self._x(cur, "INSERT INTO decisions (key, digest, zone, decision, operator, at, note) VALUES "
                         "(?, ?, ?, ?, ?, ?, ?)", (key, row[0], zone, decision, operator, at, note))
            self._x(cur, "INSERT INTO history (at, key, event, cause, cause_digest, operator, source, detail) VALUES "
                         "(?, ?, 'decision', ?, ?, ?, NULL, ?)",
                    (at, key, key, row[0], operator, json.dumps({"zone": zone, "decision": decision, "note": note})))

    def expire(self, now: datetime | None = None) -> list[str]:
        """Mark notices whose every zone has ended (none with an estimated end) as expired in the history; the
        picture needs no marking, it asks for the time. Returns their keys."""
        at = epoch(now) if now is not None else time.time()
        with self._write() as cur:
            keys = [r[0] for r in self._x(
                cur, "SELECT zones.key FROM zones JOIN notices ON notices.key = zones.key WHERE zones.live = 1 AND "
                     "notices.expired_at IS NULL GROUP BY zones.key HAVING MAX(zones.t1) <= ? AND "
                     "COUNT(zones.est_end) = 0", (at,)).fetchall()]
            for part in _chunks(keys):
                self._x(cur, f"UPDATE notices SET expired_at = ? WHERE key IN ({_marks(len(part))})", [at, *part])
            self._xm(cur, "INSERT INTO history (at, key, event, cause, cause_digest, operator, source, detail) "
                          "VALUES (?, ?, 'expired', 'expiry', NULL, NULL, NULL, '{}')", [(at, k) for k in keys])
        return keys

    # ---- reading ------------------------------------------------------------------------------------------
    def picture(self, at: datetime | None = None, *, until: datetime | None = None,
                bbox: tuple[float, float, float, float] | None = None) -> list[StoredZone]:
        """The zones in force at ``at`` (or at some time in ``[at, until)``), within ``bbox`` (west, south, east,
        north; west > east crosses the antimeridian) where given: live zones (not replaced, not cancelled), their
        active windows and their footprints checked exactly. Zones located only by a name are in the picture
        without a bbox and never within one. Ordered by notice key and zone."""
        t0 = epoch(at) if at is not None else time.time()
        t1 = epoch(until) if until is not None else t0
        if t1 < t0:
            raise ValueError("the window ends before it starts")
        q = _Query(t0, t1)
        with self._read() as cur:
            if bbox is None:
                rows = self._spatial_find(cur, [(-180.0, -90.0, 180.0, 90.0)], q.lo, q.hi)
                rows += self._x(cur, "SELECT zones.zid, zones.key, zones.digest, zones.record, NULL, "
                                     "notices.received_at, notices.source, notices.operator, notices.flag FROM zones "
                                     "JOIN notices ON notices.key = zones.key WHERE zones.live = 1 AND "
                                     "zones.shaped = 0 AND zones.t0 <= ? AND zones.t1 > ?", (q.hi, q.lo)).fetchall()
                region = None
            else:
                w, s, e, n = bbox
                boxes = [(w, s, e, n)] if w <= e else [(w, s, 180.0, n), (-180.0, s, e, n)]
                rows = self._spatial_find(cur, boxes, q.lo, q.hi)
                region = shapely.union_all([box(*b) for b in boxes])
            return self._assemble(cur, rows, q, region)

    def _assemble(self, cur, rows: list, q: _Query, region) -> list[StoredZone]:
        if not rows:
            return []
        zids = [r[0] for r in rows]
        active = self._active(cur, zids, q)
        rows = [r for r in rows if r[0] in active]
        if region is not None and rows:
            shapes = shapely.from_wkb([bytes(r[4]) for r in rows])
            hit = shapely.intersects(shapes, region)
            rows = [r for r, h in zip(rows, hit) if h]
        decisions = self._decisions(cur, rows)
        out = []
        for r in sorted(rows, key=lambda r: (r[1], r[0])):
            rec = as_of(ZoneRecord.model_validate_json(r[3]), q.t1 if q.t1 > q.t0 else q.t0 + 1e-6)
            notes = [r[8]] if r[8] else []
            if r[8]:
                rec.review(r[8])
            out.append(StoredZone(zid=r[0], key=r[1], record=rec, received_at=from_epoch(r[5]), source=r[6],
                                  operator=r[7], decision=decisions.get((r[1], r[2], rec.zone)), notes=notes))
        return out

    def _active(self, cur, zids: list[int], q: _Query) -> set[int]:
        out: set[int] = set()
        for part in _chunks(zids):
            out.update(r[0] for r in self._x(
                cur, f"SELECT DISTINCT zid FROM windows WHERE zid IN ({_marks(len(part))}) AND t0 <= ? AND t1 > ?",
                [*part, q.hi, q.lo]).fetchall())
        return out

    def _decisions(self, cur, rows: list) -> dict:
        keys = sorted({r[1] for r in rows})
        out: dict = {}
        for part in _chunks(keys):
            for key, digest, zone, decision, operator, at, note in self._x(
                    cur, f"SELECT key, digest, zone, decision, operator, at, note FROM decisions WHERE key IN "
                         f"({_marks(len(part))}) ORDER BY at, id", part).fetchall():
                out[(key, digest, zone)] = {"decision": decision, "operator": operator,
                                            "at": from_epoch(at).strftime("%Y-%m-%dT%H:%M:%SZ"), "note": note}
        return out

    def route_conflicts(self, route: Route, *, sample_m: float = 50) -> list[Conflict]:
        """``geo.conflicts.route_conflicts`` over the picture along the route: the zones whose box meets a leg's
        box while the route is flown and whose cover meets the route's corridor, their volumes built by
        ``geo.volumes`` as in memory. The same answer as the in-memory check on the same records (tests)."""
        t0 = time.perf_counter()
        legs, t_end = _route_boxes(route)
        q = _Query(epoch(route.departure), t_end)
        with self._read() as cur:
            rows = self._spatial_find(cur, legs, q.lo, q.hi)
            seen: set[int] = set()
            rows = [r for r in rows if not (r[0] in seen or seen.add(r[0]))]
            active = self._active(cur, [r[0] for r in rows], q)
        rows = [r for r in rows if r[0] in active]
        corridor = _corridor(route)
        if corridor is not None and rows:  # covers that miss the flown path cannot hold a conflict
            hit = shapely.intersects(shapely.from_wkb([bytes(r[4]) for r in rows]), corridor)
            rows = [r for r, h in zip(rows, hit) if h]
        t1 = time.perf_counter()
        vols = []
        for r in rows:
            v = volume_of(as_of(ZoneRecord.model_validate_json(r[3]), q.t1))
            if v is not None:
                vols.append(v)
        t2 = time.perf_counter()
        out = _route_conflicts(route, vols, sample_m=sample_m)
        self.last_route_timing = {"candidates": len(vols), "find_s": t1 - t0, "volumes_s": t2 - t1,
                                  "route_check_s": time.perf_counter() - t2}
        return out

    def history(self, number_or_key: str) -> list[dict]:
        """Every change of the notice(s) a number (``A1912/15``, any issuer) or a key names, oldest first, with
        its cause, and every text the store holds of it (the records with their spans and status)."""
        from airspace.store.identity import normal_number

        with self._read() as cur:
            want = (number_or_key, number_or_key.strip(), f"%/{normal_number(number_or_key)}")
            keys = [r[0] for r in self._x(cur, "SELECT key FROM notices WHERE key = ? OR number = ? OR key LIKE ?",
                                          want).fetchall()]
            keys += [r[0] for r in self._x(cur, "SELECT DISTINCT key FROM history WHERE key = ? OR key = ? OR "
                                                "key LIKE ?", want).fetchall()]
            out = []
            for k in sorted(set(keys)):
                for at, event, cause, digest, operator, source, detail in self._x(
                        cur, "SELECT at, event, cause, cause_digest, operator, source, detail FROM history WHERE "
                             "key = ? ORDER BY seq", (k,)).fetchall():
                    recs = []
                    if event in ("received", "revised"):
                        recs = [json.loads(r[0]) for r in self._x(
                            cur, "SELECT record FROM zones WHERE key = ? AND digest = ? ORDER BY zid",
                            (k, digest)).fetchall()]
                    out.append({"key": k, "at": from_epoch(at).strftime("%Y-%m-%dT%H:%M:%SZ"), "event": event,
                                "cause": cause, "cause_digest": digest, "operator": operator, "source": source,
                                "detail": json.loads(detail) if detail else {}, "records": recs})
        return out

    def notice(self, key: str) -> Notice | None:
        with self._read() as cur:
            row = self._x(cur, f"SELECT {_NOTICE_COLS} FROM notices WHERE key = ?", (key,)).fetchone()
        return _notice(row) if row else None

    def has_live(self) -> bool:
        """Whether any notice is in the picture at some time (a cheap look, not a count)."""
        with self._read() as cur:
            return self._x(cur, "SELECT 1 FROM zones WHERE live = 1 LIMIT 1").fetchone() is not None

    def counts(self) -> dict:
        with self._read() as cur:
            def one(sql):
                return self._x(cur, sql).fetchone()[0]
            return {"notices": one("SELECT COUNT(*) FROM notices"), "zones": one("SELECT COUNT(*) FROM zones"),
                    "live_zones": one("SELECT COUNT(*) FROM zones WHERE live = 1"),
                    "messages": one("SELECT COUNT(*) FROM messages"), "history": one("SELECT COUNT(*) FROM history")}


@dataclass
class _Query:
    """A time query: the instant t0 or the window [t0, t1); ``lo``/``hi`` bound the windows that meet it."""

    t0: float
    t1: float

    @property
    def lo(self) -> float:
        return self.t0

    @property
    def hi(self) -> float:
        # a window [a, b) meets the instant t when a <= t < b, the window [t0, t1) when a < t1 and b > t0
        return self.t0 if self.t1 <= self.t0 else math.nextafter(self.t1, -math.inf)


CORRIDOR_SAMPLE_M = 2000.0
CORRIDOR_DEG = 0.002


def _corridor(route: Route):
    """A (lon, lat) band around the route's geodesic legs: the legs sampled every ``CORRIDOR_SAMPLE_M`` and widened
    by ``CORRIDOR_DEG`` (a geodesic strays under 2 m from the chord between samples that close, below 85 degrees of
    latitude; the band is wider than that everywhere there). None (no filter) near a pole or across the
    antimeridian."""
    wps = route.waypoints
    pts: list[tuple[float, float]] = [(wps[0].lon, wps[0].lat)]
    for a, b in zip(wps[:-1], wps[1:]):
        _, _, d = GEOD.inv(a.lon, a.lat, b.lon, b.lat)
        n = int(d // CORRIDOR_SAMPLE_M)
        pts += (GEOD.npts(a.lon, a.lat, b.lon, b.lat, n) if n > 0 else []) + [(b.lon, b.lat)]
    arr = np.array(pts)
    if np.abs(arr[:, 1]).max() > 85.0 or (len(arr) > 1 and np.abs(np.diff(arr[:, 0])).max() > 180.0):
        return None
    line = LineString(arr) if len(arr) > 1 and np.ptp(arr, axis=0).any() else Point(arr[0])
    return line.buffer(CORRIDOR_DEG, quad_segs=2)


def _route_boxes(route: Route) -> tuple[list[tuple[float, float, float, float]], float]:
    """Boxes (west, south, east, north) around each leg's geodesic, and the epoch time the route ends. A leg is
    sampled every 10 km and its box widened by 0.1 degree (a geodesic strays far less than that between samples 10
    km apart); a leg that crosses the antimeridian gets a box each side."""
    wps = route.waypoints
    pairs = list(zip(wps[:-1], wps[1:])) or [(wps[0], wps[0])]
    boxes = []
    total = 0.0
    for a, b in pairs:
        _, _, d = GEOD.inv(a.lon, a.lat, b.lon, b.lat)
        total += d
        n = int(d // 10_000)
        pts = [(a.lon, a.lat)] + (GEOD.npts(a.lon, a.lat, b.lon, b.lat, n) if n > 0 else []) + [(b.lon, b.lat)]
        lons = np.array([p[0] for p in pts])
        lats = np.array([p[1] for p in pts])
        m = 0.1
        s, nn = max(-90.0, lats.min() - m), min(90.0, lats.max() + m)
        if lons.max() - lons.min() > 180:  # across the antimeridian
            east = lons[lons < 0]
            west = lons[lons >= 0]
            boxes.append((west.min() - m, s, 180.0, nn))
            boxes.append((-180.0, s, east.max() + m, nn))
        else:
            boxes.append((lons.min() - m, s, lons.max() + m, nn))
    speed = route.speed_mps
    end = route.departure + timedelta(seconds=total / speed) if speed > 0 and math.isfinite(speed) else route.departure
    return boxes, epoch(end) + 1.0


__all__ = ["ZoneStore", "StoredZone", "Preview", "Applied", "Incoming", "OPEN"]
