"""Triage of the rules reader on a JSONL of messages: what it could not read, counted, so the next form to read
is the most common one.

For every message it runs the rules engine through the whole pipeline (``process_batch``) and reports:

- ``reasons``: every review/error reason (``note:`` lines aside), generalised (quoted values and numbers blanked)
  and counted by records and by messages;
- ``unread``: values the message writes in its free text that fed no field — a coordinate, a distance, a
  vertical limit or a time outside every span the records use — counted by messages, with a few examples;
- ``gaps``: the unread values of a kind some zone of the message lacks (a limit where a zone has no upper limit,
  a distance where a circle has no radius, …): the actionable part of ``unread``;
- ``coords_without_zone``: messages whose free text holds coordinates but that got no zone geometry, by reason
  (the issue's bar: each needs a reason that names what was not read);
- ``silver``: for rows with ``silver_polygon`` (an independent tool's reading), how often a polygon the reader drew
  is that polygon, and the rows where it is not.

Examples are never taken from rows of the archive's test split (``airspace.data.realsplit.split_of``): the team's
hand-checked acceptance set is drawn from them. Their counts are included.

    python -m airspace.eval.triage data/real/archive.jsonl --json docs/results/triage.json
"""

from __future__ import annotations

import argparse
import json
import re
import sys
import time
from collections import Counter, defaultdict
from pathlib import Path

from airspace.core.records import ZoneRecord
from airspace.data.realsplit import split_of
from airspace.parser.coords import find_coords
from airspace.parser.header import parse_header
from airspace.parser.polygon import HULL_ORDER_NOTE
from airspace.parser.rules import RulesExtractor
from airspace.parser.rules.geometry import QLINE_IN_TEXT, route_point
from airspace.parser.rules.patterns import DIST, ISO_DT, LIM, PROSE_DT
from airspace.parser.rules.zone import body
from airspace.pipeline.batch import process_batch
from airspace.pipeline.split import Message

__all__ = ["triage", "general_reason", "format_table", "silver_agrees", "silver_difference"]

SILVER_TOL_DEG = 1e-6
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NAMES_AREA = re.compile(r"; it names area [^)]*")
_NUMBERISH = re.compile(r"[-+]?\d[\w:.\-/]*")
_DIST_RX = re.compile(rf"(?<![\w.]){DIST}", re.I)
_LIM_RX = re.compile(LIM, re.I)
_TIME_RX = re.compile(rf"(?<!\d)\d{{10}}(?!\d)|{ISO_DT}|{PROSE_DT}|(?<![\d/:.])[0-2]\d[0-5]\d\s?-\s?[0-2]\d[0-5]\d(?![\d/:.])",
                      re.I)


def general_reason(reason: str) -> str:
    """A reason with its message-specific parts blanked, so that equal causes count together."""
    r = _NAMES_AREA.sub("; it names area …", reason)
    r = _QUOTED.sub("'…'", r)
    return _NUMBERISH.sub("N", r)


def _ring(points) -> list[tuple[float, float]]:
    """An open ring: repeated consecutive vertices and the closing repeat(s) of the first dropped."""
    pts: list[tuple[float, float]] = []
    for a, b in points:
        p = (float(a), float(b))
        if not pts or abs(p[0] - pts[-1][0]) >= SILVER_TOL_DEG or abs(p[1] - pts[-1][1]) >= SILVER_TOL_DEG:
            pts.append(p)
    while len(pts) > 1 and abs(pts[0][0] - pts[-1][0]) < SILVER_TOL_DEG and abs(pts[0][1] - pts[-1][1]) < SILVER_TOL_DEG:
        pts.pop()
    return pts


def _keys(pts) -> set[tuple[int, int]]:
    return {(round(a / SILVER_TOL_DEG / 10), round(b / SILVER_TOL_DEG / 10)) for a, b in pts}


_ALONG = re.compile(r"\b(?:ALONG|FOLLOWING)\s+(?:THE\s+)?[A-Z/ ]{0,30}?(?:BOUNDARY|BDRY|BORDER|COAST)", re.I)


