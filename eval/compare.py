"""Compare a normalised record with a gold zone: the one definition of "record right" for tests and benchmarks.

A gold zone is a plain dict (what the corpus generator writes by construction, what the sample
``*.expected.jsonl`` files hold)::

    {"geometry": {"type": "circle", "center": [lat, lon], "radius_m": r}
               | {"type": "polygon", "points": [[lat, lon], ...]}
               | {"type": "named", "name": "..."},
     "lower": {"ref": "SFC", "ft": 0} | null, "upper": {"ref": "FL", "ft": 13000} | null,
     "start": "YYYY-MM-DDTHH:MM:SSZ" | null, "end": ... | null, "schedule": "..." | null}

Keys absent from the gold zone are not compared, so a gold zone may state only what it knows.
"""

from __future__ import annotations

import math

from airspace.core.records import NM_TO_M, ZoneRecord, iso_utc

COORD_TOL_DEG = 1e-5  # about 1 m: the normalisers' arithmetic is exact, this only absorbs rounding of the gold
RADIUS_TOL_M = 0.5
LIMIT_TOL_FT = 0.5


def _close(a: float | None, b: float | None, tol: float) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return math.isclose(a, b, abs_tol=tol)


def _same_point(p, q) -> bool:
    return _close(p[0], q[0], COORD_TOL_DEG) and _close(p[1], q[1], COORD_TOL_DEG)


def _same_ring(points, gold) -> bool:
    """Same vertices in the same cyclic order; the start vertex and a closing duplicate do not matter."""
    a = [tuple(p) for p in points]
    b = [tuple(p) for p in gold]
    for ring in (a, b):
        if len(ring) > 1 and _same_point(ring[0], ring[-1]):
            ring.pop()
    if len(a) != len(b):
        return False
    if not a:
        return True
    for shift in range(len(a)):
        if all(_same_point(a[(i + shift) % len(a)], b[i]) for i in range(len(b))):
            return True
    return False


def geometry_diff(record: ZoneRecord, gold: dict | None) -> str | None:
    geom = record.geometry
    if gold is None:
        return None if geom is None else f"geometry: expected none, got {geom.type}"
    if geom is None:
        return f"geometry: expected {gold['type']}, got none"
    if gold["type"] == "named" and geom.type == "circle" and geom.approximate:
        # an aerodrome named as the location resolves (offline) to an approximate circle at its reference point
        from airspace.parser.places import resolve_icao

        where = resolve_icao(gold["name"].strip())
        if where is not None and _same_point(geom.center, where):
            return None
    if geom.type != gold["type"]:
        return f"geometry: expected {gold['type']}, got {geom.type}"
    if geom.type == "circle":
        if not _same_point(geom.center, gold["center"]):
            return f"centre: expected {gold['center']}, got {list(geom.center)}"
        if not _close(geom.radius_m, gold["radius_m"], RADIUS_TOL_M):
            return f"radius: expected {gold['radius_m']} m, got {geom.radius_m} m"
    elif geom.type == "polygon":
        if not _same_ring(geom.points, gold["points"]):
            return f"polygon: expected {len(gold['points'])} points {gold['points'][:2]}..., got {len(geom.points)}"
    elif geom.type == "named":
        if geom.name.strip() != gold["name"].strip():
            return f"name: expected {gold['name']!r}, got {geom.name!r}"
    return None


def limit_diff(field: str, got, gold: dict | None) -> str | None:
    if gold is None:
        # the pipeline states an unstated floor as an implied surface (raw "" and a note): that is "none" stated
        implied_surface = got is not None and got.raw == "" and got.ref in ("SFC", "GND") and not got.ft
        return None if got is None or implied_surface else f"{field}: expected none, got {got.raw!r}"
    if got is None:
        return f"{field}: expected {gold['ref']} {gold.get('ft')}, got none"
    if got.ref != gold["ref"] or not _close(got.ft, gold.get("ft"), LIMIT_TOL_FT):
        return f"{field}: expected {gold['ref']} {gold.get('ft')} ft, got {got.ref} {got.ft} ft"
    return None


