"""Times as written in notices -> aware UTC datetimes.

- ICAO/FAA ``YYMMDDHHMM`` (UTC); ``EST`` glued or spaced marks an *estimated* time (never US Eastern);
  ``PERM`` (and ``UFN``) mark a permanent/open end; ``YYYYMMDDHHMM`` and ISO ``2026-07-23T21:05Z`` too.
- Prose: ``July 23, 2026 at 2105 UTC``, ``23 JUL 2026 2105``, ``JUL 23 2026 21:05Z``; a trailing parenthesised
  local-time restatement is ignored. ``HHMM UTC`` alone takes its date from ``ref``.
- Chinese notices in Beijing time (UTC+8): ``2024年9月10日12时``, ``2024年9月10日20:00``, ``9月10日12时30分``,
  ``12时`` / ``24时`` (date from ``ref``); ``24时`` is the next day's 00:00. Range connectors left on one end
  (``自…起``, ``…止``), pinyin glosses (``18時(shí)``), Chinese numerals (``零时``, ``二十时``, ``二〇二四年``) and
  day-part words (``下午3时`` = 15:00, ``凌晨``/``上午`` unchanged, ``中午12时``) are read. Taiwan's notices count
  years from the Republic (``113年7月19日`` = 2024-07-19: ``CN_YEAR``); Taiwan keeps UTC+8 as Beijing does.
- Japanese notices in Japan time (UTC+9; ``cjk_script`` tells a Japanese text by its kana, ``text_zone`` gives
  its zone): ``令和7年5月3日午前9時`` (an era year: 令和1 = 2019, 平成1 = 1989), ``午後6時`` = 18:00, ``同日午後6時``
  (the start's day), ``正午``. Korean ones in Korea time (UTC+9): ``2025년 5월 3일 오후 6시``, the dotted
  ``2025. 5. 3.(토) 09:00``, read as the Chinese form.
- ``UFN`` (until further notice) is open-ended like PERM but flagged ``until_further_notice`` so callers can say so.
  An item letter copied along (``C) UFN``, ``B) 2603010800``) is ignored.

``ref`` is the already-parsed start, used for values that omit the date (end values).
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import date, datetime, timedelta, timezone
from itertools import islice

from airspace.parser.textnorm import clean

UTC = timezone.utc
BEIJING = timezone(timedelta(hours=8))
JST = timezone(timedelta(hours=9))
KST = timezone(timedelta(hours=9))
IDEOGRAPH = re.compile(r"[\u4e00-\u9fff]")
HANGUL = re.compile(r"[\uac00-\ud7a3]")
_KANA = re.compile(r"[\u3041-\u3096\u30a1-\u30fa]")
_SCRIPT_ZONE = {"ko": KST, "ja": JST, "zh": BEIJING}


def cjk_script(text: str) -> str | None:
    """The language a text's script says it is in: ``"ko"`` with five Hangul syllables or more (a Korean text keeps
    that with a few Chinese characters in it), ``"ja"`` with five kana or more (Chinese writes none, bar a borrowed
    の in a brand), ``"zh"`` with any Chinese character; None for any other text."""
    if _five(HANGUL, text):
        return "ko"
    if IDEOGRAPH.search(text) is None:
        return None
    return "ja" if _five(_KANA, text) else "zh"


def text_zone(text: str) -> timezone | None:
    """The zone of clock times a text written in ``cjk_script`` states without one: Korea and Japan time (UTC+9),
    Beijing time for Chinese (China, Taiwan, Hong Kong and Macau all keep UTC+8); None for any other text."""
    script = cjk_script(text)
    return _SCRIPT_ZONE[script] if script is not None else None


def _five(rx: re.Pattern[str], text: str) -> bool:
    """Whether ``rx`` matches five times in ``text`` (stops at the fifth: a long text is not scanned whole)."""
    return len(list(islice(rx.finditer(text), 5))) == 5


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
    permanent: bool = False  # PERM, or UFN (then until_further_notice is set too)
    until_further_notice: bool = False  # UFN: open-ended, not a declared permanent change


# (Canadian NOTAMs mark an estimated end before it: "2412050800 TIL APRX 2412051600")
_ICAO = re.compile(r"^(?P<aprx>APRX\s*)?(?P<ts>\d{10}|\d{12})\s*(?:Z|UTC|GMT)?\s*(?P<est>EST)?$")
_PERM = re.compile(r"^(?:PERM|PERMANENT)$")
_UFN = re.compile(r"^(?:UFN|(?:UNTIL\s+)?FURTHER\s+NOTI(?:CE|FICATION))$")
_ITEM = re.compile(r"^[A-G]\)\s*")
_ISO = re.compile(r"^(?P<y>\d{4})(?P<sep>[-/.])(?P<mo>\d{2})(?P=sep)(?P<d>\d{2})[T ](?P<h>\d{2}):?(?P<mi>\d{2})(?::\d{2})?\s*(?:Z|UTC|\+00:?00)?$")
_TZ = r"(?:\s*(?P<tz>UTC|GMT|Z))?"
_HM = r"(?P<h>\d{1,2}):?(?P<mi>\d{2})"
_PROSE_MDY = re.compile(
    rf"^{_MONTH_RE}\.?\s+(?P<d>\d{{1,2}})(?:ST|ND|RD|TH)?,?\s+(?P<y>\d{{4}}),?\s+(?:AT\s+)?{_HM}{_TZ}$")
# (a two-digit year only where the clock is marked UTC, as maritime and military messages write a day: "14 MAR 24 AT
# 2158Z", "2158Z 14 MAR 24")
_PROSE_DMY = re.compile(
    rf"^(?P<d>\d{{1,2}})\s+{_MONTH_RE}\.?,?\s+(?P<y>\d{{4}}|\d{{2}}),?\s+(?:AT\s+)?{_HM}{_TZ}$")
_PROSE_HM_MDY = re.compile(
    rf"^{_HM}{_TZ},?\s+(?:ON\s+)?{_MONTH_RE}\.?\s+(?P<d>\d{{1,2}})(?:ST|ND|RD|TH)?,?\s+(?P<y>\d{{4}})$")
_PROSE_HM_DMY = re.compile(
    rf"^{_HM}{_TZ},?\s+(?:ON\s+)?(?P<d>\d{{1,2}})\s+{_MONTH_RE}\.?,?\s+(?P<y>\d{{4}}|\d{{2}})$")
# a day-time group with its month and year ("142158Z MAR 24"): UTC by its Z
_DTG_FULL = re.compile(rf"^(?P<d>\d{{2}})(?P<h>\d{{2}})(?P<mi>\d{{2}})\s?Z\s+{_MONTH_RE}\.?\s+(?P<y>\d{{4}}|\d{{2}})$")
_HHMM_ONLY = re.compile(rf"^(?:AT\s+)?{_HM}{_TZ}$")
# a year of a Chinese date: four digits, or a Republic-of-China year (Taiwan: 民國113年 = 2024) of three digits,
# read as one only where a month follows it, as a date writes it (a count of years is never "113年7月")
ROC_YEAR = r"(?<!\d)1[01]\d(?=\s*年\s*\d{1,2}\s*月)"
CN_YEAR = rf"(?:\d{{4}}|{ROC_YEAR})"


def cn_year(written: str) -> int:
    """A ``CN_YEAR`` as the Gregorian year: a Republic year + 1911."""
    y = int(written)
    return y + 1911 if len(written.strip()) == 3 else y


_CN_FULL = re.compile(
    r"^(?:北京时间|北京時間)?\s*(?:民國|民国)?\s*(?:(?P<y>" + CN_YEAR + r")\s*年)?"
    r"\s*(?:(?P<mo>\d{1,2})\s*月)?\s*(?:(?P<d>\d{1,2})\s*[日号號])?"
    r"\s*(?:[(（][^)）]*[)）])?\s*"
    r"(?P<ampm>上午|早上|早晨|凌晨|中午|下午|傍晚|晚上|夜间|夜間|晚)?\s*"
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
    """Two-digit years pivot at 70: ``96`` is 1996 (old FAA/AIM texts such as ``until 9610211200``), ``26`` is 2026."""
    if len(yy) != 2:
        return int(yy)
    return (1900 if int(yy) >= 70 else 2000) + int(yy)


def parse_time(text: str, *, ref: datetime | None = None, local_tz: timezone | None = None,
               year: int | None = None, end: bool = False) -> TimeValue:
    """One time value -> ``TimeValue`` (UTC). ``ValueError`` with the reason on anything unreadable.

    ``local_tz`` is the zone of clock times written without one in a non-ICAO notice (``20:00``,
    ``2024-09-10 20:00``); ``normalize`` passes Beijing time for Chinese messages. ICAO stamps and times marked
    UTC/Z/GMT are always UTC. ``year`` is the year for a Chinese date written without one (``3月17日0时``) when
    there is no ``ref`` either; callers take it from the notice itself (``message_year``), never from the clock.
    ``end``: the value is an end (a Chinese date without its hour is then the end of that day, as it is after a
    ``ref``).
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("empty time")
    s = _ITEM.sub("", re.sub(r"\s+", " ", clean(text)).strip().rstrip(".,;。，；"))
    # connective words copied along with the value ("From April 20, 2007 at 1610 UTC", "Monday, March 2, ...")
    s = re.sub(r"^(?:(?:FROM|FM|TO|UNTIL|TILL?|THRU|THROUGH|EFFECTIVE|EFF|BEGINNING|STARTING|ENDING|ON)\b[\s:]*)+", "",
               s, flags=re.IGNORECASE)
    s = re.sub(r"^(?:MON|TUES?|WED(?:NES)?|THU(?:RS)?|FRI|SAT(?:UR)?|SUN)(?:DAY)?\.?,?\s+(?=[A-Z\d])", "", s,
               flags=re.IGNORECASE)
    s = re.sub(r"\s*(?:至|到|～|~)\s*$", "", s)
    up = s.upper()
    if (m := _ICAO.match(up)) is not None:
        ts = m.group("ts")
        if len(ts) == 10:
            y, rest = _year(ts[:2]), ts[2:]
        else:
            y, rest = int(ts[:4]), ts[4:]
        dt = _mk(y, int(rest[0:2]), int(rest[2:4]), int(rest[4:6]), int(rest[6:8]))
        return TimeValue(dt, estimated=m.group("est") is not None or m.group("aprx") is not None)
    if _PERM.match(up):
        return TimeValue(None, permanent=True)
    if _UFN.match(up):
        return TimeValue(None, permanent=True, until_further_notice=True)
    if (m := _ISO.match(up)) is not None:
        marked = bool(re.search(r"(?:Z|UTC|\+00:?00)$", up))
        tz = UTC if marked or local_tz is None else local_tz
        return TimeValue(_mk(int(m["y"]), int(m["mo"]), int(m["d"]), int(m["h"]), int(m["mi"]), tz))
    body = _strip_paren_tail(up)
    if body != up and (m := _ICAO.match(body)) is not None:
        return parse_time(body)  # "2607231600 UTC (1200 LOCAL 07/23/26)"
    for pat in (_PROSE_MDY, _PROSE_DMY, _PROSE_HM_MDY, _PROSE_HM_DMY, _DTG_FULL):
        # (a clock and a day with no zone mark, "06:00 on 3 December 2025", "3 December 2025 06:00", is the text's
        # local time as prose writes it: read with its place's clock and said (``endates``), never taken for UTC)
        if (m := pat.match(body)) is not None and (pat is _DTG_FULL or m["tz"]):
            mo = MONTHS[m["mon"][:3]]
            return TimeValue(_mk(_year(m["y"]), mo, int(m["d"]), int(m["h"]), int(m["mi"])))
    if (m := _HHMM_ONLY.match(body)) is not None and (m["tz"] or ":" in body or len(body) == 4):
        if ref is None:
            raise ValueError(f"time {text.strip()!r} has no date and no start to take it from")
        tz = local_tz if (local_tz is not None and not m["tz"] and ":" in body) else UTC
        r = ref.astimezone(tz)
        dt = _mk(r.year, r.month, r.day, int(m["h"]), int(m["mi"]), tz)
        if dt <= r:
            dt += timedelta(days=1)
        return TimeValue(dt)
    if HANGUL.search(s) or (local_tz is not None and _DOTTED_DAY.match(s)):
        s = _ko_prepare(s)
    if IDEOGRAPH.search(s):
        body, next_day = _cn_prepare(s), False
        if (nd := re.match(r"^(?:次日|翌日|第二天|隔天)\s*", body)) is not None:
            if ref is None:
                raise ValueError(f"time {text.strip()!r} is relative to a start that is not known")
            body, next_day = body[nd.end():], True
        if (m := _CN_FULL.match(body)) is not None and not (next_day and m["d"] is not None):
            if next_day:
                # 次日6时: the day after the start's (Beijing) day, at that hour (次日24时 = the end of that day)
                if m["h"] is None:
                    raise ValueError(f"unrecognised time {text.strip()[:40]!r}")
                tz = local_tz or BEIJING
                nd_date = (ref.astimezone(tz) + timedelta(days=1)).date()  # type: ignore[union-attr]
                mi = int(m["mi"] or m["mi2"] or (30 if m["half"] else 0))
                return TimeValue(_mk(nd_date.year, nd_date.month, nd_date.day, _day_part(m["ampm"], int(m["h"])),
                                     mi, tz))
            return TimeValue(_chinese(m, ref, text, year, local_tz or BEIJING, end))
    raise ValueError(f"unrecognised time {text.strip()[:40]!r}")


