"""Geographic coordinates as written in aeronautical and Chinese notices -> decimal degrees (WGS84).

Forms read (each half may carry decimal seconds or decimal minutes):

- compact, hemisphere after: ``4809N01610E``, ``512107N 0003608W``, ``404108.00N0733635.00W``, ``112400S1065000E``
- compact, hemisphere first: ``N391100E1005400``, ``N480930 E0161028``
- spaced: ``52 38 00 S 163 00 00 E``; hemisphere first and spaced: ``S06 42 E089 16``
- separated: ``38-52-12N 077-02-11.5W``, ``51:30:15N 000:07:30W``; degrees and minutes: ``31-57.00N 077-01.00W``
- decimal degrees with hemisphere: ``11.5416° N 104.9200° E``, ``11.5416N 104.92E``
- degree/minute/second symbols (``°`` ``º`` ``˚`` ``′`` ``'`` ``″`` ``"``, ``''``): ``22°38′15″N 113°49′02″E``;
  a degree sign typed as the letter o, with signed minutes and the hemisphere after: ``44o 56' 00'' N``
- Chinese labels and units: ``北纬22°38′ 东经113°49′``, ``北纬22度38分15秒 东经113度49分2秒`` (either order),
  labelled decimals ``北纬22.990196,东经113.606186``; the axis labels ``经度``/``纬度`` (longitude/latitude, no
  hemisphere) read as E/N like signed decimal degrees (a minus sign gives W/S). A labelled value whose decimal point
  was written as a degree sign, ``經度113°606186"`` (5+ digits after ``°``, no minute mark), is 113.606186.
- signed decimal pairs without hemisphere letters, latitude first: ``22.5431, 114.0579``, ``-33.86 151.209``

The arithmetic is exact: degrees + minutes/60 + seconds/3600 is done in rationals and rounded once to float.
Each latitude half is paired with the longitude half right after it (only blanks, commas or slashes between, or a
single hyphen: ``370712N-0372046E``);
Chinese/symbol forms may also give the longitude first.

A coordinate with a damaged character in it (a control character, U+FFFD: ``textnorm.damaged_numbers``) is not
read: the character stands for something lost, so neither side of it is a coordinate.

A compact coordinate broken by a line wrap (``36242\n4N1262847E``, RKRR) is read through the break when neither
piece is a coordinate on its own and the joined token is a whole compact pair; its span then covers the break.
"""

from __future__ import annotations

import re
from fractions import Fraction
from functools import lru_cache
from typing import NamedTuple

from airspace.parser.textnorm import clean_with_map, damaged_numbers


class CoordMatch(NamedTuple):
    lat: float
    lon: float
    start: int  # offsets into the original text (half-open)
    end: int
    text: str


class _Half(NamedTuple):
    axis: str  # "lat" | "lon"
    value: Fraction
    start: int  # offsets into the cleaned text
    end: int
    explicit: bool  # symbol/decimal/Chinese forms (may come lon-first)
    lon: Fraction | None = None  # only for axis "pair" (a signed decimal lat/lon pair in one match)


_NUM = r"\d{1,2}(?:\.\d+)?"
_COMPACT_TAIL = r"(?P<m>\d{2})(?:(?P<s>\d{2})(?P<sf>\.\d+)?|(?P<mf>\.\d+))?"
_DEG_SIGN = r"(?:°|º|˚|度)"
_MIN_SIGN = r"(?:′|'|’|‘|分)"
_SEC_SIGN = r"(?:″|\"|”|''|′′|’’|秒)"
_CN_LABEL = {
    "北纬": "N", "北緯": "N", "南纬": "S", "南緯": "S",
    "东经": "E", "東經": "E", "东径": "E", "西经": "W", "西經": "W",
    "经度": "E", "經度": "E", "纬度": "N", "緯度": "N",
}
_CN_ALT = "|".join(_CN_LABEL)
# blanks between the parts of a spaced coordinate, or one line break with the blanks around it
_GAP = r"(?: +|[ \t]*\r?\n[ \t]*)"
# before the hemisphere letter: at most one blank, as before line breaks were read, or one line break
_HEMI_GAP = r"(?: ?|[ \t]*\r?\n[ \t]*)"

_NOT_SECONDS = r"(?![0-9]*[)）]|[0-9]*\s+(?i:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)\b)"

