"""The vocabulary of the rules reader: distances, radius phrasings, polygon separators, limits, places, times.

The readers search them inside the message's free-text region, most of them only in short windows around an
anchor (a coordinate, a keyword), so that long or hostile text stays cheap.
"""

from __future__ import annotations

import re

from airspace.parser.polygon import BORDER_EDGE, CN_POINT_LABEL
from airspace.parser.times import CN_YEAR
from airspace.parser.units import CN_FEET, CN_FROM_GROUND, CN_NOT_OVER, KM_WORDS, M_WORDS, NM_WORDS

DIST_UNITS = (
    # (NMR: "nautical mile radius", the FAA's "10 NMR OF 404500N0735800W")
    rf"{NM_WORDS}|{KM_WORDS}|{M_WORDS}|"
    r"NAUTICAL[\s\-−‐]+MILES?|STATUTE[\s\-−‐]+MILES?|KILOMET(?:ER|RE)S?|MET(?:ER|RE)S?|FEET|NMR|NM|KM|MTR|M|FT|SM|MILES?|MI"
    r"|公里|千米|海里|해리|米"
)
# (never starting inside a number: an unanchored distance would otherwise try every digit of a long digit run)
# (a decimal comma too, "5,9NM": one or two digits after it; three digits after a comma are thousands, "RADIUS OF
# 1,330M", and a distance never starts after one)
# a count written as a word ("RADIUS OF TWO NM", "within five kilometres of")
NUM_WORDS = (r"(?i:ONE|TWO|THREE|FOUR|FIVE|SIX|SEVEN|EIGHT|NINE|TEN|ELEVEN|TWELVE|FIFTEEN|TWENTY(?:[\s\-]FIVE)?|THIRTY"
             r"|FORTY|FIFTY|HUNDRED)")
DIST = rf"(?:(?<![\d.])(?<!\d,)(?:\d{{1,3}}(?:,\d{{3}})+(?:\.\d+)?|\d+(?:\.\d+|,\d{{1,2}}(?!\d))?|\.\d+)|(?<![A-Za-z]){NUM_WORDS}(?=\s))(?:\s?|[\-−‐])(?:{DIST_UNITS})(?![A-Za-z])"  # "2−nautical−mile" too
DIST_PAREN = rf"{DIST}(?:\s*\(\s*{DIST}\s*\))?"
# (RDO: "radio", the radius in Spanish-speaking states' NOTAMs: "RDO 5NM CENTERED COORD: 2205N08102W")
# (and in other languages: "Radius von", "rayon de", "raggio di", "radio de", "raio de", "im Umkreis von", "в радиусе",
# 반경)
RADIUS_KW = (r"(?:RADIUS|RADIUS\s+(?:OF|VON|DE)|RAD\b|RDO\b|半径|半徑|周围|周圍|RAYON\s+D[E']|RAGGIO\s+DI|RADIO\s+DE|RAIO\s+DE"
             r"|UMKREIS\s+VON|РАДИУС[ЕА]?|반경)")
# a distance before the keyword ("0.5NM RADIUS", "a 3 nautical mile radius") or after it ("RADIUS - 1NM", 半径2公里)
# (and "Cercle de 5 NM (9,3 km) de rayon", "círculo de 5 km de radio": the distance "of radius" in other languages)
R_BEFORE = re.compile(rf"(?<![\w.])(?P<d>{DIST})(?:\s*\(\s*{DIST}\s*\))?\s*(?:RADIUS|(?:DE|DI)\s+(?:RAYON|RADIO|RAIO|RAGGIO))\b",
                      re.I)
