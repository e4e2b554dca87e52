"""Times as written in notices -> aware UTC datetimes.

- ICAO/FAA ``YYMMDDHHMM`` (UTC); ``EST`` glued or spaced marks an *estimated* time (never US Eastern);
  ``PERM`` (and ``UFN``) mark a permanent/open end; ``YYYYMMDDHHMM`` and ISO ``2026-07-23T21:05Z`` too.
- Prose: ``July 23, 2026 at 2105 UTC``, ``23 JUL 2026 2105``, ``JUL 23 2026 21:05Z``; a trailing parenthesised
  local-time restatement is ignored. ``HHMM UTC`` alone takes its date from ``ref``.
- Chinese notices in Beijing time (UTC+8): ``2024年9月10日12时``, ``2024年9月10日20:00``, ``9月10日12时30分``,
  ``12时`` / ``24时`` (date from ``ref``); ``24时`` is the next day's 00:00.

``ref`` is the already-parsed start, used for values that omit the date (end values).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone

from airspace.parser.textnorm import clean

UTC = timezone.utc
BEIJING = timezone(timedelta(hours=8))

MONTHS = {
    "JAN": 1, "FEB": 2, "MAR": 3, "APR": 4, "MAY": 5, "JUN": 6, "JUL": 7, "AUG": 8, "SEP": 9, "OCT": 10,
    "NOV": 11, "DEC": 12,
}
_MONTH_RE = (r"(?P<mon>JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|"
             r"SEP(?:T(?:EMBER)?)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)")


@dataclass(frozen=True)
class TimeValue:
    dt: datetime | None  # tz-aware UTC; None for PERM
    estimated: bool = False
    permanent: bool = False


_ICAO = re.compile(r"^(?P<ts>\d{10}|\d{12})\s*(?:Z|UTC|GMT)?\s*(?P<est>EST)?$")
_PERM = re.compile(r"^(?:PERM|PERMANENT|UFN|UNTIL\s+FURTHER\s+NOTICE)$")
_ISO = re.compile(r"^(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})[T ](?P<h>\d{2}):?(?P<mi>\d{2})(?::\d{2})?\s*(?:Z|UTC|\+00:?00)?$")
_TZ = r"(?:\s*(?P<tz>UTC|GMT|Z))?"
_HM = r"(?P<h>\d{1,2}):?(?P<mi>\d{2})"
_PROSE_MDY = re.compile(
    rf"^{_MONTH_RE}\.?\s+(?P<d>\d{{1,2}})(?:ST|ND|RD|TH)?,?\s+(?P<y>\d{{4}}),?\s+(?:AT\s+)?{_HM}{_TZ}$")
_PROSE_DMY = re.compile(
    rf"^(?P<d>\d{{1,2}})\s+{_MONTH_RE}\.?,?\s+(?P<y>\d{{4}}),?\s+(?:AT\s+)?{_HM}{_TZ}$")
_PROSE_HM_MDY = re.compile(
    rf"^{_HM}{_TZ},?\s+(?:ON\s+)?{_MONTH_RE}\.?\s+(?P<d>\d{{1,2}})(?:ST|ND|RD|TH)?,?\s+(?P<y>\d{{4}})$")
_PROSE_HM_DMY = re.compile(
    rf"^{_HM}{_TZ},?\s+(?:ON\s+)?(?P<d>\d{{1,2}})\s+{_MONTH_RE}\.?,?\s+(?P<y>\d{{4}})$")
_HHMM_ONLY = re.compile(rf"^(?:AT\s+)?{_HM}{_TZ}$")
_CN_FULL = re.compile(
    r"^(?:北京时间|北京時間)?\s*(?:(?P<y>\d{4})\s*年)?\s*(?:(?P<mo>\d{1,2})\s*月)?\s*(?:(?P<d>\d{1,2})\s*[日号號])?"
    r"\s*(?:[(（][^)）]*[)）])?\s*"
    r"(?:(?P<h>\d{1,2})\s*(?:[时時点點]\s*(?:(?P<mi>\d{1,2})\s*分|(?P<half>半))?|:(?P<mi2>\d{2})))?\s*(?:整)?$")


def _mk(y: int, mo: int, d: int, h: int, mi: int, tz: timezone = UTC) -> datetime:
    """A validated datetime; hour 24 (only with minute 0) is the next day's midnight."""
    if not (0 <= mi <= 59 and 0 <= h <= 24) or (h == 24 and mi != 0):
        raise ValueError(f"invalid time {h:02d}:{mi:02d}")
    try:
        base = datetime(y, mo, d, 0, 0, tzinfo=tz)
    except ValueError as exc:
        raise ValueError(f"invalid date {y:04d}-{mo:02d}-{d:02d}: {exc}") from None
    return (base + timedelta(hours=h, minutes=mi)).astimezone(UTC)


def _strip_paren_tail(s: str) -> str:
    """Drop a trailing parenthesised restatement such as ``(July 23, 2026 at 1705 EDT)``."""
    return re.sub(r"\s*\([^()]*\)\s*$", "", s).strip()


def _year(yy: str) -> int:
    return 2000 + int(yy) if len(yy) == 2 else int(yy)