_PATTERNS: list[tuple[str, bool, re.Pattern[str]]] = [
    # compact, hemisphere after
    ("lat", False, re.compile(r"(?<![0-9.])(?P<d>\d{2})" + _COMPACT_TAIL + r"(?P<h>[NS])(?![A-Za-z])")),
    ("lon", False, re.compile(r"(?<![0-9.])(?P<d>\d{3})" + _COMPACT_TAIL + r"(?P<h>[EW])(?![A-Za-z])")),
    # compact, hemisphere first
    ("lat", False, re.compile(r"(?<![A-Za-z])(?P<h>[NS]) ?(?P<d>\d{2})" + _COMPACT_TAIL + r"(?![0-9])")),
    ("lon", False, re.compile(r"(?<![A-Za-z])(?P<h>[EW]) ?(?P<d>\d{3})" + _COMPACT_TAIL + r"(?![0-9])")),
    # spaced, hemisphere after; a line wrapped at a fixed width may break it at any of its blanks (never starting at a
    # clock's minutes: "…17:00 40.0631N" is a time, then a decimal latitude)
    # ("30 00\nS 154 08 W"): the hemisphere letter closes it, so a break cannot run it on into the next line's words
    ("lat", False, re.compile(
        rf"(?<![0-9.])(?<!\d:)(?P<d>\d{{1,2}}){_GAP}(?P<m>{_NUM})(?:{_GAP}(?P<s>{_NUM}))?{_HEMI_GAP}(?P<h>[NS])(?![A-Za-z])")),
    ("lon", False, re.compile(
        rf"(?<![0-9.])(?<!\d:)(?P<d>\d{{1,3}}){_GAP}(?P<m>{_NUM})(?:{_GAP}(?P<s>{_NUM}))?{_HEMI_GAP}(?P<h>[EW])(?![A-Za-z])")),
    # spaced, hemisphere first
    # (a full stop right after the last one ends the sentence: "…, N45 31 E008 25."; a number after it that is an
    # item's number or a date's day is not its seconds: "E107 01  2)  S05 53 …", "W007 37  06 AUG", "E121 44 18\\nJUN")
    ("lat", False, re.compile(
        rf"(?<![A-Za-z])(?P<h>[NS]) ?(?P<d>\d{{1,2}}) +(?P<m>{_NUM})(?: +(?P<s>{_NUM}){_NOT_SECONDS})?(?![0-9]|\.\d)")),
    ("lon", False, re.compile(
        rf"(?<![A-Za-z])(?P<h>[EW]) ?(?P<d>\d{{1,3}}) +(?P<m>{_NUM})(?: +(?P<s>{_NUM}){_NOT_SECONDS})?(?![0-9]|\.\d)")),
    # hyphen- or colon-separated DMS with the hemisphere glued: 38-52-12N 077-02-11.5W, 51:30:15N 000:07:30W
    ("lat", False, re.compile(
        r"(?<![0-9.\-:])(?P<d>\d{1,2})(?P<sp>[-:])(?P<m>\d{2})(?P=sp)(?P<s>\d{2}(?:\.\d+)?)(?P<h>[NS])(?![A-Za-z])")),
    ("lon", False, re.compile(
        r"(?<![0-9.\-:])(?P<d>\d{1,3})(?P<sp>[-:])(?P<m>\d{2})(?P=sp)(?P<s>\d{2}(?:\.\d+)?)(?P<h>[EW])(?![A-Za-z])")),
    # hyphen-separated degrees and decimal minutes, as NAVAREA / HYDROPAC warnings write them: 31-57.00N 077-01.00W
    ("lat", False, re.compile(
        r"(?<![0-9.\-:])(?P<d>\d{1,2})-(?P<m>\d{2})(?P<mf>\.\d+)?(?P<h>[NS])(?![A-Za-z])")),
    ("lon", False, re.compile(
        r"(?<![0-9.\-:])(?P<d>\d{1,3})-(?P<m>\d{2})(?P<mf>\.\d+)?(?P<h>[EW])(?![A-Za-z])")),
    # decimal degrees without a degree sign
    ("any", True, re.compile(r"(?<![0-9.])(?P<d>\d{1,3}\.\d+) ?(?P<h>[NSEW])(?![A-Za-z])")),
    # (a full stop after the number ends the sentence: "… TO N60.118 E10.864. GND TO …")
    ("any", True, re.compile(r"(?<![A-Za-z])(?P<h>[NSEW]) ?(?P<d>\d{1,3}\.\d+)(?![0-9]|\.\d)")),
    # a Chinese label before decimal degrees (degree sign optional, or standing for the decimal point)
    ("any", True, re.compile(
        rf"(?P<hp>{_CN_ALT})\s*[:：]?\s*(?P<sign>-)?(?P<d>\d{{1,3}}(?:\.\d+)?)"
        rf"(?:\s*{_DEG_SIGN}(?P<fr>\d{{5,}})\s*(?:\"|″|”)?|\s*{_DEG_SIGN})?(?![\d.′'’‘分°º˚度])")),
    # degree / minute / second symbols, hemisphere letter or Chinese label before or after
    ("any", True, re.compile(
        # (a Chinese label may repeat its hemisphere's letter: "北纬N23°07′10″、东经E113°15′20″")
        rf"(?:(?<![A-Za-z])(?P<hp>[NSEW]|(?:{_CN_ALT})(?:\s*[NSEW](?![A-Za-z]))?)\s*)?"
        rf"(?P<d>\d{{1,3}}(?:\.\d+)?)\s*{_DEG_SIGN}"
        # (minutes without their sign between a degree sign and signed seconds: "49° 28 00'' N", French decrees; or
        # right before the hemisphere letter, as a GPS writes decimal minutes: "51°37.24N 002°10.48W")
        rf"(?:\s*(?P<m>{_NUM})(?:\s*{_MIN_SIGN}(?!')|\s+(?={_NUM}\s*{_SEC_SIGN})|(?=[NSEW](?![A-Za-z]))))?"
        rf"(?:\s*(?P<s>{_NUM})\s*{_SEC_SIGN})?"
        rf"(?(hp)|(?:\s*(?P<hs>[NSEW])(?![A-Za-z]))?)")),
    # the degree sign typed as a letter o (a superscript o flattened by a legal-text mirror: "44o 56' 00'' N"): only
    # with signed minutes and a hemisphere letter after, so a word with a digit and an o is never read
    ("any", True, re.compile(
        rf"(?<![A-Za-z0-9.])(?P<d>\d{{1,3}})o\s*(?P<m>{_NUM})\s*{_MIN_SIGN}(?!')(?:\s*(?P<s>{_NUM})\s*{_SEC_SIGN})?"
        rf"\s*(?P<hs>[NSEW])(?![A-Za-z])")),
]