def silver_difference(silver: str, records: list[ZoneRecord], text: str) -> str:
    """Why the reader's polygons and ``silver_polygon`` differ, in words (for the disagreement list)."""
    want = _keys(_ring([(c.lat, c.lon) for c in find_coords(silver)]))
    polys = [_keys(_ring(r.geometry.points)) for r in records if r.geometry is not None and r.geometry.type == "polygon"]
    union = set().union(*polys) if polys else set()
    if any(x.startswith("polygon '") and "malformed boundary coordinate" in x for r in records for x in r.reasons):
        return "the reader could not read a vertex as written (its record says which, review)"
    if len(polys) >= 2 and want == union:
        return "silver joins the message's separate polygons into one"
    if any(p < want for p in polys):
        return "silver has a point the boundary list does not (e.g. a position written before it)"
    if any(want < p for p in polys):
        if _ALONG.search(text):
            return "silver leaves out the vertex before a boundary that follows a FIR border"
        return "silver leaves out a vertex the text gives (e.g. one wrapped across a line break)"
    return "the vertices differ"


def _same_ring(a: list[tuple[float, float]], b: list[tuple[float, float]]) -> bool:
    """Same vertices in the same cyclic order, either direction (a ring read from another starting corner)."""
    if len(a) != len(b) or not a:
        return False

    def eq(p, q):
        return abs(p[0] - q[0]) < SILVER_TOL_DEG and abs(p[1] - q[1]) < SILVER_TOL_DEG

    for seq in (b, b[::-1]):
        for k in range(len(seq)):
            if all(eq(a[i], seq[(i + k) % len(seq)]) for i in range(len(a))):
                return True
    return False


def silver_agrees(silver: str, records: list[ZoneRecord]) -> bool | None:
    """Whether a polygon of the records is the ``silver_polygon`` (the same vertices in the same cyclic order, or the
    same vertices redrawn in hull order under ``polygon.hull_order``'s stated rule, which the record notes); None
    when the reader drew no polygon."""
    want = _ring([(c.lat, c.lon) for c in find_coords(silver)])
    polys = [(_ring(r.geometry.points), any(x == HULL_ORDER_NOTE for x in r.reasons))
             for r in records if r.geometry is not None and r.geometry.type == "polygon"]
    if not polys:
        return None
    return any(_same_ring(p, want) or (hull and len(p) == len(want) and _keys(p) == _keys(want)) for p, hull in polys)


def _used_spans(records: list[ZoneRecord]) -> dict[str, list[tuple[int, int]]]:
    out: dict[str, list[tuple[int, int]]] = defaultdict(list)
    for r in records:
        for k, s in r.spans.items():
            out[k].append((s.start, s.end))
            out["*"].append((s.start, s.end))
    return out


def _covered(s: int, e: int, spans: list[tuple[int, int]]) -> bool:
    return any(a < e and s < b for a, b in spans)


def _unread(text: str, records: list[ZoneRecord]) -> dict[str, list[tuple[int, int]]]:
    """Positions in the free text of values that look like a coordinate/distance/limit/time but fed no field."""
    h = parse_header(text)
    lo, hi = body(text, h)
    used = _used_spans(records)
    q = h.qline.raw if h.qline is not None else None
    out: dict[str, list[tuple[int, int]]] = defaultdict(list)
    coords = [c._replace(start=c.start + lo, end=c.end + lo) for c in find_coords(text[lo:hi])]
    qpos = {m.start("c") for m in QLINE_IN_TEXT.finditer(text, lo, hi)}  # continuation parts' Q-lines
    for c in coords:
        s, e = c.start, c.end
        if (q is not None and q.start <= s < q.end) or s in qpos or route_point(text, c, lo):
            continue  # a Q-line's coarse position, or a navigation point of a route: no zone's to read
        if not _covered(s, e, used["*"]):
            out["coordinate"].append((s, e))
    coord_spans = [(c.start, c.end) for c in coords]
    for m in _DIST_RX.finditer(text, lo, hi):
        if not _covered(*m.span(), used["*"]) and not _covered(*m.span(), coord_spans):
            out["distance"].append(m.span())
    dist_spans = out["distance"] + [x for k in ("radius", "polygon") for x in used[k]]
    for m in _LIM_RX.finditer(text, lo, hi):
        if not _covered(*m.span(), used["*"]) and not _covered(*m.span(), coord_spans + dist_spans):
            out["limit"].append(m.span())
    for m in _TIME_RX.finditer(text, lo, hi):
        if not _covered(*m.span(), used["*"]) and not _covered(*m.span(), coord_spans):
            out["time"].append(m.span())
    return {k: v for k, v in out.items() if v}


