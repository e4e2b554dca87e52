"""The store's parts on their own: identity keys, the footprint covers against ``geo.volumes``' exact shapes, the
windows, the KML writer."""

from __future__ import annotations

import math
import random
import xml.etree.ElementTree as ET
from datetime import datetime, timedelta, timezone

from airspace.core.records import CircleGeometry, Limit, PolygonGeometry, ZoneRecord
from airspace.geo.kml import to_kml
from airspace.geo.volumes import record_shape
from airspace.store.identity import fingerprint, identify
from airspace.store.shapes import OPEN, as_of, footprints, windows_of

T0 = datetime(2026, 3, 1, tzinfo=timezone.utc)


def test_identity_is_number_and_issuer():
    # the archive holds A0235/26 from more than one FIR: two notices, not one
    a = identify("A0235/26 NOTAMN Q) LFFF/QRTCA/IV/BO/W/000/050/ A) LFFF E) X", "A0235/26", "N", None)
    b = identify("A0235/26 NOTAMN Q) EGTT/QRTCA/IV/BO/W/000/050/ A) EGTT E) X", "A0235/26", "N", None)
    assert a.key == "LFFF/A0235/26" and b.key == "EGTT/A0235/26"
    r = identify("A0240/26 NOTAMR A235/26 Q) LFFF/QRTCA/IV/BO/W/000/050/ E) Y", "A0240/26", "R", "A235/26")
    assert r.ref == "LFFF/A0235/26"  # leading zeros do not make another notice
    assert identify("!BOS 01/502 BOS RWY 4R CLSD", "BOS 01/502", "N", None).key == "BOS 01/502"
    free = identify("UAV ops prohibited within 3 km of 22.60N 113.88E", None, None, None)
    assert free.key.startswith("msg:") and free.ref is None
    assert fingerprint("A1 NOTAMN\nQ) X") == fingerprint("A1  NOTAMN  Q) X")


def test_covers_enclose_the_exact_shapes():
    rng = random.Random(7)
    recs = []
    for k in range(600):
        lat, lon = rng.uniform(-84, 84), rng.uniform(-180, 180)
        if k % 2:
            recs.append(ZoneRecord(message=k, geometry=CircleGeometry(
                center=(lat, lon), radius_m=rng.choice([50.0, 926.0, 18520.0, 400_000.0, 1_500_000.0]))))
        else:
            r = rng.choice([0.02, 0.3, 2.0, 8.0])
            pts = [(max(-85.0, min(85.0, lat + r * math.sin(a))), (lon + r * math.cos(a) + 180) % 360 - 180)
                   for a in sorted(rng.uniform(0, 2 * math.pi) for _ in range(rng.randint(3, 9)))]
            if k % 6 == 0:
                rng.shuffle(pts)  # a ring that crosses itself: its convex hull is the cover
            recs.append(ZoneRecord(message=k, geometry=PolygonGeometry(points=pts)))
    fps = footprints(recs)
    for rec, fp in zip(recs, fps):
        exact = record_shape(rec)
        assert fp.shape is not None and fp.shape.buffer(1e-9).contains(exact), rec.geometry
        if rec.geometry.type == "circle" and 900 <= rec.geometry.radius_m < 500_000 and abs(rec.geometry.center[0]) < 70:
            assert fp.shape.area < exact.area * 1.02  # a cover, not a blanket


def test_windows_and_an_estimated_end():
    rec = ZoneRecord(message=0, geometry=CircleGeometry(center=(10, 10), radius_m=1000), start=T0,
                     end=T0 + timedelta(hours=5), end_estimated=True)
    wins = windows_of(rec)
    assert wins[0] == (T0.timestamp(), (T0 + timedelta(hours=5)).timestamp()) and wins[-1][1] == OPEN
    assert as_of(rec, (T0 + timedelta(hours=4)).timestamp()) is rec
    late = as_of(rec, (T0 + timedelta(hours=6)).timestamp())
    assert late.end is None and late.status == "review" and late.reasons and late.windows == []
    assert rec.end is not None and rec.status == "ok" and rec.reasons == []  # the record is untouched
    open_ended = ZoneRecord(message=0, geometry=CircleGeometry(center=(10, 10), radius_m=1000), start=T0)
    assert windows_of(open_ended) == [(T0.timestamp(), OPEN)]


def test_kml_draws_each_zone_and_never_renders_message_text_as_markup():
    text = 'A0001/26 NOTAMN E) <b>BOLD</b> & <script>alert(1)</script> AREA'
    recs = [ZoneRecord(message=0, id="A0001/26", geometry=CircleGeometry(center=(22.5, 114.0), radius_m=926.0),
                       lower=Limit(ref="SFC", ft=0.0, m=0.0, raw="SFC"),
                       upper=Limit(ref="AGL", ft=400.0, m=121.92, raw="400FT AGL"), start=T0,
                       end=T0 + timedelta(hours=2), text=text),
            ZoneRecord(message=1, id="A0002/26", geometry=PolygonGeometry(points=[(22, 179.9), (22.1, -179.9),
                                                                                  (21.9, -179.9)]),
                       upper=Limit(ref="FL", ft=5000.0, m=1524.0, raw="FL050"), start=T0, text="x")]
    doc = to_kml(recs, at=T0 + timedelta(hours=1))
    root = ET.fromstring(doc)
    ns = {"k": "http://www.opengis.net/kml/2.2"}
    marks = root.findall(".//k:Placemark", ns)
    assert len(marks) == 2
    desc = marks[0].find("k:description", ns).text
    assert "<script>" not in desc and "&lt;script&gt;" in desc  # HTML-escaped: shown as the characters
    assert marks[0].find(".//k:altitudeMode", ns).text == "relativeToGround"
    assert len(marks[1].findall(".//k:Polygon", ns)) == 2  # split at the antimeridian
    assert to_kml(recs, at=T0 - timedelta(hours=1)).count("<Placemark>") == 0


def test_a_revision_replaces_the_text_of_the_same_notice(tmp_path):
    """The real MMFR B1443/26 (data/real/archive.jsonl), then the same number with its end moved (hand-edited)."""
    import json

    from airspace.data.paths import archive_path
    from airspace.pipeline.batch import process_batch
    from airspace.store import open_store
    from airspace.store.identity import issuer

    text = next(json.loads(x)["text"] for x in archive_path().read_text(encoding="utf-8").splitlines()
                if json.loads(x).get("id") == "B1443/26" and issuer(json.loads(x)["text"]) == "MMFR")
    revised = text.replace("C) 2607240056", "C) 2607240200")
    assert revised != text
    store = open_store(f"sqlite:///{tmp_path}/z.sqlite")
    store.ingest_records(process_batch(text, engine="rules")[0])
    late = datetime(2026, 7, 24, 1, 30, tzinfo=timezone.utc)
    assert store.picture(late) == []
    store.ingest_records(process_batch(revised, engine="rules")[0])
    assert [z.record.id for z in store.picture(late)] == ["B1443/26"]
    assert [h["event"] for h in store.history("B1443/26")] == ["received", "revised"]
    assert store.counts()["live_zones"] == 1  # the first text's zone left the picture
    store.close()
