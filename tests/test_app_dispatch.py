"""The dispatch view's pure pieces on real records read by the rules reader: a zone's state at a moment
(geo.zonetime), "Can I fly here?" (geo.flycheck), a batch read as a feed (app.feed), local time (app.local_time),
the zone list (app.zone_list), typed places (app.place_lookup) and the engines loaded behind the page
(app.engine_loader)."""

from __future__ import annotations

import threading
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from airspace.app import feed as FD
from airspace.app import local_time as LT
from airspace.app import zone_list as ZL
from airspace.app.engine_loader import FAILED, LOADING, READY, EngineLoader
from airspace.app.place_lookup import NotAPlace, locate
from airspace.geo import flycheck as F
from airspace.geo import zonetime as Z
from airspace.geo.volumes import volumes_from_records
from airspace.pipeline.batch import process_batch

UTC = timezone.utc
REPO = Path(__file__).resolve().parents[1]
DEMO20 = (REPO / "data" / "samples" / "demo20.txt").read_text(encoding="utf-8")
T0 = datetime(2026, 11, 30, 2, 0, tzinfo=UTC)  # demo20's demo time

SPORTS = """A2231/26 NOTAMN
Q) ZGZU/QWULW/IV/BO/W/000/010/2231N11357E001
A) ZGSZ B) 2611300000 C) 2611301200
E) UAS OPS PROHIBITED DUE TO SPORTS EVENT WI 1NM RADIUS OF
PSN 223110N 1135635E (SHENZHEN BAY SPORTS CENTRE).
F) SFC G) 1000FT AMSL"""
PARK = """A2198/26 NOTAMN
Q) ZGZU/QWULW/IV/BO/W/000/004/2233N11403E001
A) ZGSZ B) 2611250000 C) 2612052359
E) UA FLIGHTS PROHIBITED WI 0.5NM RADIUS CENTERED ON 223313N 1140317E (LIANHUASHAN PARK).
F) SFC G) 120M AGL"""
CANCEL = """A2250/26 NOTAMC A2198/26
Q) ZGZU/QWULW/IV/BO/W/000/004/2233N11403E001
A) ZGSZ B) 2611300130
E) A2198/26 CANCELLED."""
REPLACE = """A2251/26 NOTAMR A2231/26
Q) ZGZU/QWULW/IV/BO/W/000/010/2231N11357E001
A) ZGSZ B) 2611300000 C) 2611300600
E) UAS OPS PROHIBITED DUE TO SPORTS EVENT WI 2NM RADIUS OF
PSN 223110N 1135635E (SHENZHEN BAY SPORTS CENTRE).
F) SFC G) 1000FT AMSL"""


def _read(text: str):
    records, _ = process_batch(text, "rules")
    return records


@pytest.fixture(scope="module")
def demo():
    records = _read(DEMO20)
    return records, {v.id or f"m{v.key[0]}": v for v in volumes_from_records(records)}


def test_zone_states_at_the_demo_time(demo):
    _, v = demo
    assert Z.zone_state(v["A2231/26"], T0) == Z.ACTIVE
    assert Z.ends_at(v["A2231/26"], T0) == datetime(2026, 11, 30, 12, tzinfo=UTC)
    assert Z.zone_state(v["A2246/26"], T0) == Z.UPCOMING_STATE  # 03:00Z: within 3 h
    assert Z.zone_state(v["A2236/26"], T0) == Z.SCHEDULED  # 06:00Z: later than 3 h
    assert Z.next_start(v["A2236/26"], T0) == datetime(2026, 11, 30, 6, tzinfo=UTC)
    assert Z.zone_state(v["A2225/26"], T0) == Z.EXPIRED  # ended the day before
    assert Z.zone_state(v["A2101/26"], T0) == Z.PERMANENT and Z.ends_at(v["A2101/26"], T0) is None
    # a daily schedule: active in its window, upcoming or scheduled between windows, expired after its last
    daily = v["A2198/26"]
    assert Z.zone_state(daily, T0) == Z.ACTIVE and Z.ends_at(daily, T0) == datetime(2026, 11, 30, 4, tzinfo=UTC)
    assert Z.zone_state(daily, datetime(2026, 11, 30, 22, tzinfo=UTC)) == Z.UPCOMING_STATE
    assert Z.zone_state(daily, datetime(2026, 11, 30, 12, tzinfo=UTC)) == Z.SCHEDULED
    assert Z.zone_state(daily, datetime(2026, 12, 7, tzinfo=UTC)) == Z.EXPIRED


