"""ICAO NOTAMs (NOTAMN/R/C): header, Q-line, items A–G, item-E geometry in many phrasings.

Layouts vary (one item per line, A–C on one line, everything collapsed into double spaces, parentheses, footers);
the geometry phrasings are the *templates* (the unit of the family-held-out split).
"""

from __future__ import annotations

import random
import re
from datetime import timedelta

from . import values as V
from .base import Doc, Example, circle, named, polygon, zone
from .icao_fir import fir_notice

# template -> kind. Held-out templates are listed in airspace.data.gen.HELD_OUT.
TEMPLATES = {
    "psn_radius": "circle",
    "wi_radius": "circle",
    "centered_on": "circle",
    "circle_around": "circle",
    "bounded_dash": "polygon",
    "points_lines": "polygon",
    "points_comma": "polygon",
    "points_to": "polygon",
    "arc_boundary": "arc",
    "qline_only": "qline",
    "ad_radius": "ad",
    "multi_psn": "multi",
    "multi_psn_inline": "multi",
    "multi_area": "multi",
    "multi_ring": "multi",  # boundaries one after another, each under a heading (a day, a number)
    "notamc": "none",
    "aerodrome_none": "none",
    "fir_closure": "fir",  # icao_fir: a closure of the FIRs of item A, one zone each
    "fir_info": "none",  # icao_fir: a FIR-wide notice that defines no volume
    "fir_advisory": "fir",  # icao_fir: a state's operators told to keep out of FIRs item E) names
}

# (intro phrasings, Q-code, band profile, radius NM range, time profile)
ACTIVITIES = [
    (("PJE WILL TAKE PLACE OVER {place}", "PARACHUTE JUMPING EXER OVER {place}", "PJE"), "QWPLW", "mid", (0.5, 3), "short"),
    (("FIREWORKS DISPLAY", "FIREWORKS AT {place}", "PYROTECHNIC DISPLAY"), "QWMLW", "drone", (0.2, 1.0), "short"),
    (("LASER SHOW", "LASER ACTIVITY", "LASER LIGHT SHOW AT {place}"), "QWELW", "low", (0.3, 2), "long"),
    (("UAS OPS", "UNMANNED ACFT OPS", "RPAS FLYING", "DRONE OPS AT {place}", "UA FLIGHTS IN PROGRESS"),
     "QWULW", "drone", (0.1, 3), "days"),
    (("AEROBATIC DISPLAY", "AIR DISPLAY AT {place}", "FLYING DISPLAY"), "QWALW", "low", (1, 6), "short"),
    (("TEMPO RESTRICTED AREA ESTABLISHED", "TEMPORARY RESTRICTED AREA ACT", "RESTRICTED AREA ACTIVATED"),
     "QRTCA", "mid", (2, 40), "days"),
    (("TEMPO DANGER AREA ACT", "TEMPORARY DANGER AREA DECLARED", "DANGER AREA ACTIVATED"), "QRDCA", "mid",
     (2, 60), "days"),
    (("MIL EXER", "MILITARY FLYING EXER", "AIR COMBAT TRAINING", "LIVE FIRING"), "QRDCA", "mid", (5, 60), "days"),
    (("GUNFIRING", "ARTILLERY FIRING", "SMALL ARMS FIRING RANGE ACT"), "QWMLW", "low", (0.5, 8), "long"),
    (("BLASTING OPS", "EXPLOSIVE DEMOLITION AT {place}"), "QWBLW", "drone", (0.2, 1.5), "short"),
    (("AEROSPACE FLIGHT ACTIVITIES", "ROCKET LAUNCH HAZARD AREA", "SPACE DEBRIS RE-ENTRY",
      "HAZARDOUS OPS FOR SPLASHDOWN"), "QRDCA", "space", (20, 250), "short"),
    (("CAPTIVE BALLOON OPS", "TETHERED BALLOON FLYING"), "QWCLW", "drone", (0.2, 1.0), "long"),
    (("MODEL ACFT FLYING", "MODEL ROCKET LAUNCHES"), "QWMLW", "drone", (0.2, 1.0), "days"),
    (("VIP FLT RESTRICTION", "AIRSPACE RESTRICTION DUE TO STATE VISIT"), "QRRCA", "low", (2, 30), "short"),
    (("SAR OPS", "POLICE HEL OPS IN PROGRESS"), "QWHLW", "low", (0.5, 5), "short"),
    (("AERIAL FILMING BY UAS", "PHOTOGRAPHIC FLT BY RPAS"), "QWULW", "drone", (0.1, 1.5), "short"),
]

CIRCLE_STYLES = ("dms", "dms", "dms_space", "dms_space", "hemi_first", "hemi_first_space", "dm", "dms_dec",
                 "spaced", "dms_symbols", "hemi_first_dm", "dm_dec", "dms_slash")
POLY_STYLES = ("dms", "dms", "hemi_first", "dm", "dm", "dm_space", "dms_space", "spaced_dm", "dms_dec", "dms_slash")
DIRS = ("N", "NNE", "NE", "ENE", "E", "ESE", "SE", "SSE", "S", "SSW", "SW", "WSW", "W", "WNW", "NW", "NNW")
SOURCES = ("EUECYIYN", "LSSNYNYX", "UUUUYNYX", "YBBBZEZX", "NTAAYNYX", "SBRJYNYX", "KDZZNAXX", "EGGNYNYX",
           "RJAAYNYX", "ZBBBYNYX", "FAAAYNYX")


