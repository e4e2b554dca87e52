"""Forms of the world's feeds that the ICAO series line, FAA and dispatcher families do not write (issue 44, forms
1, 2, 4, 5, 6 and 7). Every value is sampled; layouts, labels and wording are drawn from small synthetic pools.

- ``locfirst`` (form 1): location and number first (``VIDF - A0212/16``), a title line (``NAV WARNING``,
  ``AERODROME ENROUTE``), then items B) C) [D)] E) F) G) with no Q) or A). Real layouts: world val
  ``anac-pib:A2187/2026`` (number first, then the location and a title line, then the period; no Q) or A)) and
  archive ``A0258/10`` (items B) C) E) with no Q) item).
- ``areas_limits`` (form 2): numbered areas, each with its own ``LOWER/UPPER LIMITS: FL060 / FL170``; times shared
  (B/C). Real: archive ``A0549/22_AREA1`` (``AREA 1: … AREA 2: …`` in one E item).
- ``launch_areas`` (form 2): hazard areas A/B/C, each with its own activity window; limits shared (F/G). Real:
  world val ``marlin-nga:NAVAREA IV 418/23`` (rocket-launch areas A and B with their windows); world val
  ``ie-iaa:galway-2018-10-13`` (lateral and vertical limits stated per area).
- ``designator`` (form 4): the place is an area designator (``VAD 218``, ``R-2508``, ``TRA806(A)``, ``EPR847``),
  never the sentence around it. Real: archive ``A0599/26`` (``VAD 219``), world train ``ro-lrbb-sample:920``
  (``TEMPORARY RESERVED AREA LRTRA111B ACTIVATED``).
- ``vip_rings`` (form 6): FAA 91.141 TFRs with two or three rings around one centre, each with its own limits and
  times, the centre followed by a VOR/DME alternate (``OF 390713N/0943548W OR THE RIS136016.7``): the rings are the
  zones, the alternate is the same centre and never a zone. Real: archive ``FDC 6/7491`` (FAA TFR with ``BRO078011.3``
  FRD alternates beside every point; no 91.141 ring row lies outside the world test split, so the rings follow the
  issue's description, never a message).
- ``radius_words`` (form 7): radii in km or NM with words around them (``within a radius of 2 nautical miles of``,
  ``5 KM RADIUS``). Real: world val ``uk-antidrone24:coronation-2023`` (``in a radius of 2.5-mile``) and world train
  ``in-deccanherald:kiadb-2024-01-19`` (``within 5-km radius``).
- pending a reader (``readiness``): ``local_notz`` (form 5: clock times in local time with no offset; gold UTC from
  the zone's IANA time zone, DST exact; real: world train ``hk-bau:kaitak-stadium-july``, clock times in Hong Kong
  time with no offset written), ``radius_spelled`` (``RADIUS OF TWO NM``; real: the same row's ``兩公里``) and
  ``weekday_date`` (form 3: the day a weekday name, dated by the notice's issue line; real: world val
  ``ie-iaa:galway-2018-10-13``, ``from Sat 13th to Sun 14th October``).
- held out: ``locfirst_oneline`` (number first, every item on one line), ``launch_areas_named`` (ALPHA/BRAVO areas,
  ISO windows ``BETWEEN … AND …``), ``vip_rings_core`` (rings labelled inner core / outer ring in prose).
"""

from __future__ import annotations

import random
from datetime import date, datetime, timedelta, timezone
from zoneinfo import ZoneInfo

from . import values as V
from .base import Doc, Example, circle, named, polygon, zone
from .icao import _poly_points, polygon_doc
from .readiness import active

BASE = {
    "locfirst": "mixed",
    "areas_limits": "mixed",
    "launch_areas": "polygon",
    "designator": "named",
    "vip_rings": "circle",
    "radius_words": "circle",
    "locfirst_oneline": "mixed",
    "launch_areas_named": "polygon",
    "vip_rings_core": "circle",
}
PENDING = {"local_notz": "circle", "radius_spelled": "circle", "weekday_date": "circle"}

TITLES = ("NAV WARNING", "AERODROME ENROUTE", "ENROUTE", "AIRSPACE", "NAVIGATION WARNING", "WARNINGS", "AIRSPACE RESTRICTION",
          "AERODROME")
