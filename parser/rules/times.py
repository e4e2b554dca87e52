"""Start, end and schedule of a message: B)/C)/D) items, else the forms free text writes them in.

FAA ``EFFECTIVE … UNTIL …``, ten-digit pairs, ISO pairs, ``FROM``/``UNTIL``, TFR pages' ``Beginning Date and Time``,
Chinese ``2024年9月10日12时至…``, prose month-name dates; a daily period in prose or Chinese is the schedule.
"""

from __future__ import annotations

import re
from bisect import bisect_left

from airspace.core.contract import Span
from airspace.parser.endates import CLOCKED_PERIOD as EN_CLOCKED
from airspace.parser.endates import DAY_LIST as EN_DAY_LIST
from airspace.parser.endates import DAY_RANGE as EN_DAY_RANGE
from airspace.parser.endates import DURATION as EN_DURATION
from airspace.parser.endates import FROM as EN_FROM
from airspace.parser.endates import FROM_CLOCKED as EN_FROM_CLOCKED
from airspace.parser.endates import IMMEDIATE as EN_IMMEDIATE
from airspace.parser.endates import ON_DAY as EN_ON_DAY
from airspace.parser.endates import PERIOD as EN_PERIOD
from airspace.parser.endates import TILL as EN_TILL
from airspace.parser.endates import TILL_WEEKDAY as EN_TILL_WEEKDAY
from airspace.parser.endates import day_range_spans, till_clocked
from airspace.parser.eudates import NUM_ONE_DAY, NUM_PERIOD, NUM_UNTIL
from airspace.parser.eudates import ONE_DAY as EU_ONE_DAY
from airspace.parser.eudates import PERIOD as EU_PERIOD
from airspace.parser.eudates import UNTIL as EU_UNTIL
from airspace.parser.header import Header
from airspace.parser.rules.patterns import (
    CJK_RE,
    CN_BAN,
    CN_DAILY,
    CN_DATE_RANGE,
    CN_DATES_WINDOW,
    CN_DAY_RANGE,
    CN_DAY_TO_DATE,
    CN_EVENT_DAY,
    CN_FROM,
    CN_ONE_DAY,
    CN_UNTIL,
    DMY_CLOCK,
    FAA_SCHED,
    FROM,
    ICAO_TIME,
    ISO_PAIR,
    JP_DAYS,
    JP_RANGE,
    KO_DAYS,
    KO_DOT_DAYS,
    KO_DOT_RANGE,
    KO_RANGE,
    MDY_CLOCK,
    PROSE_ANY,
    PROSE_DAILY,
    PROSE_DAY_RANGE,
    PROSE_SCHED,
    TFR_BEGIN,
    TFR_END,
    TIME_PAIR,
    UNTIL,
    Z_PAIR,
    cn_periods_in,
)
from airspace.parser.rules.zone import sp
from airspace.parser.times import cjk_script, find_effective_range


def _item_time(text: str, h: Header, letter: str) -> Span | None:
    it = h.item(letter)
    if not it:
        return None
    m = (ICAO_TIME.match(text, it.span.start, it.span.end) or DMY_CLOCK.match(text, it.span.start, it.span.end)
         or MDY_CLOCK.match(text, it.span.start, it.span.end))
    return sp(text, m.start(), m.end()) if m else None


