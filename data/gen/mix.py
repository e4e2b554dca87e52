"""Compositional messages: zones written from randomly chosen field phrasings, in random order, with random list
markers, shared or per-zone times and random filler (train/val only; never a held-out template).

The template families teach each message *type*; this family teaches what a field looks like wherever it stands: a
coordinate after ``centred on`` or before ``为中心``, a radius before or after its centre, limits as a range, a bare
ceiling or ``以下``, a time range, an end alone (``until``) or a start alone, a schedule, a venue without a radius,
1–8 zones behind numbered, lettered or bulleted markers with shared values repeated in every zone. Every value is
printed by ``values`` (so its gold is known by construction), every phrase around it is neutral text.

Cues that only the family-held-out templates use (``HELD_OUT_CUES``: ``AND BLW``, ``A CIRCLE OF``, ``Boundary
points``, ``上空``, ``及周边区域``, ``时间为``, the ``一、`` / ``（1）`` zone markers) never appear here, so the held-out
split still measures phrasings the model has not seen (checked in ``tests/test_data_corpus.py``).
"""

from __future__ import annotations

import random

from . import values as V
from .base import Doc, Example, circle, named, polygon, zone
from .chinese import BANS, CITIES, EVENTS
from .freetext import LANDMARKS, PLACES_EN
from .icao import POLY_STYLES, _poly_points, polygon_doc

HELD_OUT_CUES = ("AND BLW", "A CIRCLE OF", "CIRCLE OF", "Boundary points", "上空", "及周边区域", "时间为", "一、", "（1）")

TEMPLATES = {"en_mix": "mixed", "zh_mix": "mixed", "en_multi_mix": "multi", "zh_multi_mix": "multi"}

EN_COORD = ("decimal_hemi", "decimal_signed", "decimal_deg", "hemi_decimal", "dms_symbols", "dms", "dm", "dms_space",
            "hemi_first", "hemi_first_space", "dm_dec", "dms_dec", "spaced", "hemi_first_dm")
ZH_COORD = ("cn", "cn_dms", "cn_decimal", "cn_dufen", "cn", "decimal_hemi", "dms")
EN_INTROS = ("Notice to drone operators.", "TEMPORARY FLIGHT RESTRICTION.", "Airspace restriction in force.",
             "URGENT:", "Ops update", "Message from ATC:", "Dispatch board -", "Event airspace closure.",
             "RESTRICTED AREA ACTIVATED.", "UAS activity prohibited as follows.", "Please note the following.",
             "Security zone established by the authorities.", "Fire-fighting operations in progress.", "")
EN_TAILS = ("All UAS flights prohibited.", "Operators must remain clear.", "Contact the tower for exemptions.",
            "Violators will be prosecuted.", "Thanks.", "Ref {n}.", "Tel {p}.", "Call {p} with questions.",
            "Emergency services exempt.", "Confirm receipt.", "")
EN_FILLERS = ("due to {place}", "near {place}", "for the event at {place}", "(police request)", "- security ops -",
              "for aerial filming", "for a fireworks display", "ref {n}", "tel {p}")
ZH_INTROS = ("关于实施临时空域管制的通告", "临时禁飞通知", "【空域管制】", "调度通知：", "重要提示：",
             "{city}市公安局通告", "{event}期间无人机管控措施", "各飞手注意：", "",
             "{city}市人民政府关于{venue}{event}期间实施临时禁飞的通告", "{venue}周边临时管控通知")
ZH_ACTIONS = ("实施临时禁飞", "设立临时禁飞区", "临时禁止无人机飞行", "实行临时空域管制", "禁飞", "实施管控",
              "划设临时管控区")
ZH_TAILS = BANS + ("请各单位相互转告。", "举报电话：{p}。", "特此通告。", "收到请回复。", "")


def _fill(rng: random.Random, s: str, city: str = "", venues: tuple[str, ...] = ("",)) -> str:
    return s.format(place=rng.choice(PLACES_EN + LANDMARKS), n=rng.randint(10, 9999),
                    p=f"{rng.randint(100, 999)}-{rng.randint(100, 999)}-{rng.randint(1000, 9999)}",
                    city=city, event=rng.choice(EVENTS), venue=rng.choice(venues))


