"""The zone store's feed semantics on real messages, the same scenario on SQLite and on a real PostGIS server.

Real messages: the MMFR replacement chain of the real archive (data/real/archive.jsonl: B1405/26 <- B1419/26 <-
B1430/26 <- B1443/26, a SpaceX Starship danger area, lzq1206/notam-whisper weeks 29-30 of 2026), LCCC A0190/26
(an estimated end), and the shipped demo batch data/samples/demo20.txt (its NOTAMC A2240/26 names A2187/26, which
is not in it). The NOTAMC of B1443/26 and the A2187/26 that demo20 cancels are written by hand (the archive holds
no NOTAMC), in the form of their neighbours. PostGIS runs on a server these tests start (store.pgserver); without
Debian's postgresql + postgis (make store-deps) those cases skip with the reason.
"""

from __future__ import annotations

import itertools
import json
import subprocess
import sys
import threading
from datetime import datetime, timezone
from pathlib import Path

import pytest

from airspace.data.paths import archive_path
from airspace.geo.conflicts import Route, Waypoint, route_conflicts
from airspace.geo.volumes import volumes_from_records
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message
from airspace.store import open_store
from airspace.store.identity import identify, issuer
from airspace.store.pgserver import NoPostgis, PostgisServer

REPO = Path(__file__).resolve().parents[1]
DEMO20 = REPO / "data" / "samples" / "demo20.txt"


def utc(*a) -> datetime:
    return datetime(*a, tzinfo=timezone.utc)


_ROWS: list[dict] = []


def real(number: str, fir: str) -> str:
    """The archive message with this number issued by this FIR (numbers repeat across FIRs)."""
    if not _ROWS:
        _ROWS.extend(json.loads(line) for line in archive_path().read_text(encoding="utf-8").splitlines() if line)
    hits = [r["text"] for r in _ROWS if r.get("id") == number and issuer(r["text"]) == fir]
    assert hits, f"{number} ({fir}) is not in the archive"
    return hits[0]


def read(*texts: str, **kw):
    """The messages through the pipeline (rules engine), one message per text."""
    recs, _ = process_batch([Message(index=i, text=t) for i, t in enumerate(texts)], engine="rules", **kw)
    return recs


CHAIN = ["B1405/26", "B1419/26", "B1430/26", "B1443/26"]
# hand-written in the form of its neighbours: the NOTAMC that ends B1443/26
C_B1443 = ("B1450/26 NOTAMC B1443/26  Q) MMFR/QRDXX/IV/BO/W/000/999/  A) MMFR  B) 2607232300  "
           "E) B1443/26 CANCELLED.  FIR MEXICO (MMFR)")
# hand-written: the A2187/26 that demo20's A2240/26 cancels ("UAS RESTRICTION AT FUTIAN CBD")
A2187 = ("A2187/26 NOTAMN\nQ) ZGZU/QWULW/IV/BO/W/000/004/2232N11404E001\nA) ZGSZ B) 2611280000 C) 2612312359\n"
         "E) UAS RESTRICTION WI 0.5NM RADIUS OF 223200N 1140319E (FUTIAN CBD).\nF) SFC G) 400FT AGL")


@pytest.fixture(scope="module")
def pg_server():
    try:
        srv = PostgisServer()
    except NoPostgis as exc:
        pytest.skip(str(exc))
    srv.start()
    yield srv
    srv.stop()


_N = itertools.count()


@pytest.fixture(params=["sqlite", "postgis"])
def new_url(request, tmp_path):
    """A maker of URLs of new, empty stores of the backend under test."""
    def make() -> str:
        n = next(_N)
        if request.param == "sqlite":
            return f"sqlite:///{tmp_path}/zones{n}.sqlite"
        srv = request.getfixturevalue("pg_server")
        import psycopg

        base = f"postgresql://postgres@127.0.0.1:{srv.port}/postgres"
        with psycopg.connect(base, autocommit=True) as con:
            con.execute(f"CREATE DATABASE store{n}")
        return f"postgresql://postgres@127.0.0.1:{srv.port}/store{n}"
    return make


@pytest.fixture
def store(new_url):
    s = open_store(new_url())
    yield s
    s.close()


def ids(zones) -> list[str]:
    return sorted(z.record.id or z.key for z in zones)


