"""A printable one-page briefing (self-contained HTML, A4) of the zones along a route: the route and its departure
(UTC and local), where it enters a zone (``geo.conflicts``), and every zone within ``CORRIDOR_M`` of its legs that is
not over before departure, with its band, times, status and the message it comes from. No Streamlit.

Every text from a message is HTML-escaped; the page has no script and loads nothing."""

from __future__ import annotations

import math
from collections.abc import Sequence
from datetime import datetime, timezone
from html import escape

from shapely.geometry import LineString, Point

from airspace.app import local_time as LT
from airspace.app.tables import _band, record_label
from airspace.geo import zonetime as Z

UTC = timezone.utc
CORRIDOR_M = 1000.0
M_PER_DEG = 111_320.0


def _distance_m(vol, line) -> float:
    lat = line.centroid.y
    d = vol.polygon.distance(line)
    return d * M_PER_DEG * max(math.cos(math.radians(lat)), 0.2)


def zones_along(volumes: Sequence, path: Sequence[tuple[float, float, float]], depart: datetime,
                corridor_m: float = CORRIDOR_M) -> list[tuple[object, float]]:
    """(volume, distance in m) for each volume within ``corridor_m`` of the route's legs and not expired at
    ``depart``, nearest first."""
    pts = [(lon, lat) for lat, lon, _ in path]
    line = LineString(pts) if len(pts) > 1 else Point(pts[0]) if pts else None
    if line is None:
        return []
    out = []
    for v in volumes:
        if Z.zone_state(v, depart) == Z.EXPIRED:
            continue
        d = _distance_m(v, line)
        if d <= corridor_m:
            out.append((v, d))
    out.sort(key=lambda x: (x[1], x[0].key))
    return out


CSS = """@page{size:A4;margin:12mm}body{font:10.5pt/1.35 "Noto Sans","Noto Sans CJK SC",sans-serif;color:#111}
h1{font-size:15pt;margin:0 0 4pt}table{border-collapse:collapse;width:100%;margin:4pt 0}
td,th{border:1px solid #999;padding:2pt 4pt;vertical-align:top;text-align:left}th{background:#eee}
.restricted{color:#b00020;font-weight:700}.review{color:#a15c00;font-weight:700}.clear{color:#1e7d32;font-weight:700}
pre{white-space:pre-wrap;font-size:8.5pt;margin:0}.small{font-size:8.5pt;color:#444}"""


def briefing_html(route: dict, volumes: Sequence, depart: datetime, *, title: str = "Flight briefing") -> str:
    """The briefing for ``route`` (the page's route check: ``path`` as ``(lat, lon, alt_m)`` and conflict ``rows``)
    departing at ``depart``."""
    path = route.get("path", [])
    tz = LT.tz_name(path[0][0], path[0][1]) if path else None
    rows = route.get("rows", [])
    along = zones_along(volumes, path, depart)
    verdict = ("restricted", "The route enters zones") if rows else (
        ("review", "The route passes near zones") if along else ("clear", "No zone on or near the route"))
    h = [f"<!doctype html><html><head><meta charset='utf-8'><title>{escape(title)}</title><style>{CSS}</style>"
         f"</head><body><h1>{escape(title)}</h1>",
         f"<div>Departure {escape(LT.both_text(depart, tz))} · {len(path)} waypoints · "
         f"<span class='{verdict[0]}'>{escape(verdict[1])}</span></div>",
         "<table><tr><th>#</th><th>lat, lon</th><th>altitude</th></tr>"]
    h += [f"<tr><td>{i + 1}</td><td>{lat:.5f}, {lon:.5f}</td><td>{alt:g} m</td></tr>"
          for i, (lat, lon, alt) in enumerate(path)]
    h.append("</table>")
    if rows:
        h.append("<b>Where the route enters a zone</b><table><tr><th>zone</th><th>leg</th><th>enters (UTC)</th>"
                 "<th>leaves (UTC)</th><th>status</th></tr>")
        h += [f"<tr><td>{escape(str(r['id'] or 'message ' + str(r['msg'])))}</td><td>{escape(str(r['leg']))}</td>"
              f"<td>{escape(str(r['enters (UTC)']))}</td><td>{escape(str(r['leaves (UTC)']))}</td>"
              f"<td>{escape(str(r['status']))}</td></tr>" for r in rows]
        h.append("</table>")
    h.append(f"<b>Zones within {CORRIDOR_M / 1000:g} km of the route, not over before departure</b>"
             "<table><tr><th>zone</th><th>band</th><th>state at departure</th><th>start / end</th><th>status</th>"
             "<th>message</th></tr>")
    for v, d in along:
        rec = v.record
        vtz = LT.volume_tz(v)
        times = (f"{LT.both_text(rec.start, vtz)} → "
                 + ("PERM" if rec.permanent else LT.both_text(rec.end, vtz) + (" EST" if rec.end_estimated else "")))
        status = rec.status + (": " + "; ".join(rec.reasons) if rec.reasons else "")
        h.append(f"<tr><td>{escape(record_label(rec))}<div class='small'>{d:,.0f} m</div></td>"
                 f"<td>{escape(_band(v))}</td><td>{escape(Z.zone_state(v, depart))}</td><td>{escape(times)}</td>"
                 f"<td>{escape(status)}</td><td><pre>{escape(rec.text[:400])}</pre></td></tr>")
    if not along:
        h.append("<tr><td colspan='6'>none</td></tr>")
    h.append("</table><div class='small'>Clover Airspace, generated "
             f"{escape(datetime.now(UTC).strftime('%Y-%m-%d %H:%MZ'))} from the batch on the page. Check the "
             "official NOTAMs before flight.</div></body></html>")
    return "".join(h)
