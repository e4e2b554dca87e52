"""Composite messages: one message that defines 2–8 zones (dispatcher lists, Chinese numbered areas, FAA areas)."""

from __future__ import annotations

import random

from . import values as V
from .base import Doc, Example, circle, polygon, zone
from .chinese import CITIES
from .icao import _poly_points, polygon_doc

TEMPLATES = {"en_list": "multi", "faa_areas": "multi", "zh_numbered": "multi"}


def generate(rng: random.Random, template: str) -> Example:
    nz = rng.randint(2, 8) if rng.random() < 0.7 else rng.randint(2, 4)
    d = Doc()
    gold = []
    if template == "zh_numbered":
        city, clat, clon, venues = rng.choice(CITIES)
        start = V.sample_start(rng, 60)
        s_t, joiner, e_t, s_utc, e_utc, _ = V.cn_time_pair(rng, start, rng.choice((4, 8, 12, 24)))
        d.add(f"{city}{rng.choice(('市公安局', '空管分局', '市人民政府'))}关于设立临时禁飞区的通告\n")
        d.add("管控时间：").field(s_t, list(range(nz)), "start").add(joiner).field(e_t, list(range(nz)), "end")
        d.add("（北京时间）。\n管控区域：\n")
        style = rng.choice(("cn", "cn_dms", "cn_decimal", "cn_dufen"))
        for i in range(nz):
            plat, plon = V.near(rng, clat, clon, 30)
            c_t, c_g = V.fmt_coord(rng, plat, plon, style)
            r_t, r_m = V.fmt_distance(rng, V.sample_radius_nm(rng, 0.3, 4), rng.choice(("cn_km", "cn_m")))
            up = V.fmt_limit(rng, "cn_agl", rng.choice((120, 300, 500, 1000)))
            d.add(f"{'一二三四五六七八'[i]}、" if rng.random() < 0.5 else f"（{i + 1}）")
            d.add("以").field(c_t, i, "center").add("为中心、半径").field(r_t, i, "radius").add("，")
            d.field(up[0], i, "upper").add("以下；\n" if i < nz - 1 else "以下。\n")
            gold.append(zone(circle(c_g, r_m), None, up[1], V.iso(s_utc), V.iso(e_utc)))
        d.add(rng.choice(("上述区域内禁止无人机飞行。", "请各单位严格遵守。")))
        return Example(d, gold, "zh")

    fir, ad, alat, alon, _, _ = V.pick_aerodrome(rng, "us" if template == "faa_areas" else None)
    start = V.sample_start(rng, rng.choice((5, 15, 60)))
    end = start + V.sample_duration(rng, "short")
    if template == "faa_areas":
        st = rng.choice(("dms", "dm"))
        d.add(f"!FDC {start.year % 10}/{rng.randint(1000, 9999)} ZXX ..AIRSPACE TEMPORARY FLIGHT RESTRICTIONS. ")
        for i in range(nz):
            plat, plon = V.near(rng, alat, alon, 60)
            d.add(f"AREA {'ABCDEFGH'[i]} WI AN AREA DEFINED AS ")
            if rng.random() < 0.6:
                c_t, c_g = V.fmt_coord(rng, plat, plon, st)
                r_t, r_m = V.fmt_distance(rng, V.sample_radius_nm(rng, 1, 20), "nm")
                d.field(r_t.replace(" ", ""), i, "radius").add(" RADIUS OF ").field(c_t, i, "center").add(" ")
                geo = circle(c_g, r_m)
            else:
                pdoc, pg = polygon_doc(rng, _poly_points(rng, plat, plon, rng.uniform(3, 20), rng.randint(3, 5)),
                                       i, st, "to")
                d.parts.extend(pdoc.parts)
                d.add(" ")
                geo = polygon(pg)
            lt, lg = V.limit_sfc(rng, "SFC")
            ut, ug = V.fmt_limit(rng, "ft_bare", rng.choice((1000, 3000, 5000, 8000, 17999)))
            d.field(lt, i, "lower").add("-").field(ut, i, "upper").add(". ")
            gold.append(zone(geo, lg, ug, V.iso(start), V.iso(end)))
        d.field(V.fmt_icao_time(start), list(range(nz)), "start").add("-").field(V.fmt_icao_time(end), list(range(nz)), "end")
        return Example(d, gold, "en")

    # en_list: dispatcher list of zones for the day
    d.add(rng.choice(("Restrictions for today's ops:", "Active no-fly zones:", "NOTAM summary for dispatch -",
                      "Zones to avoid")))
    s_t = V.fmt_iso_time(rng, start)
    e_t = V.fmt_iso_time(rng, end)
    shared_time = rng.random() < 0.6
    if shared_time:
        d.add(" (valid ").field(s_t, list(range(nz)), "start").add(" to ").field(e_t, list(range(nz)), "end").add(")")
    d.add("\n")
    style = rng.choice(("decimal_hemi", "decimal_signed", "dms", "dm", "dms_symbols", "hemi_first"))
    for i in range(nz):
        plat, plon = V.near(rng, alat, alon, 40)
        d.add(rng.choice((f"{i + 1}) ", f"{i + 1}. ", "- ", "* ")))
        c_t, c_g = V.fmt_coord(rng, plat, plon, style)
        r_t, r_m = V.fmt_distance(rng, V.sample_radius_nm(rng, 0.2, 6), rng.choice(("km", "nm", "m")))
        d.field(r_t, i, "radius").add(" around ").field(c_t, i, "center").add(", ")
        lt, lg = V.limit_sfc(rng, "SFC")
        ut, ug = V.fmt_limit(rng, rng.choice(("ft_agl", "ft_amsl", "m_agl")), rng.choice((120, 200, 400, 500, 1000, 1500)))
        d.field(lt, i, "lower").add("-").field(ut, i, "upper")
        zs, ze = start, end
        if not shared_time:
            zs = V.sample_start(rng, 15)
            ze = zs + V.sample_duration(rng, "short")
            d.add(", ").field(V.fmt_icao_time(zs), i, "start").add("-").field(V.fmt_icao_time(ze), i, "end")
        d.add("\n")
        gold.append(zone(circle(c_g, r_m), lg, ug, V.iso(zs), V.iso(ze)))
    return Example(d, gold, "en")