_CN_NUM_RUN = re.compile(r"[零〇一二两兩三四五六七八九十]+(?=\s*[年月日号號时時点點分])")
_CN_DIGIT = {"零": "0", "〇": "0", "一": "1", "二": "2", "两": "2", "兩": "2", "三": "3", "四": "4", "五": "5",
             "六": "6", "七": "7", "八": "8", "九": "9"}


def _cn_numeral(run: str) -> str:
    if "十" not in run:
        return "".join(_CN_DIGIT[ch] for ch in run)  # 二〇二四 -> 2024, 零 -> 0
    from airspace.parser.units import cn_number  # (units imports nothing from here; kept local to stay light)

    return str(cn_number(run))


def _cn_prepare(s: str) -> str:
    """One Chinese time value, stripped of range connectors and glosses, numerals as digits."""
    s = re.sub(r"[(（]\s*[A-Za-z\u00c0-\u024f\u0300-\u036f ]*\s*[)）]", "", s)  # 18時(shí)
    s = re.sub(r"^\s*(?:自|从|從|由|于|於|在)\s*", "", s)
    s = re.sub(r"\s*(?:起|开始|開始|止|结束|結束|为止|為止|前|以前)\s*$", "", s)
    s = _CN_NUM_RUN.sub(lambda m: _cn_numeral(m.group(0)), s).strip()
    return _jp_prepare(s)