def test_a_notamr_replaces_the_notice_it_names_along_a_real_chain(store):
    t_first, t_mid = utc(2026, 7, 18, 23), utc(2026, 7, 21, 23)
    store.ingest_records(read(real(CHAIN[0], "MMFR")))
    assert ids(store.picture(t_first)) == ["B1405/26"]
    store.ingest_records(read(real(CHAIN[1], "MMFR")))
    assert ids(store.picture(t_first)) == ["B1419/26"]  # B1405/26 is still in its time, but replaced
    store.ingest_records(read(real(CHAIN[2], "MMFR")))
    assert ids(store.picture(t_mid)) == ["B1430/26"]
    assert store.picture(t_first) == []  # B1419/26 replaced, B1430/26 not yet in force
    assert store.notice("MMFR/B1405/26").state == "replaced" and store.notice("MMFR/B1405/26").by == "MMFR/B1419/26"
    events = [(h["event"], h["cause"]) for h in store.history("B1405/26")]
    assert events == [("received", "MMFR/B1405/26"), ("replaced", "MMFR/B1419/26")]
    assert store.history("B1405/26")[0]["records"][0]["spans"]  # the record with its spans, as read


def test_a_notamc_removes_its_notice_and_one_that_comes_first_is_held(store):
    recs = read(*(real(n, "MMFR") for n in CHAIN[:3]))
    store.ingest_records(recs)
    pre = store.preview(read(C_B1443))
    assert pre.held == [("MMFR/B1443/26", "MMFR/B1450/26")] and not pre.cancels and not pre.adds
    store.ingest_records(read(C_B1443))  # the cancellation before the notice it cancels
    store.ingest_records(read(real(CHAIN[3], "MMFR")))
    assert store.picture(utc(2026, 7, 23, 23)) == []
    assert store.notice("MMFR/B1443/26").state == "cancelled"
    assert store.notice("MMFR/B1430/26").state == "replaced"  # the NOTAMR still replaced what it names
    hist = [(h["event"], h["cause"], h["detail"].get("held")) for h in store.history("B1443/26")]
    assert ("held", "MMFR/B1450/26", None) in hist and ("cancelled", "MMFR/B1443/26", True) in hist


def test_a_cancellation_in_a_later_batch_removes_a_stored_zone(store):
    store.ingest_records(read(A2187))
    assert ids(store.picture(utc(2026, 11, 29, 12))) == ["A2187/26"]
    demo = process_batch(DEMO20.read_text(encoding="utf-8"), engine="rules")[0]
    pre = store.preview(demo)
    assert pre.cancels == [("ZGZU/A2187/26", "ZGZU/A2240/26")]
    store.ingest_records(demo, operator="desk-1")
    assert "A2187/26" not in ids(store.picture(utc(2026, 11, 29, 12)))
    last = store.history("A2187/26")[-1]
    assert (last["event"], last["cause"], last["operator"]) == ("cancelled", "ZGZU/A2240/26", "desk-1")


@pytest.mark.parametrize("order", [(0, 1, 2, 3, 4), (4, 3, 2, 1, 0), (2, 4, 0, 3, 1), (3, 0, 4, 1, 2)])
def test_any_arrival_order_gives_the_same_picture(new_url, order):
    texts = [real(n, "MMFR") for n in CHAIN] + [C_B1443]
    s = open_store(new_url())
    try:
        for i in order:
            s.ingest_records(read(texts[i]))
        states = {k: s.notice(f"MMFR/{k}").state for k in CHAIN + ["B1450/26"]}
        assert states == {"B1405/26": "replaced", "B1419/26": "replaced", "B1430/26": "replaced",
                          "B1443/26": "cancelled", "B1450/26": "active"}
        for t in (utc(2026, 7, 18, 23), utc(2026, 7, 21, 23), utc(2026, 7, 23, 23)):
            assert s.picture(t) == []
    finally:
        s.close()


def test_the_same_message_twice_changes_nothing(store):
    text = DEMO20.read_text(encoding="utf-8")
    recs = process_batch(text, engine="rules")[0]
    store.ingest_records(recs)
    before, hist = store.counts(), store.history("A2231/26")
    again = store.ingest_records(recs)
    assert again.written == 0 and again.duplicates == 20
    # a collector that collapsed the newlines into double spaces sends the same message
    rewrapped = "  ".join(recs[0].text.split("\n"))
    assert store.ingest_records(read(rewrapped)).duplicates == 1
    assert store.counts() == before and store.history("A2231/26") == hist


