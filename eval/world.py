"""The world yardstick: every truth zone of the world set (``airspace.data.world``) scored against its own record.

What is counted, per engine (and per message kind, source and zone shape):

- **Fields.** A truth zone has five fields: geometry, lower, upper, start, end (``compare.world_field_diffs``: the
  tolerances of ``airspace.eval.compare``; SFC and GND are the same surface; an unstated floor read as the implied
  surface is "none"). A message that defines no zone has one field: that no zone is drawn (no record of it has a
  geometry). A missed zone loses its five fields.
- **Geometry.** Coordinates: a circle (centre and radius; a position without a radius is a circle of radius 0) or a
  polygon (same vertices, same cyclic order; a polygon with an arc side: its stated vertices in order and the
  record's vertices between the arc's ends on the arc). A **named place** is right only when the record's name is the
  place itself: equal, after ``compare.place_key`` (Unicode-normalised, case-folded, blanks collapsed, surrounding
  quotes and punctuation and a leading "the" dropped), to the truth's name as written, the part before a trailing
  ``(...)`` or the part inside it; a name that merely contains the place (a clause) or a fragment of it is wrong. An
  aerodrome may also be the approximate circle at its reference point. A radius stated around a place must be
  the record's radius too. The truth states no rings: a circle's excluded inner radius is not compared.
- **Matching.** Only records that draw something (a geometry, status not ``error``) are matched. The truth zones of a
  message and its records are paired one to one by a maximum-weight assignment (``assignment``) whose weight orders,
  in turn: the geometry right; the geometries close (centre or vertex-mean distance in metres, plus the difference
  of the radii of two circles; no distance for a named place); the other four fields right; the positions close (the
  i-th truth zone and the i-th record). So a record belongs to the zone it draws, not to the zone whose times it
  shares. A truth zone left without a record is **missed**; a record left without a zone is **extra**.
- **Zones right / right and ok.** Every field right; and the record ``ok`` too (dispatchable untouched). The headline
  share is right-and-ok over the zones that have coordinates (a named place cannot be dispatched without a look-up).
- **Silently wrong**: an ``ok`` record with a wrong field, or an ``ok`` extra record on a message that defines zones
  (``extra_ok``, included). **ok on no zone**: ``ok`` records with a geometry on messages that define none (counted
  apart). The product's promise is that both are 0.

The test split is scored by ``make bench`` (set ``world_test``) once per shipped change; every choice is made on val
(this module's CLI scores val or train, never test).
"""

from __future__ import annotations

import argparse
import json
import sys
from collections import Counter, defaultdict
from dataclasses import dataclass, field

from airspace.core.records import ZoneRecord
from airspace.eval.compare import gold_from_world_zone, world_field_diffs

FIELDS = ("geometry", "lower", "upper", "start", "end")
CLI_SPLITS = ("val", "train")  # the test split is scored only by ``make bench``, once per shipped change


def zone_shape(zone: dict) -> str:
    """circle, point (a position without a radius), polygon, arc_polygon, named, named_radius, or none."""
    if zone.get("center"):
        return "point" if zone.get("radius_nm") is None else "circle"
    if zone.get("polygon"):
        return "arc_polygon" if zone.get("arc") else "polygon"
    if zone.get("center_name"):
        return "named" if zone.get("radius_nm") is None else "named_radius"
    return "none"


def has_coordinates(zone: dict) -> bool:
    return bool(zone.get("center") or zone.get("polygon"))


# ---------------------------------------------------------------------------- one-to-one assignment
def assignment(weights: list[list[int]]) -> list[tuple[int, int]]:
    """A maximum-total-weight one-to-one pairing of rows and columns (``min(rows, cols)`` pairs), as (row, col)
    sorted by row. Hungarian algorithm on integer weights (exact; no ties broken by floating point)."""
    n = len(weights)
    m = len(weights[0]) if n else 0
    if not n or not m:
        return []
    transposed = n > m
    w = [list(col) for col in zip(*weights)] if transposed else weights
    n, m = len(w), len(w[0])
    top = max(max(row) for row in w)
    cost = [[top - x for x in row] for row in w]
    inf = float("inf")
    u, v, p, way = [0] * (n + 1), [0] * (m + 1), [0] * (m + 1), [0] * (m + 1)
    for i in range(1, n + 1):
        p[0], j0 = i, 0
        minv, used = [inf] * (m + 1), [False] * (m + 1)
        while True:
            used[j0] = True
            i0, delta, j1 = p[j0], inf, 0
            for j in range(1, m + 1):
                if not used[j]:
                    cur = cost[i0 - 1][j - 1] - u[i0] - v[j]
                    if cur < minv[j]:
                        minv[j], way[j] = cur, j0
                    if minv[j] < delta:
                        delta, j1 = minv[j], j
            for j in range(m + 1):
                if used[j]:
                    u[p[j]] += delta
                    v[j] -= delta
                else:
                    minv[j] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while j0:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
    pairs = [(p[j] - 1, j - 1) for j in range(1, m + 1) if p[j]]
    return sorted((c, r) if transposed else (r, c) for r, c in pairs)


