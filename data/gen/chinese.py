"""Chinese notices (临时空域管制 / 禁飞 / 真高 / 半径…公里 / 北纬东经), times in Beijing time (UTC+8).

A venue named without coordinates comes back as a ``named`` geometry (never an invented point)."""

from __future__ import annotations

import random

from . import values as V
from .base import Doc, Example, circle, named, polygon, zone
from .icao import _poly_points

TEMPLATES = {
    "venue_radius": "named",
    "coord_circle": "circle",
    "coord_polygon": "polygon",
    "short_notice": "circle",
    "venue_list": "named",
}

CITIES = [
    ("深圳", 22.54, 114.06, ("深圳湾体育中心", "大运中心体育场", "深圳国际会展中心", "深圳湾公园", "宝安体育场")),
    ("广州", 23.13, 113.26, ("天河体育中心", "广州国际体育演艺中心", "海心沙亚运公园", "广东奥林匹克体育中心")),
    ("上海", 31.23, 121.47, ("上海体育场", "国家会展中心", "上海国际赛车场", "浦东足球场", "东方体育中心")),
    ("北京", 39.90, 116.40, ("国家体育场", "工人体育场", "国家速滑馆", "首钢园", "奥林匹克公园")),
    ("成都", 30.57, 104.07, ("凤凰山体育公园", "东安湖体育公园", "成都世纪城国际会议中心")),
    ("杭州", 30.27, 120.15, ("杭州奥体中心体育场", "黄龙体育中心", "西湖文化广场")),
    ("武汉", 30.59, 114.31, ("武汉体育中心", "五环体育中心", "光谷国际网球中心")),
    ("西安", 34.34, 108.94, ("西安奥体中心", "曲江会展中心", "大明宫遗址公园")),
    ("南京", 32.06, 118.80, ("南京奥体中心", "五台山体育中心", "南京国际博览中心")),
    ("重庆", 29.56, 106.55, ("重庆奥体中心", "龙兴足球场", "悦来国际会议中心")),
    ("青岛", 36.07, 120.38, ("青岛国信体育场", "青岛青春足球场", "奥帆中心")),
    ("厦门", 24.48, 118.09, ("白鹭体育场", "厦门国际会展中心", "环东海域体育公园")),
    ("珠海", 22.27, 113.58, ("珠海国际航展中心", "横琴国际网球中心", "珠海体育中心")),
    ("海口", 20.04, 110.20, ("五源河体育场", "海口国际会展中心")),
    ("昆明", 25.04, 102.71, ("拓东体育场", "滇池国际会展中心")),
    ("哈尔滨", 45.80, 126.53, ("哈尔滨国际会展中心", "太阳岛冰雪大世界")),
    ("天津", 39.13, 117.20, ("天津奥体中心", "天津团泊体育中心")),
    ("长沙", 28.23, 112.94, ("贺龙体育中心", "长沙国际会展中心")),
    ("郑州", 34.75, 113.63, ("航海体育场", "郑州国际会展中心")),
    ("济南", 36.65, 117.12, ("济南奥体中心", "山东国际会展中心")),
    ("苏州", 31.30, 120.59, ("苏州奥林匹克体育中心", "金鸡湖国际会议中心")),
    ("福州", 26.07, 119.30, ("海峡奥体中心", "福州海峡国际会展中心")),
]
EVENTS = ("国际马拉松赛", "国际车展", "大型演唱会", "职业足球联赛", "全国运动会", "国际航空航天博览会", "重要会议",
          "新年灯光秀", "烟花燃放活动", "国际半程马拉松", "篮球世界杯预选赛", "国际田径邀请赛", "文化旅游节")