# ------------------------------------------------------------------------------------------------ field values
def _points(rng: random.Random, d: Doc, z: int, pts, style: str, sep: str) -> list[tuple[float, float]]:
    """Write ``pts`` in ``style`` joined by ``sep`` as zone ``z``'s polygon span; return the gold points."""
    gold = []
    for i, p in enumerate(pts):
        t, g = V.fmt_coord(rng, p[0], p[1], style)
        if i:
            d.add(sep, (z, "polygon"))
        d.add(t, (z, "polygon"))
        gold.append(g)
    return gold


def _en_limits(rng: random.Random):
    """(lower (text, gold) | None, upper (text, gold) | None)."""
    lower = None
    k = rng.random()
    if k < 0.35:
        lower = V.limit_sfc(rng, rng.choice(("SFC", "GND", "SFC")))
    elif k < 0.45:
        lower = ("surface", {"ref": "SFC", "ft": 0.0})
    elif k < 0.55:
        lk = rng.choice(("ft_agl", "m_agl", "fl"))
        lower = V.fmt_limit(rng, lk, rng.choice((20, 50, 95) if lk == "fl" else (50, 100, 200, 500)))
    kind = rng.choice(("ft_agl", "ft_amsl", "m_agl", "m_amsl", "fl", "ft_words_agl", "ft_words_msl", "m_words_agl",
                       "unl"))
    if kind == "fl":
        val = rng.choice((55, 65, 95, 125, 195, 245, 330))
    elif kind.startswith("m"):
        val = rng.choice((50, 100, 120, 150, 300, 600, 1200))
    else:
        val = rng.choice((400, 500, 1000, 1500, 2000, 3000, 5000, 18000))
    if lower is not None and lower[1]["ft"] and kind in ("ft_agl", "m_agl", "ft_words_agl", "m_words_agl"):
        kind = "fl"
        val = rng.choice((125, 195, 245))
    upper = V.fmt_limit(rng, kind, val, thousands=rng.choice(("none", "none", "comma")))
    if lower is not None and lower[1]["ft"] and upper[1]["ft"] is not None and upper[1]["ft"] <= lower[1]["ft"]:
        upper = V.fmt_limit(rng, "fl", 245)
    if lower is None and rng.random() < 0.12:
        upper = None
    return lower, upper


def _en_geometry(rng: random.Random, d: Doc, z: int, lat: float, lon: float, kind: str):
    """Write zone ``z``'s geometry phrase into ``d``; return its gold geometry."""
    if kind == "polygon":
        pts = _poly_points(rng, lat, lon, rng.uniform(0.5, 20), rng.randint(3, 6))
        d.add(rng.choice(("area bounded by ", "polygon ", "Perimeter: ", "within the area ", "points ",
                          "WI AN AREA DEFINED AS ", "coordinates ", "area: ", "")))
        if rng.random() < 0.4:  # decimal degrees / degree-symbol points, one separator throughout
            style = rng.choice(("decimal_deg", "dms_symbols", "decimal_hemi", "hemi_decimal"))
            sep = rng.choice((" to ", "; ", "\n", " TO "))
            return polygon(_points(rng, d, z, pts, style, sep))
        style = rng.choice(POLY_STYLES + ("decimal_hemi",))
        phr = rng.choice(("dash", "comma", "to", "lines"))
        if style == "decimal_hemi" and phr in ("comma", "dash"):
            phr = "to"
        pdoc, gp = polygon_doc(rng, pts, z, style, phr)
        d.parts.extend(pdoc.parts)
        return polygon(gp)
    r_t, r_m = V.fmt_distance(rng, V.sample_radius_nm(rng, 0.1, 30),
                              rng.choice(("nm", "km", "m", "ft", "nm_words", "km_words", "mi_words")))
    if kind == "named":
        place = rng.choice(LANDMARKS)
        if rng.random() < 0.3:
            d.add(rng.choice(("over ", "at ", "above ", "around "))).field(place, z, "name")
            return named(place)
        a, b = rng.choice((("", " around "), ("", " of "), ("within ", " of "), ("", " radius of "),
                           ("radius ", " centred on ")))
        d.add(a).field(r_t, z, "radius").add(b).field(place, z, "name")
        return named(place, r_m)
    c_t, c_g = V.fmt_coord(rng, lat, lon, rng.choice(EN_COORD))
    form = rng.randrange(6)
    if form == 0:
        d.add(rng.choice(("within ", "WI ", "inside ", ""))).field(r_t, z, "radius")
        d.add(rng.choice((" of ", " around ", " radius of ", " RADIUS OF ", " from "))).field(c_t, z, "center")
    elif form == 1:
        d.add(rng.choice(("centred on ", "center ", "PSN ", "position ", "centre point ", "at ", "CENTERED ON ")))
        d.field(c_t, z, "center").add(rng.choice((" radius ", ", radius ", " RADIUS ", " with a radius of ", " r=")))
        d.field(r_t, z, "radius")
    elif form == 2:
        d.add(rng.choice(("a ring of ", "A CIRCLE WITH RADIUS ", "circle r ")))
        d.field(r_t, z, "radius").add(rng.choice((" centred at ", " CENTRE ", " around the point ", " about ")))
        d.field(c_t, z, "center")
    elif form == 3:
        d.field(c_t, z, "center").add(rng.choice((" (", " / ", " - "))).field(r_t, z, "radius")
        d.add(rng.choice((")", " radius", "")))
    elif form == 4:
        d.add(rng.choice(("Centre: ", "CENTRE ", "Point: ", "LOCATION: "))).field(c_t, z, "center")
        d.add(rng.choice(("\nRadius: ", ". Radius ", "; RADIUS: ", ", R "))).field(r_t, z, "radius")
    else:
        d.field(r_t, z, "radius").add(rng.choice((" radius around ", " ring around ", " circle at ")))
        d.field(c_t, z, "center")
    return circle(c_g, r_m)


