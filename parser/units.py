"""Distances and vertical limits as written in notices -> metres/feet, exactly.

Distances: NM (``1NM``, ``.5NM``, ``2.2NM``), KM, M/MTR, FT, statute miles (SM), Chinese 公里/千米/米/海里; a bare
number is NM (the Q-line radius ``021``); a distance with a minus sign on it (``-2NM``) is refused. ``FL999`` is
read as unlimited (the code for no upper limit), not 99,900 ft. Limits: SFC, GND, UNL, ``FL130``, ``3000FT AMSL``, ``500FT MSL`` (MSL is
AMSL), ``400FT AGL``, ``900M AMSL``, ``真高120米`` (true height = AGL), thousands separators (``1,500FT``,
``12 200 m``), ``FL(180)`` / ``FLIGHT LEVEL 180``, ``MSL`` alone (= 0 ft AMSL), ``无限高`` (UNL), qualifiers such as
``(含)`` and ``UP TO BUT NOT INCLUDING``. ``parse_limit_range`` reads a lower-upper pair (``SFC-FL180``,
``高度从地面至无限高``, ``From the surface up to but not including FL(180)``). Conversions go through rationals:
1 ft = 0.3048 m and 1 NM = 1852 m exactly.
"""

from __future__ import annotations

import re
from fractions import Fraction

from airspace.core.records import Limit
from airspace.parser.textnorm import clean

FT = Fraction("0.3048")
NM = Fraction(1852)
SM = Fraction("1609.344")

# a number: plain, leading-dot decimal, or with thousands separators (comma, space, thin space, apostrophe)
# (or with a decimal comma: "5,9NM", one or two digits after the comma)
_NUMBER = r"(?:\d{1,3}(?:[,\u2009\u202f' ]\d{3})+(?:\.\d+)?|\d+,\d{1,2}(?!\d)|\d+(?:\.\d+)?|\.\d+)"

NM_WORDS = (r"NAUTISCHEN?\s+MEILEN?|SEEMEILEN?|MILLES?\s+NAUTIQUES?|MILLAS?\s+N[AÁ]UTICAS?|MILHAS?\s+N[AÁ]UTICAS?"
            r"|MIGLI[AO]\s+NAUTIC[HO]E?|ไมล์ทะเล|MIL[EI]?\s+MORSK(?:ICH|IE|A)|NÁMOŘNÍCH\s+MIL|NÁMOŘNÍ\s+MÍLE"
            r"|ΝΑΥΤΙΚ[ΑΆ]\s+Μ[ΙΊ]ΛΙ[ΑΆ]|ΝΑΥΤΙΚ[ΩΏ]Ν\s+Μ[ΙΊ]Λ[ΙΊ]ΩΝ")
KM_WORDS = (r"KILOMETERN|KILOM[ÈÉ]TRES?|KIL[ÓO]METROS?|QUIL[ÔO]METROS?|CHILOMETR[IO]|КМ|КИЛОМЕТР(?:ОВ|А)?|킬로미터|킬로|キロメートル|㎞"
            r"|กิโลเมตร|ก\.ม\.|กม\.|KILOMETR(?:ÓW|ŮM|Ů|ACH|AMI|ECH|EM|Y|U|A|OV|OCH)?|ΧΙΛΙΟΜ[ΕΈ]ΤΡ(?:ΩΝ|Α|Ο)|ΧΛΜ\.?")