def test_can_i_fly_inside_and_outside_a_zone(demo):
    _, v = demo
    vols = list(v.values())
    # in Lianhuashan Park (A2198/26: SFC-120 M AGL, daily 00-04Z): restricted, and said until when
    ans = F.can_i_fly(vols, 22.5536, 114.0547, T0)
    assert ans.verdict == F.RESTRICTED
    hit = next(h for h in ans.applies if h.volume.id == "A2198/26")
    assert hit.certain and hit.ends == datetime(2026, 11, 30, 4, tzinfo=UTC)
    # the same point after the day's window: the zone is not active, it starts again tomorrow -> clear
    later = F.can_i_fly(vols, 22.5536, 114.0547, datetime(2026, 11, 30, 12, tzinfo=UTC))
    assert later.verdict == F.CLEAR and not later.applies
    # over the sea well south of every zone: clear, nothing listed
    far = F.can_i_fly(vols, 22.20, 113.70, T0)
    assert far.verdict == F.CLEAR and not far.applies and not far.upcoming and not far.nearby
    # the sports centre (A2231/26: SFC-1000 FT AMSL): reached for any ground below 305 m; without the ground's
    # elevation the answer is "review", with it (sea level) "restricted"
    sc = F.can_i_fly(vols, 22.5194, 113.943, T0)
    assert sc.verdict == F.REVIEW and "elevation" in " ".join(sc.reasons)
    sc0 = F.can_i_fly(vols, 22.5194, 113.943, T0, ground_m=5.0)
    assert sc0.verdict == F.RESTRICTED and {h.volume.id for h in sc0.applies} >= {"A2231/26"}
    # ... and A2246/26 (same centre, 03:00-05:00Z, floor 1500 FT AMSL) is listed as starting within 3 h
    assert "A2246/26" in {h.volume.id for h in sc.upcoming} and "A2246/26" not in {h.volume.id for h in sc0.upcoming}
    # a review zone that applies makes the answer "review needed" (A2243/26, estimated end)
    rv = v["A2243/26"]
    p = rv.polygon.representative_point()
    ans = F.can_i_fly([rv], p.y, p.x, T0, ground_m=0.0)
    assert ans.verdict == F.REVIEW and any("review" in r for r in ans.reasons)


def test_can_i_fly_height_and_nearby(demo):
    _, v = demo
    high = v["A2236/26"]  # FL050-FL150, 06-09Z
    p = high.polygon.representative_point()
    at7 = datetime(2026, 11, 30, 7, tzinfo=UTC)
    assert F.can_i_fly([high], p.y, p.x, at7, ground_m=0.0).verdict == F.CLEAR  # a drone at 120 m is far below
    # 2 400 m reaches FL050 for any pressure allowed (FL is pressure altitude: up to 600 m below true altitude)
    assert F.can_i_fly([high], p.y, p.x, at7, height_m=2400.0, ground_m=0.0).verdict == F.RESTRICTED
    assert F.can_i_fly([high], p.y, p.x, at7, height_m=1700.0, ground_m=0.0).verdict == F.REVIEW
    park = v["A2198/26"]  # 0.5 NM radius around 22.5536, 114.0547
    near = F.can_i_fly([park], 22.5536 + 1200 / 111_320, 114.0547, T0)  # ~1.2 km north: ~270 m outside
    assert near.verdict == F.CLEAR and [h.volume.id for h in near.nearby] == ["A2198/26"]
    assert 100 < near.nearby[0].distance_m < F.NEAR_M
    # the same point asked by a click known to +-300 m: the park may be under it -> review, with the reason
    fuzzy = F.can_i_fly([park], 22.5536 + 1200 / 111_320, 114.0547, T0, within_m=300.0)
    assert fuzzy.verdict == F.REVIEW and "±300 m" in " ".join(fuzzy.reasons)
    # ... but not outside the park's daily window (00-04Z): nothing active to be inside of
    assert F.can_i_fly([park], 22.5536 + 1200 / 111_320, 114.0547, datetime(2026, 11, 30, 12, tzinfo=UTC),
                       within_m=300.0).verdict == F.CLEAR
    with pytest.raises(ValueError):
        F.can_i_fly([park], 95.0, 0.0, T0)


