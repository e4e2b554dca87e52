"""Chinese municipal notices in the layouts other cities publish (issue 44, forms 2, 3, 4 and 7).

- ``venues_days``: several venues in one notice, each with its own day range and daily window
  (``（一）某某体育中心及周边3公里范围内：5月2日至6日每日8时至18时``); one zone per venue: ``name`` the venue,
  ``radius`` its own, ``start`` the first day as written (``5月2日``: the year is the heading's), ``end`` the last day
  (``6日``: the month is the start's; the end of that day), ``schedule`` the daily window. Real layout: world train
  ``hk-bau:kaitak-stadium-july`` (two venues, each with its own day ranges and daily windows) and val
  ``cn-shantou-gaokao-2023`` (many sites under one notice).
- ``heading_days``: the heading states the full dates (``关于2026年3月26日至30日…的通告``), the body only the days
  (``26日至30日的每日8时至18时``); the answer's start/end are the heading's, the daily window the body's. Real:
  world val ``cn-shantou-gaokao-2023`` (``将于6月7日至9日举行``: the last day without its month).
- ``road_bounded``: the place is a road-bounded area (``东起甲路、西至乙大道、北起丙街、南至丁河``), a district or a
  venue, never the clause around it; the sentences after it (``有效期至2月11日``, ``，具有…``) carry fragments that
  are no place. Real: world train ``cn-yichang-concert-2023-07-08`` (an area bounded by four roads,
  ``沿…形成的合围地域``).
- ``publine_days`` (pending a reader, ``readiness``): only the publication line states year and month; the body
  writes ``26日至30日每日8时至18时``; gold from that line. Real: world train ``hk-bau:kaitak-stadium-july``
  (``今日(7月22日)`` and then ``24日至26日``).
- held out: ``venues_table`` (one venue a block of ``场所/日期/时段`` lines), ``road_bounded_zhi`` (every direction
  with ``至``, times with a colon).

Names are synthetic (composed from syllables), never a real venue."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from . import values as V
from .base import Doc, Example, named, zone
from .readiness import active

BASE = {
    "venues_days": "named",
    "heading_days": "named",
    "road_bounded": "named",
    "venues_table": "named",
    "road_bounded_zhi": "named",
}
PENDING = {"publine_days": "named"}

SYL = "东西南北新金青云安宁河山湖江龙泉阳华兴平丰盛林石港滨临桂梅松竹凤鹤莲星光明德嘉瑞福"
VENUE_KINDS = ("体育中心", "体育场", "会展中心", "国际会议中心", "文化广场", "湿地公园", "奥体中心", "足球场",
               "大剧院", "赛车场", "音乐公园", "博览中心", "体育馆", "滨江公园", "游泳馆")
ROAD_KINDS = ("路", "大道", "街", "大街", "河", "高速", "快速路", "二路")
EVENTS = ("马拉松赛", "国际车展", "音乐节", "运动会", "博览会", "演唱会", "重大活动", "文化旅游节", "航空嘉年华",
          "龙舟赛", "国际论坛")
ORGS = ("公安局", "人民政府", "公安局交通管理支队", "公安局治安管理支队")  # after a city name (某某市公安局)
TAILS = ("对无人机等“低慢小”航空器实施临时管控", "禁止无人驾驶航空器飞行", "实施临时空域管制", "禁止放飞无人机、风筝、孔明灯等")
CLAUSES = (  # sentences whose fragments (至…日, ，具有…) are no place
    "本通告自发布之日起施行，有效期至{m}月{d}日。",
    "对违反本通告规定的，具有管理职责的部门将依法予以处置。",
    "管控期间，具有合法飞行资质的单位如需飞行，须提前向{org}报备。",
    "如有疑问，请拨打咨询电话{tel}。",
    "特此通告。",
)
BEIJING = V.BEIJING  # the offset (Chinese notices are in Beijing time)
BJT = timezone(BEIJING)


def _name(rng: random.Random, k: int = 2) -> str:
    return "".join(rng.choice(SYL) for _ in range(k))


def _city(rng: random.Random) -> str:
    return _name(rng, 2) + "市"


def _district(rng: random.Random) -> str:
    return _name(rng, 2) + rng.choice(("区", "区", "县", "新区"))


def _venue(rng: random.Random, used: set[str]) -> str:
    for _ in range(20):
        v = _name(rng, rng.choice((2, 2, 3))) + rng.choice(VENUE_KINDS)
        if v not in used:
            used.add(v)
            return v
    raise RuntimeError("no fresh venue name")


def _road(rng: random.Random) -> str:
    if rng.random() < 0.15:
        return f"G{rng.randint(1, 99)}高速"
    return _name(rng, 2) + rng.choice(ROAD_KINDS)


def _clause(rng: random.Random, m: int, d: int) -> str:
    return rng.choice(CLAUSES).format(m=m, d=d, org=rng.choice(ORGS), tel=f"0{rng.randint(10, 99)}-{rng.randint(1000000, 9999999)}")


def _daily(rng: random.Random) -> tuple[str, int, int]:
    """A daily window in Beijing time: its text (the schedule, gold = itself) and its hours."""
    h1 = rng.randint(6, 12)
    h2 = rng.randint(h1 + 2, 22)
    form = rng.randrange(4)
    if form == 0:
        t = f"每日{h1}时至{h2}时"
    elif form == 1:
        t = f"每天{h1}:00至{h2}:00"
    elif form == 2:
        t = f"每日{h1:02d}时00分至{h2:02d}时00分"
    else:
        t = f"每日{h1}时—{h2}时"
    return t, h1, h2


def _days(rng: random.Random, base: datetime) -> tuple[datetime, datetime]:
    """A first and a last day (Beijing dates at 00:00) from ``base`` on, in its year, one to seven days apart."""
    start = base + timedelta(days=rng.randint(0, 12))
    if start.year != base.year:
        start = datetime(base.year, 12, 24, tzinfo=BJT)
    last = start + timedelta(days=rng.randint(1, 6))
    if last.year != start.year:
        last = datetime(start.year, 12, 31, tzinfo=BJT)
    return start, last


def _base_day(rng: random.Random, year: int) -> datetime:
    return datetime(year, rng.randint(1, 12), rng.randint(1, 20), tzinfo=BJT)


def _window(start_day: datetime, last_day: datetime) -> tuple[str | None, str | None]:
    """First day 00:00 to the end of the last day (its 24:00), in UTC ISO."""
    return V.iso(start_day.astimezone(timezone.utc)), V.iso((last_day + timedelta(days=1)).astimezone(timezone.utc))


def _day_texts(rng: random.Random, s: datetime, e: datetime) -> tuple[str, str, str]:
    """(start text, joiner, end text) of a day range: ``5月2日``/``至``/``6日`` (the month only where it changes)."""
    s_t = f"{s.month}月{s.day}日"
    if e.month != s.month or rng.random() < 0.3:
        e_t = f"{e.month}月{e.day}日"
    else:
        e_t = f"{e.day}日"
    return s_t, rng.choice(("至", "至", "到", "—")), e_t


def _radius(rng: random.Random) -> tuple[str, float]:
    nm = V.sample_radius_nm(rng, 0.3, 6)
    return V.fmt_distance(rng, nm, rng.choice(("cn_km", "cn_km", "cn_qianmi", "cn_m")))


def _upper(rng: random.Random):
    return V.fmt_limit(rng, "cn_agl", rng.choice((50, 100, 120, 120, 150, 300, 500, 1000)))


def _heading(rng: random.Random, year: int, event: str, city: str) -> str:
    return f"关于{year}年{city}{event}期间{rng.choice(TAILS)}的通告\n\n"


def _venues_days(rng: random.Random, table: bool) -> Example:
    year = rng.randint(2024, 2028)
    event = rng.choice(EVENTS)
    city = _city(rng)
    base = _base_day(rng, year)
    d = Doc().add(_heading(rng, year, event, city))
    d.add(rng.choice(("为保障活动安全顺利进行，根据有关法律法规规定，现将有关事项通告如下：\n",
                      "为确保活动期间公共安全，决定对下列区域实施管控，具体如下：\n")))
    d.add(rng.choice(("一、管控区域和时间\n", "管控范围及时段：\n", "")))
    n = rng.randint(2, 5)
    used: set[str] = set()
    up = _upper(rng) if rng.random() < 0.7 else None
    gold = []
    marks = rng.choice((("（一）", "（二）", "（三）", "（四）", "（五）"), ("1.", "2.", "3.", "4.", "5."),
                        ("1、", "2、", "3、", "4、", "5、")))
    last_seen = None
    for i in range(n):
        venue = _venue(rng, used)
        s, e = _days(rng, base)
        daily, _, _ = _daily(rng)
        s_t, joiner, e_t = _day_texts(rng, s, e)
        r = _radius(rng) if rng.random() < 0.75 else None
        last_seen = e if last_seen is None else max(last_seen, e)
        if table:
            d.add(f"{marks[i]}场所：").field(venue, i, "name")
            if r:
                d.add(rng.choice(("，周边", "及周边", "，半径"))).field(r[0], i, "radius").add("范围内")
            d.add("\n日期：").field(s_t, i, "start").add(joiner).field(e_t, i, "end")
            d.add("\n时段：").field(daily, i, "schedule").add("\n")
        else:
            d.add(marks[i]).field(venue, i, "name")
            if r:
                how = rng.randrange(3)
                if how == 0:
                    d.add("及周边").field(r[0], i, "radius").add("范围内")
                elif how == 1:
                    d.add("为中心、半径").field(r[0], i, "radius").add("范围内")
                else:
                    d.add("周边").field(r[0], i, "radius").add("区域")
            d.add(rng.choice(("：", "，管控时间为", "：")))
            d.field(s_t, i, "start").add(joiner).field(e_t, i, "end")
            d.add(rng.choice(("", "的", "，"))).field(daily, i, "schedule").add(rng.choice(("；\n", "。\n", "；\n")))
        start_iso, end_iso = _window(s, e)
        gold.append(zone(named(venue, r[1] if r else None), None, up[1] if up else None, start_iso, end_iso, daily))
    if up:
        d.add(rng.choice(("二、管控高度：", "上述区域", "管控空域为"))).add(rng.choice(("地面至", "")))
        d.field(up[0], list(range(n)), "upper").add(rng.choice(("以下。\n", "以下空域。\n")))
    d.add(_clause(rng, last_seen.month, last_seen.day)).add("\n").add(_clause(rng, last_seen.month, last_seen.day))
    issued = max(datetime(year, 1, 1, tzinfo=BJT), base - timedelta(days=rng.randint(2, 15)))
    d.add(f"\n\n{city}{rng.choice(ORGS)}\n{year}年{issued.month}月{issued.day}日")
    return Example(d, gold, "zh")


def _place(rng: random.Random, zhi: bool) -> str:
    """A road-bounded area written as its four bounds (the name is the bounds themselves)."""
    dirs = [("东", "起" if not zhi else "至"), ("西", "至"), ("北", "起" if not zhi else "至"), ("南", "至")]
    if rng.random() < 0.5:
        dirs = [dirs[0], dirs[3], dirs[1], dirs[2]]  # 东…南…西…北
    roads = set()
    parts = []
    for a, b in dirs:
        r = _road(rng)
        while r in roads:
            r = _road(rng)
        roads.add(r)
        parts.append(f"{a}{b}{r}")
    return rng.choice(("、", "，", "、")).join(parts)


def _road_bounded(rng: random.Random, zhi: bool) -> Example:
    start = V.sample_start(rng, 60)
    hours = rng.choice((3, 4, 6, 8, 10, 12, 36, 60))
    s_t, joiner, e_t, s_utc, e_utc, _ = V.cn_time_pair(rng, start, hours)
    if zhi:
        s_loc, e_loc = s_utc + BEIJING, e_utc + BEIJING
        s_t = f"{s_loc.year}年{s_loc.month}月{s_loc.day}日{s_loc:%H:%M}"
        e_t = f"{e_loc.year}年{e_loc.month}月{e_loc.day}日{e_loc:%H:%M}"
        joiner = rng.choice(("至", "—"))
    year = (s_utc + BEIJING).year
    d = Doc().add(_heading(rng, year, rng.choice(EVENTS), _city(rng)))
    kind = rng.random()
    district = _district(rng)
    if kind < 0.6 or zhi:
        place = _place(rng, zhi)
        d.add(rng.choice(("一、管控区域：", "管控范围：", "禁飞区域为"))).add(district if rng.random() < 0.5 else "")
        d.field(place, 0, "name").add(rng.choice(("以内的区域", "围合区域", "范围内", "合围区域")))
    elif kind < 0.8:
        place = district
        d.add(rng.choice(("一、管控区域：", "管控范围："))).field(place, 0, "name")
        d.add(rng.choice(("行政区域内", "全域", "辖区范围内")))
    else:
        place = _venue(rng, set())
        d.add(rng.choice(("一、管控区域：", "管控范围："))).add(district).field(place, 0, "name").add("及周边区域")
    up = _upper(rng) if rng.random() < 0.6 else None
    if up:
        d.add("，").field(up[0], 0, "upper").add("以下空域")
    d.add("。\n").add(rng.choice(("二、管控时间：", "管控时段：", "时间：")))
    d.field(s_t, 0, "start").add(joiner).field(e_t, 0, "end").add("。\n")
    after = e_utc + BEIJING + timedelta(days=rng.randint(1, 20))
    d.add(_clause(rng, after.month, after.day)).add("\n").add(_clause(rng, after.month, after.day))
    return Example(d, [zone(named(place), None, up[1] if up else None, V.iso(s_utc), V.iso(e_utc))], "zh")


def _heading_days(rng: random.Random) -> Example:
    """The heading's full dates are the answer's; the body restates only the days."""
    year = rng.randint(2024, 2028)
    s, e = _days(rng, _base_day(rng, year))
    if e.month != s.month:
        s, e = datetime(year, s.month, 20, tzinfo=BJT), datetime(year, s.month, 20 + rng.randint(1, 7), tzinfo=BJT)
    daily, _, _ = _daily(rng)
    event = rng.choice(EVENTS)
    d = Doc().add("关于")
    d.field(f"{year}年{s.month}月{s.day}日", 0, "start").add("至").field(f"{e.day}日", 0, "end")
    d.add(f"{_city(rng)}{event}期间{rng.choice(TAILS)}的通告\n\n")
    place = _venue(rng, set()) if rng.random() < 0.6 else _district(rng)
    r = _radius(rng) if rng.random() < 0.6 else None
    d.add(f"{s.day}日至{e.day}日的").field(daily, 0, "schedule").add("，").field(place, 0, "name")
    if r:
        d.add(rng.choice(("周边", "半径", "为中心半径"))).field(r[0], 0, "radius").add("范围内")
    d.add(rng.choice(("禁止一切无人机飞行。\n", "实施临时管控。\n")))
    d.add(_clause(rng, e.month, e.day))
    start_iso, end_iso = _window(s, e)
    return Example(d, [zone(named(place, r[1] if r else None), None, None, start_iso, end_iso, daily)], "zh")


def _publine_days(rng: random.Random) -> Example:
    """Only the publication line states year and month; the body writes days alone."""
    year = rng.randint(2024, 2028)
    m = rng.randint(1, 12)
    p = rng.randint(1, 18)
    a = rng.randint(p + 1, 24)
    b = rng.randint(a + 1, 28)
    s = datetime(year, m, a, tzinfo=BJT)
    e = datetime(year, m, b, tzinfo=BJT)
    daily, _, _ = _daily(rng)
    d = Doc().add(f"{_city(rng)}{rng.choice(ORGS)}通告\n发布时间：{year}年{m}月{p}日\n\n")
    place = _venue(rng, set())
    d.add(rng.choice(("本月", ""))).field(f"{a}日", 0, "start").add("至").field(f"{b}日", 0, "end")
    d.add("的").field(daily, 0, "schedule").add("，").field(place, 0, "name").add("及周边禁止无人机飞行。\n")
    d.add(_clause(rng, m, b))
    start_iso, end_iso = _window(s, e)
    return Example(d, [zone(named(place), None, None, start_iso, end_iso, daily)], "zh")


def generate(rng: random.Random, template: str) -> Example:
    if template == "venues_days":
        return _venues_days(rng, table=False)
    if template == "venues_table":
        return _venues_days(rng, table=True)
    if template == "heading_days":
        return _heading_days(rng)
    if template == "road_bounded":
        return _road_bounded(rng, zhi=False)
    if template == "road_bounded_zhi":
        return _road_bounded(rng, zhi=True)
    if template == "publine_days":
        return _publine_days(rng)
    raise ValueError(f"unknown template {template!r}")


TEMPLATES = active(generate, BASE, PENDING)