ACTS = ("UAS OPS", "MIL EXER", "AIR DISPLAY", "PJE", "LIVE FIRING", "BALLOON RELEASE", "AEROBATIC FLT", "GUN FIRING",
        "MISSILE FIRING", "DRONE DEMONSTRATION", "FLARE DROPPING")
LAUNCH_ACTS = ("ROCKET LAUNCH", "SPACE LAUNCH", "AEROSPACE FLT ACTIVITY", "SPACE VEHICLE RECOVERY", "MISSILE LAUNCH")


def _loc_number(rng: random.Random, loc: str, year: int) -> tuple[str, str]:
    series = rng.choice("ABCDEGHJMW")
    return loc, f"{series}{rng.randint(1, 9999):04d}/{year % 100:02d}"


def _times(rng: random.Random) -> tuple[datetime, datetime]:
    start = V.sample_start(rng, rng.choice((1, 5, 15, 30, 60)))
    return start, start + V.sample_duration(rng, rng.choice(("short", "days", "days", "long")))


def _geometry(rng: random.Random, d: Doc, z: int, lat: float, lon: float, style: str) -> dict:
    """An item-E circle or polygon of zone ``z`` written into ``d``; returns its gold geometry."""
    if rng.random() < 0.55:
        nm = V.sample_radius_nm(rng, 0.3, 25)
        r_t, r_m = V.fmt_distance(rng, nm, rng.choice(("nm", "nm", "km")))
        c_t, c_g = V.fmt_coord(rng, lat, lon, style)
        how = rng.randrange(3)
        if how == 0:
            d.add("WI ").field(r_t, z, "radius").add(" RADIUS OF ").field(c_t, z, "center")
        elif how == 1:
            d.add("WI CIRCLE RADIUS ").field(r_t, z, "radius").add(" CENTRED ON ").field(c_t, z, "center")
        else:
            d.add("PSN ").field(c_t, z, "center").add(" RADIUS ").field(r_t, z, "radius")
        return circle(c_g, r_m)
    pts = _poly_points(rng, lat, lon, rng.uniform(3, 40), rng.randint(3, 6))
    d.add(rng.choice(("WI AREA ", "AREA BOUNDED BY ", "WI AN AREA BOUNDED BY: ")))
    pd, gp = polygon_doc(rng, pts, z, style, rng.choice(("dash", "dash", "comma", "to")))
    d.parts.extend(pd.parts)
    return polygon(gp)


def _style(rng: random.Random) -> str:
    return rng.choice(("dms", "dms", "dm", "hemi_first", "dms_space", "dms_dec"))


def _band(rng: random.Random, profile: str):
    (lt, lg), (ut, ug), _, _ = V.sample_band(rng, profile)
    return lt, lg, ut, ug


def _locfirst(rng: random.Random, oneline: bool) -> Example:
    fir, ad, alat, alon, _, places = V.pick_aerodrome(rng, "non_us")
    loc = rng.choice((fir, ad))
    start, end = _times(rng)
    loc, num = _loc_number(rng, loc, start.year)
    lat, lon = V.near(rng, alat, alon, 60)
    lt, lg, ut, ug = _band(rng, rng.choice(("drone", "low", "mid")))
    sched = V.sample_schedule(rng, start, end) if rng.random() < 0.35 else None
    title = rng.choice(TITLES)
    est = rng.random() < 0.1
    d = Doc()
    sep = "  " if oneline else "\n"
    if oneline:
        d.add(f"{num} {rng.choice(('-', '–'))} {loc} - {title}:{sep}")
    else:
        d.add(f"{loc}{rng.choice((' - ', ' - ', '-', ' '))}{num}\n{title}\n")
    d.add("B) ").field(V.fmt_icao_time(start), 0, "start").add(sep if rng.random() < 0.6 or oneline else "  ")
    d.add("C) ").field(V.fmt_icao_time(end) + (" EST" if est else ""), 0, "end").add(sep)
    if sched:
        d.add("D) ").field(sched, 0, "schedule").add(sep)
    d.add("E) ").add(rng.choice(ACTS) + rng.choice((" ", " WILL TAKE PLACE ", " ")))
    geo = _geometry(rng, d, 0, lat, lon, _style(rng))
    if rng.random() < 0.4:
        d.add(f" ({rng.choice(places)})")
    d.add(".").add(sep)
    d.add("F) ").field(lt, 0, "lower").add(rng.choice((sep, "  ", " ")))
    d.add("G) ").field(ut, 0, "upper")
    if rng.random() < 0.3:
        d.add(f"{sep}{rng.randint(1, 28):02d} {V.MONTHS[start.month - 1]} {start.year % 100:02d}")
    if oneline:  # a point list written over several lines joins the one line too
        d = d.map(lambda t: t.replace(" \n", " ").replace("\n", " "))
    return Example(d, [zone(geo, lg, ug, V.iso(start), V.iso(end), sched, end_estimated=est)], "en")


