"""Geometry roles over the coordinates the coordinate finder reports in the free text, decided in this order:

0. *sector / semicircle* — a centre, a radius and two bounding bearings, or half a circle (``sectors``);
1. *plural centres* — ``WI 1KM RADIUS CENTERED PSNS c1 c2 …``: every coordinate after the phrase is the centre of
   its own circle with that radius (a limit on a centre's own line, ``UP TO 1,600FT AMSL``, is that zone's own);
   also a radius mention directly followed by a plain list of coordinates;
1c. *corridor* — ``1NM EITHER SIDE OF LINE c1-c2``: one polygon span that the polygon normaliser buffers;
2. *polygon* — a run of three or more vertices joined only by separators (``-``, ``TO``, ``,``, blanks), by arc
   clauses (``ARC RADIUS OF 5KM CENTRED ON c``) or by named points (``-GURIN-``); closing words
   (``BACK TO START``) and named points at either end are kept in the span so the polygon normaliser sees them
   (and sends unresolvable named points to review);
3. *circle* — a coordinate and the nearest ``RADIUS`` / ``WI <dist> OF`` / 半径 mention around it; a circle
   ``AROUND THE LAUNCHER`` takes the one position left over (the name goes along; validation says so);
4. *point* — a coordinate with no extent (obstacles: ``TOWER … 1152FT (155FT AGL)``), only when nothing else was
   found: a zone with a centre and no radius; validation sends it to review (no lateral extent). An obstacle is
   still a hazard the operator should see.

Route and waypoint coordinates are navigation points, not zones; the area after ``EXC`` is never a zone itself.
"""

from __future__ import annotations

import re
from bisect import bisect_left, bisect_right
from functools import lru_cache

from airspace.core.contract import Span
from airspace.parser.coords import CoordMatch, find_coords
from airspace.parser.polygon import BEARINGS
from airspace.parser.rules.patterns import (
    ARC_GAP,
    BAD_VERTEX_GAP,
    BAD_VERTEX_TAIL,
    BOUNDARY_GAP,
    CLOSE,
    CLOSE_IN_GAP,
    CN_DIST,
    DIST,
    EITHER_SIDE,
    INTRO_GAP,
    LIST_GAP,
    NAMED_AFTER,
    NAMED_BEFORE,
    NAMED_GAP,
    PLURAL,
    R_AFTER,
    R_BEFORE,
    R_WI_AFTER,
    R_WITHIN,
    SEP_GAP,
    nofix,
)
from airspace.parser.rules.sectors import read_sectors
from airspace.parser.rules.zone import Zone, sp


@lru_cache(maxsize=16)
def _radius_mentions(text: str, lo: int, hi: int) -> tuple[tuple[int, int, Span], ...]:
    """(mention start, mention end, distance span) for every radius mention in [lo, hi); read once for the two
    passes of ``read_geometry`` that ask (a tuple: neither changes it)."""
    out = []
    for rx in (R_BEFORE, R_AFTER, R_WI_AFTER):
        for m in rx.finditer(text, lo, hi):
            out.append((m.start(), m.end(), sp(text, *m.span("d"))))
    out.sort(key=lambda t: (t[0], -(t[1] - t[0])))
    dedup: list[tuple[int, int, Span]] = []
    for t in out:
        if dedup and t[0] < dedup[-1][1]:  # overlapping mentions ("1NM RADIUS 2NM"): keep the first
            continue
        dedup.append(t)
    return tuple(dedup)


