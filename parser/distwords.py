"""Distances the number readers leave to context: a count written as a word (``TWO NM``) and a bare ``mile``.

- A word count (``ONE`` … ``TWELVE``, ``FIFTEEN``, ``TWENTY``, ``TWENTY-FIVE``, ``THIRTY``, ``FORTY``, ``FIFTY``,
  ``HUNDRED``) is that number, with the unit after it read as ``parser.units`` reads it.
- ``MILE(S)`` without ``NAUTICAL``/``STATUTE``: in a navigational warning it is the nautical mile (the convention of
  maritime safety information: NAVAREA, HYDROLANT/HYDROPAC, NAVTEX); anywhere else the statute mile, and the record
  says the unit was inferred.

``read_distance`` returns metres (exact arithmetic, rounded once) and the sentence saying what was inferred (``None``
when nothing was). Pure.
"""

from __future__ import annotations

import re
from fractions import Fraction

from airspace.parser.partial_time import is_warning
from airspace.parser.units import NM, SM, parse_distance_m_exact

_WORDS = {"ONE": 1, "TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9,
          "TEN": 10, "ELEVEN": 11, "TWELVE": 12, "FIFTEEN": 15, "TWENTY": 20, "TWENTY FIVE": 25, "TWENTY-FIVE": 25,
          "THIRTY": 30, "FORTY": 40, "FIFTY": 50, "HUNDRED": 100}
_WORD_DIST = re.compile(r"^\s*(?P<w>TWENTY[\s-]FIVE|[A-Z]+)(?P<rest>(?:\s|-).*)$", re.I | re.S)
_MILE = re.compile(r"^\s*(?P<num>\d+(?:\.\d+)?|\.\d+)(?:\s?|-)MILES?(?![A-Za-z])[\s.,;)]*$", re.I)


def read_distance(value: str, text: str) -> tuple[float, str | None]:
    """``value`` (a radius span) in metres and the inference note; ``ValueError`` when it is none of these forms."""
    s = " ".join(value.split())
    m = _MILE.match(s)
    if m is not None:
        if is_warning(text):
            return float(Fraction(m["num"]) * NM), None  # the warning's own unit: nothing inferred
        return (float(Fraction(m["num"]) * SM),
                f"radius {s!r}: 'mile' read as the statute mile (1609.344 m); the message does not say which mile")
    w = _WORD_DIST.match(s)
    if w is not None and (n := _WORDS.get(" ".join(w["w"].upper().replace("-", " ").split()))) is not None:
        rest = w["rest"].lstrip(" -")
        if _MILE.match(f"1 {rest}"):
            return read_distance(f"{n} {rest}", text)
        try:
            unit = parse_distance_m_exact(f"1 {rest}")
        except ValueError as exc:
            raise ValueError(f"not a distance: {s[:40]!r}") from exc
        return float(unit * n), None
    raise ValueError(f"not a distance: {s[:40]!r}")