def _header(rng: random.Random, start: datetime, end: datetime, fir: str, d: Doc, zs: list[int]) -> None:
    """A NOTAM header without a geometry of its own: location-first or a series line with A) (no Q-line position)."""
    loc, num = _loc_number(rng, fir, start.year)
    if rng.random() < 0.5:
        d.add(f"{loc} - {num}\n{rng.choice(TITLES)}\n")
    else:
        d.add(f"{num} NOTAMN\nA) {loc} ")
    d.add("B) ").field(V.fmt_icao_time(start), zs, "start").add(rng.choice(("  ", "\n", " ")))
    d.add("C) ").field(V.fmt_icao_time(end), zs, "end").add("\n")


_LIMIT_LINES = (("LOWER/UPPER LIMITS: ", " / "), ("VERTICAL LIMITS: ", " - "), ("LIMITS: ", " TO "),
                ("ALT: ", "-"), ("LOWER LIMIT ", ", UPPER LIMIT "))


def _areas_limits(rng: random.Random) -> Example:
    fir, ad, alat, alon, _, _ = V.pick_aerodrome(rng, "non_us")
    start, end = _times(rng)
    n = rng.randint(2, 4)
    d = Doc()
    _header(rng, start, end, fir, d, list(range(n)))
    d.add("E) ").add(rng.choice(ACTS)).add(rng.choice((" IN THE FOLLOWING AREAS:\n", " WILL TAKE PLACE IN AREAS:\n")))
    gold = []
    mark = rng.choice(("num_area", "area", "num"))
    head, mid = rng.choice(_LIMIT_LINES)
    style = _style(rng)
    for i in range(n):
        lat, lon = V.near(rng, alat, alon, 120)
        label = {"num_area": f"{i + 1}. AREA {i + 1}", "area": f"AREA {i + 1}", "num": f"{i + 1}."}[mark]
        d.add(label + rng.choice((": ", " ", ":\n")))
        geo = _geometry(rng, d, i, lat, lon, style)
        lo_fl = rng.choice((0, 0, 30, 45, 60, 80, 100, 120))
        hi_fl = lo_fl + rng.choice((20, 40, 60, 110, 150, 200))
        if lo_fl == 0:
            lt, lg = V.limit_sfc(rng)
        else:
            lt, lg = V.fmt_limit(rng, "fl", lo_fl)
        ut, ug = V.fmt_limit(rng, "fl", hi_fl)
        d.add(rng.choice(("\n   ", "\n", "  "))).add(head).field(lt, i, "lower").add(mid).field(ut, i, "upper")
        d.add(rng.choice(("\n", "\n", "  \n")))
        gold.append(zone(geo, lg, ug, V.iso(start), V.iso(end)))
    d.add(rng.choice(("ACFT SHALL AVOID THE AREAS.", "RMK: ALL TFC TO AVOID.", "")))
    return Example(d, gold, "en")