OBJECTS = ("无人机等“低慢小”航空器", "无人驾驶航空器", "各类无人机、航模、热气球等航空器", "无人机、航空模型")
LONG_OBJECTS = (
    "本通告所称管控对象，包括各类多旋翼、固定翼、垂直起降无人机，航空模型，动力伞、滑翔伞，系留气球、"
    "无人驾驶自由气球，以及孔明灯等可能影响空中安全的升空物体。",
    "管控对象为在管控区域内开展飞行活动的民用无人驾驶航空器、航空模型、轻型和超轻型航空器、热气球、"
    "滑翔伞及其他升空物体。",
    "凡在管控区域内飞行的无人机（含消费级航拍无人机、植保无人机）、航模、动力三角翼、载人气球等，"
    "均属于本次临时管控范围。",
)
LONG_RULES = (
    "因执行公务确需飞行的，须提前向空管部门和公安机关报备，经批准后方可实施。",
    "管控期间，相关单位和个人应当主动配合检查，自觉遵守管控规定。",
    "对擅自飞行的航空器，公安机关将依法采取反制措施，由此造成的损失由飞行者自行承担。",
)
BANS = ("禁止一切无人机及“低慢小”航空器飞行。", "禁飞区内严禁任何单位和个人放飞无人机。",
        "上述区域内禁止无人驾驶航空器飞行活动。", "任何单位和个人不得在管控区域内从事飞行活动。")


def _radius(rng: random.Random) -> tuple[str, float]:
    nm = V.sample_radius_nm(rng, 0.25, 10)
    unit = rng.choices(("cn_km", "cn_qianmi", "cn_m"), weights=(70, 10, 20))[0]
    if unit == "cn_m" and nm > 2.5:
        unit = "cn_km"
    return V.fmt_distance(rng, nm, unit)


def _times(rng: random.Random):
    start = V.sample_start(rng, 60)
    hours = rng.choice((2, 4, 6, 8, 10, 12, 14, 24, 48, 72))
    return V.cn_time_pair(rng, start, hours)


def _upper(rng: random.Random):
    if rng.random() < 0.6:
        return V.fmt_limit(rng, "cn_agl", rng.choice((50, 100, 120, 120, 150, 300, 500, 1000)))
    return None