R_AFTER = re.compile(rf"(?P<kw>{RADIUS_KW})\s*(?:IS\s+|为\s*|為\s*)?[-:：=]?\s*(?P<d>{DIST})", re.I)
R_WITHIN = re.compile(
    rf"(?:\b(?:WI|WITHIN)\s+(?:AN?\s+)?(?P<d>{DIST})\s+(?:OF|FROM|AROUND)"
    rf"|(?<![\w.])(?P<d2>{DIST})\s*(?:(?:RING|CIRCLE)\s+(?:AROUND|ABOUT|AT|OF|ON)|AROUND|ABOUT|OF|FROM|@"
    rf"|CENT(?:RE|ER|RED|ERED)(?:\s+(?:ON|AT))?))"
    rf"\s*(?:(?:PSN|POSITION|POINT|PT|COORD(?:INATES?|S)?)\s*:?\s*)?$",
    re.I,
)
# "… PSN c AND OPR WI 30NM": a radius written after its centre as "within" a distance, with no "of" after it (that is
# R_WITHIN's, before its centre)
R_WI_AFTER = re.compile(rf"\b(?:WI|WITHIN)\s+(?P<d>{DIST})(?!\s*(?:OF|FROM|AROUND|RADIUS|EITHER|EACH|BOTH|@)\b)", re.I)
# a radius mention that directly introduces a list of coordinates ("1NM RADIUS CENTERED ON:\n c1\n c2")
EITHER_SIDE = re.compile(
    rf"(?<![\w.])(?:{DIST})\s+(?:EITHER|EACH|BOTH)\s+SIDES?\s+OF\s+(?:THE\s+|AN?\s+)?"
    r"(?:(?:STRAIGHT\s+)?LINES?|CENT(?:RE|ER)\s?LINE|ROUTE|TRACK|COURSE)?"
    r"(?:\s+(?:JOINING|BETWEEN|FROM|FM|DEFINED\s+BY|CONNECTING|THROUGH))?"
    r"(?:\s+(?:THE\s+)?(?:FOLLOWING\s+|FLW\s+)?(?:POINTS?|PSNS?|POSITIONS?|COORD(?:INATE)?S))?",
    re.I,
)
# Each blank run belongs to the one \s* after the word before it (every optional part starts with a non-blank), so
# a long blank gap is matched in linear time: with adjacent \s* around optional words the engine tried every split
# of the run (a radius, 400 blanks and a coordinate took 22 s; 3 000 blanks, hours).
INTRO_GAP = re.compile(
    r"^\s*(?:(?:CENTERED|CENTRED)\s*(?:(?:ON|AT)\s*)?|(?:OF|AT|ON|AROUND)\s*)?(?:(?:PSN|POSITIONS?)\s*)?(?::\s*)?$", re.I
)
LIST_GAP = re.compile(r"^[\s,;]*(?:AND\s+)?$", re.I)
PLURAL = re.compile(
    rf"(?P<d>{DIST})\s*RADIUS\s+(?:(?:CENTERED|CENTRED|CENTER|CENTRE)\s+)?(?:(?:ON|AT|OF|AROUND)\s+)?(?:THE\s+)?"
    rf"(?:(?:(?:FLW|FLWG|FOLLOWING)\s+(?:PSN|POSITION|POINT|COORD(?:INATE)?S?)\b)|(?:(?:FLW|FLWG|FOLLOWING)\s+)?"
    rf"(?:PSNS|POSITIONS|POINTS|PSN\(S\)|CENTRES|CENTERS)\b)"
    rf"|RADIUS\s+(?:OF\s+)?(?P<d2>{DIST})\s+(?:CENTERED|CENTRED|AROUND)\s+(?:ON\s+|AT\s+)?(?:THE\s+)?"
    rf"(?:(?:FLW|FOLLOWING)\s+)?(?:PSNS|POSITIONS|POINTS)\b"
    rf"|(?P<d3>{DIST})\s+(?:RADIUS\s+)?(?:OF|AROUND|FROM)\s+EACH(?:\s+OF)?(?:\s+THE)?(?:\s+(?:FLW|FOLLOWING))?"
    rf"(?:\s+(?:PSNS?|POSITIONS?|POINTS?|COORD(?:INATE)?S))?\s*:?",
    re.I,
)
# HTML line-break and emphasis tags a web feed leaves in its text (``…088-25.30W, <br>\n   15-59.83N …``) are
# line breaks and blanks of the layout, never words
MARKUP = r"</?(?:br|b|p|i|u|em|strong|span|div|font|pre)\b[^<>\n]{0,40}>"
SEP = rf"(?:[\s\-–—,;:.，、；/?]|{MARKUP})*"  # ('?': a lost non-ASCII blank in some feeds, "I.?1200N 08440E")
# separators between polygon vertices, optionally with a connective and a vertex label ("2)", "PSN", "POINT B:"; a
# US regulation's "; thence southeast to latitude …");
# never a sentence ended at a point and a new line (or the blank run a feed collapsed it into) with a letter label:
# that is the next lettered area of a list ("… 31-41.00N 076-43.00W.\n   B. 28-39.69N …", NAVAREA / HYDROPAC
# warnings), not the next vertex
_LETTERED_AREA = r"(?-i:\.(?:[ \t]*\r?\n\s*| {2,})\(?[A-Z][.)]\s*$)"
SEP_GAP = re.compile(
    rf"^(?!{_LETTERED_AREA}){SEP}(?:(?:TO|THEN|AND|THENCE(?:\s+(?:NORTH|SOUTH|EAST|WEST)[A-Z]*){{0,2}}\s+TO)\b{SEP})?"
    rf"(?:LATITUDE\b{SEP})?(?:(?:\(?\d{{1,2}}[).:]|\(?(?:[A-Z]|[IVX]{{2,4}})[).:]|(?:PSN|PT|POINT)(?:\s*[A-Z0-9]{{1,2}})?\s*:?"
    rf"|{CN_POINT_LABEL})[\s?]*)?$"
    # (points labelled in Chinese, each in brackets: "A点（c）、B点（c）")
    rf"|^[）)]{SEP}{CN_POINT_LABEL}[\s?]*$",
    re.I,
)
ARC_GAP = re.compile(r"\b(?:ARC|CLOCKWISE|ANTI-?CLOCKWISE|COUNTER-?\s?CLOCKWISE)\b|圆弧|圓弧", re.I)
CLOSE_IN_GAP = re.compile(r"\bTO\s+(?:THE\s+)?(?:START|BEGINNING|POINT\s+OF\s+ORIGIN|ORIGIN|FIRST\s+POINT)\b", re.I)
BOUNDARY_GAP = re.compile(rf"^[\s\-–—,]*{BORDER_EDGE}\s*(?:TO\s*)?[\s\-–—,]*$", re.I)  # an edge along a border
# a vertex that looks like a coordinate but does not read ("0645N 112000W": a 6-digit longitude): it stays in the
# polygon span so that the polygon normaliser names it (review) instead of the ring breaking into points
BAD_VERTEX_GAP = re.compile(
    rf"^{SEP}(?:\d{{2,7}}(?:\.\d+)?\s?[NS][\s-]?\d{{2,8}}(?:\.\d+)?\s?[EW]|[NS]\s?\d{{2,7}}(?:\.\d+)?\s?[EW]\s?\d{{2,8}}(?:\.\d+)?){SEP}$"
)
BAD_VERTEX_TAIL = re.compile(
    rf"{SEP}(?:\d{{2,7}}(?:\.\d+)?\s?[NS][\s-]?\d{{2,8}}(?:\.\d+)?\s?[EW]|[NS]\s?\d{{2,7}}(?:\.\d+)?\s?[EW]\s?\d{{2,8}}(?:\.\d+)?)"
    r"(?![\dA-Z])"
)
NAME_TOKEN = r"[A-Z](?:[A-Z0-9'/ ]|&[a-z]{2,6};|&#\d{1,5};){1,60}?"
NAMED_GAP = re.compile(rf"^\s*[-–—]\s*(?:TO\s+)?{NAME_TOKEN}\s*[-–—]\s*$")
NAMED_BEFORE = re.compile(rf"(?P<np>{NAME_TOKEN})\s*[-–—]\s*$")
NAMED_AFTER = re.compile(r"^\s*[-–—]\s*(?P<np>[A-Z]{2,20})(?![\dA-Z])(?=\s+BACK\b|\s+TO\s+(?:START|BEGINNING)\b|\s*[.\n])")
# a NAVAID radial/distance reference written after an FAA point: "285116N0804219W (OMN141034.4) TO …"
# (also bare, as the FAA TFR pages write them: "From: 285116N 0804219W OMN141034.4 To: …")
FIXREF = re.compile(r"\(\s*[A-Z]{2,5}\s?\d{6}(?:\.\d{1,2})?\s*\)|(?<![A-Z0-9])[A-Z]{2,5}\d{6}(?:\.\d{1,2})?(?![\dA-Z])")


