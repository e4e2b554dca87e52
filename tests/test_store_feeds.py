"""Feed files: an FAA NOTAM API response page and AIXM 5.1 Digital NOTAM events, written by hand from the public
descriptions (the FAA NOTAM API's ``items[].properties.coreNOTAMData`` with ``notam`` and ``notamTranslation``;
the AIXM 5.1.1 event schema as in its published Donlon examples). Their texts are read by the pipeline and the
feed's own geometry is cross-checked against the reading."""

from __future__ import annotations

import json
from datetime import datetime, timezone

import pytest

from airspace.store import open_store
from airspace.store.feeds import FeedError, read_feed
from airspace.store.ingest import ingest_files

# three items: an FDC TFR (domestic text, its polygon an octagon around the 3 NM circle), an international NOTAM
# (ICAO text without its number line, a reference point only) and an item whose polygon lies elsewhere
OCTAGON = [[-77.03333, 38.9375], [-76.9843, 38.92163], [-76.96403, 38.88331], [-76.98435, 38.84502],
           [-77.03333, 38.82916], [-77.08232, 38.84502], [-77.10264, 38.88331], [-77.08237, 38.92163],
           [-77.03333, 38.9375]]
FAA_PAGE = {
    "pageSize": 50, "pageNum": 1, "totalCount": 3, "totalPages": 1,
    "items": [
        {"type": "Feature",
         "properties": {"coreNOTAMData": {
             "notamEvent": {"scenario": "6000"},
             "notam": {"id": "NOTAM_1_73412345", "number": "6/4123", "type": "N", "issued": "2026-11-28T15:02:00.000Z",
                       "location": "ZDC", "effectiveStart": "2026-11-30T01:30:00.000Z",
                       "effectiveEnd": "2026-11-30T03:30:00.000Z", "classification": "FDC", "accountId": "FDC",
                       "text": "DC..AIRSPACE WASHINGTON, DC..TEMPORARY FLIGHT RESTRICTIONS FOR VIP MOVEMENT WI AN "
                               "AREA DEFINED AS 3NM RADIUS OF 385300N0770200W SFC-3000FT 2611300130-2611300330",
                       "icaoLocation": "KZDC"},
             "notamTranslation": [
                 {"type": "LOCAL_FORMAT",
                  "simpleText": "!FDC 6/4123 ZDC DC..AIRSPACE WASHINGTON, DC..TEMPORARY FLIGHT RESTRICTIONS FOR VIP "
                                "MOVEMENT WI AN AREA DEFINED AS 3NM RADIUS OF 385300N0770200W SFC-3000FT "
                                "2611300130-2611300330"}]}},
         "geometry": {"type": "GeometryCollection", "geometries": [
             {"type": "Point", "coordinates": [-77.03333, 38.88333]},
             {"type": "Polygon", "coordinates": [OCTAGON]}]}},
        {"type": "Feature",
         "properties": {"coreNOTAMData": {
             "notam": {"id": "NOTAM_1_73412399", "series": "A", "number": "2231/26", "type": "N",
                       "issued": "2026-11-28T09:12:00.000Z", "location": "ZGSZ", "affectedFIR": "ZGZU",
                       "effectiveStart": "2026-11-30T00:00:00.000Z", "effectiveEnd": "2026-11-30T12:00:00.000Z",
                       "classification": "INTERNATIONAL", "icaoLocation": "ZGSZ", "coordinates": "2231N11357E",
                       "radius": "001",
                       "text": "UAS OPS PROHIBITED DUE TO SPORTS EVENT WI 1NM RADIUS OF\nPSN 223110N 1135635E "
                               "(SHENZHEN BAY SPORTS CENTRE)."},
             "notamTranslation": [
                 {"type": "ICAO",
                  "formattedText": "Q) ZGZU/QWULW/IV/BO/W/000/010/2231N11357E001\nA) ZGSZ B) 2611300000 C) "
                                   "2611301200\nE) UAS OPS PROHIBITED DUE TO SPORTS EVENT WI 1NM RADIUS OF\nPSN "
                                   "223110N 1135635E (SHENZHEN BAY SPORTS CENTRE).\nF) SFC G) 1000FT AMSL"}]}},
         "geometry": {"type": "GeometryCollection", "geometries": [
             {"type": "Point", "coordinates": [113.9431, 22.5194]}]}},
        {"type": "Feature",
         "properties": {"coreNOTAMData": {
             "notam": {"id": "NOTAM_1_73412400", "number": "6/4124", "type": "N", "classification": "FDC",
                       "location": "ZDC"},
             "notamTranslation": [
                 {"type": "LOCAL_FORMAT",
                  "simpleText": "!FDC 6/4124 ZDC DC..AIRSPACE WASHINGTON, DC..TEMPORARY FLIGHT RESTRICTIONS WI AN "
                                "AREA DEFINED AS 3NM RADIUS OF 385300N0770200W SFC-3000FT 2611300430-2611300630"}]}},
         "geometry": {"type": "GeometryCollection", "geometries": [
             {"type": "Polygon", "coordinates": [[[p[0] + 0.3, p[1]] for p in OCTAGON]]}]}},
    ],
}