_ROUTE_BEFORE = re.compile(
    r"(?:\bDCT|\bVIA|\bWAYPOINTS?\b[^\n]{0,80}?|\bNEW\s+(?:PSN|POSITION)|\bUSE|\bRTE|\bROUTE\s+[A-Z]{1,2}\d{1,4}:?)[\s:,(-]*$",
    re.I,
)
_ROUTE_NEAR = re.compile(r"\bWAYPOINTS?\b|\bATS\s+(?:RTE|ROUTE)S?\b|\bDCT\b|\bVIA\s+ROUTE\b", re.I)
# a reference point given for orientation (參考坐標點, REF POINT) next to an area described in words
_REF_POINT = re.compile(r"(?:参考|參考)[\u4e00-\u9fff]{0,4}\s*[:：]?\s*$|\bREF(?:ERENCE)?\s+(?:POINT|PSN|PT)\s*:?\s*$"
                        r"|\b(?:AD\s+)?ARP\s*:?\s*$", re.I)
_ROUTE_AFTER = re.compile(r"^[\s)]*(?:DCT\b|INSTEAD\s+OF\b)", re.I)
_EXC_AREA = re.compile(
    r"\bEXC(?:EPT|LUDING|L)?\.?\s+(?:FOR\s+)?(?:THE\s+)?(?:AREA|A\s+CIRCLE|CIRCLE|WI\b|SECTOR|AIRSPACE\s+(?:WI|WITHIN)\b"
    r"|(?:\d+(?:\.\d+)?\s?(?:NM|KM)\s+RADIUS)"
    r"|RADIUS|\d{4,6}[NS])",
    re.I,
)
_COORD_BETWEEN = re.compile(r"\d{4,6}(?:\.\d+)?\s?[NS]")
# "A CIRCLE OF 10 NM AROUND THE LAUNCHER": a circle around a named object, not around a coordinate
_AROUND_NAMED = re.compile(
    rf"\bCIRCLE\s+(?:OF\s+(?:RADIUS\s+)?|WITH\s+(?:A\s+)?RADIUS\s+(?:OF\s+)?|RADIUS\s+(?:OF\s+)?)?(?P<d>{DIST})\s+"
    r"(?:RADIUS\s+)?(?:AROUND|ABOUT|FROM|(?:CENTRED|CENTERED)\s+(?:ON|AT))\s+(?:THE\s+)?"
    r"(?P<name>[A-Z][A-Z/-]{1,20}(?: [A-Z][A-Z/-]{1,20}){0,3})(?=\s*[.,;:\n(]|\s{2}|$)"
)


def route_point(text: str, c: CoordMatch, lo: int) -> bool:
    """Whether a coordinate is a navigation point of a route/waypoint statement rather than a zone."""
    before = text[max(lo, c.start - 100) : c.start]
    if _ROUTE_BEFORE.search(before) or _ROUTE_AFTER.match(text, c.end):
        return True
    # a point between two named fixes of a route ("N639 - VILAO - c - NAH")
    if re.search(r"\b[A-Z]{2,5}\s*-\s*$", before) and re.match(r"\s*-\s*[A-Z]{2,5}\b", text[c.end : c.end + 20]):
        return True
    # "WAYPOINTS (WGS-84): OSH DVORDME (c1) - APTIN (c2)", "VIA ATS ROUTE Q2: Q2 - NIVEN - c - BISON"
    return _ROUTE_NEAR.search(text, max(lo, c.start - 100), c.start) is not None


_ARC_EXTENT = re.compile(rf"(?:\b(?:FROM|FM|BTN|BETWEEN)\s+)?(?:{BEARINGS.pattern})", re.I)


# a remark in parentheses after a vertex, words only: the point's name ("182028N1074053E (ASSAD) - …") or where it
# lies ("S02 25 E092 38 (ON YMMM FIR BOUNDRY)"); never an area's label ("(AREA B)") that would join two areas
_REMARK = re.compile(r"\((?![^()\n]*\b(?:AREA|ZONE|SECTOR|PART|BLOCK|SEGMENT)S?\b)[ ]?[A-Z][A-Z .'/&-]{1,40}\)")
# a continuation part's own Q-line inside the text ("… PART 2 OF 6 … Q) UUXX/QARLC/…/4849N04126E560"): its
# position is the coarse reference of that part, not a point of the zone
QLINE_IN_TEXT = re.compile(r"Q\)\s*[A-Z]{4}/[A-Z]{5}/[^\n]{0,60}?/(?P<c>\d{4}[NS]\s?\d{5}[EW])")


