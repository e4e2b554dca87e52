"""The deterministic rules extractor: message -> zones in the engine output format (verbatim spans).

It reads the FORMATS, not particular messages:

- ICAO NOTAMs: geometry from item E (circles, polygons with arcs and named points, composite lists of centres),
  limits from F)/G) (or stated in E), times from B)/C), schedule from D); the Q-line circle only as a fallback.
- FAA domestic NOTAMs (``!BOS 01/502 …``): geometry and ``SFC-400FT AGL`` limits from the text, times from the
  trailing ``YYMMDDHHMM-YYMMDDHHMM``.
- FAA TFR web prose (``Beginning Date and Time : …``, ``From the surface up to and including 18000 feet MSL``).
- Chinese notices (``以<地名>为中心，半径2公里``, 北纬/东经, 真高…米, ``2024年9月10日12时至…24时``).

Geometry roles, decided in this order over the coordinates the coordinate finder reports:

0. *sector / semicircle* — a centre, a radius and two bounding bearings (``SECTOR CENTRE c AZM 030-120 DEG RADIUS
   10KM``, ``WI 5NM RADIUS OF c BTN BRG 090 AND 180``), or ``SEMICIRCLE, P - A CLOCKWISE 3NM ARC CENTERED ON C``
   (with ``EXC A CIRCLE RADIUS r CENTERED ON C`` in the same span): one polygon span, built by
   ``polygon.parse_sector``;
1. *plural centres* — ``WI 1KM RADIUS CENTERED PSNS c1 c2 …``: every coordinate after the phrase is the centre of
   its own circle with that radius (a limit on a centre's own line, ``UP TO 1,600FT AMSL``, is that zone's own);
2. *polygon* — a run of three or more vertices joined only by separators (``-``, ``TO``, ``,``, blanks), by arc
   clauses (``ARC RADIUS OF 5KM CENTRED ON c``) or by named points (``-GURIN-``); closing words
   (``BACK TO START``) and named points at either end are kept in the span so the polygon normaliser sees them
   (and sends unresolvable named points to review);
3. *circle* — a coordinate and the nearest ``RADIUS`` / ``WI <dist> OF`` / 半径 mention around it; a circle
   ``AROUND THE LAUNCHER`` takes the one position left over (the name goes along; validation says so);
4. *point* — a coordinate with no extent (obstacles: ``TOWER … 1152FT (155FT AGL)``): a zone with a centre and no
   radius, its AGL height as upper limit; validation sends it to review because it has no lateral extent. We keep
   it rather than drop it: an obstacle is still a hazard the operator should see.

Per-zone values: when a message has several zones, a limit or a time pair stated on a zone's own line (or, for
a limit, right after its centre: ``PSN c TO 1,500 FT AMSL``) is that zone's own; otherwise F)/G), B)/C), D) (or the
message's free-text statements) are shared by all zones.

With no coordinates in the text, in this order: an aerodrome identifier with a radius (``.5NM RADIUS OF ATL``,
``14KM RADIUS RJTT AERODROME``); a place name in prose (``within 0.4NM of Wembley Stadium``) or Chinese
(``以X为中心``, ``X及周边500米``, ``X，半径3公里``, ``X周边``, ``X上空``); the Q-line circle (coarse); a named area
switched on (``R5206 ACT``, ``VAD 8 (BERCHHA) ACT``) when the Q-line has no coordinate or a 999 NM radius; a FIR
named with its indicator (``NOT TO ENTER FIR TRIPOLI (HLLL)``); the A) location indicator (the pipeline resolves
identifiers through ``airportsdata``: approximate, review; never when A) is the Q-line's own FIR, whose code an
airport may share). The Q-line and A) fallbacks apply only to notices about
an area: a Q-code subject M/F/I/L/N/C/P/S/G/O (movement area, facilities, navaids, procedures, services…) without
coordinates is an aerodrome/procedure notice and yields no zone (the record says so). Place names are never
geocoded.
"""

from __future__ import annotations

import re
import time
from bisect import bisect_left, bisect_right
from dataclasses import dataclass

from airspace.core.contract import Span, ZoneDraft
from airspace.parser.coords import CoordMatch, find_coords
from airspace.core.contract import Answer, EngineError, ExtractStats
from airspace.parser.header import Header, parse_header
from airspace.parser.places import resolve_icao
from airspace.parser.polygon import BEARINGS, EXC_SAME_CIRCLE, HALF_DIR, SECTOR_WORD, parse_sector
from airspace.parser.times import find_effective_range
from airspace.parser.units import parse_limit

# ----------------------------------------------------------------------------------------------- patterns
_DIST_UNITS = (
    r"NAUTICAL[\s\-−‐]+MILES?|STATUTE[\s\-−‐]+MILES?|KILOMET(?:ER|RE)S?|MET(?:ER|RE)S?|FEET|NM|KM|MTR|M|FT|SM|MI"
    r"|公里|千米|海里|米"
)
_DIST = rf"(?:\d+(?:\.\d+)?|\.\d+)(?:\s?|[\-−‐])(?:{_DIST_UNITS})(?![A-Za-z])"  # "2−nautical−mile" too
_DIST_PAREN = rf"{_DIST}(?:\s*\(\s*{_DIST}\s*\))?"
_RADIUS_KW = r"(?:RADIUS|RADIUS\s+OF|RAD\b|半径|半徑|周围|周圍)"
# a distance before the keyword ("0.5NM RADIUS", "a 3 nautical mile radius") or after it ("RADIUS - 1NM", 半径2公里)
_R_BEFORE = re.compile(rf"(?<![\w.])(?P<d>{_DIST})(?:\s*\(\s*{_DIST}\s*\))?\s*RADIUS\b", re.I)
_R_AFTER = re.compile(rf"(?P<kw>{_RADIUS_KW})\s*(?:IS\s+|为\s*|為\s*)?[-:=]?\s*(?P<d>{_DIST})", re.I)
_R_WITHIN = re.compile(
    rf"(?:\b(?:WI|WITHIN)\s+(?:AN?\s+)?(?P<d>{_DIST})\s+(?:OF|FROM|AROUND)"
    rf"|(?<![\w.])(?P<d2>{_DIST})\s*(?:AROUND|OF|FROM|@|CENT(?:RE|ER|RED|ERED)(?:\s+(?:ON|AT))?))"
    rf"\s*(?:(?:PSN|POSITION|POINT|PT)\s*:?\s*)?$",
    re.I,
)
# a radius mention that directly introduces a list of coordinates ("1NM RADIUS CENTERED ON:\n c1\n c2")
_EITHER_SIDE = re.compile(
    rf"(?<![\w.])(?:{_DIST})\s+(?:EITHER|EACH|BOTH)\s+SIDES?\s+OF\s+(?:THE\s+|AN?\s+)?"
    r"(?:(?:STRAIGHT\s+)?LINES?|CENT(?:RE|ER)\s?LINE|ROUTE|TRACK|COURSE)?"
    r"(?:\s+(?:JOINING|BETWEEN|FROM|FM|DEFINED\s+BY|CONNECTING|THROUGH))?"
    r"(?:\s+(?:THE\s+)?(?:FOLLOWING\s+|FLW\s+)?(?:POINTS?|PSNS?|POSITIONS?|COORD(?:INATE)?S))?",
    re.I,
)
_INTRO_GAP = re.compile(r"^\s*(?:(?:CENTERED|CENTRED)\s*(?:ON|AT)?|OF|AT|ON|AROUND)?\s*(?:PSN|POSITIONS?)?\s*:?\s*$", re.I)
_LIST_GAP = re.compile(r"^[\s,;]*(?:AND\s+)?$", re.I)
_PLURAL = re.compile(
    rf"(?P<d>{_DIST})\s*RADIUS\s+(?:(?:CENTERED|CENTRED|CENTER|CENTRE)\s+)?(?:(?:ON|AT|OF|AROUND)\s+)?(?:THE\s+)?"
    rf"(?:(?:(?:FLW|FLWG|FOLLOWING)\s+(?:PSN|POSITION|POINT|COORD(?:INATE)?S?)\b)|(?:(?:FLW|FLWG|FOLLOWING)\s+)?"
    rf"(?:PSNS|POSITIONS|POINTS|PSN\(S\)|CENTRES|CENTERS)\b)"
    rf"|RADIUS\s+(?:OF\s+)?(?P<d2>{_DIST})\s+(?:CENTERED|CENTRED|AROUND)\s+(?:ON\s+|AT\s+)?(?:THE\s+)?"
    rf"(?:(?:FLW|FOLLOWING)\s+)?(?:PSNS|POSITIONS|POINTS)\b"
    rf"|(?P<d3>{_DIST})\s+(?:RADIUS\s+)?(?:OF|AROUND|FROM)\s+EACH(?:\s+OF)?(?:\s+THE)?(?:\s+(?:FLW|FOLLOWING))?"
    rf"(?:\s+(?:PSNS?|POSITIONS?|POINTS?|COORD(?:INATE)?S))?\s*:?",
    re.I,
)
_SEP = r"[\s\-–—,;:.，、；/?]*"  # ('?': a lost non-ASCII blank in some feeds, "I.?1200N 08440E")
# separators between polygon vertices, optionally with a connective and a vertex label ("2)", "PSN", "POINT B:")
_SEP_GAP = re.compile(
    rf"^{_SEP}(?:(?:TO|THEN|AND)\b{_SEP})?(?:(?:\(?\d{{1,2}}[).:]|\(?(?:[A-Z]|[IVX]{{2,4}})[).:]|(?:PSN|PT|POINT)(?:\s*[A-Z0-9]{{1,2}})?\s*:?)[\s?]*)?$",
    re.I,
)
_ARC_GAP = re.compile(r"\b(?:ARC|CLOCKWISE|ANTI-?CLOCKWISE|COUNTER-?\s?CLOCKWISE)\b|圆弧|圓弧", re.I)
_CLOSE_IN_GAP = re.compile(r"\bTO\s+(?:THE\s+)?(?:START|BEGINNING|POINT\s+OF\s+ORIGIN|ORIGIN|FIRST\s+POINT)\b", re.I)
_BOUNDARY_GAP = re.compile(
    r"^[\s\-–—,]*(?:THENCE\s+|THEN\s+)?(?:ALONG|FOLLOWING)\s+(?:THE\s+)?[A-Z/ ]{0,30}?"
    r"(?:BOUNDARY|BDRY|BORDER|COAST(?:LINE)?)\s*(?:TO\s*)?[\s\-–—,]*$",
    re.I,
)
# a vertex that looks like a coordinate but does not read ("0645N 112000W": a 6-digit longitude): it stays in the
# polygon span so that the polygon normaliser names it (review) instead of the ring breaking into points
_BAD_VERTEX_GAP = re.compile(
    rf"^{_SEP}(?:\d{{2,7}}(?:\.\d+)?\s?[NS][\s-]?\d{{2,8}}(?:\.\d+)?\s?[EW]|[NS]\s?\d{{2,7}}(?:\.\d+)?\s?[EW]\s?\d{{2,8}}(?:\.\d+)?){_SEP}$"
)
_BAD_VERTEX_TAIL = re.compile(
    rf"{_SEP}(?:\d{{2,7}}(?:\.\d+)?\s?[NS][\s-]?\d{{2,8}}(?:\.\d+)?\s?[EW]|[NS]\s?\d{{2,7}}(?:\.\d+)?\s?[EW]\s?\d{{2,8}}(?:\.\d+)?)"
    r"(?![\dA-Z])"
)
_NAME_TOKEN = r"[A-Z](?:[A-Z0-9'/ ]|&[a-z]{2,6};|&#\d{1,5};){1,60}?"
_NAMED_GAP = re.compile(rf"^\s*[-–—]\s*(?:TO\s+)?{_NAME_TOKEN}\s*[-–—]\s*$")
_NAMED_BEFORE = re.compile(rf"(?P<np>{_NAME_TOKEN})\s*[-–—]\s*$")
_NAMED_AFTER = re.compile(r"^\s*[-–—]\s*(?P<np>[A-Z]{2,20})(?![\dA-Z])(?=\s+BACK\b|\s+TO\s+(?:START|BEGINNING)\b|\s*[.\n])")
# a NAVAID radial/distance reference written after an FAA point: "285116N0804219W (OMN141034.4) TO …"
# (also bare, as the FAA TFR pages write them: "From: 285116N 0804219W OMN141034.4 To: …")
_FIXREF = re.compile(r"\(\s*[A-Z]{2,5}\s?\d{6}(?:\.\d{1,2})?\s*\)|(?<![A-Z0-9])[A-Z]{2,5}\d{6}(?:\.\d{1,2})?(?![\dA-Z])")


