"""The calls the dashboard makes (``airspace.store.api``), on the shipped demo batch (data/samples/demo20.txt) and
the real MMFR B1405/26 -> B1419/26 replacement (data/real/archive.jsonl)."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

from store_rows import mmfr  # the archive rows beside this file

from airspace.store import api, open_store

REPO = Path(__file__).resolve().parents[1]


def test_the_page_previews_commits_and_decides(tmp_path):
    store = open_store(f"sqlite:///{tmp_path}/z.sqlite")
    t = datetime(2026, 7, 18, 23, tzinfo=timezone.utc)
    assert api.current_picture(store, t) == []  # a new desk opens on an empty picture
    first = api.preview_batch(store, mmfr("B1405/26"), engine="rules")
    assert [r.id for r in first.preview.adds] == ["B1405/26"] and api.current_picture(store, t) == []
    api.commit_batch(store, first.records, operator="desk-1")
    batch = mmfr("B1419/26") + "\n\n" + (REPO / "data/samples/demo20.txt").read_text()
    second = api.preview_batch(store, batch, engine="rules")
    assert second.preview.replaces == [("MMFR/B1405/26", "MMFR/B1419/26")]
    assert ("ZGZU/A2187/26", "ZGZU/A2240/26") in second.preview.held
    api.commit_batch(store, second.records, operator="desk-2")
    (zone,) = api.current_picture(store, t)
    assert zone.record.id == "B1419/26" and zone.operator == "desk-2"
    api.store_decision(store, zone.key, zone.record.zone, "accepted", operator="desk-2", note="matches the chart")
    (again,) = api.current_picture(store, t, bbox=(-95.0, 20.0, -84.0, 26.0))
    assert again.decision["decision"] == "accepted" and again.to_json()["store"]["decision"]["operator"] == "desk-2"
    store.close()