# signed decimal degrees without hemisphere letters ("22.5431, 114.0579", "-33.86882 151.20929"), as copied from a
# map app. Both numbers need >= 2 decimals with a comma between them, >= 3 with only blanks; radio frequencies
# (108..137 MHz) fail the latitude range check.
# (Chinese text may touch the numbers: "以25.057960, 102.685240半径0.8KM", so only ASCII word characters block)
_SIGNED_PAIR = re.compile(
    r"(?<![A-Za-z0-9_.\-+])(?:(?P<a>[-+]?\d{1,2}\.\d{2,})\s*[,，/]\s*(?P<b>[-+]?\d{1,3}\.\d{2,})"
    r"|(?P<a2>[-+]?\d{1,2}\.\d{3,})\s+(?P<b2>[-+]?\d{1,3}\.\d{3,}))(?![A-Za-z0-9_°º]|\.\d)")

# (a dash between latitude and longitude too: "48° 04'36.71'' N - 007° 21' 14.19'' E")
_PAIR_GAP = re.compile(
    r"[\s,/;，、\-–]{0,6}(?:(?:AND|LONGITUDE|LONG|LON|LNG|经度)\s*[:=：]?[\s,/;，、]{0,3})?", re.IGNORECASE)


def _half_from_match(axis: str, explicit: bool, m: re.Match[str]) -> _Half | None:
    g = m.groupdict()
    hemi = g.get("h")
    if hemi is None:
        hp, hs = g.get("hp"), g.get("hs")
        if (hp is None) == (hs is None):
            return None  # need exactly one hemisphere marker
        if hp is not None and hp[:2] in _CN_LABEL:
            letter = hp[2:].strip()
            if letter and letter != _CN_LABEL[hp[:2]]:
                return None  # a label and a letter that disagree ("北纬E23°…")
            hp = hp[:2]
        hemi = _CN_LABEL.get(hp, hp) if hp is not None else hs
    got_axis = "lat" if hemi in "NS" else "lon"
    if axis != "any" and axis != got_axis:
        return None
    if g.get("fr"):
        if "." in g["d"]:
            return None
        deg = Fraction(f"{g['d']}.{g['fr']}")  # 113°606186" = 113.606186
    else:
        deg = Fraction(g["d"])
    minutes = Fraction(g["m"] + (g.get("mf") or "")) if g.get("m") else Fraction(0)
    seconds = Fraction(g["s"] + (g.get("sf") or "")) if g.get("s") else Fraction(0)
    if g.get("m") and "." in g["d"]:
        return None  # decimal degrees followed by minutes is not a coordinate
    if minutes >= 60 or seconds >= 60 or (g.get("s") and "." in (g.get("m") or "")):
        return None
    value = deg + minutes / 60 + seconds / 3600
    if value > (90 if got_axis == "lat" else 180):
        return None
    if hemi in "SW":
        value = -value
    if g.get("sign") == "-":
        value = -value  # 经度-58.2: an axis label with a signed value
    return _Half(got_axis, value, m.start(), m.end(), explicit)