_KO_UNITS = ((r"(\d{4})\s*년", r"\1年"), (r"(\d{1,2})\s*월", r"\1月"), (r"(\d{1,2})\s*일", r"\1日"),
             (r"(\d{1,2})\s*시", r"\1時"), (r"(\d{1,2})\s*분", r"\1分"))


# the dotted date of Korean notices: with its year ("2025. 5. 3.(토) 09:00"), or an end's without it and with its
# clock ("5. 5. 18:00"; a bare "10.30" is no date)
_DOTTED_DAY = re.compile(r"^(?:(?P<y>\d{4})\.\s*(?P<mo>\d{1,2})\.\s*(?P<d>\d{1,2})\.?(?=\s|[(（]|$)"
                         r"|(?P<mo2>\d{1,2})\.\s*(?P<d2>\d{1,2})\.?(?=\s*(?:[(（][^)）]{1,3}[)）]\s*)?\d{1,2}:\d{2}))")


def _ko_prepare(s: str) -> str:
    """A Korean value (``2025년 5월 3일 오후 6시 30분``, ``2025. 5. 3.(토) 09:00``) in the Chinese form ``_CN_FULL``
    reads: the dotted date and 년/월/일/시/분 as 年/月/日/時/分, 오전/오후 as 上午/下午, 정오 as 12時, 다음날/익일 (the
    next day) as 翌日; 부터/까지 (from/until), 경/쯤 (about) and a weekday's bracket dropped."""
    s = re.sub(r"\s*(?:부터|까지|경|쯤)\s*$", "", s.strip())
    s = re.sub(r"\s*[(（][월화수목금토일][)）]\s*", " ", s)
    s = _DOTTED_DAY.sub(lambda m: f"{m['y']}年{m['mo']}月{m['d']}日" if m["y"] else f"{m['mo2']}月{m['d2']}日", s)
    for pat, rep in _KO_UNITS:
        s = re.sub(pat, rep, s)
    s = re.sub(r"^\s*(?:다음\s*날|익일)\s*", "翌日", s)
    return s.replace("오전", "上午").replace("오후", "下午").replace("정오", "12時").strip()


