"""The dashboard's route check: the waypoint inputs, an example route across the batch's zones, and the 4D
conflict check (``airspace.geo.conflicts``) run before the map is built, so the route is drawn in the same run.

State lives in the page's session (``route_*`` keys); the departure follows the map's time unless the operator
unticks "depart at the map's time".
"""

from __future__ import annotations

from datetime import datetime, timezone

import streamlit as st

from airspace.app import map_view as V
from airspace.app import tables as T
from airspace.app import timeline as TL
from airspace.app.briefing import briefing_html
from airspace.app.safe_text import md_literal
from airspace.geo import conflicts as C

UTC = timezone.utc
ss = st.session_state

ROUTE_SPEED_MPS = 15.0  # the route's default ground speed (the input's value before the operator sets one)


def example_route(volumes) -> str:
    """A real example route (west to east at 100 m AGL across the middle of the zones), as waypoint text."""
    b = V.bounds_of(volumes)
    if b is None:
        return ""
    lat = (b[1] + b[3]) / 2
    pad = 0.1 * max(b[2] - b[0], 0.01)
    return f"{lat:.4f}, {b[0] - pad:.4f}, 100\n{lat:.4f}, {b[2] + pad:.4f}, 100"


def _use_example(text: str) -> None:
    ss["route_text"] = text
    ss["route_example"] = text


def _request_route_check() -> None:
    ss["route_check_requested"] = True


def route_result(volumes, t: datetime | None):
    """The route check's result, computed before the map is built so the route is drawn in the same run. The
    departure is the map's time unless the operator unticks "depart at the map's time" and sets one."""
    if ss.pop("route_example_due", False):
        # a new Run: the example route for its zones, unless the operator has written a route of their own
        current = ss.get("route_text", "")
        if not current.strip() or current == ss.get("route_example"):
            _use_example(example_route(volumes))
    follow = ss.get("route_follow", True)
    if follow or "route_date" not in ss:
        start = (t or TL.now_minute()).replace(second=0, microsecond=0)
        ss["route_date"], ss["route_time"] = start.date(), start.time().replace(tzinfo=None)
    if ss.pop("route_check_requested", False):
        depart = datetime.combine(ss["route_date"], ss["route_time"]).replace(tzinfo=UTC)
        ss["route_result"] = check_route(ss.get("route_text", ""), ss.get("route_ref", "AGL"), depart,
                                         ss.get("route_speed", ROUTE_SPEED_MPS), volumes)
    return ss.get("route_result")


def check_route(text: str, ref: str, depart: datetime, speed: float, volumes) -> dict:
    """Run geo.conflicts on the route over every zone of the batch (whatever the map's filters show); a dict the
    page draws (errors are kept as a readable message)."""
    if not text.strip():
        return {"error": "The route has no waypoints: enter one `lat, lon, alt_m` per line, or use the example."}
    try:
        route = C.parse_route(text, alt_ref=ref, departure=depart, speed_mps=speed)
    except ValueError as exc:
        return {"error": str(exc)}
    found = C.route_conflicts(route, volumes)
    points = [(c.entry[0], c.entry[1], c.entry[2]) for c in found]
    path = [(w.lat, w.lon, w.alt_m) for w in route.waypoints]
    return {"path": path, "rows": T.conflict_rows(found), "points": points, "n": len(found), "depart_t": depart,
            "depart": T.utc_text(depart)}


def route_section(volumes, route: dict | None, *, expanded: bool) -> None:
    """The route inputs and result, in the page (not the sidebar: on a phone a collapsed sidebar hides them)."""
    with st.expander("Route check", expanded=expanded):
        c = st.columns([2, 1.2, 1])
        c[0].text_area("Waypoints: `lat, lon, alt_m` per line (decimal degrees, metres)", key="route_text", height=110)
        c[1].radio("Altitude reference", ["AGL", "AMSL"], key="route_ref", horizontal=True)
        c[1].number_input("Speed (m/s)", min_value=0.5, max_value=150.0, value=ROUTE_SPEED_MPS, step=0.5,
                          key="route_speed")
        follow = c[2].checkbox("Depart at the map's time", value=True, key="route_follow")
        c[2].date_input("Departure date (UTC)", key="route_date", disabled=follow)
        c[2].time_input("Departure time (UTC)", key="route_time", step=300, disabled=follow)
        b = st.columns([1, 1, 3])
        b[0].button("Check route", key="route_button", type="primary", on_click=_request_route_check, width="stretch")
        example = example_route(volumes)
        b[1].button("Example route", key="route_example_button", on_click=_use_example, args=(example,),
                    disabled=not example, width="stretch", help="west to east across the zones at 100 m AGL")
        if route:
            if "error" in route:
                b[2].error(md_literal(route["error"]))
            elif route["n"]:
                b[2].error(f"Route conflicts with {route['n']} zone crossing(s) (departing {route['depart']}).")
            else:
                b[2].success(f"No conflicts on this route (departing {route['depart']}).")
            if route.get("rows"):
                st.dataframe(route["rows"], hide_index=True, key="conflicts", width="stretch")
            if "error" not in route:
                st.download_button("Briefing (printable HTML)", lambda: briefing_html(route, volumes, route["depart_t"]),
                                   file_name="briefing.html", mime="text/html", key="dl_briefing",
                                   help="one page: the route, where it enters zones, and the zones within 1 km of it")
        st.caption("Checked against every zone of the batch, whatever the map's filters show. Message, zone and leg "
                   "numbers start at 1 (leg 1 runs from waypoint 1 to waypoint 2).")