def _launch_areas(rng: random.Random, named_: bool) -> Example:
    base = V.world_point(rng)
    n = rng.randint(2, 4)
    first = V.sample_start(rng, rng.choice((1, 5)))
    windows = []
    for i in range(n):
        s = first + timedelta(minutes=rng.choice((0, 0, 5, 10, 30)) + i * rng.choice((0, 0, 20, 60, 1440)))
        windows.append((s, s + timedelta(minutes=rng.choice((60, 90, 120, 150, 180, 240)))))
    start, end = min(w[0] for w in windows), max(w[1] for w in windows)
    lower, up = V.limit_sfc(rng, "SFC"), V.fmt_limit(rng, "unl", 0)
    d = Doc()
    fir = rng.choice(V.AERODROMES)[0]
    loc, num = _loc_number(rng, fir, start.year)
    d.add(f"{num} NOTAMN\nA) {loc} B) {V.fmt_icao_time(start)} C) {V.fmt_icao_time(end)}\n")
    d.add("E) ").add(rng.choice(LAUNCH_ACTS)).add(" HAZARD AREAS")
    d.add(rng.choice((":\n", ". ACFT SHALL AVOID:\n")))
    letters = ("ALPHA", "BRAVO", "CHARLIE", "DELTA") if named_ else ("A", "B", "C", "D")
    style = rng.choice(("dms", "dm", "hemi_first", "dms_space"))
    gold = []
    for i, (s, e) in enumerate(windows):
        lat, lon = V.near(rng, base[0], base[1], 150 + 100 * i)
        pts = _poly_points(rng, lat, lon, rng.uniform(20, 80), rng.randint(4, 6))
        d.add(f"{'HAZARD AREA' if named_ else 'AREA'} {letters[i]}: ")
        pd, gp = polygon_doc(rng, pts, i, style, rng.choice(("dash", "comma")))
        d.parts.extend(pd.parts)
        if named_:
            d.add(rng.choice((" BETWEEN ", "\nACTIVE BETWEEN "))).field(V.fmt_iso_time(rng, s), i, "start")
            d.add(" AND ").field(V.fmt_iso_time(rng, e), i, "end")
        else:
            a, b = rng.choice(((" ACTIVE ", " TO "), ("\nFROM ", " UNTIL "), (" ", "-"), ("\nWINDOW ", " TO ")))
            d.add(a).field(V.fmt_icao_time(s), i, "start").add(b).field(V.fmt_icao_time(e), i, "end")
        d.add("\n")
        gold.append(zone(polygon(gp), lower[1], up[1], V.iso(s), V.iso(e)))
    d.add("F) ").field(lower[0], list(range(n)), "lower").add(" G) ").field(up[0], list(range(n)), "upper")
    return Example(d, gold, "en")


def _designator(rng: random.Random) -> str:
    k = rng.randrange(9)
    if k == 0:
        return f"VAD {rng.randint(100, 399)}"
    if k == 1:
        return f"R-{rng.randint(2001, 6999)}"
    if k == 2:
        return f"TRA{rng.randint(100, 999)}({rng.choice('ABCD')})"
    if k == 3:
        return f"EP{rng.choice('RDT')}{rng.randint(100, 999)}"
    if k == 4:
        return f"{rng.choice(('EG', 'LF', 'ED'))}D{rng.randint(100, 999)}"
    if k == 5:
        return f"TSA {rng.randint(1, 40)}{rng.choice(('', 'A', 'B'))}"
    if k == 6:
        return f"LR{rng.choice(('TRA', 'D', 'R'))}{rng.randint(10, 199)}{rng.choice('ABCDEFG')}"
    if k == 7:
        return f"ED-R {rng.randint(100, 399)}"
    return f"VAR {rng.randint(100, 999)}"


def _designator_notice(rng: random.Random) -> Example:
    fir, ad, _, _, _, places = V.pick_aerodrome(rng, "non_us")
    start, end = _times(rng)
    lt, lg, ut, ug = _band(rng, rng.choice(("low", "mid", "agl_low")))
    sched = V.sample_schedule(rng, start, end) if rng.random() < 0.4 else None
    desig = _designator(rng)
    d = Doc()
    _header(rng, start, end, fir, d, [0])
    if sched:
        d.add("D) ").field(sched, 0, "schedule").add("\n")
    d.add("E) ")
    k = rng.randrange(5)
    if k == 0:
        d.field(desig, 0, "name").add(f" ({rng.choice(places)}) ACT")
    elif k == 1:
        d.add(rng.choice(("TEMPORARY RESERVED AREA ", "DANGER AREA ", "RESTRICTED AREA "))).field(desig, 0, "name")
        d.add(rng.choice((" ACTIVATED.", " ACTIVE.", " ACTIVATED. MIL FLT.")))
    elif k == 2:
        d.add("ACTIVATION OF ").field(desig, 0, "name").add(rng.choice((" DUE TO MIL EXER.", " FOR TRAINING FLT.")))
    elif k == 3:
        d.field(desig, 0, "name").add(rng.choice((" WILL BE ACTIVE", " IS ACTIVATED"))).add(" WITH A TRANSIT CORRIDOR CLOSED TO CIVIL TFC.")
    else:
        d.add("AIRSPACE ").field(desig, 0, "name").add(f" ACTIVATED, {rng.choice(('MIL FLT', 'UAS FLT', 'LIVE FIRING'))} IN PROGRESS.")
    d.add(rng.choice(("\n", "  "))).add("F) ").field(lt, 0, "lower").add(" G) ").field(ut, 0, "upper")
    return Example(d, [zone(named(desig), lg, ug, V.iso(start), V.iso(end), sched)], "en")


