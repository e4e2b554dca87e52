"""Short dispatcher free text, English and Chinese (``UAV ops prohibited within 3 km of 22.54N 114.06E ...``)."""

from __future__ import annotations

import random
from datetime import datetime, timedelta, timezone

from . import values as V
from .base import Doc, Example, circle, named, polygon, zone
from .chinese import CITIES
from .icao import _poly_points

TEMPLATES = {
    "en_within": "circle",
    "en_dispatch": "circle",
    "en_polygon": "polygon",
    "en_police": "circle",
    "en_chat": "circle",
    "en_summary": "circle",
    "en_named": "named",
    "en_local": "circle",
    "zh_dispatch": "circle",
    "zh_venue": "named",
}

EN_STYLES = ("decimal_hemi", "decimal_hemi", "decimal_signed", "decimal_deg", "hemi_decimal", "dms_symbols", "dms",
             "dm", "dms_space")
LANDMARKS = ("Wembley Stadium", "Hyde Park", "Silverstone Circuit", "Old Trafford", "Croke Park", "Stade de France",
             "Allianz Arena", "Camp Nou", "Madison Square Garden", "MetLife Stadium", "Dodger Stadium",
             "Melbourne Cricket Ground", "Marina Bay Sands", "Tokyo Big Sight", "Central Park", "Soldier Field",
             "Twickenham Stadium", "Hampden Park", "Rogers Centre", "Sydney Opera House")
PLACES_EN = ("the stadium", "the harbour bridge", "the city hospital", "the wind farm", "the exhibition centre",
             "the motorway junction", "the race track", "the container port", "the festival site", "the prison")


def _en_limit(rng: random.Random):
    k = rng.random()
    if k < 0.5:
        return V.fmt_limit(rng, "m_words_agl", rng.choice((30, 50, 60, 90, 100, 120, 150)))
    if k < 0.8:
        return V.fmt_limit(rng, "ft_agl", rng.choice((200, 300, 400, 500)))
    return V.fmt_limit(rng, "ft_amsl", rng.choice((500, 1000, 1500, 2000)))


def _en_radius(rng: random.Random):
    nm = V.sample_radius_nm(rng, 0.1, 8)
    return V.fmt_distance(rng, nm, rng.choice(("km", "km", "km_words", "nm", "m")))


def _en_times(rng: random.Random, d_unused=None):
    """(start text|None, end text|None, schedule text|None, start, end)."""
    k = rng.random()
    start = V.sample_start(rng, rng.choice((5, 15, 30, 60)))
    end = start + V.sample_duration(rng, "short")
    if k < 0.35:
        return V.fmt_iso_time(rng, start), V.fmt_iso_time(rng, end), None, start, end
    if k < 0.55:
        return V.fmt_icao_time(start), V.fmt_icao_time(end), None, start, end
    if k < 0.7:
        a = rng.randint(5, 12) * 100
        b = a + rng.choice((200, 400, 600, 800, 1000))
        return None, None, f"{a:04d}-{b:04d} {rng.choice(('local', 'UTC', 'Z', 'LT'))}", None, None
    return None, None, None, None, None


def _clock(minutes: int, style: int) -> str:
    h, m = divmod(minutes, 60)
    return (f"{h:02d}{m:02d}", f"{h:02d}:{m:02d}", f"{h}:{m:02d}")[style]


def _local_note(rng: random.Random, d: Doc, lat: float, lon: float, style: str):
    """A dispatcher's note that gives only clock times, in local time: the day is in its heading (or after the
    times), the UTC offset beside the times. The answer points at all four; the normaliser combines them
    (``parser.times.local_window``), so the gold here is the same arithmetic done apart: day + clock - offset, an end
    not after its start on the next day."""
    day = V.sample_start(rng).date()
    mon = V.MONTH_NAMES[day.month - 1]
    date_t = rng.choice((f"{day.day} {mon[:3]} {day.year}", f"{day.day} {mon} {day.year}",
                         f"{mon[:3]} {day.day}, {day.year}", f"{mon} {day.day} {day.year}", day.isoformat()))
    off = rng.choice((-300, -240, -180, 0, 60, 60, 120, 180, 240, 330, 480, 480, 540, 600))
    sign, (oh, om) = ("+" if off >= 0 else "-"), divmod(abs(off), 60)
    tz_forms = [f"UTC{sign}{oh:02d}:{om:02d}", f"UTC{sign}{oh}:{om:02d}"]
    if om == 0:
        tz_forms += [f"UTC{sign}{oh}", f"UTC{sign}{oh}", f"GMT{sign}{oh}", f"UTC {sign}{oh}"]
    tz_t = rng.choice(tz_forms)
    a = rng.randint(20, 84) * 15
    b = a + rng.choice((60, 90, 120, 180, 240, 360, 390, 480, 600))
    cs = rng.randrange(3)
    s_t, e_t = _clock(a, cs), _clock(b % 1440, cs)
    midnight = datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
    start = midnight + timedelta(minutes=a - off)
    end = midnight + timedelta(minutes=b - off)
    head = rng.random() < 0.7
    if head:
        d.add(rng.choice(("Ops note ", "Dispatch ", "Briefing ", "Crew notice - ", "Daily ops "))).field(date_t, 0, "date")
        d.add(rng.choice(("\n", ": ", " - ", "\n\n")))
    d.add(rng.choice(("Drones grounded ", "No UAV flights ", "No drone ops ", "Airspace closed to drones ")))
    d.field(s_t, 0, "start").add(rng.choice(("-", " - ", " to "))).field(e_t, 0, "end")
    how = rng.randrange(4)
    if how == 0:
        d.add(" local, ").field(tz_t, 0, "tz")
    elif how == 1:
        d.add(rng.choice((" local (", " LT (", " local time ("))).field(tz_t, 0, "tz").add(")")
    elif how == 2:
        d.add(" ").field(tz_t, 0, "tz")
    else:
        d.add(rng.choice((" LT, ", " local, "))).field(tz_t, 0, "tz")
    if not head:
        d.add(" on ").field(date_t, 0, "date")
    c_t, c_g = V.fmt_coord(rng, lat, lon, style)
    r_t, r_m = _en_radius(rng)
    d.add(rng.choice((", within ", ": no flying within ", " - keep out of "))).field(r_t, 0, "radius")
    d.add(rng.choice((" of ", " around "))).field(c_t, 0, "center")
    return circle(c_g, r_m), start, end