def _en_limit_phrase(rng: random.Random, d: Doc, zs, lower, upper) -> None:
    if lower is not None and upper is not None:
        a, b, c = rng.choice((("", "-", ""), ("", " to ", ""), ("from ", " up to ", ""), ("Altitude: ", " - ", ""),
                              ("LIMITS ", "/", ""), ("between ", " and ", ""), ("floor ", ", ceiling ", ""),
                              ("", " TO ", "")))
        d.add(a).field(lower[0], zs, "lower").add(b).field(upper[0], zs, "upper").add(c)
    elif upper is not None:
        a, b = rng.choice((("up to ", ""), ("below ", ""), ("max ", ""), ("BLW ", ""),
                           ("at or below ", ""), ("ceiling ", ""), ("", " and below"), ("not above ", ""),
                           ("height limit ", "")))
        d.add(a).field(upper[0], zs, "upper").add(b)
    elif lower is not None:
        d.add(rng.choice(("above ", "from ", "floor "))).field(lower[0], zs, "lower").add(rng.choice((" upwards", "")))


def _en_times(rng: random.Random):
    """(start text, end text, start, end) with either side possibly absent, or a schedule."""
    start = V.sample_start(rng, rng.choice((1, 5, 15, 60)))
    end = start + V.sample_duration(rng, rng.choice(("short", "short", "days")))
    fmt = rng.choice(("icao", "icao", "iso", "prose"))

    def f(t):
        return V.fmt_icao_time(t) if fmt == "icao" else (V.fmt_iso_time(rng, t) if fmt == "iso"
                                                           else V.fmt_prose_time(rng, t))
    k = rng.random()
    if k < 0.6:
        return f(start), f(end), start, end
    if k < 0.78:
        return None, f(end), None, end
    if k < 0.88:
        return f(start), None, start, None
    return None, None, None, None


def _en_time_phrase(rng: random.Random, d: Doc, zs, s_t, e_t) -> None:
    if s_t and e_t:
        a, b = rng.choice((("", "-"), ("", " - "), ("from ", " to "), ("from ", " until "), ("between ", " and "),
                           ("EFFECTIVE ", "-"), ("valid ", " to "), ("", " TO "), ("B) ", " C) "),
                           ("Start: ", "\nEnd: "), ("WEF ", " TIL ")))
        d.add(a).field(s_t, zs, "start").add(b).field(e_t, zs, "end")
    elif e_t:
        d.add(rng.choice(("until ", "till ", "UNTIL ", "ends ", "valid until ", "in force until ", "TIL ",
                          "expires "))).field(e_t, zs, "end")
    elif s_t:
        d.add(rng.choice(("from ", "starting ", "effective ", "WEF ", "begins "))).field(s_t, zs, "start")
        d.add(rng.choice((" until further notice", " UFN", "", " onwards")))