M_WORDS = r"METERN|M[ÈÉ]TRES?|METROS?|METRI|미터|メートル|เมตร"
_DIST_UNITS: list[tuple[str, Fraction]] = [
    (r"NAUTICAL[\s-]+MILES?|NMI|NMR|N\.\s?M\.?|NM", NM),
    (r"海里|浬|해리", NM),
    # (the nautical mile as notices in other languages write it: German, French, Spanish, Portuguese, Italian)
    (NM_WORDS, NM),
    (r"KILOMET(?:ER|RE)S?|KMS?", Fraction(1000)),
    (KM_WORDS, Fraction(1000)),
    (r"公里|千米", Fraction(1000)),
    (r"STATUTE[\s-]+MILES?|SM", SM),
    (r"MET(?:ER|RE)S?|MTRS?|M", Fraction(1)),
    (M_WORDS, Fraction(1)),
    (r"米", Fraction(1)),
    (r"FEET|FOOT|FT", FT),
]
_DIST_UNIT_RE = "|".join(f"(?:{u})" for u, _ in _DIST_UNITS)
_DIST = re.compile(
    rf"^[\s:=\-]*(?:(?:RADIUS|RAD|OF|WI|WITHIN|半径|半徑|为|為|向四周辐射|向四周輻射|向四周|辐射|輻射|周边|周邊|周围|周圍|四周|"
    rf"沿线两侧|沿線兩側|两侧|兩側|方圆|方圓|外扩|外擴|延伸)[\s:=\-]*)*"
    rf"(?:(?<!-)(?P<num>{_NUMBER})(?:-(?=[A-Za-z])|\s*)(?P<unit>{_DIST_UNIT_RE})?|(?P<cnum>[零〇一二两兩三四五六七八九十百千万萬]+)\s*(?P<cunit>公里|千米|米|海里|キロメートル|メートル))"
    rf"(?P<rest>(?![A-Za-z]).*)$",
    re.IGNORECASE | re.DOTALL,
)
_REST_OK = re.compile(
    r"^[\s.,;)]*(?:\(.*\))?[\s.,;)]*(?:RADIUS|RAD|"
    r"(?:EITHER|EACH|BOTH)\s+SIDES?(?:\s+OF(?:\s+THE)?(?:\s+(?:LINE|CENT(?:RE|ER)\s?LINE|ROUTE|TRACK|COURSE))?)?|"
    r"(?:的|范围|範圍|区域|區域|空域|以内|以內|内|內|全部|所有|上空)*)?[\s.,;。，]*$", re.DOTALL | re.IGNORECASE)


_CN_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7,
              "八": 8, "九": 9}
_CN_UNITS = {"十": 10, "百": 100, "千": 1000, "万": 10000, "萬": 10000}
_CN_NUMBER = "[零〇一二两兩三四五六七八九十百千万萬]+"


def cn_number(text: str) -> int:
    """Chinese numerals (``两``, ``十五``, ``一百二十``, ``三千``) -> int. ``ValueError`` if malformed."""
    total, section, digit = 0, 0, None
    for ch in text:
        if ch in "零〇":
            continue  # a place-holder zero: 一百零五 = 105
        if ch in _CN_DIGITS:
            if digit is not None:
                raise ValueError(f"not a Chinese number: {text!r}")
            digit = _CN_DIGITS[ch]
        elif ch in _CN_UNITS:
            unit = _CN_UNITS[ch]
            if unit == 10000:
                total += (section + (digit or 0)) * unit
                section = 0
            else:
                section += (1 if digit is None else digit) * unit
            digit = None
        else:
            raise ValueError(f"not a Chinese number: {text!r}")
    return total + section + (digit or 0)


def _number(text: str) -> Fraction:
    if re.fullmatch(_CN_NUMBER, text):
        return Fraction(cn_number(text))
    if re.fullmatch(r"\d+,\d{1,2}", text):  # a decimal comma
        return Fraction(text.replace(",", "."))
    return Fraction(re.sub(r"[,\u2009\u202f' ]", "", text))


def _unit_factor(unit: str) -> Fraction:
    for pattern, factor in _DIST_UNITS:
        if re.fullmatch(pattern, unit, re.IGNORECASE):
            return factor
    raise ValueError(f"unknown unit {unit!r}")


_NEGATIVE = re.compile(r"^[\s:=]*-\d")  # "-2NM": a minus sign on the number, not a separator ("RADIUS - 2NM")


def negative_before(text: str, start: int) -> bool:
    """Whether the number at ``text[start]`` carries a minus sign written against it (``WI -2NM RADIUS``): a
    ``-`` or ``\u2212`` right before it, with a blank, an opening bracket or the start of the text before that."""
    return start >= 1 and text[start - 1] in "-\u2212" and (start < 2 or text[start - 2] in " \t\n(:")


def parse_distance_m_exact(text: str) -> Fraction:
    """Like ``parse_distance_m`` but returns the exact rational number of metres."""
    if not isinstance(text, str):
        raise ValueError(f"not a distance: {text!r}")
    s = clean(text).strip()
    if _NEGATIVE.match(s):
        raise ValueError(f"a distance cannot be negative: {text.strip()[:40]!r}")
    m = _DIST.match(s)
    if not m or not _REST_OK.match(m.group("rest")):
        raise ValueError(f"not a distance: {text.strip()[:40]!r}")
    if m.group("cnum"):
        value = Fraction(cn_number(m.group("cnum"))) * _unit_factor(m.group("cunit"))
    else:
        unit = m.group("unit")
        factor = NM if unit is None else _unit_factor(unit)
        value = _number(m.group("num")) * factor
    if value <= 0:
        raise ValueError(f"distance must be positive: {text.strip()[:40]!r}")
    return value


