"""Clover's wall time on a batch with the thread settings a process gets by default against one torch thread, on a
busy machine (other processes spinning on every core this process may use) and, optionally, an idle one.

Each setting runs in a fresh interpreter (torch fixes its thread pools at start), reads the same messages (the first
``--n`` of the real archive) through ``process_batch`` with the Clover engine once after a short warm-up, and
reports its wall seconds, the read workers and torch threads it used, and the cores it may use
(``os.sched_getaffinity``). One JSON object out.

    python -m airspace.eval.threads --n 225 --out bench-results/threads.json
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from pathlib import Path

_CHILD = r"""
import json, os, sys, time
import torch
from airspace.data.paths import archive_path
from airspace.model import reading
from airspace.pipeline.batch import process_batch
from airspace.pipeline.engines import get_extractor
from airspace.pipeline.split import read_jsonl
n = int(sys.argv[1])
lines = [ln for ln in open(archive_path(), encoding="utf-8").read().split("\n") if ln.strip()][:n]
msgs = read_jsonl("\n".join(lines))
ex = get_extractor("clover")
process_batch(msgs[:8], ex)
t = time.perf_counter()
recs, _ = process_batch(msgs, ex)
wall = time.perf_counter() - t
print(json.dumps({"wall_s": round(wall, 2), "messages": len(msgs), "records": len(recs),
                  "torch_threads": torch.get_num_threads(),
                  "read_workers": reading.read_workers(torch.device("cpu"), 64),
                  "cores": len(os.sched_getaffinity(0))}))
"""


def _spinners(k: int) -> list[subprocess.Popen]:
    return [subprocess.Popen([sys.executable, "-c", "while 1: pass"]) for _ in range(k)]


def run_one(n: int, env_extra: dict[str, str], timeout: float) -> dict:
    env = {**os.environ, **env_extra}
    for k in ("OMP_NUM_THREADS", "MKL_NUM_THREADS", "AIRSPACE_READ_WORKERS"):
        if k not in env_extra:
            env.pop(k, None)
    t = time.perf_counter()
    out = subprocess.run([sys.executable, "-c", _CHILD, str(n)], env=env, capture_output=True, text=True,
                         timeout=timeout)
    if out.returncode != 0:
        return {"error": out.stderr.strip().splitlines()[-1:] or [f"exit {out.returncode}"],
                "process_s": round(time.perf_counter() - t, 2)}
    res = json.loads(out.stdout.strip().splitlines()[-1])
    res["process_s"] = round(time.perf_counter() - t, 2)
    return res


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m airspace.eval.threads", description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=225, help="messages (the first N of the real archive)")
    ap.add_argument("--idle", action="store_true", help="also measure with no spinning processes")
    ap.add_argument("--timeout", type=float, default=900.0, help="seconds per setting")
    ap.add_argument("--out", type=Path, help="write the JSON here too")
    args = ap.parse_args(argv)
    cores = len(os.sched_getaffinity(0))
    settings = {"default": {}, "omp1": {"OMP_NUM_THREADS": "1"}}
    result: dict = {"messages": args.n, "cores": cores, "machine": platform.machine(), "python": platform.python_version(),
                    "busy": {}, "idle": {}}
    procs = _spinners(cores)
    try:
        time.sleep(1.0)
        for name, env in settings.items():
            result["busy"][name] = run_one(args.n, env, args.timeout)
            print(name, "busy", result["busy"][name], file=sys.stderr)
    finally:
        for p in procs:
            p.kill()
            p.wait()
    if args.idle:
        for name, env in settings.items():
            result["idle"][name] = run_one(args.n, env, args.timeout)
            print(name, "idle", result["idle"][name], file=sys.stderr)
    text = json.dumps(result, indent=2)
    print(text)
    if args.out:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        args.out.write_text(text + "\n")
    return 0


if __name__ == "__main__":
    sys.exit(main())
