"""FAA TFR web-page prose (``Beginning Date and Time : July 23, 2026 at 2105 UTC``): long, many distractors."""

from __future__ import annotations

import random
from datetime import timedelta

from . import values as V
from .base import Doc, Example, circle, polygon, zone
from .faa import STATES, _frd
from .icao import _poly_points
from .mix import _en_geometry

# page_mixed: the page layout around any geometry phrase of the ``mix`` family (circle, polygon or named place), so
# that training never pairs the page layout with one geometry kind only.
TEMPLATES = {"page_circle": "circle", "page_polygon": "polygon", "page_short": "circle", "page_mixed": "mixed"}
REASONS_HTML = ("Temporary flight restrictions for &quot;Special Security&quot; reasons",
                "Hazards - Fire fighting &amp; rescue operations", "VIP movement &#8211; security",
                "Space operations (launch &amp; recovery)", "Sporting event &apos;stadium&apos; restriction")
REASONS = ("Temporary flight restrictions for Special Security Reasons", "VIP Movement",
           "Hazards - Wildfire suppression", "Space Operations", "Sporting event", "Disaster relief aircraft operations",
           "Air show / aerial demonstrations", "Temporary flight restrictions for a stadium event")
EXTRA_PARAS = (
    "Except as specified below and/or unless authorized by ATC in consultation with the air traffic security "
    "coordinator, all aircraft operations are prohibited, including parachute jumping, unmanned aircraft, model "
    "rockets, tethered balloons and banner towing. Aircraft that were already airborne when the restriction "
    "became effective shall depart the area by the most direct route.\n",
    "The following operations are authorized within this restriction: law enforcement, emergency medical, "
    "firefighting and search and rescue flights coordinated with the controlling facility, and aircraft "
    "arriving at or departing from airports inside the area on an approved IFR flight plan with an operating "
    "transponder.\n",
)
EXTRA_PARAS2 = (
    "Pilots who do not adhere to these procedures may be intercepted, detained and interviewed by law "
    "enforcement or security personnel. Unmanned aircraft that pose a threat may be disabled. Operators are "
    "responsible for checking all NOTAMs for the area before flight, including any that amend this one.\n",
    "Flight plans must be filed with the flight service station and a discrete transponder code obtained "
    "before entering the area. Maintain two-way radio communication with ATC at all times while within the "
    "restricted airspace and monitor the emergency frequency 121.5 MHz.\n",
)
TZ = {"NY": ("EDT", -4), "MA": ("EDT", -4), "FL": ("EDT", -4), "GA": ("EDT", -4), "CA": ("PDT", -7),
      "IL": ("CDT", -5), "CO": ("MDT", -6), "HI": ("HST", -10), "AK": ("AKDT", -8)}


def _alt(rng: random.Random) -> tuple[str, str, str, dict, dict]:
    """(prefix, lower text, joiner+upper text) for the Altitude line."""
    k = rng.random()
    up_kind = rng.choice(("ft_words_msl", "ft_words_msl", "ft_words_agl", "fl"))
    if up_kind == "fl":
        ut, ug = V.fmt_limit(rng, "fl", rng.choice((180, 180, 230, 600)))
        ut = ut.replace(" ", "")
    else:
        ut, ug = V.fmt_limit(rng, up_kind, rng.choice((400, 1000, 2000, 3000, 18000, 17999)),
                             thousands=rng.choice(("none", "comma")))
    if k < 0.75:
        return "From the ", "surface", ut, {"ref": "SFC", "ft": 0.0}, ug
    lt, lg = V.fmt_limit(rng, "ft_words_agl" if rng.random() < 0.5 else "ft_words_msl", rng.choice((100, 500, 1000)))
    if lg["ft"] >= (ug["ft"] or 1e9):
        return "From the ", "surface", ut, {"ref": "SFC", "ft": 0.0}, ug
    return "From ", lt, ut, lg, ug