def _gaps(unread: dict[str, list[tuple[int, int]]], records: list[ZoneRecord]) -> list[str]:
    """The unread kinds that could have filled a field some zone of the message lacks: a coordinate where a zone
    has no precise geometry, a distance where a circle has no radius, a limit where a zone has no upper limit, a
    time where a zone has no start or end."""
    zones = [r for r in records if r.status != "error"]
    lacks = {
        "coordinate": not zones or any(r.geometry is None or getattr(r.geometry, "approximate", False)
                                       or r.geometry.type == "named" for r in zones),
        "distance": any(r.geometry is not None and r.geometry.type == "circle" and r.geometry.radius_m == 0
                        for r in zones),
        "limit": any(r.geometry is not None and r.upper is None for r in zones),
        "time": any(r.geometry is not None and (r.start is None or (r.end is None and not r.permanent))
                    for r in zones),
    }
    return [k for k in unread if lacks.get(k)]


def _body_has_coords(text: str) -> bool:
    h = parse_header(text)
    lo, hi = body(text, h)
    q = h.qline.raw if h.qline is not None else None
    qpos = {m.start("c") for m in QLINE_IN_TEXT.finditer(text, lo, hi)}
    return any(not (q is not None and q.start <= c.start + lo < q.end) and c.start + lo not in qpos
               for c in find_coords(text[lo:hi]))


def _snippet(text: str, s: int, e: int, pad: int = 50) -> str:
    """The value in brackets with some context, blanks collapsed."""
    a, b = max(0, s - pad), min(len(text), e + pad)

    def flat(x: str) -> str:
        return " ".join(x.split())

    return f"{'…' if a else ''}{flat(text[a:s])} [{flat(text[s:e])}] {flat(text[e:b])}{'…' if b < len(text) else ''}"


def _showable(row: dict) -> bool:
    rid = row.get("id")
    return not (isinstance(rid, str) and split_of(rid) == "test")


def triage(rows: list[dict], examples: int = 3) -> dict:
    """The triage report of ``rows`` (``id``, ``text``, optional ``silver_polygon``) as a JSON-able dict."""
    t0 = time.perf_counter()
    msgs = [Message(index=i, text=r.get("text") or "") for i, r in enumerate(rows)]
    records, _ = process_batch(msgs, RulesExtractor())
    by_msg: dict[int, list[ZoneRecord]] = defaultdict(list)
    for r in records:
        by_msg[r.message].append(r)
    wall = time.perf_counter() - t0

    status = Counter(r.status for r in records)
    reason_recs: Counter = Counter()
    reason_msgs: dict[str, set[int]] = defaultdict(set)
    reason_ex: dict[str, list[dict]] = defaultdict(list)
    unread_msgs: Counter = Counter()
    unread_ex: dict[str, list[dict]] = defaultdict(list)
    gap_msgs: Counter = Counter()
    gap_ex: dict[str, list[dict]] = defaultdict(list)
    no_zone: Counter = Counter()
    no_zone_ex: dict[str, list[dict]] = defaultdict(list)
    silver = {"rows": 0, "both_read": 0, "agree": 0, "reader_no_polygon": 0, "disagree_ids": [],
              "disagree_why": Counter()}
    for i, row in enumerate(rows):
        recs = by_msg.get(i, [])
        text = msgs[i].text
        show = _showable(row)
        for r in recs:
            for reason in r.reasons:
                if reason.startswith("note:"):
                    continue
                g = general_reason(reason)
                reason_recs[g] += 1
                if i not in reason_msgs[g] and show and len(reason_ex[g]) < examples:
                    reason_ex[g].append({"id": row.get("id"), "reason": reason})
                reason_msgs[g].add(i)
        unread = _unread(text, recs)
        for kind, spans in unread.items():
            unread_msgs[kind] += 1
            if show and len(unread_ex[kind]) < examples:
                unread_ex[kind].append({"id": row.get("id"), "at": _snippet(text, *spans[0]), "count": len(spans)})
        for kind in _gaps(unread, recs):
            gap_msgs[kind] += 1
            if show and len(gap_ex[kind]) < examples:
                gap_ex[kind].append({"id": row.get("id"), "at": _snippet(text, *unread[kind][0])})
        if _body_has_coords(text) and not any(r.geometry is not None for r in recs):
            why = "; ".join(sorted({general_reason(x) for r in recs for x in r.reasons if not x.startswith("note:")}))
            no_zone[why or "(no reason)"] += 1
            if show and len(no_zone_ex[why or "(no reason)"]) < examples:
                no_zone_ex[why or "(no reason)"].append({"id": row.get("id")})
        if row.get("silver_polygon"):
            silver["rows"] += 1
            agree = silver_agrees(row["silver_polygon"], recs)
            if agree is None:
                silver["reader_no_polygon"] += 1
            else:
                silver["both_read"] += 1
                silver["agree"] += int(agree)
                if not agree:
                    silver["disagree_ids"].append(row.get("id") if show else "(test split)")
                    silver["disagree_why"][silver_difference(row["silver_polygon"], recs, text)] += 1
    silver["disagree_why"] = dict(silver["disagree_why"].most_common())
    silver["agreement"] = round(silver["agree"] / silver["both_read"], 4) if silver["both_read"] else None
    accounted = sum(1 for i in range(len(rows)) if by_msg.get(i))
    return {
        "messages": len(rows),
        "accounted": accounted,
        "records": len(records),
        "status": dict(status),
        "wall_s": round(wall, 2),
        "reasons": [{"reason": g, "records": n, "messages": len(reason_msgs[g]), "examples": reason_ex[g]}
                    for g, n in reason_recs.most_common()],
        "unread": [{"kind": k, "messages": n, "examples": unread_ex[k]} for k, n in unread_msgs.most_common()],
        "gaps": [{"kind": k, "messages": n, "examples": gap_ex[k]} for k, n in gap_msgs.most_common()],
        "coords_without_zone": [{"reasons": k, "messages": n, "examples": no_zone_ex[k]}
                                for k, n in no_zone.most_common()],
        "silver": silver,
    }


