"""The dashboard's "Can I fly here?": a typed place or coordinates, the map's time and a height, answered clear /
restricted by … / review needed with the zones that apply (``geo.flycheck``)."""

from __future__ import annotations

from datetime import datetime

import streamlit as st

from airspace.app import local_time as LT
from airspace.app import tables as T
from airspace.app.place_lookup import NotAPlace, locate
from airspace.app.run_result import RunResult
from airspace.app.safe_text import escaped, md_literal
from airspace.geo import flycheck as F
from airspace.geo import zonetime as Z

ss = st.session_state

def _ask_fly() -> None:
    """The point typed in the box, located (``place_lookup``); the answer is computed with the page. An emptied
    box takes the question (and its point on the map) away."""
    if not ss.get("fly_where", "").strip():
        ss["fly_point"], ss["fly_error"] = None, None
        return
    try:
        lat, lon, what = locate(ss.get("fly_where", ""))
    except NotAPlace as exc:
        ss["fly_point"], ss["fly_error"] = None, str(exc)
        return
    ss["fly_point"], ss["fly_error"], ss["fly_within"] = (lat, lon, what), None, 0.0


VERDICT_STYLE = {F.CLEAR: ("#1e7d32", "Clear"), F.RESTRICTED: ("#c62828", "Restricted"),
                 F.REVIEW: ("#b26a00", "Review needed")}


def fly_answer(res: RunResult, t: datetime) -> F.FlyAnswer | None:
    point = ss.get("fly_point")
    if not point or t is None:
        return None
    lat, lon, _ = point
    ground = ss.get("fly_ground")
    within = float(ss.get("fly_within") or 0.0)  # a map click's precision; a typed point is exact
    return F.can_i_fly(res.volumes, lat, lon, t, height_m=float(ss.get("fly_height", F.DRONE_HEIGHT_M)),
                       ground_m=None if ground is None else float(ground), within_m=within if within == within else 0.0)


def _hit_html(h: F.ZoneHit, t: datetime, tz_of) -> str:
    v = h.volume
    tz = tz_of(v)
    if h.state == Z.PERMANENT:
        when = "permanent"
    elif h.state == Z.ACTIVE:
        when = f"until {LT.both_text(h.ends, tz)}" if h.ends else "no end stated"
        when += " (estimated)" if v.record.end_estimated else ""
    else:
        when = f"from {LT.both_text(h.starts, tz)}"
    extra = f", {h.distance_m:,.0f} m away" if h.distance_m > 0 else ""
    review = " · review" if v.status != "ok" else ""
    return (f"<li><b>{escaped(T.record_label(v.record))}</b>{escaped(review)} — {escaped(T._band(v))}, "
            f"{escaped(when)}{escaped(extra)}</li>")


def fly_panel(res: RunResult | None, t: datetime | None, answer: F.FlyAnswer | None) -> None:
    st.markdown("**Can I fly here?**")
    st.text_input("Place or coordinates", key="fly_where", placeholder="22.5194, 113.943 · 2232N11356E · VHHH",
                  on_change=_ask_fly)
    c = st.columns(2)
    c[0].number_input("Height (m AGL)", min_value=1.0, max_value=2000.0, value=F.DRONE_HEIGHT_M, step=10.0,
                      key="fly_height")
    c[1].number_input("Ground (m AMSL)", min_value=-450.0, max_value=9000.0, value=None, step=10.0, key="fly_ground",
                      placeholder="if known",
                      help="the site's elevation: decides zones whose limits are above sea level or flight levels")
    st.button("Check this point", key="fly_button", on_click=_ask_fly, width="stretch")
    if ss.get("fly_error"):
        st.error(md_literal(ss["fly_error"]))
        return
    if res is None:
        st.caption("Run a batch, then ask about a point at the map's time.")
        return
    if answer is None:
        st.caption("Type a place or `lat, lon`: the answer is for the map's time, from the ground up to the height.")
        return
    lat, lon, what = ss["fly_point"]
    colour, word = VERDICT_STYLE[answer.verdict]
    tz = LT.tz_name(lat, lon)
    names = ", ".join(T.record_label(h.volume.record) for h in answer.applies if h.certain and h.volume.status == "ok")
    head = word + (f" by {names}" if answer.verdict == F.RESTRICTED else "")
    parts = [f'<div class="fly-answer" data-testid="fly-answer" data-verdict="{answer.verdict}">'
             f'<div style="font-size:1.15rem;font-weight:700;color:{colour}">{escaped(head)}</div>'
             f"<div>{escaped(what)} · {escaped(LT.both_text(t, tz))} · ground to "
             f"{float(ss.get('fly_height', F.DRONE_HEIGHT_M)):,.0f} m AGL</div>"]
    for title, hits in (("Zones that apply", answer.applies), ("Starting within 3 h", answer.upcoming),
                        (f"Within {F.NEAR_M:,.0f} m", answer.nearby)):
        if hits:
            items = "".join(_hit_html(h, t, LT.volume_tz) for h in hits)
            parts.append(f'<div style="margin-top:0.3rem"><b>{escaped(title)}</b>'
                         f'<ul style="margin:0 0 0 1rem;padding:0">{items}</ul></div>')
    for r in answer.reasons:
        parts.append(f"<div>{escaped(r)}</div>")
    unplaced = T.unplaced(res.feed.live, res.volumes)
    if unplaced:
        parts.append(f"<div>{len(unplaced)} record(s) have no place on the map and are not part of this answer "
                     "(listed under the zones).</div>")
    parts.append("</div>")
    st.html("".join(parts))
