"""The two machine formats NOTAM feeds deliver, read as message texts (and the feed's own geometry, if any).

**FAA NOTAM API** (``/notamapi/v1/notams`` responses; GeoJSON). A page is ``{"pageSize", "pageNum", "totalCount",
"totalPages", "items": [...]}`` (a plain ``FeatureCollection`` with ``features`` is read the same); each item is a
GeoJSON ``Feature`` whose ``properties.coreNOTAMData`` holds ``notam`` (``id``, ``number``, ``series``, ``type``
N/R/C, ``issued``, ``location``, ``icaoLocation``, ``affectedFIR``, ``effectiveStart``, ``effectiveEnd``,
``classification`` — INTERNATIONAL, MILITARY, LOCAL_MILITARY, DOMESTIC, FDC — and ``text``, the body) and
``notamTranslation``, a list of ``{"type": "LOCAL_FORMAT", "simpleText"}`` (the domestic ``!LOC NN/NNN …`` form)
and ``{"type": "ICAO", "formattedText"}`` (the items ``Q) … A) … E) …``, without the number line). The item's
``geometry`` is a ``GeometryCollection`` of a reference ``Point`` and, for areas such as TFRs, ``Polygon`` s.
The text read is the domestic form for DOMESTIC/FDC notices (the reader knows it), else the ICAO form with its
number line put back (``A1234/26 NOTAMN``), else ``notam.text``.

**AIXM 5.1 / 5.1.1 Digital NOTAM** (an ``AIXMBasicMessage`` of ``hasMember`` features). An ``event:Event`` carries
in its time slice one or more ``event:NOTAM`` (under ``event:textNOTAM`` in 5.1, ``event:notification`` in 5.1.1)
with ``series``, ``number``, ``year``, ``type``, ``affectedFIR``, ``selectionCode``, ``traffic``, ``purpose``,
``scope``, ``minimumFL``, ``maximumFL``, ``coordinates``, ``radius``, ``location``, ``effectiveStart``,
``effectiveEnd`` (``YYMMDDhhmm``, ``EST`` allowed), ``schedule``, ``text``, ``lowerLimit``, ``upperLimit`` and, for a
NOTAMR/NOTAMC, ``referredSeries``/``referredNumber``/``referredYear``. The ICAO message is rebuilt from those fields
(number line, Q-line, items A–G) and read like any other. The features the event changes (``aixm:Airspace`` time
slices whose ``extension`` names the event in ``theEvent``) give the feed's geometry: ``gml:PolygonPatch`` rings
(``gml:posList``/``gml:pos``, EPSG:4326 latitude first) and ``gml:CircleByCenterPoint`` (centre and radius in NM,
KM, M or FT).

Where the feed gives an area, ``crosscheck`` compares it with the zones read from the text (``review`` when they
disagree). The formats follow the FAA's public NOTAM API description and the AIXM 5.1 event schema and its
published Donlon examples; the tests' files are written by hand from those.
"""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from shapely.geometry import MultiPolygon, Polygon, shape
from shapely.geometry.base import BaseGeometry

from airspace.geo.volumes import circle_polygon


@dataclass
class FeedMessage:
    text: str
    area: BaseGeometry | None  # the feed's own area, (lon, lat); None where it gives none (or only a point)
    origin: str  # "faa-api item 3", "aixm event uuid.…"


class FeedError(ValueError):
    """A file that claims a feed format but cannot be read as one (the reason says what is wrong)."""


# ---- FAA NOTAM API ---------------------------------------------------------------------------------------------
def is_faa_api(doc) -> bool:
    items = doc.get("items", doc.get("features")) if isinstance(doc, dict) else None
    return isinstance(items, list) and any(
        isinstance(i, dict) and isinstance(i.get("properties"), dict) and "coreNOTAMData" in i["properties"]
        for i in items)


def _faa_area(geom) -> BaseGeometry | None:
    if not isinstance(geom, dict):
        return None
    parts = geom.get("geometries") if geom.get("type") == "GeometryCollection" else [geom]
    polys: list[Polygon] = []
    for g in parts or []:
        if isinstance(g, dict) and g.get("type") in ("Polygon", "MultiPolygon"):
            try:
                s = shape({"type": g["type"], "coordinates": g["coordinates"]})
            except Exception:  # noqa: BLE001 - a broken geometry is no geometry; the text is still read
                continue
            polys.extend(getattr(s, "geoms", [s]))
    if not polys:
        return None
    return polys[0] if len(polys) == 1 else MultiPolygon(polys)