def generate(rng: random.Random, template: str) -> Example:
    city, clat, clon, venues = rng.choice(CITIES)
    d = Doc()
    s_t, joiner, e_t, s_utc, e_utc, _ = _times(rng)
    up = _upper(rng)
    event = rng.choice(EVENTS)
    gold = []
    if template in ("venue_radius", "coord_circle", "coord_polygon"):
        org = rng.choice((f"{city}市公安局", f"{city}市人民政府", f"{city}市公安局交通警察支队", "民航空管部门"))
        d.add(f"{org}关于{event}期间对{rng.choice(OBJECTS)}实施临时{rng.choice(('管控', '飞行管制', '空域管制'))}的通告\n\n")
        long_form = rng.random() < 0.4
        if long_form:
            ev_day = s_utc + V.BEIJING
            d.add(f"{event}将于{ev_day.year}年{ev_day.month}月{ev_day.day}日在{rng.choice(venues)}举办。\n\n")
            d.add(rng.choice((f"为保障{event}期间我市空域安全，防范不明飞行物干扰活动，",
                              f"为确保{event}顺利进行、维护社会公共安全，")))
            d.add(rng.choice(("依据《中华人民共和国民用航空法》《无人驾驶航空器飞行管理暂行条例》等规定，",
                              "根据国家有关法律法规，", "经研究决定，")))
            d.add("现就有关事项通告如下：\n\n")
            d.add("一、管控对象\n\n")
            d.add(rng.choice(LONG_OBJECTS) + "\n\n")
            d.add("二、管控区域和时段\n\n" + rng.choice(("管控区域：", "禁飞区域：")))
        else:
            d.add(rng.choice((f"为确保{event}安全有序进行，", f"为保障{event}期间空中安全，",
                              f"{event}将在我市举行。为维护公共安全，")))
            d.add(rng.choice(("依据有关法律法规，现将有关事项公布如下：\n\n", "根据相关规定，特通告如下：\n\n",
                              "现通告如下：\n")))
            d.add(rng.choice(("一、管控区域：", "一、禁飞区域：", "一、临时管制空域范围：")))
        if template == "venue_radius":
            venue = rng.choice(venues)
            r_t, r_m = _radius(rng)
            d.add("以").field(venue, 0, "name").add(rng.choice(("为中心，半径", "为中心、半径", "为圆心，半径")))
            d.field(r_t, 0, "radius").add(rng.choice(("范围内", "的区域", "以内")))
            geo = named(venue, r_m)
        elif template == "coord_circle":
            plat, plon = V.near(rng, clat, clon, 20)
            c_t, c_g = V.fmt_coord(rng, plat, plon, rng.choice(("cn", "cn", "cn_dms", "cn_dufen", "cn_decimal")))
            r_t, r_m = _radius(rng)
            d.add("以").field(c_t, 0, "center").add(rng.choice(("为中心，半径", "为中心、半径", "为圆心，半径")))
            d.field(r_t, 0, "radius").add(rng.choice(("的圆形区域", "范围内", "以内区域")))
            geo = circle(c_g, r_m)
        else:
            n = rng.randint(3, 6)
            pts = _poly_points(rng, clat, clon, rng.uniform(2, 15), n)
            style = rng.choice(("cn", "cn_dms", "cn_dufen"))
            d.add("由")
            sep = rng.choice(("、", "；", "，", "、"))
            gp = []
            for i, p in enumerate(pts):
                t, g = V.fmt_coord(rng, p[0], p[1], style)
                if i:
                    d.add(sep, (0, "polygon"))
                d.add(t, (0, "polygon"))
                gp.append(g)
            d.add(rng.choice((f"{'三四五六'[n - 3]}点连线围成的区域", "各点依次连线范围内", "连线构成的区域")))
            geo = polygon(gp)
        if up:
            d.add(rng.choice(("，", "，高度", "，"))).field(up[0], 0, "upper").add(rng.choice(("以下", "（含）以下", "以下空域")))
        if long_form:
            d.add("；\n\n" + rng.choice(("管控时段：", "管控时间："))).field(s_t, 0, "start").add(joiner)
            d.field(e_t, 0, "end").add("。\n\n")
            d.add("三、管控要求\n\n" + rng.choice(BANS) + rng.choice(LONG_RULES) + "\n\n")
            d.add(f"四、违反本通告的，由公安机关依法处理；构成犯罪的，依法追究刑事责任。如发现违规飞行，请拨打"
                  f"{rng.choice(('110', '0755-8' + str(rng.randint(1000000, 9999999)), '12345'))}报警。\n")
        else:
            d.add("。\n")
            d.add(rng.choice(("二、管控时间：", "二、管控时段：", "二、禁飞时间："))).field(s_t, 0, "start").add(joiner)
            d.field(e_t, 0, "end").add("。\n")
            d.add("三、" + rng.choice(BANS) + "\n")
            if rng.random() < 0.5:
                d.add(f"四、对违反本通告的，公安机关将依法予以处罚。举报电话：{rng.choice(('0755', '020', '021', '010', '028'))}-"
                      f"{rng.randint(10000000, 99999999)}。\n")
        d.add(f"\n{org}\n{s_utc.year}年{rng.randint(1, 12)}月{rng.randint(1, 28)}日")
    elif template == "short_notice":
        plat, plon = V.near(rng, clat, clon, 30)
        c_t, c_g = V.fmt_coord(rng, plat, plon, rng.choice(("cn", "cn_dms", "cn_decimal", "cn_dufen")))
        r_t, r_m = _radius(rng)
        d.add(rng.choice(("临时空域管制：", "【禁飞通知】", "空域管制通报：", "")))
        d.field(s_t, 0, "start").add(joiner).field(e_t, 0, "end").add("（北京时间），")
        d.field(c_t, 0, "center").add(rng.choice(("为中心半径", " 半径", "周边半径"))).field(r_t, 0, "radius")
        if up:
            d.add("内，").field(up[0], 0, "upper").add("以下禁飞。")
        else:
            d.add(rng.choice(("内禁飞。", "范围内禁止无人机飞行。")))
        geo = circle(c_g, r_m)
    else:  # venue_list: a venue with a time window, no radius
        venue = rng.choice(venues)
        d.add(f"{event}期间，").field(venue, 0, "name").add(rng.choice(("及周边区域", "上空", "周边")))
        d.add(rng.choice(("实施临时禁飞，", "设立临时禁飞区，")))
        d.add("时间为").field(s_t, 0, "start").add(joiner).field(e_t, 0, "end")
        if up:
            d.add("，范围为").field(up[0], 0, "upper").add("以下空域")
        d.add("。" + rng.choice(BANS))
        geo = named(venue)
    gold.append(zone(geo, None, up[1] if up else None, V.iso(s_utc), V.iso(e_utc)))
    return Example(d, gold, "zh")