def format_table(rep: dict, top: int = 40) -> str:
    """The report as a plain-text table (what ``make triage`` prints)."""
    st = rep["status"]
    lines = [f"{rep['messages']} messages, {rep['accounted']} accounted for, {rep['records']} records "
             f"({st.get('ok', 0)} ok, {st.get('review', 0)} review, {st.get('error', 0)} error), {rep['wall_s']} s", "",
             f"{'records':>8} {'msgs':>6}  review/error reason"]
    for r in rep["reasons"][:top]:
        lines.append(f"{r['records']:>8} {r['messages']:>6}  {r['reason'][:150]}")
    if len(rep["reasons"]) > top:
        lines.append(f"{'':>8} {'':>6}  … {len(rep['reasons']) - top} more")
    lines += ["", f"{'msgs':>8}  unread value (in the free text, fed no field): example"]
    for u in rep["unread"]:
        ex = u["examples"][0] if u["examples"] else {}
        lines.append(f"{u['messages']:>8}  {u['kind']}: {ex.get('id')} {ex.get('at', '')[:130]}")
    lines += ["", f"{'msgs':>8}  gap (an unread value of the kind a zone lacks): example"]
    for u in rep["gaps"]:
        ex = u["examples"][0] if u["examples"] else {}
        lines.append(f"{u['messages']:>8}  {u['kind']}: {ex.get('id')} {ex.get('at', '')[:130]}")
    n = sum(x["messages"] for x in rep["coords_without_zone"])
    lines += ["", f"{n:>8}  messages with coordinates in the free text and no zone, by reason:"]
    for x in rep["coords_without_zone"]:
        lines.append(f"{x['messages']:>8}    {x['reasons'][:150]}")
    s = rep["silver"]
    pct = f"{100 * s['agreement']:.1f} %" if s["agreement"] is not None else "-"
    lines += ["", f"silver_polygon: {s['rows']} rows, both read {s['both_read']}, agree {s['agree']} ({pct}), reader "
              f"drew no polygon on {s['reader_no_polygon']}; disagree: {', '.join(map(str, s['disagree_ids'][:20]))}"]
    for why, n in s.get("disagree_why", {}).items():
        lines.append(f"{n:>8}  {why}")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("file", help="JSONL with 'text' (and 'id', optional 'silver_polygon') per line")
    ap.add_argument("--json", help="write the full report here")
    ap.add_argument("--examples", type=int, default=3, help="examples per reason / unread kind")
    ap.add_argument("--top", type=int, default=40, help="reasons shown in the table")
    a = ap.parse_args(argv)
    rows = [json.loads(line) for line in Path(a.file).read_text(encoding="utf-8").splitlines() if line.strip()]
    rep = triage(rows, examples=a.examples)
    print(format_table(rep, a.top))
    if a.json:
        Path(a.json).parent.mkdir(parents=True, exist_ok=True)
        Path(a.json).write_text(json.dumps(rep, ensure_ascii=False, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