def test_zones_expire_at_their_end_and_an_estimated_end_stays_flagged(store):
    demo = process_batch(DEMO20.read_text(encoding="utf-8"), engine="rules")[0]
    est = read(real("A0190/26", "LCCC"))
    store.ingest_records(demo + [r.model_copy(update={"message": 99}) for r in est])
    assert "A2225/26" in ids(store.picture(utc(2026, 11, 29, 13)))
    assert "A2225/26" not in ids(store.picture(utc(2026, 11, 29, 14)))  # its C) 2611291330 has passed
    expired = store.expire(utc(2026, 11, 29, 14))
    assert "ZGZU/A2225/26" in expired and "LCCC/A0190/26" not in expired
    assert store.history("A2225/26")[-1]["event"] == "expired"
    # LCCC A0190/26: C) 2605132359 EST. After that time it is still in force, flagged, until replaced/cancelled
    late = [z for z in store.picture(utc(2026, 6, 1)) if z.record.id == "A0190/26"]
    assert len(late) == 1 and late[0].record.status == "review"
    assert any("estimated end" in r and "kept in force" in r for r in late[0].record.reasons)
    on_time = [z for z in store.picture(utc(2026, 3, 1)) if z.record.id == "A0190/26"]
    assert on_time and not any("kept in force" in r for r in on_time[0].record.reasons)


def test_an_empty_failed_or_partial_batch_removes_nothing(store):
    text = DEMO20.read_text(encoding="utf-8")
    store.ingest_records(process_batch(text, engine="rules")[0])
    t = utc(2026, 11, 30, 1)
    before = ids(store.picture(t))
    assert len(before) == 10
    store.ingest_records([])  # an empty feed reply
    store.ingest_records(process_batch("", engine="rules")[0])
    store.ingest_records(process_batch("\x00\x01garbage\x02" * 50, engine="rules")[0])  # a failed reply
    store.ingest_records(process_batch(text.split("\n\n")[0], engine="rules")[0])  # one message of twenty
    # every message failing to read (over its time budget): nothing it names is removed
    store.ingest_records(process_batch(text, engine="rules", budget_s=0.0)[0])
    assert ids(store.picture(t)) == before


def test_an_unreadable_replacement_keeps_the_zone_it_names(store):
    store.ingest_records(read(real(CHAIN[0], "MMFR")))
    failed = read(real(CHAIN[1], "MMFR"), budget_s=0.0)  # the NOTAMR read as an error record only
    assert [r.status for r in failed] == ["error"] and failed[0].notam_type == "R"
    store.ingest_records(failed)
    zones = store.picture(utc(2026, 7, 18, 23))
    assert ids(zones) == ["B1405/26"] and any("could not be read" in r for r in zones[0].record.reasons)
    store.ingest_records(read(real(CHAIN[1], "MMFR")))  # the readable text of the NOTAMR arrives
    assert ids(store.picture(utc(2026, 7, 18, 23))) == ["B1419/26"]


def test_a_restart_keeps_everything(new_url):
    url = new_url()
    s = open_store(url)
    s.ingest_records(process_batch(DEMO20.read_text(encoding="utf-8"), engine="rules")[0], operator="desk-1")
    s.decide("ZGZU/A2231/26", 0, "accepted", operator="desk-1", note="checked against the chart")
    t = utc(2026, 11, 30, 1)
    pic = [z.to_json() for z in s.picture(t)]
    hist, counts = s.history("A2231/26"), s.counts()
    s.close()
    s2 = open_store(url)
    try:
        assert [z.to_json() for z in s2.picture(t)] == pic
        assert s2.history("A2231/26") == hist and s2.counts() == counts
        mine = [z for z in s2.picture(t) if z.record.id == "A2231/26"][0]
        assert mine.decision["decision"] == "accepted" and mine.decision["operator"] == "desk-1"
    finally:
        s2.close()


