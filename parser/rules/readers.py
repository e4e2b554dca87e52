"""The readers for a message whose text gives no coordinates (or only an aerodrome's own points), run in turn.

``FALLBACKS`` is the order: the first reader that finds a zone decides the message's zones (a FIR named in the
text comes before the Q-line circle, which is centred on the issuing state, not on the FIR the notice is about);
the Q-line and A) readers apply only to notices about an area (``Message.zone_notice``): a Q-code subject M/F/I/L/N/C/P/S/G/O
without coordinates is an aerodrome/procedure notice and yields no zone. Place names are never geocoded; the
pipeline resolves ICAO identifiers through ``airportsdata`` (approximate, review).
"""

from __future__ import annotations

import re
from collections.abc import Callable

from airspace.core.contract import Span
from airspace.parser.header import Header, location_codes, parse_header
from airspace.parser.places import clause_fragment, drop_tail_words, resolve_icao, trim_place
from airspace.parser.rules.blocks import chinese_items
from airspace.parser.rules.chinese import cn_event_place, cn_named
from airspace.parser.rules.japanese import jp_facilities
from airspace.parser.rules.korean import ko_places
from airspace.parser.rules.news import news_places
from airspace.parser.rules.news_eu import news_eu_places
from airspace.parser.rules.news_pl_cs_el import pl_cs_el_places
from airspace.parser.rules.news_report import report_place
from airspace.parser.rules.news_ru_tr import news_ru_tr_places
from airspace.parser.rules.patterns import (
    CJK_RE,
    CN_NOT_PLACE,
    CN_RANGE,
    DESIGNATOR,
    FIR_ITEM,
    FIR_LIST_HEAD,
    ICAO_LOC,
    NOT_IDENT,
    R_IDENT,
    R_PLACE,
)
from airspace.parser.rules.thai import th_places
from airspace.parser.rules.zone import Message, Zone, body, sp

Reader = Callable[[Message], list[Zone]]
# words a 4-letter "identifier" slot can catch in prose ("30 NAUTICAL MILES FROM AIRFIELD": FROM is no aerodrome)
_NOT_AD = {"FROM", "WITH", "INTO", "OVER", "NEAR"}


def aerodrome_radius(m: Message) -> list[Zone]:
    """An aerodrome identifier with a radius: ``.5NM RADIUS OF ATL`` (FAA), ``14KM RADIUS RJTT AERODROME``."""
    text = m.text
    for r in R_IDENT.finditer(text, m.lo, m.hi):
        k = next(i for i in ("", "2", "3", "4") if r.group("id" + i))
        if r.group("id" + k) not in NOT_IDENT and r.group("id" + k) not in _NOT_AD:
            f = {"radius": sp(text, *r.span("d" + k)), "name": sp(text, *r.span("id" + k))}
            return [Zone(f, r.start(), r.end(), "named")]
    return []


def prose_place(m: Message) -> list[Zone]:
    """Title-Case places in prose, each with its own distance: ``within 0.4NM of Wembley Stadium``; ``within 10km of
    Dublin Airport, 8km from the Phoenix Park, or 24km from Ireland West Airport Knock`` (free text only). Where the
    report of a ban (``news.news_places``) reads more zones from the same text (a ring around "the stadium" beside
    one around its name), that reading is taken whole."""
    if m.h.kind != "other":
        return []
    text = m.text
    zones: list[Zone] = []
    for r in R_PLACE.finditer(text, m.lo, m.hi):
        z = _prose_place_zone(text, r)
        if z is not None and all(z.fields["name"].text != o.fields["name"].text for o in zones):
            zones.append(z)
        if len(zones) >= 20:
            break
    if zones and len(news := news_places(m)) > len(zones):
        return news
    return zones


def _prose_place_zone(text: str, r: re.Match) -> Zone | None:
    name = drop_tail_words(r.group("name"))  # (it may wrap lines)
    if not name.split():
        return None
    ns = r.start("name")
    ns, ne = trim_place(text, ns, ns + len(name))  # "around Cork Airport. The GAA stadium …": the sentence ends
    if ne <= ns:
        return None
    return Zone({"radius": sp(text, *r.span("d")), "name": sp(text, ns, ne)}, r.start(), r.end(), "named")


# a line of a list that names one designated area: a bullet, the designator (ICAO nationality letters and R/D/P and
# its number: "LO R 9", "ED-R 146", "EGD323A"), its name in quotes or not ("„Steinalpl“", "(Hochkar)")
_LISTED_AREA = re.compile(
    r"^[ \t]*[-–•*·][ \t]*(?P<area>[A-Z]{2}[ -]?[RDP][ -]?\d{1,4}[A-Z]?"
    r"(?:[ \t]+(?:[„“\"«‚‘'][^\n„“”\"«»‚‘’']{1,40}[“”\"»‘’']|\([^\n()]{1,40}\)))?)[ \t]*$", re.M)