def generate(rng: random.Random, template: str) -> Example:
    fir, ad, alat, alon, _, places = V.pick_aerodrome(rng, "us")
    city, st, artcc = STATES.get(ad, ("SPRINGFIELD", "IL", "ZAU"))
    tzn, off = TZ.get(st, ("CDT", -5))
    start = V.sample_start(rng, rng.choice((1, 5, 15)))
    end = start + V.sample_duration(rng, rng.choice(("short", "days")))
    num = f"{start.year % 10}/{rng.randint(1000, 9999)}"
    s_t, e_t = V.fmt_prose_time(rng, start), V.fmt_prose_time(rng, end)
    clat, clon = V.near(rng, alat, alon, 60)
    d = Doc()
    short = template == "page_short"
    if not short:
        d.add(rng.choice(("Temporary Flight Restriction\n", "TFR Details\n", "")))
        d.add(f"Notice Number : {num}\n")
        iss = start - timedelta(hours=rng.randint(2, 96))
        d.add(f"Issue Date : {V.fmt_prose_time(rng, iss)}\n")
    d.add(f"Location : {city}, {st}\n")
    d.add("Beginning Date and Time : ").field(s_t, 0, "start").add("\n")
    d.add("Ending Date and Time : ").field(e_t, 0, "end").add("\n")
    html = rng.random() < 0.2  # scraped page with HTML entities left in
    d.add(f"Reason for NOTAM : {rng.choice(REASONS_HTML if html else REASONS)}\n")
    if not short:
        d.add(f"Type : {rng.choice(('Security', 'Hazards', 'VIP', 'Special', 'Space Operations'))}\n")
        d.add(f"Replaced NOTAM(s) : {rng.choice(('N/A', 'N/A', f'{start.year % 10}/{rng.randint(1000, 9999)}'))}\n")
        d.add(rng.choice(("\nSections: Affected Areas | Operating Restrictions | Other Information\n", "\n")))
    d.add("\nAffected Area(s)\n")
    d.add(rng.choice(("Airspace Definition:\n", "Area A\n", "")))
    style = rng.choice(("dms_symbols", "dms_symbols", "dms", "dm", "decimal_deg"))
    if template == "page_polygon":
        pts = _poly_points(rng, clat, clon, rng.uniform(3, 25), rng.randint(3, 6))
        d.add(rng.choice(("Polygon: ", "Boundary points: ", "Area bounded by: ")))
        gpts, texts = [], []
        sep = rng.choice((" to ", ", ", "; "))
        for p in pts:
            t, g = V.fmt_coord(rng, p[0], p[1], style)
            texts.append(t)
            gpts.append(g)
        if rng.random() < 0.5:
            texts.append(texts[0])  # ring closed by repeating the first point verbatim
        for i, t in enumerate(texts):
            if i:
                d.add(sep, (0, "polygon"))
            d.add(t, (0, "polygon"))
        geo = polygon(gpts)
        d.add("\n")
    elif template == "page_mixed":
        geo = _en_geometry(rng, d, 0, clat, clon, rng.choices(("circle", "polygon", "named"), weights=(2, 3, 1))[0])
        d.add("\n")
    else:
        c_t, c_g = V.fmt_coord(rng, clat, clon, style)
        nm = V.sample_radius_nm(rng, 0.5, 30)
        r_t, r_m = V.fmt_distance(rng, nm, rng.choice(("nm_words", "nm_words", "nm")))
        d.add(rng.choice(("Center: ", "Center : ", "Centered on "))).field(c_t, 0, "center")
        d.add(rng.choice((f" ({_frd(rng)})\n", "\n")))
        d.add(rng.choice(("Radius: ", "Radius : "))).field(r_t, 0, "radius").add("\n")
        geo = circle(c_g, r_m)
    pre, lt, ut, lg, ug = _alt(rng)
    d.add(f"Altitude: {pre}").field(lt, 0, "lower")
    d.add(rng.choice((" up to and including ", " up to but not including ", " to "))).field(ut, 0, "upper").add("\n")
    if not short:
        loc_s = start + timedelta(hours=off)
        d.add(f"Effective Date(s): From {s_t} ({V.MONTH_NAMES[loc_s.month - 1]} {loc_s.day}, {loc_s.year} at "
              f"{loc_s:%H%M} {tzn}) To {e_t}\n")
        d.add("\nOperating Restrictions and Requirements\n")
        d.add(rng.choice((
            "No pilots may operate an aircraft in the areas covered by this NOTAM (except as described).\n",
            "Only relief aircraft operations under the direction of the incident commander are authorized.\n",
            "All aircraft operations are prohibited within the area unless authorized by ATC.\n")))
        if html:
            d.add("Pilots &amp; UAS operators: check the FAA&apos;s TFR list before every flight.\n")
        if rng.random() < 0.6:
            d.add(f"UAS operators must obtain a waiver; contact {rng.randint(200, 999)}-{rng.randint(200, 999)}-"
                  f"{rng.randint(1000, 9999)} for coordination.\n")
        if rng.random() < 0.3:  # the long tail: full restriction text as pages print it
            d.add(rng.choice(EXTRA_PARAS))
            d.add(rng.choice(EXTRA_PARAS2))
        d.add(f"\nOther Information:\nARTCC : {artcc} {city.title()} Center\nAuthority : Title 14 CFR section "
              f"{rng.choice(('91.137', '99.7', '91.145', '91.141', '91.143'))}\n")
        if rng.random() < 0.5:
            d.add(f"Point of contact: {city.title()} FSDO, phone {rng.randint(200, 999)}-{rng.randint(200, 999)}-"
                  f"{rng.randint(1000, 9999)}.\n")
    return Example(d, [zone(geo, lg, ug, V.iso(start), V.iso(end))], "en", tags=("long",) if not short else ())
