"""The team's real test set: hand-derived truth for real messages, and the share of truth fields an engine gets.

``data/eval/real_test.jsonl`` holds a seeded, stratified draw from the archive's test split
(``airspace.data.realsplit``), each row with ``truth = {"zones": [...], "arith": ...}`` (schema:
``data/eval/README.md``). A truth zone has up to five fields: geometry, lower, upper, start, end. A message with no
zone (``"zones": []``) has one field: that no zone is drawn. An engine's records are matched to the truth zones
greedily (each truth zone takes the unused record that gets most of its fields right), so the score does not
depend on the order an engine writes zones in; a missing zone loses all its fields, an extra zone costs nothing
but is counted.

A record is *silently wrong* when it is ``ok`` and one of its matched fields is wrong, or when a no-zone message
gets an ``ok`` record with a geometry: the product's promise is that every miss is ``review``.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter, defaultdict
from dataclasses import dataclass, field
from pathlib import Path

from airspace.core.records import NM_TO_M, ZoneRecord, iso_utc
from airspace.data.layout import variant
from airspace.data.written import written
from airspace.parser.rules import rules_drafts

REAL_TEST = Path(__file__).resolve().parents[1] / "data" / "eval" / "real_test.jsonl"
FIELD_NAMES = ("geometry", "lower", "upper", "start", "end")
COORD_TOL_DEG = 2e-6  # the truth is rounded to 6 decimals; the normalisers are exact
RADIUS_TOL_M = 1.0
LIMIT_TOL_FT = 0.5
SURFACE = ("SFC", "GND")  # both the surface: an operator draws them the same


def load_real_test(path: str | Path = REAL_TEST) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [json.loads(line) for line in fh if line.strip()]


RELAID_SEED = "relaid-2026-12-04"


def relaid(rows: list[dict], seed: str = RELAID_SEED) -> list[dict]:
    """The same rows with each message laid out as another feed would (``airspace.data.layout.variant``: one item
    a line or one line, item E wrapped, item letters tight or spaced, no feed tail; seeded per id). The truth is
    the notice's, not the layout's, so it scores them unchanged: the set asks whether an engine reads a notice
    the same however it is laid out, as messages from feeds the archive lacks will be. Evaluation only."""
    out = []
    for r in rows:
        text, _, ops = variant(r["text"], [], random.Random(f"{seed}:{r['id']}"))
        out.append({**r, "text": text, "layout": ops})
    return out


REWRITTEN_SEED = "rewritten-2026-12-04"


def rewritten(rows: list[dict], seed: str = REWRITTEN_SEED) -> list[dict]:
    """The same rows with their values written as another feed writes them (``airspace.data.written``: a
    coordinate's halves parted by a blank, a slash or a dash, or its hemisphere letters first; a polygon's vertices
    parted otherwise; ``3,000 FT AMSL``, ``FL 120``), where the rules reader finds them; seeded per id. Only digits,
    hemisphere letters and units are regrouped, never a number recomputed, so the notice's truth scores them
    unchanged. Evaluation only."""
    out = []
    for r in rows:
        try:
            drafts = rules_drafts(r["text"])
        except Exception:  # noqa: BLE001 - a row the reader cannot read stays as written
            drafts = []
        spans = [{k: [sp.start, sp.end] for k, sp in d.spans.items()} for d in drafts]
        text, _, forms = written(r["text"], spans, random.Random(f"{seed}:{r['id']}"))
        out.append({**r, "text": text, "written": forms})
    return out


def _close(a, b, tol) -> bool:
    return a is not None and b is not None and math.isclose(a, b, abs_tol=tol)


def _same_point(p, q) -> bool:
    return _close(p[0], q[0], COORD_TOL_DEG) and _close(p[1], q[1], COORD_TOL_DEG)


def _ring(points) -> list:
    pts = [tuple(p) for p in points]
    if len(pts) > 1 and _same_point(pts[0], pts[-1]):
        pts.pop()
    return pts


def _same_ring(got, want) -> bool:
    a, b = _ring(got), _ring(want)
    if len(a) != len(b) or not a:
        return False
    for rev in (a, a[::-1]):  # a ring written the other way round is the same area
        for shift in range(len(rev)):
            if all(_same_point(rev[(i + shift) % len(rev)], b[i]) for i in range(len(b))):
                return True
    return False


def geometry_right(rec: ZoneRecord, z: dict) -> bool:
    g = rec.geometry
    if z.get("qline"):
        if z.get("center") is None:  # a Q-line without a position: nothing can be drawn
            return g is None or g.type == "named"
        return (g is not None and g.type == "circle" and _same_point(g.center, (z["center"]["lat"], z["center"]["lon"]))
                and _close(g.radius_m, z["radius_nm"] * NM_TO_M, RADIUS_TOL_M))
    if z.get("fir"):
        return g is not None and g.type == "named" and z["fir"] in g.name
    if z.get("center_name"):
        want = z["center_name"].split(" (")[0].strip()
        return g is not None and g.type == "named" and (g.name.strip() == want or want in g.name)
    if z.get("polygon"):
        if g is None or g.type != "polygon":
            return False
        if z.get("arc"):  # arcs are densified by the normaliser: every stated vertex must be on the ring, in order
            idx = [next((i for i, p in enumerate(g.points) if _same_point(p, v)), None) for v in z["polygon"]]
            return None not in idx
        return _same_ring(g.points, z["polygon"])
    if z.get("center"):
        if g is None or g.type != "circle" or not _same_point(g.center, (z["center"]["lat"], z["center"]["lon"])):
            return False
        if z.get("radius_nm") is None:
            return not g.radius_m
        return _close(g.radius_m, z["radius_nm"] * NM_TO_M, RADIUS_TOL_M)
    return g is None


def limit_right(got, want: dict | None) -> bool:
    if want is None:
        return got is None or (got.raw == "" and got.ref in SURFACE)  # an unstated floor is the implied surface
    if got is None:
        return False
    if want["ref"] == "UNL":
        return got.ref == "UNL"
    same_ref = got.ref == want["ref"] or (got.ref in SURFACE and want["ref"] in SURFACE)
    return same_ref and _close(got.ft if got.ft is not None else 0.0, want.get("value_ft") or 0.0, LIMIT_TOL_FT)


def fields_right(rec: ZoneRecord, z: dict) -> dict[str, bool]:
    return {
        "geometry": geometry_right(rec, z),
        "lower": limit_right(rec.lower, z.get("lower")),
        "upper": limit_right(rec.upper, z.get("upper")),
        "start": iso_utc(rec.start) == z.get("start_utc"),
        "end": iso_utc(rec.end) == z.get("end_utc") and bool(rec.permanent) == bool(z.get("permanent")),
    }


@dataclass
class RealScore:
    """Fields right out of fields, silent wrong records, and where the misses are."""

    right: int = 0
    total: int = 0
    silent_wrong: int = 0
    messages: int = 0
    messages_all_right: int = 0
    extra_zones: int = 0
    missed: Counter = field(default_factory=Counter)  # field -> misses
    by_region: dict = field(default_factory=lambda: defaultdict(lambda: [0, 0]))
    problems: list[str] = field(default_factory=list)
    silent: list[str] = field(default_factory=list)

    @property
    def share(self) -> float:
        return self.right / self.total if self.total else 0.0

    def to_json(self) -> dict:
        return {"fields_right": self.right, "fields": self.total, "share": round(self.share, 4),
                "silent_wrong": self.silent_wrong, "messages": self.messages,
                "messages_all_right": self.messages_all_right, "extra_zones": self.extra_zones,
                "missed_by_field": dict(self.missed),
                "by_region": {k: {"right": v[0], "fields": v[1]} for k, v in sorted(self.by_region.items())},
                "silent": self.silent, "problems": self.problems[:300]}


def score_message(recs: list[ZoneRecord], row: dict, out: RealScore) -> None:
    zones = row["truth"]["zones"]
    region = row.get("region", "?")
    out.messages += 1
    drawn = [r for r in recs if r.geometry is not None]
    if not zones:
        ok = not drawn
        out.right += ok
        out.total += 1
        out.by_region[region][0] += ok
        out.by_region[region][1] += 1
        out.messages_all_right += ok
        if not ok:
            out.missed["no_zone"] += 1
            out.problems.append(f"{row['id']}: no zone in the truth, engine drew {len(drawn)}")
            if any(r.status == "ok" for r in drawn):
                out.silent_wrong += 1
                out.silent.append(f"{row['id']}: no zone in the truth, an ok record draws one")
        return
    unused = list(range(len(recs)))
    all_right = True
    for zi, z in enumerate(zones):
        best, best_n, best_f = None, -1, None
        for i in unused:
            f = fields_right(recs[i], z)
            if sum(f.values()) > best_n:
                best, best_n, best_f = i, sum(f.values()), f
        out.total += len(FIELD_NAMES)
        out.by_region[region][1] += len(FIELD_NAMES)
        if best is None:
            all_right = False
            out.missed.update(FIELD_NAMES)
            out.problems.append(f"{row['id']} zone {zi}: missing")
            continue
        unused.remove(best)
        out.right += best_n
        out.by_region[region][0] += best_n
        wrong = [k for k, v in best_f.items() if not v]
        if wrong:
            all_right = False
            out.missed.update(wrong)
            out.problems.append(f"{row['id']} zone {zi}: wrong {', '.join(wrong)} ({recs[best].status})")
            if recs[best].status == "ok":
                out.silent_wrong += 1
                out.silent.append(f"{row['id']} zone {zi}: ok but wrong {', '.join(wrong)}")
    out.extra_zones += sum(1 for i in unused if recs[i].geometry is not None)
    out.messages_all_right += all_right


def score_real(records: list[ZoneRecord], rows: list[dict]) -> RealScore:
    """Score one engine's records (message indices = row order) against the truth rows."""
    by_msg: dict[int, list[ZoneRecord]] = defaultdict(list)
    for r in records:
        by_msg[r.message].append(r)
    out = RealScore()
    for i, row in enumerate(rows):
        score_message(by_msg.get(i, []), row, out)
    return out