_JP_ERA = re.compile(r"(?P<era>令和|平成)\s*(?P<n>\d{1,2}|元)\s*年")
_JP_ERA_BASE = {"令和": 2018, "平成": 1988}


def jp_era_year(era: str, n: str) -> int:
    """令和7 -> 2025, 平成元 -> 1989."""
    return _JP_ERA_BASE[era] + (1 if n == "元" else int(n))


def _jp_prepare(s: str) -> str:
    """A Japanese value in the Chinese form ``_CN_FULL`` reads: the era year as the Gregorian one, 午前/午後 as the
    day parts 上午/下午, 正午 as 12時; 同日 (the start's day), 頃 (about) and the connectors から/まで dropped."""
    s = _JP_ERA.sub(lambda m: f"{jp_era_year(m['era'], m['n'])}年", s)
    s = re.sub(r"^\s*同日\s*|\s*頃|\s*(?:から|まで)\s*$", "", s)
    return s.replace("午前", "上午").replace("午後", "下午").replace("正午", "12時")


def _day_part(word: str | None, h: int) -> int:
    """下午3时 = 15:00; 凌晨12时 = 00:00; other day-part words leave the hour as written."""
    if word in ("下午", "傍晚", "晚上", "夜间", "夜間", "晚") and h < 12:
        return h + 12
    if word == "凌晨" and h == 12:
        return 0
    return h