def _nofix(gap: str) -> str:
    """A gap between two points with its NAVAID fix references blanked out (same length, offsets kept)."""
    return _FIXREF.sub(lambda m: " " * len(m.group()), gap)


_CLOSE = re.compile(
    r"^[\s\-–—,]*(?:AND\s+)?(?:BACK\s+)?TO\s+(?:THE\s+)?(?:START(?:ING\s+POINT)?|BEGINNING|POINT\s+OF\s+ORIGIN|"
    r"ORIGIN|FIRST\s+POINT|INITIAL\s+POINT)\b|^[\s\-–—,]*BACK\s+TO\s+START\b",
    re.I,
)

_NUM = r"(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?: \d{3})+(?=\s?(?:FT|FEET|M|MTR|METERS?|METRES?)\b)|\d+)(?:\.\d+)?"
_ALT = rf"(?<![\w.,]){_NUM}\s?(?:FT|FEET|M|MTR|METERS?|METRES?)\b\.?(?:\s?(?:AMSL|MSL|AGL|ASFC|AAL))?"
_LIM = rf"(?:(?<![A-Z])(?:SFC|GND|SURFACE|UNL(?:TD|IMITED)?)(?![A-Z])|\bFL\s?\d{{2,3}}\b|{_ALT})"
_RANGE = re.compile(
    rf"(?:(?:FM|FROM|BTN|BETWEEN)\s+(?:THE\s+)?)?(?P<lo>{_LIM})\s*"
    rf"(?:-|–|—|UP\s+TO(?:\s+(?:AND|BUT)\s+(?:NOT\s+)?INCLUDING)?|TO|AND)\s*"
    rf"(?P<hi>{_LIM})",
    re.I,
)
# "GND/5000FT AMSL", "FL125/5,700M AMSL": a slash separates limits only after a floor word or a flight level
# (a bare "200FT AGL/211FT MSL" is one height in two references, not a band)
_RANGE_SLASH = re.compile(rf"(?P<lo>{_LIM})\s*/\s*(?P<hi>{_LIM})", re.I)
_FLOORISH = re.compile(r"^(?:SFC|GND|SURFACE|FL\s?\d{2,3})$", re.I)


def _slash_band(lo: str, hi: str) -> bool:
    """'GND/5000FT AMSL', 'FL125/5,700M AMSL', '100 ft AGL/3,500ft AMSL' are bands; '200FT AGL/211FT MSL' is one
    height written in two references (the values nearly equal), not a band."""
    if _FLOORISH.match(lo.strip()):
        return True
    try:
        from airspace.parser.units import parse_limit

        a, b = parse_limit(lo), parse_limit(hi)
    except ValueError:
        return False
    if b.ref == "UNL":
        return True
    return a.ft is not None and b.ft is not None and b.ft > 1.5 * a.ft + 100