def nofix(gap: str) -> str:
    """A gap between two points with its NAVAID fix references blanked out (same length, offsets kept)."""
    return FIXREF.sub(lambda m: " " * len(m.group()), gap)


CLOSE = re.compile(
    r"^[\s\-–—,]*(?:AND\s+)?(?:BACK\s+)?TO\s+(?:THE\s+)?(?:START(?:ING\s+POINT)?|BEGINNING|POINT\s+OF\s+ORIGIN|"
    r"ORIGIN|FIRST\s+POINT|INITIAL\s+POINT)\b|^[\s\-–—,]*BACK\s+TO\s+START\b",
    re.I,
)

# (a list label's number is not a thousands group: "ZONE 5 500m AGL" is 500 m, "#3 100m AGL" 100 m)
NUM = (r"(?:\d{1,3}(?:,\d{3})+|(?<!ZONE )(?<!AREA )(?<!SECTOR )(?<!#)(?<!# )\d{1,3}(?: \d{3})+(?=\s?(?:FT|FEET|M|MTR|METERS?|METRES?)\b)"
       r"|\d+)(?:\.\d+)?")
_ALT_VALUE = rf"(?<![\w.,]){NUM}\s?(?:FT|FEET|M|MTR|METERS?|METRES?)\b\.?"
_ALT_REF = r"\s?(?:AMSL|MSL|AGL|ASFC|AAL)"
ALT = rf"{_ALT_VALUE}(?:{_ALT_REF})?"
ALT_REF = rf"{_ALT_VALUE}{_ALT_REF}\b"  # a height with its reference ("500 M" alone may be a radius)
LIM = rf"(?:(?<![A-Z])(?:SFC|GND|SURFACE|UNL(?:TD|IMITED|IMTED)?)(?![A-Z])|\bFL\s?\d{{2,3}}\b|{ALT})"
RANGE = re.compile(
    rf"(?:(?:FM|FROM|BTN|BETWEEN)\s+(?:THE\s+)?)?(?P<lo>{LIM})\s*"
    rf"(?:[-–—]?\s*UP\s+TO(?:\s+(?:AND|BUT)\s+(?:NOT\s+)?INCLUDING)?|-|–|—|TO|AND)\s*"
    rf"(?P<hi>{LIM})(?!(?<=\d)(?:\d|[.,]\d))",
    re.I,
)
# what follows a circle's radius, never a range's upper: "below 1200M AGL - 5250M radius of c", "… - 9990m around c"
RADIUS_NEXT = re.compile(r"[ \t]*(?:RADIUS|AROUND|RING|CIRCLE|ABOUT)\b", re.I)
# "GND/5000FT AMSL", "FL125/5,700M AMSL": a slash separates limits only after a floor word or a flight level
# (a bare "200FT AGL/211FT MSL" is one height in two references, not a band)
RANGE_SLASH = re.compile(rf"(?P<lo>{LIM})\s*/\s*(?P<hi>{LIM})", re.I)
FLOORISH = re.compile(r"^(?:SFC|GND|SURFACE|FL\s?\d{2,3})$", re.I)


