"""Chinese notices without coordinates: the place a notice names, and a whole administrative area it restricts.

Places are found from their anchor (为中心 / 周边500米 / ，半径3公里 / 上空 / 行政区域) backwards to the start of the
clause, so that hostile text without anchors costs one linear scan. Place names are never geocoded.
"""

from __future__ import annotations

import re

from airspace.parser.places import CN_ALONG, CN_BOUNDED, clause_fragment
from airspace.parser.rules.patterns import (
    CJK_RE,
    CN_ADMIN_ANCHOR,
    CN_AREA_ANCHOR,
    CN_AREA_LABEL,
    CN_BAN,
    CN_BUFFER_ANCHOR,
    CN_CENTRE_ANCHOR,
    CN_DIST,
    CN_DISTRICTS,
    CN_NOT_PLACE,
    CN_RANGE,
    CN_SPREAD,
    CN_WHOLE_AREA,
    R_AFTER,
)
from airspace.parser.rules.zone import Zone, sp


def clause_start(text: str, pos: int, floor: int, window: int, delims: str) -> int:
    """Start of the clause that ends at ``pos``: just after the last delimiter within ``window`` characters."""
    lo = max(floor, pos - window)
    for i in range(pos - 1, lo - 1, -1):
        if text[i] in delims:
            return i + 1
    return lo




# the subject and its modal before the place: "民航處將在維多利亞港一帶", "新区将在金沙滩…", an agency or a day
# before it ("民航处在…", "将于3月30日在…"): the place starts after 在
# (and "对/于" after a decision or a time: "公安机关决定对奥体中心及周边…", "…18时对奥体中心…"; never inside a name,
# "公安分局對出河道")
# (Japanese: a period or an occasion written before the place and closed by 、: "…5月22日までの間、X及びその周囲…",
# "サミットの開催に伴い、X…")
_SUBJECT_IN = re.compile(r"(?:将|將|会|會|拟|擬|并|並|再|另|[日号號处處局厅廳府])在"
                         r"|(?:决定|決定|将|將|拟|擬|计划|計劃|[时時点點分日号號])(?:对|對|于|於)"
                         r"|(?:の間|において|に伴い|に伴って|に当たり|にあたり)、")
# a radius written straight after the centre: "以X为中心500米区域内", "为中心3公里范围内"
# (or "以X为圆心，3公里为半径")
_BARE_RADIUS = re.compile(rf"\s*[，,、]?\s*(?P<d>{CN_DIST})\s*(?:(?:的)?(?:区域|區域|范围|範圍|以内|以內|内|內)|(?:为|為)半[径徑])")
# Taiwan's county notices under 民用航空法 §99-13 name the place in the notice's title:
# "公告「長庚…紀念醫院之禁止遙控無人機飛航活動之區域及時間」"
TW_NOTICE_PLACE = re.compile(
    r"「(?P<p>[^「」\n<>]{2,40}?)之?(?:禁止|限制)(?:遙控|遥控)?(?:無人機|无人机)(?:飛航|飞航)?活動之(?:區域|区域)")


# what a Japanese text writes between a place and 上空: "東京ビッグサイト周辺地域の上空", "日本武道館の上空"
_JP_TAIL = re.compile(r"(?:(?:及び|並びに)?その)?(?:周[辺囲](?:地域)?)?の?$")


def _after_subject(text: str, ns: int, ne: int) -> int:
    """A clause's start past its subject and modal (``民航處將在``): the subject is no part of the place."""
    ends = [m.end() for m in _SUBJECT_IN.finditer(text, ns, ne)]
    return ends[-1] if ends and ne - ends[-1] >= 2 else ns


_ENUM_AT = re.compile(r"\s*(?:[（(][一二三四五六七八九十\d]{1,3}[）)]|[一二三四五六七八九十]{1,3}、|\d{1,2}[.、．])\s*")


_LABEL_LEAD = re.compile(r"(?:管控|管制|禁飞|禁飛|限飞|限飛)?(?:区域|區域|范围|範圍)\s*(?:为|為|[:：])\s*")
_ABOVE_END = re.compile(r"(?:上空|上方空域|上方)$")


def _after_enumerator(text: str, ns: int, ne: int) -> int:
    """A clause's start past a list enumerator (``（一）``, ``一、``, ``1.``): the enumerator is no part of a place."""
    m = _ENUM_AT.match(text, ns, ne)
    return m.end() if m else ns


