"""``airspace-store``: ingest, active (every format), history, watch; the store named by --store, $AIRSPACE_STORE or
the default file under the user's data directory. Inputs: the shipped demo batch (data/samples/demo20.txt) and the
real MMFR B1405/26 -> B1419/26 replacement of the archive (data/real/archive.jsonl)."""

from __future__ import annotations

import io
import json
import os
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest
from store_rows import mmfr  # the archive rows beside this file

from airspace.eval.fuzz import _schema_validator
from airspace.store.cli import UsageError, run
from airspace.store.ingest import Watcher
from airspace.store.url import default_url, open_store

REPO = Path(__file__).resolve().parents[1]
DEMO20 = REPO / "data" / "samples" / "demo20.txt"


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = run(list(argv), out=out)
    return code, out.getvalue()


def test_ingest_then_active_in_every_format(tmp_path):
    url = f"sqlite:///{tmp_path}/z.sqlite"
    code, out = cli("--store", url, "ingest", "--engine", "rules", "--operator", "desk-1", str(DEMO20))
    summary = json.loads(out)
    assert code == 1 and summary["written"] == 20 and summary["events"]["held"] == 2  # review records -> 1
    code, out = cli("--store", url, "active", "--at", "2026-11-30T01:00:00Z")
    lines = [json.loads(x) for x in out.splitlines()]
    assert code == 0 and len(lines) == 10
    assert {x["store"]["operator"] for x in lines} == {"desk-1"} and all(x["spans"] or x["geometry"] for x in lines)
    _, out = cli("--store", url, "active", "--at", "2026-11-30T01:00:00Z", "--bbox", "113.80,22.40,113.96,22.70")
    assert 4 <= len(out.splitlines()) < 10
    _, out = cli("--store", url, "active", "--at", "2026-11-30T01:00:00Z", "--format", "geojson")
    gj = json.loads(out)
    assert gj["type"] == "FeatureCollection" and all(f["properties"]["active"] is not False for f in gj["features"])
    _, out = cli("--store", url, "active", "--at", "2026-11-30T01:00:00Z", "--format", "ed318")
    ed318 = json.loads(out)
    assert len(ed318["features"]) >= 9 and list(_schema_validator().iter_errors(ed318)) == []
    _, out = cli("--store", url, "active", "--at", "2026-11-30T01:00:00Z", "--format", "ed269")
    assert len(json.loads(out)["features"]) >= 9
    _, out = cli("--store", url, "active", "--at", "2026-11-30T01:00:00Z", "--format", "kml")
    root = ET.fromstring(out)
    ns = {"k": "http://www.opengis.net/kml/2.2"}
    assert len(root.findall(".//k:Placemark", ns)) == 9  # the named place has no shape to draw


def test_history_says_what_replaced_a_notice(tmp_path):
    url = f"sqlite:///{tmp_path}/z.sqlite"
    for n in ("B1405/26", "B1419/26"):
        f = tmp_path / f"{n.replace('/', '_')}.txt"
        f.write_text(mmfr(n), encoding="utf-8")
        cli("--store", url, "ingest", "--engine", "rules", str(f))
    code, out = cli("--store", url, "history", "B1405/26")
    rows = [json.loads(x) for x in out.splitlines()]
    # each ingest also marks what has ended by the wall clock (B1405/26 ended on 2026-07-22): 'expired', cause
    # 'expiry', between the two when this runs after that date
    assert code == 0 and [(r["event"], r["cause"]) for r in rows if r["event"] != "expired"] == [
        ("received", "MMFR/B1405/26"), ("replaced", "MMFR/B1419/26")]
    assert all(r["cause"] == "expiry" for r in rows if r["event"] == "expired")
    with pytest.raises(UsageError):
        cli("--store", url, "history", "Z9999/99")


def test_the_store_comes_from_the_environment_or_the_data_directory(tmp_path, monkeypatch):
    monkeypatch.delenv("AIRSPACE_STORE", raising=False)
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert default_url() == f"sqlite:///{tmp_path}/data/clover-airspace/zones.sqlite"
    cli("ingest", "--engine", "rules", str(DEMO20))
    assert (tmp_path / "data" / "clover-airspace" / "zones.sqlite").is_file()
    monkeypatch.setenv("AIRSPACE_STORE", f"sqlite:///{tmp_path}/env.sqlite")
    cli("ingest", "--engine", "rules", str(DEMO20))
    assert (tmp_path / "env.sqlite").is_file()
    with pytest.raises(UsageError):
        cli("--store", "mysql://nowhere/db", "active", "--at", "2026-11-30T01:00:00Z")
    with pytest.raises(UsageError):
        cli("--store", f"sqlite:///{tmp_path}/env.sqlite", "active", "--at", "yesterday")


def test_a_watched_folder_is_ingested_once_files_stop_changing(tmp_path):
    inbox = tmp_path / "inbox"
    inbox.mkdir()
    store = open_store(f"sqlite:///{tmp_path}/z.sqlite")
    w = Watcher(store, inbox, engine="rules")
    (inbox / "b1405.txt").write_text(mmfr("B1405/26"), encoding="utf-8")
    assert w.poll() == []  # first sight: it may still be being written
    (name, applied, problems), = w.poll()
    assert name == "b1405.txt" and applied.written == 1 and not problems
    assert w.poll() == []  # unchanged: not read again
    (inbox / "b1419.txt").write_text(mmfr("B1419/26"), encoding="utf-8")
    w.poll()
    w.poll()
    assert store.notice("MMFR/B1405/26").state == "replaced"
    assert os.path.exists(inbox / "b1405.txt")  # the folder is the feed's: nothing is moved or deleted
    store.close()