# ---------------------------------------------------------------------------- agreement between two engines
def _record_key(r: ZoneRecord) -> tuple:
    g = r.geometry
    if g is None:
        geom = None
    elif g.type == "circle":
        geom = ("circle", round(g.center[0], 5), round(g.center[1], 5), round(g.radius_m or 0.0))
    elif g.type == "polygon":
        geom = ("polygon", tuple((round(a, 5), round(b, 5)) for a, b in g.points))
    else:
        geom = ("named", g.name.strip())
    lim = lambda x: None if x is None or x.raw == "" else (x.ref, None if x.ft is None else round(x.ft, 1))  # noqa: E731
    return geom, lim(r.lower), lim(r.upper), iso_utc(r.start), iso_utc(r.end)


KINDS = ("geometry", "lower", "upper", "start", "end")


def disagreement(a: list[ZoneRecord], b: list[ZoneRecord]) -> list[str]:
    """Kinds of disagreement between two engines' records of one message (empty: they agree)."""
    if any(r.status == "error" for r in a) != any(r.status == "error" for r in b):
        return ["error"]
    za = [r for r in a if r.geometry is not None]
    zb = [r for r in b if r.geometry is not None]
    if len(za) != len(zb):
        if not za:
            return ["no_zone_found"]
        if not zb:
            return ["extra_zone"]
        return ["zone_count"]
    kinds = set()
    for x, y in zip(za, zb):
        kx, ky = _record_key(x), _record_key(y)
        for k, u, v in zip(KINDS, kx, ky):
            if u != v:
                if k == "geometry" and (u is None or v is None or u[0] != v[0]):
                    kinds.add("geometry_type")
                else:
                    kinds.add(k)
    return sorted(kinds)


def disagreements(records_a: list[ZoneRecord], records_b: list[ZoneRecord], n: int) -> list[list[str]]:
    """``disagreement`` of each of ``n`` messages (records grouped by ``message``)."""
    by_a, by_b = defaultdict(list), defaultdict(list)
    for r in records_a:
        by_a[r.message].append(r)
    for r in records_b:
        by_b[r.message].append(r)
    return [disagreement(by_a[i], by_b[i]) for i in range(n)]


def agreement(records_a: list[ZoneRecord], records_b: list[ZoneRecord], n: int) -> dict:
    """How many of ``n`` messages two engines read the same, and the disagreements counted by kind."""
    kinds: Counter = Counter()
    agree = 0
    b_has_zone_a_not = 0
    for d in disagreements(records_a, records_b, n):
        agree += not d
        kinds.update(d)
        if "no_zone_found" in d:
            b_has_zone_a_not += 1
    return {"messages": n, "agree": agree, "share": round(agree / n, 4) if n else 0.0,
            "disagreements_by_kind": dict(kinds.most_common()), "other_has_zone_this_has_none": b_has_zone_a_not}