def designator_list(m: Message) -> list[Zone]:
    """Designated areas listed one to a line in free text (``- LO R 9 „Steinalpl“``): each its own named zone
    (when they are active, a notice of its own says)."""
    if m.h.kind != "other":
        return []
    return [Zone({"name": sp(m.text, *r.span("area"))}, r.start("area"), r.end("area"), "named")
            for r in _LISTED_AREA.finditer(m.text, m.lo, m.hi)][:30]


# "1.禁飞时间：11月23日18:00-22:00，地点：福鼎市体育中心；2.…，地点：桐山溪畔东西岸(江滨桥至彩虹桥)。": each place a
# notice writes after its label is a zone (its period: the one written before it, ``drafts``)
_CN_PLACE_LABEL = re.compile(r"(?:地点|地點)\s*[:：]\s*(?P<name>[^，,；;。\n:：]{2,40})")


def cn_labelled(m: Message) -> list[Zone]:
    """The places a Chinese notice labels as such (``地点：…``), each its own named zone."""
    text = m.text
    if not CJK_RE.search(text, m.lo, m.hi):
        return []
    zones: list[Zone] = []
    for r in _CN_PLACE_LABEL.finditer(text, m.lo, m.hi):
        s, e = trim_place(text, *r.span("name"))
        if e - s >= 2 and clause_fragment(text[s:e]) is None and not CN_NOT_PLACE.search(text, s, e) \
                and all(z.fields["name"].text != text[s:e] for z in zones):
            zones.append(Zone({"name": sp(text, s, e)}, s, e, "named"))
    return zones[:20]


def cn_items(m: Message) -> list[Zone]:
    """A Chinese list of venues, each item its own place with its own radius and period (``blocks``)."""
    if not CJK_RE.search(m.text, m.lo, m.hi):
        return []
    return chinese_items(m.text, m.lo, m.hi, cn_named)


def cn_periods(m: Message) -> list[Zone]:
    """A Chinese notice with several periods, each with its own area ("（一）6月7日…至…，在A…；（二）6月14日…至…，在B…"):
    one named zone per period's clause (each takes the period written before it, see ``drafts``)."""
    text, lo, hi = m.text, m.lo, m.hi
    if not CJK_RE.search(text, lo, hi):
        return []
    ranges = list(CN_RANGE.finditer(text, lo, hi))
    zones: list[Zone] = []
    if len(ranges) >= 2:
        seg_lo = lo
        for seg_hi in [r.start() for r in ranges[1:]] + [hi]:
            z = cn_named(text, seg_lo, seg_hi)
            if z is not None and all(z.fields["name"].text != o.fields["name"].text for o in zones):
                zones.append(z)
            seg_lo = seg_hi
    return zones


def cn_place(m: Message) -> list[Zone]:
    """A Chinese named place: ``以X为中心``, ``X及周边500米``, ``X，半径3公里``, ``X周边``, ``X上空``, a list of districts."""
    z = cn_named(m.text, m.lo, m.hi)
    return [z] if z is not None else []


def cn_event(m: Message) -> list[Zone]:
    """A Chinese ban's place without an anchor: a whole area it is put in force over, an announced event's venue."""
    z = cn_event_place(m.text, m.lo, m.hi)
    return [z] if z is not None else []


def qline_circle(m: Message) -> list[Zone]:
    """The Q-line circle (coarse) of a notice about an area; never a 999 NM radius ("the whole FIR") or the
    0000N00000E placeholder."""
    q = m.h.qline
    if not (q and q.coord and m.zone_notice and not m.q999 and not m.q_null):
        return []
    f = {"center": q.coord}
    if q.radius:
        f["radius"] = q.radius
    return [Zone(f, q.coord.start, q.coord.end, "qline")]


def named_area(m: Message) -> list[Zone]:
    """A named area switched on (``R5206 ACT``, ``VAD 8 (BERCHHA) ACT``), when the Q-line has no usable position
    (FAA notices have no Q-line)."""
    q = m.h.qline
    # (an item E copied alone, "TEMPORARY RESERVED AREA LRTRA111B ACTIVATED.", has no header: its area is its zone)
    if not (m.h.kind in ("faa", "other") or (q is not None and (q.coord is None or m.q999 or m.q_null))):
        return []
    d = area_designator(m.text, m.h)
    return [Zone({"name": d}, d.start, d.end, "named")] if d is not None else []


