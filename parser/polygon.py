"""Polygon spans of a message -> an open ring of (lat, lon) points.

The span runs from the first to the last boundary point. Points are joined by ``-``, ``TO``, commas or blanks
(newlines included); ``BACK TO START`` / ``TO BEGINNING`` / a repeated first point close the ring (the closing
duplicate is dropped). Arcs are densified geodesically on WGS84 (``pyproj.Geod``):

- ``A  ARC RADIUS OF 5KM (2.7NM) CENTRED ON C  B``
- ``A THEN CLOCKWISE ON A 30 NM ARC CENTERED ON C TO B`` (``ANTI-CLOCKWISE``/``COUNTERCLOCKWISE`` the other way)

When the direction is not written the shorter arc is taken. A boundary point given only by name (a VOR, a
waypoint) has no coordinates in the message: that raises ``ValueError`` naming it, never a guessed point. A vertex
that looks like a coordinate but is malformed (``0645N 112000W``: a 6-digit longitude) raises
``MalformedVertex`` (a ``ValueError``) naming the token and why, with the readable points attached; it never turns
into a different geometry.

The ring is returned as written, never reordered. ``ring_self_intersects`` / ``ring_problems`` say when it is not a
simple ring (edges crossing — corners listed row by row — or a repeated vertex) so validation can flag it;
``hull_order`` redraws a crossing ring only when every vertex is a hull corner (then one simple ring exists).

(Over 500 lines on purpose: rings, arcs, sectors and corridors share one vertex reader and one arc geometry.)
"""

from __future__ import annotations

import math
import re

from pyproj import CRS, Geod, Transformer
from shapely.geometry import LinearRing, LineString, MultiPoint

from airspace.parser.coords import CoordMatch, find_coords
from airspace.parser.textnorm import clean
from airspace.parser.units import parse_distance_m

GEOD = Geod(ellps="WGS84")
ARC_STEP_DEG = 3.0  # densify arcs with at most this much azimuth between vertices

_CLOSE = re.compile(
    r"(?:BACK\s+)?TO\s+(?:THE\s+)?(?:START(?:ING)?(?:\s+POINT)?|BEGINNING|ORIGIN|POINT\s+OF\s+(?:ORIGIN|BEGINNING)|"
    r"FIRST\s+POINT)|CLOSING\s+THE\s+AREA",
    re.IGNORECASE,
)
_FILLER = re.compile(
    r"\b(?:THENCE\s+(?:(?:NORTH|SOUTH|EAST|WEST)[A-Z]*\s*){1,2}|LATITUDE|LONGITUDE|THEN(?:CE)?|UP\s+TO|TO|AND|ALONG|THE|A|STRAIGHT|LINES?|GREAT|CIRCLE|RHUMB|LINE|POINTS?|FLW|FOLLOWING|"
    r"TO\s+POINT|FM|FROM|VIA|BOUNDED\s+BY|BY|CONNECTION|RANGE|COORDINATES?|PSNS?|POS|POSITIONS?|PT)\b",
    re.IGNORECASE,
)
_ENUM = re.compile(r"(?<!\w)(?:\d{1,2}|[A-Z]|[IVX]{2,4})[).:](?=[\s?]|$)")  # "1." / "B)" / "IV." point labels
# a vertex label: "POINT B", "PSN 2", "PT C:", "VERTEX 3" (a letter/number naming the vertex, not a named fix)
# (or in Chinese, the label before the word for point: "B點北緯21度33分…", "2点："; the separator between vertices
# reads it too, ``rules.patterns.SEP_GAP``)
CN_POINT_LABEL = r"(?-i:[A-Z]|\d{1,2})\s*[點点]\s*[:：（(]?"  # ("A点：", "A点（东经…，北纬…）")
_LABEL = re.compile(r"\b(?:POINTS?|PSN|PT|POS(?:ITION)?|VERTEX)\s+(?:[A-Z]|\d{1,2}|[A-Z]\d)(?![A-Za-z0-9])\s*[:.)]?"
                    rf"|(?<![A-Za-z0-9]){CN_POINT_LABEL}", re.IGNORECASE)
# a fix/radial/distance reference after a point, bare as on FAA TFR pages ("285116N 0804219W OMN141034.4")
_FRD = re.compile(r"(?<![A-Z0-9])[A-Z]{2,5}\d{6}(?:\.\d{1,2})?(?![\dA-Z])")
_SEPS = re.compile(r"[\s\-–—,;:/.、，；?（）()]+")  # (a bracket left by a labelled point: "A点（c）、B点（c）")
_PARENS = re.compile(r"\([^()]*\)|（[^（）]*）")
_ARC = re.compile(r"\bARC\b", re.IGNORECASE)
_DIR = re.compile(r"\b(ANTI[\s-]?CLOCKWISE|COUNTER[\s-]?CLOCKWISE|CLOCKWISE)\b", re.IGNORECASE)
_CENTRE_TAIL = re.compile(r"\b(?:CENT(?:RE|ER)(?:D|ED)?)(?:\s+(?:ON|AT))?\s*$", re.IGNORECASE)
_DIST_IN = re.compile(  # (thousands "ON A 5,380M ARC", and a decimal comma: "AN ARC OF 5,9NM RADIUS")
    r"(?<![\w.,])(\d{1,3}(?:,\d{3})+(?:\.\d+)?|\d+(?:\.\d+|,\d{1,2}(?!\d))?|\.\d+)\s*(NM|KM|M|MTR|FT|公里|千米|米)"
    r"(?![A-Za-z])", re.IGNORECASE)


