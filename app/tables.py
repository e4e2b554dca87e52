"""The page's tables as plain rows: the records table, the compact zone list beside the map, route conflicts, the
records that have no place on the map and why, and comparing two engines' records.

Numbers shown to a person are 1-based everywhere on the page (message 1 is the batch's first message, zone 1 its
first zone, leg 1 runs from waypoint 1 to waypoint 2); the ``key`` that ties a row to its volume (``"message:zone"``,
0-based like the records' JSON fields) is internal and not displayed. Times are UTC date and time. No Streamlit in
here, so each piece is tested directly."""

from __future__ import annotations

import json
from collections.abc import Iterable, Sequence
from datetime import datetime, timezone

import pandas as pd

from airspace.core.records import CircleGeometry, NamedGeometry, PolygonGeometry, ZoneRecord

UTC = timezone.utc


def utc_text(t: datetime | None) -> str:
    """``2026-11-30 02:00Z`` (seconds only when there are any); "" for None."""
    if t is None:
        return ""
    t = t.replace(tzinfo=UTC) if t.tzinfo is None else t.astimezone(UTC)
    return t.strftime("%Y-%m-%d %H:%M" + (":%S" if t.second else "") + "Z")


def _limit_text(limit) -> str:
    if limit is None:
        return ""
    if limit.ref == "UNL":
        return "UNL"
    value = f"{limit.m:,.0f} m" if limit.m is not None else ""
    if limit.ref == "FL" and limit.ft is not None:
        return f"FL{round(limit.ft / 100):03d} ({value})"
    return f"{value} {limit.ref}".strip() + f" ({limit.raw})"


def geometry_text(rec: ZoneRecord) -> tuple[str, str]:
    """(centre or polygon, radius) as table text."""
    g = rec.geometry
    if isinstance(g, CircleGeometry):
        c = f"{g.center[0]:.5f}, {g.center[1]:.5f}" + (" (approx.)" if g.approximate else "")
        r = g.radius_m
        return c, f"{r / 1852:.2f} NM ({r:,.0f} m)"
    if isinstance(g, PolygonGeometry):
        pts = "; ".join(f"{la:.4f},{lo:.4f}" for la, lo in g.points[:4])
        more = f" … ({len(g.points)} points)" if len(g.points) > 4 else f" ({len(g.points)} points)"
        return "polygon " + pts + more, ""
    if isinstance(g, NamedGeometry):
        return f"named: {g.name} (not located)", ""
    return "", ""


def record_key(rec: ZoneRecord) -> str:
    """The internal id of a record across table, map and selection: ``"message:zone"``, 0-based."""
    return f"{rec.message}:{rec.zone}"


def record_label(rec: ZoneRecord) -> str:
    """How a person names a record: its NOTAM id, or its 1-based message number."""
    return (rec.id or f"message {rec.message + 1}") + (f" zone {rec.zone + 1}" if rec.zone else "")


RECORD_COLUMNS = ["key", "msg", "zone", "id", "status", "reasons", "centre / polygon", "radius", "lower", "upper",
                  "start (UTC)", "end (UTC)", "schedule", "engine"]


def records_frame(records: Iterable[ZoneRecord]) -> pd.DataFrame:
    """One row per record: the columns of the records table (strings, so the table shows what the record says)."""
    rows = []
    for r in records:
        centre, radius = geometry_text(r)
        rows.append(
            {
                "key": record_key(r),
                "msg": r.message + 1,
                "zone": r.zone + 1,
                "id": r.id or "",
                "status": r.status,
                "reasons": "; ".join(r.reasons),
                "centre / polygon": centre,
                "radius": radius,
                "lower": _limit_text(r.lower),
                "upper": _limit_text(r.upper),
                "start (UTC)": utc_text(r.start),
                "end (UTC)": ("PERM" if r.permanent else utc_text(r.end)) + (" EST" if r.end_estimated else ""),
                "schedule": r.schedule or "",
                "engine": r.engine,
            }
        )
    return pd.DataFrame(rows, columns=RECORD_COLUMNS)


def _band(v) -> str:
    floor = "SFC" if v.floor_m == 0 and v.floor_ref == "AGL" else f"{v.floor_m:,.0f} m {v.floor_ref}"
    ceil = "UNL" if v.ceil_m is None else f"{v.ceil_m:,.0f} m {v.ceil_ref}"
    return f"{floor} – {ceil}"


ZONE_COLUMNS = ["key", "zone", "status", "now", "band"]


def zone_list_frame(volumes: Sequence, active: dict[str, bool]) -> pd.DataFrame:
    """The compact list beside the map: one row per drawn volume, with whether it is active at the map's time."""
    rows = [
        {
            "key": f"{v.key[0]}:{v.key[1]}",
            "zone": record_label(v.record),
            "status": v.status,
            "now": "active" if active.get(f"{v.key[0]}:{v.key[1]}") else "–",
            "band": _band(v),
        }
        for v in volumes
    ]
    return pd.DataFrame(rows, columns=ZONE_COLUMNS)