def read_times(text: str, h: Header, lo: int, hi: int) -> dict[str, Span]:
    out: dict[str, Span] = {}
    if (b := _item_time(text, h, "B")) is not None:
        out["start"] = b
    if (c := _item_time(text, h, "C")) is not None:
        out["end"] = c
    if out or h.item("B") is not None or h.item("C") is not None:
        # items B)/C) state the period: what they say, or nothing (a time elsewhere in the text is another's)
        return out
    eff = find_effective_range(text[lo:hi])
    if eff is not None:  # FAA "EFFECTIVE 2402140200 UTC (2000 LOCAL …) UNTIL 2402201400 UTC (…)"
        (s0, s1), (e0, e1) = eff
        return {"start": sp(text, lo + s0, lo + s1), "end": sp(text, lo + e0, lo + e1)}
    pairs = list(TIME_PAIR.finditer(text, lo, hi))
    if pairs:
        m = pairs[-1]
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    m = ISO_PAIR.search(text, lo, hi) or Z_PAIR.search(text, lo, hi)
    if m:
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    f, u = FROM.search(text, lo, hi), UNTIL.search(text, lo, hi)
    if f or u:
        if f:
            out["start"] = sp(text, *f.span("s"))
        if u:
            out["end"] = sp(text, *u.span("e"))
        return out
    b, e = TFR_BEGIN.search(text), TFR_END.search(text)
    if b or e:
        if b:
            out["start"] = sp(text, *b.span("v"))
        if e:
            out["end"] = sp(text, *e.span("v"))
        return out
    script = cjk_script(text)
    if script == "ja" and (m := JP_RANGE.search(text) or JP_DAYS.search(text)) is not None:
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}  # Japanese: 5月3日9時から18時まで
    if script == "ko" and (m := KO_RANGE.search(text) or KO_DOT_RANGE.search(text) or KO_DAYS.search(text)
                           or KO_DOT_DAYS.search(text)):
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}  # Korean: 5월 3일 오전 9시부터
    if (m := CN_UNTIL.search(text)) is not None:  # "自即日起至2024年12月31日": the end alone
        return {"end": sp(text, *m.span("e"))}
    if cn := cn_periods_in(text):  # "2024年9月10日12时至…24时", "11月22日-11月26日16:00-23:00": the first written
        return cn_period(text, cn[0])
    m = CN_DATE_RANGE.search(text)  # "2024年6月6日至6月10日(每日8时至18时)": whole days, Beijing time
    if m:
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    m = CN_FROM.search(text)
    if m:
        return {"start": sp(text, *m.span("s"))}
    m = CN_DAY_RANGE.search(text)  # "26日至30日": days of the month the notice is dated in
    if m:
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    m = CN_DAY_TO_DATE.search(text)  # "19日起至10月31日24时"
    if m:
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    m = CN_EVENT_DAY.search(text)  # "活动当日17时至23时": the event's day, its date written elsewhere
    if m:
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    if (day := _cn_ban_day(text)) is not None:  # "3月30日(周日)…设立临时限制飞行区": that whole day
        return {"start": day, "end": day}
    m = EN_CLOCKED.search(text, lo, hi)  # "between 2100 hours on 21 December 2019 and 1100 hours on 22 December 2019"
    if m:
        return {"start": sp(text, *m.span("v_s")), "end": sp(text, *m.span("v_e"))}
    m = PROSE_DAY_RANGE.search(text, lo, hi) or PROSE_DAY_RANGE.search(text)  # whole days (a heading's period)
    if m:
        out = {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
        if (d := PROSE_DAILY.search(text, lo, hi)) is not None:  # "1100hrs to 1500hrs UTC daily"
            out["schedule"] = sp(text, *d.span("clock"))
        return out
    # a period or a day in another European language ("du 3 au 6 juin 2014", "vom 26. bis 28. Juni 2024", "le
    # samedi 8 mai 2010"): English month names never read as these, so English prose reads as before
    m = EU_PERIOD.search(text, lo, hi) or EU_PERIOD.search(text)
    if m:
        s, e = ("v_s", "v_e") if m.group("v_s") is not None else ("v_ts", "v_te")  # (Turkish: ends by suffixes)
        if e == "v_e" and m.group("v_e") is None:
            e = "v_n"  # (an end on the next day: its clock only)
        return {"start": sp(text, *m.span(s)), "end": sp(text, *m.span(e))}
    if (m := _num_period(text, lo, hi)) is not None:  # "vom 12.06.2024 08:00 bis 14.06.2024 18:00 Uhr"
        return {"start": sp(text, *m.span("v_s")), "end": sp(text, *m.span("v_e"))}
    m = EU_ONE_DAY.search(text, lo, hi) or EU_ONE_DAY.search(text) or NUM_ONE_DAY.search(text, lo, hi)
    if m is not None and m.re is NUM_ONE_DAY:
        return {"start": sp(text, *m.span("v_o")), "end": sp(text, *m.span("v_o"))}
    u = (EU_UNTIL.search(text, lo, hi) or EU_UNTIL.search(text) or NUM_UNTIL.search(text, lo, hi))
    if u is not None and u.re is NUM_UNTIL:
        return {"end": sp(text, *u.span("v_u"))}
    if u and (m is None or u.start() <= m.start() < u.end()):  # ("hasta el 5 de mayo": an end, not that one day)
        return {"end": sp(text, *u.span("v_u"))}
    if m:
        return {"start": sp(text, *m.span("v")), "end": sp(text, *m.span("v"))}
    prose = list(PROSE_ANY.finditer(text))
    utc = [m for m in prose if re.search(r"(?:UTC|Z|GMT)$", m.group(), re.I)]
    if len(utc) >= 2:
        prose = utc  # "June 01, 2026 at 1500 UTC (June 01, 2026 at 1100 EDT)": the UTC statements, not the local
    if len(prose) >= 2:
        return {"start": sp(text, *prose[0].span()), "end": sp(text, *prose[1].span())}
    return out


_EN_JOIN = re.compile(r"\s*(?:to|until|till|through)\s*$", re.I)


def _num_period(text: str, lo: int, hi: int) -> re.Match | None:
    """The first ``NUM_PERIOD`` of ``[lo, hi)`` (else of the text) that reads day first: dates with points always; a
    slash date in English words ("from 06/12/2024 to 06/14/2024", month first in the US) only where a day cannot be a
    month."""
    for rng in ((lo, hi), (0, len(text))):
        for m in NUM_PERIOD.finditer(text, *rng):
            english = _EN_JOIN.search(text, m.end("v_s"), m.start("v_e")) is not None
            if m.group("sep_s") == "." or not english or max(int(m.group("nd_s")), int(m.group("nd_e"))) > 12:
                return m
    return None


_CN_SENTENCE_END = re.compile(r"[。；;！!？?\n]")
# an event held on a day ("於3月30日(周日)下午進行一次飛越維多利亞港的飛行演示"), the ban beside it naming no day
_CN_HELD = re.compile(r"举行|舉行|举办|舉辦|进行|進行|开幕|開幕|开赛|開賽")


def _cn_ban_day(text: str) -> Span | None:
    """The one day without hours (``CN_ONE_DAY``) that the sentences banning flights name, else (where they name
    none) the one day the sentences announcing an event name: a day elsewhere (the notice's own date, its signature)
    is no period of the ban, and two days are two periods, none read. (Each sentence is searched once: linear in the
    text however many days it writes.)"""
    days = list(CN_ONE_DAY.finditer(text))
    if not days:
        return None
    ends = [e.start() for e in _CN_SENTENCE_END.finditer(text)] + [len(text)]
    ban: list[re.Match] = []
    held: list[re.Match] = []
    bans: dict[int, bool] = {}  # a sentence (by its end) -> whether it bans flights
    for m in days:
        i = bisect_left(ends, m.end())
        if ends[i] not in bans:
            bans[ends[i]] = CN_BAN.search(text, ends[i - 1] + 1 if i > 0 else 0, ends[i]) is not None
        if bans[ends[i]]:
            ban.append(m)
        elif _CN_HELD.search(text, m.end(), min(ends[i], m.end() + 60)):  # (the event's verb soon after its day)
            held.append(m)
    days = ban or (held if CN_BAN.search(text) else [])
    if len({re.sub(r"\s", "", d.group("s")) for d in days}) != 1:
        return None
    return sp(text, *days[0].span("s"))


def cn_period(text: str, m: re.Match) -> dict[str, Span]:
    """A match of ``cn_periods_in`` -> its start and end, and the daily hours of days written before their hours."""
    out = {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    if m.re is CN_DATES_WINDOW:
        out["schedule"] = sp(text, *m.span("clock"))
    return out


def read_english(text: str, lo: int, hi: int, within: bool = False) -> dict[str, Span]:
    """A period or a day as English prose writes it (``parser.endates``), for free text where no other form (nor a
    note's clock times, ``read_local_clock``) was found: a period in one phrase, else a start and an end written
    apart (the end after the start), else one day. Each form is looked for in ``[lo, hi)`` first, then in the whole
    text; ``within``: in ``[lo, hi)`` only (one paragraph's own period)."""
    whole = (lo, hi) if within else (0, len(text))
    m = EN_PERIOD.search(text, lo, hi) or EN_PERIOD.search(text, *whole)
    if m:
        return {"start": sp(text, *m.span("v_s")), "end": sp(text, *m.span("v_e"))}
    m = EN_DAY_RANGE.search(text, lo, hi)  # "from November 9 to 17, 2017"
    if (m is None and (d := EN_DAY_LIST.search(text, lo, hi)) is not None
            and EN_ON_DAY.search(text, lo, d.start()) is None):
        # days listed ("on January 31, February 1 and 2"): the first to the last, where no day is written before
        # them (a text that dates itself "on Feb. 3" and lists another ring's days later keeps its own day)
        return {"start": sp(text, *d.span("v_s")), "end": sp(text, *d.span("v_e"))}
    m = m or EN_DAY_RANGE.search(text, *whole)
    if m:
        (s0, s1), (e0, e1) = day_range_spans(m)
        return {"start": sp(text, s0, s1), "end": sp(text, e0, e1)}
    out: dict[str, Span] = {}
    f = (EN_FROM.search(text, lo, hi) or EN_FROM.search(text, *whole) or EN_IMMEDIATE.search(text, lo, hi)
         or EN_FROM_CLOCKED.search(text, lo, hi))
    if f:
        out["start"] = sp(text, *f.span("v_s"))
    t = (EN_TILL.search(text, f.end() if f else lo, whole[1])
         or EN_TILL_WEEKDAY.search(text, f.end() if f else lo, whole[1])
         or till_clocked(text, f.end() if f else lo, hi))
    if t:
        out["end"] = sp(text, *t.span("v_e"))
    elif f and (d := EN_DURATION.search(text, max(0, f.start() - 60), min(len(text), f.end() + 60))) is not None:
        out["end"] = sp(text, *d.span())  # "for 15 days from June 1, 2024": the start plus that length
    if out:
        return out
    m = EN_ON_DAY.search(text, lo, hi) or EN_ON_DAY.search(text, *whole)
    if m:
        return {"start": sp(text, *m.span("v")), "end": sp(text, *m.span("v"))}
    return out



def read_schedule(text: str, h: Header, lo: int, hi: int) -> Span | None:
    """The D) item; else, in prose or FAA text, a daily period (``… 0700-1100 local``, ``MON-FRI 1400-2200``,
    ``每日8时至18时``)."""
    d = h.item("D")
    if d and d.text:
        return d.span
    if h.kind not in ("other", "faa"):
        return None
    m = CN_DAILY.search(text, lo, hi) if CJK_RE.search(text, lo, hi) else None
    m = m or (PROSE_SCHED if h.kind == "other" else FAA_SCHED).search(text, lo, hi)
    return sp(text, *m.span()) if m else None


# clock-only times with the day and the time zone stated apart (a dispatcher's note: "Ops note 14 Jan 2027 …
# drones grounded 0930-1600 local, UTC+8"): the normaliser combines them (``parser.times.local_window``)
_CLOCK_T = r"(?:[01]?\d|2[0-4])[:h]?[0-5]\d"
_LOCAL_CLOCK = re.compile(
    rf"(?<![\d/:.\-])(?P<s>{_CLOCK_T})\s?(?:-|–|\bto\b)\s?(?P<e>{_CLOCK_T})(?![\d/:.\-])"
    r"(?P<local>\s*(?:h\b\s*)?(?:local|LT|LCL)\b)?", re.I)
_TZ_SPAN = re.compile(r"\b(?:UTC|GMT)\s?[+\-−]\s?\d{1,2}(?::?\d{2})?(?!\d|:\d)", re.I)
_MON_WORD = r"(?:JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|SEP(?:T(?:EMBER)?)?|" \
            r"OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)"
_DATE_SPAN = re.compile(
    rf"\b\d{{1,2}}\s+{_MON_WORD}\.?,?\s+\d{{4}}\b|\b{_MON_WORD}\.?\s+\d{{1,2}},?\s+\d{{4}}\b"
    r"|\b\d{4}-\d{2}-\d{2}\b(?![T ]\d{2}:\d{2})", re.I)


def read_local_clock(text: str, lo: int, hi: int) -> dict[str, Span]:
    """Start/end as clock times, with the ``date`` and ``tz`` written apart from them, in free text: the clock
    range marked local or followed by its time zone, the date the note states (the one before the times, else
    after), the time zone nearest the times. ``{}`` unless a clock range and a date are both there."""
    for m in _LOCAL_CLOCK.finditer(text, lo, hi):
        tz_near = _TZ_SPAN.search(text, m.end(), min(hi, m.end() + 40))
        if not m.group("local") and tz_near is None:
            continue  # "0930-1600" alone may be anything (a range of numbers, a frequency)
        dates = list(_DATE_SPAN.finditer(text, 0, len(text)))
        if not dates:
            return {}
        before = [d for d in dates if d.end() <= m.start()]
        d = before[-1] if before else dates[0]
        out = {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e")), "date": sp(text, *d.span())}
        tz = tz_near or min(_TZ_SPAN.finditer(text, lo, hi), key=lambda t: abs(t.start() - m.end()), default=None)
        if tz is not None:
            out["tz"] = sp(text, *tz.span())
        return out
    return {}