class MalformedVertex(ValueError):
    """A boundary vertex that looks like a coordinate but cannot be read; ``token`` is its text."""

    def __init__(self, message: str, token: str, points: list[tuple[float, float]]):
        super().__init__(message)
        self.token = token
        self.points = points  # the readable vertices, in order (the malformed one left out)


class PathApproximated(MalformedVertex):
    """A boundary that follows a border between two points ("THENCE ALONG FIR BOUNDARY TO"): the border's shape is
    not in the message, so the ring is drawn with a straight edge there. Raised with the whole ring attached (the
    normaliser keeps a readable ring of a ``MalformedVertex`` and sends the record to review with this reason)."""


# an edge that follows a border, written with its verb ("THENCE ALONG FIR BOUNDARY") or, in a vertex list, as the
# border's name alone between two points ("… 482628N0213837E  STATE BORDER  482145N0215325E …"); the rules reader's
# vertex lists go on across it too (``rules.patterns.BOUNDARY_GAP``)
BORDER_EDGE = (r"(?:(?:THENCE\s+|THEN\s+)?(?:ALONG|FOLLOWING)\s+(?:THE\s+)?(?P<what>[A-Z/ ]{0,30}?(?:BOUNDARY|BDRY|"
               r"BORDER|COAST(?:LINE)?))|(?:THE\s+)?(?P<bare>(?:STATE|NATIONAL|INTERNATIONAL|COUNTRY)\s+(?:BORDER|BOUNDARY)))")
_ALONG_BORDER = re.compile(rf"\b{BORDER_EDGE}\b", re.IGNORECASE)


_COORDISH = re.compile(
    r"(?<![A-Z0-9])(?:\d{2,}(?:\.\d+)?\s?[NSEW]|[NSEW]\s?\d{2,}(?:\.\d+)?)(?:[\s/,-]*(?:\d{2,}(?:\.\d+)?\s?[NSEW]|"
    r"[NSEW]\s?\d{2,}(?:\.\d+)?))?(?![A-Z0-9])")


def _why_malformed(token: str) -> str:
    """A short diagnosis of a coordinate-looking token that did not read (digit counts per half)."""
    why = []
    for m in re.finditer(r"(\d+)(?:\.\d+)?\s?([NSEW])|([NSEW])\s?(\d+)(?:\.\d+)?", token):
        digits, hemi = (m[1], m[2]) if m[1] else (m[4], m[3])
        if hemi in "NS" and len(digits) not in (4, 6):
            why.append(f"latitude {m[0]!r} has {len(digits)} digits (DDMM or DDMMSS expected)")
        elif hemi in "EW" and len(digits) not in (5, 7):
            why.append(f"longitude {m[0]!r} has {len(digits)} digits (DDDMM or DDDMMSS expected)")
    halves = {h for h in re.findall(r"[NSEW]", token)}
    if not why and not (halves & {"N", "S"} and halves & {"E", "W"}):
        why.append("only one half of a coordinate")
    return "; ".join(why) or "out of range or unreadable"


def ring_self_intersects(points: list[tuple[float, float]]) -> bool:
    """True when the ring's edges cross or touch (a "bow-tie", e.g. rectangle corners listed row by row).

    ``points`` are ``(lat, lon)`` as returned by ``parse_polygon`` (open or closed ring). Longitudes are unwrapped
    vertex to vertex so a ring over the antimeridian is tested in one continuous plane. Fewer than 3 distinct
    points counts as degenerate, i.e. True.
    """
    pts = _unwrapped(points)
    if len({(round(x, 9), round(y, 9)) for x, y in pts}) < 3:
        return True
    return not LinearRing(pts).is_simple


def ring_problems(points: list[tuple[float, float]]) -> list[str]:
    """Human-readable reasons why a ring is not a clean simple polygon (empty list when it is).

    - a vertex repeated (e.g. ``…355434N1292856E-355434N1292856E…``: a vertex was probably lost at the source)
    - edges that cross ("points may be listed corner by corner"), judged with repeated vertices removed
    """
    out = []
    ring = list(points)
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring = ring[:-1]
    seen: dict[tuple[float, float], int] = {}
    for i, p in enumerate(ring):
        key = (round(p[0], 9), round(p[1], 9))
        if key in seen:
            out.append(f"polygon vertex {i + 1} repeats vertex {seen[key] + 1} ({p[0]:.5f}, {p[1]:.5f}); "
                       "a vertex may be missing")
        else:
            seen[key] = i
    distinct = seen_points(ring)
    if len(distinct) >= 3 and ring_self_intersects(distinct):
        out.append("polygon edges cross (points may be listed corner by corner); not reordered")
    return out


# what separates one vertex from the next in a list (a bare line break is layout, not a separator)
_VERTEX_SEP = re.compile(r"[、，,；;]|(?<![A-Za-z])(?:TO|THEN|AND)(?![A-Za-z])|(?<=\s)[-–](?=\s)", re.I)