def unplaced(records: Sequence[ZoneRecord], volumes: Sequence) -> list[dict[str, str]]:
    """The records that leave no mark on the map, each with why: listed beside the map as "not on the map"."""
    drawn = {v.key for v in volumes}
    out = []
    for r in records:
        if (r.message, r.zone) in drawn:
            continue
        g = r.geometry
        if r.status == "error":
            why = "error: " + ("; ".join(r.reasons) or "the message could not be read")
        elif r.notam_type == "C":
            why = f"cancels {r.ref_id}: a cancellation has no zone" if r.ref_id else "a cancellation has no zone"
        elif isinstance(g, NamedGeometry):
            why = f"named place “{g.name}”: the message gives no coordinates to draw it at"
        elif g is None:
            why = "no location found in the message"
        else:
            why = "its geometry cannot be drawn" + (": " + "; ".join(r.reasons) if r.reasons else "")
        out.append({"key": record_key(r), "msg": str(r.message + 1), "zone": record_label(r), "status": r.status,
                    "why": why})
    return out


def conflict_rows(conflicts: Iterable) -> list[dict]:
    """Route conflicts as table rows, numbered for a person (message, zone and leg 1-based; times UTC)."""
    rows = []
    for c in conflicts:
        d = c.as_row()
        rows.append({
            "msg": d["message"] + 1,
            "zone": d["zone"] + 1,
            "id": d["id"] or "",
            "status": d["status"],
            "leg": f"{d['leg'] + 1} (waypoint {d['leg'] + 1}→{d['leg'] + 2})",
            "enters (UTC)": utc_text(c.enter_time),
            "leaves (UTC)": utc_text(c.exit_time),
            "enter_lat": d["enter_lat"],
            "enter_lon": d["enter_lon"],
            "enter_alt_m": d["enter_alt_m"],
            "assumed": d["assumed"],
            "reason": d["reason"],
        })
    return rows


def status_counts(records: Iterable[ZoneRecord]) -> dict[str, int]:
    out = {"ok": 0, "review": 0, "error": 0}
    for r in records:
        out[r.status] = out.get(r.status, 0) + 1
    return out


# -------------------------------------------------------------------------------------------------------------
# Engine comparison
# -------------------------------------------------------------------------------------------------------------

_COMPARED = ("status", "geometry", "lower", "upper", "start", "end", "permanent", "schedule", "windows")


def record_signature(rec: ZoneRecord) -> dict:
    """The parts of a record that must match for two engines to 'agree' (not spans, reasons wording or engine)."""
    d = rec.to_json()
    return {k: d.get(k) for k in _COMPARED}


def records_agree(a: Sequence[ZoneRecord], b: Sequence[ZoneRecord]) -> tuple[int, int, list[int]]:
    """(messages that agree, messages compared, 1-based numbers of those that differ) between two engine runs."""
    def by_msg(recs):
        out: dict[int, list] = {}
        for r in recs:
            out.setdefault(r.message, []).append(record_signature(r))
        return out

    ma, mb = by_msg(a), by_msg(b)
    msgs = sorted(set(ma) | set(mb))
    differ = [m + 1 for m in msgs if ma.get(m) != mb.get(m)]
    return len(msgs) - len(differ), len(msgs), differ


def records_jsonl(records: Iterable[ZoneRecord]) -> str:
    """The CLI's ``--format jsonl``: one record object per line."""
    return "".join(json.dumps(r.to_json(), ensure_ascii=False) + "\n" for r in records)


# -------------------------------------------------------------------------------------------------------------
# Map filters
# -------------------------------------------------------------------------------------------------------------

DRONE_CEILING_M = 120.0  # the usual open-category drone limit: "zones that reach below 120 m AGL"


def reaches_below(v, metres: float = DRONE_CEILING_M) -> bool:
    """Whether a volume's floor is below ``metres`` above the ground: AGL floors as stated; AMSL and FL floors as if
    the ground were at sea level (there is no terrain model; the filter's caption says so)."""
    return float(v.floor_m) < metres


def filter_volumes(volumes: Sequence, t: datetime | None, *, statuses: Iterable[str] = ("ok", "review"),
                   active_only: bool = False, below_m: float | None = None) -> list:
    """The volumes the map shows under the operator's filters (status, active at ``t``, floor below ``below_m``)."""
    keep = set(statuses)
    return [v for v in volumes
            if v.status in keep
            and (not active_only or t is None or v.active_at(t))
            and (below_m is None or reaches_below(v, below_m))]