_UPPER_ONLY = re.compile(
    rf"(?:UP\s*TO(?:\s+AND\s+INCLUDING)?|AT\s+OR\s+BELOW|BLW|BELOW|MAX(?:IMUM)?\s*(?:HGT|HEIGHT|ALT)?:?)\s+(?P<hi>{_LIM})"
    rf"|(?:AT\s+)?(?P<hi2>{_LIM})\s+AND\s+BELOW",
    re.I,
)
_TO_UPPER = re.compile(rf"^[\s,;:.)-]*TO\s+(?P<hi>{_LIM})", re.I)  # "PSN c TO 1,500 FT AMSL" right after a centre
_LOWER_ONLY = re.compile(rf"(?:\bFM|\bFROM|\bABV|\bABOVE)\s+(?:THE\s+)?(?P<lo>{_LIM})", re.I)
_OBST_AGL = re.compile(rf"(?<![\w.,])(?P<agl>{_NUM}\s?(?:FT|M)\.?\s?AGL)\b", re.I)
_OBST_MSL = re.compile(rf"(?<![\w.,])(?P<msl>{_NUM}\s?(?:FT|M)\.?\s?A?MSL)\b|\bA?MSL\s+(?P<msl2>{_NUM}\s?(?:FT|M))\b", re.I)
_NOT_IDENT = {"THE", "PSN", "POSITION", "POINT", "FIX", "CENTER", "CENTRE", "AREA", "FLW", "EACH", "ALL", "AND"}
# "RADIUS OF ATL": a circle around an aerodrome identifier (FAA), no coordinates
_R_IDENT = re.compile(
    rf"(?P<d>(?i:{_DIST}))\s*RADIUS\s+(?:OF|AROUND|(?:CENTERED|CENTRED)\s+(?:ON|AT))\s+(?P<id>[A-Z]{{3,4}})\b(?![\s/-]*\d)"
    rf"|RADIUS\s+(?:OF\s+)?(?P<d2>(?i:{_DIST}))\s+(?:AROUND|OF|(?:CENTERED|CENTRED)\s+(?:ON|AT))\s+(?P<id2>[A-Z]{{3,4}})\b(?![\s/-]*\d)"
    rf"|\b(?:WI|WITHIN)\s+(?P<d3>(?i:{_DIST}))\s+(?:OF|AROUND)\s+(?P<id3>[A-Z]{{3,4}})\b(?![\s/-]*\d)"
    rf"|(?P<d4>(?i:{_DIST}))\s*(?:RADIUS\s+)?(?:(?:OF|AROUND|FROM)\s+)?(?:THE\s+)?(?P<id4>[A-Z]{{4}})\s+"
    rf"(?:AERODROME|AD|AIRPORT|ARP|AIRFIELD)\b"
)
# prose: "within 0.4NM of Wembley Stadium", "300MTR around Central Park" (a Title-Case place name)
_R_PLACE = re.compile(
    rf"(?:\b(?:[Ww]ithin|WITHIN|WI)\s+(?:an?\s+)?)?(?P<d>(?i:{_DIST}))\s+(?:radius\s+|RADIUS\s+)?(?:of|around|from|OF|AROUND)\s+"
    r"(?:the\s+)?(?P<name>[A-Z][\w'’.&-]*(?:\s+(?:[A-Z][\w'’.&-]*|of|de|du|la|the|and|&)){0,6})"
)
# a named area switched on: "R5206 ACT", "SBR 217 (PIRANGI) ACT", "DANGER AREA ACT: UHD411"
_DESIGNATOR = re.compile(
    r"\b(?P<name>[A-Z]{1,4}[- ]?\d{2,4}[A-Z]?)\s*(?:\([A-Z0-9 .,'/-]{1,40}\)\s*)?(?:ACT|ACTIVATED|ACTIVE|ACTIAVTED)\b"
    # "VAD 8 (BERCHHA) ACT", "VOD-188 CHENGALPATTU FRNG RANGE ACT", "VOD175(A) THUMBA-1 ROCKET FRNG RANGE ACT":
    # a danger/restricted/prohibited area designator (ICAO nationality letters + D/R/P) named before ACT
    r"|\b(?P<name3>[A-Z]{1,2}[DRP][- ]?\d{1,4}[A-Z]?)(?:\s*\([A-Z0-9 .,'/-]{1,40}\))?(?:\s+[A-Z][A-Z0-9'-]{1,20}){0,4}"
    r"\s+(?:ACT|ACTIVATED|ACTIVE|ACTIAVTED)\b"
    r"|\bAREAS?\s+(?:ACT|ACTIVATED|ACTIVE)\s*:?\s*(?P<name2>[A-Z]{1,4}[- ]?\d{1,4}[A-Z]?)\b"
)
# a FIR named with its indicator: "FIR TRIPOLI (HLLL)", "KABUL FIR (OAKX)"
_FIR_NAMED = re.compile(
    r"\bFIR\s+[A-Z][A-Z-]{1,20}(?: [A-Z][A-Z-]{1,20}){0,2}\s*\(\s*[A-Z]{4}\s*\)"
    r"|\b[A-Z][A-Z-]{1,20}(?: [A-Z][A-Z-]{1,20}){0,2}\s+FIR\s*\(\s*[A-Z]{4}\s*\)"
)
_FIR_LIST_HEAD = re.compile(r"\bFLIGHT\s+INFORMATION\s+REGIONS\s*(?:\(FIRS?\))?\s*:|\bFIRS\s*:")
_FIR_ITEM = re.compile(r"\s*(?:,|\bAND\b)?\s*(?P<item>[A-Z][A-Z-]{1,20}(?: [A-Z][A-Z-]{1,20}){0,2}\s*\(\s*[A-Z]{4}\s*\))")
_UNL_WORD = re.compile(r"(?<![A-Z])(?:UNL|UNLTD|UNLIMITED)(?![A-Z])|无限高|無限高", re.I)
_CN_UPPER = re.compile(r"(?:真高|相对高度|相對高度|飞行高度|飛行高度|高度)\s*(?:为|為)?\s*\d+(?:\.\d+)?\s*(?:米|公尺|m)")
# Chinese places: found from their anchor (为中心 / 周边500米 / ，半径3公里 / 上空) backwards to the start of the clause,
# so that hostile text without anchors costs one linear scan
_CN_CENTRE_ANCHOR = re.compile(r"\s*(?:为|為)\s*(?:中心|圆心|圓心)")
_CN_DIST = r"\d+(?:\.\d+)?\s*(?:公里|千米|米|km|KM|m)(?:\s*[（(]含[）)])?"  # 3公里(含): 3 km included
_CN_BUFFER_ANCHOR = re.compile(
    rf"(?:及其|及|的)?\s*(?:周[边邊]|附近)\s*(?:半[径徑])?\s*(?P<d>{_CN_DIST})|[，,]\s*半[径徑]\s*(?:为|為)?\s*(?P<d2>{_CN_DIST})"
    rf"|(?:两侧|兩側|两边|兩邊)\s*(?:各)?\s*(?P<d3>{_CN_DIST})"
)
# "以X为中心向四周辐射2公里": the radius in words other than 半径
_CN_SPREAD = re.compile(rf"\s*(?:，|,)?\s*(?:向)?\s*(?:四周|周边|周邊)?\s*(?:辐射|輻射|延伸|扩展|擴展)\s*(?P<d>{_CN_DIST})")
# a whole administrative area: "在北京市行政区域内", "杭州市行政区域全境"
_CN_GLOSS = r"(?:\([a-zA-Z\u00c0-\u024f\u0300-\u036f]{1,6}\))?"  # 區(qū): a pinyin gloss some mirrors add
# (each district an atomic group: a run of characters up to the first 区/县; searched only in short windows)
_CN_DISTRICT = rf"(?>(?:[\u4e00-\u9fff]{_CN_GLOSS}){{1,12}}?[区區县縣旗]{_CN_GLOSS})"
_CN_DISTRICTS = re.compile(rf"{_CN_DISTRICT}(?:[、,，和及]{_CN_DISTRICT}){{1,20}}(?=[。；;，,\s]|$)")
_CN_AREA_LABEL = re.compile(r"(?:区域|區域|范围|範圍)\s*[:：]")
_CN_ADMIN_ANCHOR = re.compile(r"(?:行政区域|行政區域|行政區[(（]q[uū][)）]域)(?:全境|全域)?|(?<=[市县縣区區省])全境")
_CN_AREA_ANCHOR = re.compile(
    r"(?:及其?)?\s*(?:周[边邊]|附近|一带|一帶|周[围圍])(?:区域|區域|地区|地區|空域)?|(?<!城市)上空|合[围圍](?:区域|區域)"
)
_CN_WHOLE_AREA = re.compile(
    r"(?P<area>(?:行政区域|行政區域)(?:全境|全域)?)(?:空域)?\s*(?:为|為|划设为|劃設為|设为|設為)\s*(?:临时|臨時)?(?:空中)?"
    r"(?:限制区|禁飞区|管制区|限制區|禁飛區|管制區)"
)
_CN_NOT_PLACE = re.compile(r"禁止|严禁|嚴禁|任何|一切|无人机|無人機|航空器|期间|期間")
# an hour: digits or Chinese numerals (零时, 二十时), a pinyin gloss left by some mirrors (18時(shí)), minutes
_CN_T = (
    r"(?:(?:\d{1,2}|[零〇一二两兩三四五六七八九十]{1,3})\s*(?:时|時|点|點)(?:\s*[（(][A-Za-z\u00c0-\u024f\u0300-\u036f ]{1,8}[）)])?"
    r"(?:\s*\d{1,2}\s*分)?|\d{1,2}\s*[:：]\s*\d{2})"
)
_CN_DT = rf"(?:\d{{4}}\s*年\s*)?\d{{1,2}}\s*月\s*\d{{1,2}}\s*日\s*(?:[（(][^）)]{{1,6}}[）)]\s*)?{_CN_T}"
_CN_DAY_T = rf"\d{{1,2}}\s*日\s*{_CN_T}"  # "…至26日18时": the end in the same month
_CN_RANGE = re.compile(rf"(?P<s>{_CN_DT})\s*起?\s*(?:至|到|—|–|-|～|~)\s*(?P<e>{_CN_DT}|{_CN_DAY_T}|{_CN_T})")
# dates without hours ("2024年6月6日至6月10日"): from the start of the first day to the end of the last
_CN_DATE_RANGE = re.compile(
    r"(?P<s>(?:\d{4}\s*年\s*)?\d{1,2}\s*月\s*\d{1,2}\s*[日号號])\s*起?\s*(?:至|到|—|–|-|～|~)\s*"
    r"(?P<e>(?:\d{4}\s*年\s*)?(?:\d{1,2}\s*月\s*)?\d{1,2}\s*[日号號])(?!\s*(?:\d|[零〇一二两兩三四五六七八九十]+\s*[时時点點]))"
)
# "自3月2日0时至全国两会闭幕次日12时期间": the start is a date, the end an event (no end stated)
_CN_FROM = re.compile(rf"(?:自|从|從)\s*(?P<s>{_CN_DT})\s*起?\s*(?:至|到)")
# a daily period in a Chinese notice (每日8时至18时, 每天08:00-18:00): the schedule (Beijing time)
_CN_DAILY = re.compile(rf"(?:每日|每天)\s*(?:的)?\s*{_CN_T}\s*(?:至|到|—|–|-|～|~)\s*(?:次日|翌日)?\s*{_CN_T}")
_ICAO_TIME = re.compile(r"(?:\d{10}(?:\s?EST)?|PERM|UFN)\b")
_TIME_PAIR = re.compile(
    r"(?<!\d)(?P<s>\d{10})\s*(?:UTC\s*)?(?:\([^()]{0,40}\)\s*)?(?:-|TO|UNTIL|TIL|THRU|AND)\s*"
    r"(?P<e>\d{10}(?:\s?EST)?|PERM)(?![\dA-Z])",
    re.I,
)
_ISO_DT = r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?\s?(?:Z|UTC)?"
_UNTIL = re.compile(rf"\b(?:UNTIL|TILL|TIL|UNTL)\s+(?P<e>\d{{10}}(?:\s?EST)?(?!\d)|{_ISO_DT})", re.I)
_FROM = re.compile(rf"\b(?:FROM|FM|WEF|STARTING|BEGINNING)\s+(?P<s>\d{{10}}(?!\d)|{_ISO_DT})", re.I)
_ISO_PAIR = re.compile(rf"(?P<s>{_ISO_DT})\s*(?:-|–|TO|UNTIL|TILL|AND)\s*(?P<e>{_ISO_DT})", re.I)
# a daily time range written in prose ("0700-1100 local", "DAILY 1000-1600 Z")
_DAY = r"(?:MON|TUE|WED|THU|FRI|SAT|SUN)"
_SCHED_PREFIX = rf"(?:DAILY|DLY|{_DAY}(?:\s*[-,/&]\s*{_DAY}|\s+{_DAY})*)"
_PROSE_SCHED = re.compile(
    rf"(?:\b{_SCHED_PREFIX}\s+)?(?<![\d/:-])\d{{4}}\s?-\s?\d{{4}}(?![\d/:-])(?:\s?(?:local|LT|Z|UTC|GMT)\b)?", re.I
)
_FAA_SCHED = re.compile(
    rf"\b{_SCHED_PREFIX}\s+(?:BTN\s+|BETWEEN\s+)?(?<![\d/:-])\d{{4}}\s?[-/]\s?\d{{4}}(?![\d/:-])"
    rf"(?:\s*,?\s*\d{{4}}-\d{{4}}(?![\d-]))*"
)
_MONTH = r"(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?"
_PROSE_DT = rf"{_MONTH}\s+\d{{1,2}},?\s+\d{{4}}(?:\s+at)?\s+\d{{4}}(?:\s*(?:UTC|Z|GMT))?"
_TFR_BEGIN = re.compile(rf"Beginning\s+Date\s+and\s+Time\s*:\s*(?P<v>{_PROSE_DT})", re.I)
_TFR_END = re.compile(rf"Ending\s+Date\s+and\s+Time\s*:\s*(?P<v>{_PROSE_DT})", re.I)
_PROSE_ANY = re.compile(_PROSE_DT, re.I)
_CJK_RE = re.compile(r"[\u3400-\u9fff]")
_ICAO_LOC = re.compile(r"^[A-Z]{4}\b")