def _id(rng: random.Random, year: int) -> str:
    return f"{rng.choice('ABCDEFGHJKLMNSVWXY')}{rng.randint(1, 9999):04d}/{year % 100:02d}"


def _radius_text(rng: random.Random, nm: float) -> tuple[str, float]:
    unit = rng.choices(("nm", "km", "m", "ft"), weights=(70, 18, 8, 4))[0]
    if nm > 5 and unit in ("m", "ft"):
        unit = "nm"
    return V.fmt_distance(rng, nm, unit)


def _distractor(rng: random.Random, ad: str, lat: float, lon: float) -> Doc:
    d = Doc()
    k = rng.random()
    if k < 0.3:
        d.add(f" ({rng.randint(1, 250) / 10:.1f}NM {rng.choice(DIRS)} {ad[1:] if ad[0] == 'K' else ad})")
    elif k < 0.5:
        olat, olon = V.near(rng, lat, lon, 15)
        t, _ = V.fmt_coord(rng, olat, olon, rng.choice(("dms", "dm")))
        d.add(f" AD ARP {t}.")
    elif k < 0.7:
        d.add(f" FOR INFO {rng.randint(1000, 9999):05d} {rng.randint(100000, 999999)}.")
    elif k < 0.8:
        d.add(f" CTC +{rng.randint(1, 99)} {rng.randint(10, 99)} {rng.randint(100, 999)} {rng.randint(1000, 9999)}.")
    elif k < 0.86:
        d.add(f" {rng.randint(2023, 2027)}-{rng.randint(1, 12):02d}-{rng.randint(1, 999):04d}/AU{rng.randint(1, 9)}.")
    elif k < 0.94:
        code = "".join(rng.choice("ABCDEFGHKLMNOPRSTUVWXYZ") for _ in range(3))
        d.add(f" ({rng.randint(2, 40)}NM {rng.choice(DIRS)} OF {rng.choice(('', 'THE ', 'VOR/DME '))}&apos;{code}&apos;).")
    return d


def _wpt(rng: random.Random) -> str:
    return "".join(rng.choice("ABDEGIKLMNOPRSTUVXZ") for _ in range(5))


def _route_remarks(rng: random.Random) -> str:
    """ATS route segments closed during the activity: dash-joined names after the boundary (a polygon distractor)."""
    lines = [rng.choice(("\nDURING THE ACTIVITY THE FLW ATS ROUTE SEGMENTS ARE CLSD:",
                         "\nATS RTE SEGMENTS NOT AVBL DRG ACTIVITY:", "\nAFFECTED ROUTES:"))]
    for _ in range(rng.randint(1, 4)):
        rte = f"{rng.choice(('A', 'B', 'G', 'L', 'M', 'N', 'R', 'W', 'Y'))}{rng.randint(1, 999)}"
        lines.append(f"- {rte}: {' - '.join(_wpt(rng) for _ in range(rng.randint(2, 4)))}")
    lines.append(rng.choice(("RMK: ACFT SHALL KEEP CLEAR OF THE AREA OR OBTAIN ATC CLEARANCE.",
                             "ALL ACFT TO AVOID THE AREA.", "")))
    return "\n".join(x for x in lines if x)


def _intro(rng: random.Random, act, place: str) -> str:
    return rng.choice(act[0]).format(place=place)


def _poly_points(rng: random.Random, lat: float, lon: float, size_km: float, n: int) -> list[tuple[float, float]]:
    import math

    pts = []
    a0 = rng.random() * 2 * math.pi
    sign = rng.choice((1, -1))
    for i in range(n):
        a = a0 + sign * (2 * math.pi * i / n + rng.uniform(-0.3, 0.3) / n)
        r = size_km * rng.uniform(0.6, 1.0)
        dlat = r * math.cos(a) / 111.0
        dlon = r * math.sin(a) / (111.0 * max(0.2, math.cos(math.radians(lat))))
        pts.append((V.clamp_lat(lat + dlat), V.wrap_lon(lon + dlon)))
    return pts