def _en_schedule(rng: random.Random, start, end):
    if rng.random() < 0.7 or start is None or end is None:
        return None
    if rng.random() < 0.5:
        a = rng.randint(5, 12) * 100
        return f"{a:04d}-{a + rng.choice((200, 400, 600)):04d} {rng.choice(('local', 'UTC', 'Z', 'LT'))}"
    return V.sample_schedule(rng, start, end)


def _joiner(rng: random.Random) -> str:
    return rng.choice((" ", " ", ", ", ". ", "; ", "\n", " - "))


def _en(rng: random.Random, multi: bool) -> Example:
    _, _, alat, alon, _, _ = V.pick_aerodrome(rng)
    nz = rng.randint(2, 8) if multi else 1
    d = Doc()
    gold = []
    intro = _fill(rng, rng.choice(EN_INTROS))
    if intro:
        d.add(intro + rng.choice((" ", "\n", "\n\n")))
    shared_time = multi and rng.random() < 0.6
    shared_lim = multi and rng.random() < 0.3
    everyone = list(range(nz))
    s_t = e_t = start = end = None
    if shared_time:
        s_t, e_t, start, end = _en_times(rng)
    lower, upper = _en_limits(rng) if shared_lim else (None, None)
    head = []
    if shared_time and (s_t or e_t) and rng.random() < 0.7:
        head.append("time")
    if shared_lim and rng.random() < 0.7:
        head.append("lim")
    rng.shuffle(head)
    for h in head:
        if h == "time":
            _en_time_phrase(rng, d, everyone, s_t, e_t)
        else:
            _en_limit_phrase(rng, d, everyone, lower, upper)
        d.add(_joiner(rng) if not multi else rng.choice((":\n", ".\n", "\n")))
    marks = rng.choice(("{i}) ", "{i}. ", "({i}) ", "- ", "* ", "AREA {a}: ", "Area {a} - ", "ZONE {i} ", "{a}. ",
                        "#{i} ")) if multi else ""
    for z in range(nz):
        if multi:
            d.add(marks.format(i=z + 1, a="ABCDEFGH"[z]))
        lat, lon = V.near(rng, alat, alon, 60)
        kind = rng.choices(("circle", "polygon", "named"), weights=(6, 3, 1))[0]
        parts = ["geo"]
        z_lower, z_upper = (lower, upper) if shared_lim else _en_limits(rng)
        if not shared_lim and (z_lower or z_upper) and rng.random() < 0.9:
            parts.append("lim")
        zs_t, ze_t, zst, zen = (s_t, e_t, start, end) if shared_time else _en_times(rng)
        if not shared_time and (zs_t or ze_t):
            parts.append("time")
        sch = _en_schedule(rng, zst, zen)
        if sch:
            parts.append("sch")
        if rng.random() < 0.25:
            parts.append("fill")
        rest = parts[1:]
        rng.shuffle(rest)
        order = ["geo"] + rest if rng.random() < 0.75 else rest + ["geo"]  # the place usually first
        geo = None
        for j, p in enumerate(order):
            if j:
                d.add(_joiner(rng))
            if p == "geo":
                geo = _en_geometry(rng, d, z, lat, lon, kind)
            elif p == "lim":
                _en_limit_phrase(rng, d, z, z_lower, z_upper)
            elif p == "time":
                _en_time_phrase(rng, d, z, zs_t, ze_t)
            elif p == "sch":
                d.field(sch, z, "schedule")
            else:
                d.add(_fill(rng, rng.choice(EN_FILLERS)))
        if "lim" not in parts and not shared_lim:
            z_lower = z_upper = None
        # a full stop glued to the next item's number ("FL195.2. 12km") would read as one number: ". " then
        d.add(rng.choice((".\n", "\n", ". ", "; ", "\n")) if multi else rng.choice((".", "", ". ")))
        gold.append(zone(geo, z_lower[1] if z_lower else None, z_upper[1] if z_upper else None,
                         V.iso(zst), V.iso(zen), sch))
    if (shared_time and "time" not in head) or (shared_lim and "lim" not in head):
        d.add(rng.choice(("All areas ", "Active ", "", "Applies to all: ")))
        if shared_lim and "lim" not in head:
            _en_limit_phrase(rng, d, everyone, lower, upper)
            d.add(" ")
        if shared_time and "time" not in head:
            _en_time_phrase(rng, d, everyone, s_t, e_t)
        d.add(". ")
    tail = _fill(rng, rng.choice(EN_TAILS))
    if tail:
        d.add(" " + tail)
    return Example(d, gold, "en")