US_STATES = {"KJFK": ("NEW YORK", "NY", "ZNY", "America/New_York"), "KBOS": ("BOSTON", "MA", "ZBW", "America/New_York"),
             "KMCO": ("ORLANDO", "FL", "ZJX", "America/New_York"), "KLAX": ("LOS ANGELES", "CA", "ZLA", "America/Los_Angeles"),
             "KATL": ("ATLANTA", "GA", "ZTL", "America/New_York"), "KORD": ("CHICAGO", "IL", "ZAU", "America/Chicago"),
             "KDEN": ("DENVER", "CO", "ZDV", "America/Denver"), "PHNL": ("HONOLULU", "HI", "ZHN", "Pacific/Honolulu"),
             "PANC": ("ANCHORAGE", "AK", "ZAN", "America/Anchorage")}
NAVAIDS = ("RIS", "MCI", "OJC", "STL", "BOS", "JFK", "ORD", "DEN", "LAX", "ATL", "MCO", "ANC", "HNL", "CCC", "SAX", "EWR")


def _frd(rng: random.Random) -> str:
    return f"{rng.choice(NAVAIDS)}{rng.randint(1, 360):03d}{rng.randint(10, 600) / 10:05.1f}"


def _local(t: datetime, tz: str) -> str:
    loc = t.astimezone(ZoneInfo(tz))
    return f"{loc:%H%M} LOCAL {loc:%m/%d/%y}"