def polygon_doc(rng: random.Random, pts, z: int, style: str, phr: str) -> tuple[Doc, list[tuple[float, float]]]:
    """Write a point list tagged as zone ``z``'s polygon. ``phr``: dash, lines, comma, to, blank (points parted by
    white space only)."""
    doc = Doc()
    for _ in range(12):
        texts, gold = [], []
        for p in pts:
            t, g = V.fmt_coord(rng, p[0], p[1], style)
            texts.append(t)
            gold.append(g)
        if len(set(gold)) == len(gold):
            break
        # vertices too close for the printed precision: spread them away from their centroid
        clat = sum(p[0] for p in pts) / len(pts)
        clon = sum(p[1] for p in pts) / len(pts)
        pts = [(V.clamp_lat(clat + 2 * (p[0] - clat)), V.wrap_lon(clon + 2 * (p[1] - clon))) for p in pts]
    closed = rng.random() < 0.5
    if phr == "dash":
        sep = rng.choice(("-", " - ", " -", "- "))
        per_line = rng.choice((2, 3, 4, 99))
        closer = rng.choice((" BACK TO START", " BACK TO START.", "", " TO START"))
        if not closer.strip():
            closed = True
    elif phr == "lines":
        sep = rng.choice(("\n", "\n", " \n"))
        per_line = 99
        closer = ""
    elif phr == "comma":
        sep = rng.choice((", ", ",", " , "))
        per_line = rng.choice((3, 4, 99))
        closer = ""
        closed = rng.random() < 0.7
    elif phr == "blank":
        sep = rng.choice(("  ", " ", "   "))
        per_line = rng.choice((3, 4, 99))
        closer = ""
        closed = rng.random() < 0.8
    else:  # to
        sep = " TO "
        per_line = rng.choice((3, 99))
        closer = rng.choice((" TO BEGINNING", " TO POINT OF ORIGIN", " TO START", ""))
        if not closer:
            closed = True
    seq = texts + ([texts[0]] if closed else [])
    for i, t in enumerate(seq):
        if i:
            s = sep
            if per_line != 99 and i % per_line == 0 and phr != "lines":
                s = sep.rstrip() + rng.choice(("\n", " \n"))
            doc.add(s, (z, "polygon"))
        doc.add(t, (z, "polygon"))
    if closer:
        doc.add(closer.rstrip("."), (z, "polygon"))
        if closer.endswith("."):
            doc.add(".")
    return doc, gold


def arc_doc(rng: random.Random, clat: float, clon: float, r_nm: float, z: int, style: str):
    """A boundary with one arc: ``P0 - A <arc phrase> C <to> B - P3 [closing]``, tagged as zone ``z``'s polygon.

    Returns the doc and the gold open ring with the arc densified by the documented convention."""
    r_t, r_m = _radius_text(rng, r_nm) if rng.random() < 0.3 else V.fmt_distance(rng, r_nm, "nm")
    phr = rng.choice(("cw_then", "cw_then", "acw_then", "arc_radius_of", "cw_arc_radius"))
    sign = {"cw_then": 1, "acw_then": -1, "arc_radius_of": None, "cw_arc_radius": 1}[phr]
    az1 = rng.uniform(0, 360)
    sweep = rng.uniform(40, 150) if sign is not None else rng.uniform(30, 120)
    if sign == -1 or (sign is None and rng.random() < 0.5):
        sweep = -sweep
    r_true = r_m
    a = V.fwd(clat, clon, az1, r_true)
    b = V.fwd(clat, clon, az1 + sweep, r_true)
    p0 = V.fwd(clat, clon, az1 - 25 * (1 if sweep > 0 else -1), 1.8 * r_true)
    p3 = V.fwd(clat, clon, az1 + sweep + 25 * (1 if sweep > 0 else -1), 1.8 * r_true)
    texts, golds = {}, {}
    for key, pt in (("p0", p0), ("a", a), ("c", (clat, clon)), ("b", b), ("p3", p3)):
        texts[key], golds[key] = V.fmt_coord(rng, pt[0], pt[1], style)
    d = Doc()
    T = (z, "polygon")
    sep = rng.choice((" - ", "-", " TO "))
    d.add(texts["p0"], T).add(sep, T).add(texts["a"], T)
    if phr == "cw_then":
        d.add(f" THEN CLOCKWISE ON A {r_t} ARC CENTERED ON ", T)
        d.add(texts["c"], T).add(" TO ", T)
    elif phr == "acw_then":
        d.add(f" THEN {rng.choice(('ANTI-CLOCKWISE', 'ANTICLOCKWISE', 'COUNTERCLOCKWISE'))} ON A {r_t} ARC CENTRED ON ", T)
        d.add(texts["c"], T).add(" TO ", T)
    elif phr == "arc_radius_of":
        d.add(f"{rng.choice(('  ', ' - ', ' THEN '))}ARC RADIUS OF {r_t} CENTRED ON{rng.choice(('  ', ' '))}", T)
        d.add(texts["c"], T).add(rng.choice(("  ", " - ", " TO ")), T)
    else:
        d.add(f" - CLOCKWISE ARC RADIUS {r_t} CENTRE ", T).add(texts["c"], T).add(" - ", T)
    d.add(texts["b"], T).add(sep, T).add(texts["p3"], T)
    closer = rng.choice((" BACK TO START", " TO POINT OF ORIGIN", "", "repeat"))
    if closer == "repeat":
        d.add(sep, T).add(texts["p0"], T)
    elif closer:
        d.add(closer, T)
    ring = [golds["p0"], golds["a"]] + V.arc_vertices(golds["c"], golds["a"], golds["b"], r_m, sign) + [
        golds["b"], golds["p3"]]
    return d, ring


def _restate(upper: str) -> str:
    """The same upper limit written another way (item E often words it differently from item G)."""
    m = re.match(r"^(\d[\d, ]*)\s*(FT|ft|M|m)\s*(AMSL|MSL|AGL)$", upper)
    if not m:
        return upper
    n = int(re.sub(r"[ ,]", "", m.group(1)))
    num = f"{n:,}" if "," not in m.group(1) else str(n)
    return f"{num}{m.group(2).upper()}{' AGL' if m.group(3) == 'AGL' else ''}"