@dataclass
class _Zone:
    """A zone under construction: field -> span of the message."""

    fields: dict[str, Span]
    anchor: int  # where the zone's geometry starts (orders zones, bounds local limit search)
    anchor_end: int
    kind: str  # 'circle' | 'polygon' | 'point' | 'qline' | 'named'
    local_limits: bool = False


def _sp(text: str, s: int, e: int) -> Span:
    return Span(s, e, text[s:e])


# ----------------------------------------------------------------------------------------------- geometry
def _radius_mentions(text: str, lo: int, hi: int) -> list[tuple[int, int, Span]]:
    """(mention start, mention end, distance span) for every radius mention in [lo, hi)."""
    out = []
    for rx in (_R_BEFORE, _R_AFTER):
        for m in rx.finditer(text, lo, hi):
            out.append((m.start(), m.end(), _sp(text, *m.span("d"))))
    out.sort(key=lambda t: (t[0], -(t[1] - t[0])))
    dedup: list[tuple[int, int, Span]] = []
    for t in out:
        if dedup and t[0] < dedup[-1][1]:  # overlapping mentions ("1NM RADIUS 2NM"): keep the first
            continue
        dedup.append(t)
    return dedup


_ROUTE_BEFORE = re.compile(
    r"(?:\bDCT|\bVIA|\bWAYPOINTS?\b[^\n]{0,80}?|\bNEW\s+(?:PSN|POSITION)|\bUSE|\bRTE|\bROUTE\s+[A-Z]{1,2}\d{1,4}:?)[\s:,(-]*$",
    re.I,
)
_ROUTE_NEAR = re.compile(r"\bWAYPOINTS?\b|\bATS\s+(?:RTE|ROUTE)S?\b|\bDCT\b|\bVIA\s+ROUTE\b", re.I)
# a reference point given for orientation (參考坐標點, REF POINT) next to an area described in words
_REF_POINT = re.compile(r"(?:参考|參考)[\u4e00-\u9fff]{0,4}\s*[:：]?\s*$|\bREF(?:ERENCE)?\s+(?:POINT|PSN|PT)\s*:?\s*$", re.I)
_ROUTE_AFTER = re.compile(r"^[\s)]*(?:DCT\b|INSTEAD\s+OF\b)", re.I)
_EXC_AREA = re.compile(
    r"\bEXC(?:EPT|LUDING|L)?\.?\s+(?:FOR\s+)?(?:THE\s+)?(?:AREA|A\s+CIRCLE|CIRCLE|WI\b|SECTOR|(?:\d+(?:\.\d+)?\s?(?:NM|KM)\s+RADIUS)"
    r"|RADIUS|\d{4,6}[NS])",
    re.I,
)
_COORD_BETWEEN = re.compile(r"\d{4,6}(?:\.\d+)?\s?[NS]")
# "A CIRCLE OF 10 NM AROUND THE LAUNCHER": a circle around a named object, not around a coordinate
_AROUND_NAMED = re.compile(
    rf"\bCIRCLE\s+(?:OF\s+(?:RADIUS\s+)?|WITH\s+(?:A\s+)?RADIUS\s+(?:OF\s+)?|RADIUS\s+(?:OF\s+)?)?(?P<d>{_DIST})\s+"
    r"(?:RADIUS\s+)?(?:AROUND|ABOUT|FROM|(?:CENTRED|CENTERED)\s+(?:ON|AT))\s+(?:THE\s+)?"
    r"(?P<name>[A-Z][A-Z/-]{1,20}(?: [A-Z][A-Z/-]{1,20}){0,3})(?=\s*[.,;:\n(]|\s{2}|$)"
)


def _route_point(text: str, c: CoordMatch, lo: int) -> bool:
    """Whether a coordinate is a navigation point of a route/waypoint statement rather than a zone."""
    before = text[max(lo, c.start - 100) : c.start]
    if _ROUTE_BEFORE.search(before) or _ROUTE_AFTER.match(text, c.end):
        return True
    # a point between two named fixes of a route ("N639 - VILAO - c - NAH")
    if re.search(r"\b[A-Z]{2,5}\s*-\s*$", before) and re.match(r"\s*-\s*[A-Z]{2,5}\b", text[c.end : c.end + 20]):
        return True
    # "WAYPOINTS (WGS-84): OSH DVORDME (c1) - APTIN (c2)", "VIA ATS ROUTE Q2: Q2 - NIVEN - c - BISON"
    return _ROUTE_NEAR.search(text, max(lo, c.start - 100), c.start) is not None


_ARC_EXTENT = re.compile(rf"(?:\b(?:FROM|FM|BTN|BETWEEN)\s+)?(?:{BEARINGS.pattern})", re.I)


def _polygon_runs(text: str, coords: list[CoordMatch]) -> list[list[CoordMatch]]:
    runs: list[list[CoordMatch]] = []
    for c in coords:
        if runs:
            prev = runs[-1][-1]
            gap = _nofix(text[prev.end : c.start])
            # after an arc's centre, "FROM BRG 000 TO BRG 180 -" states the arc's extent
            after_arc = len(runs[-1]) >= 2 and _ARC_GAP.search(text, runs[-1][-2].end, prev.start) is not None
            joined = (
                _SEP_GAP.match(gap)
                or (after_arc and _SEP_GAP.match(_ARC_EXTENT.sub(lambda m: " " * len(m.group()), gap)))
                or (len(gap) <= 200 and _ARC_GAP.search(gap) and "\n\n" not in gap and not _CLOSE_IN_GAP.search(gap))
                or _NAMED_GAP.match(gap)
                or _BOUNDARY_GAP.match(gap)
                or _BAD_VERTEX_GAP.match(gap)
            )
            if joined:
                runs[-1].append(c)
                continue
        runs.append([c])
    return runs


def _polygon_span(text: str, run: list[CoordMatch], lo: int, hi: int) -> tuple[int, int, int]:
    """(start, end, named points) of a polygon run, extended over named end points and closing words."""
    start, end, named = run[0].start, run[-1].end, 0
    for a, b in zip(run, run[1:]):
        if _NAMED_GAP.match(text[a.end : b.start]) or _BAD_VERTEX_GAP.match(text[a.end : b.start]):
            named += 1
    line_start = max(text.rfind("\n", lo, start), text.rfind(":", lo, start), lo - 1, start - 101) + 1
    m = _NAMED_BEFORE.search(text, line_start, start)
    if m and m.end() == start:
        start = m.start("np")
        named += 1
    m = _NAMED_AFTER.match(text[end : min(hi, end + 100)])
    if m:
        end += m.end("np")
        named += 1
    m = _BAD_VERTEX_TAIL.match(text, end, min(hi, end + 60))
    if m:  # a malformed last vertex ("…, 365852N-351722E"): in the span, so the polygon normaliser names it
        end = m.end()
        named += 1
    m = _CLOSE.match(_nofix(text[end : min(hi, end + 100)]))
    if m:
        end += m.end()
    return start, end, named


_SEMI_ANCHOR = re.compile(r"\bSEMI-?\s?CIRCLE\b|\bHALF[\s-]+CIRCLE\b|半圆|半圓", re.I)
_SECTOR_RADIUS = re.compile(
    rf"RADIUS\s*(?:OF\s*)?[:=-]?\s*{_DIST}|{_DIST}\s*(?:RADIUS|ARC)\b|\b(?:WI|WITHIN)\s+(?:AN?\s+)?{_DIST}|半[径徑]\s*{_DIST}",
    re.I,
)


def _try_sector(text: str, s: int, e: int) -> bool:
    try:
        parse_sector(text[s:e])
    except ValueError:
        return False
    return True