def _vip_rings(rng: random.Random, core: bool) -> Example:
    ad_row = V.pick_aerodrome(rng, "us")
    city, st, artcc, tz = US_STATES[ad_row[1]]
    lat, lon = V.near(rng, ad_row[2], ad_row[3], 40)
    n = rng.choice((2, 2, 3))
    radii = sorted(rng.sample((3, 5, 10, 10, 15, 20, 30, 30), n))
    while len(set(radii)) < n:
        radii = sorted(rng.sample((3, 5, 10, 15, 20, 30), n))
    start = V.sample_start(rng, 15)
    coord_style = rng.choice(("dms", "dms_slash", "dms_slash", "dms_space"))
    c_txt, c_g = V.fmt_coord(rng, lat, lon, coord_style)
    frd = _frd(rng)
    d = Doc()
    d.add(f"!FDC {start.year % 10}/{rng.randint(1000, 9999)} {artcc} {st}..AIRSPACE {city}, {st}..TEMPORARY FLIGHT RESTRICTIONS "
          f"{start:%B %d, %Y}".upper() + ". PURSUANT TO 14 CFR SECTION 91.141 AIRCRAFT FLIGHT OPERATIONS ARE PROHIBITED "
          "WITHIN THE FOLLOWING AREAS UNLESS OTHERWISE AUTHORIZED BY ATC:\n")
    gold = []
    # the same ceiling for every ring (as most VIP TFRs), or a lower inner ring
    uppers = [17999] * n if rng.random() < 0.5 else sorted(rng.sample((2999, 5000, 12000, 17999, 18000), n))
    for i, r_nm in enumerate(radii):
        s = start + timedelta(minutes=rng.choice((0, 0, 0, 15, 30)))
        e = s + timedelta(minutes=rng.choice((120, 180, 240, 300, 480)))
        r_t = f"{r_nm}{rng.choice(('NM', ' NM', 'NM'))}"
        up_t, up_g = V.fmt_limit(rng, rng.choice(("ft_msl", "ft_bare")), uppers[i])
        lo_t, lo_g = V.limit_sfc(rng, "SFC")
        if core:
            label = ("THE INNER CORE", "THE OUTER RING", "THE OUTERMOST RING")[i]
            d.add(f"{label} IS THE AIRSPACE WITHIN ").field(r_t, i, "radius").add(" OF ")
        else:
            d.add(f"{'ABCD'[i]}. {rng.choice(('', 'WI AN AREA DEFINED AS '))}").field(r_t, i, "radius").add(" RADIUS OF ")
        d.field(c_txt, i, "center").add(f" OR THE {frd} ")
        d.field(lo_t, i, "lower").add("-" if not core else " TO ").field(up_t, i, "upper")
        if i and not core and rng.random() < 0.5:
            d.add(f" EXCLUDING THE AIRSPACE WITHIN {radii[i - 1]}NM OF {c_txt}")
        d.add(" EFFECTIVE ").field(V.fmt_icao_time(s), i, "start").add(f" UTC ({_local(s, tz)}) UNTIL ")
        d.field(V.fmt_icao_time(e), i, "end").add(f" UTC ({_local(e, tz)}).\n")
        gold.append(zone(circle(c_g, r_nm * V.NM_M), lo_g, up_g, V.iso(s), V.iso(e)))
    d.add(rng.choice(("EXCEPT AS SPECIFIED BELOW AND/OR UNLESS AUTHORIZED BY ATC IN CONSULTATION WITH THE AIR TRAFFIC "
                      "SECURITY COORDINATOR VIA THE DOMESTIC EVENTS NETWORK (DEN).",
                      "ONLY APPROVED LAW ENFORCEMENT, MILITARY AND AEROMEDICAL FLIGHTS ARE AUTHORIZED.")))
    return Example(d, gold, "en")


WORD_NUMS = {1: "ONE", 2: "TWO", 3: "THREE", 4: "FOUR", 5: "FIVE", 6: "SIX", 8: "EIGHT", 10: "TEN"}


def _radius_words(rng: random.Random, spelled: bool) -> Example:
    fir, ad, alat, alon, _, places = V.pick_aerodrome(rng)
    lat, lon = V.near(rng, alat, alon, 40)
    c_t, c_g = V.fmt_coord(rng, lat, lon, rng.choice(("decimal_hemi", "dms", "dms_symbols", "decimal_deg", "dm", "hemi_decimal")))
    if spelled:
        v = rng.choice(list(WORD_NUMS))
        unit = rng.choice(("NM", "KM", "NAUTICAL MILES", "KILOMETRES"))
        r_t = f"{WORD_NUMS[v]} {unit}" if v != 1 or unit in ("NM", "KM") else f"ONE {unit[:-1]}"
        r_m = v * (V.NM_M if unit.startswith("N") else 1000.0)
    else:
        r_t, r_m = V.fmt_distance(rng, V.sample_radius_nm(rng, 0.3, 15), rng.choice(("km_words", "nm_words", "km", "nm")))
    start, end = _times(rng)
    up_t, up_g = V.fmt_limit(rng, rng.choice(("ft_agl", "m_agl", "ft_amsl")), rng.choice((120, 400, 500, 1000, 1500)))
    d = Doc()
    k = rng.randrange(5)
    lead = rng.choice(("The aviation authority has established a restricted area ", "Drone flights are prohibited ",
                       "RESTRICTED AREA ESTABLISHED ", "Notice to drone operators: no flights "))
    d.add(lead)
    if k == 0:
        d.add("within a radius of ").field(r_t, 0, "radius").add(" of ").field(c_t, 0, "center")
    elif k == 1:
        d.add("in a ").field(r_t, 0, "radius").add(" radius around ").field(c_t, 0, "center")
    elif k == 2:
        d.add("WITHIN A RADIUS OF ").field(r_t, 0, "radius").add(" CENTERED AT ").field(c_t, 0, "center")
    elif k == 3:
        d.add("inside the ").field(r_t, 0, "radius").add(" RADIUS from the point ").field(c_t, 0, "center")
    else:
        d.add("over an area with a radius of ").field(r_t, 0, "radius").add(" from coordinates ").field(c_t, 0, "center")
    d.add(f" ({rng.choice(places).title()}), up to ").field(up_t, 0, "upper")
    a, b = rng.choice(((", from ", " to "), (". Valid from ", " until "), (" between ", " and "), (", ", "-")))
    d.add(a).field(V.fmt_icao_time(start), 0, "start").add(b).field(V.fmt_icao_time(end), 0, "end").add(" UTC.")
    return Example(d, [zone(circle(c_g, r_m), None, up_g, V.iso(start), V.iso(end))], "en")