def _chinese(m: re.Match[str], ref: datetime | None, text: str, year: int | None = None,
             tz: timezone = BEIJING, end: bool = False) -> datetime:
    """Date/hour fields in ``tz`` (Beijing time, or Japan time for a Japanese text) -> UTC. Missing year/month/day
    come from ``ref`` (in that zone)."""
    if m["h"] is None and m["d"] is None:
        raise ValueError(f"unrecognised time {text.strip()[:40]!r}")
    local_ref = ref.astimezone(tz) if ref is not None else None
    if m["d"] is None:
        if local_ref is None:
            raise ValueError(f"time {text.strip()!r} has no date and no start to take it from")
        y, mo, d = local_ref.year, local_ref.month, local_ref.day
    else:
        if m["y"] is None and local_ref is None and year is None:
            raise ValueError(f"date {text.strip()!r} has no year and no start to take it from")
        y = cn_year(m["y"]) if m["y"] else (local_ref.year if local_ref is not None else year)  # type: ignore[assignment]
        if m["mo"] is None and local_ref is None:
            raise ValueError(f"date {text.strip()!r} has no month and no start to take it from")
        mo = int(m["mo"]) if m["mo"] else local_ref.month  # type: ignore[union-attr]
        d = int(m["d"])
    if m["h"] is None:
        # a bare date: the start of that day, or (for an end value) the end of it
        h, mi = (24, 0) if ref is not None or end else (0, 0)
    else:
        h = int(m["h"])
        mi = int(m["mi"] or m["mi2"] or (30 if m["half"] else 0))
        h = _day_part(m["ampm"], h)
    dt = _mk(y, mo, d, h, mi, tz)
    if m["d"] is None and ref is not None and dt <= ref:
        dt += timedelta(days=1)
    return dt


_STAMP = r"(?:APRX\s+)?\d{10}(?:\s?EST)?"
_RANGE = re.compile(
    rf"^(?:EFFECTIVE\s+|EFF\s+|FROM\s+|FM\s+)?(?P<s>{_STAMP})(?:\s*(?:UTC|Z))?(?:\s*\([^()]*\))?\s*"
    rf"(?:-|TO|UNTIL|TIL|THRU|THROUGH)\s*(?P<e>{_STAMP}|PERM|UFN)(?:\s*(?:UTC|Z))?(?:\s*\([^()]*\))?$")
