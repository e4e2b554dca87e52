"""Local clock times without an offset, placed in UTC by the time zone of the zone's own position.

A note in free text writes ``drones grounded 0930-1600 local`` with its day and no offset. Where the zone has
coordinates, the IANA time zone at them (``timezonefinder``, offline polygons of the tz database's zones) and the
database's rules for that day (``zoneinfo``; DST exact) give the offset. What is said with the result:

- the zone name and the offsets used, always (the zone was inferred, not written);
- a review when the reading is not certain: the zone's points lie in different time zones, the position is at sea
  (``Etc/GMT±n``: nautical time, which ships keep, not a legal zone), or a clock time does not exist or happens twice
  on that day (the DST change).

Pure but for the lookup table, loaded once.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from airspace.parser.gazetteer import named_places, zone_named
from airspace.parser.localtime import zone_at
from airspace.parser.times import parse_clock
from airspace.parser.tzwords import zone_stated

UTC = timezone.utc


def _offset(t: datetime) -> str:
    z = t.strftime("%z")
    return f"UTC{z[:3]}:{z[3:]}"


def _to_utc(day: date, minutes: int, zone: ZoneInfo) -> tuple[datetime, str | None]:
    """A wall-clock time on ``day`` in ``zone`` -> UTC, and why it is uncertain (a DST gap or overlap) or None."""
    wall = datetime(day.year, day.month, day.day, tzinfo=zone) + timedelta(minutes=minutes)
    wall = datetime(wall.year, wall.month, wall.day, wall.hour, wall.minute, tzinfo=zone)  # the wall time, not +elapsed
    early, late = wall.replace(fold=0), wall.replace(fold=1)
    utc = early.astimezone(UTC)
    if early.utcoffset() != late.utcoffset():
        back = utc.astimezone(zone)
        if (back.hour, back.minute) != (wall.hour, wall.minute):
            return utc, f"{wall:%H:%M} does not exist on {wall:%Y-%m-%d} in {zone.key} (clocks go forward)"
        return utc, f"{wall:%H:%M} happens twice on {wall:%Y-%m-%d} in {zone.key} (clocks go back): the first is taken"
    return utc, None


def _zone_of(points: list[tuple[float, float]]) -> tuple[ZoneInfo, list[str]]:
    """The time zone at the zone's centre (``points[0]``) and the reasons to doubt it: the zone's points lie in
    several zones, or at sea. ``ValueError`` when there is no position or no zone is known there."""
    if not points:
        raise ValueError("the zone has no position to take a time zone from")
    zone = zone_at(*points[0])
    if zone is None:
        raise ValueError(f"no time zone is known at {points[0]}")
    doubts: list[str] = []
    others = sorted({z.key for p in points[1:] if (z := zone_at(*p)) is not None and z.key != zone.key})
    if others:
        doubts.append(f"the zone lies in the time zones {', '.join([zone.key, *others])}: its local times are read in "
                      f"{zone.key}, the zone at its centre")
    if zone.key.startswith("Etc/"):
        doubts.append(f"the zone is at sea ({zone.key}: nautical time); the message does not say whose local time")
    return zone, doubts


def local_window_at(day: date, start: str, end: str, points: list[tuple[float, float]]
                    ) -> tuple[datetime, datetime, str, list[str]]:
    """Clock-only ``start``/``end`` on ``day`` at the zone's ``points`` (its centre first) -> UTC start, end, the
    sentence saying which time zone was inferred, and the reasons for review (empty when certain). An end not after
    the start is on the next day. ``ValueError`` when no time zone is known at the centre."""
    zone, doubts = _zone_of(points)
    name = zone.key
    a, why_a = _to_utc(day, parse_clock(start), zone)
    end_day = day
    b, why_b = _to_utc(end_day, parse_clock(end), zone)
    if b <= a:
        end_day = day + timedelta(days=1)
        b, why_b = _to_utc(end_day, parse_clock(end), zone)
    doubts += [w for w in (why_a, why_b) if w]
    offs = sorted({_offset(t.astimezone(zone)) for t in (a, b)})
    what = (f"time zone {name} ({' / '.join(offs)}) taken from the zone's position for the local times "
            f"{start.strip()}-{end.strip()} on {day.isoformat()}")
    return a, b, what, doubts


def _instant(day: date, minutes: int, zone: ZoneInfo, source: str) -> tuple[datetime, str, list[str]]:
    """A wall-clock time in ``zone`` -> UTC, the sentence naming the zone and where it was ``source``d from, and the
    reason for review a DST gap or overlap gives (if any)."""
    utc, why = _to_utc(day, minutes, zone)
    return utc, f"time zone {zone.key} ({_offset(utc.astimezone(zone))}) taken from {source}", [why] if why else []


def local_instant_at(day: date, minutes: int, points: list[tuple[float, float]]) -> tuple[datetime, str, list[str]]:
    """A local wall-clock time (``minutes`` past midnight on ``day``) at the zone's ``points`` (its centre first) ->
    UTC, the time zone inferred, and the reasons for review (``local_window_at``'s). ``ValueError`` when no time
    zone is known at the centre."""
    zone, doubts = _zone_of(points)
    utc, what, why = _instant(day, minutes, zone, "the zone's position")
    return utc, what, doubts + why


def local_instant_named(day: date, minutes: int, text: str) -> tuple[datetime, str, list[str]]:
    """A local wall-clock time (``minutes`` past midnight on ``day``) in the time zone ``text`` states by its name
    (``parser.tzwords``: "Eastern Time"), else the one the places it names settle (``parser.gazetteer``: a zone
    without coordinates, a news item's city) -> UTC, the time zone inferred and what gave it, and the reasons for
    review (a DST gap or overlap). ``ValueError`` when the text names no one time zone."""
    stated = zone_stated(text)
    if stated is not None:
        return _instant(day, minutes, stated[0], f"the time zone the message names ({stated[1]})")
    found = zone_named(text)
    if found is not None:
        zone, names = found
        return _instant(day, minutes, zone, f"the places the message names ({names})")
    lang = language_zone(text) if not named_places(text) else None
    if lang is None:
        raise ValueError("the message names no place whose time zone is known")
    return _instant(day, minutes, ZoneInfo(lang[0]), f"the clock of {lang[1]}-language notices ({lang[0]})")


# languages written in one clock, known by letters no other language of the region writes: Czech and Polish (every
# country that writes them keeps Central European Time, EU summer time), Greek (Greece and Cyprus keep the same
# Eastern European clock); a text names its language's clock only with at least five of them
_LANGUAGE_ZONES = (
    (re.compile(r"[ěůřĚŮŘ]"), "Europe/Prague", "Czech"),
    (re.compile(r"[łŁąęśźżńĄĘŚŹŻŃ]"), "Europe/Warsaw", "Polish"),
    (re.compile(r"[α-ωάέήίόύώΑ-Ω]"), "Europe/Athens", "Greek"),
)


def language_zone(text: str) -> tuple[str, str] | None:
    """The IANA zone a text's language keeps and the language's name (``_LANGUAGE_ZONES``), or None."""
    for letters, zone, name in _LANGUAGE_ZONES:
        if len(letters.findall(text, 0, 4000)) >= 5:
            return zone, name
    return None
