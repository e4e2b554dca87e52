"""geo.export: GeoJSON (RFC 7946), ED-269 and ED-318 from real records; structure checked, nothing lost."""

from __future__ import annotations

import json
import re
from datetime import datetime, timezone

import pytest
import shapely
from shapely.geometry import shape

from airspace.core.records import CircleGeometry, Limit, NamedGeometry, PolygonGeometry, Window, ZoneRecord
from airspace.geo.export import to_ed269, to_ed318, to_geojson

UTC = timezone.utc


def limit_from_truth(t: dict | None) -> Limit | None:
    """A Limit from the dev set's truth object ({value_ft, ref})."""
    if t is None:
        return None
    ft = t["value_ft"]
    raw = {"FL": f"FL{int(ft // 100):03d}" if ft is not None else "FL", "UNL": "UNL"}.get(t["ref"], f"{int(ft or 0)}FT {t['ref']}")
    if t["ref"] in ("SFC", "GND"):
        raw = t["ref"]
    return Limit(ref=t["ref"], ft=ft, m=None if ft is None else ft * 0.3048, raw=raw)


def record_from_truth(i: int, row: dict) -> ZoneRecord:
    """A ZoneRecord built from a real dev message and its hand-checked truth."""
    t = row["truth"]
    if t.get("center"):
        geom = CircleGeometry(center=(t["center"]["lat"], t["center"]["lon"]), radius_m=t["radius_nm"] * 1852.0)
    elif t.get("polygon"):
        geom = PolygonGeometry(points=[tuple(p) for p in t["polygon"]])
    else:
        geom = NamedGeometry(name=t.get("center_name", "?"))
    return ZoneRecord(
        message=i,
        id=row["id"],
        status="ok" if not isinstance(geom, NamedGeometry) else "review",
        reasons=[] if not isinstance(geom, NamedGeometry) else ["named place cannot be resolved"],
        geometry=geom,
        lower=limit_from_truth(t.get("lower")),
        upper=limit_from_truth(t.get("upper")),
        start=datetime.fromisoformat(t["start_utc"].replace("Z", "+00:00")),
        end=datetime.fromisoformat(t["end_utc"].replace("Z", "+00:00")),
        text=row["text"],
    )


@pytest.fixture(scope="module")
def records(dev_rows) -> list[ZoneRecord]:
    recs = [record_from_truth(i, row) for i, row in enumerate(dev_rows) if row.get("truth")]
    n = len(dev_rows)
    # plus: an antimeridian polygon with a daily schedule, an error record, and a cancellation
    recs.append(
        ZoneRecord(
            message=n,
            id="B0001/26",
            geometry=PolygonGeometry(points=[(-15.0, 179.0), (-15.0, -179.0), (-17.0, -179.0), (-17.0, 179.0)]),
            lower=Limit(ref="AMSL", ft=1000, m=304.8, raw="1000FT AMSL"),
            upper=Limit(ref="AMSL", ft=None, m=900.0, raw="900M AMSL"),
            start=datetime(2026, 11, 29, 0, 0, tzinfo=UTC),
            end=datetime(2026, 12, 1, 0, 0, tzinfo=UTC),
            schedule="DAILY 0800-1700",
            windows=[
                Window(start=datetime(2026, 11, 29, 8, tzinfo=UTC), end=datetime(2026, 11, 29, 17, tzinfo=UTC)),
                Window(start=datetime(2026, 11, 30, 8, tzinfo=UTC), end=datetime(2026, 11, 30, 17, tzinfo=UTC)),
            ],
        )
    )
    recs.append(ZoneRecord(message=n + 1, status="error", reasons=["no NOTAM structure found"], text="\x00junk"))
    recs.append(ZoneRecord(message=n + 2, id="A0002/26", notam_type="C", ref_id="A0001/26"))
    return recs


def ring_signed_area(ring: list[list[float]]) -> float:
    """Shoelace area in lon/lat: positive for counter-clockwise."""
    return 0.5 * sum(x1 * y2 - x2 * y1 for (x1, y1), (x2, y2) in zip(ring[:-1], ring[1:]))


def polygons_of(geom: dict) -> list[list[list[list[float]]]]:
    if geom["type"] == "Polygon":
        return [geom["coordinates"]]
    assert geom["type"] == "MultiPolygon"
    return geom["coordinates"]


