"""Dates as English prose writes them: news items, police orders, authority statements about drone bans.

- A date: month and day (``November 13``, ``Jan 18th``) or day and month (``18 January``, ``the 5th of May``), a
  weekday before it or not, a year after it or not (``Jan 23 2023``, ``March 1, 2026``).
- A period: ``from … to/till/until/through …`` (or days of one month: ``November 9 to 17, 2017``, ``16-18 March``), ``between … and/to …``, ``effective from … to …``; or a start and an
  end written apart (``prohibited from January 18 … will remain in effect till February 15``).
- One day: ``on Friday`` (the weekday on or after the item's own date), ``on November 13``.
- The hours of that day or of every day of the period: ``between 10 am and 8 pm``, ``from 6:30 a.m. to 9 p.m.``,
  ``from 09:00 to 17:00 hrs``.
- A period whose ends each carry their clock: ``between 2100 hours on 21 December 2019 and 1100 hours on 22
  December 2019``, ``from 12:30 UTC on December 6 to 15:30 UTC on December 8``, ``From July 20 at 9:00am to July
  21 at 11:00am`` (``CLOCKED_PERIOD``).

``PERIOD``, ``DAY_RANGE``, ``DAY_LIST``, ``CLOCKED_PERIOD``, ``FROM``, ``TILL``, ``ON_DAY`` and ``HOURS`` find the spans (the rules reader); ``read_en_time`` reads
one value (``EuTime``, as ``parser.eudates``). A year the value leaves out is the period's own, else the year that
puts the day nearest the item's own date (its dateline: the first date written with a year); a weekday alone is
the first such day on or after that date. Which clock it is in is the normaliser's. Pure.
"""

from __future__ import annotations

import calendar
import re
from datetime import date, datetime, timedelta
from functools import lru_cache

from airspace.parser.eudates import EuTime, nearest_day
from airspace.parser.times import MONTHS


def _month(word: str) -> int:
    return MONTHS[word[:3].upper()]

# (a month's number is ``parser.times.MONTHS``' of its first three letters: "Sept" is SEP)
MONTH_WORDS = ("january", "february", "march", "april", "may", "june", "july", "august", "september", "sept",
                "october", "november", "december", "jan", "feb", "mar", "apr", "jun", "jul", "aug", "sep", "oct",
                "nov", "dec")
WEEKDAYS = ("monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday")
# a month is written with a capital ("May 5", never "may 5"): the word "may" is no month
_MON = r"(?P<mon>(?=(?-i:[A-Z]))(?:" + "|".join(sorted(MONTH_WORDS, key=len, reverse=True)) + r"))\.?"
_WD = r"(?:(?=(?-i:[A-Z]))(?:" + "|".join(WEEKDAYS) + r"))"
_ORD = r"(?:st|nd|rd|th)?"
_YEAR = r"(?:,?\s+(?P<y>(?:19|20)\d{2})(?!\d))?"
_MD = rf"{_MON}\s+(?P<d>[0-3]?\d){_ORD}(?![\d:]){_YEAR}"
_DM = rf"(?:the\s+)?(?P<d2>[0-3]?\d){_ORD}\s+(?:of\s+)?{_MON.replace('mon>', 'mon2>')}{_YEAR.replace('y>', 'y2>')}"


def _named(pattern: str, tag: str) -> str:
    """``pattern`` with every group renamed ``<name>_<tag>`` (a regex may use each name once)."""
    return re.sub(r"\(\?P<(\w+)>", lambda m: f"(?P<{m[1]}_{tag}>", pattern)


def _date(tag: str) -> str:
    """One date, a weekday before it or not, as the group ``v_<tag>``."""
    return _named(rf"(?P<v>(?:{_WD},?\s+)?(?:{_MD}|{_DM}))", tag)


_TO = r"(?:to|till|til|until|through|thru|and|up\s+to|-|–)"
_DATE_ONE = re.compile(_date("one"), re.I)
PERIOD = re.compile(rf"\b(?:from|between|effective(?:\s+from)?)\s+{_date('s')}\s*,?\s*{_TO}\s+{_date('e')}", re.I)
FROM = re.compile(rf"\b(?:from|since|starting(?:\s+from)?|effective(?:\s+from)?|beginning)\s+{_date('s')}", re.I)
# in force from the moment it is published: the item's own date (its dateline), else the day the batch was received
IMMEDIATE = re.compile(r"\b(?:effective|in\s+force|valid|with\s+effect|with|taking)\s+(?P<v_s>immediately|immediate\s+effect)\b",
                       re.I)
