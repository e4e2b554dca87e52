"""Sunrise and sunset in UTC for a day and a position (NOAA solar calculator equations).

Used by schedules written with ``SR``/``SS`` (and ICAO ``HJ``/``HN``). The NOAA equations (Meeus, simplified)
are good to about a minute between latitudes ±72°; the apparent sunrise is the moment the Sun's centre is
0.833° below the horizon (refraction plus semi-diameter). Each event is refined twice at its own time.
"""

from __future__ import annotations

import math
from datetime import date, datetime, timedelta, timezone
from typing import Literal

UTC = timezone.utc
_ZENITH = 90.833


def _julian_day(d: date) -> float:
    """Julian day at 00:00 UTC of the date."""
    return d.toordinal() + 1721424.5


def _sun(jd: float) -> tuple[float, float]:
    """(declination in degrees, equation of time in minutes) at Julian day ``jd``."""
    t = (jd - 2451545.0) / 36525.0
    l0 = (280.46646 + t * (36000.76983 + t * 0.0003032)) % 360.0
    m = 357.52911 + t * (35999.05029 - 0.0001537 * t)
    e = 0.016708634 - t * (0.000042037 + 0.0000001267 * t)
    mr = math.radians(m)
    c = (math.sin(mr) * (1.914602 - t * (0.004817 + 0.000014 * t))
         + math.sin(2 * mr) * (0.019993 - 0.000101 * t) + math.sin(3 * mr) * 0.000289)
    omega = math.radians(125.04 - 1934.136 * t)
    app_long = l0 + c - 0.00569 - 0.00478 * math.sin(omega)
    eps0 = 23.0 + (26.0 + (21.448 - t * (46.815 + t * (0.00059 - t * 0.001813))) / 60.0) / 60.0
    eps = math.radians(eps0 + 0.00256 * math.cos(omega))
    decl = math.degrees(math.asin(math.sin(eps) * math.sin(math.radians(app_long))))
    y = math.tan(eps / 2) ** 2
    l0r = math.radians(l0)
    eot = 4 * math.degrees(
        y * math.sin(2 * l0r) - 2 * e * math.sin(mr) + 4 * e * y * math.sin(mr) * math.cos(2 * l0r)
        - 0.5 * y * y * math.sin(4 * l0r) - 1.25 * e * e * math.sin(2 * mr))
    return decl, eot


def _cos_hour_angle(lat: float, decl: float) -> float:
    la, de = math.radians(lat), math.radians(decl)
    return math.cos(math.radians(_ZENITH)) / (math.cos(la) * math.cos(de)) - math.tan(la) * math.tan(de)


def _event_minutes(day: date, lat: float, lon: float, sign: int) -> float | None:
    """Minutes after 00:00 UTC of ``day`` of sunrise (sign -1) or sunset (+1); None if it does not happen."""
    jd0 = _julian_day(day)
    minutes = 720.0 - 4.0 * lon  # first guess: local solar noon
    for _ in range(3):
        decl, eot = _sun(jd0 + minutes / 1440.0)
        cos_h = _cos_hour_angle(lat, decl)
        if not -1.0 <= cos_h <= 1.0:
            return None
        ha = math.degrees(math.acos(cos_h))
        minutes = 720.0 - 4.0 * lon - eot + sign * 4.0 * ha
    return minutes


def daylight_kind(day: date, lat: float, lon: float) -> Literal["normal", "polar_day", "polar_night"]:
    """Whether the Sun rises and sets on ``day`` at the position, or stays up/down (at local solar noon)."""
    decl, _ = _sun(_julian_day(day) + (720.0 - 4.0 * lon) / 1440.0)
    cos_h = _cos_hour_angle(max(min(lat, 89.9999), -89.9999), decl)
    if cos_h < -1.0:
        return "polar_day"
    if cos_h > 1.0:
        return "polar_night"
    return "normal"


def sun_times(day: date, lat: float, lon: float) -> tuple[datetime | None, datetime | None]:
    """UTC (sunrise, sunset) of ``day`` at (lat, lon); ``(None, None)`` for polar day or polar night.

    ``day`` is the UTC date on which local solar noon falls, so for longitudes near ±180 an event may fall
    on the previous or next UTC date.
    """
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ValueError(f"position out of range: {lat}, {lon}")
    lat = max(min(lat, 89.9999), -89.9999)
    rise = _event_minutes(day, lat, lon, -1)
    sset = _event_minutes(day, lat, lon, +1)
    if rise is None or sset is None:
        return None, None
    base = datetime(day.year, day.month, day.day, tzinfo=UTC)
    return (base + timedelta(minutes=round(rise * 60) / 60), base + timedelta(minutes=round(sset * 60) / 60))
