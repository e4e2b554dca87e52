"""Vertical limits: F)/G) items, ranges and single limits stated in free text, phrases in TFR pages and Chinese.

A range (``SFC-5000FT AMSL``, ``FM GND TO FL125``, ``GND/5000FT AMSL``) wins over single ``UP TO x`` / ``FM x``
forms; a bare height followed by its equivalent with a reference (``548M 1,800FT AMSL``) takes the one with it.
"""

from __future__ import annotations

import re

from airspace.core.contract import Span
from airspace.parser.header import Header
from airspace.parser.rules.patterns import (
    ALT,
    CN_UPPER,
    FLOORISH,
    LIM,
    LOWER_ONLY,
    RADIUS_NEXT,
    RANGE,
    RANGE_SLASH,
    UNL_WORD,
    UPPER_ONLY,
)
from airspace.parser.rules.zone import sp
from airspace.parser.units import (
    EU_AGL_WORDS,
    EU_AMSL_WORDS,
    EU_FEET_WORDS,
    EU_FL_WORDS,
    EU_SFC_WORDS,
    M_WORDS,
    parse_limit,
)


def slash_band(lo: str, hi: str) -> bool:
    """'GND/5000FT AMSL', 'FL125/5,700M AMSL', '100 ft AGL/3,500ft AMSL' are bands; '200FT AGL/211FT MSL' is one
    height written in two references (the values nearly equal), not a band."""
    if FLOORISH.match(lo.strip()):
        return True
    try:
        a, b = parse_limit(lo), parse_limit(hi)
    except ValueError:
        return False
    if b.ref == "UNL":
        return True
    return a.ft is not None and b.ft is not None and b.ft > 1.5 * a.ft + 100


_ALT_RE = re.compile(ALT, re.I)
_CEILING_WORD = re.compile(r"\b(?:BLW|BELOW|AT\s+OR\s+BELOW|NOT\s+ABOVE|MAX(?:IMUM)?|CEILING(?:\s+OF)?|UP\s+TO)\s*:?\s*$",
                           re.I)
_HAS_REF = re.compile(r"(?:AMSL|MSL|AGL|ASFC|AAL|ABOVE\s+(?:GROUND|(?:MEAN\s+)?SEA)\s+LEVEL)\s*$", re.I)


def _with_ref(text: str, span: Span, hi: int) -> Span:
    """A bare height followed by its equivalent with a reference ("548M 1,800FT AMSL"): take the one with it."""
    if _HAS_REF.search(span.text) or not re.match(r"[\d.,]", span.text):
        return span
    m = _ALT_RE.match(text, span.end + 1, hi) if span.end < hi and text[span.end] in " (/" else None
    if m is None and span.end + 2 <= hi and text[span.end : span.end + 2] in (" (", ", "):
        m = _ALT_RE.match(text, span.end + 2, hi)
    if m and _HAS_REF.search(m.group()):
        return sp(text, m.start(), m.end())
    return span


def limits_in(text: str, lo: int, hi: int) -> dict[str, Span]:
    """lower/upper stated in [lo, hi): a range first, else 'UP TO x' / 'FM x' forms."""
    out: dict[str, Span] = {}
    # (a limit after "below" is a ceiling, never a range's floor: "BLW 3,000 feet MSL - 9990m …"; a distance with no
    # reference before "radius"/"around" is a circle's radius, never a range's upper)
    m = next((x for x in RANGE.finditer(text, lo, hi)
              if not _CEILING_WORD.search(text, max(lo, x.start() - 20), x.start("lo"))
              and not (not _HAS_REF.search(x.group("hi")) and RADIUS_NEXT.match(text, x.end()))), None)
    m2 = next((x for x in RANGE_SLASH.finditer(text, lo, hi) if slash_band(x.group("lo"), x.group("hi"))), None)
    if m2 and (m is None or m2.start() < m.start()):
        m = m2
    if m:
        # (the lower's equivalent must end before the upper: "2500FT/5000FT AMSL" is a band, not one height)
        out["lower"] = _with_ref(text, sp(text, *m.span("lo")), m.start("hi"))
        out["upper"] = _with_ref(text, sp(text, *m.span("hi")), hi)
        return out
    m = UPPER_ONLY.search(text, lo, hi)
    if m:
        g = next(k for k in ("hi", "hi2", "hi3") if m.group(k))
        out["upper"] = _with_ref(text, sp(text, *m.span(g)), hi)
    m = LOWER_ONLY.search(text, lo, hi)
    if m and ("upper" not in out or m.start("lo") != out["upper"].start):
        out["lower"] = sp(text, *m.span("lo"))
    if "upper" not in out:
        m = CN_UPPER.search(text, lo, hi)
        if m:
            out["upper"] = sp(text, *m.span())
    return out


