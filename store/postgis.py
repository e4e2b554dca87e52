"""The shared-desk store: PostgreSQL + PostGIS, for several operators on one picture (psycopg 3).

The same tables as the SQLite store (``base``); the footprint is a ``geometry(Geometry, 4326)`` column. The live
zones are found by one GiST index over their (lon, lat, time) box (PostGIS's n-dimensional operator class, ``&&&``):
the 3D R-tree the SQLite store keeps as an R*Tree. A GiST index over the geometry alone, then a time filter, read
every zone ever issued around a busy airport from the table to keep the few in force at T (thousands of heap blocks
for a 100 km box at 10^6 records); the box with time keeps only those. Time is in days in the index, so that one day
weighs about as much as one degree when the tree groups boxes. Writers serialise on a transaction-scoped advisory lock, so
the plan of one batch never reads a state another writer is changing. Each thread gets its own connection.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from airspace.store.base import ZoneStore

LOCK_ID = 4_747_047  # the advisory lock every writer of a store takes
DAY_S = 86400.0
# a live zone's (west, south, start day) - (east, north, end day) box, as the index holds it and the query names it
BOX3 = "ST_MakeLine(ST_MakePoint(minx, miny, t0 / 86400.0), ST_MakePoint(maxx, maxy, t1 / 86400.0))"

_DDL = [
    "CREATE EXTENSION IF NOT EXISTS postgis",
    """CREATE TABLE IF NOT EXISTS notices (
      key TEXT PRIMARY KEY, digest TEXT NOT NULL, number TEXT, kind TEXT, ref TEXT, readable INTEGER NOT NULL,
      state TEXT NOT NULL, by_key TEXT, flag TEXT, received_at DOUBLE PRECISION NOT NULL, source TEXT, operator TEXT,
      expired_at DOUBLE PRECISION)""",
    "CREATE INDEX IF NOT EXISTS notices_ref ON notices(ref) WHERE ref IS NOT NULL",
    "CREATE INDEX IF NOT EXISTS notices_number ON notices(number)",
    """CREATE TABLE IF NOT EXISTS messages (digest TEXT PRIMARY KEY, key TEXT NOT NULL, readable INTEGER NOT NULL,
      received_at DOUBLE PRECISION NOT NULL)""",
    """CREATE TABLE IF NOT EXISTS zones (
      zid BIGINT PRIMARY KEY, key TEXT NOT NULL, digest TEXT NOT NULL, zone INTEGER NOT NULL, live INTEGER NOT NULL,
      in_pic INTEGER NOT NULL, shaped INTEGER NOT NULL, minx DOUBLE PRECISION, maxx DOUBLE PRECISION,
      miny DOUBLE PRECISION, maxy DOUBLE PRECISION, t0 DOUBLE PRECISION NOT NULL, t1 DOUBLE PRECISION NOT NULL,
      est_end DOUBLE PRECISION, record TEXT NOT NULL, geom geometry(Geometry, 4326))""",
    "CREATE INDEX IF NOT EXISTS zones_key ON zones(key, digest)",
    "DROP INDEX IF EXISTS zones_geom",  # the geometry-only index of earlier stores: nothing reads it
    f"CREATE INDEX IF NOT EXISTS zones_box ON zones USING GIST (({BOX3}) gist_geometry_ops_nd) WHERE live = 1 AND shaped = 1",
    "CREATE INDEX IF NOT EXISTS zones_time ON zones(t0, t1) WHERE live = 1",
    "CREATE INDEX IF NOT EXISTS zones_named ON zones(t1) WHERE live = 1 AND shaped = 0",
    "CREATE TABLE IF NOT EXISTS windows (zid BIGINT NOT NULL, t0 DOUBLE PRECISION NOT NULL, t1 DOUBLE PRECISION NOT NULL)",
    "CREATE INDEX IF NOT EXISTS windows_zone ON windows(zid, t0, t1)",
    """CREATE TABLE IF NOT EXISTS history (
      seq BIGSERIAL PRIMARY KEY, at DOUBLE PRECISION NOT NULL, key TEXT NOT NULL, event TEXT NOT NULL, cause TEXT,
      cause_digest TEXT, operator TEXT, source TEXT, detail TEXT)""",
    "CREATE INDEX IF NOT EXISTS history_key ON history(key, seq)",
    """CREATE TABLE IF NOT EXISTS decisions (
      id BIGSERIAL PRIMARY KEY, key TEXT NOT NULL, digest TEXT NOT NULL, zone INTEGER NOT NULL, decision TEXT NOT NULL,
      operator TEXT NOT NULL, at DOUBLE PRECISION NOT NULL, note TEXT)""",
    "CREATE INDEX IF NOT EXISTS decisions_key ON decisions(key)",
]


def _pg(sql: str) -> str:
    return sql.replace("?", "%s")


class PostgisStore(ZoneStore):
    def __init__(self, url: str):
        import psycopg  # the PostGIS backend only: the SQLite default needs no driver

        self._psycopg = psycopg
        self.url = url
        self._local = threading.local()
        self._all: list = []
        self._lock = threading.Lock()
        with self._con().transaction():
            cur = self._con().cursor()
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_ID,))
            for stmt in _DDL:
                cur.execute(stmt)

    def _con(self):
        con = getattr(self._local, "con", None)
        if con is None or con.closed:
            con = self._psycopg.connect(self.url, autocommit=True)
            self._local.con = con
            with self._lock:
                self._all.append(con)
        return con

    def _x(self, cur, sql: str, params=()):
        cur.execute(_pg(sql), params)
        return cur

    def _xm(self, cur, sql: str, rows: list) -> None:
        if rows:
            cur.executemany(_pg(sql), rows)

    @contextmanager
    def _write(self) -> Iterator[object]:
        con = self._con()
        with con.transaction():
            cur = con.cursor()
            cur.execute("SELECT pg_advisory_xact_lock(%s)", (LOCK_ID,))
            yield cur

    @contextmanager
    def _read(self) -> Iterator[object]:
        con = self._con()
        with con.transaction():
            cur = con.cursor()
            cur.execute("SET TRANSACTION ISOLATION LEVEL REPEATABLE READ READ ONLY")
            yield cur

    def _insert_zones(self, cur, rows: list[tuple]) -> None:
        self._xm(cur, "INSERT INTO zones (zid, key, digest, zone, live, in_pic, shaped, minx, maxx, miny, maxy, t0, "
                      "t1, est_end, record, geom) VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,ST_GeomFromWKB(?, 4326))",
                 rows)

    def _spatial_add(self, cur, rows: list[tuple]) -> None:
        return None  # the GiST index is over live zones' geometry: the zone rows themselves

    def _spatial_drop(self, cur, zids: list[int]) -> None:
        return None

    def _spatial_find(self, cur, boxes, t0: float, t1: float) -> list:
        out, seen = [], set()
        for w, s, e, n in boxes:
            cur.execute(
                "SELECT zones.zid, zones.key, zones.digest, zones.record, ST_AsBinary(zones.geom), "
                "notices.received_at, notices.source, notices.operator, notices.flag FROM zones JOIN notices ON "
                f"notices.key = zones.key WHERE zones.live = 1 AND zones.shaped = 1 AND {BOX3} &&& ST_MakeLine("
                "ST_MakePoint(%s, %s, %s), ST_MakePoint(%s, %s, %s)) AND zones.geom && ST_MakeEnvelope(%s, %s, %s, "
                "%s, 4326) "
                "AND zones.t0 <= %s AND zones.t1 >= %s",
                (w, s, t0 / DAY_S, e, n, t1 / DAY_S, w, s, e, n, t1, t0))
            for r in cur.fetchall():
                if r[0] not in seen:
                    seen.add(r[0])
                    out.append(r)
        return out

    def size_bytes(self) -> int:
        with self._read() as cur:
            cur.execute("SELECT pg_database_size(current_database())")
            return int(cur.fetchone()[0])

    def close(self) -> None:
        with self._lock:
            for con in self._all:
                try:
                    con.close()
                except Exception:  # noqa: BLE001 - closing a connection of a thread that is gone
                    pass
            self._all.clear()
        self._local = threading.local()
