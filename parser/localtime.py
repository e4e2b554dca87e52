"""Times a message marks as local (``DLY 1800-2200 LOCAL``): the zone's time zone from its position.

FAA NOTAMs and TFRs write their period in UTC but may give the daily hours in local time. Those hours are placed
in UTC with the time zone at the zone's position (``timezonefinder``, offline boundary data, and the IANA rules of
``zoneinfo``/``tzdata``), and only where one UTC offset holds for the whole period (a daylight-saving change inside
it would move the hours); the record then says the zone was inferred. Where no zone can be found, the offset
changes, or the lookup is not installed, the caller makes the record ``review`` instead.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from functools import lru_cache
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

# "1800-2200 LOCAL", "1800-2200 LCL", "1800-2200 LT", "(1800-2200 LOCAL TIME)", "2601191800-2601192200 LOCAL"
LOCAL_MARK = re.compile(r"(?<!\d)(?P<times>\d{4}(?:\d{6})?\s*-\s*\d{4}(?:\d{6})?)\s*\(?\s*(?:LOCAL(?:\s+TIME)?|LCL|LT)\b",
                        re.I)
MARK_AFTER = re.compile(r"\s*\(?\s*(?:LOCAL(?:\s+TIME)?|LCL|LT)\b", re.I)


@lru_cache(maxsize=1)
def _finder():
    try:
        from timezonefinder import TimezoneFinder
    except ImportError:  # (an install without it: local times are then review, never guessed)
        return None
    return TimezoneFinder()


@lru_cache(maxsize=1024)
def zone_at(lat: float, lon: float) -> ZoneInfo | None:
    """The IANA time zone at a position, or None (open sea zones ``Etc/GMT±n`` count: they are the legal zone)."""
    finder = _finder()
    if finder is None:
        return None
    try:
        name = finder.timezone_at(lng=lon, lat=lat)
    except (ValueError, OverflowError):
        return None
    if not name:
        return None
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None


def fixed_offset(tz: ZoneInfo, start: datetime, end: datetime | None) -> timedelta | None:
    """The zone's UTC offset when it is the same at ``start`` and ``end`` (and every day between), else None."""
    last = end or start
    offsets = set()
    t = start
    while t <= last:
        offsets.add(t.astimezone(tz).utcoffset())
        t += timedelta(days=1)
    offsets.add(last.astimezone(tz).utcoffset())
    if len(offsets) != 1:
        return None
    return offsets.pop()