AIXM_HEAD = """<?xml version="1.0" encoding="UTF-8"?>
<message:AIXMBasicMessage xmlns:message="http://www.aixm.aero/schema/5.1.1/message"
    xmlns:gml="http://www.opengis.net/gml/3.2" xmlns:aixm="http://www.aixm.aero/schema/5.1.1"
    xmlns:event="http://www.aixm.aero/schema/5.1.1/event" xmlns:xlink="http://www.w3.org/1999/xlink" gml:id="M1">
"""


def aixm_event(*, number: str, kind: str = "N", radius_nm: str = "4", referred: str = "", text: str) -> str:
    airspace = f"""
  <message:hasMember>
    <aixm:Airspace gml:id="uuid.4dd17054-0000-4aaa-959b-2ac71645e4a6">
      <aixm:timeSlice><aixm:AirspaceTimeSlice gml:id="TS1">
        <aixm:interpretation>BASELINE</aixm:interpretation>
        <aixm:type>R</aixm:type><aixm:designator>EAR0001-26</aixm:designator>
        <aixm:geometryComponent><aixm:AirspaceGeometryComponent gml:id="G1"><aixm:theAirspaceVolume>
          <aixm:AirspaceVolume gml:id="V1">
            <aixm:upperLimit uom="FT">500</aixm:upperLimit><aixm:upperLimitReference>MSL</aixm:upperLimitReference>
            <aixm:lowerLimit uom="FT">GND</aixm:lowerLimit>
            <aixm:horizontalProjection><aixm:Surface gml:id="S1" srsName="urn:ogc:def:crs:EPSG::4326">
              <gml:patches><gml:PolygonPatch><gml:exterior><gml:Ring><gml:curveMember>
                <aixm:Curve gml:id="C1"><gml:segments><gml:CircleByCenterPoint numArc="1">
                  <gml:pos>53.1 -40.033333</gml:pos><gml:radius uom="NM">{radius_nm}</gml:radius>
                </gml:CircleByCenterPoint></gml:segments></aixm:Curve>
              </gml:curveMember></gml:Ring></gml:exterior></gml:PolygonPatch></gml:patches>
            </aixm:Surface></aixm:horizontalProjection>
          </aixm:AirspaceVolume></aixm:theAirspaceVolume></aixm:AirspaceGeometryComponent></aixm:geometryComponent>
        <aixm:extension><event:AirspaceExtension gml:id="X1">
          <event:theEvent xlink:href="urn:uuid:2875edef-0000-4830-95f4-672072152a93"/>
        </event:AirspaceExtension></aixm:extension>
      </aixm:AirspaceTimeSlice></aixm:timeSlice>
    </aixm:Airspace>
  </message:hasMember>""" if kind != "C" else ""
    ref = "".join(f"<event:referred{k}>{v}</event:referred{k}>" for k, v in zip(
        ("Series", "Number", "Year"), referred.split())) if referred else ""
    return AIXM_HEAD + airspace + f"""
  <message:hasMember>
    <event:Event gml:id="uuid.2875edef-0000-4830-95f4-672072152a93">
      <gml:identifier codeSpace="urn:uuid:">2875edef-0000-4830-95f4-672072152a93</gml:identifier>
      <event:timeSlice><event:EventTimeSlice gml:id="E1">
        <aixm:interpretation>BASELINE</aixm:interpretation>
        <event:scenario>SAA.NEW</event:scenario><event:version>2.0</event:version>
        <event:notification><event:NOTAM gml:id="N1">
          <event:series>A</event:series><event:number>{number}</event:number><event:year>2026</event:year>
          <event:type>{kind}</event:type>{ref}
          <event:affectedFIR>EAAD</event:affectedFIR><event:selectionCode>QRRCA</event:selectionCode>
          <event:traffic>IV</event:traffic><event:purpose>NBO</event:purpose><event:scope>W</event:scope>
          <event:minimumFL>000</event:minimumFL><event:maximumFL>005</event:maximumFL>
          <event:coordinates>5306N04002W</event:coordinates><event:radius>4</event:radius>
          <event:location>EAAD</event:location>
          <event:effectiveStart>2608291700</event:effectiveStart><event:effectiveEnd>2608291900</event:effectiveEnd>
          <event:text>{text}</event:text>
          <event:lowerLimit>SFC</event:lowerLimit><event:upperLimit>500FT AMSL</event:upperLimit>
        </event:NOTAM></event:notification>
      </event:EventTimeSlice></event:timeSlice>
    </event:Event>
  </message:hasMember>
</message:AIXMBasicMessage>
"""