_ENUMERATOR = re.compile(r"(?<![\w])\(?(?:\d{1,2}|[A-Z])[).](?=\s|\(|$)")


def _gap(text: str, a: int, b: int) -> str:
    """The text between two points with fix references and remarks blanked out (same length, offsets kept); a
    remark followed by an enumerator ("… 264419N1272129E(NAHA-SHI) (2)251802N…") ends one area and starts the next,
    so it stays."""
    g = nofix(text[a:b])
    if _ENUMERATOR.search(_REMARK.sub(" ", g)):
        return g
    return _REMARK.sub(lambda m: " " * len(m.group()), g)


# a coordinate introduced as a centre ("中心点36.51N 117.21E；北纬36度48分…", "CENTRE 5130N00010W, …") is a circle's,
# not the first vertex of the boundary written after it
# (or as what a ring or a distance is around: "22 nm ring around c", "5NM RADIUS OF c", "within 2 KM of c")
_CENTRE_BEFORE = re.compile(r"(?:中心[点點]?|中心坐[标標]|[圆圓]心|(?i:\bCENT(?:RE|ER)(?:\s+POINT)?|\bCENT(?:RED|ERED)\s+(?:ON|AT)"
                            r"|(?<![A-Z])(?:RING|CIRCLE|RADIUS|NM|KM|SM|MI|MILES?|M|FT|METRES|METERS|KILOMETRES|KILOMETERS)"
                            r"\s+(?:AROUND|ABOUT|OF)))"
                            r"\s*[:：]?\s*(?:坐[标標]|位置)?\s*[:：]?\s*$")


# a coordinate followed by its radius ("40.51ºN 73.96ºW (1000 FT radius", "c RADIUS 5NM", "c半径2公里", "c / 0.4
# nautical miles", "c - 25 SM") is a circle's centre, never the next vertex of the boundary written before it
# (its radius after a slash or a dash, never a limit: "c / 0.4 nautical miles", "c - 25 SM", not "/ 500 M AGL")
# (a floor word that opens a range after it, "c / 30000FT SFC TO FL330", leaves the distance a radius)
_SLASH_RADIUS_RX = (rf"[ \t]*[/\-–][ \t]*(?P<d>{DIST})"
                    r"(?![ \t]*(?:AGL|AMSL|MSL|ASFC|AAL|ALT|(?:SFC|GND)(?![ \t]*(?:TO\b|[-–/])))\b)")
_SLASH_RADIUS = re.compile(_SLASH_RADIUS_RX, re.I)
_RADIUS_AFTER = re.compile(r"\s*[(（]?\s*(?:\d[\d.,]*\s*[A-Za-z]{1,16}(?:\s+[A-Za-z]{1,8})?\s+)?(?i:RADIUS\b)"
                           rf"|\s*[,，]?\s*半[径徑]|(?i:{_SLASH_RADIUS_RX})|\s*(?:周[边邊围圍]|四周)\s*\d")


# a radius that names its own centre next ("…、北纬31°02′、东经120°39′\n半径8公里，中心北纬31°09′…", "… RADIUS 5NM CENTRE c") is
# that centre's, not the point before it
_OWN_CENTRE_NEXT = re.compile(r"[^；;。\n]{0,16}?(?:中心|[圆圓]心|(?i:\bCENT(?:RE|ER|RED|ERED)\b))")


# a distance "from" a point as the area's extent: "距北纬46°01′，东经126°30′点2900米以内"
_CN_WITHIN_BEFORE = re.compile(r"(?:距|离|離)(?:离|離)?\s*$")
_CN_WITHIN_AFTER = re.compile(rf"\s*[点點]?\s*(?P<d>{CN_DIST})\s*(?:范围|範圍)?\s*(?:以内|以內|内|內)")