TILL = re.compile(rf"\b(?:till|until|through|up\s+to)\s+{_date('e')}", re.I)
# or a weekday alone ("banned … until Sunday"): the first such day on or after the item's own date
TILL_WEEKDAY = re.compile(rf"\b(?:till|until|through)\s+(?P<v_e>{_WD})\b(?!,?\s+(?:the\s+)?\d|,?\s+{_MON})", re.I)
ON_DAY = re.compile(rf"\bon\s+(?P<v>(?:{_WD},?\s+)?(?:{_named(_MD, 'on')}|{_named(_DM, 'on')})|{_WD})(?![\w-])", re.I)
# a clock: "10 am", "6:30 p.m."; or on the 24-hour dial with its colon or its word ("17:00", "0900 hrs"), never
# four bare digits (a year: "between 2017 and 2019")
# (or four bare digits where a time zone or "local" is written after them or after the span they open: "from 0800 to
# 1800 AEST", "between 0900 and 1700 local time")
_HHMM_MARK = r"(?:UTC|GMT|Z|local|LT|hrs|hours|(?-i:[A-Z]{2,4}T))\b"
_CLOCK = (r"(?:(?P<h>[01]?\d)(?:[:.](?P<mi>[0-5]\d))?\s*(?P<ap>[ap]\.?\s?m\b\.?)"
          r"|(?P<h24>[01]?\d|2[0-4])(?::(?P<mi24>[0-5]\d)(?:\s*(?:hrs|hours|h)\b)?|(?P<mi24b>[0-5]\d)\s*(?:hrs|hours|h)\b)"
          rf"|(?P<h4>[01]\d|2[0-4])(?P<mi4>[0-5]\d)(?=\s*{_HHMM_MARK}|\s*(?:and|to|till|until|-|–)\s*[0-2]\d[0-5]\d\s*{_HHMM_MARK})"
          r"|(?P<w>midnight|noon|midday)\b)")
HOURS = re.compile(rf"\b(?:between|from)\s+{_named(_CLOCK, 'x')}\s*(?:and|to|till|until|-|–)\s*{_named(_CLOCK, 'y')}",
                   re.I)
# a clock on a date, as UK Restriction of Flying circulars and news write a period's ends: "between 2100 hours on
# 21 December 2019 and 1100 hours on 22 December 2019", "from 12:30 UTC on December 6 to 15:30 UTC on December 8",
# "From July 20 at 9:00am to July 21 at 11:00am"
_CLOCK_AT = rf"(?P<clock>{_named(_CLOCK, 'c')}(?:\s*(?P<z>UTC|GMT|Z)\b)?)"
_DAY_WRITTEN = rf"(?:{_WD},?\s+)?(?:{_MD}|{_DM})"


def _clocked(tag: str) -> str:
    # ("6 p.m. Dec. 31, 2023", "14 July 2024 08:00": the clock and the day side by side, without "on" or "at")
    on = _named(rf"{_CLOCK_AT},?\s+(?:on\s+)?{_DAY_WRITTEN}", "on")
    at = _named(rf"{_DAY_WRITTEN},?\s+(?:at\s+)?{_CLOCK_AT}", "at")
    return _named(rf"(?P<v>{on}|{at})", tag)


# days of one month, the month written once: "from November 9 to 17, 2017", "16-18 March 2018", "3 to 5 September
# 2014"; the bare day takes its month (and year) from its partner (``read_en_time``)
# (never "and": "January 31, February 1 and 2" lists days, it does not span them)
_DAY_TO = r"\s*(?:-|–|\bto\b|\btill\b|\buntil\b|\bthrough\b|\bthru\b)\s*"
_NOT_CLOCK = r"(?![\d:.]|\s*(?:[ap]\.?\s?m\b|hrs?\b|hours\b|h\b))"
_TITLE = r"(?=(?-i:[A-Z][a-z]))"  # prose writes "March"; a warning's "25 THRU 31 MAR" is its own form
DAY_RANGE = re.compile(
    rf"(?<![\w/.:,-])(?:(?P<v_s>{_TITLE}{_named(_MON, 'a')}\s+[0-3]?\d{_ORD}){_NOT_CLOCK}{_DAY_TO}"
    rf"(?P<v_e>[0-3]?\d{_ORD}{_named(_YEAR, 'a')}){_NOT_CLOCK}(?!\s+(?:of\s+)?{_named(_MON, 'x')})"
    rf"|(?P<v_s2>[0-3]?\d{_ORD}){_DAY_TO}(?P<v_e2>[0-3]?\d{_ORD}\s+(?:of\s+)?{_TITLE}{_named(_MON, 'b')}"
    rf"{_named(_YEAR, 'b')}))",
    re.I)