def assert_rfc7946_polygonal(geom: dict) -> None:
    for poly in polygons_of(geom):
        ext, *holes = poly
        assert ext[0] == ext[-1] and len(ext) >= 4
        assert ring_signed_area(ext) > 0, "exterior ring must be counter-clockwise"
        for h in holes:
            assert ring_signed_area(h) < 0
        for lon, lat in ext:
            assert -180.0 <= lon <= 180.0 and -90.0 <= lat <= 90.0
    assert shape(geom).is_valid


def roundtrip(obj: dict) -> dict:
    text = json.dumps(obj, allow_nan=False, ensure_ascii=False)
    back = json.loads(text)
    assert back == obj
    return back


# ---------------------------------------------------------------------------------------------------------------


def test_geojson_structure_and_nothing_lost(records):
    fc = roundtrip(to_geojson(records))
    assert fc["type"] == "FeatureCollection" and "crs" not in fc
    assert len(fc["features"]) == len(records)
    by_key = {(f["properties"]["message"], f["properties"]["zone"]): f for f in fc["features"]}
    for rec in records:
        f = by_key[(rec.message, rec.zone)]
        assert f["type"] == "Feature"
        if isinstance(rec.geometry, (CircleGeometry, PolygonGeometry)) and rec.notam_type != "C":
            assert_rfc7946_polygonal(f["geometry"])
        else:
            assert f["geometry"] is None
            if rec.notam_type == "C" and rec.geometry is None:  # a cancellation: the same status as its record
                assert f["properties"]["status"] == rec.status
            else:
                assert f["properties"]["status"] in ("review", "error")
            assert f["properties"]["no_shape"]


def test_geojson_circle_is_lon_lat_and_encloses_centre_and_radius(records, dev_by_id):
    fc = to_geojson(records)
    f = next(f for f in fc["features"] if f["properties"]["id"] == "pynotam-readme-A1912-15")
    truth = dev_by_id["pynotam-readme-A1912-15"]["truth"]
    lat, lon = truth["center"]["lat"], truth["center"]["lon"]
    assert f["properties"]["circle"]["center"] == [lon, lat]
    g = shape(f["geometry"])
    assert g.contains(shapely.Point(lon, lat))
    assert not g.contains(shapely.Point(lat, lon))  # swapped order would be elsewhere
    minx, miny, maxx, maxy = g.bounds
    assert minx < lon < maxx and miny < lat < maxy
    # 1 NM radius: ~0.0167 deg of latitude either side
    assert maxy - lat == pytest.approx(1852.0 / 111_200, rel=0.01)
    p = f["properties"]
    assert p["lower"] == {"ref": "GND", "m": 0.0, "ft": 0.0, "raw": "GND"}
    assert p["upper"]["ref"] == "FL" and p["upper"]["ft"] == 13000
    assert p["floor_ref"] == "AGL" and p["ceil_ref"] == "FL" and p["ceil_m"] == pytest.approx(3962.4)
    assert p["start"] == "2015-09-26T11:00:00Z" and p["end"] == "2015-09-26T12:30:00Z"


def test_geojson_antimeridian_is_multipolygon_and_active_flag(records):
    at = datetime(2026, 11, 29, 12, 0, tzinfo=UTC)
    fc = to_geojson(records, at=at)
    f = next(f for f in fc["features"] if f["properties"]["id"] == "B0001/26")
    assert f["geometry"]["type"] == "MultiPolygon"
    assert_rfc7946_polygonal(f["geometry"])
    assert f["properties"]["active"] is True
    assert f["properties"]["windows"][0] == {"start": "2026-11-29T08:00:00Z", "end": "2026-11-29T17:00:00Z"}
    off = to_geojson(records, at=datetime(2026, 11, 29, 18, 0, tzinfo=UTC))
    assert next(f for f in off["features"] if f["properties"]["id"] == "B0001/26")["properties"]["active"] is False
    joey = next(f for f in fc["features"] if f["properties"]["id"] == "joey-A0468-25")
    assert joey["properties"]["active"] is False  # March 2025
    assert "active" not in to_geojson(records)["features"][0]["properties"]


ED269_REFS = {"AGL", "AMSL", "WGS84"}