UPPER_ONLY = re.compile(
    rf"(?:\bUP(?:\s*TO(?:\s+AND\s+INCLUDING)?)?|AT\s+OR\s+BELOW|BLW|BELOW|MAX(?:IMUM)?\s*(?:HGT|HEIGHT|ALT)?:?"
    rf"|\bCEILING(?:\s+OF)?:?)\s+(?P<hi>{LIM})"
    rf"|(?:AT\s+)?(?P<hi2>{LIM})\s+AND\s+BELOW"
    # prose: "from the surface to a height of 500ft above ground level", with its reference spelled out
    rf"|\bTO\s+AN?\s+(?:HEIGHT|ALTITUDE)\s+OF\s+(?P<hi3>{LIM}(?:\s+ABOVE\s+(?:GROUND|(?:MEAN\s+)?SEA)\s+LEVEL)?)",
    re.I,
)
TO_UPPER = re.compile(rf"^[\s,;:.)-]*TO\s+(?P<hi>{LIM})", re.I)  # "PSN c TO 1,500 FT AMSL" right after a centre
# ("floor GND, ceiling UNL": an operator's prose names the two limits)
LOWER_ONLY = re.compile(rf"(?:\bFM|\bFROM|\bABV|\bABOVE|\bFLOOR(?:\s+OF)?:?)\s+(?:THE\s+)?(?P<lo>{LIM})", re.I)
OBST_AGL = re.compile(rf"(?<![\w.,])(?P<agl>{NUM}\s?(?:FT|M)\.?\s?AGL)\b", re.I)
OBST_MSL = re.compile(rf"(?<![\w.,])(?P<msl>{NUM}\s?(?:FT|M)\.?\s?A?MSL)\b|\bA?MSL\s+(?P<msl2>{NUM}\s?(?:FT|M))\b", re.I)
NOT_IDENT = {"THE", "PSN", "POSITION", "POINT", "FIX", "CENTER", "CENTRE", "AREA", "FLW", "EACH", "ALL", "AND"}
# "RADIUS OF ATL": a circle around an aerodrome identifier (FAA), no coordinates
R_IDENT = re.compile(
    rf"(?P<d>(?i:{DIST}))\s*RADIUS\s+(?:OF|AROUND|(?:CENTERED|CENTRED)\s+(?:ON|AT))\s+(?P<id>[A-Z]{{3,4}})\b(?![\s/-]*\d)"
    rf"|RADIUS\s+(?:OF\s+)?(?P<d2>(?i:{DIST}))\s+(?:AROUND|OF|(?:CENTERED|CENTRED)\s+(?:ON|AT))\s+(?P<id2>[A-Z]{{3,4}})\b(?![\s/-]*\d)"
    rf"|\b(?:WI|WITHIN)\s+(?P<d3>(?i:{DIST}))\s+(?:OF|AROUND)\s+(?P<id3>[A-Z]{{3,4}})\b(?![\s/-]*\d)"
    rf"|(?P<d4>(?i:{DIST}))\s*(?:RADIUS\s+)?(?:(?:OF|AROUND|FROM)\s+)?(?:THE\s+)?(?P<id4>[A-Z]{{4}})\s+"
    rf"(?:AERODROME|AD|AIRPORT|ARP|AIRFIELD)\b"
)
# prose: "within 0.4NM of Wembley Stadium", "300MTR around Central Park" (a Title-Case place name)
R_PLACE = re.compile(
    rf"(?:\b(?:[Ww]ithin|WITHIN|WI)\s+(?:an?\s+)?)?(?P<d>(?i:{DIST}))\s+(?:radius\s+|RADIUS\s+)?(?:of|around|from|OF|AROUND)\s+"
    r"(?:the\s+)?(?P<name>[A-Z][\w'’.&-]*(?:\s+(?:[A-Z][\w'’.&-]*|of|de|du|la|the|and|&)){0,6})"
)
# a named area switched on: "R5206 ACT", "SBR 217 (PIRANGI) ACT", "DANGER AREA ACT: UHD411"
DESIGNATOR = re.compile(
    # ("LRTRA111B": a state's temporary reserved area, five letters; "TRA806(A)": a sub-area letter in brackets)
    r"\b(?P<name>[A-Z]{1,5}[- ]?\d{2,4}[A-Z]?(?:\([A-Z0-9]\))?)\s*(?:\([A-Z0-9 .,'/-]{1,40}\)\s*)?"
    r"(?:ACT|ACTIVATED|ACTIVE|ACTIAVTED)\b"
    # "VAD 8 (BERCHHA) ACT", "VOD-188 CHENGALPATTU FRNG RANGE ACT", "VOD175(A) THUMBA-1 ROCKET FRNG RANGE ACT":
    # a danger/restricted/prohibited area designator (ICAO nationality letters + D/R/P) named before ACT
    r"|\b(?P<name3>[A-Z]{1,2}[DRP][- ]?\d{1,4}[A-Z]?)(?:\s*\([A-Z0-9 .,'/-]{1,40}\))?(?:\s+[A-Z][A-Z0-9'-]{1,20}){0,4}"
    r"\s+(?:ACT|ACTIVATED|ACTIVE|ACTIAVTED)\b"
    r"|\bAREAS?\s+(?:ACT|ACTIVATED|ACTIVE)\s*:?\s*(?P<name2>[A-Z]{1,4}[- ]?\d{1,4}[A-Z]?)\b"
)
# a FIR named with its indicator: "FIR TRIPOLI (HLLL)", "KABUL FIR (OAKX)"
FIR_NAMED = re.compile(
    r"\bFIR\s+[A-Z][A-Z-]{1,20}(?: [A-Z][A-Z-]{1,20}){0,2}\s*\(\s*[A-Z]{4}\s*\)"
    r"|\b[A-Z][A-Z-]{1,20}(?: [A-Z][A-Z-]{1,20}){0,2}\s+FIR\s*\(\s*[A-Z]{4}\s*\)"
)
FIR_LIST_HEAD = re.compile(r"\bFLIGHT\s+INFORMATION\s+REGIONS\s*(?:\(FIRS?\))?\s*:|\bFIRS\s*:")
FIR_ITEM = re.compile(r"\s*(?:(?:,|\bAND\b)\s*)?(?P<item>[A-Z][A-Z-]{1,20}(?: [A-Z][A-Z-]{1,20}){0,2}\s*\(\s*[A-Z]{4}\s*\))")
UNL_WORD = re.compile(r"(?<![A-Z])(?:UNL|UNLTD|UNLIMITED|UNLIMTED)(?![A-Z])|无限高|無限高", re.I)
# (距地表高度不逾400呎: a height from the ground "not exceeding" 400 ft, as Taiwan's drone notices write the ceiling)
CN_UPPER = re.compile(rf"(?:{CN_FROM_GROUND}(?=[^，,。；;\n]{{0,4}}\d))?"
                      rf"(?:真高|相对高度|相對高度|飞行高度|飛行高度|高度|(?:비행\s*)?고도|지상\s*고도)\s*(?:为|為|{CN_NOT_OVER})?\s*"
                      rf"\d+(?:\.\d+)?\s*(?:米|公尺|미터|m|{'|'.join(CN_FEET)})")