# ----------------------------------------------------------------------------------------------------- Chinese
def _zh_geometry(rng: random.Random, d: Doc, z: int, lat: float, lon: float, kind: str, venues) -> dict:
    if kind == "polygon":
        style = rng.choice(("cn", "cn_dms", "cn_dufen"))
        sep = rng.choice(("、", "；", "，", "、", " "))
        if sep == "，":
            style = "cn_dufen"
        # whole-minute styles need vertices a few km apart to stay distinct when printed
        pts = _poly_points(rng, lat, lon, rng.uniform(1 if style == "cn_dms" else 4, 15), rng.randint(3, 6))
        d.add(rng.choice(("由", "范围：", "", "坐标点", "以下各点连线范围内：")))
        gp = _points(rng, d, z, pts, style, sep)
        d.add(rng.choice(("连线围成的区域", "围成的范围", "依次连线范围内", "")))
        return polygon(gp)
    unit = rng.choices(("cn_km", "cn_qianmi", "cn_m"), weights=(60, 15, 25))[0]
    nm = V.sample_radius_nm(rng, 0.2, 8)
    if unit == "cn_m" and nm > 2.5:
        unit = "cn_km"
    r_t, r_m = V.fmt_distance(rng, nm, unit)
    if kind == "named":
        venue = rng.choice(venues)
        if rng.random() < 0.4:
            d.field(venue, z, "name").add(rng.choice(("周围", "周边", "一带", "附近", "", "范围内", "区域", "周边地区")))
            if rng.random() < 0.5:  # the name runs straight into what is done there
                d.add(rng.choice(ZH_ACTIONS))
            return named(venue)
        a, b, c = rng.choice((("以", "为中心，半径", "范围内"), ("", "周边", "范围"), ("", "半径", "以内"),
                              ("距", "", "范围内")))
        d.add(a).field(venue, z, "name").add(b).field(r_t, z, "radius").add(c)
        return named(venue, r_m)
    c_t, c_g = V.fmt_coord(rng, lat, lon, rng.choice(ZH_COORD))
    form = rng.randrange(5)
    if form == 0:
        d.add("以").field(c_t, z, "center").add(rng.choice(("为中心、半径", "为中心，半径", "为圆心，半径", "为圆心半径")))
        d.field(r_t, z, "radius").add(rng.choice(("范围内", "的圆形区域", "以内", "")))
    elif form == 1:
        d.add(rng.choice(("中心点", "中心坐标", "坐标", "位置"))).add(rng.choice(("：", "", " ")))
        d.field(c_t, z, "center").add(rng.choice(("，半径", "，半径：", " 半径", "；半径"))).field(r_t, z, "radius")
    elif form == 2:
        d.field(c_t, z, "center").add(rng.choice(("周边", "周围", "半径", " 半径 "))).field(r_t, z, "radius")
        d.add(rng.choice(("内", "范围", "")))
    elif form == 3:
        d.add("半径").field(r_t, z, "radius").add(rng.choice(("，中心", "，圆心", "，中心点"))).field(c_t, z, "center")
    else:
        d.add(rng.choice(("距", "离"))).field(c_t, z, "center").add(rng.choice(("", "点"))).field(r_t, z, "radius")
        d.add(rng.choice(("范围内", "以内")))
    return circle(c_g, r_m)


def _zh_upper(rng: random.Random):
    return V.fmt_limit(rng, "cn_agl", rng.choice((50, 100, 120, 150, 300, 500, 1000))) if rng.random() < 0.7 else None


def _zh_upper_phrase(rng: random.Random, d: Doc, zs, up) -> None:
    a, b = rng.choice((("", "以下"), ("", "（含）以下"), ("高度", "以下"), ("", "以下空域"), ("飞行高度", "以下"),
                       ("", "以内")))
    d.add(a).field(up[0], zs, "upper").add(b)