_AS_CENTRE = re.compile(r"\s*[为為](?:[圆圓]心|中心)[，,、]?\s*")


# a list of points closed as a boundary ("…连线围成的范围", "… 圍成的區域", "… TO START")
_ENCLOSED = re.compile(r"\s*[，,]?\s*(?:依次)?(?:[连連][线線])?(?:[围圍]成|[范範][围圍]内|[区區]域)|\s*(?:-\s*|TO\s+)?(?i:START|BEGINNING)\b")


_CLAUSE_END = re.compile(r"[；;。\n]")


_LIST_LABEL_IN_GAP = re.compile(r"(?<![A-Za-z\d.,])(?P<l>[B-H]|[2-9]|1\d)[.)](?=\s)")
_LIST_LABEL_BEFORE = re.compile(r"(?<![A-Za-z\d.,])(?P<l>[A-H]|\d{1,2})(?P<p>[.)])(?=\s|$)")


def _next_list_area(text: str, run: list[CoordMatch], gap: str) -> bool:
    """Whether the gap holds the next letter or number of a list whose previous one opens the run, a ring of three or
    more points with no label between them (``A. c1 c2 c3 c4 B. d1 …``, ``1.\n c1,…,c6 2. d1 …``): the next area;
    labels before every vertex (``A. c1, B. c2, C. c3``) label vertices."""
    m = _LIST_LABEL_IN_GAP.search(gap)
    if m is None or len(run) < 3:
        return False
    if any(_LIST_LABEL_IN_GAP.search(text, a.end, b.start) for a, b in zip(run, run[1:])):
        return False
    prev = str(int(m["l"]) - 1) if m["l"].isdigit() else chr(ord(m["l"]) - 1)
    # the run's own label is the last one written before it, right before it or earlier on its item ("3) between
    # … UTC\n c1 to c2 to c3 4) …")
    start = run[0].start
    before = list(_LIST_LABEL_BEFORE.finditer(text, max(0, start - 200), start))
    return bool(before) and before[-1]["l"] == prev and before[-1]["p"] == gap[m.end() - 1]


def _polygon_runs(text: str, coords: list[CoordMatch]) -> list[list[CoordMatch]]:
    runs: list[list[CoordMatch]] = []
    for c in coords:
        if runs and (m := _RADIUS_AFTER.match(text, c.end)) and not _OWN_CENTRE_NEXT.match(text, m.end()):
            runs.append([c])
            continue
        if runs:
            prev = runs[-1][-1]
            if len(runs[-1]) == 1 and _CENTRE_BEFORE.search(text, max(0, prev.start - 20), prev.start):
                runs.append([c])
                continue
            gap = _gap(text, prev.end, c.start)
            if _next_list_area(text, runs[-1], gap):
                runs.append([c])
                continue
            # after an arc's centre, "FROM BRG 000 TO BRG 180 -" states the arc's extent
            after_arc = len(runs[-1]) >= 2 and ARC_GAP.search(text, runs[-1][-2].end, prev.start) is not None
            joined = (
                SEP_GAP.match(gap)
                or (after_arc and SEP_GAP.match(_ARC_EXTENT.sub(lambda m: " " * len(m.group()), gap)))
                or (len(gap) <= 200 and ARC_GAP.search(gap) and "\n\n" not in gap and not CLOSE_IN_GAP.search(gap))
                or NAMED_GAP.match(gap)
                or BOUNDARY_GAP.match(gap)
                or BAD_VERTEX_GAP.match(gap)
            )
            if joined:
                runs[-1].append(c)
                continue
        runs.append([c])
    return runs


