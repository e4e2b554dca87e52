"""Times written without their month or year, completed from the notice itself, and said to be inferred.

Navigational warnings (NAVAREA, HYDROLANT/HYDROPAC, NAVTEX) write a period as day-time groups ``191218Z TO
191647Z APR`` (the month once, after the last group), as days ``17 THRU 21 APR`` or as a daily window over days
``0030Z TO 1000Z DAILY 14 APR THRU 07 MAY``; the year is in the warning's own stamps (``CANCEL THIS MSG 251516Z APR
23``, ``Date: 160323Z AUG 18``), never in the period. Here:

- a value's missing month is the first month written after it in the same phrase (``191218Z`` ... ``APR``);
- its missing year is the year of the notice's own dated stamp, the one of year-1/year/year+1 that puts the time
  nearest to that stamp (a warning issued 28 DEC for 02 JAN is next year's);
- a day without a clock takes the daily window's start (as a start) or end (as an end, the next day when the window
  crosses midnight) when the zone has one, else the whole day (00:00, 23:59).

``complete_time`` returns the UTC time and a sentence saying what was inferred and from where; ``ValueError`` when
the value is not one of these forms or the notice states no year. Pure.
"""

from __future__ import annotations

import re
from datetime import datetime, timedelta, timezone
from functools import lru_cache

from airspace.parser.times import CN_YEAR, ROC_YEAR, cn_year, parse_time

UTC = timezone.utc
_MON = r"JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC"
MONTHS = {m: i + 1 for i, m in enumerate(_MON.split("|"))}
_MON_WORD = rf"(?:{_MON})[A-Z]*\.?"
# "191218Z", "311400Z AUG", "041000 Z SEP", "251416Z APR 23"
_DTG = re.compile(rf"^(?P<d>\d{{2}})(?P<h>\d{{2}})(?P<mi>\d{{2}})\s?Z(?:\s+(?P<mon>{_MON_WORD})(?:\s+(?P<y>\d{{2}}|\d{{4}}))?)?$")
# "14 APR", "21", "20 SEP 18", "7 MAY 2023"
_DAY = re.compile(rf"^(?P<d>\d{{1,2}})(?:ST|ND|RD|TH)?(?:\s+(?P<mon>{_MON_WORD})(?:\s+(?P<y>\d{{2}}|\d{{4}}))?)?$")
_MONTH_AFTER = re.compile(rf"\b(?P<mon>{_MON})[A-Z]*\b")
# the notice's own dated stamp: a day-time group with month and year ("251516Z APR 23", "160323Z AUG 18")
_STAMP = re.compile(rf"(?<!\d)(?P<d>\d{{2}})(?P<h>\d{{2}})(?P<mi>\d{{2}})\s?Z\s+(?P<mon>{_MON})[A-Z]*\.?\s+(?P<y>\d{{2}}|\d{{4}})(?!\d)")
_CLOCK_PAIR = re.compile(
    r"(?P<h1>[0-2]\d)(?P<m1>[0-5]\d)\s?(?:Z|HRS?|H)?\s*(?:TO|-|–)\s*(?P<h2>[0-2]\d)(?P<m2>[0-5]\d)\s?(?:Z|HRS?|H)?"
    r"(?P<utc>\s*(?:UTC|GMT))?", re.I)
_NAVWARN = re.compile(r"\bCANCEL\s+THIS\s+MSG\b|\bNAVAREA\b|\bHYDRO(?:LANT|PAC|ARC)\b|\bNAVTEX\b", re.I)
_TAGS = re.compile(r"<[^<>\n]{0,40}>")


@lru_cache(maxsize=256)
def is_warning(text: str) -> bool:
    """Whether ``text`` is a navigational warning (its cancellation line or series name): the notices whose periods
    are written this way by convention, and whose bare "miles" are nautical. Cached: the span repair asks it for every
    partial-time candidate of a message."""
    return _NAVWARN.search(text) is not None


def is_partial(value: str) -> bool:
    """Whether ``value`` is a day-time group or a day written without its year (one of this module's forms)."""
    s = _plain(value)
    return bool(_DTG.match(s) or _DAY.match(s)) or _CN_DAY.match(s) is not None or _CN_EVENT_CLOCK.match(s) is not None