def record_diffs(record: ZoneRecord, gold: dict) -> list[str]:
    """Every field of ``gold`` that ``record`` gets wrong, as readable strings (empty list = right)."""
    diffs: list[str] = []
    if "geometry" in gold and (d := geometry_diff(record, gold["geometry"])):
        diffs.append(d)
    for field in ("lower", "upper"):
        if field in gold and (d := limit_diff(field, getattr(record, field), gold[field])):
            diffs.append(d)
    for field in ("start", "end"):
        if field in gold:
            got = iso_utc(getattr(record, field))
            if got != gold[field]:
                diffs.append(f"{field}: expected {gold[field]}, got {got}")
    if gold.get("schedule") is not None and (record.schedule or "").split() != gold["schedule"].split():
        diffs.append(f"schedule: expected {gold['schedule']!r}, got {record.schedule!r}")
    if "status" in gold and record.status != gold["status"]:
        diffs.append(f"status: expected {gold['status']}, got {record.status} ({'; '.join(record.reasons)})")
    return diffs


def records_right(records: list[ZoneRecord], gold_zones: list[dict]) -> tuple[int, list[str]]:
    """How many gold zones of ONE message are matched by the records in order, and the diffs of the rest."""
    right, problems = 0, []
    if len(records) != len(gold_zones):
        problems.append(f"zone count: expected {len(gold_zones)}, got {len(records)}")
    for i, gold in enumerate(gold_zones):
        if i >= len(records):
            problems.append(f"zone {i}: missing")
            continue
        diffs = record_diffs(records[i], gold)
        if diffs:
            problems.extend(f"zone {i}: {d}" for d in diffs)
        else:
            right += 1
    return right, problems


def gold_from_dev_truth(truth: dict) -> dict:
    """Convert a dev.jsonl ``truth`` (degrees, NM, feet) into a gold zone dict."""
    gold: dict = {}
    if truth.get("center"):
        gold["geometry"] = {
            "type": "circle",
            "center": [truth["center"]["lat"], truth["center"]["lon"]],
            "radius_m": truth["radius_nm"] * NM_TO_M,
        }
    elif truth.get("polygon"):
        gold["geometry"] = {"type": "polygon", "points": truth["polygon"]}
    elif truth.get("center_name"):
        # "大連梭魚灣足球場 (Dalian Suoyuwan football stadium) - needs geocoding": the name is the part before " ("
        gold["geometry"] = {"type": "named", "name": truth["center_name"].split(" (")[0]}
    for field in ("lower", "upper"):
        if field in truth:
            lim = truth[field]
            gold[field] = None if lim is None else {"ref": lim["ref"], "ft": lim.get("value_ft")}
    for field, key in (("start", "start_utc"), ("end", "end_utc")):
        if key in truth:
            gold[field] = truth[key]
    return gold


# ---------------------------------------------------------------------------- the world set's truth zones
SURFACE_REFS = ("SFC", "GND")  # both the surface: an operator draws them the same, and prose says either


def place_names(center_name: str) -> list[str]:
    """The names a truth place goes by: as written, the part before a trailing `` (…)``, and the part inside it
    (``TEMORA AD (YTEM)``: ``TEMORA AD`` and ``YTEM``; ``大連梭魚灣足球場 (Dalian … stadium)``: the gloss too)."""
    names = [center_name.strip()]
    head, sep, tail = center_name.partition(" (")
    if sep and tail.endswith(")"):
        names += [head.strip(), tail[:-1].strip()]
    return [n for i, n in enumerate(names) if n and n not in names[:i]]