def test_column_overlap_allows_for_terrain(demo):
    _, v = demo
    agl = v["A2198/26"]  # SFC-120 M AGL
    assert F.column_overlap(120.0, "AGL", agl) == (True, True)
    floating = v["A2245/26"]  # 100 M AGL - FL050
    assert F.column_overlap(50.0, "AGL", floating) == (False, False)  # below its floor
    # its ceiling is a flight level: for ground high enough the whole column is above it, so "possible" only ...
    assert F.column_overlap(120.0, "AGL", floating) == (True, False)
    # ... until the operator gives the site's elevation
    assert F.column_overlap(120.0, "AGL", floating, ground_m=10.0) == (True, True)


def test_notamc_removes_and_notamr_replaces_what_they_name():
    records = _read("\n\n".join([SPORTS, PARK, CANCEL, REPLACE]))
    view = FD.apply_feed(records)
    keys = {r.id: f"{r.message}:{r.zone}" for r in records}
    assert view.gone[keys["A2198/26"]] == "cancelled by A2250/26"
    assert view.gone[keys["A2231/26"]] == "replaced by A2251/26"
    assert {r.id for r in view.live} == {"A2250/26", "A2251/26"}
    assert view.refs[keys["A2250/26"]].startswith("cancels A2198/26: removed")
    # nothing is lost: every record is still there for the table and the exports
    assert len(records) == 4
    # whatever the order of the messages
    again = FD.apply_feed(_read("\n\n".join([CANCEL, REPLACE, PARK, SPORTS])))
    assert {r.id for r in again.live} == {"A2250/26", "A2251/26"}
    # a cancellation of a NOTAM not in the batch says so and removes nothing
    alone = FD.apply_feed(_read("\n\n".join([SPORTS, CANCEL])))
    assert {r.id for r in alone.live} == {"A2231/26", "A2250/26"} and "not in this batch" in next(iter(alone.refs.values()))


def test_identical_zones_are_one_with_a_count():
    records = _read("\n\n".join([SPORTS] * 25 + [PARK]))
    view = FD.apply_feed(records)
    assert len(records) == 26 and [r.id for r in view.live] == ["A2231/26", "A2198/26"]
    assert view.copies == {"0:0": 25}
    assert sum(1 for why in view.gone.values() if why.startswith("copy of A2231/26")) == 24
    rows = ZL.zone_rows(volumes_from_records(view.live), T0, copies=view.copies, tz_of=lambda v: "Asia/Shanghai")
    assert rows.iloc[0]["zone"] == "A2231/26 ×25"


def test_local_time_beside_utc():
    assert LT.tz_name(22.55, 114.05) in ("Asia/Shanghai", "Asia/Hong_Kong")  # the border runs through the bay
    assert LT.tz_name(51.5, -0.12) == "Europe/London" and LT.tz_name(40.7, -74.0) == "America/New_York"
    t = datetime(2026, 11, 30, 2, 0, tzinfo=UTC)
    assert LT.both_text(t, "Asia/Shanghai") == "2026-11-30 02:00Z (10:00 CST)"
    assert LT.both_text(t, "America/New_York") == "2026-11-30 02:00Z (2026-11-29 21:00 EST)"
    assert LT.both_text(t, None) == "2026-11-30 02:00Z"
    assert LT.local_text(datetime(2026, 7, 1, 12, tzinfo=UTC), "Europe/London") == "2026-07-01 13:00 BST"