def test_ed269_structure(records):
    doc = roundtrip(to_ed269(records))
    assert set(doc) == {"title", "description", "features"}
    drawable = [r for r in records if isinstance(r.geometry, (CircleGeometry, PolygonGeometry)) and r.notam_type != "C"]
    assert len(doc["features"]) == len(drawable)
    idents = [z["identifier"] for z in doc["features"]]
    assert len(set(idents)) == len(idents)
    for z in doc["features"]:
        assert re.fullmatch(r"[A-Za-z0-9_\-]{1,7}", z["identifier"])
        assert z["type"] in ("COMMON", "CUSTOMIZED")
        assert z["restriction"] in ("PROHIBITED", "REQ_AUTHORISATION", "CONDITIONAL", "NO_RESTRICTION")
        assert z["zoneAuthority"] and z["zoneAuthority"][0]["purpose"] in ("AUTHORIZATION", "NOTIFICATION", "INFORMATION")
        assert z["applicability"]
        for g in z["geometry"]:
            assert g["uomDimensions"] in ("M", "FT")
            assert isinstance(g["lowerLimit"], int) and isinstance(g["upperLimit"], int)
            assert g["lowerLimit"] < g["upperLimit"]
            assert g["lowerVerticalReference"] in ED269_REFS and g["upperVerticalReference"] in ED269_REFS
            hp = g["horizontalProjection"]
            if hp["type"] == "Circle":
                lon, lat = hp["center"]
                assert -180 <= lon <= 180 and -90 <= lat <= 90 and hp["radius"] > 0
            else:
                assert hp["type"] == "Polygon"
                assert_rfc7946_polygonal(hp)


def test_ed269_values_and_listed_records(records):
    doc = to_ed269(records)
    by_name = {z["name"]: z for z in doc["features"]}
    a = by_name["pynotam-readme-A1912-15"]
    g = a["geometry"][0]
    assert g["horizontalProjection"] == {"type": "Circle", "center": [16.174444, 48.158333], "radius": 1852.0}
    assert (g["uomDimensions"], g["lowerLimit"], g["lowerVerticalReference"]) == ("FT", 0, "AGL")
    assert (g["upperLimit"], g["upperVerticalReference"]) == (13000, "AMSL")
    assert "FL130" in a["message"]
    assert a["applicability"] == [{"permanent": "NO", "startDateTime": "2015-09-26T11:00:00Z", "endDateTime": "2015-09-26T12:30:00Z"}]
    bos = by_name["squawk-BOS-01-502-UAS"]["geometry"][0]
    assert (bos["lowerLimit"], bos["upperLimit"], bos["upperVerticalReference"]) == (0, 400, "AGL")  # AGL stays AGL
    unl = by_name["joey-A0468-25"]["geometry"][0]
    assert unl["upperLimit"] == 99999 and "UNL" in by_name["joey-A0468-25"]["message"]
    # mixed units (1000 FT AMSL .. 900 M AMSL): metres, floor rounded down, ceiling kept
    am = by_name["B0001/26"]
    assert len(am["geometry"]) == 2  # split at the antimeridian: one item per part
    assert {(g["uomDimensions"], g["lowerLimit"], g["upperLimit"]) for g in am["geometry"]} == {("M", 304, 900)}
    assert len(am["applicability"]) == 2 and am["applicability"][1]["startDateTime"] == "2026-11-30T08:00:00Z"
    assert "DAILY 0800-1700" in am["message"]
    # the named Dalian record, the error record and the cancellation are listed, not dropped
    assert "cn-dalian-2024-09-10" in doc["description"] and "named place" in doc["description"] and "error record" in doc["description"] and "cancellation" in doc["description"]


ED318_ZONE_TYPES = {"USPACE", "PROHIBITED", "REQ_AUTHORIZATION", "CONDITIONAL", "NO_RESTRICTION"}
ED318_REASONS = {"AIR_TRAFFIC", "SENSITIVE", "PRIVACY", "POPULATION", "NATURE", "NOISE", "EMERGENCY", "DAR", "OTHER"}


