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