# a label's number before a coordinate ("ZONE 8 43.810136N, 79.900584W"): not the degrees of a spaced coordinate
_LABEL_BEFORE = re.compile(r"(?:\b(?:ZONE|AREA|SECTOR|ITEM|NO\.?|NR\.?)|#)[ \t]*$", re.I)
_SPACED_LEAD = re.compile(r"\d{1,3}\s")


def _next_label(clean: str, m: re.Match) -> bool:
    """Whether a spaced coordinate's seconds are the next number of the list it stands in ("1. … N40 22 W073 39 2.
    ceiling …"): a number followed by "." or ")" where the number before it labels an item not long before."""
    s = m.group("s")
    if not s.isdigit() or int(s) < 2 or not re.match(r"[.)]\s", clean[m.end("s") : m.end("s") + 2]):
        return False
    label = re.compile(rf"(?<![\w.]){int(s) - 1}[.)]\s")
    return label.search(clean, max(0, m.start() - 600), m.start()) is not None


def _halves(clean: str) -> list[_Half]:
    cands: list[_Half] = []
    for axis, explicit, pat in _PATTERNS:
        pos = 0
        while (m := pat.search(clean, pos)) is not None:
            if _SPACED_LEAD.match(m.group()) and _LABEL_BEFORE.search(clean, max(0, m.start() - 16), m.start()):
                pos = m.start() + 1  # (the coordinate may start at the next number)
                continue
            if m.groupdict().get("s") and _next_label(clean, m):
                m = pat.match(clean, m.start(), m.start("s")) or m
            pos = m.end()
            h = _half_from_match(axis, explicit, m)
            if h is not None:
                cands.append(h)
    for m in _SIGNED_PAIR.finditer(clean):
        lat, lon = Fraction(m["a"] or m["a2"]), Fraction(m["b"] or m["b2"])
        if abs(lat) <= 90 and abs(lon) <= 180:
            cands.append(_Half("pair", lat, m.start(), m.end(), True, lon))
    cands.sort(key=lambda h: (h.start, -(h.end - h.start)))
    chosen: list[_Half] = []
    last_end = -1
    for h in cands:
        if h.start >= last_end:
            chosen.append(h)
            last_end = h.end
    return chosen


def find_coords(text: str) -> list[CoordMatch]:
    """Every coordinate (a latitude paired with its longitude) in free text, in order, non-overlapping.

    Offsets and ``text`` refer to the original string (HTML entities and full-width characters are read
    through, not rewritten). Halves that are not part of a pair are ignored.
    """
    return list(_coords_of(text))