_ICAO_NUMBER = re.compile(r"^[A-Z]{0,2}\d{1,5}/\d{2,5}$")
_HEAD_LINE = re.compile(r"^\s*\(?\s*[A-Z]{0,2}\d{1,5}/\d{2,5}\s+NOTAM[NRC]\b")


def _faa_text(notam: dict, translations: list) -> str:
    simple = formatted = None
    for t in translations if isinstance(translations, list) else []:
        if isinstance(t, dict) and t.get("type") == "LOCAL_FORMAT":
            simple = t.get("simpleText")
        elif isinstance(t, dict) and t.get("type") == "ICAO":
            formatted = t.get("formattedText")
    cls = str(notam.get("classification") or "").upper()
    if isinstance(simple, str) and simple.strip() and (cls in ("DOMESTIC", "FDC") or simple.lstrip().startswith("!")):
        return simple.strip()
    number = str(notam.get("number") or "").strip()
    series = str(notam.get("series") or "").strip()
    if number and series and not number.startswith(series):
        number = series + number
    kind = str(notam.get("type") or "N").strip().upper()[:1] or "N"
    head = f"{number} NOTAM{kind}" if _ICAO_NUMBER.match(number) else ""
    body = formatted if isinstance(formatted, str) and formatted.strip() else str(notam.get("text") or "")
    if head and not _HEAD_LINE.match(body):
        return f"{head}\n{body.strip()}"
    return body.strip()


def read_faa_api(doc: dict) -> list[FeedMessage]:
    out = []
    for n, item in enumerate(doc.get("items", doc.get("features")) or []):
        core = (item.get("properties") or {}).get("coreNOTAMData") if isinstance(item, dict) else None
        if not isinstance(core, dict) or not isinstance(core.get("notam"), dict):
            continue
        text = _faa_text(core["notam"], core.get("notamTranslation") or [])
        if text:
            out.append(FeedMessage(text=text, area=_faa_area(item.get("geometry")), origin=f"faa-api item {n + 1}"))
    return out


# ---- AIXM 5.1 Digital NOTAM ------------------------------------------------------------------------------------
def _local(tag: str) -> str:
    return tag.rsplit("}", 1)[-1]


def _child_text(el: ET.Element, name: str) -> str | None:
    for c in el:
        if _local(c.tag) == name:
            return (c.text or "").strip() or None
    return None


def _floats(s: str | None) -> list[float]:
    return [float(x) for x in (s or "").split()]


_UOM_M = {"NM": 1852.0, "KM": 1000.0, "M": 1.0, "FT": 0.3048, "MI": 1609.344}


def _ring_area(patch: ET.Element) -> BaseGeometry | None:
    """The exterior of a ``gml:PolygonPatch``: its positions (lat lon) in order, or the circle it is."""
    pts: list[tuple[float, float]] = []
    ext = next((e for e in patch.iter() if _local(e.tag) == "exterior"), None)
    if ext is None:
        return None
    for el in ext.iter():
        t = _local(el.tag)
        if t == "CircleByCenterPoint":
            pos = next((_floats(p.text) for p in el.iter() if _local(p.tag) in ("pos", "posList")), [])
            rad = next((p for p in el.iter() if _local(p.tag) == "radius"), None)
            if len(pos) >= 2 and rad is not None and rad.text:
                metres = float(rad.text) * _UOM_M.get((rad.get("uom") or "M").upper(), 1.0)
                return circle_polygon(pos[0], pos[1], metres, max_error_m=max(1.0, metres * 1e-3))
        elif t in ("posList", "pos"):
            v = _floats(el.text)
            pts.extend((v[i], v[i + 1]) for i in range(0, len(v) - 1, 2))
    if len(pts) >= 3:
        if pts[0] == pts[-1]:
            pts = pts[:-1]
        return Polygon([(lon, lat) for lat, lon in pts])
    return None