def _limits_in_e(rng: random.Random, lower: str, upper: str) -> str:
    if rng.random() < 0.3 and upper != "UNL":
        alt = _restate(upper)
        return rng.choice((f"ALL ACFT SHALL AVOID THE AREA AT {alt} AND BELOW",
                           f"ACFT SHALL NOT FLY INTO THE AREA BLW {alt}", f"HGT UP TO {alt}"))
    return rng.choice((
        f"VERTICAL LIMITS: {lower}-{upper}", f"VERTICAL LIMITS: {lower} TO {upper}",
        f"VERTICAL LIMITS:{lower}-{upper}", f"LIMITS {lower}/{upper}", f"{lower} - {upper}",
        f"VERTICAL ALTITUDE: {lower}-{upper}"))


def generate(rng: random.Random, template: str) -> Example:
    if template in ("fir_closure", "fir_info", "fir_advisory"):
        # whole-FIR notices share nothing of the item-E geometry below; they stay templates of this family so that
        # the ICAO noise (``noise.apply`` by family) and this family's share of the corpus apply to them
        return fir_notice(rng, template)
    fir, ad, alat, alon, _, places = V.pick_aerodrome(rng)
    kind = TEMPLATES[template]
    act = rng.choice(ACTIVITIES)
    if kind == "polygon" and rng.random() < 0.3:
        act = ACTIVITIES[10]  # aerospace areas: big polygons
    place = rng.choice(places)
    start = V.sample_start(rng, rng.choice((1, 5, 15, 30, 60)))
    dur = V.sample_duration(rng, act[4])
    end = start + dur
    year = start.year
    nid = _id(rng, year)
    if ad.startswith(("K", "P")) and rng.random() < 0.4:
        nid = f"{start.month:02d}/{rng.randint(1, 999):03d}"  # US domestic-style ICAO id ("10/102 NOTAMN")
    ntype = "C" if template == "notamc" else rng.choices(("N", "R"), weights=(85, 15))[0]
    header = f"{nid} NOTAM{ntype}"
    if ntype in ("R", "C"):
        header += f" {nid[0] if nid[0].isalpha() else 'A'}{rng.randint(1, 9999):04d}/{year % 100:02d}"

    lo_nm, hi_nm = act[3]
    r_nm = V.sample_radius_nm(rng, lo_nm, hi_nm)
    space = act[2] == "space"
    if space:
        clat, clon = V.world_point(rng)
    else:
        clat, clon = V.near(rng, alat, alon, 40)
    (lower_t, lower_g), (upper_t, upper_g), qlo, qhi = V.sample_band(rng, act[2])

    gold: list[dict] = []
    e = Doc()
    f_lower, g_upper = lower_t, upper_t
    zone_fg = [0]  # zones whose limits are the F/G items
    q_radius = r_nm
    qlat, qlon = clat, clon
    intro = _intro(rng, act, place)
    qcode = act[1]

    if kind == "circle":
        style = rng.choice(CIRCLE_STYLES)
        c_t, c_g = V.fmt_coord(rng, clat, clon, style)
        r_t, r_m = _radius_text(rng, r_nm)
        e.add(intro)
        if template == "psn_radius":
            v = rng.random()
            if v < 0.3:
                e.add(rng.choice(("\nPSN:", "\nPSN: ", "\nPSN "))).field(c_t, 0, "center")
                e.add(rng.choice((" RADIUS - ", " RADIUS ", " RADIUS: ", " RADIUS-"))).field(r_t, 0, "radius")
            elif v < 0.55:
                # the circle in a sentence, centre first (English notices of the Chinese and East Asian FIRs):
                # WITHIN A CIRCLE CENTERED AT <c> WITH RADIUS OF <r>
                e.add(rng.choice((" WITHIN A CIRCLE ", ", THE AREA WITHIN A CIRCLE  ", " IN A CIRCLE ")))
                e.add(rng.choice(("CENTERED AT  ", "CENTERED AT ", "CENTRED AT ", "WITH CENTRE ", "WITH CENTER AT ")))
                e.field(c_t, 0, "center")
                e.add(rng.choice((" WITH RADIUS OF ", "  WITH RADIUS OF ", " AND RADIUS OF ", ", RADIUS ",
                                  " WITH A RADIUS OF ")))
                e.field(r_t, 0, "radius").add(rng.choice((".", ". ", ".\n")))
            else:
                e.add(rng.choice((" PSN ", " AT PSN ", ". PSN: "))).field(c_t, 0, "center")
                e.add(rng.choice((", RADIUS ", " RADIUS ", " RAD "))).field(r_t, 0, "radius").add(".")
        elif template == "wi_radius":
            e.add(" WI ").field(r_t, 0, "radius").add(rng.choice((" RADIUS: ", " RADIUS ", " RADIUS OF ")))
            e.field(c_t, 0, "center")
            e.add(rng.choice((f" ({place}).", f" ({place}, {V.pick_aerodrome(rng)[1]}).", ".", "")))
        elif template == "centered_on":
            pre = rng.choice((" ", " WI ", ". AREA WI "))
            e.add(pre).field(r_t, 0, "radius")
            if r_t.upper().endswith("KM") and rng.random() < 0.4:
                e.add(f" ({r_m / V.NM_M:.1f}NM)")  # a conversion remark: the radius stated first is the answer
            e.add(rng.choice((" RADIUS CENTERED ON ", " RADIUS CENTRED ON ", " RADIUS CENTRE ", " RADIUS CENTER ")))
            e.field(c_t, 0, "center").add(rng.choice((f"  {place} .", f" {place}.", ".", "")))
        else:  # circle_around (held out)
            v = rng.random()
            if v < 0.5:
                e.add(" WI A CIRCLE OF ").field(r_t, 0, "radius").add(" RADIUS AROUND ").field(c_t, 0, "center")
                e.add(".")
            else:
                e.add(". CIRCLE CENTRE ").field(c_t, 0, "center").add(" AND RADIUS ").field(r_t, 0, "radius")
        e.add(_distractor(rng, ad, clat, clon).text())
        gold.append(circle(c_g, r_m))
    elif kind == "polygon":
        n = rng.randint(4, 12) if space else rng.randint(3, 8)
        size_km = r_nm * 1.852
        pts = _poly_points(rng, clat, clon, size_km, n)
        style = rng.choice(POLY_STYLES)
        phr = {"bounded_dash": "dash", "points_lines": "lines", "points_comma": "comma", "points_to": "to"}[template]
        pdoc, pg = polygon_doc(rng, pts, 0, style, phr)
        if phr == "dash":
            e.add(intro).add(rng.choice((" BOUNDED BY: ", " BOUNDED\nBY:", " AREA BOUNDED BY ", " WI AREA: ",
                                         " WI AREA BOUNDED BY LINES JOINING ")))
        elif phr == "lines":
            e.add(intro).add(rng.choice((". AFFECTED AREA:\n", " IN THE FLW AREA:\n", ", AREA DEFINED BY:\n",
                                         " WI THE AREA:\n")))
        elif phr == "comma":
            e.add(intro).add(rng.choice((" WI AN AREA BOUNDED BY FLW POINTS: ", " WI AREA ", ". COORDINATES: ")))
        else:
            e.add(intro).add(rng.choice((" WI AREA ", " IN AREA DEFINED AS ", ": ")))
        e.parts.extend(pdoc.parts)
        if rng.random() < 0.15:
            e.add(rng.choice(("\nAREA FORMED BY CONNECTING THE POINTS ABOVE", "\n(STRAIGHT LINES BETWEEN POINTS)",
                              " IN SEQUENCE")))
        if rng.random() < 0.4:
            e.add(rng.choice(("\n", " ", ".\n"))).add(_limits_in_e(rng, lower_t, upper_t)).add(".")
        if space and rng.random() < 0.5:
            e.add(_route_remarks(rng))
        gold.append(polygon(pg))
        qlat, qlon = clat, clon
    elif kind == "arc":
        e.add(intro).add(rng.choice((" WI AREA ", " BOUNDED BY ", ". LATERAL LIMITS: ", " WI THE AREA:\n")))
        pdoc, pg = arc_doc(rng, clat, clon, V.sample_radius_nm(rng, 2, 40), 0, rng.choice(("dms", "dm", "dms_space", "hemi_first", "dms_dec")))
        e.parts.extend(pdoc.parts)
        if rng.random() < 0.4:
            e.add(rng.choice(("\n", ". "))).add(_limits_in_e(rng, lower_t, upper_t)).add(".")
        gold.append(polygon(pg))
    elif kind == "ad":
        # the zone is only "N NM around the aerodrome": the answer names the indicator (resolved downstream,
        # approximately, from the aerodrome database; never a point invented here)
        r_nm = V.sample_radius_nm(rng, 1, 10)
        r_t, r_m = _radius_text(rng, r_nm)
        e.add(intro).add(rng.choice((" WI ", " WITHIN ")))
        e.field(r_t, 0, "radius").add(rng.choice((" RADIUS OF ", " RADIUS ", " OF "))).field(ad, 0, "name")
        e.add(rng.choice((" ARP.", " AD.", ".", " AERODROME REFERENCE POINT.")))
        gold.append(named(ad, r_m))
    elif kind == "qline":
        q_radius = V.sample_radius_nm(rng, 3, 60)
        area = rng.choice((f"{fir[:2]}D{rng.randint(10, 999)}", f"{fir[:2]}R{rng.randint(10, 999)}",
                           f"SBR {rng.randint(100, 399)}", f"TRA {rng.randint(1, 40)}{rng.choice('ABC ').strip()}",
                           f"{place} MOA"))
        e.add(rng.choice((f"DANGER AREA ACT: {area}.", f"{area} ({place}) ACT", f"{area} ACTIVATED",
                          f"RESTRICTED AREA {area} ACTIVE")))
        qcode = rng.choice(("QRDCA", "QRRCA", "QRTCA"))
        if rng.random() < 0.3:
            (lower_t, lower_g), (upper_t, upper_g), qlo, qhi = V.sample_band(rng, "agl_low")
            f_lower, g_upper = lower_t, upper_t
    elif kind == "multi":
        nz = rng.randint(2, 8) if template == "multi_psn" else rng.randint(2, 5)
        style = rng.choice(CIRCLE_STYLES)
        if template == "multi_psn_inline":
            # several centres listed inline, one radius and one pair of limits for all of them
            r_nm = V.sample_radius_nm(rng, 0.15, 2)
            r_t, r_m = _radius_text(rng, r_nm)
            st = rng.choice(("hemi_first", "dms", "hemi_first_space", "dm"))
            lw_t, lw_g = V.limit_sfc(rng)
            up_t, up_g = V.fmt_limit(rng, "ft_amsl", rng.choice((1200, 1500, 1700, 2000, 3000)),
                                     thousands=rng.choice(("comma", "none")))
            nz = rng.randint(2, 6)
            zs = list(range(nz))
            e.add(intro).add(rng.choice((". AIRSPACE WI ", ". AREAS WI ", " WI ")))
            e.field(r_t, zs, "radius").add(rng.choice((" RADIUS OF PSNS ", " RADIUS AROUND PSNS ", " OF EACH OF ")))
            for i in range(nz):
                plat, plon = V.near(rng, clat, clon, 15)
                c_t, c_g = V.fmt_coord(rng, plat, plon, st)
                if i:
                    e.add(rng.choice((" ", " ", "\n", ", ")))
                e.field(c_t, i, "center")
                gold.append(circle(c_g, r_m) | {"_lower": lw_g, "_upper": up_g})
            e.add(rng.choice((" CLOSED FROM ", " CLSD FM ", " ACT FM "))).field(lw_t, zs, "lower")
            e.add(rng.choice((" UP TO ", " TO "))).field(up_t, zs, "upper").add(".")
            f_lower, g_upper = lw_t, up_t
            zone_fg = []
        elif template == "multi_psn":
            r_nm = V.sample_radius_nm(rng, 0.2, 2)
            r_t, r_m = _radius_text(rng, r_nm)
            lw_t, lw_g = V.limit_sfc(rng)
            e.add(intro).add(rng.choice(("\n", ". ", ": "))).add(rng.choice((
                "AIRSPACE WI ", "AREAS WI ", "ACFT SHALL AVOID AIRSPACE WI ")))
            e.field(r_t, list(range(nz)), "radius")
            e.add(rng.choice((" RADIUS OF EACH PSN BELOW, FROM ", " RADIUS OF THE PSNS LISTED, FM ",
                              " RADIUS AROUND FLW PSNS FM ")))
            e.field(lw_t, list(range(nz)), "lower").add(":")
            f_lower = lw_t
            ups = []
            for i in range(nz):
                plat, plon = V.near(rng, clat, clon, 30)
                c_t, c_g = V.fmt_coord(rng, plat, plon, style)
                ft = rng.choice((1000, 1200, 1500, 1600, 1800, 2000, 2500, 3000))
                u_t, u_g = V.fmt_limit(rng, "ft_amsl", ft, thousands=rng.choice(("comma", "none")))
                ups.append((ft, u_t))
                e.add(rng.choice(("\n", "\n", "  "))).add(rng.choice(("PSN ", f"{i + 1}. ", f"{i + 1}) PSN ")))
                e.field(c_t, i, "center").add(rng.choice((" UP TO ", " TO ", " UPTO "))).field(u_t, i, "upper")
                e.add(rng.choice((".", "", ";")))
                gold.append(circle(c_g, r_m) | {"_lower": lw_g, "_upper": u_g})
            g_upper = max(ups)[1]
            zone_fg = []
        elif template == "multi_ring":
            # several boundaries listed one after another under one pair of limits (F/G), each headed by its day
            # (a space-debris or launch notice: "APR 21 <points> APR 22 <points>"), a number, a letter or a part; the
            # heading is never part of a boundary. Never rings parted by white space alone: the span repair reads a
            # point list as going on to the next point (``parser.fieldcheck``), so such an answer would be undone
            nz = rng.randint(2, 4)
            heading = rng.choice(("day", "day", "day_first", "on_day", "area_num", "num_dot", "num_paren", "letter",
                                  "part"))
            pstyle = rng.choice(POLY_STYLES)
            phr = rng.choice(("blank", "blank", "lines", "dash", "comma"))
            e.add(intro).add(rng.choice((". THE AREA IS BOUNDED BY GEO COORD:", ". AREAS BOUNDED BY:",
                                         " WI AREAS BOUNDED BY LINES JOINING:", ":", ". COORDINATES:")))
            size = rng.uniform(30, 300) if space else rng.uniform(3, 30)
            for i in range(nz):
                day = start + timedelta(days=i)
                mon = V.MONTHS[day.month - 1]
                label = {"day": f"{mon} {day.day:02d}", "day_first": f"{day.day:02d} {mon}",
                         "on_day": f"ON {day.day:02d} {mon}:", "area_num": f"AREA {i + 1}:", "num_dot": f"{i + 1}.",
                         "num_paren": f"{i + 1})", "letter": f"{'ABCDEFGH'[i]}.", "part": f"PART {i + 1}:"}[heading]
                e.add(rng.choice(("  ", "\n", "\n", " "))).add(label).add(rng.choice(("  ", " ", "\n")))
                plat, plon = V.near(rng, clat, clon, size / 2)
                pts = _poly_points(rng, plat, plon, size, rng.randint(4, 7))
                pdoc, pg = polygon_doc(rng, pts, i, pstyle, phr)
                e.parts.extend(pdoc.parts)
                gold.append(polygon(pg))
            zone_fg = list(range(nz))
            q_radius = max(60, size * 2 / 1.852)
        else:  # multi_area: circles and polygons, each with its own limits
            e.add(intro).add(rng.choice((" IN THE FLW AREAS:", ". AREAS:", " WI:")))
            for i in range(nz):
                plat, plon = V.near(rng, clat, clon, 60)
                label = rng.choice((f"AREA {i + 1}:", f"AREA {'ABCDEFGH'[i]}:", f"{i + 1}.", f"{i + 1})"))
                e.add(rng.choice(("\n", "\n", "  "))).add(label).add(" ")
                if rng.random() < 0.5:
                    c_t, c_g = V.fmt_coord(rng, plat, plon, style)
                    rn = V.sample_radius_nm(rng, 0.5, 10)
                    r_t, r_m = _radius_text(rng, rn)
                    if rng.random() < 0.5:
                        e.field(r_t, i, "radius").add(" RADIUS CENTERED ON ").field(c_t, i, "center")
                    else:
                        e.add("PSN ").field(c_t, i, "center").add(" RADIUS ").field(r_t, i, "radius")
                    geo = circle(c_g, r_m)
                else:
                    pts = _poly_points(rng, plat, plon, rng.uniform(2, 20), rng.randint(3, 5))
                    pdoc, pg = polygon_doc(rng, pts, i, rng.choice(POLY_STYLES), rng.choice(("dash", "comma")))
                    e.parts.extend(pdoc.parts)
                    geo = polygon(pg)
                (l_t, l_g), (u_t, u_g), _, _ = V.sample_band(rng, rng.choice(("drone", "low", "mid")))
                e.add(rng.choice((" ", ", ", ". "))).field(l_t, i, "lower").add(rng.choice(("-", " TO ", "/")))
                e.field(u_t, i, "upper").add(rng.choice((".", "")))
                gold.append(geo | {"_lower": l_g, "_upper": u_g})
            f_lower, g_upper = "SFC", "UNL"
            zone_fg = []
            q_radius = 60
    else:  # none: cancellations and aerodrome notices
        if template == "notamc":
            qcode = rng.choice(("QXXXX", "QRTXX", "QWULW", act[1][:3] + "XX"))
            ref = header.split()[-1]
            e.add(rng.choice((f"REF NOTAM {ref} CNL", f"{ref} CANCELLED", "CNL NOTAM " + ref,
                              f"{intro} CANCELLED", f"NOTAM {ref} ({intro}) CNL.")))
        else:
            qcode = rng.choice(("QMRLC", "QMXLC", "QICAS", "QFAHX", "QOBCE", "QMPLC"))
            rwy = f"{rng.randint(1, 18):02d}"
            e.add(rng.choice((
                f"RWY {rwy}/{int(rwy) + 18:02d} CLSD DUE TO MAINT", f"TWY {rng.choice('ABCDEFGKLM')} CLSD",
                f"ILS RWY {rwy} U/S", "AD HR OF SER MON-FRI 0600-2000", f"ACFT STAND {rng.randint(1, 80)} CLSD",
                f"PAPI RWY {rwy} U/S", "FUEL NOT AVBL FOR GA ACFT", f"RWY {rwy} TORA REDUCED TO {rng.randint(15, 35)}00M",
                f"{place} RNAV (GNSS) RWY {rwy} APCH NOT AVBL. MINIMA RAISED, CIRCLING MDA {rng.randint(8, 20)}00FT.",
                f"TAKEOFF MINIMUMS AND OBSTACLE DEPARTURE PROCEDURES AMDT {rng.randint(1, 9)}{rng.choice('ABC ').strip()}: "
                f"TEMPORARY CRANE {rng.randint(200, 2500)}FT FROM DER, {rng.randint(50, 900)}FT RIGHT OF CENTERLINE, "
                f"{rng.randint(100, 300)}FT AGL/{rng.randint(100, 400)}FT MSL. ALL OTHER DATA REMAINS AS PUBLISHED.",
                "BIRD CONCENTRATION IN THE VICINITY OF AD. PILOTS EXERCISE CAUTION.",
                f"ATIS FREQ {rng.randint(118, 136)}.{rng.choice(('05', '255', '80', '125'))} U/S")))

    # ---- items
    q_txt, q_g, q_r = V.qline_coord(qlat, qlon, q_radius)
    traffic = rng.choice(("IV", "IV", "V", "I"))
    purpose = rng.choice(("BO", "BO", "NBO", "M", "BO ", "M  ", "B"))
    scope = rng.choice(("W", "W", "AW", "W ", "E", "A"))
    qcode_f = qcode
    qv = rng.random()
    if qv < 0.05:
        qcode_f = ""
    if qv > 0.97:  # broken feed: literal 'undefined' in place of the code and traffic fields
        qline = Doc().add(f"Q) {fir}/undefined/{purpose.strip() or 'BO'}/{scope.strip() or 'W'}/{qlo:03d}/{qhi:03d}/")
    elif qv > 0.94:
        qline = Doc().add(f"Q) {fir}/{qcode_f}/{traffic}/{purpose}/{scope}/ {qlo:03d}/{qhi:03d}/")
    else:
        qline = Doc().add(f"Q) {fir}/{qcode_f}/{traffic}/{purpose}/{scope}/{qlo:03d}/{qhi:03d}/")
    if kind == "qline":
        # the Q-line circle is the only geometry: centre and radius are copied from it
        qline.field(q_txt[:-3], 0, "center").field(q_txt[-3:], 0, "radius")
        gold.append(circle(q_g, q_r * V.NM_M))
    elif rng.random() < 0.04:
        pass  # empty coordinate field
    else:
        qline.add(q_txt)

    items_a = Doc().add(f"A) {ad if kind == 'ad' or rng.random() < 0.8 else fir}")
    b = Doc().add("B) ").field(V.fmt_icao_time(start), list(range(len(gold))), "start")
    end_est = perm = False
    cdoc = Doc()
    if template != "notamc":
        k = rng.random()
        cdoc.add("C) ")
        if k < 0.08:
            cdoc.field(V.fmt_icao_time(end) + rng.choice(("EST", "EST", " EST")), list(range(len(gold))), "end")
            end_est = True
        elif k < 0.12 and kind not in ("none",):
            cdoc.field("PERM", list(range(len(gold))), "end")
            perm = True
        else:
            cdoc.field(V.fmt_icao_time(end), list(range(len(gold))), "end")
    sched = None
    ddoc = Doc()
    if kind != "none" and end - start >= timedelta(days=1) and rng.random() < 0.4:
        sched = V.sample_schedule(rng, start, end)
        ddoc.add(rng.choice(("D) ", "D) ", " D) "))).field(sched, list(range(len(gold))), "schedule")

    fg = Doc()
    has_fg = kind != "none" and (rng.random() < 0.85 or kind in ("multi", "qline"))
    if has_fg:
        fg.add("F) ")
        if zone_fg:
            fg.field(f_lower, zone_fg, "lower")
        else:
            fg.add(f_lower)
        fg.add(rng.choice((" G) ", " G) ", "\nG) ", "  G) ", " \nG) ")))
        if zone_fg:
            fg.field(g_upper, zone_fg, "upper")
        else:
            fg.add(g_upper)
    elif kind in ("circle", "polygon", "arc", "ad"):
        # limits only in item E
        e.add(rng.choice((". ", "\n", " "))).add(rng.choice(("FM ", "FROM ", ""))).field(lower_t, 0, "lower")
        e.add(rng.choice((" UP TO ", " TO ", "-"))).field(upper_t, 0, "upper").add(rng.choice((".", "")))

    # ---- gold normalised zones
    start_iso = V.iso(start)
    end_iso = None if perm else V.iso(end)
    final = []
    for g in gold:
        lg = g.pop("_lower", lower_g)
        ug = g.pop("_upper", upper_g)
        final.append(zone(g, lg, ug, start_iso, end_iso, sched, end_estimated=end_est, permanent=perm))

    # ---- layout
    nl = "\r\n" if rng.random() < 0.04 else "\n"
    layout = rng.random()
    edoc = Doc().add("E) " if rng.random() < 0.9 else "E)  ")
    edoc.parts.extend(e.parts)
    lines: list[Doc] = [Doc().add(header), qline]
    if layout < 0.5:
        abc = Doc()
        abc.parts.extend(items_a.parts + [*Doc().add(" ").parts] + b.parts)
        if cdoc.parts:
            abc.add(" ")
            abc.parts.extend(cdoc.parts)
        lines.append(abc)
    else:
        lines.append(items_a)
        lines.append(b)
        if cdoc.parts:
            lines.append(cdoc)
    if ddoc.parts:
        lines.append(ddoc)
    lines.append(edoc)
    if fg.parts:
        lines.append(fg)
    if kind != "qline" and rng.random() < 0.07:
        lines = [ln for ln in lines if ln is not qline]  # no Q-line at all
    headerless = kind != "none" and rng.random() < 0.15
    if headerless:
        lines = lines[1:]  # no header line (never for a cancellation: the header is what says NOTAMC)
    pad = rng.random() < 0.15
    out = Doc()
    paren = not headerless and rng.random() < 0.3  # "(A1234/26 NOTAMN ... )" wraps a message with its header
    if paren:
        out.add("(")
    for i, ln in enumerate(lines):
        if i:
            out.add((" " if pad and rng.random() < 0.5 else "") + nl)
        out.parts.extend(ln.parts)
    if paren:
        out.add(")")
    if rng.random() < 0.2:
        t = start - timedelta(days=rng.randint(1, 30), minutes=rng.randint(0, 1440))
        out.add(f"{nl}CREATED: {t.day:02d} {V.MONTHS[t.month - 1]} {t.year} {t:%H:%M}  SOURCE: {rng.choice(SOURCES)}")
    return Example(out, final, "en")