def cn_bounded(text: str, lo: int, hi: int) -> Zone | None:
    """An area a Chinese notice bounds by what lies on its sides (``东起…西至…北起…南至…``) or by the roads listed
    along it (``X沿A、B、C形成的合围地域``): a named zone."""
    m = CN_BOUNDED.search(text, lo, hi)
    if m:
        return Zone({"name": sp(text, *m.span())}, m.start(), m.end(), "named")
    for m in CN_ALONG.finditer(text, lo, hi):
        ns = m.start() + len(m.group()) - len(m.group().lstrip("在于於对對"))
        if clause_fragment(text[ns:m.end()]) is None:
            return Zone({"name": sp(text, ns, m.end())}, ns, m.end(), "named")
    return None


def cn_named(text: str, lo: int, hi: int) -> Zone | None:
    """A Chinese named place: 以<名>为中心(，半径2公里) / <名>及周边500米 / <名>，半径3公里 / <名>周边 / <名>上空 / an
    area bounded on its sides (``cn_bounded``). A candidate that is a piece of its sentence (a date, a connective, one
    side of a bounded area: ``places.clause_fragment``) is no place."""
    for m in CN_CENTRE_ANCHOR.finditer(text, lo, hi):
        k = text.rfind("以", max(0, m.start() - 61), m.start())
        if k < 0:
            continue
        ns, ne = k + 1, m.start()
        while ns < ne and text[ns].isspace():
            ns += 1
        if ne - ns >= 2 and not re.search(r"[，,。；;：:\s]", text[ns:ne]):
            f = {"name": sp(text, ns, ne)}
            r = R_AFTER.search(text, m.end(), min(len(text), m.end() + 40)) or CN_SPREAD.match(
                text[: min(len(text), m.end() + 40)], m.end()) or _BARE_RADIUS.match(text, m.end(),
                                                                                       min(len(text), m.end() + 40))
            if r:
                f["radius"] = sp(text, *r.span("d"))
            return Zone(f, k, m.end(), "named")
    if not CJK_RE.search(text, lo, hi):
        return None
    if (z := cn_bounded(text, lo, hi)) is not None:
        return z
    if (t := TW_NOTICE_PLACE.search(text, lo, hi)) is not None and clause_fragment(t.group("p")) is None:
        return Zone({"name": sp(text, *t.span("p"))}, t.start("p"), t.end("p"), "named")
    m = CN_BUFFER_ANCHOR.search(text, lo, hi)
    if m:
        ns, ne = clause_start(text, m.start(), lo, 200, "，,。；;：:\n"), m.start()
        ns = _after_subject(text, _after_enumerator(text, ns, ne), ne)
        ns += len(text[ns:ne]) - len(text[ns:ne].lstrip("在于於 \t"))
        if (label := _LABEL_LEAD.match(text, ns, ne)) is not None:
            ns = label.end()  # ("管控范围为市体育中心场馆及周边1000米区域": the label is no part of the place)
        if (above := _ABOVE_END.search(text, ns, ne)) is not None:
            ne = above.start()  # ("奥体中心上空及周边3公里": the place is the venue, not its airspace)
        # a bracket opened before the place and not closed encloses it ("地図で示す地域(X及びその周囲…)")
        opened = max(text.rfind("(", ns, ne), text.rfind("（", ns, ne))
        if opened > max(text.rfind(")", ns, ne), text.rfind("）", ns, ne)):
            ns = opened + 1
        if ne - ns >= 2 and CJK_RE.search(text, ns, ne) and clause_fragment(text[ns:ne]) is None \
                and not CN_NOT_PLACE.search(text, ns, ne):
            d = m.span(next(g for g in ("d", "d2", "d3") if m.group(g)))
            return Zone({"name": sp(text, ns, ne), "radius": sp(text, *d)}, ns, ne, "named")
    for m in CN_AREA_ANCHOR.finditer(text, lo, hi):
        ns, ne = clause_start(text, m.start(), lo, 60, "，,。；;：:、\n"), m.start()
        ns = _after_subject(text, _after_enumerator(text, ns, ne), ne)
        ns += len(text[ns:ne]) - len(text[ns:ne].lstrip("在于於对對 \t"))
        ne = ns + len(_JP_TAIL.sub("", text[ns:ne], count=1).rstrip())
        if ne - ns >= 2 and not CN_NOT_PLACE.search(text, ns, ne) and CJK_RE.search(text, ns, ne) \
                and clause_fragment(text[ns:ne]) is None:
            return Zone({"name": sp(text, ns, ne)}, ns, ne, "named")
    # "…至…18时,兰州市城关区、七里河区、西固区、安宁区。" / "禁飞区域：朝阳区、海淀区": a list of districts right after a
    # period or an area label (bounded windows: a few anchors, 200 characters each)
    anchors = [m.end() for _, m in zip(range(4), CN_RANGE.finditer(text, lo, hi))]
    anchors += [m.end() for _, m in zip(range(4), CN_AREA_LABEL.finditer(text, lo, hi))]
    for a in sorted(anchors):
        s0 = a + len(text[a : a + 4]) - len(text[a : a + 4].lstrip(" ，,：:；;\t"))
        m = CN_DISTRICTS.match(text, s0, min(hi, s0 + 200))
        if m:
            return Zone({"name": sp(text, *m.span())}, m.start(), m.end(), "named")
    for m in CN_ADMIN_ANCHOR.finditer(text, lo, hi):
        ns, ne = clause_start(text, m.start(), lo, 40, "，,。；;：:、\n"), m.end()
        ns += len(text[ns:ne]) - len(text[ns:ne].lstrip("在于於对對 \t"))
        if text.startswith(("将于", "將於"), ns):
            ns += 2
        # ("全市范围内", "朝阳区辖区内": the area is the city or district, "within" is the sentence's)
        ne -= len(m.group()) - len(_WITHIN.sub("", m.group()))
        if ne - ns >= 2 and (CJK_RE.search(text, ns, m.start()) or m.group().startswith("全")):
            return Zone({"name": sp(text, ns, ne)}, ns, ne, "named")
    # "对奥林匹克公园区域实施空中管控", "禁止在西湖景区放飞无人机": the place a measure is put on, or a ban's flights are in
    for m in _ACTED_ON.finditer(text, lo, hi):
        ns, ne = m.span("name" if m.group("name") else "name2")
        if (CJK_RE.search(text, ns, ne) and not CN_NOT_PLACE.search(text, ns, ne) and not _GENERIC.match(text, ns, ne)
                and clause_fragment(text[ns:ne]) is None):
            return Zone({"name": sp(text, ns, ne)}, ns, ne, "named")
    # "禁飞区域为西湖景区核心区域", "管控范围：奥体中心": the place an area label names, where no other form placed it
    for m in _AREA_VALUE.finditer(text, lo, hi):
        ns, ne = m.span("name")
        if CJK_RE.search(text, ns, ne) and not CN_NOT_PLACE.search(text, ns, ne) and clause_fragment(text[ns:ne]) is None:
            return Zone({"name": sp(text, ns, ne)}, ns, ne, "named")
    return None