def _plain(value: str) -> str:
    return " ".join(_TAGS.sub(" ", value).upper().split()).rstrip(".,;")


def _has_year(s: str) -> bool:
    m = _DTG.match(s) or _DAY.match(s)
    return m is not None and m.group("y") is not None


def _year(y: str) -> int:
    return int(y) if len(y) == 4 else 2000 + int(y) if int(y) < 70 else 1900 + int(y)


def notice_stamp(text: str) -> tuple[datetime, str] | None:
    """The first dated stamp the notice writes (its issue ``Date:`` line, its authority or its cancellation line)."""
    for m in _STAMP.finditer(text.upper()):
        try:
            dt = datetime(_year(m["y"]), MONTHS[m["mon"]], int(m["d"]), int(m["h"]), int(m["mi"]), tzinfo=UTC)
        except ValueError:
            continue
        return dt, " ".join(m.group().split())
    return None


def complete_time(value: str, text: str, span_end: int, *, is_end: bool, schedule: str | None = None,
                  start: datetime | None = None) -> tuple[datetime, str, bool]:
    """``value`` (at ``text[...:span_end]``) completed to a UTC time, the note that says how, and whether the notice
    settles it: a navigational warning's times are UTC by convention, and so is a window marked Z/UTC; whole days or a
    window without either in other prose are read as UTC and left for review."""
    warning = is_warning(text)
    sure = True
    s = _plain(value)
    m = _DTG.match(s)
    clock: tuple[int, int] | None = None
    said: list[str] = []
    if m is not None:
        clock = (int(m["h"]), int(m["mi"]))
    else:
        m = _DAY.match(s)
        if m is None:
            raise ValueError(f"not a day or day-time group: {value.strip()[:40]!r}")
        if schedule and (c := _CLOCK_PAIR.search(schedule)) is not None:
            clock = (int(c["h2"]), int(c["m2"])) if is_end else (int(c["h1"]), int(c["m1"]))
            crosses = (int(c["h2"]), int(c["m2"])) <= (int(c["h1"]), int(c["m1"]))
            said.append(f"the clock {clock[0]:02d}{clock[1]:02d}Z from the daily window")
            sure = warning or bool(c["utc"]) or "Z" in c.group().upper()
        else:
            crosses = False
            clock = (23, 59) if is_end else (0, 0)
            said.append("the whole day")
            sure = warning
        if not sure:
            said.append("read as UTC: the message states no time zone")
    mon = m["mon"]
    if mon is None:
        after = _MONTH_AFTER.search(text.upper(), span_end, min(len(text), span_end + 80))
        if after is None:
            raise ValueError(f"time {value.strip()[:40]!r} has no month, and none follows it")
        mon = after["mon"]
        said.append(f"month {mon} from the period")
    month = MONTHS[mon[:3]]
    day = int(m["d"])
    if m["y"] is not None:
        years = [_year(m["y"])]
    else:
        stamp = notice_stamp(text)
        if stamp is None:
            raise ValueError(f"time {value.strip()[:40]!r} has no year and the notice states none")
        ref, where = stamp
        years = [ref.year - 1, ref.year, ref.year + 1]
    best: datetime | None = None
    for y in years:
        try:
            dt = datetime(y, month, day, clock[0], clock[1], tzinfo=UTC)
        except ValueError:
            continue
        if m.re is _DAY and is_end and schedule and crosses:
            dt += timedelta(days=1)
        if start is not None and is_end and dt < start and len(years) > 1:
            continue
        if best is None or (len(years) > 1 and abs(dt - ref) < abs(best - ref)):
            best = dt
    if best is None:
        raise ValueError(f"time {value.strip()[:40]!r} is not a calendar date")
    if m["y"] is None:
        said.append(f"year {best.year} from the notice's stamp {where!r}")
    return best, f"{'end' if is_end else 'start'} {' '.join(value.split())!r}: " + ", ".join(said) + " (inferred)", sure