def test_zone_list_reads_like_a_dispatcher(demo):
    _, v = demo
    rows = ZL.zone_rows(list(v.values()), T0, tz_of=lambda v: "Asia/Shanghai")
    # active and permanent zones first, then upcoming, scheduled, expired
    order = [Z.STATES.index(s) for s in rows["state"]]
    assert order == sorted(order)
    a = rows[rows["zone"] == "A2231/26"].iloc[0]
    assert a["state"] == "active" and a["when"] == "until 12:00Z (20:00 CST)"
    assert rows[rows["zone"] == "A2246/26"].iloc[0]["when"] == "from 03:00Z (11:00 CST)"
    assert rows[rows["zone"] == "A2101/26"].iloc[0]["when"] == "permanent"
    assert rows[rows["zone"] == "A2225/26"].iloc[0]["when"].startswith("ended 2026-11-29 13:30Z")
    assert rows[rows["zone"] == "A2243/26 (review)"].iloc[0]["when"].endswith("EST")
    assert ZL.common_tz(list(v.values()), tz_of=lambda v: "Asia/Shanghai") == "Asia/Shanghai"


def test_typed_places():
    assert locate("22.5194, 113.943")[:2] == (22.5194, 113.943)
    assert locate("-33.9 151.2")[:2] == (-33.9, 151.2)
    lat, lon, _ = locate("2232N11356E")
    assert lat == pytest.approx(22.5333, abs=1e-3) and lon == pytest.approx(113.9333, abs=1e-3)
    lat, lon, what = locate("VHHH")
    assert what.startswith("VHHH") and lat == pytest.approx(22.31, abs=0.05)
    assert locate("hkg")[2].startswith("VHHH")  # an IATA code, any case
    for bad in ("", "95, 10", "nowhere-at-all-xyz"):
        with pytest.raises(NotAPlace):
            locate(bad)


def test_engine_loader_loads_behind_and_says_why_not():
    gate = threading.Event()

    def load(name):
        if name == "broken":
            raise FileNotFoundError("no checkpoint")
        gate.wait(30)
        return f"extractor:{name}"

    loader = EngineLoader(load)
    loader.start("slow")
    assert loader.state("slow") == (LOADING, None) and loader.get("slow") is None
    gate.set()
    assert loader.wait("slow", 30) == ("extractor:slow", None) and loader.state("slow") == (READY, None)
    extractor, why = loader.wait("broken", 30)
    assert extractor is None and "no checkpoint" in why and loader.state("broken")[0] == FAILED
    assert loader.state("never")[0] == "idle"


def test_upcoming_window_is_three_hours():
    assert Z.UPCOMING == timedelta(hours=3)


def test_a_review_resolved_by_choice_or_edit_carries_its_provenance(demo):
    from airspace.app import resolve as R
    from airspace.geo.export import to_ed269, to_ed318, to_geojson

    records, _ = demo
    est = next(r for r in records if r.id == "A2243/26")  # review: its end is estimated
    assert est.status == "review" and est.end_estimated
    when = datetime(2026, 12, 5, 21, 0, tzinfo=UTC)
    fixed = R.edit(est, "end", "2026-11-30 16:00", when)
    assert fixed.status == "ok" and not fixed.reasons and not fixed.end_estimated
    assert fixed.end == datetime(2026, 11, 30, 16, tzinfo=UTC)
    assert fixed.provenance == {"by": "operator", "when": "2026-12-05T21:00:00Z", "action": "edited end",
                                "fields": ["end"], "was": "review", "reasons_resolved": est.reasons}
    # a second edit keeps what the first settled and adds its field
    twice = R.edit(fixed, "upper", "2000FT AMSL", when)
    assert twice.provenance["fields"] == ["end", "upper"] and twice.provenance["reasons_resolved"] == est.reasons
    assert twice.upper.m == pytest.approx(609.6)
    # values that do not read are errors, never an ok record
    for field, bad in (("end", "soonish"), ("upper", "quite high"), ("radius", "2NM"), ("end", "2026-11-29 00:00")):
        with pytest.raises(ValueError):
            R.edit(est, field, bad, when)
    # choosing another reading of the same zone: ok, with the fields that differ
    other = est.model_copy(update={"end": datetime(2026, 11, 30, 18, tzinfo=UTC), "end_estimated": False})
    chose = R.choose(est, other, "rules", when)
    assert chose.status == "ok" and chose.provenance["action"] == "chose the rules reading"
    assert "end" in chose.provenance["fields"] and chose.message == est.message
    # the exports carry it: JSONL (the record's JSON), GeoJSON properties, ED-269 / ED-318 extendedProperties
    out = R.apply(records, {f"{est.message}:{est.zone}": fixed.model_dump(mode="json")})
    assert next(r for r in out if r.id == "A2243/26").to_json()["provenance"]["by"] == "operator"
    gj = R.with_provenance(to_geojson(out), out)
    props = next(f["properties"] for f in gj["features"] if f["properties"].get("id") == "A2243/26")
    assert props["provenance"]["fields"] == ["end"] and props["status"] == "ok"
    e269 = R.with_provenance(to_ed269(out), out)
    assert sum("provenance" in f["extendedProperties"] for f in e269["features"]) == 1
    e318 = R.with_provenance(to_ed318(out), out)
    assert sum("provenance" in f["properties"]["extendedProperties"] for f in e318["features"]) == 1