def _ref_point(geometry: dict | None) -> tuple[float, float] | None:
    if geometry is None or geometry["type"] == "named":
        return None
    if geometry["type"] == "circle":
        return tuple(geometry["center"])
    pts = geometry["points"]
    return (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))


def _record_point(rec: ZoneRecord) -> tuple[float, float] | None:
    g = rec.geometry
    if g is None or g.type == "named":
        return None
    if g.type == "circle":
        return tuple(g.center)
    return (sum(p[0] for p in g.points) / len(g.points), sum(p[1] for p in g.points) / len(g.points))


def geometry_distance_m(rec: ZoneRecord, gold_geometry: dict | None) -> float | None:
    """How far a record's geometry is from a truth geometry (None when either has no coordinates): the distance
    between their centres (a polygon's: the mean of its vertices), plus the difference of the radii of two circles."""
    from airspace.pipeline.validate import haversine_m

    a, b = _record_point(rec), _ref_point(gold_geometry)
    if a is None or b is None:
        return None
    d = haversine_m(a, b)
    if rec.geometry.type == "circle" and gold_geometry["type"] == "circle":
        d += abs((rec.geometry.radius_m or 0.0) - gold_geometry["radius_m"])
    return d


LEVEL = 10**9  # each level of the weight is below this over any message's pairs: the levels never mix
NEAR_CAP = 10**6  # distances are counted in 10 m steps up to 10,000 km


def pair_weight(i: int, j: int, rec: ZoneRecord, gold: dict, diffs: dict[str, str | None]) -> int:
    """The matching weight of truth zone ``i`` and drawn record ``j`` (module doc, "Matching")."""
    geometry_right = diffs["geometry"] is None
    d = geometry_distance_m(rec, gold["geometry"])
    near = 0 if d is None else max(0, NEAR_CAP - round(d / 10.0))
    others = sum(diffs[f] is None for f in FIELDS[1:])
    order = NEAR_CAP - min(abs(i - j), NEAR_CAP)
    return ((geometry_right * LEVEL + near) * LEVEL + others) * LEVEL + order


def match(golds: list[dict], drawn: list[ZoneRecord]) -> tuple[list[tuple[int, int]], dict]:
    """Pairs (truth zone, drawn record) and every pair's field diffs, keyed (i, j)."""
    diffs = {(i, j): world_field_diffs(r, g) for i, g in enumerate(golds) for j, r in enumerate(drawn)}
    weights = [[pair_weight(i, j, r, g, diffs[i, j]) for j, r in enumerate(drawn)] for i, g in enumerate(golds)]
    return assignment(weights), diffs


# ---------------------------------------------------------------------------- counting
@dataclass
class Tally:
    """Counts over a group of messages (all, a kind, a source) or of zones (a shape)."""

    messages: int = 0
    fields_right: int = 0
    fields: int = 0
    no_zone_messages: int = 0
    no_zone_right: int = 0
    zones: int = 0
    zones_with_coordinates: int = 0
    zones_right: int = 0
    zones_right_ok: int = 0
    coordinate_zones_right_ok: int = 0
    silent_wrong: int = 0
    extra_ok: int = 0
    ok_on_no_zone: int = 0
    missed: int = 0
    extra: int = 0
    field_right: Counter = field(default_factory=Counter)

    def add_zone(self, coords: bool, wrong: list[str] | None, status: str | None) -> None:
        """One truth zone: ``wrong`` its wrong fields (None: missed), ``status`` its record's."""
        self.zones += 1
        self.zones_with_coordinates += coords
        self.fields += len(FIELDS)
        if wrong is None:
            self.missed += 1
            return
        right = [f for f in FIELDS if f not in wrong]
        self.fields_right += len(right)
        self.field_right.update(right)
        if not wrong:
            self.zones_right += 1
            if status == "ok":
                self.zones_right_ok += 1
                self.coordinate_zones_right_ok += coords
        elif status == "ok":
            self.silent_wrong += 1

    def to_json(self) -> dict:
        def share(a: int, b: int) -> float | None:
            return round(a / b, 4) if b else None

        return {
            "messages": self.messages, "fields_right": self.fields_right, "fields": self.fields,
            "fields_share": share(self.fields_right, self.fields),
            "zone_fields_right": self.fields_right - self.no_zone_right,
            "zone_fields": self.fields - self.no_zone_messages,
            "no_zone_messages": self.no_zone_messages, "no_zone_right": self.no_zone_right,
            "fields_right_by_name": {f: f"{self.field_right[f]}/{self.zones}" for f in FIELDS},
            "zones": self.zones, "zones_with_coordinates": self.zones_with_coordinates,
            "zones_right": self.zones_right, "zones_right_ok": self.zones_right_ok,
            "coordinate_zones_right_ok": self.coordinate_zones_right_ok,
            "coordinate_zones_right_ok_share": share(self.coordinate_zones_right_ok, self.zones_with_coordinates),
            "silent_wrong": self.silent_wrong, "extra_ok": self.extra_ok, "ok_on_no_zone": self.ok_on_no_zone,
            "missed": self.missed, "extra": self.extra,
        }