# Chinese places: found from their anchor (为中心 / 周边500米 / ，半径3公里 / 上空) backwards to the start of the clause,
# so that hostile text without anchors costs one linear scan
# (a blank run is taken only from its first character: a leading \s* tried at every blank of a long run is quadratic)
CN_CENTRE_ANCHOR = re.compile(r"(?:(?<!\s)\s+)?(?:为|為)\s*(?:中心|圆心|圓心|核心)")
# 3公里(含): 3 km included; 两公里, 五百米: a radius in Chinese numerals (三千米 is 3,000 m read either way)
# (and the metre and kilometre as Japanese writes them: "300メートル", "三百メートル", "1キロメートル")
CN_DIST = (r"(?:\d+(?:\.\d+)?\s*(?:公里|千米|米|キロメートル|メートル|km|KM|m|ｍ|㎞)"
           r"|[一二两兩三四五六七八九十百千万萬][零〇一二两兩三四五六七八九十百千万萬]*\s*(?:公里|千米|米|キロメートル|メートル))"
           r"(?:\s*[（(]含[）)])?")
CN_BUFFER_ANCHOR = re.compile(
    # (Japanese: "…及びその周囲おおむね300メートルの地域", the act's own words for the area around a facility)
    # (each blank run taken once: adjacent optional \s* would retry a long run in every split of it)
    rf"(?:及びその|並びにその|及其|及|的)?(?:(?<!\s)\s+)?(?:周[边邊辺囲]|附近)(?:地域)?\s*(?:半[径徑]\s*)?"
    rf"(?:(?:おおむね|概ね|約)\s*)?(?P<d>{CN_DIST})|[，,]\s*半[径徑]\s*(?:为|為)?\s*(?P<d2>{CN_DIST})"
    rf"|(?:两侧|兩側|两边|兩邊)\s*(?:各)?\s*(?P<d3>{CN_DIST})"
)
# "以X为中心向四周辐射2公里": the radius in words other than 半径
CN_SPREAD = re.compile(rf"\s*(?:，|,)?\s*(?:向)?\s*(?:四周|周边|周邊|外)?\s*(?:辐射|輻射|延伸|扩展|擴展)\s*(?P<d>{CN_DIST})")
# a whole administrative area: "在北京市行政区域内", "杭州市行政区域全境"
CN_GLOSS = r"(?:\([a-zA-Z\u00c0-\u024f\u0300-\u036f]{1,6}\))?"  # 區(qū): a pinyin gloss some mirrors add
# (each district an atomic group: a run of characters up to the first 区/县; searched only in short windows)
CN_DISTRICT = rf"(?>(?:[\u4e00-\u9fff]{CN_GLOSS}){{1,12}}?[区區县縣旗]{CN_GLOSS})"
CN_DISTRICTS = re.compile(rf"{CN_DISTRICT}(?:[、,，和及]{CN_DISTRICT}){{1,20}}(?=[。；;，,\s]|$)")
CN_AREA_LABEL = re.compile(r"(?:区域|區域|范围|範圍)\s*[:：]")
# a whole administrative area: "本市行政区域", "…市全境", "合肥市城区全域", "全市范围内", "我市市区范围内", "朝阳区辖区内"
CN_ADMIN_ANCHOR = re.compile(r"(?:行政区域|行政區域|行政區[(（]q[uū][)）]域)(?:全境|全域)?|(?<=[市县縣区區省])全境"
                             # (the whole city or county as the subject of its ban: "…，全市禁止无人机…")
                             r"|(?<![\u4e00-\u9fff])全[市县縣](?=禁止|严禁|嚴禁|实施|實施|范围|範圍)"
                             r"|(?<=[市县縣区區省])(?:城区|城區|市区|市區|主城区|主城區|中心城区|中心城區)?"
                             r"(?:全域|范围内|範圍內|辖区内|轄區內|境内|境內)")
CN_AREA_ANCHOR = re.compile(
    r"(?:及其?)?(?:(?<!\s)\s+)?(?:周[边邊辺]|附近|一带|一帶|周[围圍])(?:区域|區域|地区|地區|地域|空域)?|(?<!城市)上空|合[围圍](?:区域|區域)"
)
CN_WHOLE_AREA = re.compile(
    r"(?P<area>(?:行政区域|行政區域)(?:全境|全域)?)(?:空域)?\s*(?:为|為|划设为|劃設為|设为|設為)\s*(?:临时|臨時)?(?:空中)?"
    r"(?:限制区|禁飞区|管制区|限制區|禁飛區|管制區)"
)
# (and the Japanese Small Unmanned Aircraft Act's words for the facilities it covers: "対象施設の敷地又は区域", the
# premises of a covered facility, "対象外国公館等")
CN_NOT_PLACE = re.compile(r"禁止|严禁|嚴禁|任何|一切|无人机|無人機|航空器|期间|期間|対象|敷地(?:又は|若しくは)区域")
# an hour: digits or Chinese numerals (零时, 二十时), a pinyin gloss left by some mirrors (18時(shí)), minutes
# (after the part of the day it is in, "上午8时", "下午6时", "晚上9点", which ``parser.times`` reads)
CN_T = (
    r"(?:(?:上午|早上|早晨|凌晨|中午|下午|傍晚|晚上|夜间|夜間)?\s*(?:\d{1,2}|[零〇一二两兩三四五六七八九十]{1,3})\s*(?:时|時|点|點)(?:\s*[（(][A-Za-z\u00c0-\u024f\u0300-\u036f ]{1,8}[）)])?"
    r"(?:\s*\d{1,2}\s*分)?|\d{1,2}\s*[:：]\s*\d{2})"
)
CN_DT = rf"(?:{CN_YEAR}\s*年\s*)?\d{{1,2}}\s*月\s*\d{{1,2}}\s*日\s*(?:[（(][^）)]{{1,6}}[）)]\s*)?{CN_T}"
CN_DAY_T = rf"\d{{1,2}}\s*日\s*{CN_T}"  # "…至26日18时": the end in the same month
CN_RANGE = re.compile(rf"(?P<s>{CN_DT})\s*起?\s*(?:至|到|—|–|-|～|~)\s*(?P<e>{CN_DT}|{CN_DAY_T}|{CN_T})")
# days and then the hours of each ("11月22日-11月26日16:00-23:00"): from the first day to the last, the hours the
# daily window (Beijing time), as "6月6日至6月10日(每日8时至18时)" reads
_CN_TO = r"\s*(?:至|到|—|–|-|～|~)\s*"
CN_DATES_WINDOW = re.compile(
    rf"(?P<s>(?:{CN_YEAR}\s*年\s*)?\d{{1,2}}\s*月\s*\d{{1,2}}\s*[日号號]){_CN_TO}"
    rf"(?P<e>(?:{CN_YEAR}\s*年\s*)?(?:\d{{1,2}}\s*月\s*)?\d{{1,2}}\s*[日号號])\s*[，,]?\s*(?P<clock>{CN_T}{_CN_TO}{CN_T})")