# words that refer to places written elsewhere ("以下区域", "上述区域", "相关区域"), never a place of their own
_GENERIC = re.compile(r"以下|下列|上述|前述|相关|相關|有关|有關|该|該|本次|各|所有|全部")
_ACTED_ON = re.compile(r"(?:(?<=[，,。；;：:\n])|^|(?<=决定|決定))(?:对|對)(?P<name>[\u4e00-\u9fff]{2,20}?)(?:区域|區域|地区|地區|空域)?"
                       r"(?:实施|實施|实行|實行)(?:临时|臨時)?(?:空中|低空)?(?:管控|管制|禁飞|禁飛|限飞|限飛)"
                       r"|禁止(?:任何单位和个人|任何單位和個人)?在(?P<name2>[\u4e00-\u9fff]{2,20}?)(?:范围内|範圍內|区域内|區域內|内|內|上空)?"
                       r"(?:放飞|放飛|飞行|飛行|使用|操控)", re.M)
_AREA_VALUE = re.compile(r"(?:区域|區域|范围|範圍)\s*(?:(?:为|為)\s*[:：]?|[:：])\s*"
                         r"(?P<name>[^，,。；;：:\n\d（(]{2,30}?)(?=[，,。；;\n]|$)")


_WITHIN = re.compile(r"(?:范围内|範圍內|辖区内|轄區內|境内|境內)$")


def cn_whole_area(text: str, lo: int, hi: int, zones: list[Zone]) -> list[Zone]:
    """"我市全市行政区域空域为临时空中限制区。其中在…(坐标…)内禁止…": the whole administrative area is a restricted area
    of its own besides the zones already read (the sub-area given by coordinates). Returns the zones, with it added
    in order and every zone then holding its own limits."""
    if not CJK_RE.search(text, lo, hi):
        return zones
    m = CN_WHOLE_AREA.search(text, lo, hi)
    if not m:
        return zones
    ns = clause_start(text, m.start(), lo, 40, "，,。；;：:、\n")
    ns += len(text[ns:m.start()]) - len(text[ns:m.start()].lstrip("在于於 \t"))
    if m.end("area") - ns < 4:
        return zones
    zones = sorted(zones + [Zone({"name": sp(text, ns, m.end("area"))}, ns, m.end("area"), "named")],
                   key=lambda z: z.anchor)
    for z in zones:
        z.local_limits = True
    return zones


