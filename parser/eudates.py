"""Dates and times as notices in French, German, Spanish, Portuguese and Italian write them, and as Dutch, the Nordic
languages, Polish, Czech, Turkish and Indonesian prose does.

- A date: a day, its month as a word, a year (``8 mai 2010``, ``28. Juni 2024``, ``3 de junio de 2014``, ``1°
  gennaio 2026``), a weekday before it or not; a clock after it (``à 10 heures``, ``à 21 h 59``, ``um 0600 Uhr``,
  ``a las 10:00``, ``alle ore 03:00``) or before it (``alle ore 17:00 del 30 dicembre 2025``).
- A period: ``du … au …``, ``vom … bis …``, ``del … al …``, ``de … a …``, ``dal … al …``; its first date may leave
  out its month and year (``du 3 au 6 juin 2014``, ``vom 26. bis 28. Juni 2024``): they are the second's. A daily
  window written with it (``jeweils von 0600 Uhr bis 1600 Uhr UTC``, ``tous les jours de 10 h à 18 h``) gives a
  date without a clock its hours: the first day's start, the last day's end.
- One day alone (``le samedi 8 mai 2010``, ``am 8. Mai 2010``): the whole day.

``PERIOD`` and ``ONE_DAY`` find the spans (the rules reader); ``read_eu_time`` reads one value of them
(``EuTime``: the calendar day, minutes past midnight or None, whether it is marked UTC, what was taken from the rest
of the phrase). Which clock it is in (UTC, or the local time of the zone's position) is the normaliser's. Pure.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass
from datetime import date, timedelta

_MONTH_NAMES = {
    1: "janvier januar jänner jaenner enero janeiro gennaio",
    2: "février fevrier februar febrero fevereiro febbraio",
    3: "mars märz maerz marzo março marco",
    4: "avril april abril aprile",
    5: "mai mayo maio maggio",
    6: "juin juni junio junho giugno",
    7: "juillet juli julio julho luglio",
    8: "août aout august agosto",
    9: "septembre september septiembre setiembre setembro settembre",
    10: "octobre oktober octubre outubro ottobre",
    11: "novembre november noviembre novembro",
    12: "décembre decembre dezember diciembre dezembro dicembre",
}
# the same months in Dutch, Norwegian/Danish, Swedish, Polish and Czech (the genitive a date takes), Turkish and
# Indonesian; a name English writes alike (december, september) is read as English
_MORE_MONTHS = {
    1: "januari ocak stycznia ledna", 2: "februari şubat lutego února unora",
    3: "maart marca března brezna mart maret",
    4: "kwietnia dubna nisan", 5: "mei maj maja května kvetna mayıs mayis", 6: "czerwca června cervna haziran",
    7: "lipca července cervence temmuz", 8: "augustus augusti sierpnia srpna ağustos agustus",
    9: "września wrzesnia září zari eylül eylul", 10: "października pazdziernika října rijna ekim",
    11: "listopada listopadu kasım kasim", 12: "desember grudnia prosince aralık aralik",
}
# and in Greek, in the genitive a date takes ("29 Μαΐου 2024"), with and without its accent (a heading in capitals
# drops it: "ΜΑΪΟΥ")
_GREEK_MONTHS = {
    1: "ιανουαρίου ιανουαριου", 2: "φεβρουαρίου φεβρουαριου", 3: "μαρτίου μαρτιου", 4: "απριλίου απριλιου",
    5: "μαΐου μαϊου μαιου", 6: "ιουνίου ιουνιου", 7: "ιουλίου ιουλιου", 8: "αυγούστου αυγουστου",
    9: "σεπτεμβρίου σεπτεμβριου", 10: "οκτωβρίου οκτωβριου", 11: "νοεμβρίου νοεμβριου", 12: "δεκεμβρίου δεκεμβριου",
}
for _more in (_MORE_MONTHS, _GREEK_MONTHS):
    for _k, _names in _more.items():
        _MONTH_NAMES[_k] += " " + _names
MONTHS = {name: k for k, names in _MONTH_NAMES.items() for name in names.split()}
_MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
_WEEKDAY = ("lundi|mardi|mercredi|jeudi|vendredi|samedi|dimanche|montag|dienstag|mittwoch|donnerstag|freitag"
            "|samstag|sonnabend|sonntag|lunes|martes|miércoles|miercoles|jueves|viernes|sábado|sabado|domingo"
            "|lunedì|lunedi|martedì|martedi|mercoledì|mercoledi|giovedì|giovedi|venerdì|venerdi|sabato|domenica"
            "|segunda-feira|terça-feira|terca-feira|quarta-feira|quinta-feira|sexta-feira"
            "|maandag|dinsdag|woensdag|donderdag|vrijdag|zaterdag|zondag|mandag|tirsdag|onsdag|torsdag|fredag|lørdag"
            "|søndag|måndag|tisdag|lördag|söndag")
_DAY = r"(?P<d>(?:0?[1-9]|[12]\d|3[01]))(?:\.|°|º|ª|er)?"
_YEAR = r"(?P<y>(?:19|20)\d{2})"
# a clock: "10 heures", "21 h 59", "10h00", "10:00", "0600 Uhr", "06.00 Uhr", "10 horas"
_CLOCK = (r"(?P<h>[01]?\d|2[0-4])(?:\s?(?::|\.|h|heures?|Uhr|horas?)\s?(?P<mi>[0-5]\d)?"
          r"(?:\s?(?:Uhr|h|horas?|heures?|uur))?|(?P<mi2>[0-5]\d)\s?(?:Uhr|h|horas?|uur))")
# the word before a clock: "à", "a las", "um", "kl.", "klockan", "om", "saat" (a Turkish weekday and "günü" before
# it: "17 Haziran 2025 Salı günü saat 23.59"), "pukul", "godz."
_CLOCK_LEAD = (r"(?:,?\s*(?:à|a\s+las?|às|as|alle(?:\s+ore)?|ore|um|ab|at|kl\.?|klockan|om"
               r"|(?:\w+\s+günü\s+)?saat|pukul|(?:o\s+)?godz\.?|v)\s+|,\s*)")
_UTC = r"(?:\s*(?P<utc>UTC|GMT|TU|Z)\b)?"


def _named(pattern: str, tag: str) -> str:
    """``pattern`` with every group renamed ``<name>_<tag>`` (a regex may use each name once)."""
    return re.sub(r"\(\?P<(\w+)>", lambda m: f"(?P<{m[1]}_{tag}>", pattern)


def _date(tag: str, month: bool) -> str:
    """A date (its month required or not), a clock before or after it, as one group ``v_<tag>``."""
    mon = rf"(?:\s+(?:de\s+)?(?P<mon>{_MONTH})(?:\s+(?:de\s+)?{_YEAR})?)" + ("" if month else "?")
    core = (rf"(?:(?:{_WEEKDAY}),?\s+)?{_DAY}{mon}")
    # (Greek links a clock to its day with "ώρα της": "14.00 ώρα της 29 Μαΐου 2024")
    before = (rf"(?:(?:(?:dalle|alle|desde\s+las|hasta\s+las|las|das|às|as|ab|de)\s+)?(?:ore\s+)?{_named(_CLOCK, 'b')}"
              rf"{_named(_UTC, 'b')}\s+(?:del|du|de|do|vom|am|[ώω]ρα\s+της)\s+)")
    after = rf"(?:{_CLOCK_LEAD}{_named(_CLOCK, 'a')}{_named(_UTC, 'a')})"
    return _named(rf"(?P<v>{before}?{core}{after}?)", tag)


_FROM = (r"(?:du|vom|von|del|desde(?:\s+el)?|dal(?:l')?|de|do|da|van|fra(?:\s+og\s+med)?|från(?:\s+och\s+med)?|od|dari"
         r"|απ[όο](?:\s+τ[ηο]ν?)?"
         r"|mulai|zwischen\s+dem|entre(?:\s+(?:os\s+dias|o\s+dia|el|los\s+días|le|les))?|tussen)")
_TO = (r"(?:au|bis(?:\s+zum)?|bis\s+(?:einschließlich|einschliesslich)|al|hasta(?:\s+el)?|a|alle?|ao|até(?:\s+[oa])?"
       r"|tot(?:\s+en\s+met)?|til(?:\s+og\s+med)?|till(?:\s+och\s+med)?|do|hingga|sampai(?:\s+dengan)?"
       r"|und(?:\s+dem)?|e|y(?:\s+el)?|et(?:\s+le)?|en|(?:έως|εως|μέχρι|μεχρι)(?:\s+και)?(?:\s+τ[ηο]ν?)?)")
# the day after the period's first ("06.00 ώρα της επόμενης μέρας", "6 Uhr des Folgetages", "6 h du lendemain"): an
# end that writes only its clock
_NEXT_DAY = (r"(?:της\s+επ[όο]μενης\s+η?μ[έε]ρας|del\s+d[íi]a\s+siguiente|du\s+lendemain|le\s+lendemain"
             r"|des\s+(?:Folgetages|folgenden\s+Tages|nächsten\s+Tages)|am\s+(?:Folgetag|folgenden\s+Tag|nächsten\s+Tag)"
             r"|del\s+giorno\s+(?:successivo|seguente|dopo)|do\s+dia\s+seguinte|następnego\s+dnia"
             r"|následujícího\s+dne|dagen\s+efter|neste\s+dag|den\s+følgende\s+dag|van\s+de\s+volgende\s+dag)")
_NEXT_DAY_END = rf"(?P<v_n>{_named(_CLOCK, 'n')}\s+(?:[ώω]ρα\s+)?{_NEXT_DAY})"
# (a first date that starts with its clock needs no word before it: "dalle ore 17:00 del 30 dicembre …")
PERIOD = re.compile(rf"(?<!\w)(?:{_FROM}\s+|(?=(?:dalle|desde\s+las|das)\s))\s*{_date('s', False)}\s+{_TO}\s+"
                    rf"(?:{_date('e', True)}|{_NEXT_DAY_END})"
                    # Turkish marks the ends with suffixes: "17 Haziran 2025 … 23.59’dan başlayarak, 20 Haziran 2025 …
                    # 23.59’a kadar"
                    rf"|(?<!\w){_date('ts', False)}['’](?:dan|den|tan|ten)\s+(?:başlayarak|itibaren)?[\s,]*"
                    rf"{_date('te', True)}['’](?:a|e|ya|ye)\s+kadar", re.I)
# a date written in numbers, day first ("12.06.2024", "12/06/2024", "12.6.24"), its clock after it ("12.06.2024, 08:00
# Uhr", "12/06/2024 a las 08:00", "12.06.2024 08:00 UTC") or before it ("08:00 Uhr am 12.06.2024"): day-month order,
# as every language read here writes it (a slash date in English prose, month first in the US, is read only where
# its connectives are another language's or its day cannot be a month: ``rules.times``)
_NUM_DAY = r"(?P<nd>[0-3]?\d)(?P<sep>[./])(?P<nm>[01]?\d)[./](?P<ny>(?:19|20)\d{2}|\d{2})(?![\d/]|\.\d)"


def _num_date(tag: str) -> str:
    after = rf"(?:(?:{_CLOCK_LEAD}|\s+(?=\d{{1,2}}[:.h]\d{{2}}))(?:um\s+)?{_named(_CLOCK, 'a')}{_named(_UTC, 'a')})"
    before = rf"(?:{_named(_CLOCK, 'b')}{_named(_UTC, 'b')}\s+(?:am|le|el|il|du|del|do|vom|on)\s+)"
    return _named(rf"(?P<v>{before}?(?:(?:{_WEEKDAY}),?\s+)?(?<![\d./]){_NUM_DAY}{after}?)", tag)


_NUM_TO = rf"(?:{_TO}|to|until|till|through|-|–|—)"
# Polish and Czech "do" (until), never Portuguese "a partir do …" (from the …)
_DO = r"(?<!partir\s)do"
NUM_PERIOD = re.compile(rf"(?<!\w)(?:(?:{_FROM}|from|between)\s+)?{_num_date('s')}\s*{_NUM_TO}\s*{_num_date('e')}", re.I)
_NUM_ONE = re.compile(_num_date("one"), re.I)
NUM_UNTIL = re.compile(rf"(?<!\w)(?:jusqu['’]\s?(?:au|à)|bis(?:\s+(?:zum|einschließlich|einschliesslich))?|hasta(?:\s+el)?"
                       rf"|fino\s+al|até(?:\s+[oa])?|tot\s+en\s+met|tot|til(?:\s+og\s+med)?|till(?:\s+och\s+med)?|{_DO}"
                       rf"|until|till)\s+{_num_date('u')}", re.I)
# one day in numbers after the word for "on" ("am 12.06.2024", "le 12/06/2024")
NUM_ONE_DAY = re.compile(rf"(?<!\w)(?:am|le|el|il|on|dnia|dne|den|op|em|no)\s+{_num_date('o')}", re.I)
# the hours of a day written after it ("am 12.06.2024 von 08:00 bis 18:00 Uhr", "le 12/06/2024 de 8h à 18h"): the
# first and last clock of that day
_HOURS_FROM = r"[\s,]*(?:von|de|dalle(?:\s+ore)?|desde\s+las|das|od|van|fra|från|from|between|zwischen)\s+"
_HOURS_TO = r"\s*(?:bis|à|a|al|alle(?:\s+ore)?|hasta\s+las|às|as|do|tot|til|till|to|and|und|e|et|y|-|–)\s*"
HOURS = re.compile(rf"{_HOURS_FROM}{_named(_CLOCK, 'x')}{_HOURS_TO}{_named(_CLOCK, 'y')}"
                   rf"(?:\s*(?:Uhr|h|horas?|heures?|uur))?(?P<utc>\s*(?:UTC|GMT|Z)\b)?", re.I)
# (the hours bare, their unit written once after the second: "von 8 bis 18 Uhr", "dalle ore 8 alle ore 18")
_HOURS_BARE = re.compile(rf"{_HOURS_FROM}(?P<bx>[01]?\d|2[0-4]){_HOURS_TO}(?P<by>[01]?\d|2[0-4])\s*"
                         rf"(?:(?P<unit>Uhr|h|horas?|heures?|uur|ore)\b)?(?P<utc>\s*(?:UTC|GMT|Z)\b)?(?![\d:]|\.\d)", re.I)


def day_hours(text: str, pos: int, end: int) -> tuple[int, int, bool, str] | None:
    """The hours written right after a day at ``pos`` ("am 12.06.2024 von 08:00 bis 18:00 Uhr", "de 8 a 18 horas"): its
    first and last clock in minutes, whether they are marked UTC, and the words; None where none are written."""
    if (m := HOURS.match(text, pos, end)) is not None:
        return _minutes(m, "x"), _minutes(m, "y"), bool(m.group("utc")), m.group(0)  # type: ignore[return-value]
    if (m := _HOURS_BARE.match(text, pos, end)) is not None and (m.group("unit") or m.group("utc")
                                                                   or re.search(r"\bore\b", m.group(0), re.I)):
        return int(m.group("bx")) * 60, int(m.group("by")) * 60, bool(m.group("utc")), m.group(0)
    return None


# the end alone, a ban in force until a day ("Zákaz platí do 25. října", "jusqu'au 3 juin 2014", "bis zum 25.
# Oktober", "hasta el 5 de mayo"): the day's month written
UNTIL = re.compile(
    rf"(?<!\w)(?:jusqu['’]\s?(?:au|à)|bis\s+(?:zum|einschließlich|einschliesslich)|hasta\s+el|fino\s+al|até\s+(?:[oa]\s+)?dia"
    rf"|tot\s+en\s+met|til\s+og\s+med|till\s+och\s+med|{_DO}|(?:έως|εως|μέχρι|μεχρι)(?:\s+και)?(?:\s+τ[ηο]ν?)?)\s+"
    rf"{_date('u', True)}", re.I)
# (a clock after it is another form's, but not the day's hours: "el 5 de mayo de 2024, de 8:00 a 18:00 horas")
ONE_DAY = re.compile(
    rf"(?<!\w)(?:le|am|el|il|no|em|op|den|dnia|tanggal)\s+(?:(?:dia|día|jour|giorno|Tag)\s+)?(?:(?:{_WEEKDAY}),?\s+)?"
    rf"(?P<v>{_DAY}\s+(?:de\s+)?(?:{_MONTH})\s+(?:de\s+)?(?:19|20)\d{{2}})"
    rf"(?:(?!\s*(?:{_CLOCK_LEAD}|\d))|(?={_HOURS_FROM}\d))", re.I)
# a daily window: "jeweils von 0600 Uhr bis 1600 Uhr UTC", "tous les jours de 10 h à 18 h", "täglich 08:00-18:00"
DAILY = re.compile(
    rf"(?:jeweils|täglich|taeglich|tous\s+les\s+jours|chaque\s+jour|todos\s+los\s+días|todos\s+os\s+dias|diariamente"
    rf"|tutti\s+i\s+giorni|ogni\s+giorno)\s+(?:(?:von|de|dalle|das|entre)\s+)?(?P<clock>{_named(_CLOCK, 'x')}\s*"
    rf"(?:bis|à|a|alle|às|e|et|-|–)\s*{_named(_CLOCK, 'y')}){_UTC}", re.I)


@dataclass(frozen=True)
class EuTime:
    day: date
    minutes: int | None  # minutes past midnight; None for the whole day
    utc: bool  # marked UTC (GMT, TU, Z) in the value itself
    taken: tuple[str, ...]  # what came from elsewhere in the phrase (a month, a year)


def _fold(s: str) -> str:
    return unicodedata.normalize("NFC", s).lower()


def _minutes(m: re.Match, tag: str) -> int | None:
    h = m.group(f"h_{tag}")
    if h is None:
        return None
    mi = m.group(f"mi_{tag}") or m.group(f"mi2_{tag}") or "0"
    total = int(h) * 60 + int(mi)
    if total > 24 * 60:
        raise ValueError(f"not a clock time: {m.group(0)[:20]!r}")
    return total


_ONE = re.compile(_date("one", False), re.I)


def nearest_day(month: int, day: int, ref: date) -> date:
    """The ``month``/``day`` in the year that puts it nearest ``ref``; ``ValueError`` when no such day is near."""
    best: date | None = None
    for y in (ref.year - 1, ref.year, ref.year + 1):
        try:
            c = date(y, month, day)
        except ValueError:
            continue
        if best is None or abs((c - ref).days) < abs((best - ref).days):
            best = c
    if best is None:
        raise ValueError(f"no {month:02d}-{day:02d} near {ref}")
    return best


_NEXT = re.compile(_NEXT_DAY_END, re.I)
_DATED = re.compile(_date("p", True), re.I)


def _next_day(m: re.Match, before: str, reference: date | None) -> EuTime:
    """An end that writes only its clock and "the next day": the day after the last date written in ``before``."""
    dates = list(_DATED.finditer(before))
    if not dates:
        raise ValueError(f"{m.group(0)[:40]!r}: no day before it to count from")
    first = read_eu_time(dates[-1].group(0), before[dates[-1].end():], reference)
    day = first.day + timedelta(days=1)
    said = f"the day after the period's first, {first.day:%Y-%m-%d}"
    return EuTime(day, _minutes(m, "n"), bool(first.utc), (*first.taken, said))


def read_eu_time(value: str, after: str = "", reference: date | None = None, before: str = "") -> EuTime:
    """One date (and clock) of ``PERIOD``/``ONE_DAY`` -> ``EuTime``; a month and year it leaves out are the first
    written in ``after`` (the rest of its phrase); a year no part of it writes is the one nearest ``reference`` (the
    day the batch was received), where one is given. An end that writes a clock on "the next day" is the day after
    the last date ``before`` it writes. ``ValueError`` when it is not one."""
    s = " ".join(value.split()).strip(" ,.;")
    if (n := _NEXT.fullmatch(s)) is not None:
        return _next_day(n, before, reference)
    if (num := _NUM_ONE.fullmatch(s)) is not None:
        return _read_num(num, s)
    m = _ONE.fullmatch(s)
    if m is None:
        raise ValueError(f"not a date: {s[:40]!r}")
    taken: list[str] = []
    mon, year = m.group("mon_one"), m.group("y_one")
    if mon is None or year is None:
        later = re.search(rf"(?P<mon>{_MONTH})(?:\s+(?:de\s+)?(?P<y>(?:19|20)\d{{2}}))?", after, re.I)
        if mon is None and later is not None:
            mon = later["mon"]
            taken.append(f"month {mon} from the period")
        if year is None and later is not None and later["y"] is not None:
            year = later["y"]
            taken.append(f"year {year} from the period")
        if mon is None or (year is None and reference is None):
            raise ValueError(f"date {s[:40]!r} has no month or year, and none follows it")
    try:
        if year is None:  # (the batch's reference day: the year that puts the date nearest the day it came)
            day = nearest_day(MONTHS[_fold(mon)], int(m.group("d_one")), reference)  # type: ignore[arg-type]
            taken.append(f"year {day.year} from the batch's reference date {reference:%Y-%m-%d}")
        else:
            day = date(int(year), MONTHS[_fold(mon)], int(m.group("d_one")))
    except (KeyError, ValueError) as exc:
        raise ValueError(f"not a calendar date: {s[:40]!r}") from exc
    minutes = _minutes(m, "a_one") if m.group("h_a_one") is not None else _minutes(m, "b_one")
    utc = bool(m.group("utc_a_one") or m.group("utc_b_one"))
    return EuTime(day, minutes, utc, tuple(taken))


def _read_num(m: re.Match, s: str) -> EuTime:
    """A ``_num_date`` match -> ``EuTime`` (day first; a two-digit year is 20xx)."""
    y = m.group("ny_one")
    try:
        day = date(int(y) + (2000 if len(y) == 2 else 0), int(m.group("nm_one")), int(m.group("nd_one")))
    except ValueError as exc:
        raise ValueError(f"not a calendar date: {s[:40]!r}") from exc
    minutes = _minutes(m, "a_one") if m.group("h_a_one") is not None else _minutes(m, "b_one")
    return EuTime(day, minutes, bool(m.group("utc_a_one") or m.group("utc_b_one")), ())


def window_minutes(m: re.Match) -> tuple[int, int, bool]:
    """A ``DAILY`` match -> its window's start and end minutes, and whether it is marked UTC."""
    return _minutes(m, "x"), _minutes(m, "y"), bool(m.group("utc"))  # type: ignore[return-value]
