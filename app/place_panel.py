"""A review whose zone is a named place without coordinates, placed by the operator on the map: a click gives the
centre (with a radius) or, one click at a time, the points of a polygon (``resolve.place``). The point is the last
one clicked on the map (``map_click``) or typed in "Can I fly here?", and is shown on the map."""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime, timezone

import streamlit as st

from airspace.app import resolve as R
from airspace.app.safe_text import md_literal
from airspace.core.records import NamedGeometry, ZoneRecord

ss = st.session_state


def placing(record: ZoneRecord | None) -> bool:
    """True when ``record`` (the focused one) is a named place waiting to be placed: a click on the map then gives
    a point for it and does not select the zone under the point."""
    return record is not None and record.status == "review" and isinstance(record.geometry, NamedGeometry)


def _point() -> tuple[float, float, str] | None:
    p = ss.get("fly_point")
    return (float(p[0]), float(p[1]), str(p[2])) if p else None


def _do(key: str, rec_json: dict, resolved: Callable[[str, dict], None], **how) -> None:
    try:
        rec = R.place(ZoneRecord.model_validate(rec_json), datetime.now(timezone.utc), **how)
    except ValueError as exc:
        ss["place_error"] = str(exc)
        return
    ss["place_error"], ss["place_vertices"] = None, []
    resolved(key, rec.model_dump(mode="json"))


def _circle(key: str, rec_json: dict, resolved) -> None:
    p = _point()
    radius = ss.get("place_radius")
    _do(key, rec_json, resolved, centre=p[:2] if p else None, radius_m=None if radius is None else float(radius))


def _polygon(key: str, rec_json: dict, resolved) -> None:
    _do(key, rec_json, resolved, vertices=[tuple(v) for v in ss.get("place_vertices", [])])


def _add_vertex() -> None:
    p = _point()
    if p is None:
        ss["place_error"] = "click the map first"
        return
    ss["place_vertices"] = [*ss.get("place_vertices", []), [p[0], p[1]]]
    ss["place_error"] = None


def _clear_vertices() -> None:
    ss["place_vertices"], ss["place_error"] = [], None


def place_panel(rec: ZoneRecord, key: str, resolved: Callable[[str, dict], None]) -> None:
    """The placing controls for ``rec`` (a named place under review); ``resolved(key, record JSON)`` keeps the
    placed record."""
    if not placing(rec):
        return
    geo = rec.geometry
    st.markdown(f"**Place {md_literal(geo.name)} on the map**")
    p = _point()
    st.caption(md_literal("Click the map at its centre and give its radius, or click its boundary one point at a "
                          "time and add each. Clicked: " + (p[2] if p else "nothing yet") + "."))
    rec_json = rec.model_dump(mode="json")
    c = st.columns([1.2, 1, 1])
    c[0].number_input("Radius (m)", min_value=1.0, max_value=2_000_000.0, value=geo.radius_m, step=100.0,
                      key="place_radius", placeholder="the message states none")
    c[1].button("Place a circle here", key="place_circle", on_click=_circle, args=(key, rec_json, resolved),
                width="stretch")
    c[2].button("Add the clicked point", key="place_add", on_click=_add_vertex, width="stretch")
    verts = ss.get("place_vertices", [])
    if verts:
        st.caption(f"Polygon: {len(verts)} point{'s' if len(verts) != 1 else ''} — "
                   + "; ".join(f"{a:.5f}, {b:.5f}" for a, b in verts))
        d = st.columns(2)
        d[0].button("Place the polygon", key="place_polygon", on_click=_polygon, args=(key, rec_json, resolved),
                    width="stretch")
        d[1].button("Clear the points", key="place_clear", on_click=_clear_vertices, width="stretch")
    if ss.get("place_error"):
        st.error(md_literal(ss["place_error"]))