_MON_ANY = _MON.replace("(?P<mon>", "(?:")
_AND = r"(?:\s*,\s*|\s+)(?:and|&)\s+"  # before a list's last day: "7, 8 and 9", "7 & 8", "7, 8, and 9"
# days listed in one phrase ("on September 7 and 8", "January 31, February 1 and 2"): as the truth reads several
# windows, the first day starts the period and the last ends it (never fewer days than the list names)
DAY_LIST = re.compile(
    rf"(?<![\w/.:,-])(?P<v_s>{_TITLE}{_MON}\s+[0-3]?\d{_ORD}){_NOT_CLOCK}"
    # (at most ten days listed, taken whole: a long run of dates is tried from each of them in linear time)
    rf"(?:\s*,\s*(?:{_TITLE}{_MON_ANY}\s+)?[0-3]?\d{_ORD}{_NOT_CLOCK}){{0,10}}+{_AND}"
    rf"(?P<v_e>(?:{_TITLE}{_MON_ANY}\s+)?[0-3]?\d{_ORD}{_YEAR}){_NOT_CLOCK}(?!\s+(?:of\s+)?{_MON_ANY})",
    re.I)
_BARE_DAY = re.compile(rf"(?P<d>[0-3]?\d){_ORD}(?:,?\s+(?P<y>(?:19|20)\d{{2}}))?")
_MONTH_AFTER = re.compile(rf"{_DAY_TO}[0-3]?\d{_ORD}\s+(?:of\s+)?{_MON}", re.I)
# (and the last day of a list: "September 7, 8 and ")
_MONTH_BEFORE = re.compile(
    rf"{_MON}\s+[0-3]?\d{_ORD}(?:{_DAY_TO}|(?:\s*,\s*[0-3]?\d{_ORD}){{0,10}}+{_AND})$", re.I)


def day_range_spans(m: re.Match) -> tuple[tuple[int, int], tuple[int, int]]:
    """A ``DAY_RANGE`` (or ``DAY_LIST``) match -> the spans of its start and its end."""
    if m.group("v_s") is not None:
        return m.span("v_s"), m.span("v_e")
    return m.span("v_s2"), m.span("v_e2")


CLOCKED_PERIOD = re.compile(rf"\b(?:from|between)\s+{_clocked('s')}\s*,?\s*{_TO}\s+{_clocked('e')}", re.I)
# one end written with its clock: "until 06:00 on 3 December 2025", "expired at 6 p.m. on May 3", "from 0900 hours
# on 21 December 2019" (without it the day alone was read as the whole period)
TILL_CLOCKED = re.compile(rf"\b(?:till|until|through|up\s+to|(?:expire[sd]?|ends?|ended|ending|lifted)\s+at)\s+"
                          rf"{_clocked('e')}", re.I)
FROM_CLOCKED = re.compile(rf"\b(?:from|since|starting(?:\s+from)?|effective(?:\s+from)?|beginning)\s+{_clocked('s')}",
                          re.I)
_CLOCK_ON_DAY = re.compile(rf"{_CLOCK_AT},?\s+(?:on\s+)?(?P<date>.+)", re.I)
_DAY_AT_CLOCK = re.compile(rf"(?P<date>.+?),?\s+(?:at\s+)?{_CLOCK_AT}", re.I)
# the item's own date: a date with its year, or an ISO date
_DATELINE = re.compile(rf"{_date('dl')}|(?<!\d)(?P<iso>(?:19|20)\d{{2}}-[01]\d-[0-3]\d)(?!\d)", re.I)


def _parts(m: re.Match, tag: str) -> tuple[int | None, str | None, str | None]:
    """(day, month word, year) of a ``_date`` match."""
    d = m.group(f"d_{tag}") or m.group(f"d2_{tag}")
    mon = m.group(f"mon_{tag}") or m.group(f"mon2_{tag}")
    y = m.group(f"y_{tag}") or m.group(f"y2_{tag}")
    return (int(d) if d else None), mon, y


@lru_cache(maxsize=256)
def dateline(text: str) -> date | None:
    """The item's own date: the first date written with its year (``Jan 23 2023``, ``18 January 2024``,
    ``2019-11-10``), None where there is none. (Cached: each date of each zone asks it of the same text.)"""
    for m in _DATELINE.finditer(text):
        if m.group("iso"):
            try:
                return date.fromisoformat(m.group("iso"))
            except ValueError:
                continue
        d, mon, y = _parts(m, "dl")
        if y is not None and d is not None and mon is not None:
            try:
                return date(int(y), _month(mon), d)
            except ValueError:
                continue
    return None