def test_ed318_structure(records):
    fc = roundtrip(to_ed318(records))
    assert fc["type"] == "FeatureCollection" and isinstance(fc["metadata"], dict)
    for item in fc["metadata"]["technicalLimitations"]:
        assert len(item["text"]) <= 200
    assert any("cn-dalian" in item["text"] and "named place" in item["text"] for item in fc["metadata"]["technicalLimitations"])
    idents = set()
    for f in fc["features"]:
        p = f["properties"]
        assert re.fullmatch(r"[A-Za-z0-9_\-]{1,7}", p["identifier"]) and p["identifier"] not in idents
        idents.add(p["identifier"])
        assert len(p["country"]) == 3
        assert p["type"] in ED318_ZONE_TYPES and p["variant"] in ("COMMON", "CUSTOMIZED")
        assert set(p["reason"]) <= ED318_REASONS
        assert p["zoneAuthority"][0]["purpose"] in ("AUTHORIZATION", "NOTIFICATION", "INFORMATION")
        for t in p["name"] + p.get("message", []):
            assert set(t) == {"text", "lang"}
        g = f["geometry"]
        layer = g["layer"]
        assert layer["uom"] in ("m", "ft")
        assert layer["lowerReference"] in ED269_REFS and layer["upperReference"] in ED269_REFS
        assert layer["lower"] < layer["upper"]
        if g["type"] == "Point":
            assert g["extent"]["subType"] == "Circle" and g["extent"]["radius"] > 0
            lon, lat = g["coordinates"]
            assert -180 <= lon <= 180 and -90 <= lat <= 90
        else:
            assert_rfc7946_polygonal({"type": g["type"], "coordinates": g["coordinates"]})
        for period in p.get("limitedApplicability", []):
            for k in period:
                assert k in ("startDateTime", "endDateTime", "schedule")
                datetime.fromisoformat(period[k].replace("Z", "+00:00"))


def test_ed318_values(records):
    fc = to_ed318(records)
    by_id = {f["properties"]["extendedProperties"]["id"]: f for f in fc["features"]}
    bos = by_id["squawk-BOS-01-502-UAS"]["geometry"]
    assert bos["type"] == "Point" and bos["coordinates"] == [-71.363333, 42.289444]
    assert bos["extent"]["radius"] == pytest.approx(926.0)
    assert bos["layer"] == {"upper": 400, "upperReference": "AGL", "lower": 0, "lowerReference": "AGL", "uom": "ft"}
    am = by_id["B0001/26"]
    assert am["geometry"]["type"] == "MultiPolygon"
    assert am["properties"]["limitedApplicability"][0] == {"startDateTime": "2026-11-29T08:00:00Z", "endDateTime": "2026-11-29T17:00:00Z"}
    assert len(fc["features"]) == len(to_ed269(records)["features"])


def test_exports_of_the_real_dev_batch_lose_nothing(dev_rows):
    """The 25 real dev messages through the rules engine: every record in every export, all structurally valid."""
    from airspace.pipeline.batch import process_batch
    from airspace.pipeline.split import read_jsonl

    text = "\n".join(json.dumps({"text": r["text"]}) for r in dev_rows)
    records, _ = process_batch(read_jsonl(text), "rules")
    assert len({r.message for r in records}) == len(dev_rows)
    fc = roundtrip(to_geojson(records, at=datetime(2026, 3, 20, 12, tzinfo=UTC)))
    assert len(fc["features"]) == len(records)
    for f in fc["features"]:
        if f["geometry"] is not None:
            assert_rfc7946_polygonal(f["geometry"])
        else:
            assert f["properties"]["status"] in ("review", "error") and f["properties"]["no_shape"]
    drawn = sum(f["geometry"] is not None for f in fc["features"])
    e269 = roundtrip(to_ed269(records))
    e318 = roundtrip(to_ed318(records))
    assert len(e269["features"]) == len(e318["features"]) == drawn
    not_drawn = len(records) - drawn
    assert e269["description"].count("message ") == not_drawn
    assert sum(t["text"].startswith("not exported") for t in e318["metadata"]["technicalLimitations"]) == not_drawn
    idents = [z["identifier"] for z in e269["features"]]
    assert len(set(idents)) == len(idents) and all(re.fullmatch(r"[A-Za-z0-9_\-]{1,7}", i) for i in idents)


# ---------------------------------------------------------------------------------------------------------------
# only valid geometry, never a floor at or above its ceiling, the published ED-318 schema
# ---------------------------------------------------------------------------------------------------------------

from airspace.eval.fuzz import _schema_validator, export_problems, geometry_problems  # noqa: E402


def _zone(**kw) -> ZoneRecord:
    base = dict(message=0, status="ok", geometry=CircleGeometry(center=(48.0, 16.0), radius_m=1852.0),
                lower=Limit(ref="SFC", ft=0.0, m=0.0, raw="SFC"),
                upper=Limit(ref="AMSL", ft=5000.0, m=1524.0, raw="5000FT AMSL"))
    return ZoneRecord(**{**base, **kw})