SAR = ("Restricted Area established for search and rescue within:\n  4NM radius centered on 5306N 04002W.\n  To "
       "ensure their own safety pilots are urgently requested not to fly in or near the area.")


def test_the_faa_api_page_is_read_as_its_messages():
    msgs = read_feed(json.dumps(FAA_PAGE).encode())
    assert [m.text.split("\n")[0][:16] for m in msgs] == ["!FDC 6/4123 ZDC ", "A2231/26 NOTAMN", "!FDC 6/4124 ZDC "]
    assert msgs[0].area is not None and msgs[1].area is None  # a reference point is not an area
    assert msgs[1].text.split("\n")[1].startswith("Q) ZGZU/QWULW")


def test_the_aixm_event_is_read_as_an_icao_message_with_the_feed_geometry():
    (m,) = read_feed(aixm_event(number="0144", text=SAR).encode())
    assert m.text.startswith("A0144/26 NOTAMN\nQ) EAAD/QRRCA/IV/NBO/W/000/005/5306N04002W004\n"
                             "A) EAAD B) 2608291700 C) 2608291900\nE) Restricted Area")
    assert m.text.endswith("F) SFC G) 500FT AMSL")
    assert m.area is not None and abs(m.area.centroid.y - 53.1) < 0.01
    (c,) = read_feed(aixm_event(number="0150", kind="C", referred="A 0144 2026", text="A0144/26 CANCELLED").encode())
    assert c.text.startswith("A0150/26 NOTAMC A0144/26\n") and c.area is None


def test_feed_geometry_is_cross_checked_and_disagreement_is_review(tmp_path):
    faa = tmp_path / "faa-page.geojson"
    faa.write_text(json.dumps(FAA_PAGE), encoding="utf-8")
    ok_x = tmp_path / "sar.xml"
    ok_x.write_text(aixm_event(number="0144", text=SAR), encoding="utf-8")
    bad_x = tmp_path / "sar-3nm.xml"  # the event's airspace is 3 NM where the text says 4 NM
    bad_x.write_text(aixm_event(number="0145", radius_nm="3", text=SAR), encoding="utf-8")
    store = open_store(f"sqlite:///{tmp_path}/z.sqlite")
    applied, records, problems = ingest_files(store, [str(faa), str(ok_x), str(bad_x)], engine="rules")
    assert not problems and applied.written == 5
    by_id = {r.id: r for r in records}
    assert by_id["FDC 6/4123"].status == "ok"  # the octagon agrees with the 3 NM circle of the text
    assert by_id["A2231/26"].status == "ok"  # nothing to compare: the feed gave a point
    assert by_id["FDC 6/4124"].status == "review" and any("overlap only" in r for r in by_id["FDC 6/4124"].reasons)
    assert by_id["A0144/26"].status == "ok"
    assert any("overlap only 56%" in r for r in by_id["A0145/26"].reasons)
    zones = store.picture(datetime(2026, 8, 29, 18, tzinfo=timezone.utc))
    assert sorted(z.record.id for z in zones) == ["A0144/26", "A0145/26"]
    # the NOTAMC event removes it
    c = tmp_path / "cancel.xml"
    c.write_text(aixm_event(number="0150", kind="C", referred="A 0144 2026", text="A0144/26 CANCELLED"))
    ingest_files(store, [str(c)], engine="rules")
    zones = store.picture(datetime(2026, 8, 29, 18, tzinfo=timezone.utc))
    assert [z.record.id for z in zones] == ["A0145/26"]
    store.close()


def test_a_broken_feed_file_is_reported_and_the_others_go_on(tmp_path):
    with pytest.raises(FeedError):
        read_feed(b"<notaml><unclosed>")
    broken = tmp_path / "broken.xml"
    broken.write_bytes(b"<notaml><unclosed>")
    good = tmp_path / "sar.xml"
    good.write_text(aixm_event(number="0144", text=SAR), encoding="utf-8")
    store = open_store(f"sqlite:///{tmp_path}/z.sqlite")
    applied, _, problems = ingest_files(store, [str(broken), str(good)], engine="rules")
    assert applied.written == 1 and len(problems) == 1 and "does not parse" in problems[0]
    store.close()