def place_key(name: str) -> str:
    """A place name compared as a reader would: Unicode-normalised (NFKC), case-folded, blanks collapsed, quotes and
    punctuation around it dropped, and a leading English article dropped (``the Phoenix Park``). Nothing inside the
    name is dropped: a clause that merely contains the place is another name."""
    import unicodedata

    s = " ".join(unicodedata.normalize("NFKC", name).casefold().split())
    while s and unicodedata.category(s[0])[0] in "PZ":
        s = s[1:]
    while s and unicodedata.category(s[-1])[0] in "PZ":
        s = s[:-1]
    return s[4:] if s.startswith("the ") else s


def gold_from_world_zone(zone: dict) -> dict:
    """A world-set truth zone (``data/real/world_*.jsonl``) as a gold zone.

    Geometry: the zone's coordinates when it has any (a centre and radius is a circle; a position written without a
    radius is a circle of radius 0; a polygon keeps its ``arc`` when one of its sides is an arc), else its named
    place: ``{"type": "named", "names": place_names(...), "radius_m": r | None}``. Limits and times as
    ``gold_from_dev_truth``."""
    gold: dict = {}
    if zone.get("center"):
        r = zone.get("radius_nm")
        gold["geometry"] = {"type": "circle", "center": [zone["center"]["lat"], zone["center"]["lon"]],
                            "radius_m": 0.0 if r is None else r * NM_TO_M}
    elif zone.get("polygon"):
        gold["geometry"] = {"type": "polygon", "points": zone["polygon"]}
        if isinstance(zone.get("arc"), dict):  # one arc side; a polygon of several arcs is scored on its vertices
            gold["geometry"]["arc"] = zone["arc"]
    elif zone.get("center_name"):
        r = zone.get("radius_nm")
        gold["geometry"] = {"type": "named", "name": zone["center_name"], "names": place_names(zone["center_name"]),
                            "radius_m": None if r is None else r * NM_TO_M}
    else:
        gold["geometry"] = None
    for field in ("lower", "upper"):
        lim = zone.get(field)
        gold[field] = None if lim is None else {"ref": lim["ref"], "ft": lim.get("value_ft")}
    gold["start"] = zone.get("start_utc")
    gold["end"] = zone.get("end_utc")
    return gold


def _named_place_diff(record: ZoneRecord, gold: dict) -> str | None:
    """A named place is right when the record names the place itself (``place_key`` equal to one of its names) or,
    for an aerodrome, draws the approximate circle at its reference point; with the stated radius when one is."""
    geom = record.geometry
    if geom is None:
        return f"geometry: expected named {gold['name']!r}, got none"
    if geom.type == "circle" and geom.approximate:
        from airspace.parser.places import resolve_icao

        if not any((p := resolve_icao(n)) is not None and _same_point(geom.center, p) for n in gold["names"]):
            return f"geometry: expected named {gold['name']!r}, got a circle at {list(geom.center)}"
        if gold["radius_m"] is not None and not _close(geom.radius_m, gold["radius_m"], RADIUS_TOL_M):
            return f"radius: expected {gold['radius_m']} m, got {geom.radius_m} m"
        return None
    if geom.type != "named":
        return f"geometry: expected named {gold['name']!r}, got {geom.type}"
    if place_key(geom.name) not in {place_key(n) for n in gold["names"]}:
        return f"name: expected {gold['name']!r}, got {geom.name!r}"
    if not _close(geom.radius_m, gold["radius_m"], RADIUS_TOL_M):
        return f"radius: expected {gold['radius_m']} m around {gold['name']!r}, got {geom.radius_m}"
    return None


