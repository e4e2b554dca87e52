"""A zone's time as an operator reads it: its state at a moment (active, upcoming, scheduled, expired, permanent),
when the active period it is in ends, and when it next starts. Pure functions over ``geo.volumes.Volume``.

"Upcoming" is a zone that starts within ``UPCOMING`` of the moment (the look-ahead of a flight being planned now);
"scheduled" starts later than that; "expired" has no active time left after the moment. A zone with no stated
times is active for ever (``Volume.active_at``), and reads "permanent" like a PERM zone: nothing ends it."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from airspace.geo.volumes import Volume

UTC = timezone.utc
UPCOMING = timedelta(hours=3)

ACTIVE, UPCOMING_STATE, SCHEDULED, EXPIRED, PERMANENT = "active", "upcoming", "scheduled", "expired", "permanent"
STATES = (ACTIVE, PERMANENT, UPCOMING_STATE, SCHEDULED, EXPIRED)


def _utc(t: datetime) -> datetime:
    return t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)


def _periods(vol: Volume) -> list[tuple[datetime | None, datetime | None]]:
    """The zone's active periods as (start, end), None for an open side; adjoining windows are one period."""
    if vol.windows:
        out: list[list[datetime | None]] = []
        for w in sorted(vol.windows, key=lambda w: _utc(w.start)):
            s, e = _utc(w.start), _utc(w.end)
            if out and out[-1][1] is not None and s <= out[-1][1]:
                out[-1][1] = max(out[-1][1], e)
            else:
                out.append([s, e])
        if vol.record.permanent and out:  # windows of a PERM schedule are listed up to a horizon: nothing ends it
            out[-1][1] = None
        return [(s, e) for s, e in out]
    rec = vol.record
    return [(None if rec.start is None else _utc(rec.start), None if rec.end is None else _utc(rec.end))]


def ends_at(vol: Volume, t: datetime) -> datetime | None:
    """When the active period containing ``t`` ends (adjoining windows joined); None when it has no end or ``t`` is
    in no active period."""
    t = _utc(t)
    for s, e in _periods(vol):
        if (s is None or s <= t) and (e is None or t < e):
            return e
    return None


def next_start(vol: Volume, t: datetime) -> datetime | None:
    """The first start of an active period after ``t``, or None."""
    t = _utc(t)
    return min((s for s, _ in _periods(vol) if s is not None and s > t), default=None)


def is_permanent(vol: Volume) -> bool:
    """PERM, or no end stated at all (a zone nothing ends)."""
    rec = vol.record
    return bool(rec.permanent) or (not vol.windows and rec.end is None)


def zone_state(vol: Volume, t: datetime, upcoming: timedelta = UPCOMING) -> str:
    """One of ``STATES`` at ``t``."""
    t = _utc(t)
    if vol.active_at(t):
        return PERMANENT if is_permanent(vol) and ends_at(vol, t) is None else ACTIVE
    nxt = next_start(vol, t)
    if nxt is None:
        return EXPIRED
    return UPCOMING_STATE if nxt - t <= upcoming else SCHEDULED