def _sectors(text: str, lo: int, hi: int, coords: list[CoordMatch], claimed: set[int]) -> list[_Zone]:
    """Sectors and semicircles: one polygon span each, read by ``polygon.parse_sector``.

    - two bounding bearings (``BTN BRG 030 AND 120``, ``AZM 030-120 DEG``) with the nearest centre coordinate
      before them (else right after) and the radius mention around them;
    - ``SEMICIRCLE, P - A CLOCKWISE 3NM ARC CENTERED ON C``: the start point and the centre after the word;
    - ``NORTHERN SEMICIRCLE OF A CIRCLE RADIUS 5NM CENTRED ON c``: the centre after the word.
    A candidate that ``parse_sector`` cannot read is left to the other geometry roles."""
    zones: list[_Zone] = []
    brgs = list(BEARINGS.finditer(text, lo, hi))
    for k, b in enumerate(brgs):
        floor = max(lo, b.start() - 160, brgs[k - 1].end() if k else lo)
        ceil = min(hi, b.end() + 120, brgs[k + 1].start() if k + 1 < len(brgs) else hi)
        cut = text.rfind("\n\n", floor, b.start())
        floor = cut + 2 if cut >= 0 else floor
        cut = text.find("\n\n", b.end(), ceil)
        ceil = cut if cut >= 0 else ceil
        before = [i for i, c in enumerate(coords) if floor <= c.start and c.end <= b.start() and i not in claimed]
        after = [i for i, c in enumerate(coords) if b.end() <= c.start and c.end <= ceil and i not in claimed]
        if before:
            ci = before[-1]
        elif after:
            ci = after[0]
        else:
            continue
        c = coords[ci]
        prev = [x for x in coords if x.end <= c.start and c.start - x.end < 200]
        if prev and _ARC_GAP.search(text, prev[-1].end, c.start):
            continue  # "… B - CLOCKWISE ARC RADIUS 10NM CENTRED ON C FROM BRG 090 TO BRG 180 - D …": a polygon's arc
        s0, e0 = min(c.start, b.start()), max(c.end, b.end())
        rad = [m for m in _SECTOR_RADIUS.finditer(text, max(floor, s0 - 60), min(ceil, e0 + 60))]
        # the radius nearest the centre/bearings, and never across another coordinate
        rad = [m for m in rad if not any(i != ci and min(m.end(), s0) <= x.start < max(m.start(), e0)
                                         for i, x in enumerate(coords))]
        if not rad:
            continue
        m = min(rad, key=lambda m: max(0, s0 - m.end(), m.start() - e0))
        s0, e0 = min(s0, m.start()), max(e0, m.end())
        kw = SECTOR_WORD.search(text, max(floor, s0 - 40), s0)
        if kw:
            s0 = kw.start()
        if _try_sector(text, s0, e0):
            claimed.add(ci)
            zones.append(_Zone({"polygon": _sp(text, s0, e0)}, s0, e0, "polygon"))
    for sm in _SEMI_ANCHOR.finditer(text, lo, hi):
        nxt = [i for i, c in enumerate(coords) if sm.end() <= c.start < min(hi, sm.end() + 150) and i not in claimed]
        if len(nxt) >= 2 and _ARC_GAP.search(text, coords[nxt[0]].end, coords[nxt[1]].start):
            s0, e0 = sm.start(), coords[nxt[1]].end
            # "… EXC A CIRCLE RADIUS 1.5NM CENTERED ON C" (its own centre): cut out, inside the same span
            k = next((i for i, c in enumerate(coords) if c.start >= e0), None)
            if (k is not None and k not in claimed and EXC_SAME_CIRCLE.fullmatch(text, e0, coords[k].start)
                    and _try_sector(text, s0, coords[k].end)):
                claimed.update(nxt[:2] + [k])
                zones.append(_Zone({"polygon": _sp(text, s0, coords[k].end)}, s0, coords[k].end, "polygon"))
            elif _try_sector(text, s0, e0):
                claimed.update(nxt[:2])
                zones.append(_Zone({"polygon": _sp(text, s0, e0)}, s0, e0, "polygon"))
            continue
        if nxt:
            c = coords[nxt[0]]
            hd = HALF_DIR.search(text, max(lo, sm.start() - 12), min(hi, sm.end() + 12))  # "NORTHERN SEMICIRCLE"
            s0 = min(hd.start(), sm.start()) if hd else sm.start()
            for s1 in dict.fromkeys((s0, sm.start())):
                e0 = c.end
                m = _SECTOR_RADIUS.search(text, c.end, min(hi, c.end + 40))
                if not _SECTOR_RADIUS.search(text, s1, c.start) and m:
                    e0 = m.end()
                if _try_sector(text, s1, e0):
                    claimed.add(nxt[0])
                    zones.append(_Zone({"polygon": _sp(text, s1, e0)}, s1, e0, "polygon"))
                    break
    return zones


def _geometry(text: str, lo: int, hi: int) -> list[_Zone]:
    coords = [c._replace(start=c.start + lo, end=c.end + lo) for c in find_coords(text[lo:hi])]
    zones: list[_Zone] = []
    claimed: set[int] = set()

    # 0. sectors and semicircles (a centre, a radius and two bearings; half a circle)
    zones.extend(_sectors(text, lo, hi, coords, claimed))

    # 1. plural centres
    plurals = list(_PLURAL.finditer(text, lo, hi))
    for k, pm in enumerate(plurals):
        d = _sp(text, *pm.span(next(g for g in ("d", "d2", "d3") if pm.group(g))))
        stop = plurals[k + 1].start() if k + 1 < len(plurals) else hi
        for i, c in enumerate(coords):
            if i not in claimed and pm.end() <= c.start < stop:
                claimed.add(i)
                zones.append(_Zone({"center": _sp(text, c.start, c.end), "radius": d}, c.start, c.end, "circle", True))

    # 1b. a radius mention directly followed by a plain list (blanks/commas only, no '-'/'TO') of 2+ coordinates
    for ms, me, d in _radius_mentions(text, lo, hi):
        if _ARC_GAP.search(text, max(lo, ms - 25), ms):  # "THEN ARC RADIUS OF 7KM CENTRED ON c": a polygon arc
            continue
        k = next((i for i, c in enumerate(coords) if c.start >= me), None)
        if k is None or k in claimed or not _INTRO_GAP.match(text[me : coords[k].start]):
            continue
        run = [k]
        while run[-1] + 1 < len(coords) and _LIST_GAP.match(text[coords[run[-1]].end : coords[run[-1] + 1].start]):
            run.append(run[-1] + 1)
        if len(run) >= 2 and not any(i in claimed for i in run):
            for i in run:
                claimed.add(i)
                c = coords[i]
                zones.append(_Zone({"center": _sp(text, c.start, c.end), "radius": d}, c.start, c.end, "circle", True))

    # 1c. corridors: "1NM EITHER SIDE OF LINE c1-c2(-c3…)": one polygon span from the width to the last line point
    # (the polygon normaliser buffers the line; the answer format has no corridor field)
    for cm in _EITHER_SIDE.finditer(text, lo, hi):
        k = next((i for i, c in enumerate(coords) if c.start >= cm.end()), None)
        if k is None or k in claimed or not _INTRO_GAP.match(text[cm.end() : coords[k].start]):
            continue
        run = [k]
        while run[-1] + 1 < len(coords) and _SEP_GAP.match(_nofix(text[coords[run[-1]].end : coords[run[-1] + 1].start])):
            run.append(run[-1] + 1)
        if len(run) >= 2 and not any(i in claimed for i in run):
            claimed.update(run)
            s0, e0 = cm.start(), coords[run[-1]].end
            zones.append(_Zone({"polygon": _sp(text, s0, e0)}, s0, e0, "polygon"))

    # 2. polygons
    rest = [c for i, c in enumerate(coords) if i not in claimed]
    poly_spans: list[tuple[int, int]] = [(z.anchor, z.anchor_end) for z in zones if z.kind == "polygon"]
    for run in _polygon_runs(text, rest):
        s, e, named = _polygon_span(text, run, lo, hi)
        closes = _CLOSE.match(_nofix(text[run[-1].end : min(hi, run[-1].end + 100)])) is not None
        distinct = {(round(c.lat, 6), round(c.lon, 6)) for c in run}
        # "A THEN CLOCKWISE ON A 4.2 NM ARC CENTERED ON C TO THE POINT OF ORIGIN": a full circle through A
        full_arc = len(run) == 2 and closes and _ARC_GAP.search(text, run[0].end, run[1].start) is not None
        if len(distinct) + named >= 3 or (len(distinct) + named >= 2 and closes and named) or full_arc:
            poly_spans.append((s, e))
            zones.append(_Zone({"polygon": _sp(text, s, e)}, s, e, "polygon"))

    def in_poly(pos: int) -> bool:
        return any(s <= pos < e for s, e in poly_spans)

    # 3. circles: each remaining coordinate takes the nearest radius mention (a mention serves one coordinate)
    singles = [c for c in rest if not in_poly(c.start)]
    mentions = [m for m in _radius_mentions(text, lo, hi) if not in_poly(m[0])]
    for pm in plurals:
        mentions = [m for m in mentions if not (pm.start() <= m[0] < pm.end())]
    cands = []
    m_starts = [m[0] for m in mentions]
    c_starts = [c.start for c in singles]
    for ci, c in enumerate(singles):
        # only mentions within 80 characters can qualify (keeps hostile, coordinate-dense input linear)
        for mi in range(bisect_left(m_starts, c.start - 200), bisect_right(m_starts, c.end + 80)):
            ms, me, d = mentions[mi]
            if me <= c.start:
                gap, g0, g1 = text[me : c.start], me, c.start
            elif ms >= c.end:
                gap, g0, g1 = text[c.end : ms], c.end, ms
            else:
                continue
            if len(gap) > 80:
                continue
            k = bisect_left(c_starts, g0)
            if k < len(singles) and singles[k].start < g1 and singles[k] is not c:
                continue  # another coordinate sits between them
            score = len(gap.strip()) + (20 if ("(" in gap or ")" in gap) else 0) + (40 if "\n\n" in gap else 0)
            cands.append((score, ci, mi))
    used_c, used_m = set(), set()
    for score, ci, mi in sorted(cands):
        if ci in used_c or mi in used_m:
            continue
        used_c.add(ci)
        used_m.add(mi)
        c = singles[ci]
        zones.append(_Zone({"center": _sp(text, c.start, c.end), "radius": mentions[mi][2]}, c.start, c.end, "circle"))
    # "WI 5NM OF <coord>" without the word RADIUS
    for ci, c in enumerate(singles):
        if ci in used_c:
            continue
        m = _R_WITHIN.search(text, max(lo, c.start - 60), c.start)
        if m:
            used_c.add(ci)
            d = m.span("d") if m.group("d") else m.span("d2")
            zones.append(_Zone({"center": _sp(text, c.start, c.end), "radius": _sp(text, *d)}, c.start, c.end, "circle"))

    # 3b. "A CIRCLE OF 10 NM AROUND THE LAUNCHER" whose object was located earlier ("LAUNCH PAD COORD: c"): when
    # exactly one position is left over, the circle is centred on it; the name goes along so validation says so
    left = [c for ci, c in enumerate(singles) if ci not in used_c and not _route_point(text, c, lo)]
    arounds = [m for m in _AROUND_NAMED.finditer(text, lo, hi) if not in_poly(m.start())
               and not _COORD_BETWEEN.match(text, m.start("name"))]
    if len(left) == 1 and len(arounds) == 1:
        c, m = left[0], arounds[0]
        used_c.add(singles.index(c))
        zones.append(_Zone({"center": _sp(text, c.start, c.end), "radius": _sp(text, *m.span("d")),
                            "name": _sp(text, *m.span("name"))}, c.start, c.end, "circle"))

    # 4. points (only when nothing else was found: a lone reference point next to a real area is not a zone);
    # a coordinate in a route ("DCT 2925N06959E DCT"), a waypoint list, a moved point ("NEW PSN c") or a substitute
    # fix ("USE c INSTEAD OF SOT") is a navigation point, not a zone
    if not zones:
        for c in singles:
            if _route_point(text, c, lo) or _REF_POINT.search(text, max(lo, c.start - 30), c.start):
                continue
            zones.append(_Zone({"center": _sp(text, c.start, c.end)}, c.start, c.end, "point"))
    # the area after "EXC" ("… EXC A CIRCLE RADIUS 1.5NM CENTERED ON c") is cut out of the zone, never a zone itself
    exc = [(m.start(), m.end()) for m in _EXC_AREA.finditer(text, lo, hi)]
    if exc:
        zones = [z for z in zones if not any(s0 < z.anchor <= e0 + 200 and
                                             not _COORD_BETWEEN.search(text, e0, z.anchor) for s0, e0 in exc)]
    zones.sort(key=lambda z: z.anchor)
    if len(zones) > 1:
        for z in zones:
            z.local_limits = True
    return zones