@lru_cache(maxsize=256)
def _coords_of(text: str) -> tuple[CoordMatch, ...]:
    # Pure in the text, and asked of the same message (and the same slices of it) by the geometry, the periods,
    # the area checks, the validator and the span repair: 3.4 times a message on the archive, the largest share of
    # the rules reader's time before it was kept. A tuple, so that no caller changes what the next one is given.
    clean, starts, ends = _join_wrapped(*clean_with_map(text))
    halves = _halves(clean)
    out: list[CoordMatch] = []
    i = 0
    while i < len(halves):
        a = halves[i]
        if a.axis == "pair":
            s, e = starts[a.start], ends[a.end - 1]
            out.append(CoordMatch(float(a.value), float(a.lon), s, e, text[s:e]))  # type: ignore[arg-type]
            i += 1
            continue
        if i + 1 >= len(halves):
            break
        b = halves[i + 1]
        gap_ok = b.axis != "pair" and _PAIR_GAP.fullmatch(clean, a.end, b.start) is not None
        pair = None
        if a.axis == "lat" and b.axis == "lon" and clean[a.end:b.start] == "-":
            gap_ok = True  # "370712N-0372046E" (LTAA): a hyphen inside the pair, never between pairs (lon-lat)
        if gap_ok and a.axis == "lat" and b.axis == "lon":
            pair = (a.value, b.value)
        elif gap_ok and a.axis == "lon" and b.axis == "lat" and a.explicit and b.explicit:
            pair = (b.value, a.value)
        if pair is None:
            i += 1
            continue
        s, e = starts[a.start], ends[b.end - 1]
        out.append(CoordMatch(float(pair[0]), float(pair[1]), s, e, text[s:e]))
        i += 2
    if damaged := damaged_numbers(text):
        # a damaged character inside a coordinate ("42\x002100N") is a lost digit or sign, not a separator: what
        # reads on either side of it is part of a number that cannot be read, never a coordinate of its own
        out = [c for c in out if not any(s <= c.end and c.start <= e for s, e in damaged)]
    return tuple(out)


# (a line break, or the blanks a collector collapses a line break into: "N3  50047E1200943", "N38 2024E0881200";
# only a run that joins into one compact pair, neither side a pair of its own, is taken for a break)
_WRAP = re.compile(r"(?<![\w.])(?P<left>[NS]?\d[\dNSEW.]*)(?P<brk>[ \t]*\r?\n[ \t]*| +)(?P<right>[\dNSEW.]+)(?![\w.])")
_COMPACT_PAIR = re.compile(
    r"\d{4}(?:\d{2})?(?:\.\d+)?[NS]\d{5}(?:\d{2})?(?:\.\d+)?[EW]|[NS]\d{4}(?:\d{2})?(?:\.\d+)?[EW]\d{5}(?:\d{2})?(?:\.\d+)?")


def _join_wrapped(clean: str, starts: list[int], ends: list[int]) -> tuple[str, list[int], list[int]]:
    """Drop a line break that splits one compact coordinate pair (``36242\\n4N1262847E``, ``N3  50047E1200943``),
    keeping the offset map."""
    drop: set[int] = set()
    for m in _WRAP.finditer(clean):
        joined = m["left"] + m["right"]
        if (_COMPACT_PAIR.fullmatch(joined) and not _COMPACT_PAIR.search(m["right"])
                and not _COMPACT_PAIR.search(m["left"])):
            drop.update(range(m.start("brk"), m.end("brk")))
    if not drop:
        return clean, starts, ends
    keep = [i for i in range(len(clean)) if i not in drop]
    return "".join(clean[i] for i in keep), [starts[i] for i in keep], [ends[i] for i in keep]


_EDGE = " \t\r\n,;:()[]{}.-/"


def parse_coord(text: str) -> tuple[float, float]:
    """Exactly one coordinate (surrounding blanks/punctuation allowed) -> ``(lat, lon)``; ``ValueError`` otherwise."""
    if not isinstance(text, str):
        raise ValueError(f"not a coordinate: {text!r}")
    found = find_coords(text)
    if not found:
        raise ValueError(f"no coordinate in {text.strip()[:60]!r}")
    if len(found) > 1:
        raise ValueError(f"{len(found)} coordinates in {text.strip()[:60]!r}, expected one")
    m = found[0]
    rest = (text[: m.start] + text[m.end :]).strip(_EDGE)
    if rest:
        raise ValueError(f"unexpected text {rest[:30]!r} around coordinate {m.text!r}")
    return m.lat, m.lon


# ---------------------------------------------------------------------------------------------------------------
# formatting (the inverse, for property tests and the synthetic corpus)

_STYLES = (
    "dm", "dms", "dms_space", "dms_dec", "hemi_first", "hemi_first_space", "spaced", "spaced_dm",
    "decimal_deg", "dms_symbols", "cn", "decimal_hemi", "decimal_signed",
)


