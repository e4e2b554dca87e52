"""Throughput on the real archive: ``python -m airspace.eval.throughput --out bench-results/throughput.json``.

Messages per second and peak resident memory of each engine over the same archive rows, each engine in a process
of its own (so one engine's memory is not another's), idle and beside a busy neighbour (a process that spins one
core, as another job on the machine would); then the Ray actor pool with 1 and 2 workers (``--ray``), its
scaling efficiency, and what a year of world traffic would take on N such machines at the measured rate — stated
as arithmetic from the measurement, not measured.

Rates are wall-clock over the whole batch (split, read, cross-check, validate), the records as the CLI gets them.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import time

# NOTAMs issued a year (round numbers): international traffic ~1.7 M, FAA domestic over 1 M
WORLD_MESSAGES_PER_YEAR = 2_700_000


def _rows(n: int) -> list:
    from airspace.data.paths import archive_path
    from airspace.pipeline.split import Message

    lines = [json.loads(x) for x in archive_path().read_text(encoding="utf-8").splitlines() if x.strip()]
    return [Message(i, r["text"]) for i, r in enumerate(lines[:n])]


def one(engine: str, n: int, threads: int, ray_workers: int | None) -> dict:
    """One engine over ``n`` archive messages in this process (the child side of ``measure``)."""
    import torch

    if threads:
        torch.set_num_threads(threads)
    msgs = _rows(n)
    t0 = time.perf_counter()
    if ray_workers:
        from airspace.pipeline.ray_batch import read_with_ray

        records, _ = read_with_ray(msgs, engine, workers=ray_workers, threads=max(1, threads))
    else:
        from airspace.pipeline.batch import process_batch
        from airspace.pipeline.engines import get_extractor

        extractor = get_extractor(engine)
        t0 = time.perf_counter()  # the model's load is start-up, not throughput
        records, _ = process_batch(msgs, extractor)
    wall = time.perf_counter() - t0
    return {"engine": engine, "messages": len(msgs), "records": len(records), "wall_s": round(wall, 3),
            "msg_per_s": round(len(msgs) / wall, 2), "peak_rss_mb": round(
                resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1),
            "threads": threads, "ray_workers": ray_workers}


def measure(engine: str, n: int, threads: int, *, busy: bool = False, ray_workers: int | None = None) -> dict:
    """``one`` in a fresh process, beside a spinning neighbour when ``busy``."""
    neighbour = subprocess.Popen([sys.executable, "-c", "while True: pass"]) if busy else None
    try:
        cmd = [sys.executable, "-m", "airspace.eval.throughput", "--one", engine, "--n", str(n),
               "--threads", str(threads)] + (["--ray-workers", str(ray_workers)] if ray_workers else [])
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=3600)
        if p.returncode != 0:
            return {"engine": engine, "error": p.stderr.strip()[-400:]}
        out = json.loads(p.stdout.strip().splitlines()[-1])
    finally:
        if neighbour is not None:
            neighbour.kill()
            neighbour.wait()
    return {**out, "busy_neighbour": busy}


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m airspace.eval.throughput", description=__doc__.split("\n\n")[0])
    ap.add_argument("--engines", default="rules,clover,ar")
    ap.add_argument("--n", type=int, default=2000, help="archive messages per run (the same first n for each)")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: the engine's own default)")
    ap.add_argument("--ray", action="store_true", help="also Clover on the Ray actor pool with 1 and 2 workers")
    ap.add_argument("--no-busy", action="store_true", help="skip the runs beside a busy neighbour")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--ray-workers", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.n, args.threads, args.ray_workers)))
        return
    runs = []
    for engine in args.engines.split(","):
        runs.append(measure(engine, args.n, args.threads))
        if not args.no_busy:
            runs.append(measure(engine, args.n, args.threads, busy=True))
        print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    result: dict = {"host": platform.node(), "cores": len(os.sched_getaffinity(0)), "n": args.n, "runs": runs}
    idle = {r["engine"]: r for r in runs if not r.get("busy_neighbour") and "msg_per_s" in r}
    busy = {r["engine"]: r for r in runs if r.get("busy_neighbour") and "msg_per_s" in r}
    result["busy_slowdown"] = {e: round(idle[e]["msg_per_s"] / busy[e]["msg_per_s"], 2) for e in idle if e in busy}
    if args.ray:
        ray_runs = [measure("clover", args.n, 1, ray_workers=w) for w in (1, 2)]
        result["ray"] = ray_runs
        if all("msg_per_s" in r for r in ray_runs):
            result["ray_speedup_2_over_1"] = round(ray_runs[1]["msg_per_s"] / ray_runs[0]["msg_per_s"], 2)
    if "clover" in idle:
        rate = idle["clover"]["msg_per_s"]
        result["world_year"] = {
            "messages": WORLD_MESSAGES_PER_YEAR, "clover_msg_per_s_one_machine": rate,
            "hours_on": {str(m): round(WORLD_MESSAGES_PER_YEAR / (rate * m) / 3600, 2) for m in (1, 10, 100)},
            "arithmetic": "hours = messages / (measured msg/s per 2-core machine x machines) / 3600, assuming the "
                          "Ray pool scales as measured above",
        }
    text = json.dumps(result, indent=1)
    if args.out:
        os.makedirs(os.path.dirname(args.out) or ".", exist_ok=True)
        with open(args.out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