# a band in another language's words (German, French, Spanish, Portuguese, Italian): "Erdoberfläche bis 3600 Fuß
# über NN", "de 800 pieds (250 mètres) par rapport à la surface à 2 400 pieds …", "von FL110 bis FL150", "entre
# el suelo y 120 m"; read only where no English band or limit was found, so it never competes with one
_L = r"A-Za-zÀ-ÿ"
_EU_VALUE = (rf"(?<![\w.,])(?:\d{{1,3}}(?:[ .\u202f]\d{{3}})+|\d+)\s?(?:FT|FEET|M|{EU_FEET_WORDS}|{M_WORDS})(?![{_L}])"
             rf"(?:\s*\([^()\n]{{1,30}}\))?(?:\s+(?:{EU_AGL_WORDS}|{EU_AMSL_WORDS}|AMSL|MSL|AGL|GND|SFC)(?![{_L}]))?")
_EU_LIM = (rf"(?:(?<![{_L}])(?:{EU_SFC_WORDS}|GND|SFC)(?![{_L}])|\bFL\s?\d{{2,3}}\b|(?:{EU_FL_WORDS})\s?\d{{2,3}}\b"
           rf"|{_EU_VALUE})")
EU_RANGE = re.compile(
    rf"(?:(?:VON|AB|DE|DU|DESDE|ENTRE|ZWISCHEN|DA|DAL|DO)\s+)?(?:(?:EL|LA|LE|DEM|DER|IL|O)\s+)?(?P<lo>{_EU_LIM})\s*"
    rf"(?:BIS(?:\s+ZU)?|JUSQU['’]?\s?(?:[AÀ]|AU)|[AÀ]|AU|HASTA|AT[ÉE]|UND|ET|Y|E|-|–)\s+(?P<hi>{_EU_LIM})",
    re.I,
)


def eu_limits(text: str, lo: int, hi: int) -> dict[str, Span]:
    """A band written in another language's words in [lo, hi), when both its ends read as limits."""
    for m in EU_RANGE.finditer(text, lo, hi):
        try:
            parse_limit(m.group("lo"))
            parse_limit(m.group("hi"))
        except ValueError:
            continue
        return {"lower": sp(text, *m.span("lo")), "upper": sp(text, *m.span("hi"))}
    return {}


_PHRASE_SEP = re.compile(r"\s*(?:[-–—~～]|\bUP\s+TO\b|\bTO\b|\bTHROUGH\b|至|到)\s*", re.I)
# a lower-upper pair written as a phrase: TFR pages ("Altitude: From the surface up to but not including FL(180)")
# and Chinese notices (高度从地面至无限高, 真高0米至120米)
ALT_LINE = re.compile(r"\bAltitude\s*:\s*(?P<v>[^\n]{3,120})", re.I)
CN_LIMIT_PHRASE = re.compile(
    r"(?:(?:管控|管制|限制|禁飞|禁飛)?高度\s*[:：]\s*)?"  # a label ("管控高度：") before the phrase itself
    r"(?P<v>(?:真高|相对高度|相對高度|飞行高度|飛行高度|高度)\s*(?:为|為)?\s*(?:从|從|自)?[^，,。；;、\n]{1,30}?(?:至|到)"
    r"[^，,。；;、\n]{1,20})"
)


