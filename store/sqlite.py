"""The embedded store: one SQLite file (standard library ``sqlite3``), WAL, no server.

Geometry is WKB in ``zones.geom``; an R*Tree (``zones_rt``) over the (lon, lat, time) box of every live zone finds
the candidates of a query, the ``windows`` index (zone, start) decides the exact activity, shapely the exact
footprint. The R*Tree keeps 32-bit floats rounded outwards, so it never misses a zone; it only narrows the search.

Each thread gets its own connection (sqlite3 connections are not shared between threads); writers take the write
lock with ``BEGIN IMMEDIATE`` and wait for each other up to ``BUSY_MS``.
"""

from __future__ import annotations

import os
import sqlite3
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from airspace.store.base import ZoneStore

BUSY_MS = 60_000

_DDL = """
CREATE TABLE IF NOT EXISTS notices (
  key TEXT PRIMARY KEY, digest TEXT NOT NULL, number TEXT, kind TEXT, ref TEXT, readable INTEGER NOT NULL,
  state TEXT NOT NULL, by_key TEXT, flag TEXT, received_at REAL NOT NULL, source TEXT, operator TEXT,
  expired_at REAL);
CREATE INDEX IF NOT EXISTS notices_ref ON notices(ref) WHERE ref IS NOT NULL;
CREATE INDEX IF NOT EXISTS notices_number ON notices(number);
CREATE TABLE IF NOT EXISTS messages (digest TEXT PRIMARY KEY, key TEXT NOT NULL, readable INTEGER NOT NULL, received_at REAL NOT NULL)
  WITHOUT ROWID;
CREATE TABLE IF NOT EXISTS zones (
  zid INTEGER PRIMARY KEY, key TEXT NOT NULL, digest TEXT NOT NULL, zone INTEGER NOT NULL, live INTEGER NOT NULL,
  in_pic INTEGER NOT NULL, shaped INTEGER NOT NULL, minx REAL, maxx REAL, miny REAL, maxy REAL, t0 REAL NOT NULL,
  t1 REAL NOT NULL, est_end REAL, record TEXT NOT NULL, geom BLOB);
CREATE INDEX IF NOT EXISTS zones_key ON zones(key, digest);
CREATE INDEX IF NOT EXISTS zones_named ON zones(t1) WHERE live = 1 AND shaped = 0;
CREATE TABLE IF NOT EXISTS windows (zid INTEGER NOT NULL, t0 REAL NOT NULL, t1 REAL NOT NULL);
CREATE INDEX IF NOT EXISTS windows_zone ON windows(zid, t0, t1);
CREATE VIRTUAL TABLE IF NOT EXISTS zones_rt USING rtree(zid, minx, maxx, miny, maxy, t0, t1);
CREATE TABLE IF NOT EXISTS history (
  seq INTEGER PRIMARY KEY, at REAL NOT NULL, key TEXT NOT NULL, event TEXT NOT NULL, cause TEXT, cause_digest TEXT,
  operator TEXT, source TEXT, detail TEXT);
CREATE INDEX IF NOT EXISTS history_key ON history(key, seq);
CREATE TABLE IF NOT EXISTS decisions (
  id INTEGER PRIMARY KEY, key TEXT NOT NULL, digest TEXT NOT NULL, zone INTEGER NOT NULL, decision TEXT NOT NULL,
  operator TEXT NOT NULL, at REAL NOT NULL, note TEXT);
CREATE INDEX IF NOT EXISTS decisions_key ON decisions(key);
"""


class SqliteStore(ZoneStore):
    def __init__(self, path: str | os.PathLike):
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.url = f"sqlite:///{self.path}"
        self._local = threading.local()
        self._all: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        con = self._con()
        con.execute("BEGIN IMMEDIATE")
        try:
            for stmt in _DDL.split(";"):
                if stmt.strip():
                    con.execute(stmt)
            con.execute("COMMIT")
        except BaseException:
            con.execute("ROLLBACK")
            raise

    def _con(self) -> sqlite3.Connection:
        con = getattr(self._local, "con", None)
        if con is None:
            con = sqlite3.connect(self.path, timeout=BUSY_MS / 1000, isolation_level=None, check_same_thread=False)
            con.execute(f"PRAGMA busy_timeout = {BUSY_MS}")
            con.execute("PRAGMA journal_mode = WAL")
            con.execute("PRAGMA synchronous = NORMAL")  # WAL: a crash loses at most the last commits, never the file
            con.execute("PRAGMA foreign_keys = OFF")
            self._local.con = con
            with self._lock:
                self._all.append(con)
        return con

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Cursor]:
        con = self._con()
        con.execute("BEGIN IMMEDIATE")
        try:
            yield con.cursor()
        except BaseException:
            con.execute("ROLLBACK")
            raise
        con.execute("COMMIT")

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Cursor]:
        con = self._con()
        con.execute("BEGIN")  # one snapshot for the whole read
        try:
            yield con.cursor()
        finally:
            con.execute("COMMIT")

    def _spatial_add(self, cur, rows: list[tuple]) -> None:
        cur.executemany("INSERT INTO zones_rt (zid, minx, maxx, miny, maxy, t0, t1) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        [(z, w, e, s, n, a, b) for z, _, w, e, s, n, a, b in rows])

    def _spatial_drop(self, cur, zids: list[int]) -> None:
        cur.executemany("DELETE FROM zones_rt WHERE zid = ?", [(z,) for z in zids])

    def _spatial_find(self, cur, boxes, t0: float, t1: float) -> list:
        out, seen = [], set()
        for w, s, e, n in boxes:
            for r in cur.execute(
                    "SELECT zones.zid, zones.key, zones.digest, zones.record, zones.geom, notices.received_at, "
                    "notices.source, notices.operator, notices.flag FROM zones_rt JOIN zones ON zones.zid = "
                    "zones_rt.zid JOIN notices ON notices.key = zones.key WHERE zones_rt.maxx >= ? AND "
                    "zones_rt.minx <= ? AND zones_rt.maxy >= ? AND zones_rt.miny <= ? AND zones_rt.t1 >= ? AND "
                    "zones_rt.t0 <= ? AND zones.live = 1", (w, e, s, n, t0, t1)):
                if r[0] not in seen:
                    seen.add(r[0])
                    out.append(r)
        return out

    def size_bytes(self) -> int:
        return sum(p.stat().st_size for p in self.path.parent.glob(self.path.name + "*") if p.is_file())

    def close(self) -> None:
        with self._lock:
            for con in self._all:
                try:
                    con.close()
                except sqlite3.ProgrammingError:
                    pass  # a connection of a thread that is gone
            self._all.clear()
        self._local = threading.local()