def test_the_store_route_check_is_the_in_memory_route_check(store):
    recs = process_batch(DEMO20.read_text(encoding="utf-8"), engine="rules")[0]
    store.ingest_records(recs)
    vols = volumes_from_records(recs)
    routes = [
        Route([Waypoint(22.50, 113.90, 100), Waypoint(22.53, 113.95, 100), Waypoint(22.56, 114.06, 100),
               Waypoint(22.60, 114.28, 100)], departure=utc(2026, 11, 30, 1, 40), speed_mps=15.0),
        Route([Waypoint(22.45, 113.80, 300), Waypoint(22.65, 113.90, 300)], departure=utc(2026, 11, 30, 3, 30),
              speed_mps=20.0, alt_ref="AMSL"),
        Route([Waypoint(22.55, 114.05, 60)], departure=utc(2026, 11, 30, 0, 10), speed_mps=10.0),
        Route([Waypoint(22.49, 113.90, 100), Waypoint(22.49, 113.93, 100)], departure=utc(2026, 11, 29, 12, 5),
              speed_mps=5.0),
    ]
    rng = __import__("random").Random(47)
    for _ in range(12):  # drone routes wandering over the Shenzhen zones through the morning
        lat, lon, wps = rng.uniform(22.45, 22.65), rng.uniform(113.85, 114.25), []
        for _ in range(rng.randint(2, 20)):
            wps.append(Waypoint(lat, lon, rng.choice([50.0, 120.0, 400.0])))
            lat, lon = lat + rng.uniform(-0.03, 0.03), lon + rng.uniform(-0.03, 0.03)
        routes.append(Route(wps, departure=utc(2026, 11, 30, rng.randint(0, 6), rng.randint(0, 59)),
                            speed_mps=rng.uniform(5, 25), alt_ref=rng.choice(["AGL", "AMSL"])))
    routes.append(Route([Waypoint(22.55, 114.05, 60), Waypoint(22.55, 114.05, 60)],
                        departure=utc(2026, 11, 30, 0, 10), speed_mps=10.0))  # two waypoints at one place
    total = 0
    for r in routes:
        mine = store.route_conflicts(r)
        assert mine == route_conflicts(r, vols)
        total += len(mine)
    assert total >= 10  # the routes do cross zones: the comparison is not of two empty lists


def test_a_box_query_finds_the_zones_active_there(store):
    recs = process_batch(DEMO20.read_text(encoding="utf-8"), engine="rules")[0]
    store.ingest_records(recs)
    t = utc(2026, 11, 30, 1)
    west = store.picture(t, bbox=(113.80, 22.40, 113.96, 22.70))
    from shapely.geometry import box

    from airspace.geo.volumes import record_shape

    want = sorted(r.id or identify(r.text, None, None, None).key for r in recs
                  if r.geometry is not None and r.geometry.type != "named" and r.status != "error"
                  and any(v.key == (r.message, r.zone) and v.active_at(t) for v in volumes_from_records([r]))
                  and record_shape(r).intersects(box(113.80, 22.40, 113.96, 22.70)))
    assert ids(west) == want and len(want) >= 4
    assert store.picture(t, bbox=(0, 0, 1, 1)) == []
    # a box across the antimeridian is two boxes
    assert store.picture(t, bbox=(170.0, 20.0, -170.0, 30.0)) == []


def test_a_preview_says_what_a_batch_adds_replaces_and_cancels_and_writes_nothing(store):
    store.ingest_records(read(real(CHAIN[0], "MMFR"), A2187))
    before = store.counts()
    batch = read(real(CHAIN[1], "MMFR"), "A2240/26 NOTAMC A2187/26\nQ) ZGZU/QWULW/IV/BO/W/000/004/2232N11404E001\n"
                 "A) ZGSZ B) 2611292330\nE) A2187/26 CANCELLED.", real(CHAIN[0], "MMFR"))
    pre = store.preview(batch)
    assert [r.id for r in pre.adds] == ["B1419/26"]
    assert pre.replaces == [("MMFR/B1405/26", "MMFR/B1419/26")]
    assert pre.cancels == [("ZGZU/A2187/26", "ZGZU/A2240/26")]
    assert pre.duplicates == ["MMFR/B1405/26"]
    assert store.counts() == before


def test_an_operator_decision_is_kept_with_the_record_and_in_the_history(store):
    store.ingest_records(read(real("A0190/26", "LCCC")))
    store.decide("LCCC/A0190/26", 0, "rejected", operator="desk-2", note="laser area, not a no-fly zone")
    z = store.picture(utc(2026, 3, 1))[0]
    assert z.decision == {"decision": "rejected", "operator": "desk-2", "at": z.decision["at"],
                          "note": "laser area, not a no-fly zone"}
    assert store.history("A0190/26")[-1]["event"] == "decision"
    with pytest.raises(KeyError):
        store.decide("LCCC/A9999/26", 0, "accepted", operator="desk-2")


# ---- two writers at once ---------------------------------------------------------------------------------------
_SLICE: list[list] = []


def _archive_batches():
    """Real archive messages read once: 4 slices of 40 messages, a fifth slice shared by every writer."""
    if not _SLICE:
        rows = [json.loads(line) for line in archive_path().read_text(encoding="utf-8").splitlines() if line][:200]
        recs = read(*(r["text"] for r in rows))
        by_msg: dict[int, list] = {}
        for r in recs:
            by_msg.setdefault(r.message, []).append(r)
        msgs = [by_msg[i] for i in sorted(by_msg)]
        _SLICE.extend([msgs[i * 40:(i + 1) * 40] for i in range(5)])
    return _SLICE