def _split(value: float, units_per_deg: int) -> tuple[int, int]:
    """abs(value) rounded to 1/units_per_deg degree -> (whole degrees, remainder in those units)."""
    total = round(Fraction(abs(value)) * units_per_deg)
    return divmod(int(total), units_per_deg)


def format_coord(lat: float, lon: float, style: str) -> str:
    """Write ``(lat, lon)`` in one of the written forms ``parse_coord`` reads (rounded to the style's precision)."""
    if not (-90 <= lat <= 90 and -180 <= lon <= 180):
        raise ValueError(f"coordinate out of range: {lat}, {lon}")
    ns = "S" if lat < 0 else "N"
    ew = "W" if lon < 0 else "E"
    if style in ("dm", "spaced_dm", "cn"):
        (ad, am), (od, om) = _split(lat, 60), _split(lon, 60)
        if style == "dm":
            return f"{ad:02d}{am:02d}{ns}{od:03d}{om:02d}{ew}"
        if style == "spaced_dm":
            return f"{ns}{ad:02d} {am:02d} {ew}{od:03d} {om:02d}"
        cn_lat = "南纬" if ns == "S" else "北纬"
        cn_lon = "西经" if ew == "W" else "东经"
        return f"{cn_lat}{ad}°{am:02d}′ {cn_lon}{od}°{om:02d}′"
    if style in ("dms", "dms_space", "hemi_first", "hemi_first_space", "spaced", "dms_symbols"):
        (ad, ar), (od, orr) = _split(lat, 3600), _split(lon, 3600)
        am, as_ = divmod(ar, 60)
        om, os_ = divmod(orr, 60)
        la = f"{ad:02d}{am:02d}{as_:02d}"
        lo = f"{od:03d}{om:02d}{os_:02d}"
        if style == "dms":
            return f"{la}{ns}{lo}{ew}"
        if style == "dms_space":
            return f"{la}{ns} {lo}{ew}"
        if style == "hemi_first":
            return f"{ns}{la}{ew}{lo}"
        if style == "hemi_first_space":
            return f"{ns}{la} {ew}{lo}"
        if style == "spaced":
            return f"{ad:02d} {am:02d} {as_:02d} {ns} {od:03d} {om:02d} {os_:02d} {ew}"
        return f"{ad}°{am:02d}′{as_:02d}″{ns} {od}°{om:02d}′{os_:02d}″{ew}"
    if style == "dms_dec":
        (ad, ar), (od, orr) = _split(lat, 360000), _split(lon, 360000)
        am, acs = divmod(ar, 6000)
        om, ocs = divmod(orr, 6000)
        return (f"{ad:02d}{am:02d}{acs // 100:02d}.{acs % 100:02d}{ns}"
                f"{od:03d}{om:02d}{ocs // 100:02d}.{ocs % 100:02d}{ew}")
    if style in ("decimal_deg", "decimal_hemi"):
        (ad, af), (od, of) = _split(lat, 10000), _split(lon, 10000)
        if style == "decimal_hemi":
            return f"{ad}.{af:04d}{ns} {od}.{of:04d}{ew}"
        return f"{ad}.{af:04d}° {ns} {od}.{of:04d}° {ew}"
    if style == "decimal_signed":
        (ad, af), (od, of) = _split(lat, 1000000), _split(lon, 1000000)
        sla = "-" if lat < 0 and (ad or af) else ""
        slo = "-" if lon < 0 and (od or of) else ""
        return f"{sla}{ad}.{af:06d}, {slo}{od}.{of:06d}"
    raise ValueError(f"unknown coordinate style {style!r}; known: {', '.join(_STYLES)}")


STYLES = _STYLES
STYLE_PRECISION_DEG = {
    "dm": 1 / 60, "spaced_dm": 1 / 60, "cn": 1 / 60, "dms": 1 / 3600, "dms_space": 1 / 3600,
    "hemi_first": 1 / 3600, "hemi_first_space": 1 / 3600, "spaced": 1 / 3600, "dms_symbols": 1 / 3600,
    "dms_dec": 1 / 360000, "decimal_deg": 1 / 10000, "decimal_hemi": 1 / 10000, "decimal_signed": 1 / 1000000,
}
