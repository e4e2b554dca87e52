"""D-item schedules -> UTC activity windows inside the NOTAM's B)-C) period.

Grammar (case-insensitive; commas, semicolons, ``AND`` and ``&`` separate freely)::

    schedule  := "H24" | dt_ranges | clause+ ["EXC" selector]
    dt_ranges := (YYMMDDHHMM ("TO"|"-") YYMMDDHHMM)+
    clause    := selector times+ | times+ ["ON" selector]
    selector  := "DAILY" | weekday-list | date-list [weekday-list]  (empty = every day; "APR 01-30 MON-FRI": the
                 weekdays among the dates)
    weekday   := MON..SUN, ranges "MON-FRI" (wrapping "FRI-MON" allowed)
    date      := [MONTH] DD, ranges "27-30", "SEP 29 - OCT 03"; the month carries over to later dates
    times     := ["BTN"|"BETWEEN"|"FROM"] point ("-"|"TO"|"/"|"AND") point
                 | "HJ" (SR-SS) | "HN" (SS-SR) | "H24" (0000-2400)
    point     := HHMM | HH:MM | SR | SS (SUNRISE/SUNSET), optionally "PLUS n" / "MINUS n" minutes; "UTC" may follow
    wspan     := WEEKDAY HHMM "-" WEEKDAY HHMM   one window a week (``FRI 1800-MON 0600``)
    span      := [MONTH] DD HHMM ("-"|"TO"|"TIL"|"UNTIL") [MONTH] DD HHMM     one window from one day to a later one (``19 2300-20 0700``)

Public holidays (``HOL``, ``PH``, ``PUBLIC HOLIDAYS``) are not knowable here: ``EXC HOL`` excludes nothing and a
``HOL`` selector means every day, a superset of the true activity; ``holiday_note`` gives the review reason.

A parenthesised local-time restatement (``DLY 0200-1400 (2000-0800 LOCAL)``) is ignored: the UTC times rule.

A window whose end is not after its start crosses midnight (``DAILY 2000-1800``, ``2200-0000``). Month and year
come from the period start; a date before the start rolls to the next month (or year when a month is named).
Sunrise/sunset are computed at the zone's position (``parser.sun``); without a position they raise.

(Over 500 lines on purpose: one grammar — tokens, selectors, clauses and expansion read each other's token kinds.)
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import date, datetime, timedelta, timezone

from airspace.core.records import Window
from airspace.parser.sun import daylight_kind, sun_times
from airspace.parser.textnorm import clean
from airspace.parser.times import MONTHS, parse_time

UTC = timezone.utc
MAX_OPEN_DAYS = 366
MAX_EXPAND_DAYS = 3660  # a schedule over a longer period is refused rather than expanded into ~10^4+ windows
_WEEKDAYS = {"MON": 0, "TUE": 1, "WED": 2, "THU": 3, "FRI": 4, "SAT": 5, "SUN": 6}

_POINT = r"(?:\d{4}Z?|SR|SS)(?:\s*(?:PLUS|MINUS|\+)\s*\d{1,3}(?:\s*MIN(?:UTES?|S)?)?|(?<=SR|SS)-\d{1,3}(?!\d))?"
_MON = (r"(?:JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|"
        r"SEP(?:T(?:EMBER)?)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)")
_WD = r"(?:MON|TUE|WED|THU|FRI|SAT|SUN)(?:DAY|SDAY|NESDAY|RSDAY|URDAY)?"
_WSPAN = re.compile(rf"(?P<wa>{_WD})\s+(?P<ta>\d{{4}})Z?\s*(?:-|\b(?:TO|TILL?|UNTIL|THRU)\b)\s*(?P<wb>{_WD})\s+(?P<tb>\d{{4}})Z?")
_SPAN = re.compile(
    rf"(?:(?P<ma>{_MON})\s+)?(?P<da>\d{{1,2}})(?:\s+(?P<ma2>{_MON}))?\s+(?P<ta>\d{{4}})Z?\s*(?:-|\b(?:TO|TILL?|UNTIL|THRU)\b)\s*"
    rf"(?:(?P<mb>{_MON})\s+)?(?P<db>\d{{1,2}})(?:\s+(?P<mb2>{_MON}))?\s+(?P<tb>\d{{4}})Z?")
_TOKEN = re.compile(
    r"\s*(?:"
    r"(?P<dt>(?<!\d)\d{10}(?!\d))"
    rf"|(?P<span>(?<![\dA-Z])(?:{_MON}\s+)?\d{{1,2}}(?:\s+{_MON})?\s+\d{{4}}Z?\s*(?:-|\b(?:TO|TILL?|UNTIL|THRU)\b)\s*"
    rf"(?:{_MON}\s+)?\d{{1,2}}(?:\s+{_MON})?\s+\d{{4}}Z?(?![\dA-Z]))"
    rf"|(?P<wspan>(?<![\dA-Z]){_WD}\s+\d{{4}}Z?\s*(?:-|\b(?:TO|TILL?|UNTIL|THRU)\b)\s*{_WD}\s+\d{{4}}Z?(?![\dA-Z]))"
    rf"|(?P<tr>(?<![\dA-Z])(?:(?:BTN|BETWEEN)\s+{_POINT}\s*(?:-|/|\bTO\b|\bAND\b)\s*{_POINT}"
    rf"|(?:(?:FROM|FM)\s+)?{_POINT}\s*(?:-|/|\bTO\b)\s*{_POINT})(?![\dA-Z]))"
    r"|(?P<h24>\bH24\b)"
    r"|(?P<hj>\bH[JN]\b)"
    r"|(?P<daily>\b(?:DAILY|DLY|EVERY\s?DAY)\b)"
    r"|(?P<exc>\bEXC(?:EPT)?\b)"
    r"|(?P<on>\bON\b)"
    r"|(?P<wd>\b(?:MON|TUE|WED|THU|FRI|SAT|SUN)(?:DAY|SDAY|NESDAY|RSDAY|URDAY)?S?\b)"
    r"|(?P<mon>\b(?:JAN(?:UARY)?|FEB(?:RUARY)?|MAR(?:CH)?|APR(?:IL)?|MAY|JUNE?|JULY?|AUG(?:UST)?|"
    r"SEP(?:T(?:EMBER)?)?|OCT(?:OBER)?|NOV(?:EMBER)?|DEC(?:EMBER)?)\b)"
    r"|(?P<num>(?<!\d)\d{1,2}(?!\d))"
    r"|(?P<hol>\b(?:HOL|HOLS|HOLIDAYS?|PUBLIC\s+HOLIDAYS?|PH)\b)"
    r"|(?P<dash>-|\b(?:TO|THRU|TIL|TILL|UNTIL)\b)"
    r"|(?P<sep>[,;&/.:]|\b(?:AND|UTC|Z|GMT|HR|HRS|DAYS?|EVERY|EV)\b)"
    r")"
)
_POINT_PARTS = re.compile(r"(?P<hhmm>\d{4})Z?|(?P<sun>SR|SS)(?:\s*(?P<sign>PLUS|MINUS|\+|-)\s*(?P<off>\d{1,3}))?")


@dataclass(frozen=True)
class _Point:
    minutes: int | None  # minutes after 00:00 UTC (0..1440) for a clock time
    sun: str | None = None  # "SR" | "SS"
    offset: int = 0  # minutes added to the sun event


@dataclass
class _Tok:
    kind: str
    text: str
    value: object = None
    after_comma: bool = False  # a ',' or ';' came right before it (clause boundaries inside EXC lists)


@dataclass
class _Clause:
    selector: list[_Tok] = field(default_factory=list)
    times: list[tuple[_Point, _Point]] = field(default_factory=list)
    span: re.Match[str] | None = None  # "19 2300-20 0700": one window over a day boundary
    wspan: tuple | None = None  # "FRI 1800-MON 0600": one window a week, from one weekday to another


def _point(text: str) -> _Point:
    m = _POINT_PARTS.match(text.strip())
    if m is None:
        raise ValueError(f"bad time {text!r}")
    if m["hhmm"]:
        h, mi = int(m["hhmm"][:2]), int(m["hhmm"][2:])
        if h > 24 or mi > 59 or (h == 24 and mi):
            raise ValueError(f"bad time of day {m['hhmm']!r}")
        return _Point(h * 60 + mi)
    off = int(m["off"] or 0)
    return _Point(None, m["sun"], -off if m["sign"] in ("MINUS", "-") else off)


_CN_WEEKDAY = {"一": "MON", "二": "TUE", "三": "WED", "四": "THU", "五": "FRI", "六": "SAT", "日": "SUN", "天": "SUN"}
_MONTH_ABBR = ["JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC"]


def _cn_schedule(s: str) -> str:
    """Chinese schedule words -> the D-item grammar: 每日/每天 -> DAILY, 8时30分 -> 0830, 周一至周五 -> MON-FRI,
    9月10日 -> SEP 10, 至/到 -> '-'. The clock times stay local; ``expand_schedule(local_offset=...)`` shifts them."""
    if not any("\u4e00" <= ch <= "\u9fff" for ch in s):
        return s
    s = re.sub(r"(?:每日|每天|逐日)", " DAILY ", s)
    s = re.sub(r"(?:全天|24小时|24小時)", " H24 ", s)
    s = re.sub(r"(?:周|週|星期|礼拜|禮拜)([一二三四五六日天])",
               lambda m: f" {_CN_WEEKDAY[m.group(1)]} ", s)
    s = re.sub(r"(\d{1,2})\s*月\s*(\d{1,2})\s*[日号號]", lambda m: f" {_MONTH_ABBR[int(m[1]) - 1]} {int(m[2]):02d} "
               if 1 <= int(m[1]) <= 12 else m[0], s)
    s = re.sub(r"(\d{1,2})\s*[日号號]", lambda m: f" {int(m[1]):02d} ", s)
    s = re.sub(r"(\d{1,2})\s*[时時点點]\s*(?:(\d{1,2})\s*分|(半))?",
               lambda m: f" {int(m[1]):02d}{int(m[2]) if m[2] else (30 if m[3] else 0):02d} ", s)
    s = re.sub(r"\s*(?:至|到|～|~|—|－)\s*", "-", s)
    s = re.sub(r"[、，,；;和及与與]", " , ", s)
    s = re.sub(r"(?:北京时间|北京時間|期间|期間|次日|翌日|第二天|的|起|止|开始|開始|结束|結束|为止|為止)", " ", s)
    return s


def _prepare(text: str) -> str:
    """Upper-case, one space, and the spellings the grammar folds: ``08:00`` -> ``0800``, SUNRISE -> SR, no
    ``UTC`` words, no parenthesised local-time restatement."""
    s = re.sub(r"\s+", " ", _cn_schedule(clean(text)).upper()).strip()
    s = re.sub(r"\([^()]*\b(?:LOCAL|LCL|LT)\b[^()]*\)", " ", s)
    s = re.sub(r"(?<![\d:])(\d{1,2}):(\d{2})(?![\d:])", lambda m: f"{int(m[1]):02d}{m[2]}", s)
    # Spanish month abbreviations of Latin-American D) items ("21 ABR 0100-0300"); the others are spelt alike
    s = re.sub(r"\b(ENE(?:RO)?|ABR(?:IL)?|AGO(?:STO)?|DIC(?:IEMBRE)?)\b",
               lambda m: {"E": "JAN", "A": "APR" if m[1][1] == "B" else "AUG", "D": "DEC"}[m[1][0]], s)
    s = re.sub(r"\bSUNRISE\b", "SR", s)
    s = re.sub(r"\bSUNSET\b", "SS", s)
    s = re.sub(r"(?:(?<=\d)|\b)\s*(?:UTC|GMT)\b", " ", s)
    s = re.sub(r"\b(?:WEEKDAYS?|WKDAYS?|WKD)\b", "MON-FRI", s)
    s = re.sub(r"\bWEEKENDS?\b", "SAT SUN", s)
    # "2315-0125(NEXT DAY)": the end on the next day is what a window whose end is not after its start means
    s = _NEXT_DAY.sub(lambda m: m["tr"] if int(m["b"]) <= int(m["a"]) else m.group(), s)
    # "ON 10,11,12,15 AND 25 MAR 2026", "ON 06 SEP 2023 2008-2035": a year after a month is the period's own
    s = re.sub(rf"\b({_MON})\s+(?:19|20)\d\d\b(?!\s*(?:-|/|\bTO\b))", r"\1", s)
    s = _times_first(s)
    return re.sub(r"\s+", " ", s).strip()


_NEXT_DAY = re.compile(r"(?P<tr>(?P<a>\d{4})\s*-\s*(?P<b>\d{4}))\s*\(?\s*NEXT\s+DAY\s*\)?")
_TR_TEXT = r"\d{4}\s*-\s*\d{4}"


def _times_first(s: str) -> str:
    """"1345-1416,1419-1459 25 AND 1058-1121 26": a schedule that starts with its times and writes each day after
    them means "times ON day"; the ON is put in (only then: "03 10-12 2030-2150" is days first)."""
    if not re.match(rf"(?:(?:BTN|BETWEEN)\s+)?{_TR_TEXT}\b", s):
        return s
    out, pos = [], 0
    for m in re.finditer(rf"{_TR_TEXT}\s+(?P<days>\d{{1,2}}(?!\d)(?:\s*(?:,|\bAND\b|-)\s*\d{{1,2}}(?!\d))*)"
                         rf"(?=\s*(?:,|;|\bAND\b|$))", s):
        out.append(s[pos : m.start("days")] + "ON ")
        pos = m.start("days")
    out.append(s[pos:])
    return "".join(out)


def _tokens(text: str) -> list[_Tok]:
    s = _prepare(text)
    out: list[_Tok] = []
    pos = 0
    comma = False
    while pos < len(s):
        m = _TOKEN.match(s, pos)
        if m is None or m.end() == pos:
            rest = s[pos:].strip()
            if not rest:
                break
            raise ValueError(f"unrecognised schedule text {rest[:25]!r}")
        pos = m.end()
        kind = m.lastgroup
        tok = m.group(kind).strip()
        if kind == "sep":
            comma = comma or tok in (",", ";")
            continue
        n_before = len(out)
        if kind == "tr":
            body = re.sub(r"^(?:BTN|BETWEEN|FROM|FM)\s+", "", tok)
            a, b = re.split(r"\s*(?:-|/|\bTO\b|\bAND\b)\s*(?=\d{4}|SR|SS)", body, maxsplit=1)
            out.append(_Tok("tr", tok, (_point(a), _point(b))))
        elif kind == "span":
            out.append(_Tok("span", tok, _SPAN.fullmatch(tok)))
        elif kind == "wspan":
            w = _WSPAN.fullmatch(tok)
            out.append(_Tok("wspan", tok, (_WEEKDAYS[w["wa"][:3]], _point(w["ta"]).minutes,
                                           _WEEKDAYS[w["wb"][:3]], _point(w["tb"]).minutes)))
        elif kind == "h24":
            out.append(_Tok("tr", tok, (_Point(0), _Point(1440))))
        elif kind == "hj":
            pair = (_Point(None, "SR"), _Point(None, "SS")) if tok == "HJ" else (_Point(None, "SS"), _Point(None, "SR"))
            out.append(_Tok("tr", tok, pair))
        elif kind == "wd":
            out.append(_Tok("wd", tok, _WEEKDAYS[tok[:3]]))
        elif kind == "mon":
            out.append(_Tok("mon", tok, MONTHS[tok[:3]]))
        elif kind == "num":
            out.append(_Tok("num", tok, int(tok)))
        else:
            out.append(_Tok(kind, tok))
        if len(out) > n_before:
            out[-1].after_comma = comma
            comma = False
    return out


# ---------------------------------------------------------------------------------------------------------------
# selectors


class _DateCtx:
    """Month/year context for dates written without them, carried from clause to clause."""

    def __init__(self, start: datetime, end: datetime | None = None):
        self.start = start.date()
        self.end = end.date() if end is not None else None
        self.year = self.start.year
        self.month = self.start.month
        self.last: date | None = None

    def set_month(self, month: int) -> None:
        year = self.start.year
        # a named month well before the start month belongs to the next year (schedules run forward)
        if (date(year, month, 1) - date(self.start.year, self.start.month, 1)).days < -31:
            year += 1
        self.year, self.month = year, month
        self.last = None

    def day(self, d: int, named_month: bool) -> date:
        try:
            out = date(self.year, self.month, d)
        except ValueError:
            raise ValueError(f"invalid day {d} in month {self.month}") from None
        floor = self.last if self.last is not None else (None if named_month else self.start)
        if floor is not None and out < floor and not named_month:
            if self.end is not None and self.start <= out <= self.end:
                nxt = (date(self.year + 1, 1, 1) if self.month == 12 else date(self.year, self.month + 1, 1))
                if nxt > self.end:  # "03 10-12 …, 06 …, 30-31 …" in a one-month period: the 6th is this month's
                    self.last = out
                    return out
            y, mo = (self.year + 1, 1) if self.month == 12 else (self.year, self.month + 1)
            self.year, self.month = y, mo
            out = self.day(d, True)
        self.last = out
        return out


def _day_first(tokens: list[_Tok]) -> list[_Tok]:
    """``17 MAR 06 APR`` / ``29 SEP - 03 OCT`` (days before their month) -> month-first order."""
    out: list[_Tok] = []
    run: list[_Tok] = []
    for t in tokens:
        if t.kind == "mon":
            lead = []
            while run and run[0].kind == "dash":
                lead.append(run.pop(0))
            out.extend(lead + [t] + run)
            run = []
        else:
            run.append(t)
    if run:
        raise ValueError("days after the last month name")
    return out


def _dates_between(a: date, b: date) -> set[date]:
    if b < a:
        raise ValueError(f"date range {a} - {b} runs backwards")
    return {a + timedelta(days=i) for i in range((b - a).days + 1)}


def _starts_clause(tokens: list[_Tok], j: int) -> bool:
    """Whether the day tokens from ``j`` are followed by times (a clause of their own, not more EXC days)."""
    k = j
    while k < len(tokens) and tokens[k].kind in ("wd", "mon", "num", "dash", "hol", "daily"):
        k += 1
    return k < len(tokens) and tokens[k].kind == "tr"


def _without_hol(tokens: list[_Tok]) -> list[_Tok]:
    """An EXC day list without its holiday words (and a dash or nothing left dangling by their removal)."""
    out = [t for t in tokens if t.kind != "hol"]
    while out and out[-1].kind == "dash":
        out.pop()
    while out and out[0].kind == "dash":
        out.pop(0)
    return out


_HOL_WORD = re.compile(r"\b(?:HOL|HOLS|HOLIDAYS?|PUBLIC\s+HOLIDAYS?|PH)\b", re.I)
_HOL_EXC = re.compile(r"\bEXC(?:EPT)?\b[A-Z0-9,;&/\s-]{0,60}?\b(?:HOL|HOLS|HOLIDAYS?|PUBLIC\s+HOLIDAYS?|PH)\b", re.I)


def holiday_note(text: str | None) -> str | None:
    """The review reason for a schedule that names public holidays, else None.

    Holidays are not knowable here (they differ by state and year), so ``expand_schedule`` never guesses them:
    ``EXC HOL`` excludes nothing (the windows still include the holidays) and a ``HOL`` day selector
    (``SAT SUN HOL 0800-1600``) applies its times to every day. Both give a superset of the true activity, which
    is the safe side for a restriction, and this note says so."""
    prepared = _prepare(text) if text else ""
    total = len(_HOL_WORD.findall(prepared))
    if not total:
        return None
    if len(_HOL_EXC.findall(prepared)) == total:  # every holiday word is in an EXC list
        return ("schedule excludes public holidays (EXC HOL), which are not known here: "
                "the windows still include them")
    return ("schedule names public holidays (HOL), which are not known here: "
            "the times given for holidays are applied to every day")


def _selector(tokens: list[_Tok], ctx: _DateCtx) -> tuple[str, set]:
    """-> ("all", set()) | ("weekdays", {0..6}) | ("dates", {date})."""
    if not tokens:
        return "all", set()
    if all(t.kind == "daily" for t in tokens):
        return "all", set()
    if any(t.kind == "hol" for t in tokens):
        return "all", set()  # "SAT SUN HOL 0800-1600": any day may be a holiday, so every day (a superset)
    tokens = [t for t in tokens if t.kind != "daily"]  # "JAN 01-15 DAILY": the days say which
    if tokens[-1].kind == "mon" and tokens[0].kind != "mon":
        tokens = _day_first(tokens)
    kinds = {t.kind for t in tokens} - {"dash"}
    if "wd" in kinds and kinds != {"wd"}:
        # "APR 01-30 MON-FRI": the dates first, then the weekdays among them
        k = next(i for i, t in enumerate(tokens) if t.kind == "wd")
        head, tail = tokens[:k], tokens[k:]
        if (not head or any(t.kind == "wd" for t in head) or any(t.kind not in ("wd", "dash") for t in tail)
                or head[-1].kind == "dash"):
            raise ValueError("weekdays mixed with dates in one schedule item")
        _, dates = _selector(head, ctx)
        _, days = _selector(tail, ctx)
        return "dates", {d for d in dates if d.weekday() in days}
    if "wd" in kinds:
        days: set[int] = set()
        i = 0
        while i < len(tokens):
            t = tokens[i]
            if t.kind != "wd":
                raise ValueError(f"unexpected {t.text!r} in weekday list")
            if i + 2 < len(tokens) and tokens[i + 1].kind == "dash" and tokens[i + 2].kind == "wd":
                a, b = int(t.value), int(tokens[i + 2].value)  # type: ignore[arg-type]
                days |= {(a + k) % 7 for k in range((b - a) % 7 + 1)}
                i += 3
            else:
                days.add(int(t.value))  # type: ignore[arg-type]
                i += 1
        return "weekdays", days
    if kinds - {"mon", "num"}:
        raise ValueError(f"unexpected {' '.join(t.text for t in tokens)!r} in a day list")
    dates: set[date] = set()
    i = 0
    named = False
    prev: date | None = None
    pending_range = False
    while i < len(tokens):
        t = tokens[i]
        if t.kind == "mon":
            ctx.set_month(int(t.value))  # type: ignore[arg-type]
            named = True
        elif t.kind == "num":
            d = ctx.day(int(t.value), named)  # type: ignore[arg-type]
            named = False
            if pending_range:
                dates |= _dates_between(prev, d)  # type: ignore[arg-type]
                pending_range = False
            dates.add(d)
            prev = d
        elif t.kind == "dash":
            if prev is None or pending_range:
                raise ValueError("a day range without a first day")
            pending_range = True
        i += 1
    if pending_range:
        raise ValueError("a day range without a last day")
    if not dates:
        raise ValueError("a month without days in the schedule")
    return "dates", dates


def _matches(kind: str, values: set, d: date) -> bool:
    if kind == "all":
        return True
    if kind == "weekdays":
        return d.weekday() in values
    return d in values


# ---------------------------------------------------------------------------------------------------------------
# expansion


def _clauses(tokens: list[_Tok]) -> tuple[list[_Clause], list[_Tok]]:
    clauses: list[_Clause] = []
    cur = _Clause()
    on = False
    exc: list[_Tok] = []
    i = -1
    while i + 1 < len(tokens):
        i += 1
        t = tokens[i]
        if t.kind == "exc":
            j = i + 1
            while j < len(tokens) and tokens[j].kind in ("wd", "mon", "num", "dash", "hol"):
                if j > i + 1 and tokens[j].after_comma and _starts_clause(tokens, j):
                    break  # "… EXC HOL, APR 07-APR 30 MON-THU 1300-0400": a new clause after the comma
                j += 1
            if j == i + 1:
                raise ValueError("EXC without days")
            # a second EXC list adds to the first; excluded holidays are unknown days, so they stay in (superset)
            exc = exc + _without_hol(tokens[i + 1 : j])
            if j < len(tokens) and tokens[j].kind != "tr" and not (tokens[j].after_comma and _starts_clause(tokens, j)):
                raise ValueError(f"unexpected {tokens[j].text!r} after the EXC days")
            i = j - 1  # "DAILY EXC SUN 0800-1700": the times after the EXC days belong to the clause before it
            continue
        if t.kind in ("span", "wspan"):
            if on or cur.selector and not cur.times:
                raise ValueError(f"days before the day-to-day range {t.text!r}")
            if cur.times:
                clauses.append(cur)
            clauses.append(_Clause(span=t.value) if t.kind == "span" else _Clause(wspan=t.value))  # type: ignore[arg-type]
            cur = _Clause()
        elif t.kind == "tr":
            if on:
                if not cur.selector:
                    raise ValueError("ON without days")
                clauses.append(cur)
                cur, on = _Clause(), False
            cur.times.append(t.value)  # type: ignore[arg-type]
        elif t.kind == "on":
            if not cur.times or cur.selector:
                raise ValueError("ON must follow the times it applies to")
            on = True
        elif t.kind in ("wd", "mon", "num", "dash", "daily", "hol"):
            if cur.times and not on:
                clauses.append(cur)
                cur = _Clause()
            cur.selector.append(t)
        elif t.kind == "dt":
            raise ValueError("date-time ranges mixed with other schedule items")
        else:
            raise ValueError(f"unexpected {t.text!r} in schedule")
    if on and not cur.selector:
        raise ValueError("ON without days")
    if (cur.selector and not cur.times and clauses and not clauses[-1].selector and clauses[-1].span is None
            and clauses[-1].wspan is None):
        clauses[-1].selector = cur.selector  # "0800-1700 MON-FRI": the days follow their times
        cur = _Clause()
    if cur.selector and not cur.times:
        raise ValueError(f"days {' '.join(t.text for t in cur.selector)!r} without times")
    if cur.times:
        clauses.append(cur)
    if not clauses:
        raise ValueError("no times in schedule")
    return clauses, exc


def _resolve(p: _Point, d: date, lat: float | None, lon: float | None) -> datetime | None:
    base = datetime(d.year, d.month, d.day, tzinfo=UTC)
    if p.sun is None:
        return base + timedelta(minutes=p.minutes or 0)
    if lat is None or lon is None:
        raise ValueError("SR/SS times need the zone's position")
    rise, sset = sun_times(d, lat, lon)
    if rise is None or sset is None:
        kind = daylight_kind(d, lat, lon)
        if kind == "polar_night":
            return None
        ev = base if p.sun == "SR" else base + timedelta(days=1)
    else:
        ev = rise if p.sun == "SR" else sset
    return ev + timedelta(minutes=p.offset)


def _span(m: re.Match[str], ctx: _DateCtx) -> tuple[datetime, datetime]:
    """``[MON] DD HHMM - [MON] DD HHMM`` -> one UTC window; the days follow the month context like a day list."""
    ends = []
    for mon, d, hhmm in (("ma", "da", "ta"), ("mb", "db", "tb")):
        month = m[mon] or m[mon + "2"]
        if month:
            ctx.set_month(MONTHS[month[:3]])
        day = ctx.day(int(m[d]), bool(month))
        p = _point(m[hhmm])
        ends.append(datetime(day.year, day.month, day.day, tzinfo=UTC) + timedelta(minutes=p.minutes or 0))
    if ends[1] <= ends[0]:
        raise ValueError(f"day-to-day range {m[0]!r} runs backwards")
    return ends[0], ends[1]


def _clip(windows: list[tuple[datetime, datetime]], start: datetime, end: datetime) -> list[Window]:
    out = []
    for a, b in sorted(windows):
        a, b = max(a, start), min(b, end)
        if a < b:
            out.append(Window(start=a, end=b))
    return out


def _dt_ranges(tokens: list[_Tok]) -> list[tuple[datetime, datetime]]:
    out = []
    i = 0
    while i < len(tokens):
        if (i + 2 >= len(tokens) or tokens[i].kind != "dt" or tokens[i + 1].kind != "dash"
                or tokens[i + 2].kind != "dt"):
            raise ValueError("date-time ranges must be written 'YYMMDDHHMM TO YYMMDDHHMM'")
        a = parse_time(tokens[i].text).dt
        b = parse_time(tokens[i + 2].text).dt
        if a is None or b is None or b <= a:
            raise ValueError(f"date-time range {tokens[i].text} TO {tokens[i + 2].text} runs backwards")
        out.append((a, b))
        i += 3
    return out


def expand_schedule(
    text: str | None,
    start: datetime,
    end: datetime | None,
    lat: float | None = None,
    lon: float | None = None,
    local_offset: timedelta | None = None,
) -> list[Window]:
    """Expand a D-item schedule into UTC windows clipped to ``[start, end]``.

    No schedule -> one window ``[start, end]``. ``end`` None (PERM) expands at most 366 days past ``start``.
    ``local_offset`` (e.g. +8 h for a Chinese notice's 每日8时至18时) says the schedule's clock times and days are
    local; the windows come back in UTC. SR/SS cannot be combined with it.
    ``ValueError`` with a readable reason on syntax the grammar does not cover.
    """
    if local_offset:
        if text is not None and re.search(r"\b(?:SR|SS|HJ|HN|SUNRISE|SUNSET)\b", text.upper()):
            raise ValueError("sunrise/sunset in a local-time schedule is not supported")
        if start.tzinfo is None:
            start = start.replace(tzinfo=UTC)
        horizon = end if end is not None else start + timedelta(days=MAX_OPEN_DAYS)
        if horizon.tzinfo is None:
            horizon = horizon.replace(tzinfo=UTC)
        local = expand_schedule(text, start + local_offset, horizon + local_offset, lat, lon)
        return [Window(start=w.start - local_offset, end=w.end - local_offset) for w in local]
    if start.tzinfo is None:
        start = start.replace(tzinfo=UTC)
    horizon = end if end is not None else start + timedelta(days=MAX_OPEN_DAYS)
    if horizon.tzinfo is None:
        horizon = horizon.replace(tzinfo=UTC)
    if horizon <= start:
        raise ValueError("schedule period ends before it starts")
    if text is not None:
        text = re.sub(r"^\s*D\)\s*", "", text)  # the item letter, if it was copied along
        # "1100hrs to 1500hrs": the hours word prose writes after a clock time says nothing more than the clock
        text = re.sub(r"(?<=\d{4})\s?HRS?\b", "", text, flags=re.I)
    if text is None or not text.strip():
        return [Window(start=start, end=horizon)]
    if (horizon - start).days > MAX_EXPAND_DAYS:
        raise ValueError(f"schedule period longer than {MAX_EXPAND_DAYS} days; not expanded")
    tokens = _tokens(text)
    if not tokens:
        return [Window(start=start, end=horizon)]
    if [t.kind for t in tokens] == ["tr"] and tokens[0].text == "H24":
        return [Window(start=start, end=horizon)]
    if any(t.kind == "dt" for t in tokens):
        return _clip(_dt_ranges(tokens), start, horizon)
    clauses, exc = _clauses(tokens)
    ctx = _DateCtx(start, horizon)
    resolved = []
    raw: list[tuple[datetime, datetime]] = []
    wspans = [c.wspan for c in clauses if c.wspan is not None]
    for c in clauses:
        if c.wspan is not None:
            continue
        if c.span is not None:
            raw.append(_span(c.span, ctx))
        else:
            resolved.append((_selector(c.selector, ctx), c.times))
    exc_sel = _selector(exc, _DateCtx(start)) if exc else None
    if exc_sel is not None and exc_sel[0] == "all":
        raise ValueError("EXC without days (it would exclude every day)")
    first = start.date() - timedelta(days=1)
    n_days = (horizon.date() - first).days + 1
    for k in range(n_days):
        d = first + timedelta(days=k)
        if exc_sel is not None and exc_sel[0] != "all" and _matches(exc_sel[0], exc_sel[1], d):
            continue
        for wa, ma, wb, mb in wspans:  # a weekly window starting on this weekday
            if d.weekday() == wa:
                ta = datetime(d.year, d.month, d.day, tzinfo=UTC) + timedelta(minutes=ma)
                tb = ta - timedelta(minutes=ma) + timedelta(days=(wb - wa) % 7, minutes=mb)
                raw.append((ta, tb if tb > ta else tb + timedelta(days=7)))
        for (kind, values), times in resolved:
            if not _matches(kind, values, d):
                continue
            for a, b in times:
                ta, tb = _resolve(a, d, lat, lon), _resolve(b, d, lat, lon)
                if ta is None or tb is None:
                    continue
                if tb <= ta:
                    tb += timedelta(days=1)
                raw.append((ta, tb))
    return _merge(_clip(raw, start, horizon))


def _day_end_gap(a: datetime, b: datetime) -> bool:
    """``…-2359`` then ``0000-…`` the next day: 2359 is how a day's end is written (no 2400), not a minute off."""
    return a.hour == 23 and a.minute == 59 and a.second == 0 and b - a == timedelta(minutes=1)


def _merge(windows: list[Window]) -> list[Window]:
    """Join windows that touch or overlap (``H24`` days, ``2200-0000`` followed by ``0000-...``, ``2300-2359``
    followed by ``0000-0700`` the next day)."""
    out: list[Window] = []
    for w in windows:
        if out and (w.start <= out[-1].end or _day_end_gap(out[-1].end, w.start)):
            if w.end > out[-1].end:
                out[-1] = Window(start=out[-1].start, end=w.end)
        else:
            out.append(w)
    return out