# places with their IANA time zone (DST exact through zoneinfo); positions approximate, only realism matters
LOCAL_PLACES = (
    ("Denver", 39.74, -104.99, "America/Denver"), ("Phoenix", 33.45, -112.07, "America/Phoenix"),
    ("Chicago", 41.88, -87.63, "America/Chicago"), ("Boston", 42.36, -71.06, "America/New_York"),
    ("Dublin", 53.35, -6.26, "Europe/Dublin"), ("Lyon", 45.76, 4.84, "Europe/Paris"),
    ("Lima", -12.05, -77.04, "America/Lima"), ("Santiago", -33.45, -70.67, "America/Santiago"),
    ("Sydney", -33.87, 151.21, "Australia/Sydney"), ("Brisbane", -27.47, 153.03, "Australia/Brisbane"),
    ("Auckland", -36.85, 174.76, "Pacific/Auckland"), ("Tel Aviv", 32.09, 34.78, "Asia/Jerusalem"),
    ("Tehran", 35.69, 51.39, "Asia/Tehran"), ("Mumbai", 19.08, 72.88, "Asia/Kolkata"),
    ("Osaka", 34.69, 135.50, "Asia/Tokyo"), ("Manila", 14.60, 120.98, "Asia/Manila"),
    ("Sao Paulo", -23.55, -46.63, "America/Sao_Paulo"), ("Vancouver", 49.28, -123.12, "America/Vancouver"),
)


def local_to_utc(day: date, minutes: int, tz: str) -> datetime:
    """A local wall-clock time on ``day`` in ``tz`` -> UTC (zoneinfo, DST exact; ``_local_notz`` never samples a time
    in a spring-forward gap or an autumn repeat, where the wall clock alone would not say which instant)."""
    wall = datetime(day.year, day.month, day.day) + timedelta(minutes=minutes)
    return wall.replace(tzinfo=ZoneInfo(tz)).astimezone(timezone.utc)


def _unambiguous(day: date, minutes: int, tz: str) -> bool:
    wall = datetime(day.year, day.month, day.day) + timedelta(minutes=minutes)
    a = wall.replace(tzinfo=ZoneInfo(tz), fold=0)
    b = wall.replace(tzinfo=ZoneInfo(tz), fold=1)
    if a.utcoffset() != b.utcoffset():
        return False  # repeated hour
    return a.astimezone(timezone.utc).astimezone(ZoneInfo(tz)).replace(tzinfo=None) == wall  # not in a gap


def _local_notz(rng: random.Random) -> Example:
    name, plat, plon, tz = rng.choice(LOCAL_PLACES)
    lat, lon = V.near(rng, plat, plon, 15)
    for _ in range(50):
        day = V.sample_start(rng).date()
        a = rng.randint(24, 72) * 15
        b = a + rng.choice((60, 120, 180, 240, 360, 480))
        if b < 24 * 60 and _unambiguous(day, a, tz) and _unambiguous(day, b, tz):
            break
    else:
        raise RuntimeError("no unambiguous local window drawn")
    mon = V.MONTH_NAMES[day.month - 1]
    date_t = rng.choice((f"{day.day} {mon} {day.year}", f"{mon} {day.day}, {day.year}", f"{day.day} {mon[:3]} {day.year}"))
    cs = rng.randrange(2)
    s_t = f"{a // 60:02d}{a % 60:02d}" if cs == 0 else f"{a // 60:02d}:{a % 60:02d}"
    e_t = f"{b // 60:02d}{b % 60:02d}" if cs == 0 else f"{b // 60:02d}:{b % 60:02d}"
    c_t, c_g = V.fmt_coord(rng, lat, lon, rng.choice(("decimal_hemi", "dms", "decimal_deg")))
    r_t, r_m = V.fmt_distance(rng, V.sample_radius_nm(rng, 0.3, 5), rng.choice(("km", "nm", "km_words")))
    d = Doc().add(rng.choice((f"{name} event notice, ", f"Operator bulletin ({name}): ", "Notice: ")))
    d.field(date_t, 0, "date").add(rng.choice((". No drone flights ", ": drones banned ", " - UAS prohibited ")))
    d.add("from ").field(s_t, 0, "start").add(" to ").field(e_t, 0, "end").add(rng.choice((" local time", " (local)", " LT")))
    d.add(" within ").field(r_t, 0, "radius").add(" of ").field(c_t, 0, "center").add(".")
    start, end = local_to_utc(day, a, tz), local_to_utc(day, b, tz)
    return Example(d, [zone(circle(c_g, r_m), None, None, V.iso(start), V.iso(end))], "en")