def parse_distance_m(text: str) -> float:
    """A distance with its unit -> metres. A bare number is NM. ``ValueError`` on anything else."""
    return float(parse_distance_m_exact(text))


# ---------------------------------------------------------------------------------------------------------------
# vertical limits

_LEAD = (r"^[\s:=\-]*(?:(?:UP\s+TO|TO|FM|FROM|BLW|BELOW|ABV|ABOVE|HGT|HEIGHT|ALT|ALTITUDE|AT|OR|AND|INCL|"
         r"INCLUDING|BUT|NOT|EXCL|EXCLUDING|UPPER|LOWER|LIMITS?|MAX(?:IMUM)?|THE|"
         r"VERTICAL\s+LIMITS?|ALTITUDE\s+LIMITS?)\b[\s:=\-]*|(?:高度|飞行高度|飛行高度|从|從|自|由)\s*[:：]?\s*)*")
# after the value: a parenthesised restatement or qualifier ("(1524M)", "(含)", "(EXCLUDED)"), inclusive/exclusive
# words, "OR BELOW"; none of them changes the value
_TAIL = (r"[\s.,;。，]*(?:(?:\([^()]*\)|（[^（）]*）|INCL(?:USIVE|UDED)?|EXCL(?:USIVE|UDED)?|"
         r"(?:OR|AND)\s+(?:BELOW|ABOVE|BLW|ABV|LOWER|HIGHER)|以下|以上|以内|以內)[\s.,;。，]*)*$")
# the surface, the references and the foot as notices in other languages write them (German, French, Spanish,
# Portuguese, Italian): "Erdoberfläche bis 3600 Fuß über NN", "800 pieds par rapport à la surface"
EU_SFC_WORDS = (r"ERDOBERFL[ÄA]CHE|BODEN|GRUND|(?:LA\s+)?SURFACE|(?:LE\s+)?SOL|SUELO|TERRENO|SOLO|SUPERF[IÍ]CIE"
                r"|SUOLO")
EU_AGL_WORDS = (r"[ÜU]BER\s+(?:GRUND|GND|BODEN)|PAR\s+RAPPORT\s+(?:[AÀ]\s+LA\s+SURFACE|AU\s+SOL)"
                r"|AU[\s-]DESSUS\s+DU\s+SOL"
                r"|SOBRE\s+EL\s+(?:TERRENO|SUELO)|ACIMA\s+DO\s+(?:SOLO|TERRENO)|SOPRA\s+IL\s+SUOLO")
EU_AMSL_WORDS = (r"[ÜU]BER\s+(?:NN|MSL|DEM\s+MEERESSPIEGEL|MEERESH[ÖO]HE)"
                 r"|(?:AU[\s-]DESSUS\s+DU|PAR\s+RAPPORT\s+AU)\s+NIVEAU\s+(?:MOYEN\s+)?DE\s+LA\s+MER|SOBRE\s+EL\s+NIVEL\s+(?:MEDIO\s+)?DEL\s+MAR"
                 r"|ACIMA\s+DO\s+N[IÍ]VEL\s+(?:M[EÉ]DIO\s+)?DO\s+MAR|SUL\s+LIVELLO\s+(?:MEDIO\s+)?DEL\s+MARE")
EU_FEET_WORDS = r"FU(?:SS|ß)|PIEDS?|PIES|P[EÉ]S|PIEDI"
EU_FL_WORDS = r"NIVEAU\s+DE\s+VOL|FLUGFL[ÄA]CHE|NIVEL\s+DE\s+VUELO|N[IÍ]VEL\s+DE\s+VOO|LIVELLO\s+DI\s+VOLO"
_SFC = re.compile(_LEAD + r"(?P<ref>SFC|SURFACE|GND|GROUND(?:\s+LEVEL)?|地面|地表|" + EU_SFC_WORDS + r")"
                  r"(?:\s*/\s*(?:SFC|GND|SURFACE|GROUND))?"
                  + _TAIL, re.IGNORECASE)
_MSL = re.compile(_LEAD + r"(?:MSL|(?:MEAN\s+)?SEA\s+LEVEL|海平面)" + _TAIL, re.IGNORECASE)
_UNL = re.compile(_LEAD + r"(?:UNL|UNLTD|UNLIMITED|UNLIMTED|(?:无限|無限)(?:高度?|制)?)" + _TAIL, re.IGNORECASE)
_FL = re.compile(_LEAD + r"(?:FL|FLIGHT\s+LEVEL|" + EU_FL_WORDS + r"|F(?=\d{3}\b))\s*(?P<open>\()?\s*(?P<num>\d{1,3})\s*(?(open)\))" + _TAIL,
                 re.IGNORECASE)
