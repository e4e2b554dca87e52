"""Local time of a zone, from its coordinates (``timezonefinder``'s offline boundaries and ``zoneinfo``), shown
beside UTC. No Streamlit in here.

The finder is built on first use (about 0.3 s), after the page's first screen; a lookup is cached per point
rounded to 0.01 degree (about a kilometre: time-zone borders are not drawn finer than that on this page)."""

from __future__ import annotations

from datetime import datetime, timezone
from functools import cache, lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

UTC = timezone.utc


@cache
def _finder():
    from timezonefinder import TimezoneFinder

    return TimezoneFinder()


@lru_cache(maxsize=4096)
def _tz_at(lat: float, lon: float) -> str | None:
    name = _finder().timezone_at(lng=lon, lat=lat)
    if name is None:
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return name


def tz_name(lat: float, lon: float) -> str | None:
    """The IANA time zone at a point (``Asia/Shanghai``), or None at sea / where none is known."""
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        return None
    return _tz_at(round(lat, 2), round(lon, 2))


def volume_tz(vol) -> str | None:
    """The time zone at a volume's footprint (a point inside it)."""
    p = vol.polygon.representative_point()
    return tz_name(p.y, ((p.x + 180) % 360) - 180)


def local(t: datetime, tz: str | None) -> datetime | None:
    if tz is None or t is None:
        return None
    t = t.replace(tzinfo=UTC) if t.tzinfo is None else t
    return t.astimezone(ZoneInfo(tz))


def local_text(t: datetime | None, tz: str | None, *, date: bool = True) -> str:
    """``2026-11-30 10:00 CST`` (or ``10:00 CST``); "" without a time or a zone. The abbreviation is the zone's
    own (``+04`` where the zone has none)."""
    lt = local(t, tz)
    if lt is None:
        return ""
    return lt.strftime(("%Y-%m-%d " if date else "") + "%H:%M ") + (lt.tzname() or "")


def both_text(t: datetime | None, tz: str | None) -> str:
    """``2026-11-30 02:00Z (10:00 CST)``: UTC, then local time in brackets (its date when it differs)."""
    if t is None:
        return ""
    u = t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)
    utc = u.strftime("%Y-%m-%d %H:%M") + "Z"
    lt = local(u, tz)
    if lt is None:
        return utc
    same_day = lt.date() == u.date()
    return f"{utc} ({local_text(u, tz, date=not same_day)})"