def cn_periods_in(text: str, lo: int = 0, hi: int | None = None) -> list[re.Match]:
    """The periods a Chinese notice writes, in text order: ``CN_DATES_WINDOW`` (days, then their daily hours) and
    ``CN_RANGE`` (a start and an end) where it is not part of one."""
    hi = len(text) if hi is None else hi
    windows = list(CN_DATES_WINDOW.finditer(text, lo, hi))
    ranges = [r for r in CN_RANGE.finditer(text, lo, hi) if not any(w.start() <= r.start() < w.end() for w in windows)]
    return sorted(windows + ranges, key=lambda r: r.start())
# dates without hours ("2024年6月6日至6月10日"): from the start of the first day to the end of the last
CN_DATE_RANGE = re.compile(
    rf"(?P<s>(?:{CN_YEAR}\s*年\s*)?\d{{1,2}}\s*月\s*\d{{1,2}}\s*[日号號])\s*起?\s*(?:至|到|—|–|-|～|~)\s*"
    rf"(?P<e>(?:{CN_YEAR}\s*年\s*)?(?:\d{{1,2}}\s*月\s*)?\d{{1,2}}\s*[日号號])(?!\s*(?:\d|[零〇一二两兩三四五六七八九十]+\s*[时時点點]))"
)
# a ban on flying in a Chinese text: "禁止无人机黑飞", "实施无人机禁飞", "设立临时限制飞行区", "禁止…飞行"
CN_BAN = re.compile(r"禁飞|禁飛|限飞|限飛|限制飞行|限制飛行|禁止[^。；;\n]{0,12}(?:无人机|無人機|飞行|飛行|升空)")
# one day without hours ("3月30日(周日)下午…设立临时限制飞行区"): read only where the sentence bans flying
# (``rules.times``), as the whole day in Beijing time; not a day that opens a range, carries a clock or starts a period
CN_ONE_DAY = re.compile(
    rf"(?<!\d)(?P<s>(?:{CN_YEAR}\s*年\s*)?\d{{1,2}}\s*月\s*\d{{1,2}}\s*[日号號])"
    r"(?!\s*(?:[（(][^）)]{1,6}[）)]\s*)?(?:\d|[零〇一二两兩三四五六七八九十]+\s*[时時点點]|起|至|到|[—–\-～~]))"
)
# a Japanese period (Japan time): "令和7年5月3日(土)午前9時から同日午後6時まで", "5月3日9時～5月5日18時", and whole days
# "2025年5月3日から5月5日まで" (the normaliser reads the era year, 午前/午後 and 同日: ``parser.times``)
# (a day written as year, month and day, each part but the day left out where the start gave it, and its weekday)
_JP_YEAR = r"(?:(?:令和|平成)\s*(?:\d{1,2}|元)|\d{4})\s*年\s*"
_JP_WEEKDAY = r"(?:\s*[（(][^）)\n]{1,3}[）)])?"
_JP_DAY = rf"(?:{_JP_YEAR})?\d{{1,2}}\s*月\s*\d{{1,2}}\s*日{_JP_WEEKDAY}"
_JP_END_DAY = rf"(?:{_JP_YEAR})?(?:\d{{1,2}}\s*月\s*)?\d{{1,2}}\s*日{_JP_WEEKDAY}"
_JP_CLOCK = r"(?:(?:午前|午後)\s*)?(?:\d{1,2}\s*時(?:\s*\d{1,2}\s*分|半)?|\d{1,2}\s*[:：]\s*\d{2}|正午)"
_JP_TO = r"\s*(?:から|～|〜|~|－|-)\s*"
JP_RANGE = re.compile(
    rf"(?P<s>{_JP_DAY}\s*{_JP_CLOCK}){_JP_TO}(?P<e>(?:同日|翌日)?\s*(?:{_JP_DAY}\s*)?{_JP_CLOCK})")