_ALT_HUNDREDS = re.compile(_LEAD + r"A(?P<num>\d{3})\b" + _TAIL, re.IGNORECASE)  # ICAO "A050": 5000 ft altitude
# a height from the ground (距地表高度, as Taiwan's notices write it: above ground, as 真高 is), "not exceeding" a value,
# and the foot as Taiwan and Hong Kong write it (呎)
CN_FROM_GROUND = r"(?:距地表|距地面|離地面?|离地面?)"
CN_NOT_OVER = r"(?:不逾|不超過|不超过|不高於|不高于)"
CN_FEET = ("英尺", "英呎", "呎", "피트")
_CN = re.compile(
    # (and Korean: "고도 150m", "지상 150미터", "비행고도 500피트")
    r"^\s*(?:飞行|飛行|비행)?(?P<pre>" + CN_FROM_GROUND + r"?(?:真高|相对高度|相對高度|海拔高度|海拔|标高|標高|高度"
    r"|지상\s*고도|지상(?:으로부터)?|고도|높이)?)"
    r"\s*[:：]?\s*" + CN_NOT_OVER + r"?\s*"
    r"(?P<num>" + _NUMBER + "|" + _CN_NUMBER + r")\s*(?P<unit>米|公尺|미터|m|M|" + "|".join(CN_FEET) + r")"
    r"\s*(?P<post>真高|海拔)?" + _TAIL)
_REF_WORDS = r"AMSL|MSL|AGL|ASFC|AAL|SFC|GND|ALT|ABOVE\s+GROUND\s+LEVEL|(?:ABOVE\s+)?MEAN\s+SEA\s+LEVEL"
_VALUE = re.compile(
    _LEAD + r"(?P<num>" + _NUMBER + r")\s*(?P<unit>FEET|FOOT|FT|METERS?|METRES?|MTRS?|M|'|’|" + EU_FEET_WORDS + "|"
    + M_WORDS + r")(?![A-Za-zÀ-ÿ])\.?"
    # a restatement in the other unit before the reference: "400FT/120M AGL", "800 pieds (250 mètres) par rapport …"
    r"(?:\s*/\s*" + _NUMBER + r"\s*(?:FEET|FOOT|FT|METERS?|METRES?|MTRS?|M)(?![A-Za-z])\.?"
    r"|\s*\(\s*" + _NUMBER + r"\s*(?:FEET|FOOT|FT|METERS?|METRES?|MTRS?|M|" + EU_FEET_WORDS + "|" + M_WORDS
    + r")(?![A-Za-zÀ-ÿ])\.?\s*\))?"
    r"\s*(?:(?P<ref>" + _REF_WORDS + r")|(?P<eagl>" + EU_AGL_WORDS + r")|(?P<eamsl>" + EU_AMSL_WORDS + r")"
    r"|\(\s*(?P<pref>" + _REF_WORDS + r")\s*\))?"
    + _TAIL,
    re.IGNORECASE,
)
_REF_MAP = {"AMSL": "AMSL", "MSL": "AMSL", "ALT": "AMSL", "AGL": "AGL", "ASFC": "AGL", "SFC": "AGL", "GND": "AGL",
            "AAL": "AGL"}


def _limit(ref: str, value: Fraction, metres: bool, raw: str) -> Limit:
    if metres:
        m, ft = value, value / FT
    else:
        ft, m = value, value * FT
    return Limit(ref=ref, ft=float(ft), m=float(m), raw=raw)