def parse_time(text: str, *, ref: datetime | None = None, local_tz: timezone | None = None) -> TimeValue:
    """One time value -> ``TimeValue`` (UTC). ``ValueError`` with the reason on anything unreadable.

    ``local_tz`` is the zone of clock times written without one in a non-ICAO notice (``20:00``,
    ``2024-09-10 20:00``); ``normalize`` passes Beijing time for Chinese messages. ICAO stamps and times marked
    UTC/Z/GMT are always UTC.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("empty time")
    s = re.sub(r"\s+", " ", clean(text)).strip().rstrip(".,;")
    up = s.upper()
    if (m := _ICAO.match(up)) is not None:
        ts = m.group("ts")
        if len(ts) == 10:
            y, rest = _year(ts[:2]), ts[2:]
        else:
            y, rest = int(ts[:4]), ts[4:]
        dt = _mk(y, int(rest[0:2]), int(rest[2:4]), int(rest[4:6]), int(rest[6:8]))
        return TimeValue(dt, estimated=m.group("est") is not None)
    if _PERM.match(up):
        return TimeValue(None, permanent=True)
    if (m := _ISO.match(up)) is not None:
        marked = bool(re.search(r"(?:Z|UTC|\+00:?00)$", up))
        tz = UTC if marked or local_tz is None else local_tz
        return TimeValue(_mk(int(m["y"]), int(m["mo"]), int(m["d"]), int(m["h"]), int(m["mi"]), tz))
    body = _strip_paren_tail(up)
    if body != up and (m := _ICAO.match(body)) is not None:
        return parse_time(body)  # "2607231600 UTC (1200 LOCAL 07/23/26)"
    for pat in (_PROSE_MDY, _PROSE_DMY, _PROSE_HM_MDY, _PROSE_HM_DMY):
        if (m := pat.match(body)) is not None:
            mo = MONTHS[m["mon"][:3]]
            return TimeValue(_mk(int(m["y"]), mo, int(m["d"]), int(m["h"]), int(m["mi"])))
    if (m := _HHMM_ONLY.match(body)) is not None and (m["tz"] or ":" in body or len(body) == 4):
        if ref is None:
            raise ValueError(f"time {text.strip()!r} has no date and no start to take it from")
        tz = local_tz if (local_tz is not None and not m["tz"] and ":" in body) else UTC
        r = ref.astimezone(tz)
        dt = _mk(r.year, r.month, r.day, int(m["h"]), int(m["mi"]), tz)
        if dt <= r:
            dt += timedelta(days=1)
        return TimeValue(dt)
    if any("\u4e00" <= ch <= "\u9fff" for ch in s) and (m := _CN_FULL.match(s)) is not None:
        return TimeValue(_chinese(m, ref, text))
    raise ValueError(f"unrecognised time {text.strip()[:40]!r}")


def _chinese(m: re.Match[str], ref: datetime | None, text: str) -> datetime:
    """Beijing-time date/hour fields -> UTC. Missing year/month/day come from ``ref`` (in Beijing time)."""
    if m["h"] is None and m["d"] is None:
        raise ValueError(f"unrecognised time {text.strip()[:40]!r}")
    local_ref = ref.astimezone(BEIJING) if ref is not None else None
    if m["d"] is None:
        if local_ref is None:
            raise ValueError(f"time {text.strip()!r} has no date and no start to take it from")
        y, mo, d = local_ref.year, local_ref.month, local_ref.day
    else:
        if m["y"] is None and local_ref is None:
            raise ValueError(f"date {text.strip()!r} has no year and no start to take it from")
        y = int(m["y"]) if m["y"] else local_ref.year  # type: ignore[union-attr]
        if m["mo"] is None and local_ref is None:
            raise ValueError(f"date {text.strip()!r} has no month and no start to take it from")
        mo = int(m["mo"]) if m["mo"] else local_ref.month  # type: ignore[union-attr]
        d = int(m["d"])
    if m["h"] is None:
        # a bare date: the start of that day, or (for an end value) the end of it
        h, mi = (24, 0) if ref is not None else (0, 0)
    else:
        h = int(m["h"])
        mi = int(m["mi"] or m["mi2"] or (30 if m["half"] else 0))
    dt = _mk(y, mo, d, h, mi, BEIJING)
    if m["d"] is None and ref is not None and dt <= ref:
        dt += timedelta(days=1)
    return dt


def parse_time_range(text: str) -> tuple[TimeValue, TimeValue]:
    """FAA ``YYMMDDHHMM-YYMMDDHHMM`` (either side may carry EST; the end may be PERM) -> (start, end)."""
    s = clean(text).strip().upper()
    m = re.match(r"^(\d{10}(?:\s?EST)?)\s*-\s*(\d{10}(?:\s?EST)?|PERM)$", s)
    if not m:
        raise ValueError(f"not a time range: {text.strip()[:40]!r}")
    start = parse_time(m.group(1))
    return start, parse_time(m.group(2), ref=start.dt)


def day_start(d: date) -> datetime:
    """00:00 UTC of a date (helper for schedules)."""
    return datetime(d.year, d.month, d.day, tzinfo=UTC)