_EFFECTIVE = re.compile(
    r"\bEFFECTIVE\s+(?P<s>\d{10})\s*(?:UTC|Z)?(?:\s*\([^()]*\))?[\s.,]*"
    r"(?:UNTIL|TO|THRU|THROUGH|TIL)\s+(?P<e>\d{10}|PERM|UFN|FURTHER\s+NOTICE)\b", re.IGNORECASE)


def parse_time_range(text: str) -> tuple[TimeValue, TimeValue]:
    """FAA ``YYMMDDHHMM-YYMMDDHHMM`` (either side may carry EST; the end may be PERM/UFN) -> (start, end).

    Also the spelled-out form ``EFFECTIVE 2402140200 UTC (2000 LOCAL 02/13/24) UNTIL 2402201400 UTC (0800 LOCAL
    02/20/24)``: the parenthesised local restatements are ignored (the UTC stamps rule).
    """
    s = re.sub(r"\s+", " ", clean(text)).strip().upper().rstrip(".,;")
    m = _RANGE.match(s)
    if not m:
        raise ValueError(f"not a time range: {text.strip()[:40]!r}")
    start = parse_time(m.group("s"))
    return start, parse_time(m.group("e"), ref=start.dt)


def find_effective_range(text: str) -> tuple[tuple[int, int], tuple[int, int]] | None:
    """Where an FAA ``EFFECTIVE <stamp> UTC (...) UNTIL <stamp> UTC`` states the period in ``text``.

    Returns the ``(start, end)`` character spans of the two stamps (or of ``PERM``/``UFN``) so a caller can ground
    them and pass each to ``parse_time``; None when the text has no such phrase.
    """
    m = _EFFECTIVE.search(text)
    if m is None:
        return None
    return m.span("s"), m.span("e")


# a year a Chinese, Korean or Japanese text writes: 2024年, 113年 (Taiwan's), 2025년, 令和7年
YEAR_WRITTEN = re.compile(rf"(?<!\d)(?P<y>(?:19|20)\d{{2}}|{ROC_YEAR})\s*[年년]|{_JP_ERA.pattern}")


def written_year(m: re.Match[str]) -> int:
    """A ``YEAR_WRITTEN`` match as the Gregorian year."""
    return cn_year(m["y"]) if m["y"] else jp_era_year(m["era"], m["n"])


def message_year(text: str, before: int | None = None) -> int | None:
    """The year a Chinese (Korean, Japanese) notice states (``2024年…``): the last one written before offset
    ``before`` (the time value's position), else the first one anywhere; None when the notice names no year."""
    found = [(m.start(), written_year(m)) for m in YEAR_WRITTEN.finditer(text)]
    if not found:
        return None
    if before is not None:
        earlier = [y for pos, y in found if pos < before]
        if earlier:
            return earlier[-1]
    return found[0][1]


# a page's own date as ISO writes it ("2025-03-26 13:44", "发布时间：2022-09-20") in a Chinese text
_ISO_DAY_IN_TEXT = re.compile(r"(?<![\d.:/-])(?P<y>(?:19|20)\d{2})-(?P<mo>[01]?\d)-(?P<d>[0-3]?\d)(?![\d/-])")
_CN_MONTH_DAY = re.compile(r"(?P<mo>\d{1,2})\s*月\s*(?P<d>\d{1,2})\s*[日号號]")


def page_year(text: str, value: str) -> tuple[int, str] | None:
    """The year of a Chinese day written without one (``3月30日``) in a text that writes no ``年`` year: the year of
    the first ISO date in the text (a news page's stamp), the next year where the day would fall more than 60 days
    before that date (a notice announces what is to come). None without such a date, or a day in the value."""
    m, page = _CN_MONTH_DAY.search(value), _ISO_DAY_IN_TEXT.search(text)
    if m is None or page is None:
        return None
    try:
        stamp = date(int(page["y"]), int(page["mo"]), int(page["d"]))
        day = date(stamp.year, int(m["mo"]), int(m["d"]))
    except ValueError:
        return None
    year = stamp.year + 1 if (stamp - day).days > 60 else stamp.year
    return year, f"from the page's date {page.group()!r}"