def test_a_cancellation_keeps_its_status_in_the_exports():
    """A NOTAMC was `ok` on the records (and the page) and `review` in the GeoJSON export."""
    cancel = ZoneRecord(message=0, id="A0002/26", notam_type="C", ref_id="A0001/26", status="ok", text="…")
    (f,) = to_geojson([cancel])["features"]
    assert f["geometry"] is None and f["properties"]["status"] == "ok"
    assert "cancellation of A0001/26" in f["properties"]["no_shape"]
    # a record that should have had a shape and has none is still never silently ok
    (f,) = to_geojson([_zone(geometry=NamedGeometry(name="SOMEWHERE"))])["features"]
    assert f["properties"]["status"] == "review"


def test_no_volume_has_its_floor_at_or_above_its_ceiling():
    """83 ED-269 volumes had the floor above the ceiling."""
    above = _zone(lower=Limit(ref="AMSL", ft=9000.0, m=2743.2, raw="9000FT AMSL"))
    mixed = _zone(lower=Limit(ref="FL", ft=10000.0, m=3048.0, raw="FL100"),
                  upper=Limit(ref="AGL", ft=400.0, m=121.92, raw="400FT AGL"))
    equal = _zone(lower=Limit(ref="AMSL", ft=5000.0, m=1524.0, raw="5000FT AMSL"))
    huge = _zone(upper=Limit(ref="AMSL", ft=3.28e30, m=1e30, raw="999999999999999999999999999999M AMSL"))
    recs = [above, mixed, equal, huge]
    for i, r in enumerate(recs):
        r.message = i
    assert to_ed269(recs)["features"] == [] and to_ed318(recs)["features"] == []
    fc = to_geojson(recs)
    assert all(f["geometry"] is None and f["properties"]["status"] == "review" for f in fc["features"])
    assert "not below ceiling" in fc["features"][0]["properties"]["no_shape"]
    assert "beyond" in fc["features"][3]["properties"]["no_shape"]
    assert "message 1 zone 1" in to_ed269(recs)["description"]  # people count from 1


def test_people_count_messages_from_one_in_the_exports_text():
    rec = _zone(message=4, zone=2, geometry=NamedGeometry(name="X"), status="review")
    assert "message 5 zone 3: named place" in to_ed269([rec])["description"]
    assert any("message 5 zone 3" in t["text"] for t in to_ed318([rec])["metadata"]["technicalLimitations"])
    f = to_geojson([rec])["features"][0]
    assert (f["properties"]["message"], f["properties"]["zone"]) == (4, 2)


def test_ed318_texts_fit_the_schemas_text_short():
    long = _zone(status="review", reasons=["x" * 900])
    (f,) = to_ed318([long])["features"]
    assert all(len(m["text"]) <= 200 for m in f["properties"]["message"])


@pytest.fixture(scope="module")
def schema():
    return _schema_validator()


@pytest.mark.slow
def test_real_archive_exports_are_valid_and_pass_the_ed318_schema(archive_path, schema):
    """The real archive (every eighth train/val row: never the test split) through the pipeline and the exports:
    every GeoJSON ring valid and counter-clockwise, no floor at or above its ceiling, ED-318 schema-valid."""
    from airspace.data.realsplit import read_rows, rows_of_split
    from airspace.pipeline.batch import process_batch
    from airspace.pipeline.split import Message

    rows = read_rows(archive_path)
    rows = (rows_of_split(rows, "train") + rows_of_split(rows, "val"))[::8]
    records, _ = process_batch([Message(index=i, text=r["text"]) for i, r in enumerate(rows)], "rules")
    assert len({r.message for r in records}) == len(rows)
    assert export_problems(records, schema) == []
    drawn = [f for f in to_geojson(records)["features"] if f["geometry"] is not None]
    assert len(drawn) > 0.7 * len(records)


def test_geometry_checker_sees_what_it_must():
    cw = {"type": "Polygon", "coordinates": [[[0, 0], [0, 1], [1, 1], [1, 0], [0, 0]]]}
    bow = {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [1, 0], [0, 1], [0, 0]]]}
    flat = {"type": "Polygon", "coordinates": [[[0, 0], [1, 1], [2, 2], [0, 0]]]}
    assert "exterior not counter-clockwise" in geometry_problems(cw)
    assert "invalid geometry" in geometry_problems(bow)
    assert geometry_problems(flat)
    assert geometry_problems({"type": "Polygon", "coordinates": [[[0, 0], [1, 0], [1, 1], [0, 1], [0, 0]]]}) == []