def _arc_diff(record: ZoneRecord, gold: dict) -> str | None:
    """A polygon with an arc side: the truth densifies the arc its own way, so the record is right when every
    vertex the truth states (those not strictly inside the arc) is on the record's ring in order, and the record's
    vertices between the arc's ends lie on the arc (its radius within ``RADIUS_TOL_M`` of the centre, geodesic
    WGS84, swept in the stated direction), at least one of them."""
    from pyproj import Geod

    geom = record.geometry
    if geom is None or geom.type != "polygon":
        return f"geometry: expected polygon with an arc, got {geom.type if geom else 'none'}"
    arc, pts = gold["arc"], [tuple(p) for p in gold["points"]]
    i_from = next(i for i, p in enumerate(pts) if _same_point(p, arc["from"]))
    i_to = next(i for i, p in enumerate(pts) if _same_point(p, arc["to"]))
    inside = set()
    i = (i_from + 1) % len(pts)
    while i != i_to:
        inside.add(i)
        i = (i + 1) % len(pts)
    stated = [p for i, p in enumerate(pts) if i not in inside]
    ring = [tuple(p) for p in geom.points]
    if len(ring) > 1 and _same_point(ring[0], ring[-1]):
        ring.pop()
    idx = [next((i for i, q in enumerate(ring) if _same_point(q, p)), None) for p in stated]
    if None in idx:
        return f"polygon: a stated vertex of the arc polygon is missing ({stated[idx.index(None)]})"
    start = idx.index(min(idx))
    order = idx[start:] + idx[:start]
    if order != sorted(order):
        return "polygon: the stated vertices are out of order"
    a, b = idx[stated.index(pts[i_from])], idx[stated.index(pts[i_to])]
    between = []
    i = (a + 1) % len(ring)
    while i != b:
        between.append(ring[i])
        i = (i + 1) % len(ring)
    if not between:
        return "polygon: the arc is drawn as a straight side"
    geod = Geod(ellps="WGS84")
    c, r = (arc["center"]["lat"], arc["center"]["lon"]), arc["radius_nm"] * NM_TO_M
    for p in between:
        dist = geod.inv(c[1], c[0], p[1], p[0])[2]
        if not _close(dist, r, RADIUS_TOL_M):
            return f"polygon: an arc vertex {list(p)} is {dist:.1f} m from the centre, not {r:.1f} m"
    az = [geod.inv(c[1], c[0], p[1], p[0])[0] % 360.0 for p in [ring[a], *between, ring[b]]]
    sign = 1.0 if arc.get("direction", "clockwise") == "clockwise" else -1.0
    steps = [(sign * (q - p)) % 360.0 for p, q in zip(az, az[1:])]
    if any(s > 180.0 for s in steps) or not math.isclose(sum(steps), (sign * (az[-1] - az[0])) % 360.0, abs_tol=1e-6):
        return f"polygon: the arc is not swept {arc.get('direction', 'clockwise')} from its start to its end"
    return None


def world_geometry_diff(record: ZoneRecord, gold: dict | None) -> str | None:
    """``geometry_diff`` for a ``gold_from_world_zone`` geometry: named places and arcs by their own rules."""
    if gold is not None and gold["type"] == "named":
        return _named_place_diff(record, gold)
    if gold is not None and gold.get("arc"):
        return _arc_diff(record, gold)
    return geometry_diff(record, gold)


def world_limit_diff(field: str, got, gold: dict | None) -> str | None:
    """``limit_diff`` with SFC and GND the same surface."""
    if gold is not None and got is not None and gold["ref"] in SURFACE_REFS and got.ref in SURFACE_REFS:
        gold = dict(gold, ref=got.ref)
    return limit_diff(field, got, gold)


def world_field_diffs(record: ZoneRecord, gold: dict) -> dict[str, str | None]:
    """Each of the five truth fields of a world zone: ``None`` when ``record`` has it right, else what is wrong."""
    out = {"geometry": world_geometry_diff(record, gold["geometry"]),
           "lower": world_limit_diff("lower", record.lower, gold["lower"]),
           "upper": world_limit_diff("upper", record.upper, gold["upper"])}
    for field in ("start", "end"):
        got = iso_utc(getattr(record, field))
        out[field] = None if got == gold[field] else f"{field}: expected {gold[field]}, got {got}"
    return out
