"""The dashboard's pure helpers on real records and volumes: the map's time (timeline), the page's tables (tables),
what a batch may be (batch_input), how an engine read it (run_summary) and message text kept as text (safe_text)."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from airspace.app import batch_input as I
from airspace.app import tables as T
from airspace.app import timeline as TL
from airspace.app.run_summary import reading_summary
from airspace.app.safe_text import deck_text, escaped, md_literal
from airspace.core.records import CircleGeometry, Limit, NamedGeometry, ZoneRecord
from airspace.geo.volumes import volumes_from_records

UTC = timezone.utc


def _rec(message, *, start=None, end=None, windows=(), permanent=False, lower=None, geometry=None, **kw):
    return ZoneRecord(message=message, id=f"A{100 + message}/26", geometry=geometry or CircleGeometry(center=(51.5, -0.1), radius_m=2000.0),
                      lower=lower or Limit(ref="SFC", ft=0, m=0, raw="SFC"), upper=Limit(ref="AMSL", ft=1000, m=304.8, raw="1000FT AMSL"),
                      start=start, end=end, windows=list(windows), permanent=permanent, text="x", **kw)


@pytest.fixture(scope="module")
def vols():
    d = lambda day, h=0: datetime(2026, 12, day, h, tzinfo=UTC)
    recs = [
        _rec(0, start=d(1, 10), end=d(1, 12)),  # two hours
        _rec(1, start=d(2, 6), end=d(2, 9)),  # next day
        _rec(2, start=datetime(2026, 1, 1, tzinfo=UTC), permanent=True),  # permanent: no end
        _rec(3, start=datetime(2026, 1, 19, tzinfo=UTC), end=datetime(2026, 7, 31, tzinfo=UTC)),  # six months
        _rec(4, lower=Limit(ref="AMSL", ft=1500, m=457.2, raw="1500FT AMSL"), start=d(1, 0), end=d(1, 23)),
        _rec(5, geometry=NamedGeometry(name="大连梭鱼湾足球场"), status="review", reasons=["no coordinates"]),
        _rec(6, notam_type="C", ref_id="A0099/26", geometry=None),
    ]
    recs.append(ZoneRecord(message=7, status="error", reasons=["message is empty"], text=""))
    return recs, volumes_from_records(recs)


def test_slider_spans_the_short_windows_not_a_year(vols):
    _, vs = vols
    t = datetime(2026, 12, 1, 11, tzinfo=UTC)
    lo, hi = TL.slider_span(vs, t)
    # the two short windows (Dec 1 10-12Z, Dec 2 06-09Z, Dec 1 00-23Z): not the permanent zone, not six months
    assert lo == datetime(2026, 12, 1, 0, tzinfo=UTC) and hi == datetime(2026, 12, 2, 9, tzinfo=UTC)
    # a moment far from every window: the slider is the few days around it, never stretched to reach them
    far = datetime(2027, 3, 1, 12, 7, tzinfo=UTC)
    lo, hi = TL.slider_span(vs, far)
    assert lo <= far <= hi and hi - lo <= TL.MAX_SPAN + timedelta(hours=1)
    assert TL.snap(far) == datetime(2027, 3, 1, 12, 5, tzinfo=UTC)
    # steps to the moments a zone starts or stops
    assert TL.step_change(vs, t, +1) == datetime(2026, 12, 1, 12, tzinfo=UTC)
    assert TL.step_change(vs, t, -1) == datetime(2026, 12, 1, 10, tzinfo=UTC)
    assert TL.now_minute(datetime(2026, 12, 1, 11, 3, 59, tzinfo=UTC)) == datetime(2026, 12, 1, 11, 3, tzinfo=UTC)


def test_active_summary_names_the_zones(vols):
    _, vs = vols
    text = TL.active_summary(vs, datetime(2026, 12, 1, 11, tzinfo=UTC))
    assert text.startswith("3 of 5 zones active at 2026-12-01 11:00Z: A100/26, A102/26, A104/26")
    quiet = TL.active_summary([vs[1]], datetime(2026, 12, 1, 11, tzinfo=UTC))
    assert quiet == "No zone is active at 2026-12-01 11:00Z. Next: A101/26 from 2026-12-02 06:00Z."
    assert TL.active_keys(vs, None) == {f"{v.key[0]}:{v.key[1]}": True for v in vs}


def test_tables_number_from_one_and_show_date_and_time(vols):
    recs, vs = vols
    df = T.records_frame(recs)
    assert list(df["msg"]) == [1, 2, 3, 4, 5, 6, 7, 8] and set(df["zone"]) == {1}
    assert df.loc[0, "start (UTC)"] == "2026-12-01 10:00Z" and df.loc[0, "end (UTC)"] == "2026-12-01 12:00Z"
    assert df.loc[2, "end (UTC)"] == "PERM"
    assert T.utc_text(datetime(2026, 12, 1, 10, 0, 30, tzinfo=UTC)) == "2026-12-01 10:00:30Z"
    # what leaves no mark on the map, and why
    missing = {m["msg"]: m["why"] for m in T.unplaced(recs, vs)}
    assert set(missing) == {"6", "7", "8"}
    assert "大连梭鱼湾足球场" in missing["6"] and "no coordinates" in missing["6"]
    assert missing["7"].startswith("cancels A0099/26") and missing["8"] == "error: message is empty"
    zl = T.zone_list_frame(vs, TL.active_keys(vs, datetime(2026, 12, 1, 11, tzinfo=UTC)))
    assert list(zl["zone"])[:2] == ["A100/26", "A101/26"] and list(zl["now"])[:2] == ["active", "–"]
    assert zl.loc[0, "band"] == "SFC – 305 m AMSL"


def test_filters_status_activity_and_low_zones(vols):
    _, vs = vols
    t = datetime(2026, 12, 1, 11, tzinfo=UTC)
    assert len(T.filter_volumes(vs, t)) == 5
    assert [v.key[0] for v in T.filter_volumes(vs, t, active_only=True)] == [0, 2, 4]
    # zones that reach below 120 m: the 1500 ft AMSL floor does not
    assert 4 not in [v.key[0] for v in T.filter_volumes(vs, t, below_m=120.0)]
    assert T.filter_volumes(vs, t, statuses=["review"]) == []


def test_conflict_rows_are_one_based():
    from airspace.geo.conflicts import parse_route, route_conflicts

    recs = [_rec(0, start=datetime(2026, 12, 1, 0, tzinfo=UTC), end=datetime(2026, 12, 2, tzinfo=UTC))]
    route = parse_route("51.5, -0.2, 100\n51.5, 0.0, 100", departure=datetime(2026, 12, 1, 10, tzinfo=UTC),
                        speed_mps=15.0, alt_ref="AGL")
    rows = T.conflict_rows(route_conflicts(route, volumes_from_records(recs)))
    assert len(rows) == 1 and rows[0]["msg"] == 1 and rows[0]["zone"] == 1
    assert rows[0]["leg"] == "1 (waypoint 1→2)" and rows[0]["enters (UTC)"].startswith("2026-12-01 10:0")


def test_uploads_demo_time_and_jsonl_limits():
    sig = I.upload_signature([("a.txt", b"one")])
    assert sig == I.upload_signature([("a.txt", b"one")]) != I.upload_signature([("a.txt", b"two")])
    demo = I.sample_text("demo20")
    assert I.demo_time(demo) == datetime(2026, 11, 30, 2, tzinfo=UTC)
    assert I.demo_time(demo + "\n\nA9999/26 NOTAMN") is None and I.demo_time("") is None
    assert not I.is_jsonl('{"text": "x", "id": ' + "9" * 5000 + "}")  # over Python's digit limit: not JSONL here


def test_reading_summary_in_words():
    clover = {"engine": "clover", "messages": 20, "model": True, "forwards": 80, "answer_tokens": 960,
              "tokens_per_forward": 12.0, "steps_per_block": [2, 3, 1, 2], "prompts_cached": 20}
    text = reading_summary(clover, 0.61)
    assert text.startswith("clover read 20 messages in 0.61 s: 80 forward passes wrote 960 answer tokens (12.0 per pass")
    assert "2.0 denoising steps on average (1–3, over 4 blocks)" in text
    assert "20 of 20 messages had been read while the batch was on the page" in text
    rules = reading_summary({"engine": "rules", "messages": 1, "model": False}, 0.02)
    assert rules == "rules read 1 message in 0.02 s: the deterministic rules reader, no model passes."


PAYLOADS = ["![x](http://198.51.100.7/beacon.png)", "[Open official NOTAM](http://198.51.100.7/login)",
            "<img src=http://198.51.100.7/x.png>", "http://198.51.100.7/auto", ":red[alarm] $x^2$ **bold**"]


def test_message_text_stays_text():
    for p in PAYLOADS:
        e = escaped(p)
        assert "<img" not in e and "<a " not in e
        lit = md_literal(p)
        # every punctuation character escaped: no Markdown construct can form ("!" "[" "(" ":" "<" "$" "*")
        assert all(lit[i - 1] == "\\" for i, ch in enumerate(lit) if ch in "![]()<>:$*" and i > 0)
    assert md_literal("a\nb") == "a  \nb"
    assert deck_text("@@=1+1") == "\u200b@@=1+1" and deck_text("A1234/26") == "A1234/26"