# ----------------------------------------------------------------------------------------------- limits
_ALT_RE = re.compile(_ALT, re.I)
_HAS_REF = re.compile(r"(?:AMSL|MSL|AGL|ASFC|AAL)\s*$", re.I)


def _with_ref(text: str, sp: Span, hi: int) -> Span:
    """A bare height followed by its equivalent with a reference ("548M 1,800FT AMSL"): take the one with it."""
    if _HAS_REF.search(sp.text) or not re.match(r"[\d.,]", sp.text):
        return sp
    m = _ALT_RE.match(text, sp.end + 1, hi) if sp.end < hi and text[sp.end] in " (/" else None
    if m is None and sp.end + 2 <= hi and text[sp.end : sp.end + 2] in (" (", ", "):
        m = _ALT_RE.match(text, sp.end + 2, hi)
    if m and _HAS_REF.search(m.group()):
        return _sp(text, m.start(), m.end())
    return sp


def _limits_in(text: str, lo: int, hi: int) -> dict[str, Span]:
    """lower/upper stated in [lo, hi): a range first, else 'UP TO x' / 'FM x' forms."""
    out: dict[str, Span] = {}
    m = _RANGE.search(text, lo, hi)
    m2 = next((x for x in _RANGE_SLASH.finditer(text, lo, hi) if _slash_band(x.group("lo"), x.group("hi"))), None)
    if m2 and (m is None or m2.start() < m.start()):
        m = m2
    if m:
        out["lower"] = _with_ref(text, _sp(text, *m.span("lo")), hi)
        out["upper"] = _with_ref(text, _sp(text, *m.span("hi")), hi)
        return out
    m = _UPPER_ONLY.search(text, lo, hi)
    if m:
        g = "hi" if m.group("hi") else "hi2"
        out["upper"] = _with_ref(text, _sp(text, *m.span(g)), hi)
    m = _LOWER_ONLY.search(text, lo, hi)
    if m and ("upper" not in out or m.start("lo") != out["upper"].start):
        out["lower"] = _sp(text, *m.span("lo"))
    if "upper" not in out:
        m = _CN_UPPER.search(text, lo, hi)
        if m:
            out["upper"] = _sp(text, *m.span())
    return out


_PHRASE_SEP = re.compile(r"\s*(?:[-–—~～]|\bUP\s+TO\b|\bTO\b|\bTHROUGH\b|至|到)\s*", re.I)
# a lower-upper pair written as a phrase: TFR pages ("Altitude: From the surface up to but not including FL(180)")
# and Chinese notices (高度从地面至无限高, 真高0米至120米)
_ALT_LINE = re.compile(r"\bAltitude\s*:\s*(?P<v>[^\n]{3,120})", re.I)
_CN_LIMIT_PHRASE = re.compile(
    r"(?:(?:管控|管制|限制|禁飞|禁飛)?高度\s*[:：]\s*)?"  # a label ("管控高度：") before the phrase itself
    r"(?P<v>(?:真高|相对高度|相對高度|飞行高度|飛行高度|高度)\s*(?:为|為)?\s*(?:从|從|自)?[^，,。；;、\n]{1,30}?(?:至|到)"
    r"[^，,。；;、\n]{1,20})"
)


def _phrase_limits(text: str, s: int, e: int) -> dict[str, Span]:
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
        return {"lower": _sp(text, a0, a1), "upper": _sp(text, b0, b1)}
    return {}


_LINE_BREAK = re.compile(r"\n| {2,}")


def _line_end(text: str, pos: int, hi: int) -> int:
    """End of the line holding ``pos`` (a newline or a collapsed-newline run of 2+ spaces)."""
    m = _LINE_BREAK.search(text, pos, min(hi, pos + 3000))  # (a 'line' longer than that is not a line)
    return m.start() if m else min(hi, pos + 3000)


def _item_limit(text: str, h: Header, letter: str) -> Span | None:
    it = h.item(letter)
    if not it or not it.text:
        return None
    m = re.compile(_LIM, re.I).match(text, it.span.start, it.span.end)
    if m:
        return _sp(text, m.start(), m.end())
    first = re.split(r"\n| {2,}", it.text, maxsplit=1)[0].rstrip(" .")
    return _sp(text, it.span.start, it.span.start + len(first)) if first else None


# ----------------------------------------------------------------------------------------------- times
def _item_time(text: str, h: Header, letter: str) -> Span | None:
    it = h.item(letter)
    if not it:
        return None
    m = _ICAO_TIME.match(text, it.span.start, it.span.end)
    return _sp(text, m.start(), m.end()) if m else None


def _times(text: str, h: Header, lo: int, hi: int) -> dict[str, Span]:
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
        return {"start": _sp(text, lo + s0, lo + s1), "end": _sp(text, lo + e0, lo + e1)}
    pairs = list(_TIME_PAIR.finditer(text, lo, hi))
    if pairs:
        m = pairs[-1]
        return {"start": _sp(text, *m.span("s")), "end": _sp(text, *m.span("e"))}
    m = _ISO_PAIR.search(text, lo, hi)
    if m:
        return {"start": _sp(text, *m.span("s")), "end": _sp(text, *m.span("e"))}
    f, u = _FROM.search(text, lo, hi), _UNTIL.search(text, lo, hi)
    if f or u:
        if f:
            out["start"] = _sp(text, *f.span("s"))
        if u:
            out["end"] = _sp(text, *u.span("e"))
        return out
    b, e = _TFR_BEGIN.search(text), _TFR_END.search(text)
    if b or e:
        if b:
            out["start"] = _sp(text, *b.span("v"))
        if e:
            out["end"] = _sp(text, *e.span("v"))
        return out
    m = _CN_RANGE.search(text)
    if m:
        return {"start": _sp(text, *m.span("s")), "end": _sp(text, *m.span("e"))}
    m = _CN_DATE_RANGE.search(text)  # "2024年6月6日至6月10日(每日8时至18时)": whole days, Beijing time
    if m:
        return {"start": _sp(text, *m.span("s")), "end": _sp(text, *m.span("e"))}
    m = _CN_FROM.search(text)
    if m:
        return {"start": _sp(text, *m.span("s"))}
    prose = list(_PROSE_ANY.finditer(text))
    utc = [m for m in prose if re.search(r"(?:UTC|Z|GMT)$", m.group(), re.I)]
    if len(utc) >= 2:
        prose = utc  # "June 01, 2026 at 1500 UTC (June 01, 2026 at 1100 EDT)": the UTC statements, not the local
    if len(prose) >= 2:
        return {"start": _sp(text, *prose[0].span()), "end": _sp(text, *prose[1].span())}
    return out


# ----------------------------------------------------------------------------------------------- main
_AIRSPACE_WORDS = re.compile(
    r"\b(?:AREA|AREAS|AIRSPACE|RESTRICT\w*|DANGER|PROHIBIT\w*|UAS|UAV|RPAS|DRONES?|TFR|EXER|FIRING|LAUNCH|"
    r"ACTIVATED|ACT|ESTABLISHED|DISPLAY|FIREWORKS?|LASER|BALLOONS?|PJE|PARACHUT\w*)\b"
)


