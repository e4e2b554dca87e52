"""FAA domestic NOTAMs (``!ACCT NN/NNN LOC ...``) and FDC TFR NOTAMs (``!FDC 6/4321 ZNY NY..AIRSPACE ...``)."""

from __future__ import annotations

import random

from . import values as V
from .base import Doc, Example, circle, polygon, zone
from .icao import _poly_points, polygon_doc

TEMPLATES = {
    "uas_radius": "circle",
    "fdc_radius": "circle",
    "fdc_polygon": "polygon",
    "fdc_stadium": "circle",
    "domestic_none": "none",
}

STATES = {"KJFK": ("NEW YORK", "NY", "ZNY"), "KBOS": ("BOSTON", "MA", "ZBW"), "KMCO": ("ORLANDO", "FL", "ZJX"),
          "KLAX": ("LOS ANGELES", "CA", "ZLA"), "KATL": ("ATLANTA", "GA", "ZTL"), "KORD": ("CHICAGO", "IL", "ZAU"),
          "KDEN": ("DENVER", "CO", "ZDV"), "PHNL": ("HONOLULU", "HI", "ZHN"), "PANC": ("ANCHORAGE", "AK", "ZAN")}
NAVAIDS = ("OWD", "MLB", "ORL", "LAX", "ATL", "BOS", "JFK", "CCC", "DEN", "HNL", "ANC", "SAX", "LGA", "PVD", "ORW")
ACTS = ("UAS", "PJE", "AEROBATIC ACT", "UNMANNED ROCKET", "BALLOON", "LASER LGT DEMONSTRATION", "FIREWORKS")


def _frd(rng: random.Random) -> str:
    if rng.random() < 0.5:
        return f"{rng.choice(NAVAIDS)}{rng.randint(1, 360):03d}{rng.randint(1, 400) / 10:05.1f}"
    return f"{rng.randint(1, 250) / 10:.1f}NM {rng.choice(('N', 'NE', 'E', 'SE', 'S', 'SW', 'W', 'NW', 'NNW', 'ESE'))} {rng.choice(NAVAIDS)}"


def _acct(ad: str) -> str:
    return ad[1:] if ad.startswith("K") else ad