def read_en_time(value: str, text: str, after: str = "", before: str = "", reference: date | None = None) -> EuTime:
    """One date of ``PERIOD``/``DAY_RANGE``/``FROM``/``TILL``/``ON_DAY`` -> ``EuTime`` (the whole day: ``minutes``
    None); a year it leaves out is the first written in ``after`` (the rest of its period), else the one nearest the
    item's own date (``dateline``); a weekday alone is the first such day on or after that date; a day alone takes
    the month of its partner in a ``DAY_RANGE`` (the end's, in ``after``; the start's, in ``before``). ``ValueError``
    when it is not one, or its year cannot be known. ``reference`` (the day the batch was received) stands in for
    the item's own date where the text writes none."""
    s = " ".join(value.split()).strip(" ,.;")
    bare = _BARE_DAY.fullmatch(s)
    if bare is not None:
        later, earlier = _MONTH_AFTER.match(after), _MONTH_BEFORE.search(before[-60:])
        partner = later or earlier
        if partner is None:
            raise ValueError(f"day {s!r} has no month")
        written = f"{partner.group('mon')} {bare.group('d')}" + (f" {bare.group('y')}" if bare.group("y") else "")
        t = read_en_time(written, text, after, reference=reference)
        return EuTime(t.day, t.minutes, t.utc, (f"month {partner.group('mon')} from the period", *t.taken))
    c = _CLOCK_ON_DAY.fullmatch(s) or _DAY_AT_CLOCK.fullmatch(s)
    if c is not None:  # "2100 hours on 21 December 2019", "July 20 at 9:00am": that day at that clock
        t = read_en_time(c.group("date"), text, after, reference=reference)
        return EuTime(t.day, _clock_minutes(c, "c"), bool(c.group("z")), t.taken)
    if re.fullmatch(r"immediately|immediate\s+effect", s, re.I):
        ref, whose = _item_day(s, text, reference)
        return EuTime(ref, None, False, (f"'{s}' = {whose} {ref:%Y-%m-%d}",))
    if re.fullmatch(_WD, s, re.I) is not None:
        ref, whose = _item_day(s, text, reference)
        k = WEEKDAYS.index(s.lower())
        day = ref + timedelta(days=(k - ref.weekday()) % 7)
        return EuTime(day, None, False, (f"{s} = {day:%Y-%m-%d}, the first {s} on or after {whose} {ref:%Y-%m-%d}",))
    m = _DATE_ONE.fullmatch(s)
    if m is None:
        raise ValueError(f"not an English date: {s[:40]!r}")
    d, mon, y = _parts(m, "one")
    month = _month(mon)  # type: ignore[arg-type]
    taken: list[str] = []
    if y is not None:
        day = date(int(y), month, d)  # type: ignore[arg-type]
    elif (later := re.search(r"(?<!\d)((?:19|20)\d{2})(?!\d)", after)) is not None:
        day = date(int(later.group(1)), month, d)  # type: ignore[arg-type]
        taken.append(f"year {later.group(1)} from the period")
    else:
        ref = dateline(text)
        if ref is None:
            try:
                day = _by_weekday(s, month, d, text)  # type: ignore[arg-type]
                taken.append(f"year {day.year}: the year the text writes in which {day:%B} {day.day} is a {day:%A}")
            except ValueError:
                if reference is None:
                    raise
                day = nearest_day(month, d, reference)  # type: ignore[arg-type]
                taken.append(f"year {day.year} from the batch's reference date {reference:%Y-%m-%d}")
        else:
            day = nearest_day(month, d, ref)  # type: ignore[arg-type]
            taken.append(f"year {day.year} from the item's date {ref:%Y-%m-%d}")
    return EuTime(day, None, False, tuple(taken))


def _item_day(value: str, text: str, reference: date | None) -> tuple[date, str]:
    """The day ``value`` counts from: the item's own date (``dateline``), else the day the batch was received; and
    which it is. ``ValueError`` when there is neither."""
    if (ref := dateline(text)) is not None:
        return ref, "the item's date"
    if reference is not None:
        return reference, "the batch's reference date"
    raise ValueError(f"{value!r} and no date of the item or of the batch to count from")


_YEAR_WRITTEN = re.compile(r"(?<![\d/.-])((?:19|20)\d{2})(?![\d/.-])")


