"""The compact zone list beside the map, as a dispatcher reads it: the zone, its state at the map's time (active,
upcoming, scheduled, expired, permanent), until when (local time of the zone beside UTC), its band, and how many
identical copies it stands for. No Streamlit in here."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from datetime import datetime, timezone

import pandas as pd

from airspace.app import local_time as LT
from airspace.app.tables import _band, record_label
from airspace.geo import zonetime as Z

ZONE_COLUMNS = ["key", "zone", "state", "when", "band"]
STATE_ORDER = {s: i for i, s in enumerate(Z.STATES)}


def _at(x: datetime | None, t: datetime, tz: str | None) -> str:
    """``12:00Z (20:00 CST)``, with the date where it is not the map's day."""
    if x is None:
        return ""
    xu = x.astimezone(timezone.utc) if x.tzinfo else x.replace(tzinfo=timezone.utc)
    day = "" if xu.date() == t.astimezone(timezone.utc).date() else xu.strftime("%Y-%m-%d ")
    loc = LT.local(xu, tz)
    lday = "" if loc is None or loc.date() == xu.date() else loc.strftime("%m-%d ")
    return f"{day}{xu:%H:%M}Z" + (f" ({lday}{loc:%H:%M} {loc.tzname() or ''})".replace(" )", ")") if loc else "")


def when_text(v, t: datetime, tz: str | None) -> str:
    """Until when the zone holds, or when it starts / ended, in UTC with the zone's local time beside it."""
    state = Z.zone_state(v, t)
    end = " EST" if v.record.end_estimated else ""
    if state == Z.PERMANENT:
        return "permanent"
    if state == Z.ACTIVE:
        e = Z.ends_at(v, t)
        return "until " + _at(e, t, tz) + end if e is not None else "no end stated"
    if state in (Z.UPCOMING_STATE, Z.SCHEDULED):
        return "from " + _at(Z.next_start(v, t), t, tz)
    last = max((w.end for w in v.windows), default=v.record.end)
    return ("ended " + _at(last, t, tz)) if last is not None else "ended"


def zone_rows(volumes: Sequence, t: datetime, *, tz_of: Callable[[object], str | None] = LT.volume_tz,
              copies: dict[str, int] | None = None) -> pd.DataFrame:
    """One row per volume, the ones that matter first (active, permanent, upcoming, scheduled, expired)."""
    copies = copies or {}
    rows = []
    for v in volumes:
        key = f"{v.key[0]}:{v.key[1]}"
        n = copies.get(key, 1)
        state = Z.zone_state(v, t)
        rows.append({
            "key": key,
            "zone": record_label(v.record) + (f" ×{n}" if n > 1 else "") + (" (review)" if v.status != "ok" else ""),
            "state": state,
            "when": when_text(v, t, tz_of(v)),
            "band": _band(v),
            "_order": (STATE_ORDER.get(state, 9), v.key),
        })
    rows.sort(key=lambda r: r["_order"])
    return pd.DataFrame([{k: r[k] for k in ZONE_COLUMNS} for r in rows], columns=ZONE_COLUMNS)


def common_tz(volumes: Sequence, tz_of: Callable[[object], str | None] = LT.volume_tz) -> str | None:
    """The time zone most of the volumes lie in (the one the map's time is shown in), or None."""
    counts: dict[str, int] = {}
    for v in volumes:
        tz = tz_of(v)
        if tz:
            counts[tz] = counts.get(tz, 0) + 1
    return max(counts, key=counts.get) if counts else None