def day_start(d: date) -> datetime:
    """00:00 UTC of a date (helper for schedules)."""
    return datetime(d.year, d.month, d.day, tzinfo=UTC)


# ----------------------------------------------------------------------------------------------------------------
# clock-only times with a date and a time zone stated apart ("Ops note 14 Jan 2027 … 0930-1600 local, UTC+8")
_CLOCK = re.compile(r"^\s*(?P<h>[01]?\d|2[0-4])[:h.]?(?P<m>[0-5]\d)\s*(?:H|HRS?|LOCAL|LT|L)?\s*$", re.IGNORECASE)
_TZ = re.compile(r"^\s*(?:(?:UTC|GMT)\s*(?P<sign>[+\-−])\s*(?P<h>\d{1,2})(?::?(?P<m>\d{2}))?|(?P<zero>UTC|GMT|Z))\s*$",
                 re.IGNORECASE)
_DAY_MONTH_YEAR = re.compile(rf"^\s*(?P<d>\d{{1,2}})\s+{_MONTH_RE}\.?,?\s+(?P<y>\d{{4}})\s*$", re.IGNORECASE)
_MONTH_DAY_YEAR = re.compile(rf"^\s*{_MONTH_RE}\.?\s+(?P<d>\d{{1,2}}),?\s+(?P<y>\d{{4}})\s*$", re.IGNORECASE)
_ISO_DATE = re.compile(r"^\s*(?P<y>\d{4})-(?P<mo>\d{2})-(?P<d>\d{2})\s*$")


def parse_clock(text: str) -> int:
    """A clock time without a date (``0930``, ``09:30``, ``16h00``) -> minutes after midnight; ``ValueError``."""
    m = _CLOCK.match(clean(text or ""))
    if m is None:
        raise ValueError(f"not a clock time: {str(text).strip()[:20]!r}")
    minutes = int(m["h"]) * 60 + int(m["m"])
    if minutes > 24 * 60:
        raise ValueError(f"not a clock time: {text.strip()[:20]!r}")
    return minutes


def parse_offset(text: str) -> timedelta:
    """A time zone as an offset from UTC: ``UTC+8``, ``UTC+08:00``, ``GMT-5``, ``UTC+5:30``, ``UTC`` -> timedelta."""
    m = _TZ.match(clean(text or ""))
    if m is None:
        raise ValueError(f"not a time zone: {str(text).strip()[:20]!r}")
    if m["zero"]:
        return timedelta(0)
    off = timedelta(hours=int(m["h"]), minutes=int(m["m"] or 0))
    if off > timedelta(hours=14):
        raise ValueError(f"time zone offset out of range: {text.strip()[:20]!r}")
    return -off if m["sign"] in "-−" else off


def parse_date(text: str) -> date:
    """A calendar day written apart from its times: ``14 Jan 2027``, ``Jan 14, 2027``, ``2027-01-14``."""
    s = clean(text or "")
    for rx in (_DAY_MONTH_YEAR, _MONTH_DAY_YEAR, _ISO_DATE):
        m = rx.match(s)
        if m is not None:
            month = MONTHS[m["mon"][:3].upper()] if "mon" in m.groupdict() and m["mon"] else int(m["mo"])
            try:
                return date(int(m["y"]), month, int(m["d"]))
            except ValueError as exc:
                raise ValueError(f"not a date: {text.strip()[:20]!r} ({exc})") from None
    raise ValueError(f"not a date: {str(text).strip()[:20]!r}")


def local_window(day: date, start: str, end: str, tz: str) -> tuple[datetime, datetime]:
    """Clock-only start/end on ``day`` in time zone ``tz`` -> UTC datetimes, exactly (integer minutes). An end not
    after the start is on the next day (``2200-0200 local``)."""
    off = parse_offset(tz)
    midnight = datetime(day.year, day.month, day.day, tzinfo=UTC)
    a = midnight + timedelta(minutes=parse_clock(start)) - off
    b = midnight + timedelta(minutes=parse_clock(end)) - off
    if b <= a:
        b += timedelta(days=1)
    return a, b