def _by_weekday(written: str, month: int, day: int, text: str) -> date:
    """``Wednesday, November 13`` in an item without a dated line: the one year written in the text ("Dubai Airshow
    2019") in which that day is that weekday. ``ValueError`` when the date names no weekday or not one year fits."""
    wd = re.match(_WD, written, re.I)
    if wd is None:
        raise ValueError(f"date {written[:40]!r} has no year, and the item states no date of its own")
    k = WEEKDAYS.index(wd.group().lower())
    fits = set()
    for y in {int(m.group(1)) for m in _YEAR_WRITTEN.finditer(text)}:
        try:
            if date(y, month, day).weekday() == k:
                fits.add(y)
        except ValueError:
            continue
    if len(fits) != 1:
        raise ValueError(f"date {written[:40]!r} has no year, and {len(fits)} years written in the text fit its weekday")
    return date(fits.pop(), month, day)


def _clock_minutes(m: re.Match, tag: str, end: bool = False) -> int:
    """The clock of ``m``'s ``_CLOCK`` groups named with ``tag``, minutes past midnight (``8 pm`` -> 1200; ``12 am``
    midnight; ``midnight`` the day's start, or its end where it ends a span of hours: ``between 13:00 to
    midnight``)."""
    if (w := m.group(f"w_{tag}")) is not None:
        return 12 * 60 if w.lower() != "midnight" else 24 * 60 if end else 0
    if m.group(f"h24_{tag}") is not None or m.group(f"h4_{tag}") is not None:
        h24 = m.group(f"h24_{tag}") or m.group(f"h4_{tag}")
        total = int(h24) * 60 + int(m.group(f"mi24_{tag}") or m.group(f"mi24b_{tag}") or m.group(f"mi4_{tag}"))
        if total > 24 * 60:
            raise ValueError(f"not a clock time: {m.group(0)[:30]!r}")
        return total
    h, mi = int(m.group(f"h_{tag}")), int(m.group(f"mi_{tag}") or 0)
    if h > 12 or h == 0:
        raise ValueError(f"not a clock time: {m.group(0)[:30]!r}")
    pm = m.group(f"ap_{tag}").lower().startswith("p")
    return (h % 12 + (12 if pm else 0)) * 60 + mi


def hours_minutes(m: re.Match) -> tuple[int, int]:
    """An ``HOURS`` match -> its start and end, minutes past midnight."""
    return _clock_minutes(m, "x"), _clock_minutes(m, "y", end=True)


# a period written as its length after its start ("banned … for 15 days from June 1, 2024", "from June 1 for a period of
# two weeks"): the end is the start plus that length
_COUNTS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
           "eleven": 11, "twelve": 12, "fourteen": 14, "fifteen": 15, "twenty": 20, "thirty": 30, "forty": 40,
           "forty-five": 45, "sixty": 60, "ninety": 90}
DURATION = re.compile(rf"\bfor\s+(?:a\s+(?:period|duration)\s+of\s+|the\s+next\s+)?(?P<n>\d{{1,3}}|{'|'.join(sorted(_COUNTS, key=len, reverse=True))})"
                      r"\s+(?P<u>days?|weeks?|months?)\b", re.I)


def after_duration(start: datetime, value: str) -> tuple[datetime, str] | None:
    """``start`` plus the length ``value`` writes (``DURATION``: days, weeks, calendar months), and the words said
    about it; None when ``value`` is no such length."""
    m = DURATION.fullmatch(" ".join(value.split()).strip(" ,.;"))
    if m is None:
        return None
    n = int(m["n"]) if m["n"].isdigit() else _COUNTS[m["n"].lower()]
    unit = m["u"].lower().rstrip("s")
    if unit == "month":
        k = start.month - 1 + n
        end = start.replace(year=start.year + k // 12, month=k % 12 + 1,
                            day=min(start.day, calendar.monthrange(start.year + k // 12, k % 12 + 1)[1]))
    else:
        end = start + timedelta(days=n * (7 if unit == "week" else 1))
    return end, f"{n} {unit}{'s' if n != 1 else ''} after the start"


def till_clocked(text: str, lo: int, hi: int) -> re.Match | None:
    """The first ``TILL_CLOCKED`` end in ``[lo, hi)`` that is no end of hours written before it (``HOURS``: "from
    2:00pm until 9:00pm on July 22" is that day's hours, not an end at 9 p.m.)."""
    for m in TILL_CLOCKED.finditer(text, lo, hi):
        if not any(h.start() < m.start() < h.end() for h in HOURS.finditer(text, max(lo, m.start() - 40), m.end())):
            return m
    return None