def generate(rng: random.Random, template: str) -> Example:
    ad_row = V.pick_aerodrome(rng, "us")
    fir, ad, alat, alon, _, places = ad_row
    city, st, artcc = STATES.get(ad, ("SPRINGFIELD", "IL", "ZAU"))
    start = V.sample_start(rng, rng.choice((1, 1, 15, 60)))
    d = Doc()
    gold = []
    style = rng.choice(("dms", "dms", "dms", "dm", "dms_dec"))
    clat, clon = V.near(rng, alat, alon, 50)
    lower_g = upper_g = None
    sched = None
    if template == "uas_radius":
        acct = _acct(ad)
        end = start + V.sample_duration(rng, rng.choice(("short", "days", "long")))
        act = rng.choice(ACTS)
        d.add(f"!{acct} {start.month:02d}/{rng.randint(1, 999):03d} {rng.choice((acct, acct, _acct(rng.choice(list(STATES)))))}"
              f" AIRSPACE {act} WI AN AREA DEFINED AS ")
        nm = V.sample_radius_nm(rng, 0.1, 5 if act == "UAS" else 10)
        r_t, r_m = V.fmt_distance(rng, nm, "nm")
        r_t = r_t.replace(" ", "")
        c_t, c_g = V.fmt_coord(rng, clat, clon, style)
        d.field(r_t, 0, "radius").add(" RADIUS OF ").field(c_t, 0, "center").add(f" ({_frd(rng)}) ")
        if act == "UAS":
            (lt, lower_g) = V.limit_sfc(rng, "SFC")
            ut, upper_g = V.fmt_limit(rng, "ft_agl", rng.choice((100, 200, 300, 400, 400, 500)))
        else:
            (lt, lower_g) = V.limit_sfc(rng, "SFC")
            if rng.random() < 0.5:
                ut, upper_g = V.fmt_limit(rng, "ft_bare", rng.choice((3000, 5000, 8000, 12500, 17999)))
            else:
                ut, upper_g = V.fmt_limit(rng, "fl", rng.choice((180, 200, 250)))
        ut = ut.replace(" FT", "FT").upper()
        d.field(lt, 0, "lower").add("-").field(ut, 0, "upper").add(" ")
        if rng.random() < 0.2:
            sched = rng.choice(("DLY 1200-2359", "DAILY 1300-2300", "MON-FRI 1400-2200"))
            d.field(sched, 0, "schedule").add(" ")
        d.field(V.fmt_icao_time(start), 0, "start").add("-").field(V.fmt_icao_time(end), 0, "end")
        gold.append(circle(c_g, r_m))
    elif template in ("fdc_radius", "fdc_polygon", "fdc_stadium"):
        end = start + V.sample_duration(rng, "short")
        num = f"{start.year % 10}/{rng.randint(1000, 9999)}"
        d.add(f"!FDC {num} {artcc} {st}..AIRSPACE {city}, {st}..")
        if template == "fdc_stadium":
            d.add(rng.choice(("STADIUM. ", "SPORTING EVENT. ", "")))
            d.add(rng.choice(("UAS OPERATIONS ARE PROHIBITED ", "TEMPORARY FLIGHT RESTRICTIONS ", "FLIGHT RESTRICTIONS ")))
            nm = rng.choice((1.0, 2.0, 3.0, 3.0))
            r_t, r_m = V.fmt_distance(rng, nm, "nm")
            c_t, c_g = V.fmt_coord(rng, clat, clon, style)
            d.add("WI ").field(r_t.replace(" ", ""), 0, "radius").add(" RADIUS OF ").field(c_t, 0, "center")
            d.add(f" ({_frd(rng)}) AND BLW ")
            ut, upper_g = V.fmt_limit(rng, "ft_agl", rng.choice((2000, 3000, 3000)))
            d.field(ut.replace(" FT", "FT").upper(), 0, "upper").add(rng.choice((". ", " ")))
            gold.append(circle(c_g, r_m))
        else:
            d.add(rng.choice(("TEMPORARY FLIGHT RESTRICTIONS ", "TEMPORARY FLIGHT RESTRICTIONS. PURSUANT TO 14 CFR SECTION 91.137(A)(1) ",
                              "SPECIAL SECURITY INSTRUCTIONS. ", "TEMPORARY FLIGHT RESTRICTIONS FOR VIP MOVEMENT ")))
            d.add("WI AN AREA DEFINED AS ")
            if template == "fdc_radius":
                nm = V.sample_radius_nm(rng, 1, 40)
                r_t, r_m = V.fmt_distance(rng, nm, "nm")
                c_t, c_g = V.fmt_coord(rng, clat, clon, style)
                d.field(r_t.replace(" ", ""), 0, "radius").add(" RADIUS OF ").field(c_t, 0, "center")
                d.add(f" ({_frd(rng)}) ")
                gold.append(circle(c_g, r_m))
            else:
                pts = _poly_points(rng, clat, clon, rng.uniform(3, 30), rng.randint(3, 7))
                pdoc, pg = polygon_doc(rng, pts, 0, style, "to")
                d.parts.extend(pdoc.parts)
                d.add(" ")
                gold.append(polygon(pg))
            lt, lower_g = V.limit_sfc(rng, "SFC")
            k = rng.random()
            if k < 0.6:
                ut, upper_g = V.fmt_limit(rng, "ft_bare", rng.choice((1000, 2000, 3000, 5000, 10000, 17999)))
            elif k < 0.8:
                ut, upper_g = V.fmt_limit(rng, "fl", rng.choice((180, 230, 600)))
            else:
                ut, upper_g = V.fmt_limit(rng, "ft_agl", rng.choice((400, 1000, 2000)))
            d.field(lt, 0, "lower").add("-").field(ut.replace(" FT", "FT").upper(), 0, "upper").add(" ")
        d.add(rng.choice(("EFFECTIVE ", "", "")))
        d.field(V.fmt_icao_time(start), 0, "start").add(rng.choice(("-", " UTC UNTIL ")))
        d.field(V.fmt_icao_time(end), 0, "end")
        if rng.random() < 0.5:
            d.add(rng.choice((f". {artcc[1:]} ARTCC IS THE COORDINATION FACILITY.",
                              ". ONLY RELIEF ACFT OPS UNDER DIRECTION OF THE ON-SCENE INCIDENT COMMANDER.",
                              f". {city} APPROACH TEL {rng.randint(200, 999)}-{rng.randint(200, 999)}-{rng.randint(1000, 9999)}.")))
    else:  # domestic notices that define no zone
        acct = _acct(ad)
        end = start + V.sample_duration(rng, "days")
        rwy = rng.randint(1, 18)
        body = rng.choice((f"RWY {rwy:02d}/{rwy + 18:02d} CLSD", f"TWY {rng.choice('ABCDEFGHJK')} CLSD",
                           f"NAV ILS RWY {rwy:02d} LOC U/S", "SVC TWR OPS HR 1100-0300",
                           "APRON NORTH RAMP CLSD", f"RWY {rwy:02d} PAPI U/S"))
        d.add(f"!{acct} {start.month:02d}/{rng.randint(1, 999):03d} {acct} {body} {V.fmt_icao_time(start)}-{V.fmt_icao_time(end)}")
        return Example(d, [], "en")
    g = gold[0]
    return Example(d, [zone(g, lower_g, upper_g, V.iso(start), V.iso(end), sched)], "en")