def fir_list(m: Message) -> list[Zone]:
    """Each FIR of a list: ``IN THE FLW FLIGHT INFORMATION REGIONS (FIR): DNIPRO (UKDV), …, MOLDOVA (LUUU)``."""
    if not m.zone_notice:
        return []
    text = m.text
    head = FIR_LIST_HEAD.search(text, m.lo, m.hi)
    zones: list[Zone] = []
    pos = head.end() if head else m.hi
    while head is not None and len(zones) < 30 and (r := FIR_ITEM.match(text, pos, m.hi)):
        zones.append(Zone({"name": sp(text, *r.span("item"))}, r.start("item"), r.end("item"), "named"))
        pos = r.end()
    return zones


# a FIR named with its indicator: "FIR TRIPOLI (HLLL)", "KABUL FIR (OAKX)", "UIR KYIV (UKBU)", "(FIR PYONGYANG ZKKP)"
_FIR_ITEM = re.compile(
    r"\b(?:FIR|UIR)\s+[A-Z][A-Z-]{1,20}(?: [A-Z][A-Z-]{1,20}){0,2}\s*\(\s*[A-Z]{4}\s*\)"
    # (a name before the word has one or two words: "… NOT VALID OVERHEAD WIEN FIR (LOVV)" names WIEN)
    r"|\b[A-Z][A-Z-]{1,20}(?: [A-Z][A-Z-]{1,20})?\s+(?:FIR|UIR)\s*\(\s*[A-Z]{4}\s*\)"
    r"|(?<=\()(?:FIR|UIR)\s+[A-Z][A-Z-]{1,20}(?: [A-Z][A-Z-]{1,20}){0,2}\s+[A-Z]{4}(?=\))"
)


def fir_named(m: Message) -> list[Zone]:
    """The FIRs named with their indicators (``NOT TO ENTER FIR TRIPOLI (HLLL)``; ``SHALL NOT ENTER: FIR LVIV (UKLV),
    FIR KYIV (UKBV), UIR KYIV (UKBU), …``; ``AVOID AIRSPACE NORTH KOREA (FIR PYONGYANG ZKKP)``): the FIRs the notice
    is about, each its own zone, not A)'s."""
    if not m.zone_notice:
        return []
    zones: list[Zone] = []
    seen: set[str] = set()
    for r in _FIR_ITEM.finditer(m.text, m.lo, m.hi):
        key = " ".join(r.group().split())
        if key not in seen and len(zones) < 30:
            seen.add(key)
            zones.append(Zone({"name": sp(m.text, r.start(), r.end())}, r.start(), r.end(), "named"))
    return zones


# a designated area free text names (ICAO nationality letters and R/D/P/TRA/TSA, then its number or its name: "ED-R
# 138", "das Gebiet „ED-R Reichenhall“", "LO R 9"; a US restricted area "R-2508")
# (the letters apart from the kind, "ED-R 146", "LO R 9", or the whole run joined, "EGD703": three capitals, a blank
# and a number are an abbreviation as often, "JSP 552", "NDP 2022", "NAD 1983")
_PROSE_AREA = re.compile(
    r"(?<![\w-])(?P<area>(?-i:[A-Z]{2}[- ](?:R|D|P|TRA|TSA)(?:[- ]?\d{1,4}[A-Z]?(?!\w)"
    r"|[ -][A-ZÄÖÜ][a-zäöüß]{2,}(?:[ -][A-ZÄÖÜ][a-zäöüß]{2,})?(?!\w))|[A-Z]{2}[RDP]\d{2,4}[A-Z]?(?!\w)"
    r"|R-\d{4}[A-Z]?(?!\w)))")
# what says the area is restricted in the text: a ban, a restriction, an activation
_AREA_RESTRICTED = re.compile(r"restrict|prohibit|ban(?:s|ned)?\b|danger\s+area|\bactiv|beschränk|verbot|sperr"
                              r"|\baktiv|interdi|r[ée]glement|restri[cçn]|proh[ií]b|zakaz|ograni", re.I)
# an area switched off or a restriction lifted: no zone ("DANGER AREA EGD703 TAIN DEACTIVATED")
_AREA_OFF = re.compile(r"deactiv|deaktiv|d[ée]sactiv|inactive|not\s+active|cancel|withdrawn|lifted|aufgehoben"
                       r"|annul", re.I)


def prose_designator(m: Message) -> list[Zone]:
    """The designated areas free text names where it says they are restricted or active (``betrifft das speziell
    definierte Gebiet „ED-R Reichenhall“``), each a named zone; never in a navigational warning or a NOTAM (whose
    areas ``named_area`` reads)."""
    text = m.text
    if (m.h.kind != "other" or _AREA_RESTRICTED.search(text, m.lo, m.hi) is None
            or _AREA_OFF.search(text, m.lo, m.hi) is not None):
        return []
    zones: list[Zone] = []
    seen: set[str] = set()
    for r in _PROSE_AREA.finditer(text, m.lo, m.hi):
        if r.group("area") not in seen:
            seen.add(r.group("area"))
            zones.append(Zone({"name": sp(text, *r.span("area"))}, r.start("area"), r.end("area"), "named"))
            if len(zones) == 20:
                break
    return zones