def phrase_limits(text: str, s: int, e: int) -> dict[str, Span]:
    """lower/upper spans of a phrase in [s, e) split at the first separator where both halves are limits."""
    for m in _PHRASE_SEP.finditer(text, s, e):
        a0, a1, b0, b1 = s, m.start(), m.end(), e
        while b1 > b0 and text[b1 - 1] in " .,;。，；\t\r":
            b1 -= 1
        while a0 < a1 and text[a0].isspace():
            a0 += 1
        if a1 <= a0 or b1 <= b0:
            continue
        try:
            parse_limit(text[a0:a1])
            parse_limit(text[b0:b1])
        except ValueError:
            continue
        return {"lower": sp(text, a0, a1), "upper": sp(text, b0, b1)}
    return {}


LINE_BREAK = re.compile(r"\n| {2,}")


_LABEL_END = re.compile(r"[A-Z][A-Z ]{2,30}:[ \t]*$")


def line_end(text: str, pos: int, hi: int) -> int:
    """End of the line holding ``pos`` (a newline or a collapsed-newline run of 2+ spaces). A run of blanks right
    after a label ("VERTICAL LIMITS:     SFC/2500FT AMSL") is a column gap, not a line break."""
    stop = min(hi, pos + 3000)  # (a 'line' longer than that is not a line)
    start = pos
    while (m := LINE_BREAK.search(text, start, stop)) is not None:
        if m.group() == "\n" or not _LABEL_END.search(text, max(pos, m.start() - 40), m.start()):
            return m.start()
        start = m.end()
    return stop


def item_limit(text: str, h: Header, letter: str) -> Span | None:
    it = h.item(letter)
    if not it or not it.text:
        return None
    m = re.compile(LIM, re.I).match(text, it.span.start, it.span.end)
    if m:
        return sp(text, m.start(), m.end())
    first = re.split(r"\n| {2,}", it.text, maxsplit=1)[0].rstrip(" .")
    return sp(text, it.span.start, it.span.start + len(first)) if first else None



def message_limits(text: str, h: Header, lo: int, hi: int) -> dict[str, Span]:
    """The limits every zone of the message shares unless it states its own: F)/G) first, else stated in the
    free text (item E, FAA text, prose, Chinese)."""
    out: dict[str, Span] = {}
    if (f := item_limit(text, h, "F")) is not None:
        out["lower"] = f
    if (g := item_limit(text, h, "G")) is not None:
        out["upper"] = g
    if len(out) == 2:
        return out
    # a Chinese pair written as a phrase first (高度从地面至无限高, 真高0米至120米: one reference word for both)
    m = CN_LIMIT_PHRASE.search(text)
    found = phrase_limits(text, *m.span("v")) if m else {}
    if not found:
        found = limits_in(text, lo, hi)
    if not found:
        found = eu_limits(text, lo, hi)
    if "upper" not in found:  # "Altitude: From the surface up to but not including FL(180)"
        m = ALT_LINE.search(text)
        if m and (ph := phrase_limits(text, *m.span("v"))):
            found = ph
    if "upper" not in found and "upper" not in out:
        cn = CN_UPPER.search(text)
        if cn:
            found["upper"] = sp(text, *cn.span())
    if "upper" not in found and "upper" not in out:  # "… NO UPPER LIMIT", 无限高: the word itself
        m = UNL_WORD.search(text, lo, hi)
        if m:
            found["upper"] = sp(text, *m.span())
    for k, v in found.items():
        out.setdefault(k, v)
    q = h.qline
    for k in ("lower", "upper"):  # stated nowhere else: item Q's own limit fields (flight levels, 000/999)
        qs = getattr(q, f"{k}_span", None) if q else None
        if k not in out and qs is not None and re.fullmatch(r"\d{3}", qs.text):
            out[k] = qs
    return out
