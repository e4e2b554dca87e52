"""The dashboard on a zone store (``app/store_panel.py``), driven headless by Streamlit's AppTest with a real SQLite
store in ``tmp_path`` named by ``AIRSPACE_STORE``: the page opens on the zones ``airspace-store ingest`` stored from
the shipped demo batch (data/samples/demo20.txt, Shenzhen, demo time 2026-11-30T02:00Z); a pasted NOTAMC shows its
cancel before the commit and takes the zone off the stored picture after it; a review resolved on the page is kept
in the store and is there for the next session."""

from __future__ import annotations

import io
import json
import threading
from datetime import date, datetime, timedelta, timezone
from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

from airspace.store.cli import run as store_cli
from airspace.store.url import open_store

REPO = Path(__file__).resolve().parents[1]
SCRIPT = str(REPO / "app" / "dashboard.py")
DEMO20 = REPO / "data" / "samples" / "demo20.txt"
DEMO_T = datetime(2026, 11, 30, 2, 0, tzinfo=timezone.utc)
# A NOTAMC written as the sample's own NOTAMC (A2240/26) is: it cancels A2231/26, the Shenzhen Bay sports-event
# zone in force at the demo time.
CANCEL = """A2250/26 NOTAMC A2231/26
Q) ZGZU/QWULW/IV/BO/W/000/010/2231N11357E001
A) ZGSZ B) 2611300130
E) A2231/26 CANCELLED. SPORTS EVENT AT SHENZHEN BAY SPORTS CENTRE ENDED.
"""


@pytest.fixture
def desk(tmp_path, monkeypatch) -> str:
    """A store holding demo20 as ``airspace-store ingest`` keeps it; the page's store (AIRSPACE_STORE)."""
    url = f"sqlite:///{tmp_path}/desk.sqlite"
    out = io.StringIO()
    code = store_cli(["--store", url, "ingest", "--engine", "rules", "--operator", "desk-1", str(DEMO20)], out=out)
    assert code == 1 and json.loads(out.getvalue())["written"] == 20  # 1: some records are review
    monkeypatch.setenv("AIRSPACE_STORE", url)
    return url


def _background_done() -> None:
    """Wait for an earlier AppTest's warm-up and engine-loading threads (see test_app_dashboard)."""
    for t in threading.enumerate():
        if t.name == "airspace-warm" or t.name.startswith("airspace-load-"):
            t.join(300)


def _page(t: datetime | None = DEMO_T) -> AppTest:
    """A new page session with the map at ``t`` (the demo's zones are all over by today), or at today's time."""
    _background_done()
    at = AppTest.from_file(SCRIPT, default_timeout=180)
    if t is not None:
        at.session_state["map_t"] = t
    at.run()
    assert not at.exception
    return at


def _volume_ids(at: AppTest) -> set[str]:
    (chart,) = at.get("deck_gl_json_chart")
    spec = json.loads(chart.proto.json)
    layer = next(x for x in spec["layers"] if x["id"].split("~")[0] == "volumes")
    return {row["id"] for row in layer["data"] if row["key"] != "warmup"}


def _head(at: AppTest) -> str:
    return next(h.proto.body for h in at.get("html") if 'data-testid="head-line"' in h.proto.body)


def _stored(url: str, t: datetime = DEMO_T) -> list:
    """What the store holds in force at ``t`` or starting within the page's week after it."""
    s = open_store(url)
    try:
        return s.picture(t, until=t + timedelta(days=7))
    finally:
        s.close()