def location_indicator(m: Message) -> list[Zone]:
    """The A) location indicator (resolved by the pipeline: approximate, review); never when A) is the FIR itself
    (UHHH, VIDF) or a FIR of an en-route/warning notice (scope without A), whose code an airport may share."""
    a = m.h.item("A")
    if not (a and m.zone_notice):
        return []
    codes = location_codes(a)
    if 2 <= len(codes) <= 30 and all(resolve_icao(c.text) is None for c in codes):
        # "A) GOOO DRRR": a NOTAM for several FIRs, each its own zone
        return [Zone({"name": c}, c.start, c.end, "named") for c in codes]
    r = ICAO_LOC.match(a.text)
    q = m.h.qline
    fir = (q.fir or "").strip().upper() if q else ""
    scope = (q.scope or "").strip().upper() if q else ""
    if r and (r.group() == fir or (scope and "A" not in scope)) and resolve_icao(r.group()) is not None:
        return []
    if not r:
        return []
    return [Zone({"name": sp(m.text, a.span.start, a.span.start + 4)}, a.span.start, a.span.end, "named")]


# The readers in the order they are tried. A whole administrative area (``chinese.cn_whole_area``) is added beside
# the zones of the geometry or of a reader before ``cn_place`` (that reader already reads administrative areas).
FALLBACKS: tuple[Reader, ...] = (
    aerodrome_radius,
    prose_place,
    news_places,
    designator_list,
    jp_facilities,
    cn_labelled,
    cn_items,
    cn_periods,
    cn_place,
    cn_event,
    fir_list,
    fir_named,
    qline_circle,
    named_area,
    news_eu_places,
    news_ru_tr_places,
    pl_cs_el_places,
    ko_places,
    th_places,
    prose_designator,
    location_indicator,
    report_place,
)
WHOLE_AREA_BEFORE = FALLBACKS.index(cn_place)


# venues joined in one Chinese name ("啟德青年運動場及香港大球場一帶", "奥体中心、会展中心、火车站周边1公里"): each part ends as a
# venue's name does (and Japanese: "大阪・関西万博会場、夢洲駅及びその周囲…", "国会議事堂、首相官邸")
_CN_VENUE_END = (r"(?:[场場馆館园園院塔港站寺宫宮湖駅邸堂]|中心|广场|廣場|大厦|大廈|机场|機場|码头|碼頭|会展中心|會展中心|政府"
                 r"|基地|駐屯地|庁舎)")
_CN_VENUE = rf"[\u4e00-\u9fff\u30a0-\u30ff]{{2,20}}?{_CN_VENUE_END}"
_CN_VENUES = re.compile(rf"{_CN_VENUE}(?:(?:及|和|与|與|、){_CN_VENUE}){{1,9}}")
_CN_VENUE_PART = re.compile(rf"(?P<v>{_CN_VENUE})(?:及|和|与|與|、|$)")


def split_venues(text: str, zones: list[Zone]) -> list[Zone]:
    """A named zone whose name is venues joined (``A及B``, ``A、B、C``) as a zone each, with its other fields."""
    out: list[Zone] = []
    for z in zones:
        name = z.fields.get("name")
        whole = z.kind == "named" and name is not None and _CN_VENUES.fullmatch(text, name.start, name.end)
        if not whole:
            out.append(z)
            continue
        for v in _CN_VENUE_PART.finditer(text, name.start, name.end):
            f = dict(z.fields, name=sp(text, *v.span("v")))
            out.append(Zone(f, v.start("v"), v.end("v"), "named", z.local_limits))
    return out


def read_fallbacks(m: Message, zones: list[Zone]) -> tuple[list[Zone], int]:
    """Run ``FALLBACKS`` in turn while no zone is found. Returns the zones and the index of the reader that found
    them (-1: the ``zones`` given, from the geometry; ``len(FALLBACKS)``: none); two venues a name joins are two
    zones (``split_venues``)."""
    if zones:
        return zones, -1
    for k, reader in enumerate(FALLBACKS):
        found = reader(m)
        if found:
            return split_venues(m.text, found), k
    return [], len(FALLBACKS)


def area_designator(text: str, header: Header | None = None) -> Span | None:
    """The designator of a named area the message switches on (``R5206``, ``SBR 217``, ``UHD411``), if any."""
    h = header or parse_header(text)
    lo, hi = body(text, h)
    m = DESIGNATOR.search(text, lo, hi)
    if not m:
        return None
    g = next(k for k in ("name", "name2", "name3") if m.group(k))
    return sp(text, *m.span(g))