JP_DAYS = re.compile(rf"(?P<s>{_JP_DAY}){_JP_TO}(?P<e>{_JP_END_DAY})(?!\s*{_JP_CLOCK})")
# a Korean period (Korea time): "2025년 5월 3일 오전 9시부터 오후 6시까지", "5월 3일 09:00 ~ 5월 5일 18:00", and whole
# days "10월 31일∼11월 1일" (the normaliser reads 오전/오후 and 다음날: ``parser.times``)
_KO_WEEKDAY = r"(?:\s*[(（][월화수목금토일][)）])?"
_KO_DAY = rf"(?:\d{{4}}\s*년\s*)?\d{{1,2}}\s*월\s*\d{{1,2}}\s*일{_KO_WEEKDAY}"
_KO_END_DAY = rf"(?:\d{{4}}\s*년\s*)?(?:\d{{1,2}}\s*월\s*)?\d{{1,2}}\s*일{_KO_WEEKDAY}"
_KO_CLOCK = r"(?:(?:오전|오후)\s*)?(?:\d{1,2}\s*시(?:\s*\d{1,2}\s*분)?|\d{1,2}\s*:\s*\d{2}|정오)"
_KO_TO = r"\s*(?:부터|~|∼|～|〜|-|–)\s*(?:부터\s*)?"
KO_RANGE = re.compile(
    rf"(?P<s>{_KO_DAY}\s*{_KO_CLOCK}){_KO_TO}(?P<e>(?:(?:다음\s*날|익일)\s*)?(?:{_KO_DAY}\s*)?{_KO_CLOCK})")
KO_DAYS = re.compile(rf"(?P<s>{_KO_DAY}){_KO_TO}(?P<e>{_KO_END_DAY})(?!\s*{_KO_CLOCK})")
# the dotted dates of Korean notices: "2025. 5. 3.(토) 09:00 ~ 18:00", "2025.05.03 09:00~2025.05.05 18:00"
_KO_DOT_MD = rf"\d{{1,2}}\.\s*\d{{1,2}}\.?{_KO_WEEKDAY}"
KO_DOT_RANGE = re.compile(
    rf"(?P<s>\d{{4}}\.\s*{_KO_DOT_MD}\s*\d{{1,2}}:\d{{2}})\s*[~∼～〜-]\s*"
    rf"(?P<e>(?:(?:\d{{4}}\.\s*)?{_KO_DOT_MD}\s*)?\d{{1,2}}:\d{{2}})(?!\d)")
# and whole days: "2024.05.01 ~ 2024.05.03", "2024. 5. 1.(수) ~ 5. 3.(금)"
KO_DOT_DAYS = re.compile(
    rf"(?P<s>\d{{4}}\.\s*{_KO_DOT_MD})\s*[~∼～〜-]\s*(?P<e>(?:\d{{4}}\.\s*)?{_KO_DOT_MD})(?!\s*\d{{1,2}}:\d{{2}})(?![\d.])")
# a start day without its month before an end with one ("19日起至10月31日24时"): the start's month and year are the
# notice's own, as ``CN_DAY_RANGE``'s
CN_DAY_TO_DATE = re.compile(rf"(?<![月\d])(?P<s>\d{{1,2}}\s*[日号號])\s*起?\s*(?:至|到)\s*(?P<e>{CN_DT})")
# a window on the event's own day, its date written elsewhere in the notice ("活动当日17时至23时"): the day is the
# one the notice says the event is held on (``parser.partial_time.complete_cn_day``)
CN_EVENT_DAY = re.compile(rf"(?P<s>(?:当日|当天|當日|當天)\s*{CN_T})\s*(?:至|到|—|–|-|～|~)\s*(?P<e>(?:次日|翌日)?\s*{CN_T})")
# days without their month ("26日至30日的每日8时至18时"): the month and year are the notice's own (its heading or its
# dated signature line), completed by the normaliser and said to be inferred
CN_DAY_RANGE = re.compile(
    r"(?<![月\d])(?P<s>\d{1,2}\s*[日号號])\s*起?\s*(?:至|到|—|–|-|～|~)\s*(?P<e>\d{1,2}\s*[日号號])"
    r"(?!\s*(?:\d|[零〇一二两兩三四五六七八九十]+\s*[时時点點]))"
)
# a period of whole days in prose ("13 Oct 2018 - 14 Oct 2018", "24th March 2017 to 31st March 2017"), and a daily
# window in it ("1100hrs to 1500hrs UTC daily"): the days are completed to times by the normaliser (said inferred)
_ORD_DAY = r"\d{1,2}(?:st|nd|rd|th)?"
_MON_NAME = r"(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?"
PROSE_DAY_RANGE = re.compile(
    rf"(?<![\d/])(?P<s>{_ORD_DAY}\s+{_MON_NAME}\s+\d{{4}})\s*(?:-|–|—|\bto\b|\buntil\b|\bthru\b)\s*"
    rf"(?P<e>{_ORD_DAY}\s+{_MON_NAME}\s+\d{{4}})(?![\d/])",
    re.I,
)
PROSE_DAILY = re.compile(
    r"(?<![\d/:.])(?P<clock>[0-2]\d[0-5]\d\s?(?:hrs?|h|Z)?\s*(?:-|–|to)\s*[0-2]\d[0-5]\d\s?(?:hrs?|h|Z)?"
    r"(?:\s*(?:UTC|GMT|Z))?)\s*(?:daily|each\s+day|every\s+day)\b",
    re.I,
)
# "自3月2日0时至全国两会闭幕次日12时期间": the start is a date, the end an event (no end stated)
CN_FROM = re.compile(rf"(?:自|从|從)\s*(?P<s>{CN_DT})\s*起?\s*(?:至|到)")
# in force from the day the notice is published until a day ("自即日起至2024年12月31日", "从发布之日起至12月31日24时"):
# the end alone, the start the notice's own day, which the text does not write
# (blanks only after its "from", so a run of blanks is not tried from every blank in it)
CN_UNTIL = re.compile(rf"(?:(?:自|从|從)\s*)?(?:即日|今日|今天|(?:本)?(?:通告|公告)?(?:发布|發布|公布)之日)\s*起?\s*(?:至|到)\s*"
                      rf"(?P<e>(?:{CN_YEAR}\s*年\s*)?\d{{1,2}}\s*月\s*\d{{1,2}}\s*[日号號](?:\s*{CN_T})?)")