# Chinese notices: "26日" (a day of the month the notice is dated in; Beijing time, whole days)
_CN_DAY = re.compile(r"^(?P<d>\d{1,2})\s*[日号號]$")
_CN_DATED = re.compile(rf"(?P<y>(?:19|20)\d{{2}}|{ROC_YEAR})\s*年\s*(?P<mo>\d{{1,2}})\s*月(?:\s*(?P<d>\d{{1,2}})\s*[日号號])?")
# a news page's release line dated as ISO writes it ("发布时间：2022-09-20 08:40:00")
_CN_RELEASED = re.compile(r"(?:发|發)[^\n:：]{0,12}[:：]\s*(?P<y>(?:19|20)\d{2})-(?P<mo>[01]?\d)-(?P<d>[0-3]?\d)(?!\d)")
BEIJING = timezone(timedelta(hours=8))


# a clock on the event's own day ("当日17时"), and the day the notice says the event is held on ("将于2023年7月8日在
# 点军区奥体中心体育场举行")
_CN_EVENT_CLOCK = re.compile(r"^(?:当日|当天|當日|當天)\s*(?P<clock>\S.*)$")
_CN_HELD_ON = re.compile(rf"(?P<y>{CN_YEAR})\s*年\s*(?P<mo>\d{{1,2}})\s*月\s*(?P<d>\d{{1,2}})\s*[日号號]"
                         r"[^。；;\n]{0,40}?(?:举行|舉行|举办|舉辦|进行|進行|开幕|開幕|上演|开赛|開賽)")


def _event_clock(value: str, clock: str, text: str, is_end: bool) -> tuple[datetime, str]:
    """``当日17时``: that clock on the one day the notice says the event is held on (Beijing time)."""
    days = {(cn_year(d["y"]), int(d["mo"]), int(d["d"])) for d in _CN_HELD_ON.finditer(text)}
    if len(days) != 1:
        raise ValueError(f"{value.strip()!r}: the notice names {len(days)} days an event is held on, not one")
    (y, mo, d), = days
    dt = parse_time(f"{y}年{mo}月{d}日{clock}").dt
    assert dt is not None  # (a Chinese date and clock is never permanent)
    how = (f"{'end' if is_end else 'start'} {' '.join(value.split())!r}: the day {y}-{mo:02d}-{d:02d} the notice says "
           "the event is held on, Beijing time (inferred)")
    return dt, how


def complete_cn_day(value: str, text: str, *, is_end: bool) -> tuple[datetime, str]:
    """A Chinese day without its month (``26日``) -> UTC: the month and year of the notice's own date (the first
    dated heading, else its dated signature line), the next month when that puts the day more than a week before the
    notice's date; a start at 00:00, an end at 24:00 Beijing time (whole days, as ``6月6日至6月10日`` reads). A clock
    on the event's day (``当日17时``) is on the day the notice says the event is held on."""
    if (e := _CN_EVENT_CLOCK.match(value.strip())) is not None:
        return _event_clock(value, e.group("clock"), text, is_end)
    m = _CN_DAY.match(_plain(value))
    if m is None:
        raise ValueError(f"not a day of the month: {value.strip()[:40]!r}")
    dated = sorted([*_CN_DATED.finditer(text), *_CN_RELEASED.finditer(text)], key=lambda d: d.start())
    if not dated:
        raise ValueError(f"day {value.strip()!r} has no month and the notice is not dated")
    ref = dated[0]
    y, mo = cn_year(ref["y"]), int(ref["mo"])
    ref_day = int(ref["d"]) if ref["d"] else 1
    day = int(m["d"])
    if day < ref_day - 7:
        y, mo = (y + 1, 1) if mo == 12 else (y, mo + 1)
    try:
        dt = datetime(y, mo, day, tzinfo=BEIJING)
    except ValueError as exc:
        raise ValueError(f"day {value.strip()!r} is not in {y}-{mo:02d}") from exc
    if is_end:
        dt += timedelta(days=1)
    how = (f"{'end' if is_end else 'start'} {' '.join(value.split())!r}: month and year {y}-{mo:02d} from the "
           f"notice's date {' '.join(ref.group().split())!r}, whole day Beijing time (inferred)")
    return dt.astimezone(UTC), how