def _polygon_span(text: str, run: list[CoordMatch], lo: int, hi: int) -> tuple[int, int, int]:
    """(start, end, named points) of a polygon run, extended over named end points and closing words."""
    start, end, named = run[0].start, run[-1].end, 0
    for a, b in zip(run, run[1:]):
        if NAMED_GAP.match(text[a.end : b.start]) or BAD_VERTEX_GAP.match(text[a.end : b.start]):
            named += 1
    line_start = max(text.rfind("\n", lo, start), text.rfind(":", lo, start), lo - 1, start - 101) + 1
    m = NAMED_BEFORE.search(text, line_start, start)
    if m and m.end() == start:
        start = m.start("np")
        named += 1
    m = NAMED_AFTER.match(text[end : min(hi, end + 100)])
    if m:
        end += m.end("np")
        named += 1
    m = BAD_VERTEX_TAIL.match(text, end, min(hi, end + 60))
    if m and find_coords(m.group()):
        m = None  # (a well-formed point the runs left out is another area's: "…；\n340543N1090005E 半径 14公里")
    if m:  # a malformed last vertex ("…, 365852N-351722E"): in the span, so the polygon normaliser names it
        end = m.end()
        named += 1
    m = CLOSE.match(nofix(text[end : min(hi, end + 100)]))
    if m:
        end += m.end()
    return start, end, named