# a daily period in a Chinese notice (每日8时至18时, 每天08:00-18:00): the schedule (Beijing time)
CN_DAILY = re.compile(rf"(?:每日|每天)\s*(?:的)?\s*{CN_T}\s*(?:至|到|—|–|-|～|~)\s*(?:次日|翌日)?\s*{CN_T}")
ICAO_TIME = re.compile(r"(?:\d{10}(?:\s?EST)?|PERM|UFN)\b")
TIME_PAIR = re.compile(
    r"(?<!\d)(?P<s>\d{10})\s*(?:UTC\s*)?(?:\([^()]{0,40}\)\s*)?(?:-|TO|UNTIL|TIL|THRU|AND)\s*"
    r"(?P<e>(?:APRX\s+)?\d{10}(?:\s?EST)?|PERM)(?![\dA-Z])",
    re.I,
)
ISO_DT = r"\d{4}-\d{2}-\d{2}[T ]\d{2}:\d{2}(?::\d{2})?\s?(?:Z|UTC)?"
UNTIL = re.compile(rf"\b(?:UNTIL|TILL|TIL|UNTL)\s+(?P<e>(?:APRX\s+)?\d{{10}}(?:\s?EST)?(?!\d)|{ISO_DT})", re.I)
FROM = re.compile(rf"\b(?:FROM|FM|WEF|STARTING|BEGINNING)\s+(?P<s>\d{{10}}(?!\d)|{ISO_DT})", re.I)
ISO_PAIR = re.compile(rf"(?P<s>{ISO_DT})\s*(?:-|–|TO|UNTIL|TILL|AND)\s*(?P<e>{ISO_DT})", re.I)
# a daily time range written in prose ("0700-1100 local", "DAILY 1000-1600 Z")
DAY = r"(?:MON|TUE|WED|THU|FRI|SAT|SUN)"
SCHED_PREFIX = rf"(?:DAILY|DLY|{DAY}(?:\s*[-,/&]\s*{DAY}|\s+{DAY})*)"
PROSE_SCHED = re.compile(
    rf"(?:\b{SCHED_PREFIX}\s+)?(?<![\d/:-])\d{{4}}\s?-\s?\d{{4}}(?![\d/:-])(?:\s?(?:local|LT|Z|UTC|GMT)\b)?", re.I
)
FAA_SCHED = re.compile(
    rf"\b{SCHED_PREFIX}\s+(?:BTN\s+|BETWEEN\s+)?(?<![\d/:-])\d{{4}}\s?[-/]\s?\d{{4}}(?![\d/:-])"
    rf"(?:\s*,?\s*\d{{4}}-\d{{4}}(?![\d-]))*"
)
MONTH = r"(?:JAN|FEB|MAR|APR|MAY|JUN|JUL|AUG|SEP|OCT|NOV|DEC)[A-Z]*\.?"
_PROSE_DAY_CLOCK = rf"{MONTH}\s+\d{{1,2}},?\s+\d{{4}}(?:\s+at)?\s+\d{{4}}"
PROSE_DT = rf"{_PROSE_DAY_CLOCK}(?:\s*(?:UTC|Z|GMT))?"
TFR_BEGIN = re.compile(rf"Beginning\s+Date\s+and\s+Time\s*:\s*(?P<v>{PROSE_DT})", re.I)
TFR_END = re.compile(rf"Ending\s+Date\s+and\s+Time\s*:\s*(?P<v>{PROSE_DT})", re.I)
PROSE_ANY = re.compile(PROSE_DT, re.I)
# a web page's B)/C) value: "02 Jan 2025 09:00 GMT" (a clock with no zone word is not taken: it may be local)
# a period whose ends are days marked UTC, as maritime and military messages write them: "142158Z MAR 24 TO 150325Z
# MAR 24", "14 MAR 24 AT 2158Z TO 15 MAR 24 AT 0325Z", "2158Z 14 MAR 24 - 0325Z 15 MAR 24"
_ZDAY = (rf"(?:\d{{6}}\s?Z\s+{MONTH}\s+(?:\d{{4}}|\d{{2}})(?!\d)"
         rf"|\d{{1,2}}\s+{MONTH}\s+(?:\d{{4}}|\d{{2}}),?\s+(?:AT\s+)?\d{{2}}:?\d{{2}}\s*(?:Z|UTC|GMT)\b"
         rf"|\d{{2}}:?\d{{2}}\s*(?:Z|UTC|GMT),?\s+(?:ON\s+)?\d{{1,2}}\s+{MONTH}\s+(?:\d{{4}}|\d{{2}})(?!\d))")
Z_PAIR = re.compile(rf"(?<!\w)(?P<s>{_ZDAY})\s*(?:TO|UNTIL|TILL|THRU|THROUGH|-|–)\s*(?P<e>{_ZDAY})", re.I)
DMY_CLOCK = re.compile(rf"\d{{1,2}}\s+{MONTH}\s+\d{{4}}\s+\d{{2}}:?\d{{2}}\s*(?:UTC|Z|GMT)\b", re.I)
# the same in prose order as an item's value: "B) February 13, 2027 at 0716 UTC"
MDY_CLOCK = re.compile(rf"{_PROSE_DAY_CLOCK}\s*(?:UTC|Z|GMT)\b", re.I)
CJK_RE = re.compile(r"[\u3400-\u9fff]")
ICAO_LOC = re.compile(r"^[A-Z]{4}\b")
