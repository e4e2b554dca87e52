"""Stress benchmark: the worst time per character of each stage over adversarial inputs (not a timed test).

Every stage of the service should cost time linear in its input, so that a few kilobytes cannot tie it up. This
runs each adversarial family at growing sizes through every stage alone and records, per stage, the worst
processor seconds per input character over inputs of at least ``MIN_CHARS`` characters (and which family and size
gave it; processor time, so that a busy machine does not read as a slow stage), the growth exponent between the two largest sizes
(about 1 for a linear stage, 2 for a quadratic one) and, for the exports, the worst output bytes per input
character. A family whose stage already took ``--cap-s`` seconds is not run at larger sizes (marked ``capped``).

Stages: ``split_text`` and ``split_jsonl`` (the batch readers), ``header``, ``rules`` (the rules reader's drafts),
``normalize``, ``validate``, ``pipeline`` (``process_batch`` end to end, the per-message budget included) and the
exports ``geojson``, ``ed269``, ``ed318``. Families: digit runs, digits with blanks, long coordinate lists (an
ICAO polygon of as many vertices as fit a message), a self-crossing polygon, 5,000-point polygons (convex and
self-crossing, given to the exports as records: no message under the size limit can hold one), many circles in
one message, huge radii, ``Label: value`` blocks, nested parentheses, item-marker blocks, Chinese clauses, and a
radius followed by a blank run before its coordinates.

    python -m airspace.eval.stress --out bench-results/stress.json
"""

from __future__ import annotations

import argparse
import json
import math
import platform
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path

from airspace.core.records import PolygonGeometry, ZoneRecord
from airspace.parser.coords import format_coord

STAGES = ("split_text", "split_jsonl", "header", "rules", "normalize", "validate", "pipeline",
          "geojson", "ed269", "ed318")

_HEAD = ("(A0001/26 NOTAMN\nQ) LOVV/QRTCA/IV/BO/W/000/130/4809N01610E050\nA) LOVV B) 2601010000 C) 2601312359\nE) ")
_TAIL = "\nF) GND G) FL130)"


