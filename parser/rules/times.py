"""Start, end and schedule of a message: B)/C)/D) items, else the forms free text writes them in.

FAA ``EFFECTIVE … UNTIL …``, ten-digit pairs, ISO pairs, ``FROM``/``UNTIL``, TFR pages' ``Beginning Date and Time``,
Chinese ``2024年9月10日12时至…``, prose month-name dates; a daily period in prose or Chinese is the schedule.
"""

from __future__ import annotations

import re

from airspace.core.contract import Span
from airspace.parser.header import Header
from airspace.parser.times import find_effective_range
from airspace.parser.rules.patterns import (
    CJK_RE, CN_DAILY, CN_DATE_RANGE, CN_FROM, CN_RANGE, FAA_SCHED, FROM, ICAO_TIME, ISO_PAIR, PROSE_ANY, PROSE_SCHED,
    TFR_BEGIN, TFR_END, TIME_PAIR, UNTIL,
)
from airspace.parser.rules.zone import sp


def _item_time(text: str, h: Header, letter: str) -> Span | None:
    it = h.item(letter)
    if not it:
        return None
    m = ICAO_TIME.match(text, it.span.start, it.span.end)
    return sp(text, m.start(), m.end()) if m else None


def read_times(text: str, h: Header, lo: int, hi: int) -> dict[str, Span]:
    out: dict[str, Span] = {}
    if (b := _item_time(text, h, "B")) is not None:
        out["start"] = b
    if (c := _item_time(text, h, "C")) is not None:
        out["end"] = c
    if out:
        return out
    eff = find_effective_range(text[lo:hi])
    if eff is not None:  # FAA "EFFECTIVE 2402140200 UTC (2000 LOCAL …) UNTIL 2402201400 UTC (…)"
        (s0, s1), (e0, e1) = eff
        return {"start": sp(text, lo + s0, lo + s1), "end": sp(text, lo + e0, lo + e1)}
    pairs = list(TIME_PAIR.finditer(text, lo, hi))
    if pairs:
        m = pairs[-1]
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    m = ISO_PAIR.search(text, lo, hi)
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
    m = CN_RANGE.search(text)
    if m:
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    m = CN_DATE_RANGE.search(text)  # "2024年6月6日至6月10日(每日8时至18时)": whole days, Beijing time
    if m:
        return {"start": sp(text, *m.span("s")), "end": sp(text, *m.span("e"))}
    m = CN_FROM.search(text)
    if m:
        return {"start": sp(text, *m.span("s"))}
    prose = list(PROSE_ANY.finditer(text))
    utc = [m for m in prose if re.search(r"(?:UTC|Z|GMT)$", m.group(), re.I)]
    if len(utc) >= 2:
        prose = utc  # "June 01, 2026 at 1500 UTC (June 01, 2026 at 1100 EDT)": the UTC statements, not the local
    if len(prose) >= 2:
        return {"start": sp(text, *prose[0].span()), "end": sp(text, *prose[1].span())}
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