def _zh_time_phrase(rng: random.Random, d: Doc, zs, s_t, joiner, e_t) -> None:
    a, b = rng.choice((("", ""), ("时间：", ""), ("管控时间：", ""), ("自", "止"), ("", "（北京时间）"),
                       ("管控时段：", ""), ("", "期间")))
    d.add(a).field(s_t, zs, "start").add(joiner).field(e_t, zs, "end").add(b)


def _zh(rng: random.Random, multi: bool) -> Example:
    city, clat, clon, venues = rng.choice(CITIES)
    nz = rng.randint(2, 8) if multi else 1
    d = Doc()
    gold = []
    intro = _fill(rng, rng.choice(ZH_INTROS), city, venues)
    if intro:
        d.add(intro + rng.choice(("\n", "", "\n\n")))
    if not multi and rng.random() < 0.3:
        d.add(rng.choice(("{e}期间，", "为保障{e}安全，", "{e}举办期间，", "因{e}需要，")).format(e=rng.choice(EVENTS)))
    shared_time = (not multi) or rng.random() < 0.75
    everyone = list(range(nz))

    def times():
        start = V.sample_start(rng, 60)
        return V.cn_time_pair(rng, start, rng.choice((2, 4, 6, 8, 12, 24, 48)))

    t_shared = times() if shared_time else None
    shared_up = _zh_upper(rng) if multi and rng.random() < 0.3 else None
    time_first = rng.random() < 0.6
    if multi and shared_time and time_first:
        _zh_time_phrase(rng, d, everyone, t_shared[0], t_shared[1], t_shared[2])
        d.add(rng.choice(("。\n", "，", "；\n", "\n")))
        d.add(rng.choice(("管控区域：\n", "禁飞区域如下：\n", "范围：", "")))
    # "{i}. " not "{i}.": an item number glued to a date ("1.2027年") reads as the number 1.2027
    marks = rng.choice(("（{c}）", "{i}、", "{i}. ", "{i})", "区域{c}：", "第{c}区：", "{a}区：", "第{i}处：", ""))
    for z in range(nz):
        if multi:
            m = marks if rng.random() < 0.9 else rng.choice(("{i}、", "（{c}）"))
            d.add(m.format(c="一二三四五六七八"[z], i=z + 1, a="ABCDEFGH"[z]))
        lat, lon = V.near(rng, clat, clon, 30)
        kind = rng.choices(("circle", "polygon", "named"), weights=(6, 2, 3))[0]
        up = shared_up if shared_up else _zh_upper(rng)
        tt = t_shared if shared_time else times()
        parts = ["geo"] + (["up"] if up and not shared_up else [])
        if not multi and rng.random() < 0.4:  # time before the place
            order = ["time"] + parts
        elif not multi or not shared_time:
            order = parts + ["time"] if rng.random() < 0.7 else ["time"] + parts
        else:
            order = parts
        geo = None
        for j, p in enumerate(order):
            if j:
                d.add(rng.choice(("，", "，", "；", " ", "")))
            if p == "geo":
                geo = _zh_geometry(rng, d, z, lat, lon, kind, venues)
            elif p == "up":
                _zh_upper_phrase(rng, d, z, up)
            else:
                _zh_time_phrase(rng, d, z, tt[0], tt[1], tt[2])
        d.add(rng.choice(("；\n", "。\n", "\n", "；")) if multi else rng.choice(("禁飞。", "。", "禁止无人机飞行。", "")))
        gold.append(zone(geo, None, up[1] if up else None, V.iso(tt[3]), V.iso(tt[4])))
    if multi and shared_time and not time_first:
        d.add(rng.choice(("以上区域", "上述区域", ""))).add(rng.choice(("管控时间：", "禁飞时段：", "")))
        _zh_time_phrase(rng, d, everyone, t_shared[0], t_shared[1], t_shared[2])
        d.add("。")
    if shared_up:
        d.add(rng.choice(("各区域", "以上区域", ""))).add("均为")
        _zh_upper_phrase(rng, d, everyone, shared_up)
        d.add("。")
    tail = _fill(rng, rng.choice(ZH_TAILS), city)
    if tail:
        d.add(tail)
    return Example(d, gold, "zh")


def generate(rng: random.Random, template: str) -> Example:
    if template.startswith("en"):
        return _en(rng, template == "en_multi_mix")
    return _zh(rng, template == "zh_multi_mix")