def test_kml_has_every_volume_with_its_band_and_escaped_text(demo):
    import xml.etree.ElementTree as ET

    from airspace.geo.kml import to_kml

    records, v = demo
    hostile = records[0].model_copy(update={"text": "<b>x</b> & <script>alert(1)</script>", "message": 99})
    doc = to_kml(list(records) + [hostile])
    root = ET.fromstring(doc.encode("utf-8"))  # well-formed XML
    ns = {"k": "http://www.opengis.net/kml/2.2"}
    marks = root.findall(".//k:Placemark", ns)
    assert len(marks) == len(volumes_from_records(records)) + 1
    by_name = {m.find("k:name", ns).text: m for m in marks}
    sports = by_name["A2231/26"]
    data = {d.get("name"): d.find("k:value", ns).text for d in sports.findall(".//k:Data", ns)}
    assert data["floor"].startswith("0.0 m AGL") and data["ceiling"].startswith("304.8 m AMSL")
    assert sports.find(".//k:altitudeMode", ns).text == "absolute" and sports.find(".//k:extrude", ns).text == "1"
    assert sports.find(".//k:TimeSpan/k:end", ns).text == "2026-11-30T12:00:00Z"
    # a floating zone (A2236/26, FL050-FL150) is not extruded to the ground
    assert by_name["A2236/26"].find(".//k:extrude", ns).text == "0"
    # message text is text: the description a viewer renders as HTML holds it HTML-escaped, no element made of it
    descs = [m.find("k:description", ns).text for m in marks]
    assert "&lt;b&gt;x&lt;/b&gt; &amp; &lt;script&gt;alert(1)&lt;/script&gt;" in descs
    assert root.find(".//k:script", ns) is None
    assert "<script>" not in doc


def test_briefing_lists_the_zones_along_a_route(demo):
    from airspace.app.briefing import briefing_html, zones_along
    from airspace.app.route_panel import check_route

    _, v = demo
    vols = list(v.values())
    route = check_route("22.5194, 113.900, 100\n22.5194, 113.990, 100", "AGL", T0, 15.0, vols)
    along = zones_along(vols, route["path"], T0)
    ids = [x.id for x, _ in along]
    assert "A2231/26" in ids and all(d <= 1000 for _, d in along)
    assert "A2225/26" not in ids  # expired before departure
    html = briefing_html(route, vols, T0)
    assert "The route enters zones" in html and "A2231/26" in html and "10:00 CST" in html
    assert "<script" not in html and "http" not in html.split("</style>")[1].lower().replace("https", "")


def test_towns_label_the_map_and_can_be_typed():
    from airspace.app import basemap as B
    from airspace.app import map_layers as L

    towns = B.towns()
    assert len(towns) > 30_000 and towns[0][3] >= towns[-1][3] >= 15_000  # largest first
    # around demo20's zones: the towns of Shenzhen and Hong Kong are labelled, after the capitals
    ctx = B.basemap_for((113.9, 22.5, 114.1, 22.6))["context"]
    kinds = {n: k for n, _, _, k in ctx["places"]}
    assert kinds.get("Shenzhen") == "town" and kinds.get("Hong Kong") == "capital"
    _, labels = L.context_rows(ctx)
    assert {"Shenzhen", "Bao'an"} <= {r["text"] for r in labels if r["kind"] == "town"}
    assert set("Bao'an") <= set(L.label_charset())
    lat, lon, what = locate("Shenzhen")
    assert (lat, lon) == (22.546, 114.068) and what.startswith("Shenzhen (town")