def _zone_notice(text: str, h: Header, lo: int, hi: int) -> bool:
    """Whether a notice without coordinates still describes an area (so that its coarse Q-line circle or its
    aerodrome stands for it). ICAO Q-code subjects W (warnings), R (restricted/danger areas) and A (airspace
    organisation) do; M/F/I/L/N/C/P/S/G/O (movement area, facilities, navaids, lighting, comms, procedures,
    services, obstacles) are aerodrome/procedure notices with no zone. An unknown code ('QXXXX', 'undefined',
    empty) is decided by the text."""
    code = (h.qline.code if h.qline else None) or ""
    subj = code[1:2].upper() if re.fullmatch(r"Q[A-Z]{4}", code) else ""
    if subj in ("W", "R", "A"):
        return True
    if subj and subj != "X":
        return False
    return _AIRSPACE_WORDS.search(text, lo, hi) is not None


def _clause_start(text: str, pos: int, floor: int, window: int, delims: str) -> int:
    """Start of the clause that ends at ``pos``: just after the last delimiter within ``window`` characters."""
    lo = max(floor, pos - window)
    for i in range(pos - 1, lo - 1, -1):
        if text[i] in delims:
            return i + 1
    return lo


def _cn_named(text: str, lo: int, hi: int) -> _Zone | None:
    """A Chinese named place: 以<名>为中心(，半径2公里) / <名>及周边500米 / <名>，半径3公里 / <名>周边 / <名>上空."""
    for m in _CN_CENTRE_ANCHOR.finditer(text, lo, hi):
        k = text.rfind("以", max(0, m.start() - 61), m.start())
        if k < 0:
            continue
        ns, ne = k + 1, m.start()
        while ns < ne and text[ns].isspace():
            ns += 1
        if ne - ns >= 2 and not re.search(r"[，,。；;：:\s]", text[ns:ne]):
            f = {"name": _sp(text, ns, ne)}
            r = _R_AFTER.search(text, m.end(), min(len(text), m.end() + 40)) or _CN_SPREAD.match(
                text[: min(len(text), m.end() + 40)], m.end())
            if r:
                f["radius"] = _sp(text, *r.span("d"))
            return _Zone(f, k, m.end(), "named")
    if not _CJK_RE.search(text, lo, hi):
        return None
    m = _CN_BUFFER_ANCHOR.search(text, lo, hi)
    if m:
        ns, ne = _clause_start(text, m.start(), lo, 200, "，,。；;：:\n"), m.start()
        ns += len(text[ns:ne]) - len(text[ns:ne].lstrip("在于於 \t"))
        if ne - ns >= 2 and _CJK_RE.search(text, ns, ne):
            d = m.span(next(g for g in ("d", "d2", "d3") if m.group(g)))
            return _Zone({"name": _sp(text, ns, ne), "radius": _sp(text, *d)}, ns, ne, "named")
    for m in _CN_AREA_ANCHOR.finditer(text, lo, hi):
        ns, ne = _clause_start(text, m.start(), lo, 60, "，,。；;：:、\n"), m.start()
        ns += len(text[ns:ne]) - len(text[ns:ne].lstrip("在于於对對 \t"))
        ne -= len(text[ns:ne]) - len(text[ns:ne].rstrip())
        if ne - ns >= 2 and not _CN_NOT_PLACE.search(text, ns, ne) and _CJK_RE.search(text, ns, ne):
            return _Zone({"name": _sp(text, ns, ne)}, ns, ne, "named")
    # "…至…18时,兰州市城关区、七里河区、西固区、安宁区。" / "禁飞区域：朝阳区、海淀区": a list of districts right after a
    # period or an area label (bounded windows: a few anchors, 200 characters each)
    anchors = [m.end() for _, m in zip(range(4), _CN_RANGE.finditer(text, lo, hi))]
    anchors += [m.end() for _, m in zip(range(4), _CN_AREA_LABEL.finditer(text, lo, hi))]
    for a in sorted(anchors):
        s0 = a + len(text[a : a + 4]) - len(text[a : a + 4].lstrip(" ，,：:；;\t"))
        m = _CN_DISTRICTS.match(text, s0, min(hi, s0 + 200))
        if m:
            return _Zone({"name": _sp(text, *m.span())}, m.start(), m.end(), "named")
    for m in _CN_ADMIN_ANCHOR.finditer(text, lo, hi):
        ns, ne = _clause_start(text, m.start(), lo, 40, "，,。；;：:、\n"), m.end()
        ns += len(text[ns:ne]) - len(text[ns:ne].lstrip("在于於对對 \t"))
        if ne - ns >= 4 and _CJK_RE.search(text, ns, m.start()):
            return _Zone({"name": _sp(text, ns, ne)}, ns, ne, "named")
    return None


def _points_are_hazards(h: Header) -> bool:
    """Lone coordinates are zones (obstacles, areas) unless the Q-code says the notice is about a facility,
    movement area, navaid, procedure or service (threshold coordinates in aerodrome data are not obstacles)."""
    code = (h.qline.code if h.qline else None) or ""
    if not re.fullmatch(r"Q[A-Z]{4}", code):
        return True
    return code[1] in "WRAOX"


def area_designator(text: str, header: Header | None = None) -> Span | None:
    """The designator of a named area the message switches on (``R5206``, ``SBR 217``, ``UHD411``), if any."""
    h = header or parse_header(text)
    lo, hi = _body(text, h)
    m = _DESIGNATOR.search(text, lo, hi)
    if not m:
        return None
    g = next(k for k in ("name", "name2", "name3") if m.group(k))
    return _sp(text, *m.span(g))


_AREA_HEAD = re.compile(r"^[ \t]*Area\s+[A-Z0-9]{1,2}[ \t]*$", re.M)
_FROM_TO_PROSE = re.compile(rf"\bFrom\s+(?P<s>{_PROSE_DT})\s*\n?\s*To\s+(?P<e>{_PROSE_DT})", re.I)


def _area_heads(text: str) -> list[int]:
    return [m.start() for m in _AREA_HEAD.finditer(text)]


def _area_block(text: str, pos: int, heads: list[int]) -> tuple[int, int] | None:
    """The ``Area X`` block of a TFR web page holding offset ``pos`` (each area states its own times and altitude)."""
    if len(heads) < 2:
        return None
    k = bisect_right(heads, pos) - 1
    if k < 0:
        return None
    return heads[k], heads[k + 1] if k + 1 < len(heads) else len(text)


def _block_values(text: str, pos: int, heads: list[int]) -> dict[str, Span]:
    """Times (``From … To …``) and altitude (``Altitude: …``) stated in the TFR area block holding ``pos``."""
    blk = _area_block(text, pos, heads)
    if blk is None:
        return {}
    out: dict[str, Span] = {}
    m = _ALT_LINE.search(text, *blk)
    if m:
        out.update(_phrase_limits(text, *m.span("v")))
    m = _FROM_TO_PROSE.search(text, *blk)
    if m:
        out["start"], out["end"] = _sp(text, *m.span("s")), _sp(text, *m.span("e"))
    return out


def _body(text: str, h: Header) -> tuple[int, int]:
    """The free-text region where geometry is stated: item E, the FAA text after its id, else everything."""
    e = h.item("E")
    if e:
        return e.span.start, e.span.end
    if h.kind == "faa" and h.id_span:
        return h.id_span.end, len(text)
    if h.qline:
        last = max((it.span.end for it in h.items.values()), default=h.qline.raw.end)
        return h.qline.raw.end, max(last, h.qline.raw.end)
    return 0, len(text)


