"""The time zone English prose states by its name: ``from 5:30 p.m. to 11:59 p.m. Eastern Time``, ``starting at
2:30 PM, Pacific Standard Time``, ``10 a.m. EST``.

The full names of the US zones are read wherever the text writes them; an abbreviation only right after a clock
(``10 a.m. EST``, ``17:30 ET``), since a notice writes ``EST`` for "estimated" too. Each name stands for the IANA zone whose clock
it is (``America/New_York`` for Eastern, standard or daylight alike: the writer means the local clock, and the tz
database gives that day's offset). A text that names two different zones names none. Pure.
"""

from __future__ import annotations

import re
from zoneinfo import ZoneInfo

_US = {"eastern": "America/New_York", "central": "America/Chicago", "mountain": "America/Denver",
       "pacific": "America/Los_Angeles", "alaska": "America/Anchorage", "hawaii": "Pacific/Honolulu"}
_ABBR = {"EST": "eastern", "EDT": "eastern", "ET": "eastern", "CST": "central", "CDT": "central", "CT": "central",
         "MST": "mountain", "MDT": "mountain", "MT": "mountain", "PST": "pacific", "PDT": "pacific", "PT": "pacific",
         "AKST": "alaska", "AKDT": "alaska", "HST": "hawaii"}
_FULL = re.compile(r"(?<!Australian )(?<!Australia )\b(?P<w>Eastern|Central|Mountain|Pacific|Alaska|Hawaii)(?:[- ]Aleutian)?\s+"
                   r"(?:(?:Standard|Daylight)\s+)?Time\b")
# (a clock as prose writes it, "10 a.m.", "8:30 PM", "17:30"; never a notice's date-time group, "2602201338 EST",
# whose EST is "estimated")
_AFTER_CLOCK = re.compile(r"(?<!\d)\d{1,2}(?:(?::\d\d)?\s*[aApP]\.?\s?[mM]\.?|:\d\d)\s*,?\s*\(?(?P<a>"
                          + "|".join(_ABBR) + r")\b(?![.-]\w)")


def zone_stated(text: str) -> tuple[ZoneInfo, str] | None:
    """The one IANA zone the names of time zones in ``text`` stand for, and the name as written; ``None`` when it
    names none or two different ones."""
    found: dict[str, str] = {}
    for m in _FULL.finditer(text):
        found.setdefault(_US[m.group("w").lower()], m.group())
    for m in _AFTER_CLOCK.finditer(text):
        found.setdefault(_US[_ABBR[m.group("a")]], m.group("a"))
    if len(found) != 1:
        return None
    (zone, written), = found.items()
    return ZoneInfo(zone), written