def _ring(n: int, crossing: bool, rnd: random.Random) -> list[tuple[float, float]]:
    """``n`` vertices (lat, lon) around 48N 16E: a convex ring, or a star that crosses itself at every step."""
    pts = []
    for i in range(n):
        k = (i * (n // 2 - 1)) % n if crossing else i
        a = 2 * math.pi * k / n
        r = 0.5 + (0.3 * rnd.random() if crossing else 0.0)
        pts.append((48.0 + r * math.sin(a), 16.0 + r * math.cos(a) / 0.67))
    return pts


def _word(i: int) -> str:
    """A distinct alphabetic label for every i (labels are letters only)."""
    out = ""
    while True:
        i, r = divmod(i, 26)
        out = "abcdefghijklmnopqrstuvwxyz"[r] + out
        if i == 0:
            return out


def _coords_text(pts: list[tuple[float, float]]) -> str:
    return " - ".join(format_coord(la, lo, "dms") for la, lo in pts)


def _fit(make: Callable[[int], str], n_chars: int) -> str:
    """The largest ``make(k)`` not longer than ``n_chars`` (k found by doubling then bisection)."""
    lo, hi = 1, 2
    while len(make(hi)) <= n_chars:
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        lo, hi = (mid, hi) if len(make(mid)) <= n_chars else (lo, mid)
    return make(lo)


def families(rnd: random.Random) -> dict[str, Callable[[int], str]]:
    """Adversarial message (or batch) generators: size in characters -> text."""
    return {
        "digit_run": lambda n: "9" * n,
        "digits_blanks": lambda n: "9 " * (n // 2),
        "digits_dots": lambda n: "9." * (n // 2),
        "coordinate_list": lambda n: _fit(lambda k: _HEAD + "AREA " + _coords_text(_ring(max(k, 3), False, rnd)) + _TAIL, n),
        "self_crossing_polygon": lambda n: _fit(
            lambda k: _HEAD + "AREA " + _coords_text(_ring(max(k, 5), True, random.Random(k))) + _TAIL, n),
        "many_circles": lambda n: _fit(lambda k: _HEAD + " ".join(
            f"{i + 1}. PSN {format_coord(48 + i * 0.01, 16.0, 'dms')} RADIUS 1NM." for i in range(k)) + _TAIL, n),
        # (each area with its own window: every ok record weighs the periods near it against the message's)
        "many_windows": lambda n: _fit(lambda k: _HEAD + " ".join(
            f"{i + 1}. PSN {format_coord(48 + i * 0.01, 16.0, 'dms')} RADIUS 1NM {2601010800 + (i % 28) * 10000} TO "
            f"{2601011000 + (i % 28) * 10000}." for i in range(k)) + _TAIL, n),
        "huge_radii": lambda n: _fit(lambda k: _HEAD + " ".join(
            f"PSN {format_coord(10 + (i % 60), 16.0 + i % 90, 'dms')} RADIUS 2500NM." for i in range(k)) + _TAIL, n),
        "label_blocks": lambda n: "".join(f"Label {_word(i)}: value {i}\n\n" for i in range(n // 22)),
        "nested_parens": lambda n: "(" * (n // 2) + ")" * (n // 2),
        "parens_notam": lambda n: "(" * (n // 2 - 60) + _HEAD + "X" + _TAIL + ")" * 60,
        "item_blocks": lambda n: "(A0001/26 NOTAMN\n\n" + "A) LOVV\n\n" * (n // 9),
        "cjk_clauses": lambda n: "关于临时禁飞的通告\n" + "以北纬22°38′东经113°49′为中心，半径2公里，" * (n // 26),
        "radius_words": lambda n: "RADIUS " * (n // 7),
        # a radius, a blank run, then coordinates: the gap between them is read by a pattern (the shape the fuzz
        # found stalling at 3 000 blanks)
        "radius_blank_gap": lambda n: _HEAD + "PSN 480930N0161028E RADIUS 5NM" + " " * max(n - 180, 1)
        + "X 480940N0161030E 480950N0161040E" + _TAIL,
    }


# The worst time per character is taken over inputs of at least this many characters: below it the fixed cost of a
# call (a few milliseconds) is what a per-character figure would measure.
MIN_CHARS = 3_000
# Families that are whole batches (run through the splitter at batch sizes), the others are single messages.
BATCH_FAMILIES = ("label_blocks", "item_blocks", "nested_parens", "digit_run")
MESSAGE_SIZES = (1_000, 4_000, 16_000)
BATCH_SIZES = (20_000, 100_000, 400_000)


def _message_stages(text: str, as_batch: bool, report: Callable[[str, float, int | None], None]) -> None:
    """Run every stage on ``text`` (one message; the splitter families: one batch, splitter stages only), calling
    ``report(stage, seconds, output_bytes)`` as each one returns."""
    from airspace.parser.header import parse_header
    from airspace.parser.rules import RulesExtractor, rules_drafts
    from airspace.pipeline.batch import process_batch
    from airspace.pipeline.normalize import normalize
    from airspace.pipeline.split import read_jsonl, split_batch
    from airspace.pipeline.validate import validate

    def timed(stage: str, fn: Callable, *args):
        t0 = time.process_time()
        out = fn(*args)
        report(stage, time.process_time() - t0, None)
        return out

    timed("split_text", split_batch, text)
    timed("split_jsonl", read_jsonl, json.dumps({"text": text}))
    if as_batch:
        return
    header = timed("header", parse_header, text)
    drafts = timed("rules", rules_drafts, text, header)
    recs = timed("normalize", lambda: [normalize(d, text=text, message=0, zone=z) for z, d in enumerate(drafts)])
    timed("validate", lambda: [validate(r, header) for r in recs])
    records = timed("pipeline", lambda: process_batch(text, RulesExtractor())[0])
    _export_stages(records, report)


def _export_stages(records: list[ZoneRecord], report: Callable[[str, float, int | None], None]) -> None:
    from airspace.geo.export import to_ed269, to_ed318, to_geojson

    for name, fn in (("geojson", to_geojson), ("ed269", to_ed269), ("ed318", to_ed318)):
        t0 = time.process_time()
        doc = fn(records)
        report(name, time.process_time() - t0, len(json.dumps(doc, ensure_ascii=False)))


def _polygon_record(n: int, crossing: bool) -> tuple[ZoneRecord, int]:
    """A review record holding an ``n``-point polygon, and the characters its vertices take written as DMS."""
    pts = _ring(n, crossing, random.Random(n))
    rec = ZoneRecord(message=0, status="review", reasons=["stress"], geometry=PolygonGeometry(points=pts))
    return rec, len(_coords_text(pts))


def _jobs(quick: bool) -> list[tuple[str, int]]:
    """(family, size) in the order they run; ``<family>_message`` runs a batch family as one message."""
    msg_sizes = MESSAGE_SIZES[:2] if quick else MESSAGE_SIZES
    jobs: list[tuple[str, int]] = []
    for fam in families(random.Random(0)):
        if fam in BATCH_FAMILIES:
            jobs += [(fam, n) for n in (BATCH_SIZES[:2] if quick else BATCH_SIZES)]
            if fam != "label_blocks":  # a digit run, item blocks, parentheses are messages too
                jobs += [(fam + "_message", n) for n in msg_sizes]
        else:
            jobs += [(fam, n) for n in msg_sizes]
    for kind in ("convex", "self_crossing"):
        jobs += [("polygon_records_" + kind, n) for n in ((100, 300) if quick else (500, 1_000, 5_000))]
    return jobs


def _one(fam: str, n: int, report: Callable[[str, float, int | None], None]) -> int:
    """Measure one job; returns its input size in characters (reported first, as stage ``chars``)."""
    if fam.startswith("polygon_records_"):
        rec, chars = _polygon_record(n, fam.endswith("self_crossing"))
        report("chars", 0.0, chars)
        _export_stages([rec], report)
        return chars
    base = fam.removesuffix("_message")
    text = families(random.Random(0))[base](n)
    report("chars", 0.0, len(text))
    _message_stages(text, base in BATCH_FAMILIES and not fam.endswith("_message"), report)
    return len(text)


def _measure(fam: str, n: int, isolate_s: float | None) -> dict:
    """One run: ``{"family", "chars", "seconds": {stage: s}, "export_bytes": {stage: bytes}}``; in a child process
    killed after ``isolate_s`` seconds when given (the run then names the stage that did not return)."""
    run: dict = {"family": fam, "size": n, "seconds": {}, "export_bytes": {}}

    def take(stage: str, seconds: float, size: int | None) -> None:
        if stage == "chars":
            run["chars"] = size
            return
        run["seconds"][stage] = seconds
        if size is not None:
            run["export_bytes"][stage] = size

    if isolate_s is None:
        _one(fam, n, take)
        return run
    import subprocess

    cmd = [sys.executable, "-m", "airspace.eval.stress", "--one", fam, str(n)]
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=isolate_s)
        lines = p.stdout.splitlines()
    except subprocess.TimeoutExpired as exc:
        out = exc.stdout.decode() if isinstance(exc.stdout, bytes) else (exc.stdout or "")
        lines = out.splitlines()
        run["timed_out"] = isolate_s
    for line in lines:
        d = json.loads(line)
        take(d["stage"], d["seconds"], d.get("bytes"))
    if "timed_out" in run:
        order = ["chars", *STAGES] if fam not in BATCH_FAMILIES else ["chars", "split_text", "split_jsonl"]
        if fam.startswith("polygon_records_"):
            order = ["chars", "geojson", "ed269", "ed318"]
        done = [st for st in order if st in run["seconds"] or (st == "chars" and "chars" in run)]
        stuck = order[len(done)] if len(done) < len(order) else None
        if stuck:
            run["seconds"][stuck] = isolate_s  # a lower bound: the stage had not returned when it was stopped
            run["stuck_stage"] = stuck
    return run


def run(cap_s: float = 20.0, quick: bool = False, isolate_s: float | None = None) -> dict:
    runs: list[dict] = []
    capped: dict[str, int] = {}
    for fam, n in _jobs(quick):
        if fam in capped:
            continue
        r = _measure(fam, n, isolate_s)
        runs.append(r)
        print(f"  {fam} {r.get('chars')} chars: {sum(r['seconds'].values()):.2f} s"
              + (f" (stopped in {r['stuck_stage']})" if "stuck_stage" in r else ""), file=sys.stderr, flush=True)
        if "chars" not in r:
            r["chars"] = n
        if max(r["seconds"].values(), default=0.0) > cap_s or "timed_out" in r:
            capped[fam] = r["chars"]
    return summarise(runs, capped, cap_s)


def summarise(runs: list[dict], capped: dict[str, int], cap_s: float) -> dict:
    stages: dict[str, dict] = {}
    for st in STAGES:
        best = None
        for r in runs:
            s = r["seconds"].get(st)
            if s is None or (r["chars"] < MIN_CHARS and "timed_out" not in r):
                continue
            per = s / max(r["chars"], 1)
            if best is None or per > best["worst_s_per_char"]:
                best = {"worst_s_per_char": per, "family": r["family"], "chars": r["chars"], "seconds": s}
        if best is None:
            continue
        # growth exponent per family between its two largest sizes; the stage's worst is reported
        growth = {}
        by_fam: dict[str, list[dict]] = {}
        for r in runs:
            if st in r["seconds"]:
                by_fam.setdefault(r["family"], []).append(r)
        for fam, rs in by_fam.items():
            rs = sorted(rs, key=lambda r: r["chars"])
            if len(rs) >= 2:
                a, b = rs[-2], rs[-1]
                ta, tb = max(a["seconds"][st], 1e-4), max(b["seconds"][st], 1e-4)
                if tb > 0.01 and b["chars"] > a["chars"]:  # below 10 ms the timer noise decides
                    growth[fam] = round(math.log(tb / ta) / math.log(b["chars"] / a["chars"]), 2)
        if growth:
            fam = max(growth, key=growth.get)
            best["worst_growth_exponent"] = growth[fam]
            best["worst_growth_family"] = fam
        if st in ("geojson", "ed269", "ed318"):
            amp = max(((r["export_bytes"].get(st, 0) / max(r["chars"], 1), r["family"]) for r in runs
                       if st in r["export_bytes"]), default=(0.0, None))
            best["worst_output_bytes_per_char"] = round(amp[0], 1)
            best["worst_output_family"] = amp[1]
        stages[st] = best
    return {
        "machine": {"python": sys.version.split()[0], "platform": platform.platform()},
        "cap_s": cap_s,
        "timed_out": {r["family"]: {"chars": r["chars"], "stage": r.get("stuck_stage"), "after_s": r["timed_out"]}
                      for r in runs if "timed_out" in r},
        "stages": stages,
        "capped": capped,
        "runs": runs,
    }


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default="bench-results/stress.json")
    ap.add_argument("--cap-s", type=float, default=20.0, help="stop growing a family once a stage took this long")
    ap.add_argument("--quick", action="store_true", help="the two smaller message sizes, 100/300-point polygons")
    ap.add_argument("--isolate", type=float, metavar="S",
                    help="run each family and size in a child process stopped after S seconds (for code that stalls)")
    ap.add_argument("--one", nargs=2, metavar=("FAMILY", "SIZE"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.one:  # a child of --isolate: one JSON line per stage as it returns
        def emit(stage: str, seconds: float, size: int | None) -> None:
            print(json.dumps({"stage": stage, "seconds": seconds, "bytes": size}), flush=True)

        _one(args.one[0], int(args.one[1]), emit)
        return
    res = run(args.cap_s, args.quick, args.isolate)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.write_text(json.dumps(res, indent=1) + "\n")
    for st, v in res["stages"].items():
        extra = f", x{v['worst_growth_exponent']} ({v['worst_growth_family']})" if "worst_growth_exponent" in v else ""
        print(f"{st:12s} worst {v['worst_s_per_char'] * 1e6:9.2f} us/char ({v['family']}, {v['chars']} chars){extra}")
    if res["capped"]:
        print("capped:", ", ".join(f"{k} at {v} chars" for k, v in res["capped"].items()))
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