def _aixm_text(n: ET.Element) -> str:
    f = {c: _child_text(n, c) for c in ("series", "number", "year", "type", "affectedFIR", "selectionCode",
                                         "traffic", "purpose", "scope", "minimumFL", "maximumFL", "coordinates",
                                         "radius", "location", "effectiveStart", "effectiveEnd", "schedule", "text",
                                         "lowerLimit", "upperLimit", "referredSeries", "referredNumber",
                                         "referredYear")}

    def num(series, number, year):
        if not number or not year:
            return None
        return f"{series or ''}{int(number):04d}/{str(year)[-2:]}"

    own = num(f["series"], f["number"], f["year"]) or ""
    kind = (f["type"] or "N")[:1].upper()
    ref = num(f["referredSeries"], f["referredNumber"], f["referredYear"]) if kind in "RC" else None
    lines = [f"{own} NOTAM{kind}" + (f" {ref}" if ref else "")]
    q = [f["affectedFIR"], f["selectionCode"], f["traffic"], f["purpose"], f["scope"], f["minimumFL"],
         f["maximumFL"]]
    if any(q):
        radius = f["radius"]
        where = (f["coordinates"] or "") + (f"{int(radius):03d}" if radius and radius.isdigit() else "")
        lines.append("Q) " + "/".join(x or "" for x in q) + "/" + where)
    abc = []
    if f["location"]:
        abc.append(f"A) {f['location']}")
    if f["effectiveStart"]:
        abc.append(f"B) {f['effectiveStart']}")
    if f["effectiveEnd"]:
        abc.append(f"C) {f['effectiveEnd']}")
    if abc:
        lines.append(" ".join(abc))
    if f["schedule"]:
        lines.append(f"D) {f['schedule']}")
    if f["text"]:
        lines.append("E) " + " ".join(f["text"].split()))
    fg = [x for x in (f"F) {f['lowerLimit']}" if f["lowerLimit"] else "",
                      f"G) {f['upperLimit']}" if f["upperLimit"] else "") if x]
    if fg:
        lines.append(" ".join(fg))
    return "\n".join(lines)


def is_aixm(root: ET.Element) -> bool:
    return any(_local(e.tag) == "Event" for e in root.iter())


def read_aixm(root: ET.Element) -> list[FeedMessage]:
    areas: dict[str, list[BaseGeometry]] = {}
    for feat in root.iter():
        if _local(feat.tag) != "Airspace":
            continue
        for ts in (e for e in feat.iter() if _local(e.tag) == "AirspaceTimeSlice"):
            href = next((e.get("{http://www.w3.org/1999/xlink}href") for e in ts.iter()
                         if _local(e.tag) == "theEvent"), None)
            found = [a for a in (_ring_area(p) for p in ts.iter() if _local(p.tag) == "PolygonPatch") if a is not None]
            if found:
                uid = (href or "").replace("urn:uuid:", "").lstrip("#").replace("uuid.", "")
                areas.setdefault(uid, []).extend(found)
    events = [e for e in root.iter() if _local(e.tag) == "Event"]
    out = []
    for ev in events:
        gid = ev.get("{http://www.opengis.net/gml/3.2}id") or ""
        ident = next((e.text.strip() for e in ev if _local(e.tag) == "identifier" and e.text), "")
        uid = ident or gid.replace("uuid.", "")
        mine = areas.get(uid) or areas.get(gid.replace("uuid.", "")) or []
        if not mine and len(events) == 1:
            mine = [a for v in areas.values() for a in v]
        area = None
        if mine:
            polys = [p for a in mine for p in getattr(a, "geoms", [a])]
            area = polys[0] if len(polys) == 1 else MultiPolygon(polys)
        for n in (e for e in ev.iter() if _local(e.tag) == "NOTAM"):
            out.append(FeedMessage(text=_aixm_text(n), area=area, origin=f"aixm event {uid or gid}"))
    return out


# ---- files -----------------------------------------------------------------------------------------------------
def read_feed(data: bytes) -> list[FeedMessage] | None:
    """The messages of a feed file, or None when the bytes are not one of the two formats (plain text, JSONL)."""
    head = data.lstrip()[:1]
    if head in (b"{", b"["):
        try:
            doc = json.loads(data.decode("utf-8"))
        except (UnicodeDecodeError, json.JSONDecodeError):
            return None
        if isinstance(doc, dict) and is_faa_api(doc):
            return read_faa_api(doc)
        return None
    if head == b"<":
        try:
            root = ET.fromstring(data)
        except ET.ParseError as exc:
            raise FeedError(f"an XML file that does not parse: {exc}") from exc
        if is_aixm(root):
            return read_aixm(root)
        raise FeedError("an XML file that is not an AIXM 5.1 Digital NOTAM (no event:Event)")
    return None