def generate(rng: random.Random, template: str) -> Example:
    d = Doc()
    if template.startswith("zh"):
        city, clat, clon, venues = rng.choice(CITIES)
        start = V.sample_start(rng, 60)
        s_t, joiner, e_t, s_utc, e_utc, _ = V.cn_time_pair(rng, start, rng.choice((2, 4, 6, 10)))
        up = V.fmt_limit(rng, "cn_agl", rng.choice((50, 100, 120, 150))) if rng.random() < 0.7 else None
        if template == "zh_dispatch":
            plat, plon = V.near(rng, clat, clon, 25)
            c_t, c_g = V.fmt_coord(rng, plat, plon, rng.choice(("cn_decimal", "cn", "cn_dms", "decimal_hemi", "decimal_signed")))
            r_t, r_m = V.fmt_distance(rng, V.sample_radius_nm(rng, 0.2, 5), rng.choice(("cn_km", "cn_m", "km")))
            d.add(rng.choice(("调度通知：", "注意：", "各飞手注意，", "【紧急】", "")))
            d.field(c_t, 0, "center").add(rng.choice(("半径", "周围", " 半径 "))).field(r_t, 0, "radius")
            d.add("内")
            d.field(s_t, 0, "start").add(joiner).field(e_t, 0, "end")
            d.add(rng.choice(("禁止无人机飞行", "禁飞", "暂停一切飞行任务")))
            if up:
                d.add("，").field(up[0], 0, "upper").add("以下")
            d.add(rng.choice(("。", "，请各组注意避让。", "。收到请回复。")))
            geo = circle(c_g, r_m)
        else:
            venue = rng.choice(venues)
            d.add(rng.choice(("通知：", "提醒：", ""))).field(venue, 0, "name").add(rng.choice(("附近", "周边", "一带")))
            d.field(s_t, 0, "start").add(joiner).field(e_t, 0, "end").add("禁飞")
            if up:
                d.add("（").field(up[0], 0, "upper").add("以下）")
            d.add(rng.choice(("，航线请绕行。", "。", "，今天的配送任务改走备用航线。")))
            geo = named(venue)
        return Example(d, [zone(geo, None, up[1] if up else None, V.iso(s_utc), V.iso(e_utc))], "zh")

    fir, ad, alat, alon, _, places = V.pick_aerodrome(rng)
    plat, plon = V.near(rng, alat, alon, 40)
    style = rng.choice(EN_STYLES)
    s_t, e_t, sch, start, end = _en_times(rng)
    up_t, up_g = _en_limit(rng)
    lower = None
    if template == "en_within":
        c_t, c_g = V.fmt_coord(rng, plat, plon, style)
        r_t, r_m = _en_radius(rng)
        d.add(rng.choice(("UAV ops prohibited within ", "Drone flights not allowed within ", "No UAS within ",
                          "NO DRONES within ")))
        d.field(r_t, 0, "radius").add(" of ").field(c_t, 0, "center")
        geo = circle(c_g, r_m)
    elif template == "en_dispatch":
        c_t, c_g = V.fmt_coord(rng, plat, plon, style)
        r_t, r_m = _en_radius(rng)
        d.add(rng.choice(("Dispatch: ", "Ops note - ", "FYI all pilots: ", "Heads up team, ")))
        d.add(rng.choice(("no-fly zone ", "temporary restriction ", "airspace closed ")))
        d.field(r_t, 0, "radius").add(rng.choice((" around ", " radius around ", " radius centred on "))).field(c_t, 0, "center")
        d.add(rng.choice((f" ({rng.choice(PLACES_EN)})", "", "")))
        geo = circle(c_g, r_m)
        if rng.random() < 0.5:
            lower = V.limit_sfc(rng, rng.choice(("SFC", "GND")))
    elif template == "en_polygon":
        pts = _poly_points(rng, plat, plon, rng.uniform(0.5, 5), rng.randint(3, 5))
        st = rng.choice(("decimal_hemi", "decimal_signed", "dms", "dm"))
        d.add(rng.choice(("Avoid the area bounded by ", "Keep out of polygon ", "Closed area: ")))
        gp = []
        sep = rng.choice((", ", " / ", "; ", " - "))
        if st == "decimal_signed":
            sep = rng.choice((" / ", "; "))
        for i, p in enumerate(pts):
            t, g = V.fmt_coord(rng, p[0], p[1], st)
            if i:
                d.add(sep, (0, "polygon"))
            d.add(t, (0, "polygon"))
            gp.append(g)
        geo = polygon(gp)
        if rng.random() < 0.5:
            lower = V.limit_sfc(rng, "SFC")
    elif template == "en_local":
        geo, start, end = _local_note(rng, d, plat, plon, style)
        s_t = e_t = sch = None  # the times are written; the tail below adds only the limit
    elif template == "en_named":
        # a landmark named without coordinates: the answer names it (the record goes to review, never a guess)
        place = rng.choice(LANDMARKS)
        r_t, r_m = _en_radius(rng)
        d.add(rng.choice(("No drones within ", "UAS prohibited within ", "TFR: no flying within ")))
        d.field(r_t, 0, "radius").add(rng.choice((" of ", " around "))).field(place, 0, "name")
        d.add(rng.choice((" during the event", " (match day)", "", " - police request")))
        geo = named(place, r_m)
    elif template == "en_chat":
        c_t, c_g = V.fmt_coord(rng, plat, plon, style)
        r_t, r_m = _en_radius(rng)
        d.add(rng.choice(("hey all ", "Team - ", "🚁 ", "⚠️ ", "pls note: ", "FYI ")))
        d.add(rng.choice(("no flying near ", "stay clear of ", "do not launch within ")))
        if rng.random() < 0.5:
            d.add(f"{rng.choice(PLACES_EN)} today, ")
        d.field(r_t, 0, "radius").add(rng.choice((" around ", " of ", " from "))).field(c_t, 0, "center")
        geo = circle(c_g, r_m)
    elif template == "en_summary":
        c_t, c_g = V.fmt_coord(rng, plat, plon, style)
        r_t, r_m = _en_radius(rng)
        lower = V.limit_sfc(rng, rng.choice(("SFC", "GND")))
        d.add(rng.choice(("ZONE", "AREA", "Restriction"))).add(rng.choice((": circle ", ": ", " - radius ")))
        d.field(r_t, 0, "radius").add(rng.choice((" @ ", " around ", " centre "))).field(c_t, 0, "center").add("\n")
        geo = circle(c_g, r_m)
        d.add(rng.choice(("LIMITS: ", "ALT: ", "Heights: "))).field(lower[0], 0, "lower").add(" - ").field(up_t, 0, "upper")
        if s_t:
            d.add(rng.choice(("\nVALID: ", "\nTIME: ", "\nWhen: "))).field(s_t, 0, "start").add(" - ").field(e_t, 0, "end")
        elif sch:
            d.add("\nTIME: ").field(sch, 0, "schedule")
        d.add(rng.choice(("", "\nSource: ATC phone call", f"\nRef {rng.randint(100, 999)}")))
        return Example(d, [zone(geo, lower[1], up_g, V.iso(start), V.iso(end), sch)], "en")
    else:  # en_police (held out): end only, named landmark beside a coordinate
        c_t, c_g = V.fmt_coord(rng, plat, plon, style)
        r_t, r_m = _en_radius(rng)
        d.add(f"Police request near {rng.choice(PLACES_EN)}: keep all drones out of ").field(r_t, 0, "radius")
        d.add(" radius around ").field(c_t, 0, "center")
        geo = circle(c_g, r_m)
        if e_t is None:
            end = start if start else V.sample_start(rng, 15)
            e_t = V.fmt_icao_time(end)
        d.add(" until ").field(e_t, 0, "end")
        s_t, start = None, None
    if lower:
        d.add(rng.choice((", ", " ", " from "))).field(lower[0], 0, "lower").add(rng.choice((" to ", " - ", " up to ")))
        d.field(up_t, 0, "upper")
    else:
        d.add(rng.choice((" up to ", ", max ", " below ", " up to "))).field(up_t, 0, "upper")
    if s_t:
        a, b = rng.choice(((" from ", " to "), (" from ", " until "), (" between ", " and "), (" ", " - ")))
        d.add(a).field(s_t, 0, "start").add(b)
        d.field(e_t, 0, "end")
    elif sch:
        d.add(" ").field(sch, 0, "schedule")
    d.add(rng.choice((".", "", ". Thanks", ". Confirm receipt.", f". Call {rng.randint(100, 999)} {rng.randint(1000, 9999)} if unsure.")))
    return Example(d, [zone(geo, lower[1] if lower else None, up_g, V.iso(start), V.iso(end), sch)], "en")