def test_the_page_opens_on_the_stored_picture(desk):
    at = _page(None)  # today: what is still in force (an estimated end stays until it is cancelled or replaced)
    today = _stored(desk, at.session_state["map_t"])
    assert today and _volume_ids(at) == {z.record.id or "" for z in today if z.record.geometry is not None}
    assert "the stored picture" in _head(at) and f"{len(today)} records" in _head(at)
    at.date_input(key="t_date").set_value(DEMO_T.date()).run()
    at.time_input(key="t_time").set_value(DEMO_T.time()).run()
    assert at.session_state["map_t"] == DEMO_T and not at.exception
    stored = _stored(desk)
    drawn = {z.record.id or "" for z in stored if z.record.geometry is not None}
    assert len(drawn) >= 9 and _volume_ids(at) == drawn > _volume_ids(_page(None))  # every shaped zone, no other
    assert "the stored picture" in _head(at) and f"{len(stored)} records" in _head(at)
    assert any("The map shows the store" in c.value for c in at.sidebar.caption)
    at.date_input(key="t_date").set_value(date(2026, 1, 5)).run()  # nothing in force: the time controls stay
    assert "0 records" in _head(at) and _volume_ids(at) == set() and at.date_input(key="t_date")
    assert not at.sidebar.dataframe and not [b for b in at.sidebar.button if b.key == "commit_button"]


def test_a_cancel_is_previewed_then_committed_and_every_session_sees_it(desk):
    at, other = _page(), _page()
    assert "A2231/26" in _volume_ids(at) and "A2231/26" in _volume_ids(other)
    at.text_area(key="batch_text").set_value(CANCEL)
    at.radio(key="engine").set_value("rules")
    at.button(key="run_button").click().run()
    assert not at.exception
    (preview,) = at.sidebar.dataframe  # what committing the batch would do
    rows = preview.value.to_dict("records")
    assert {"change": "cancels", "notice": "ZGZU/A2231/26", "detail": "by ZGZU/A2250/26"} in rows
    assert "A2231/26" in {z.record.id for z in _stored(desk)}  # a preview writes nothing
    at.button(key="commit_button").click().run()  # no operator named: nothing is committed
    assert "Type your name" in " ".join(c.value for c in at.sidebar.caption)
    assert "A2231/26" in {z.record.id for z in _stored(desk)}
    at.text_input(key="operator").input("desk-2")
    at.button(key="commit_button").click().run()
    assert not at.exception
    at.session_state["map_t"] = DEMO_T  # the Run put the map at today's time; look at the demo's again
    at.run()
    assert "the stored picture" in _head(at) and "A2231/26" not in _volume_ids(at)
    assert "A2231/26" not in {z.record.id for z in _stored(desk)}
    other.run()  # the second operator's page, on its next run
    assert "A2231/26" not in _volume_ids(other) and len(_volume_ids(other)) == len(_volume_ids(at))
    s = open_store(desk)
    cancelled = [h for h in s.history("ZGZU/A2231/26") if h["event"] == "cancelled"]
    s.close()
    assert cancelled and cancelled[0]["operator"] == "desk-2" and cancelled[0]["cause"] == "ZGZU/A2250/26"


def test_a_review_decision_is_kept_in_the_store_for_the_next_session(desk):
    at = _page()
    keys = at.session_state["store_keys"]
    est = next(z for z in _stored(desk) if z.record.id == "A2243/26")  # review: its end is estimated
    assert est.record.status == "review" and est.decision is None
    page_key = next(k for k, v in keys.items() if v == (est.key, est.record.zone))
    at.text_input(key="operator").input("desk-3")
    at.selectbox(key="focus").set_value(page_key).run()
    at.button(key="use_engine").click().run()
    assert not at.exception and not at.error
    (kept,) = [z for z in _stored(desk) if z.key == est.key and z.record.zone == est.record.zone]
    assert kept.decision["decision"] == "resolved" and kept.decision["operator"] == "desk-3"
    assert json.loads(kept.decision["note"])["provenance"]["action"] == "chose the store reading"
    fresh = _page()
    page_key = next(k for k, v in fresh.session_state["store_keys"].items() if v == (est.key, est.record.zone))
    fresh.selectbox(key="focus").set_value(page_key).run()
    heads = [h.proto.body for h in fresh.get("html")]
    assert any('data-testid="provenance"' in h and "chose the store reading" in h for h in heads)
    assert any('data-testid="focus-head"' in h and "<code>ok</code>" in h for h in heads)
    assert not [b for b in fresh.button if b.key == "use_engine"]  # resolved: no review left to settle