def _expected(url: str, slices) -> dict:
    s = open_store(url)
    for sl in slices:
        for m in sl:
            s.ingest_records(m)
    with s._read() as cur:
        got = dict(s._x(cur, "SELECT key, state FROM notices").fetchall())
    s.close()
    return got


def test_two_writers_in_threads_lose_nothing(new_url, tmp_path):
    slices = _archive_batches()
    url = new_url()
    s = open_store(url)
    errors: list[BaseException] = []

    def writer(k: int) -> None:
        try:
            for m in slices[k] + slices[4]:
                s.ingest_records([r.model_copy(update={"message": 0}) for r in m], operator=f"w{k}")
        except BaseException as exc:  # noqa: BLE001 - reported by the assertion below
            errors.append(exc)

    threads = [threading.Thread(target=writer, args=(k,)) for k in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not errors
    with s._read() as cur:
        got = dict(s._x(cur, "SELECT key, state FROM notices").fetchall())
    want = _expected(f"sqlite:///{tmp_path}/reference.sqlite", slices)
    assert got == want and len(got) > 150
    assert s.counts()["messages"] == len({r[0].text and identify(r[0].text, r[0].id, r[0].notam_type,
                                                                  r[0].ref_id).digest for sl in slices for r in sl})
    s.close()


def test_two_writer_processes_lose_nothing(new_url, tmp_path):
    slices = _archive_batches()
    files = []
    for k in range(3):
        f = tmp_path / f"feed{k}.jsonl"
        f.write_text("".join(json.dumps({"text": m[0].text}) + "\n" for m in slices[k] + slices[4]),
                     encoding="utf-8")
        files.append(f)
    url = new_url()
    open_store(url).close()
    procs = [subprocess.Popen([sys.executable, "-m", "airspace.store.cli", "--store", url, "ingest", "--engine",
                               "rules", str(f)], stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
             for f in files]
    outs = [p.communicate(timeout=600) for p in procs]
    assert all(p.returncode in (0, 1) for p in procs), outs
    s = open_store(url)
    with s._read() as cur:
        got = dict(s._x(cur, "SELECT key, state FROM notices").fetchall())
    s.close()
    want = _expected(f"sqlite:///{tmp_path}/reference.sqlite", [slices[0], slices[1], slices[2], slices[4]])
    assert got == want and len(got) > 120


def test_each_backend_indexes_footprints_and_times(store):
    store.ingest_records(process_batch(DEMO20.read_text(encoding="utf-8"), engine="rules")[0])
    with store._read() as cur:
        live_shaped = store._x(cur, "SELECT COUNT(*) FROM zones WHERE live = 1 AND shaped = 1").fetchone()[0]
        assert live_shaped == 19  # demo20: 21 records, less the NOTAMC and the named place
        if store.url.startswith("sqlite"):
            assert store._x(cur, "SELECT COUNT(*) FROM zones_rt").fetchone()[0] == live_shaped  # the R*Tree
            assert store._x(cur, "PRAGMA journal_mode").fetchone()[0] == "wal"
        else:
            assert store._x(cur, "SELECT type, srid FROM geometry_columns WHERE f_table_name = 'zones'"
                            ).fetchone() == ("GEOMETRY", 4326)
            gist = store._x(cur, "SELECT indexdef FROM pg_indexes WHERE tablename = 'zones' AND indexname = "
                                 "'zones_box'").fetchone()[0]
            assert "USING gist" in gist and "gist_geometry_ops_nd" in gist and "live = 1" in gist
            assert store._x(cur, "SELECT COUNT(*) FROM zones WHERE live = 1 AND ST_IsValid(geom)").fetchone()[0] \
                == live_shaped
        assert store._x(cur, "SELECT COUNT(*) FROM windows").fetchone()[0] >= 20
    if not store.url.startswith("sqlite"):  # a box query is answered through that index (a tiny table needs the push)
        con = store._con()
        con.execute("SET enable_seqscan = off")

        def scans() -> int:
            con.execute("SELECT pg_stat_force_next_flush()")
            con.execute("SELECT pg_stat_clear_snapshot()")
            return con.execute("SELECT idx_scan FROM pg_stat_user_indexes WHERE indexrelname = 'zones_box'"
                               ).fetchone()[0]

        before = scans()
        found = store.picture(datetime(2026, 11, 30, 2, tzinfo=timezone.utc), bbox=(113.5, 22.0, 114.5, 23.0))
        assert found and scans() > before
        con.execute("RESET enable_seqscan")