def list_break(text: str) -> str | None:
    """Why a vertex list may be two lists, else None: it runs over a line break and the separator its points use
    changes there (``c1、c2、c3\nc4；c5；c6围成``, ``c1、c2、c3；\nd1，d2，d3连线围成``), as where one area's line ended
    and the next area's list began. A list wrapped by layout keeps its separator across the break."""
    coords = find_coords(text)
    gaps = [text[a.end : b.start] for a, b in zip(coords, coords[1:])]
    for k, gap in enumerate(gaps):
        if "\n" not in gap:
            continue
        before = {m.group().upper() for g in gaps[:k] for m in _VERTEX_SEP.finditer(g)}
        after = {m.group().upper() for g in gaps[k + 1 :] for m in _VERTEX_SEP.finditer(g)}
        if len(before) == 1 and len(after) == 1 and before != after:
            return (f"the boundary's points run over a line break where their separator changes ('{before.pop()}' "
                    f"then '{after.pop()}'): the next line's points may be another area's; check the message")
    return None


HULL_ORDER_NOTE = ("polygon edges cross as written (corners listed row by row?); every vertex lies on the convex "
                   "hull, so the one simple ring through them, in hull order, is drawn: check it against the message")


def hull_order(points: list[tuple[float, float]]) -> list[tuple[float, float]] | None:
    """The one simple ring through ``points`` when their written order crosses itself and every point is a corner
    of their convex hull (a rectangle listed row by row: NW NE SW SE), else ``None``.

    Points in convex position admit exactly one simple polygon, the hull, so redrawing them in hull order chooses
    nothing the message does not fix. The ring starts at the first written vertex and keeps the written turning
    direction where the hull allows; any point inside the hull, or a repeated vertex, leaves the ring as written."""
    ring = list(points)
    if len(ring) > 1 and ring[0] == ring[-1]:
        ring = ring[:-1]
    if len(ring) < 4 or len(seen_points(ring)) != len(ring) or not ring_self_intersects(ring):
        return None
    xy = _unwrapped(ring)
    hull = MultiPoint(xy).convex_hull
    if hull.geom_type != "Polygon":
        return None
    corners = list(hull.exterior.coords)[:-1]
    if len(corners) != len(ring):
        return None  # a point inside the hull (or three in a line): more than one simple ring is possible
    index = {}
    for i, p in enumerate(xy):
        k = next((j for j, c in enumerate(corners) if abs(c[0] - p[0]) < 1e-12 and abs(c[1] - p[1]) < 1e-12), None)
        if k is None:
            return None
        index[k] = i
    order = [index[k] for k in range(len(corners))]
    start = order.index(0)
    order = order[start:] + order[:start]
    if order[-1] == 1:  # the written second vertex comes last the hull's way round: go the other way
        order = [order[0]] + order[1:][::-1]
    return [ring[i] for i in order]


