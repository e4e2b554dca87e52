"""Distances the number readers leave to context: a count written as a word (``TWO NM``) and a bare ``mile``.

- A word count (``ONE`` … ``TWELVE``, ``FIFTEEN``, ``TWENTY``, ``TWENTY-FIVE``, ``THIRTY``, ``FORTY``, ``FIFTY``,
  ``HUNDRED``, and the same counts in Spanish, Portuguese, French, German and Italian: ``cinco millas náuticas``,
  ``drei Kilometer``, ``cinq kilomètres``) is that number, with the unit after it read as ``parser.units`` reads
  it.
- ``MILE(S)`` without ``NAUTICAL``/``STATUTE``: in a navigational warning it is the nautical mile (the convention of
  maritime safety information: NAVAREA, HYDROLANT/HYDROPAC, NAVTEX); anywhere else the statute mile, and the record
  says the unit was inferred.

- ``sm`` written small in a German notice (``Radius von 0,8 sm um Punkt …``) is the Seemeile, the nautical mile
  (``seemeile``): German aviation writes the statute mile nowhere; the record notes the convention.

- A distance written as the area's diameter (``in a diameter of 7.4 km``, ``a 10 km diameter``, ``im Durchmesser von
  6 km``, ``o průměru 7,4 kilometrů``, ``直径3公里``) is twice the radius (``diameter_at``): the normaliser halves it
  and says so.

``read_distance`` returns metres (exact arithmetic, rounded once) and the sentence saying what was inferred (``None``
when nothing was). Pure.
"""

from __future__ import annotations

import re
from fractions import Fraction

from airspace.parser.partial_time import is_warning
from airspace.parser.units import NM, SM, parse_distance_m, parse_distance_m_exact

_WORDS = {"ONE": 1, "TWO": 2, "THREE": 3, "FOUR": 4, "FIVE": 5, "SIX": 6, "SEVEN": 7, "EIGHT": 8, "NINE": 9,
          "TEN": 10, "ELEVEN": 11, "TWELVE": 12, "FIFTEEN": 15, "TWENTY": 20, "TWENTY FIVE": 25, "TWENTY-FIVE": 25,
          "THIRTY": 30, "FORTY": 40, "FIFTY": 50, "HUNDRED": 100}
# the counts written as words in the other languages whose notices and news are read (es, pt, fr, de, it), up to
# the words "ten" … "hundred" as for English; an article that is also "one" (un, une, um, ein) counts only before a
# unit, where it is the count
_WORDS_EU = {
    1: "uno una un um uma une ein eine einen einem",
    2: "dos dois duas deux zwei due", 3: "tres três trois drei tre", 4: "cuatro quatro quatre vier quattro",
    5: "cinco cinq fünf cinque", 6: "seis six sechs sei", 7: "siete sete sept sieben sette",
    8: "ocho oito huit acht otto", 9: "nueve nove neuf neun", 10: "diez dez dix zehn dieci",
    12: "doce doze douze zwölf dodici", 15: "quince quinze fünfzehn quindici", 20: "veinte vinte vingt zwanzig venti",
    25: "veinticinco vingt-cinq fünfundzwanzig venticinque", 30: "treinta trinta trente dreißig trenta",
    40: "cuarenta quarenta quarante vierzig quaranta", 50: "cincuenta cinquenta cinquante fünfzig cinquanta",
    100: "cien cem cent hundert cento",
}
WORDS_EU = {w: n for n, ws in _WORDS_EU.items() for w in ws.split()}
_WORD_DIST = re.compile(r"^\s*(?P<w>TWENTY[\s-]FIVE|vingt-cinq|[^\W\d_]+)(?P<rest>(?:\s|-).*)$", re.I | re.S)
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
    if w is not None and (n := _WORDS.get(" ".join(w["w"].upper().replace("-", " ").split()),
                                          WORDS_EU.get(w["w"].lower()))) is not None:
        rest = w["rest"].lstrip(" -")
        if _MILE.match(f"1 {rest}"):
            return read_distance(f"{n} {rest}", text)
        try:
            unit = parse_distance_m_exact(f"1 {rest}")
        except ValueError as exc:
            raise ValueError(f"not a distance: {s[:40]!r}") from exc
        return float(unit * n), None
    raise ValueError(f"not a distance: {s[:40]!r}")


def distance_m(value: str, text: str = "") -> float:
    """``value`` in metres as the normaliser reads a radius: digits and a unit, else a count in words or a bare mile
    (``read_distance``, in ``text``); ``ValueError`` when it is neither."""
    try:
        return parse_distance_m(value)
    except ValueError:
        return read_distance(value, text)[0]


_SM_SMALL = re.compile(r"^\s*(?P<num>\d+(?:,\d{1,2}|\.\d+)?)\s?sm(?![A-Za-z])[\s.,;)]*$")  # small letters only
_GERMAN = re.compile(r"\b(?:und|der|die|das|von|bis|mit|über|um|Fuß|Punkt|Gebiet\w*|Luftraum\w*|Flugbeschränkung\w*"
                     r"|Höhe\w*|Radius)\b")


def seemeile(value: str, text: str) -> tuple[float, str] | None:
    """``value`` in metres and the note saying so when it is ``<n> sm`` in a German notice (three or more of its
    common words), else None."""
    m = _SM_SMALL.match(value)
    if m is None or len({w.lower() for w in _GERMAN.findall(text)}) < 3:
        return None
    num = Fraction(m["num"].replace(",", "."))
    return (float(num * NM),
            f"radius {' '.join(value.split())!r}: 'sm' read as the Seemeile (1852 m), as German notices write it")


# the word for a diameter, in the languages whose notices and news are read
_DIAMETER = (r"(?:diameter|durchmesser|diam[èe]tre|di[áa]metro|diâmetro|diametro|pr[ůu]m[ěe]r[a-zěů]*|[śs]rednic[a-zęy]*"
             r"|диаметр[а-яё]*|直径|直徑|직경)")
# the word right before the distance: "a diameter of (about) 10 km", "o průměru 7,4 km", "直径约3公里"
_DIAMETER_BEFORE = re.compile(
    rf"{_DIAMETER}\s*(?:(?:of|von|de|di|van|på|af|with|с|в)\s+)?(?:(?:about|approximately|approx\.|around|some|ca\.|circa"
    r"|etwa|rund|environ|unos|cerca\s+de|около|约为|约|約|为|為|:)\s*)?$", re.I)
# or right after it, past its unit: "a 10-kilometre diameter", "10 km in diameter", "6 km Durchmesser", "5 km de diamètre"
_DIAMETER_AFTER = re.compile(rf"^[\s-]*(?:[^\W\d_]{{1,12}}\.?[\s-]+)?(?:(?:in|de|im|of)\s+)?{_DIAMETER}", re.I)


def diameter_at(text: str, start: int, end: int) -> str | None:
    """The words that say the distance ``text[start:end]`` is a diameter, not a radius, if they stand right beside
    it (``None`` otherwise)."""
    if (b := _DIAMETER_BEFORE.search(text, max(0, start - 40), start)) is not None:
        return " ".join(text[b.start():end].split())
    if (a := _DIAMETER_AFTER.match(text[end:end + 30])) is not None:
        return " ".join(text[start:end + a.end()].split())
    return None