def rules_drafts(text: str, header: Header | None = None) -> list[ZoneDraft]:
    """Zones of one message with their exact spans. ``[]`` for a cancellation or a message with nothing to read."""
    h = header or parse_header(text)
    if h.notam_type == "C":
        return []
    lo, hi = _body(text, h)
    zones = _geometry(text, lo, hi)
    if zones and all(z.kind == "point" for z in zones) and not _points_are_hazards(h):
        zones = []  # coordinates in an aerodrome/facility notice (threshold positions, ARP): not zones

    if not zones:
        for m in _R_IDENT.finditer(text, lo, hi):
            k = next(i for i in ("", "2", "3", "4") if m.group("id" + i))
            if m.group("id" + k) not in _NOT_IDENT:
                f = {"radius": _sp(text, *m.span("d" + k)), "name": _sp(text, *m.span("id" + k))}
                zones.append(_Zone(f, m.start(), m.end(), "named"))
                break
    if not zones and h.kind == "other":
        m = _R_PLACE.search(text, lo, hi)
        if m:
            name = m.group("name")
            while True:  # trailing punctuation and function words are not part of the name (it may wrap lines)
                cut = re.sub(r"(?:[\s.,'’]+|\s+(?:of|de|du|la|the|and|&))$", "", name)
                if cut == name:
                    break
                name = cut
            if name.split():
                ns = m.start("name")
                ne = ns + len(name)
                if ne > ns:
                    f = {"radius": _sp(text, *m.span("d")), "name": _sp(text, ns, ne)}
                    zones.append(_Zone(f, m.start(), m.end(), "named"))
    if not zones and _CJK_RE.search(text, lo, hi):
        # a notice with several periods, each with its own area ("（一）6月7日…至…，在A…；（二）6月14日…至…，在B…"):
        # one named zone per period's clause (each takes the period written before it, below)
        ranges = list(_CN_RANGE.finditer(text, lo, hi))
        if len(ranges) >= 2:
            seg_lo = lo
            for seg_hi in [r.start() for r in ranges[1:]] + [hi]:
                z = _cn_named(text, seg_lo, seg_hi)
                if z is not None and all(z.fields["name"].text != o.fields["name"].text for o in zones):
                    zones.append(z)
                seg_lo = seg_hi
    if not zones:
        z = _cn_named(text, lo, hi)
        if z is not None:
            zones.append(z)
    elif _CJK_RE.search(text, lo, hi):
        # "我市全市行政区域空域为临时空中限制区。其中在…(坐标…)内禁止…": the whole administrative area is a restricted
        # area of its own besides the sub-area given by coordinates
        m = _CN_WHOLE_AREA.search(text, lo, hi)
        if m:
            ns = _clause_start(text, m.start(), lo, 40, "，,。；;：:、\n")
            ns += len(text[ns:m.start()]) - len(text[ns:m.start()].lstrip("在于於 \t"))
            if m.end("area") - ns >= 4:
                zones.append(_Zone({"name": _sp(text, ns, m.end("area"))}, ns, m.end("area"), "named"))
                zones.sort(key=lambda z: z.anchor)
                for z in zones:
                    z.local_limits = True
    zone_notice = _zone_notice(text, h, lo, hi)
    q999 = h.qline is not None and h.qline.radius_nm is not None and h.qline.radius_nm >= 999
    # a Q-line position of 0000N00000E is a placeholder (UHHH writes it for named areas), not a place
    q_null = h.qline is not None and h.qline.coord is not None and re.fullmatch(r"0000[NS]00000[EW]", h.qline.coord.text)
    if not zones and h.qline and h.qline.coord and zone_notice and not q999 and not q_null:  # 999: "whole FIR"
        f = {"center": h.qline.coord}
        if h.qline.radius:
            f["radius"] = h.qline.radius
        zones.append(_Zone(f, h.qline.coord.start, h.qline.coord.end, "qline"))
    if not zones and (h.kind == "faa" or (h.qline is not None and (h.qline.coord is None or q999 or q_null))):
        d = area_designator(text, h)
        if d is not None:
            zones.append(_Zone({"name": d}, d.start, d.end, "named"))
    if not zones and zone_notice:
        # "IN THE FLW FLIGHT INFORMATION REGIONS (FIR): DNIPRO (UKDV), …, ROSTOV (URRV) AND MOLDOVA (LUUU)": each FIR
        head = _FIR_LIST_HEAD.search(text, lo, hi)
        pos = head.end() if head else hi
        while head is not None and len(zones) < 30 and (m := _FIR_ITEM.match(text, pos, hi)):
            zones.append(_Zone({"name": _sp(text, *m.span("item"))}, m.start("item"), m.end("item"), "named"))
            pos = m.end()
    if not zones and zone_notice:  # "NOT TO ENTER FIR TRIPOLI (HLLL)": the FIR the notice is about, not A)'s
        m = _FIR_NAMED.search(text, lo, hi)
        if m:
            zones.append(_Zone({"name": _sp(text, m.start(), m.end())}, m.start(), m.end(), "named"))
    if not zones and h.item("A") and zone_notice:
        a = h.item("A")
        m = _ICAO_LOC.match(a.text)
        fir = (h.qline.fir or "").strip().upper() if h.qline else ""
        scope = (h.qline.scope or "").strip().upper() if h.qline else ""
        if m and (m.group() == fir or (scope and "A" not in scope)) and resolve_icao(m.group()) is not None:
            # A) is the FIR itself (UHHH, VIDF), or a FIR of an en-route/warning notice (scope without A): never an
            # aerodrome that happens to share its code
            m = None
        if m:
            zones.append(_Zone({"name": _sp(text, a.span.start, a.span.start + 4)}, a.span.start, a.span.end, "named"))
    if not zones:
        return []

    # message-level limits: F)/G) first, else stated in the free text (E / FAA / prose / Chinese)
    msg_limits: dict[str, Span] = {}
    if (f := _item_limit(text, h, "F")) is not None:
        msg_limits["lower"] = f
    if (g := _item_limit(text, h, "G")) is not None:
        msg_limits["upper"] = g
    if len(msg_limits) < 2:
        # a Chinese pair written as a phrase first (高度从地面至无限高, 真高0米至120米: one reference word for both)
        m = _CN_LIMIT_PHRASE.search(text)
        found = _phrase_limits(text, *m.span("v")) if m else {}
        if not found:
            found = _limits_in(text, lo, hi)
        if "upper" not in found:  # "Altitude: From the surface up to but not including FL(180)"
            m = _ALT_LINE.search(text)
            if m and (ph := _phrase_limits(text, *m.span("v"))):
                found = ph
        if "upper" not in found and "upper" not in msg_limits:
            cn = _CN_UPPER.search(text)
            if cn:
                found["upper"] = _sp(text, *cn.span())
        if "upper" not in found and "upper" not in msg_limits:  # "… NO UPPER LIMIT", 无限高: the word itself
            m = _UNL_WORD.search(text, lo, hi)
            if m:
                found["upper"] = _sp(text, *m.span())
        for k, v in found.items():
            msg_limits.setdefault(k, v)
    times = _times(text, h, lo, hi)
    sched = None
    d = h.item("D")
    if d and d.text:
        sched = d.span
    elif h.kind in ("other", "faa"):  # prose "… 0700-1100 local", FAA "… MON-FRI 1400-2200 2402030600-…"
        m = _CN_DAILY.search(text, lo, hi) if _CJK_RE.search(text, lo, hi) else None
        m = m or (_PROSE_SCHED if h.kind == "other" else _FAA_SCHED).search(text, lo, hi)
        if m:
            sched = _sp(text, *m.span())

    drafts = []
    heads = _area_heads(text)
    for i, z in enumerate(zones):
        fields = dict(z.fields)
        local: dict[str, Span] = {}
        if z.kind == "point":
            # the obstacle's height after its position, else before it ("HGT 450FT AGL AT c", "HGT: 4613 FT AMSL,
            # PSN: c") but not before the previous point's position
            after = (z.anchor_end, min(hi, z.anchor_end + 150))
            before = (max(lo, z.anchor - 100, zones[i - 1].anchor_end if i else lo), z.anchor)
            for rx, a, b in ((_OBST_AGL, *after), (_OBST_MSL, *after), (_OBST_AGL, *before), (_OBST_MSL, *before)):
                ms = list(rx.finditer(text, a, b))
                if ms:
                    m = ms[0] if a == after[0] else ms[-1]  # the one nearest the position
                    g = next(k for k in ("agl", "msl", "msl2") if k in m.re.groupindex and m.group(k))
                    local["upper"] = _sp(text, *m.span(g))
                    break
        elif z.local_limits:
            last = i + 1 == len(zones)
            nxt = hi if last else zones[i + 1].anchor
            line_end = _line_end(text, z.anchor_end, hi)
            # the zone's own line first; else up to the next zone (the last zone: its next line only)
            for seg_end in (min(nxt, line_end), min(nxt, _line_end(text, min(line_end + 1, hi), hi)) if last else nxt):
                m = _TO_UPPER.match(text[z.anchor_end : seg_end])
                if m:
                    local = {"upper": _sp(text, z.anchor_end + m.start("hi"), z.anchor_end + m.end("hi"))}
                else:
                    local = _limits_in(text, z.anchor_end, seg_end)
                if local:
                    break
        for k in ("lower", "upper"):
            if k in local:
                fields[k] = local[k]
            elif k in msg_limits:
                fields[k] = msg_limits[k]
        fields.update(times)
        if z.local_limits and not h.item("B"):  # a list of zones each with its own times ("…, 2311300800-2311301800")
            nxt = zones[i + 1].anchor if i + 1 < len(zones) else hi
            seg_end = min(nxt, _line_end(text, z.anchor_end, hi))
            m = _TIME_PAIR.search(text, z.anchor_end, seg_end) or _ISO_PAIR.search(text, z.anchor_end, seg_end)
            if m:
                fields["start"], fields["end"] = _sp(text, *m.span("s")), _sp(text, *m.span("e"))
        for k, v in _block_values(text, z.anchor, heads).items():  # a TFR page's own values per area
            fields[k] = v
        if z.kind == "named" and not h.item("B"):
            # a notice with several periods, each followed by its area ("8月8日0时至9月1日0时，A。9月1日0时至…，B"):
            # the last period written before the place is the place's own
            before = [m for m in _CN_RANGE.finditer(text, 0, z.anchor)]
            if len(before) >= 1 and len(list(_CN_RANGE.finditer(text))) > 1:
                fields["start"], fields["end"] = _sp(text, *before[-1].span("s")), _sp(text, *before[-1].span("e"))
        if sched is not None:
            fields["schedule"] = sched
        ordered = {k: fields[k] for k in ("center", "radius", "polygon", "name", "lower", "upper", "start", "end", "schedule") if k in fields}
        values = {k: s.text for k, s in ordered.items()}
        if any(d.values == values for d in drafts):
            continue  # the same zone written again ("… - 185727N1052018E - …" in several route lines): one zone
        drafts.append(ZoneDraft(values=values, spans=ordered))
    return drafts


def message_times(text: str, header: Header | None = None) -> ZoneDraft:
    """Only the start/end of a message (for a record of a message that defines no zone)."""
    h = header or parse_header(text)
    times = _times(text, h, *_body(text, h))
    return ZoneDraft(values={k: s.text for k, s in times.items()}, spans=dict(times))


def rules_zones(text: str) -> list[dict[str, str]]:
    """Zones of one message as field -> verbatim value (the drafts without their spans)."""
    return [dict(d.values) for d in rules_drafts(text)]


class RulesExtractor:
    """The deterministic engine, under the same contract as the model engines: drafts with exact spans."""

    name = "rules"

    def extract(self, messages: list[str]) -> tuple[list[Answer], ExtractStats]:
        t0 = time.perf_counter()
        answers: list[Answer] = []
        for text in messages:
            try:
                answers.append(rules_drafts(text))
            except Exception:  # noqa: BLE001 - one unreadable message must not take the batch down
                answers.append(EngineError("the engine could not produce an answer for this message"))
        return answers, ExtractStats(engine=self.name, messages=len(messages), wall_s=time.perf_counter() - t0)