def read_geometry(text: str, lo: int, hi: int) -> list[Zone]:
    coords = [c._replace(start=c.start + lo, end=c.end + lo) for c in find_coords(text[lo:hi])]
    qpos = {m.start("c") for m in QLINE_IN_TEXT.finditer(text, lo, hi)}
    if qpos:
        coords = [c for c in coords if c.start not in qpos]
    zones: list[Zone] = []
    claimed: set[int] = set()

    # 0. sectors and semicircles (a centre, a radius and two bearings; half a circle)
    zones.extend(read_sectors(text, lo, hi, coords, claimed))

    # 1. plural centres
    plurals = list(PLURAL.finditer(text, lo, hi))
    for k, pm in enumerate(plurals):
        d = sp(text, *pm.span(next(g for g in ("d", "d2", "d3") if pm.group(g))))
        stop = plurals[k + 1].start() if k + 1 < len(plurals) else hi
        for i, c in enumerate(coords):
            if i not in claimed and pm.end() <= c.start < stop:
                claimed.add(i)
                zones.append(Zone({"center": sp(text, c.start, c.end), "radius": d}, c.start, c.end, "circle", True))

    # 1b. a radius mention directly followed by a plain list (blanks/commas only, no '-'/'TO') of 2+ coordinates
    for ms, me, d in _radius_mentions(text, lo, hi):
        if ARC_GAP.search(text, max(lo, ms - 25), ms):  # "THEN ARC RADIUS OF 7KM CENTRED ON c": a polygon arc
            continue
        k = next((i for i, c in enumerate(coords) if c.start >= me), None)
        if k is None or k in claimed or not INTRO_GAP.match(text[me : coords[k].start]):
            continue
        if k and (r := _RADIUS_AFTER.match(text, coords[k - 1].end)) and r.end() > ms:
            continue  # "中心点c 半径3千米\n c1 c2 …": the radius of the centre before it, not of the list after it
        run = [k]
        while run[-1] + 1 < len(coords) and LIST_GAP.match(text[coords[run[-1]].end : coords[run[-1] + 1].start]):
            run.append(run[-1] + 1)
        if _ENCLOSED.match(text, coords[run[-1]].end):
            continue  # "… c5 围成的范围": the list is a boundary's
        if len(run) >= 2 and not any(i in claimed for i in run):
            for i in run:
                claimed.add(i)
                c = coords[i]
                zones.append(Zone({"center": sp(text, c.start, c.end), "radius": d}, c.start, c.end, "circle", True))

    # 1c. corridors: "1NM EITHER SIDE OF LINE c1-c2(-c3…)": one polygon span from the width to the last line point
    # (the polygon normaliser buffers the line; the answer format has no corridor field)
    for cm in EITHER_SIDE.finditer(text, lo, hi):
        k = next((i for i, c in enumerate(coords) if c.start >= cm.end()), None)
        if k is None or k in claimed or not INTRO_GAP.match(text[cm.end() : coords[k].start]):
            continue
        run = [k]
        while run[-1] + 1 < len(coords) and SEP_GAP.match(nofix(text[coords[run[-1]].end : coords[run[-1] + 1].start])):
            run.append(run[-1] + 1)
        if len(run) >= 2 and not any(i in claimed for i in run):
            claimed.update(run)
            s0, e0 = cm.start(), coords[run[-1]].end
            zones.append(Zone({"polygon": sp(text, s0, e0)}, s0, e0, "polygon"))

    # 2. polygons
    rest = [c for i, c in enumerate(coords) if i not in claimed]
    poly_spans: list[tuple[int, int]] = [(z.anchor, z.anchor_end) for z in zones if z.kind == "polygon"]
    for run in _polygon_runs(text, rest):
        s, e, named = _polygon_span(text, run, lo, hi)
        closes = CLOSE.match(nofix(text[run[-1].end : min(hi, run[-1].end + 100)])) is not None
        distinct = {(round(c.lat, 6), round(c.lon, 6)) for c in run}
        # "A THEN CLOCKWISE ON A 4.2 NM ARC CENTERED ON C TO THE POINT OF ORIGIN": a full circle through A
        full_arc = len(run) == 2 and closes and ARC_GAP.search(text, run[0].end, run[1].start) is not None
        if len(distinct) + named >= 3 or (len(distinct) + named >= 2 and closes and named) or full_arc:
            poly_spans.append((s, e))
            zones.append(Zone({"polygon": sp(text, s, e)}, s, e, "polygon"))

    def in_poly(pos: int) -> bool:
        return any(s <= pos < e for s, e in poly_spans)

    # 3. circles: "距c点2900米以内" binds its distance to the point by grammar; each remaining coordinate takes the
    # nearest radius mention (a mention serves one coordinate)
    singles = []
    for c in rest:
        if in_poly(c.start):
            continue
        m = _CN_WITHIN_AFTER.match(text, c.end, hi)
        if m and _CN_WITHIN_BEFORE.search(text, max(lo, c.start - 6), c.start):
            zones.append(Zone({"center": sp(text, c.start, c.end), "radius": sp(text, *m.span("d"))}, c.start, c.end,
                              "circle"))
        else:
            singles.append(c)
    mentions = [m for m in _radius_mentions(text, lo, hi) if not in_poly(m[0])]
    for pm in plurals:
        mentions = [m for m in mentions if not (pm.start() <= m[0] < pm.end())]
    cands = []
    m_starts = [m[0] for m in mentions]
    c_starts = [c.start for c in singles]
    for ci, c in enumerate(singles):
        # only mentions within 80 characters can qualify (keeps hostile, coordinate-dense input linear)
        for mi in range(bisect_left(m_starts, c.start - 200), bisect_right(m_starts, c.end + 80)):
            ms, me, d = mentions[mi]
            if me <= c.start:
                gap, g0, g1 = text[me : c.start], me, c.start
            elif ms >= c.end:
                gap, g0, g1 = text[c.end : ms], c.end, ms
            else:
                continue
            if len(gap) > 80:
                continue
            k = bisect_left(c_starts, g0)
            if k < len(singles) and singles[k].start < g1 and singles[k] is not c:
                continue  # another coordinate sits between them
            # (a clause end between them: a radius in the centre's own clause, "半径800米，中心c；", comes first)
            # (a point written as the centre comes first, an aerodrome's or a reference point last: "… CENTER AT c
            # AND\nRADIUS OF 35KM. AD ARP c2.")
            score = (len(gap.strip()) + (20 if ("(" in gap or ")" in gap) else 0) + (40 if "\n\n" in gap else 0)
                     + (30 if _CLAUSE_END.search(gap) else 0)
                     - (25 if _CENTRE_BEFORE.search(text, max(lo, c.start - 20), c.start) else 0)
                     + (60 if _REF_POINT.search(text, max(lo, c.start - 30), c.start) else 0)
                     # (a radius after "以c为圆心" is that centre's; one before "以c…" ends the clause before it)
                     - (10 if ms >= c.end and _AS_CENTRE.fullmatch(gap) else 0)
                     + (30 if me <= c.start and gap.rstrip().endswith("以") else 0))
            cands.append((score, ci, mi))
    used_c, used_m = set(), set()
    for _score, ci, mi in sorted(cands):
        if ci in used_c or mi in used_m:
            continue
        used_c.add(ci)
        used_m.add(mi)
        c = singles[ci]
        zones.append(Zone({"center": sp(text, c.start, c.end), "radius": mentions[mi][2]}, c.start, c.end, "circle"))
    # "WI 5NM OF <coord>" without the word RADIUS
    for ci, c in enumerate(singles):
        if ci in used_c:
            continue
        m = R_WITHIN.search(text, max(lo, c.start - 60), c.start)
        if m:
            used_c.add(ci)
            d = m.span("d") if m.group("d") else m.span("d2")
            zones.append(Zone({"center": sp(text, c.start, c.end), "radius": sp(text, *d)}, c.start, c.end, "circle"))
            continue
        m = _SLASH_RADIUS.match(text, c.end, hi)
        if m:  # "c / 0.4 nautical miles", "c - 25 SM": a centre and its radius joined by a slash or a dash
            used_c.add(ci)
            zones.append(Zone({"center": sp(text, c.start, c.end), "radius": sp(text, *m.span("d"))}, c.start, c.end,
                              "circle"))

    # 3b. "A CIRCLE OF 10 NM AROUND THE LAUNCHER" whose object was located earlier ("LAUNCH PAD COORD: c"): when
    # exactly one position is left over, the circle is centred on it; the name goes along so validation says so
    left = [c for ci, c in enumerate(singles) if ci not in used_c and not route_point(text, c, lo)]
    arounds = [m for m in _AROUND_NAMED.finditer(text, lo, hi) if not in_poly(m.start())
               and not _COORD_BETWEEN.match(text, m.start("name"))]
    if len(left) == 1 and len(arounds) == 1:
        c, m = left[0], arounds[0]
        used_c.add(singles.index(c))
        zones.append(Zone({"center": sp(text, c.start, c.end), "radius": sp(text, *m.span("d")),
                            "name": sp(text, *m.span("name"))}, c.start, c.end, "circle"))

    # 4. points (only when nothing else was found: a lone reference point next to a real area is not a zone);
    # a coordinate in a route ("DCT 2925N06959E DCT"), a waypoint list, a moved point ("NEW PSN c") or a substitute
    # fix ("USE c INSTEAD OF SOT") is a navigation point, not a zone
    if not zones:
        for c in singles:
            if route_point(text, c, lo) or _REF_POINT.search(text, max(lo, c.start - 30), c.start):
                continue
            zones.append(Zone({"center": sp(text, c.start, c.end)}, c.start, c.end, "point"))
    # the area after "EXC" ("… EXC A CIRCLE RADIUS 1.5NM CENTERED ON c") is cut out of the zone, never a zone itself
    exc = [(m.start(), m.end()) for m in _EXC_AREA.finditer(text, lo, hi)]
    if exc:
        zones = [z for z in zones if not any(s0 < z.anchor <= e0 + 200 and
                                             not _COORD_BETWEEN.search(text, e0, z.anchor) for s0, e0 in exc)]
    zones.sort(key=lambda z: z.anchor)
    if len(zones) > 1:
        for z in zones:
            z.local_limits = True
    return zones