def drawn_records(recs: list[ZoneRecord]) -> list[ZoneRecord]:
    """The records of one message that draw something, in zone order."""
    return sorted((r for r in recs if r.geometry is not None and r.status != "error"), key=lambda r: r.zone)


def score_message(recs: list[ZoneRecord], row: dict, tallies: list[Tally], shapes: dict[str, Tally],
                  problems: list[str], silent: list[str]) -> None:
    """Score one message's records against its row's truth, into every tally of ``tallies`` (and its zones into
    ``shapes``); readable lines for what is wrong go to ``problems`` and ``silent``."""
    zones = row["truth"]["zones"]
    drawn = drawn_records(recs)
    for t in tallies:
        t.messages += 1
    if not zones:
        ok = sum(r.status == "ok" for r in drawn)
        for t in tallies:
            t.no_zone_messages += 1
            t.fields += 1
            t.no_zone_right += not drawn
            t.fields_right += not drawn
            t.extra += len(drawn)
            t.ok_on_no_zone += ok
        if drawn:
            problems.append(f"{row['id']}: defines no zone; {len(drawn)} drawn ({ok} ok)")
        if ok:
            silent.append(f"{row['id']}: defines no zone; {ok} ok record(s) draw one")
        return
    golds = [gold_from_world_zone(z) for z in zones]
    pairs, diffs = match(golds, drawn)
    by_zone = dict(pairs)
    for i, z in enumerate(zones):
        j = by_zone.get(i)
        coords = has_coordinates(z)
        if j is None:
            wrong, status = None, None
            problems.append(f"{row['id']} zone {i}: missed")
        else:
            found = diffs[i, j]
            wrong, status = [f for f in FIELDS if found[f] is not None], drawn[j].status
            if wrong:
                said = "; ".join(found[f] for f in wrong)
                problems.append(f"{row['id']} zone {i}: {said} ({status})")
                if status == "ok":
                    silent.append(f"{row['id']} zone {i}: ok but wrong {', '.join(wrong)}")
        for t in (*tallies, shapes.setdefault(zone_shape(z), Tally())):
            t.add_zone(coords, wrong, status)
    extras = [r for j, r in enumerate(drawn) if j not in set(by_zone.values())]
    extra_ok = sum(r.status == "ok" for r in extras)
    for t in tallies:
        t.extra += len(extras)
        t.extra_ok += extra_ok
        t.silent_wrong += extra_ok
    if extras:
        problems.append(f"{row['id']}: {len(extras)} extra record(s) ({extra_ok} ok)")
    if extra_ok:
        silent.append(f"{row['id']}: {extra_ok} ok record(s) draw a zone the message does not define")


def score_world(records: list[ZoneRecord], rows: list[dict], keep_problems: int = 400) -> dict:
    """One engine's records (``message`` = the row's index in ``rows``) scored against the rows' truth."""
    by_msg: dict[int, list[ZoneRecord]] = defaultdict(list)
    for r in records:
        by_msg[r.message].append(r)
    total, kinds, sources, shapes = Tally(), defaultdict(Tally), defaultdict(Tally), {}
    problems: list[str] = []
    silent: list[str] = []
    for i, row in enumerate(rows):
        score_message(by_msg.get(i, []), row, [total, kinds[row["kind"]], sources[row["source_key"]]], shapes,
                      problems, silent)
    out = total.to_json()
    out["sources"] = len(sources)
    out["by_kind"] = {k: t.to_json() for k, t in sorted(kinds.items())}
    out["by_shape"] = {k: _zone_counts(t) for k, t in sorted(shapes.items())}
    out["by_source"] = {k: t.to_json() for k, t in sorted(sources.items())}
    out["silent"] = silent
    out["problems"] = problems[:keep_problems]
    return out