def seen_points(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """The ring with repeated vertices removed (first occurrence kept), in order."""
    seen: set[tuple[float, float]] = set()
    out = []
    for p in points:
        key = (round(p[0], 9), round(p[1], 9))
        if key not in seen:
            seen.add(key)
            out.append(p)
    return out


def _unwrapped(points: list[tuple[float, float]]) -> list[tuple[float, float]]:
    """``(lat, lon)`` -> ``(x=lon, y=lat)`` with each longitude within 180 degrees of the previous one."""
    out: list[tuple[float, float]] = []
    prev = None
    for lat, lon in points:
        if prev is not None:
            while lon - prev > 180.0:
                lon -= 360.0
            while lon - prev < -180.0:
                lon += 360.0
        out.append((lon, lat))
        prev = lon
    return out


def _leftover(gap: str) -> str:
    """What remains of the text between two points once separators, remarks and filler words are removed."""
    g = _PARENS.sub(" ", clean(gap))
    g = _FRD.sub(" ", g)
    g = _CLOSE.sub(" ", g)
    g = _LABEL.sub(" ", g)
    g = _FILLER.sub(" ", g)
    g = _ENUM.sub(" ", g)
    return _SEPS.sub(" ", g).strip()


def _arc(centre: tuple[float, float], a: tuple[float, float], b: tuple[float, float], radius_m: float | None,
         direction: str | None) -> list[tuple[float, float]]:
    """Intermediate vertices (endpoints excluded) of the arc from ``a`` to ``b`` around ``centre``."""
    clat, clon = centre
    az_a, _, d_a = GEOD.inv(clon, clat, a[1], a[0])
    az_b, _, d_b = GEOD.inv(clon, clat, b[1], b[0])
    cw = (az_b - az_a) % 360.0
    ccw = cw - 360.0
    if direction == "cw":
        sweep = cw
    elif direction == "ccw":
        sweep = ccw
    else:
        sweep = cw if cw <= -ccw else ccw
    if sweep == 0.0 and a != b:
        return []
    n = max(1, math.ceil(abs(sweep) / ARC_STEP_DEG))
    out = []
    for k in range(1, n):
        f = k / n
        dist = radius_m if radius_m is not None else d_a + (d_b - d_a) * f
        lon, lat, _ = GEOD.fwd(clon, clat, az_a + sweep * f, dist)
        out.append((lat, ((lon + 180.0) % 360.0) - 180.0))
    return out


def _full_arc(centre: tuple[float, float], a: tuple[float, float], direction: str | None
              ) -> list[tuple[float, float]]:
    """The vertices after ``a`` of a whole circle around ``centre`` through ``a`` (clockwise unless ``ccw``)."""
    clat, clon = centre
    az_a, _, dist = GEOD.inv(clon, clat, a[1], a[0])
    if dist <= 0:
        raise ValueError("arc centre and start point coincide")
    sign = -1.0 if direction == "ccw" else 1.0
    n = math.ceil(360.0 / ARC_STEP_DEG)
    out = []
    for k in range(1, n):
        lon, lat, _ = GEOD.fwd(clon, clat, az_a + sign * 360.0 * k / n, dist)
        out.append((lat, ((lon + 180.0) % 360.0) - 180.0))
    return out


def _direction(gap: str) -> str | None:
    m = _DIR.search(gap)
    if m is None:
        return None
    word = m.group(1).upper()
    return "ccw" if word.startswith(("ANTI", "COUNTER")) else "cw"


def _radius(gap: str) -> float | None:
    m = _DIST_IN.search(clean(gap))
    return parse_distance_m(m.group(0)) if m else None


# ------------------------------------------------------------------------------------------ sectors, semicircles
# A sector (pie slice) of a circle: a centre, a radius and two bearings, the arc running clockwise from the first
# bearing to the second (ICAO/Doc 8126 usage; "ANTI-CLOCKWISE" reverses it):
#   SECTOR CENTRED ON c RADIUS 10KM BTN BRG 030 AND 120 DEG (TRUE)
#   WI 5NM RADIUS OF c BTN THE 090 AND 180 BRG          SECTOR CENTRE c AZM 030-120 DEG RADIUS 10KM
# A semicircle: "A SEMICIRCLE, P - A CLOCKWISE 3NM ARC CENTERED ON C" (from P half way round C, back across the
# diameter) or "THE NORTHERN SEMICIRCLE OF A CIRCLE RADIUS 5NM CENTRED ON c" (the half north of the centre).
SECTOR_WORD = re.compile(r"\bSECTORS?\b|\bSEMI-?\s?CIRCLE\b|\bHALF[\s-]+CIRCLE\b|扇形|半圆|半圓", re.IGNORECASE)
_SEMI_WORD = re.compile(r"\bSEMI-?\s?CIRCLE\b|\bHALF[\s-]+CIRCLE\b|半圆|半圓", re.IGNORECASE)
_BRG_KW = r"(?:(?:TRUE|MAG(?:NETIC)?)\s+)?(?:BRGS?|BEARINGS?|AZM(?:AG)?|AZIMUTHS?|RDLS?|RADIALS?|QDRS?)"
_BRG_NUM = r"(?P<{0}>\d{{1,3}}(?:\.\d+)?)(?:\s*(?:DEG(?:REES?)?|°))?(?:(?<=\d)[TM]|\s*(?:TRUE|MAG(?:NETIC)?))?(?![A-Z0-9])"
_BRG_SEP = r"\s*(?:(?:CLOCKWISE|CW)\s+)?(?:-|–|\bTO\b|\bAND\b|\bTHRU\b)\s*"
# "BRG 030 AND 120", "BTN BRG 030 AND BRG 120 DEG", "AZM 030-120 DEG", "BTN THE 090 AND 180 BRG", "RDL 090-180"
BEARINGS = re.compile(
    rf"{_BRG_KW}\s*:?\s*(?:(?:BTN|BETWEEN|FROM|FM)\s+)?{_BRG_NUM.format('a')}{_BRG_SEP}(?:{_BRG_KW}\s*)?"
    rf"{_BRG_NUM.format('b')}"
    rf"|(?:BTN|BETWEEN|FROM|FM)\s+(?:THE\s+)?{_BRG_NUM.format('a2')}{_BRG_SEP}(?:THE\s+)?{_BRG_NUM.format('b2')}"
    rf"\s*(?:DEG(?:REES?)?\s+)?(?:{_BRG_KW})",
    re.IGNORECASE,
)
HALF_DIR = re.compile(
    r"\b(?P<d>NORTH|SOUTH|EAST|WEST)(?:ERN)?\s+(?:SEMI-?\s?CIRCLE|HALF)\b|\b(?:SEMI-?\s?CIRCLE|HALF)\s+(?P<d2>NORTH|SOUTH|EAST|WEST)\b",
    re.IGNORECASE)
_HALF_BEARINGS = {"NORTH": (270.0, 90.0), "EAST": (0.0, 180.0), "SOUTH": (90.0, 270.0), "WEST": (180.0, 360.0)}
_SECTOR_DIST = r"(?<![\d.])(?:\d+(?:\.\d+)?|\.\d+)\s*(?:NM|KM|M|MTR|公里|千米|米)(?![A-Za-z])"  # never from inside a number
_SECTOR_RADIUS = re.compile(
    rf"RADIUS\s*(?:OF\s*)?[:=-]?\s*(?P<a>{_SECTOR_DIST})|(?P<b>{_SECTOR_DIST})\s*(?:RADIUS|ARC)\b"
    rf"|\b(?:WI|WITHIN)\s+(?:AN?\s+)?(?P<c>{_SECTOR_DIST})|半[径徑]\s*(?P<d>{_SECTOR_DIST})",
    re.IGNORECASE)
_MAG = re.compile(r"\bMAG(?:NETIC)?\b|\bAZMAG\b|\bRDLS?\b|\bRADIALS?\b|\bQDRS?\b", re.IGNORECASE)
_TRUE = re.compile(r"\bTRUE\b", re.IGNORECASE)


# "EXC A CIRCLE RADIUS 1.5NM CENTERED ON" right after a semicircle's centre, before the same centre again
EXC_SAME_CIRCLE = re.compile(
    r"\s*EXC(?:EPT|L|LUDING)?\.?\s+(?:A\s+)?CIRCLE\s+(?:WITH\s+)?(?:A\s+)?RADIUS\s+(?:OF\s+)?"
    r"(?P<r>(?:\d+(?:\.\d+)?|\.\d+)\s*(?:NM|KM|M))\s+CENT(?:ERED|RED|ER|RE)\s+(?:ON|AT)\s*:?\s*",
    re.IGNORECASE)


def is_sector(text: str) -> bool:
    """Whether a polygon span describes a sector or semicircle (``parse_sector`` reads it): the word, or two
    bounding bearings around a single centre."""
    t = clean(text)
    if not (SECTOR_WORD.search(t) or BEARINGS.search(t)):
        return False
    n = len(find_coords(t))
    # one centre; a semicircle from a point: start point and centre (and the centre again when its circle is cut out)
    return n == 1 or (_SEMI_WORD.search(t) is not None and n in (2, 3))


def _bearings(text: str) -> tuple[float, float]:
    m = BEARINGS.search(text)
    if m is None:
        raise ValueError("sector without its two bounding bearings")
    a, b = (float(m["a"]), float(m["b"])) if m["a"] is not None else (float(m["a2"]), float(m["b2"]))
    if a > 360 or b > 360:
        raise ValueError(f"bearing out of range in {m.group(0)!r}")
    return a % 360.0, b % 360.0


def _sector_radius(text: str) -> float:
    if not _SECTOR_RADIUS.search(text):
        raise ValueError("sector or semicircle without a radius")
    found = {parse_distance_m(m.group(0)) for m in re.finditer(_SECTOR_DIST, text, re.IGNORECASE)}
    if len(found) > 1:
        raise ValueError("sector with more than one radius (an annulus?) is not read: "
                         + ", ".join(f"{r:g} m" for r in sorted(found)))
    return found.pop()


_RADII = re.compile(
    rf"(?:BTN|BETWEEN|FROM|FM)\s+(?P<r1>{_SECTOR_DIST})\s*(?:-|\bAND\b|\bTO\b|\bUP\s+TO\b)\s*(?P<r2>{_SECTOR_DIST})",
    re.IGNORECASE)


def _distance0(text: str) -> float:
    """A distance in metres where ``0NM`` (the centre itself, "FM 0NM UP TO 1NM") is allowed."""
    return 0.0 if float(re.match(r"[\d.]+", text.strip()).group()) == 0 else parse_distance_m(text)


def _annulus_sector(t: str, centre: tuple[float, float], ccw: bool) -> list[tuple[float, float]] | None:
    """``SECTOR … BTN 5NM AND 10NM … BTN BRG 030 AND 120``: the part of the sector between two radii (None when the
    span states no pair of radii)."""
    m = _RADII.search(t)
    if m is None or not BEARINGS.search(t):
        return None
    r1, r2 = sorted((_distance0(m["r1"]), _distance0(m["r2"])))
    others = {_distance0(x.group(0)) for x in re.finditer(_SECTOR_DIST, t, re.IGNORECASE)} - {r1, r2}
    if others or r2 <= 0:
        raise ValueError("sector with radii other than its inner and outer one is not read")
    a, b = _bearings(t)
    outer = _pie(centre, r2, a, b, ccw)[1:]
    if r1 == 0:
        return [centre] + outer
    return outer + list(reversed(_pie(centre, r1, a, b, ccw)[1:]))


def _pie(centre: tuple[float, float], radius_m: float, a: float, b: float, ccw: bool
         ) -> list[tuple[float, float]]:
    """Centre, then the arc from bearing ``a`` to ``b`` (clockwise unless ``ccw``), endpoints included."""
    sweep = (a - b) % 360.0 if ccw else (b - a) % 360.0
    if sweep == 0.0:
        raise ValueError(f"sector bearings {a:g} and {b:g} enclose nothing")
    sign = -1.0 if ccw else 1.0
    n = max(2, math.ceil(sweep / ARC_STEP_DEG))
    clat, clon = centre
    out = [centre]
    for k in range(n + 1):
        lon, lat, _ = GEOD.fwd(clon, clat, a + sign * sweep * k / n, radius_m)
        out.append((lat, ((lon + 180.0) % 360.0) - 180.0))
    return out


def parse_sector(text: str) -> list[tuple[float, float]]:
    """The ring ``(lat, lon)`` of a sector or semicircle span (see ``SECTOR_WORD`` / ``BEARINGS``).

    - semicircle from a point: ``SEMICIRCLE, P - A CLOCKWISE 3NM ARC CENTERED ON C``: P, the half-turn arc round C
      (the stated direction; clockwise when none is written, flagged by ``sector_notes``), back across the diameter;
      with ``EXC A CIRCLE RADIUS r CENTERED ON C`` (the same centre) back along that circle instead (a half annulus);
    - half a circle by compass side: ``NORTHERN SEMICIRCLE OF … RADIUS 5NM CENTRED ON c``;
    - sector: one centre, one radius, two bearings (clockwise from the first unless ANTI-/COUNTER-CLOCKWISE).

    ``ValueError`` naming what is missing (centre, radius, bearings) or ambiguous (two radii, several centres).
    """
    t = clean(text)
    found = find_coords(t)
    direction = _direction(t)
    inner = None
    if (_SEMI_WORD.search(t) and len(found) == 3 and _ARC.search(t[found[0].end:found[1].start])
            and (m := EXC_SAME_CIRCLE.fullmatch(t, found[1].end, found[2].start))
            and abs(found[2].lat - found[1].lat) < 1e-9 and abs(found[2].lon - found[1].lon) < 1e-9):
        inner = parse_distance_m(m["r"])  # "… EXC A CIRCLE RADIUS 1.5NM CENTERED ON C": the same centre
        found = found[:2]
    if _SEMI_WORD.search(t) and len(found) == 2 and _ARC.search(t[found[0].end:found[1].start]):
        p, c = (found[0].lat, found[0].lon), (found[1].lat, found[1].lon)
        az, _, dist = GEOD.inv(c[1], c[0], p[1], p[0])
        if dist <= 0:
            raise ValueError("semicircle start point and centre coincide")
        radius = _radius(t[found[0].end:found[1].start])
        if radius is not None and abs(radius - dist) > max(0.05 * radius, 200.0):
            raise ValueError(f"semicircle start point is {dist:.0f} m from the centre, not the stated "
                             f"{radius:.0f} m radius")
        ring = _pie(c, dist, az, az + 180.0, direction == "ccw")[1:]
        if inner is not None:
            if not 0 < inner < dist:
                raise ValueError(f"excluded circle of {inner:.0f} m is not inside the {dist:.0f} m semicircle")
            # a half annulus: back along the excluded circle's edge instead of across the centre
            ring += list(reversed(_pie(c, inner, az, az + 180.0, direction == "ccw")[1:]))
        return ring
    if len(found) != 1:
        raise ValueError(f"a sector needs exactly one centre coordinate, found {len(found)}")
    centre = (found[0].lat, found[0].lon)
    ring = _annulus_sector(t, centre, direction == "ccw")
    if ring is not None:
        return ring
    radius = _sector_radius(t)
    half = HALF_DIR.search(t)
    if half and _SEMI_WORD.search(t) and not BEARINGS.search(t):
        a, b = _HALF_BEARINGS[(half["d"] or half["d2"]).upper()]
        return _pie(centre, radius, a, b, False)
    a, b = _bearings(t)
    return _pie(centre, radius, a, b, direction == "ccw")


def sector_notes(text: str) -> list[str]:
    """Review reasons for a sector/semicircle span read by ``parse_sector`` (empty when nothing is doubtful):
    bearings without a TRUE/MAG reference, magnetic bearings (drawn as true: the variation is not applied), a
    semicircle arc without a stated direction."""
    t = clean(text)
    out = []
    m = BEARINGS.search(t)
    if m is not None:
        if _MAG.search(t) or re.search(r"\d\s?M\b", m.group(0)):  # "090M": magnetic
            out.append(f"sector bearings are magnetic ({m.group(0).strip()}); drawn as true bearings "
                       "(the magnetic variation is not applied)")
        elif not (_TRUE.search(t) or re.search(r"\d\s?T\b", m.group(0))):
            out.append(f"sector bearings ({m.group(0).strip()}) state no TRUE/MAG reference; read as true, "
                       "clockwise from the first")
    found = find_coords(t)
    if (_SEMI_WORD.search(t) and len(found) == 2 and _ARC.search(t[found[0].end:found[1].start])
            and _direction(t) is None):
        out.append("semicircle arc direction not stated; drawn clockwise")
    return out


def parse_polygon(text: str) -> list[tuple[float, float]]:
    """The boundary points ``(lat, lon)`` of a polygon span, arcs densified, as an open ring (>= 3 points)."""
    if not isinstance(text, str) or not text.strip():
        raise ValueError("empty polygon")
    if is_sector(text):
        return parse_sector(text)
    found: list[CoordMatch] = find_coords(text)
    if len(found) == 2 and _ARC.search(text[found[0].end:found[1].start]) and _CLOSE.search(text[found[1].end:]):
        # "A THEN COUNTERCLOCKWISE ON A 4.2 NM ARC CENTERED ON C TO THE POINT OF ORIGIN": a full circle through A
        gap = text[found[0].end:found[1].start]
        if not _CENTRE_TAIL.search(re.sub(r"[\s:]+$", "", clean(gap))):
            raise ValueError(f"arc without a coordinate centre: {' '.join(gap.split())[:60]!r}")
        if _leftover(text[found[1].end:]) or _leftover(text[:found[0].start]):
            raise ValueError("boundary point(s) or path without coordinates: "
                             f"{_leftover(text[:found[0].start]) or _leftover(text[found[1].end:])}")
        a, centre = (found[0].lat, found[0].lon), (found[1].lat, found[1].lon)
        return [a] + _full_arc(centre, a, _direction(gap))
    if len(found) < 3:
        bounds = [0] + [x for c in found for x in (c.start, c.end)] + [len(text)]
        for k in range(0, len(bounds), 2):
            if (bad := _COORDISH.search(" ".join(_leftover(text[bounds[k]:bounds[k + 1]]).split()))) is not None:
                raise MalformedVertex(f"malformed boundary coordinate {bad.group(0)!r}: {_why_malformed(bad.group(0))}",
                                      bad.group(0), [(c.lat, c.lon) for c in found])
        raise ValueError(f"a polygon needs at least 3 points, found {len(found)}")
    named: list[tuple[int, str]] = []
    lead = text[: found[0].start]
    lead_left = _leftover(lead)
    if lead_left and re.search(r"(?:-|\bTO)\s*$", clean(lead).upper()):
        named.append((0, lead_left))
    tail = text[found[-1].end :]
    tail_left = _leftover(tail)
    if tail_left and re.match(r"^\s*(?:-|TO\b)", clean(tail).upper()):
        named.append((found[-1].end, tail_left))

    points: list[tuple[float, float]] = [(found[0].lat, found[0].lon)]
    borders: list[str] = []
    i = 0
    while i < len(found) - 1:
        gap = text[found[i].end : found[i + 1].start]
        if _ARC.search(gap):
            if not _CENTRE_TAIL.search(re.sub(r"[\s:]+$", "", clean(gap))):
                raise ValueError(f"arc without a coordinate centre: {' '.join(gap.split())[:60]!r}")
            centre = (found[i + 1].lat, found[i + 1].lon)
            a = (found[i].lat, found[i].lon)
            b_idx = i + 2
            b = (found[b_idx].lat, found[b_idx].lon) if b_idx < len(found) else (found[0].lat, found[0].lon)
            after = text[found[i + 1].end : found[b_idx].start] if b_idx < len(found) else ""
            after = BEARINGS.sub(" ", clean(after))  # "CENTRED ON C FROM BRG 090 TO BRG 180 - D": the arc's extent
            # the direction before the centre ("CLOCKWISE ARC … CENTRED ON C TO B") or after it ("AN ARC OF 5,9NM
            # RADIUS CENTRED ON C COUNTER CLOCKWISE UP TO B")
            direction = _direction(gap) or _direction(after)
            after = _DIR.sub(" ", after)
            if _leftover(after):
                named.append((found[i + 1].end, _leftover(after)))
            radius_m = _radius(gap)
            if radius_m is None and re.search(r"\d", clean(gap)):
                # a radius is written but not read: the endpoints' own distances would draw another arc
                raise ValueError(f"arc radius not read: {' '.join(gap.split())[:60]!r}")
            points.extend(_arc(centre, a, b, radius_m, direction))
            if b_idx < len(found):
                points.append(b)
            i = b_idx
            continue
        border = _ALONG_BORDER.search(gap)
        left = _leftover(_ALONG_BORDER.sub(" ", gap) if border else gap)
        if left:
            named.append((found[i].end, left))
        if border:
            what = " ".join((border["what"] or border["bare"]).split()).upper()
            borders.append(f"along the {what} from {found[i].text.strip()} to "
                           f"{found[i + 1].text.strip()}")
        points.append((found[i + 1].lat, found[i + 1].lon))
        i += 1
    while len(points) > 1 and math.isclose(points[-1][0], points[0][0], abs_tol=1e-9) and math.isclose(
        points[-1][1], points[0][1], abs_tol=1e-9
    ):
        points.pop()
    for part in (lead_left, tail_left):  # a malformed first/last vertex ("…, 365852N-351722E")
        if part and (bad := _COORDISH.search(" ".join(part.split()))) is not None:
            token = bad.group(0)
            raise MalformedVertex(f"malformed boundary coordinate {token!r}: {_why_malformed(token)}", token, points)
    if named:
        for _, n in sorted(named):
            if (bad := _COORDISH.search(" ".join(n.split()))) is not None:
                token = bad.group(0)
                raise MalformedVertex(f"malformed boundary coordinate {token!r}: {_why_malformed(token)}", token,
                                      points)
        names = "; ".join(" ".join(n.split()) for _, n in sorted(named))
        raise ValueError(f"boundary point(s) or path without coordinates: {names}")
    if len({(round(p[0], 9), round(p[1], 9)) for p in points}) < 3:
        raise ValueError("a polygon needs at least 3 distinct points")
    if borders:
        raise PathApproximated("the boundary runs " + "; ".join(borders) + ", whose shape the message does not give: "
                               "drawn as a straight edge (approximate)", "", points)
    return points


_EITHER_SIDE = re.compile(
    r"(?<![\d.])(?P<w>(?:\d+(?:\.\d+)?|\.\d+)\s*(?:NM|KM|M|MTR|FT|公里|千米|米))\s+(?:EITHER|EACH|BOTH)\s+SIDES?\s+OF\s+"
    r"(?:THE\s+|AN?\s+)?(?:(?:STRAIGHT\s+)?LINES?|CENT(?:RE|ER)\s?LINE|ROUTE|TRACK|COURSE)?"
    r"(?:\s+(?:JOINING|BETWEEN|FROM|FM|DEFINED\s+BY|CONNECTING|THROUGH))?",
    re.IGNORECASE)


def corridor_polygon(line: list[tuple[float, float]], half_width_m: float, quad_segs: int = 16
                     ) -> list[tuple[float, float]]:
    """The area within ``half_width_m`` either side of a line ``[(lat, lon), ...]`` -> an open ring ``(lat, lon)``.

    "Either side of line A-B" is read literally: flat ends at A and B (no half-discs beyond them), rounded outer
    corners where the line bends. The buffer is built in an azimuthal-equidistant plane centred on the line and
    widened by that plane's largest cross-radial stretch on the corridor, so it is never narrower than stated (wider
    by under a metre for corridors of a few tens of km, by ~0.3 % at 800 km from the centre); chords of the rounded
    corners lie inside the true arc by at most ``w * (1 - cos(pi / (4 * quad_segs)))`` (0.05 % of the width at 16).
    """
    if half_width_m is None or not half_width_m > 0:
        raise ValueError(f"corridor half-width must be positive, got {half_width_m!r}")
    pts = [(float(a), float(b)) for a, b in line]
    if len({(round(a, 9), round(b, 9)) for a, b in pts}) < 2:
        raise ValueError("a corridor needs a line of at least 2 distinct points")
    lat0 = sum(p[0] for p in pts) / len(pts)
    xs = _unwrapped(pts)
    lon0 = sum(x for x, _ in xs) / len(xs)
    aeqd = CRS.from_proj4(f"+proj=aeqd +lat_0={lat0} +lon_0={lon0} +datum=WGS84 +units=m")
    fwd = Transformer.from_crs("EPSG:4326", aeqd, always_xy=True)
    inv = Transformer.from_crs(aeqd, "EPSG:4326", always_xy=True)
    plane = [fwd.transform(lon, lat) for lon, lat in xs]
    # the plane stretches distances across the radial direction by k = c / sin(c) (c: angular distance from its
    # centre), so a buffer drawn in it is too narrow on the ground far from the centre: widen it by the largest k
    # on the corridor, so that it is never narrower than stated (at most that much wider near the centre)
    c = (max(math.hypot(x, y) for x, y in plane) + half_width_m) / 6_371_008.8
    stretch = c / math.sin(c) if c > 1e-9 else 1.0
    area = LineString(plane).buffer(half_width_m * stretch, quad_segs=quad_segs, cap_style="flat", join_style="round")
    ring = list(area.exterior.coords)[:-1]
    out = []
    for x, y in ring:
        lon, lat = inv.transform(x, y)
        out.append((lat, ((lon + 180.0) % 360.0) - 180.0))
    return out


def parse_corridor(text: str) -> tuple[list[tuple[float, float]], float]:
    """``1NM EITHER SIDE OF LINE 355540N1292941E-355539N1293055E`` -> ``(line points, half-width in metres)``.

    The width phrase comes first and the line's points (2 or more, written like polygon points) after it;
    ``ValueError`` otherwise. Pass the result to ``corridor_polygon``.
    """
    if not isinstance(text, str):
        raise ValueError("not a corridor")
    m = _EITHER_SIDE.search(clean(text))
    if m is None:
        raise ValueError(f"no 'n NM EITHER SIDE OF' phrase in {' '.join(text.split())[:60]!r}")
    width = parse_distance_m(m.group("w"))
    found = find_coords(text)
    line = [(c.lat, c.lon) for c in found if c.start >= m.end()]
    if len(line) < 2:
        raise ValueError(f"a corridor needs at least 2 line points after the width, found {len(line)}")
    return line, width


# a web feed's HTML tags inside a vertex list (``…088-25.30W, <br>\n   15-59.83N …``) are layout: blanked, same length
_MARKUP = re.compile(r"</?(?:br|b|p|i|u|em|strong|span|div|font|pre)\b[^<>\n]{0,40}>", re.IGNORECASE)
_IS_CORRIDOR = re.compile(r"\b(?:EITHER|EACH|BOTH)\s+SIDES?\s+OF\b", re.IGNORECASE)


def is_corridor(text: str) -> bool:
    """Whether ``text`` describes a buffered line (``1NM EITHER SIDE OF LINE a-b``)."""
    return isinstance(text, str) and _IS_CORRIDOR.search(text) is not None


def area_points(text: str) -> list[tuple[float, float]]:
    """An area span as its ring ``(lat, lon)``: ``1NM EITHER SIDE OF LINE a-b`` is the buffered line
    (``parse_corridor`` + ``corridor_polygon``), anything else a polygon (``parse_polygon``, which raises
    ``MalformedVertex`` for an unreadable vertex). ``ValueError`` when it reads as neither."""
    if is_corridor(text):
        line, half_width = parse_corridor(text)
        return corridor_polygon(line, half_width)
    return parse_polygon(_MARKUP.sub(lambda m: " " * len(m.group()), text))