# a radius stated for the places in a sentence of its own ("有關的兩個臨時限制飛行區分別為啟德青年運動場及香港大球場向外延伸兩
# 公里範圍", the places first named where the notice lists their times): the radius after a list of them
# (around it, "及其周边500米"; or spread from it as ``CN_SPREAD`` reads after a centre, "向外延伸兩公里")
_RADIUS_AFTER_PLACE = re.compile(
    rf"\s*(?:(?:及其|的)?(?:周[边邊]|附近)\s*(?:半[径徑])?\s*(?:为|為)?\s*(?P<d>{CN_DIST})"
    rf"|{CN_SPREAD.pattern.replace('?P<d>', '?P<d2>')})")


def cn_place_radii(text: str, lo: int, hi: int, zones: list[Zone]) -> list[Zone]:
    """The named zones of a Chinese notice, each without a radius given the one the notice states after its name
    written again, alone or in a list of the zones' own names (``A及B向外延伸兩公里``)."""
    names = [z.fields["name"].text for z in zones if z.kind == "named" and "name" in z.fields]
    if not names or not CJK_RE.search(text, lo, hi) or any(len(n) < 2 for n in names):
        return zones
    one = "|".join(re.escape(n) for n in sorted(set(names), key=len, reverse=True))
    after = re.compile(rf"(?:\s*[、及和与與]\s*(?:{one}))*{_RADIUS_AFTER_PLACE.pattern}")
    for z in zones:
        if z.kind != "named" or "radius" in z.fields or "name" not in z.fields:
            continue
        name = z.fields["name"].text
        pos = text.find(name, lo, hi)
        while pos >= 0:
            if (m := after.match(text, pos + len(name), hi)) is not None:
                z.fields["radius"] = sp(text, *m.span("d" if m.group("d") else "d2"))
                break
            pos = text.find(name, pos + 1, hi)
    return zones


# a venue, as an event's place ends: "…康乐广场", "…体育中心", "…会展中心", "…公园"
_CN_VENUE = (r"(?:广场|廣場|体育场|體育場|体育中心|體育中心|体育馆|體育館|会展中心|會展中心|公园|公園|景区|景區|码头|碼頭"
             r"|机场|機場|中心|[场場馆館园園港湖岛島])")
# the event held there: "绍兴新昌县康乐广场将举行无人机灯光表演活动", "将在X举办…"
_CN_EVENT = re.compile(rf"(?P<p>[\u4e00-\u9fff]{{2,24}}?{_CN_VENUE})\s*(?:将|將|即将|即將)?\s*(?:举行|舉行|举办|舉辦)")
# the ban put in force over a whole area: "于全澳门实施无人机禁飞", "在全市范围内实行禁飞管控"
_CN_IN_FORCE = re.compile(r"(?:在|于|於)(?P<p>全[\u4e00-\u9fff]{1,8}?|[\u4e00-\u9fff]{2,12}?(?:全境|全域))"
                          r"(?:范围内|範圍內|境内|境內)?\s*(?:实施|實施|实行|實行)[^。；;\n]{0,8}?(?:禁飞|禁飛|限飞|限飛|管控|管制)")


def cn_event_place(text: str, lo: int, hi: int) -> Zone | None:
    """The place a Chinese text bans flights over where no anchor names one: a whole area the ban is put in force
    over (``于全澳门实施无人机禁飞``), else the venue of the event the text announces beside a ban
    (``康乐广场将举行无人机灯光表演活动 … 表演现场禁止无人机飞行``). A candidate that is a piece of its sentence is none."""
    if not CJK_RE.search(text, lo, hi) or CN_BAN.search(text, lo, hi) is None:
        return None
    for rx in (_CN_IN_FORCE, _CN_EVENT):
        for m in rx.finditer(text, lo, hi):
            ns, ne = m.span("p")
            ns = max(ns, clause_start(text, ne, lo, 40, "，,。；;：:、\n"))
            ns = _after_subject(text, ns, ne)
            ns += len(text[ns:ne]) - len(text[ns:ne].lstrip("在于於"))
            if ne - ns >= 2 and not CN_NOT_PLACE.search(text, ns, ne) and clause_fragment(text[ns:ne]) is None:
                return Zone({"name": sp(text, ns, ne)}, ns, ne, "named")
    return None