WEEKDAYS = ("Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday")


def _weekday_date(rng: random.Random) -> Example:
    """The day is a weekday name; the notice's own issue line dates it: the first such day after the issue day
    (never the issue day's own weekday, which would leave today or next week open)."""
    fir, ad, alat, alon, _, places = V.pick_aerodrome(rng)
    lat, lon = V.near(rng, alat, alon, 30)
    issued = V.sample_start(rng).date()
    ahead = rng.randint(1, 6)
    day = issued + timedelta(days=ahead)
    wd = WEEKDAYS[day.weekday()]
    wd_t = rng.choice((wd, wd.upper(), wd[:3].upper()))
    mon = V.MONTH_NAMES[issued.month - 1]
    a = rng.randint(0, 20) * 60 + rng.choice((0, 30))
    b = a + rng.choice((60, 120, 180, 240))
    if b >= 24 * 60:
        a, b = a - 240, b - 240
    s_t, e_t = f"{a // 60:02d}{a % 60:02d}", f"{b // 60:02d}{b % 60:02d}"
    tz_t = rng.choice(("UTC", "Z", "UTC"))
    c_t, c_g = V.fmt_coord(rng, lat, lon, rng.choice(("dms", "decimal_hemi", "dm")))
    r_t, r_m = V.fmt_distance(rng, V.sample_radius_nm(rng, 0.3, 5), rng.choice(("nm", "km")))
    d = Doc().add(rng.choice(("Issued ", "Bulletin of ", "Published "))).add(
        f"{WEEKDAYS[issued.weekday()]} {issued.day} {mon} {issued.year}.\n")
    d.add(rng.choice(("Drone flights prohibited on ", "No UAS operations ", "Airspace closed to drones "))).field(wd_t, 0, "date")
    d.add(" ").field(s_t, 0, "start").add("-").field(e_t, 0, "end").add(" ").field(tz_t, 0, "tz")
    d.add(" within ").field(r_t, 0, "radius").add(" of ").field(c_t, 0, "center").add(f" ({rng.choice(places)}).")
    midnight = datetime(day.year, day.month, day.day, tzinfo=timezone.utc)
    start, end = midnight + timedelta(minutes=a), midnight + timedelta(minutes=b)
    return Example(d, [zone(circle(c_g, r_m), None, None, V.iso(start), V.iso(end))], "en")


def generate(rng: random.Random, template: str) -> Example:
    if template in ("locfirst", "locfirst_oneline"):
        return _locfirst(rng, template == "locfirst_oneline")
    if template == "areas_limits":
        return _areas_limits(rng)
    if template in ("launch_areas", "launch_areas_named"):
        return _launch_areas(rng, template == "launch_areas_named")
    if template == "designator":
        return _designator_notice(rng)
    if template in ("vip_rings", "vip_rings_core"):
        return _vip_rings(rng, template == "vip_rings_core")
    if template in ("radius_words", "radius_spelled"):
        return _radius_words(rng, template == "radius_spelled")
    if template == "local_notz":
        return _local_notz(rng)
    if template == "weekday_date":
        return _weekday_date(rng)
    raise ValueError(f"unknown template {template!r}")


TEMPLATES = active(generate, BASE, PENDING)