def _zone_counts(t: Tally) -> dict:
    j = t.to_json()
    keep = ("zones", "zones_with_coordinates", "fields_right", "fields", "fields_share", "fields_right_by_name",
            "zones_right", "zones_right_ok", "coordinate_zones_right_ok", "silent_wrong", "missed")
    return {k: j[k] for k in keep}


def headline(score: dict) -> dict:
    """The numbers of the test-score table (docs/world-test.md)."""
    return {"fields_share": score["fields_share"],
            "coordinate_zones_right_ok_share": score["coordinate_zones_right_ok_share"],
            "silent_wrong": score["silent_wrong"], "ok_on_no_zone": score["ok_on_no_zone"]}


# ---------------------------------------------------------------------------- reading
def world_messages(rows: list[dict]):
    """The rows' texts as one batch's messages (index = row position)."""
    from airspace.pipeline.split import Message

    return [Message(i, r["text"]) for i, r in enumerate(rows)]


def read_records(extractor, messages, batch: int, cross_check: bool = True) -> list[ZoneRecord]:
    """Every message through the pipeline in batches of ``batch``, as the product reads them (model engines
    cross-checked against the rules reading unless ``cross_check`` is off)."""
    from airspace.pipeline.batch import process_batch

    out: list[ZoneRecord] = []
    for lo in range(0, len(messages), batch):
        out.extend(process_batch(messages[lo:lo + batch], extractor, cross_check=cross_check)[0])
    return out


def bench_scores(extractor, plain: list[ZoneRecord], messages, batch: int, rows: list[dict]) -> dict:
    """``make bench``'s world numbers for one engine: everything from the records as the product ships them
    (cross-checked, and completed for review from the rules reading, ``pipeline.complete``), and beside it the
    engine's own reading (``plain``, no cross-check, so nothing added): its fields right and its silent counts."""
    out = score_world(read_records(extractor, messages, batch), rows)
    bare = score_world(plain, rows, keep_problems=0)
    out["fields_right_no_cross_check"] = bare["fields_right"]
    out["fields_share_no_cross_check"] = bare["fields_share"]
    out["silent_wrong_no_cross_check"] = bare["silent_wrong"]
    out["ok_on_no_zone_no_cross_check"] = bare["ok_on_no_zone"]
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m airspace.eval.world", description=__doc__.split("\n\n")[0])
    ap.add_argument("--split", default="val", choices=CLI_SPLITS,
                    help="val (where choices are made) or train; the test split is scored only by make bench")
    ap.add_argument("--engines", default="rules,clover,ar")
    ap.add_argument("--batch", type=int, default=20, help="messages decoded together")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0 = torch default)")
    ap.add_argument("--checkpoints", default=None, help="a directory holding clover/ and ar/ checkpoints")
    ap.add_argument("--out", default=None, help="write the JSON here (default: print it)")
    args = ap.parse_args(argv)
    from pathlib import Path

    from airspace.data.world import scored_rows
    from airspace.pipeline.engines import get_extractor

    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    rows = scored_rows(args.split)
    messages = world_messages(rows)
    result: dict = {"split": args.split, "messages": len(rows), "sources": len({r["source_key"] for r in rows}),
                    "batch": args.batch, "engines": {}}
    for engine in args.engines.split(","):
        ckpt = str(Path(args.checkpoints) / engine) if args.checkpoints and engine != "rules" else None
        try:
            records = read_records(get_extractor(engine, ckpt), messages, args.batch)
        except Exception as exc:  # noqa: BLE001 - an engine that cannot run is reported, the others still run
            result["engines"][engine] = {"error": f"{type(exc).__name__}: {exc}"}
            continue
        result["engines"][engine] = score_world(records, rows)
        h = headline(result["engines"][engine])
        print(f"[world {args.split}] {engine:6s} fields {h['fields_share']}  coordinate zones right&ok "
              f"{h['coordinate_zones_right_ok_share']}  silent {h['silent_wrong']}  ok-on-no-zone {h['ok_on_no_zone']}",
              file=sys.stderr)
    text = json.dumps(result, ensure_ascii=False, separators=(",", ":"))  # (its problem lists: ~0.25 MB indented)
    if args.out:
        Path(args.out).parent.mkdir(parents=True, exist_ok=True)
        Path(args.out).write_text(text + "\n", encoding="utf-8")
    else:  # message text inside names and problems stays escaped on a terminal
        print(json.dumps(result, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