def parse_limit(text: str) -> Limit:
    """One vertical limit -> ``Limit`` (ft and m exact, ``raw`` = the input). ``ValueError`` on anything else."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("empty vertical limit")
    raw = text
    s = re.sub(r"^\s*[FG]\)\s*", "", clean(text)).strip()  # "F) MSL": the item letter copied along
    if (m := _SFC.match(s)) is not None:
        ref = m.group("ref").upper()
        return Limit(ref="GND" if ref in ("GND", "GROUND", "地面") else "SFC", ft=0.0, m=0.0, raw=raw)
    if _UNL.match(s):
        return Limit(ref="UNL", ft=None, m=None, raw=raw)
    if _MSL.match(s):
        return Limit(ref="AMSL", ft=0.0, m=0.0, raw=raw)  # "F) MSL": mean sea level itself
    if (m := _FL.match(s)) is not None:
        if int(m.group("num")) == 999:  # FL999 is the code for "no upper limit", as 999 is in item Q
            return Limit(ref="UNL", ft=None, m=None, raw=raw)
        return _limit("FL", Fraction(int(m.group("num")) * 100), False, raw)
    if (m := _CN.match(s)) is not None:
        words = (m.group("pre") or "") + (m.group("post") or "")
        ref = "AGL" if re.search(r"真高|相[对對]|距地|[離离]地|지상", words) else "AMSL"
        metres = m.group("unit") not in CN_FEET
        return _limit(ref, _number(m.group("num")), metres, raw)
    if (m := _ALT_HUNDREDS.match(s)) is not None:
        return _limit("AMSL", Fraction(int(m.group("num")) * 100), False, raw)
    if (m := _VALUE.match(s)) is not None:
        unit = m.group("unit").upper()
        ref_word = " ".join((m.group("ref") or m.group("pref") or "AMSL").upper().split())
        ref = "AGL" if ref_word == "ABOVE GROUND LEVEL" or m.group("eagl") else _REF_MAP.get(ref_word, "AMSL")
        num = m.group("num")
        if re.fullmatch(r"\d{1,3}(?:\.\d{3})+", num):
            num = num.replace(".", "")  # "5.000FT": a dot as thousands separator (no limit is 5.000 ft)
        feet = unit.startswith(("F", "P")) or unit in "'’"  # (FT, FUSS, PIEDS, PÉS: the foot in any language)
        return _limit(ref, _number(num), not feet, raw)
    raise ValueError(f"not a vertical limit: {text.strip()[:40]!r}")


def parse_qline_limit(digits: str) -> Limit:
    """A Q-line limit field (3 digits, flight levels): ``000`` is the surface, ``999`` unlimited, else FLnnn.
    ``ValueError`` on anything else."""
    if not re.fullmatch(r"\d{3}", digits.strip()):
        raise ValueError(f"not a Q-line limit: {digits.strip()[:40]!r}")
    n = int(digits)
    if n == 0:
        return Limit(ref="SFC", ft=0.0, m=0.0, raw=digits)
    if n == 999:
        return Limit(ref="UNL", ft=None, m=None, raw=digits)
    return _limit("FL", Fraction(n * 100), False, digits)


_RANGE_SEP = re.compile(r"\s*(?:[-\u2013\u2014~～]|\bUP\s+TO\b|\bTO\b|\bTHROUGH\b|至|到)\s*", re.IGNORECASE)


def parse_limit_range(text: str) -> tuple[Limit, Limit]:
    """A lower-upper pair in one phrase -> ``(lower, upper)``; ``ValueError`` unless both halves read.

    Tries each separator (``-``, en dash, ``TO``, ``UP TO``, ``至``, ``到``) until both sides are limits:
    ``SFC-FL180``, ``SFC-17999FT MSL``, ``2500FT AMSL–4500FT AMSL``, ``高度从地面至无限高`` (SFC-UNL),
    ``From the surface up to but not including FL(180)``. Each returned ``raw`` is that half's text.
    """
    if not isinstance(text, str) or not text.strip():
        raise ValueError("empty vertical limits")
    s = clean(text)
    for m in _RANGE_SEP.finditer(s):
        lo, hi = s[: m.start()].strip(), s[m.end():].strip()
        if not lo or not hi:
            continue
        try:
            upper = parse_limit(_shared_words(lo, hi))
            try:
                lower = parse_limit(lo)
            except ValueError:
                # "1000-2000FT AMSL": the unit and reference are written once, after the upper value
                if not re.fullmatch(_NUMBER, lo) or (u := re.match(rf"\s*{_NUMBER}\s*(.+)$", hi)) is None:
                    raise
                lower = _with_raw(parse_limit(f"{lo} {u.group(1)}"), lo)
            return lower, _with_raw(upper, hi)
        except ValueError:
            continue
    raise ValueError(f"not a lower-upper pair: {text.strip()[:40]!r}")


_CN_PRE = re.compile(r"^\s*(?:飞行|飛行)?(真高|相对高度|相對高度|海拔高度|海拔|标高|標高)")


def _shared_words(lo: str, hi: str) -> str:
    """``真高0米至1000米``: a Chinese reference word written once before the pair applies to both halves."""
    if (m := _CN_PRE.match(lo)) is not None and _CN_PRE.match(hi) is None and re.match(r"\s*[\d.]", hi):
        return m.group(1) + hi
    return hi


def _with_raw(limit: Limit, raw: str) -> Limit:
    return limit.model_copy(update={"raw": raw})
