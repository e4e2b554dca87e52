"""Throughput on the real archive: ``python -m airspace.eval.throughput --out bench-results/throughput.json``.

Messages per second and peak resident memory of each engine over the same archive rows, each engine in a process
of its own (so one engine's memory is not another's), idle and beside a busy neighbour (a process that spins one
core, as another job on the machine would); then the Ray actor pool with 1 and 2 workers (``--ray``), its
scaling efficiency, and what a year of world traffic would take on N such machines at the measured rate — stated
as arithmetic from the measurement, not measured.

Rates are wall-clock over the whole batch (split, read, cross-check, validate), the records as the CLI gets them;
start-up (loading the model; for Ray also starting the cluster and a first pool on a few messages) is not counted.
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


def _cpu_model() -> str:
    """The processor's name (rates differ between the machines a session gets; the ratios are per run)."""
    try:
        for line in open("/proc/cpuinfo", encoding="utf-8"):
            if line.startswith("model name"):
                return line.split(":", 1)[1].strip()
    except OSError:
        pass
    return platform.processor() or "unknown"


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
    startup = None
    if ray_workers:
        from airspace.pipeline.ray_batch import read_with_ray

        # the cluster's start and its first actors' model loads are start-up, as the one-process run's model load
        # is: a few messages first, then the timed run (whose actors load the model again, in parallel)
        read_with_ray(msgs[: 2 * ray_workers], engine, workers=ray_workers, threads=max(1, threads))
        startup = round(time.perf_counter() - t0, 3)
        t0 = time.perf_counter()
        records, _ = read_with_ray(msgs, engine, workers=ray_workers, threads=max(1, threads))
    else:
        from airspace.pipeline.batch import process_batch
        from airspace.pipeline.engines import get_extractor

        extractor = get_extractor(engine)
        if callable(getattr(extractor, "warm_up", None)):  # first-call costs (on CUDA: kernel compiles) are start-up
            extractor.warm_up()
        t0 = time.perf_counter()  # the model's load is start-up, not throughput
        records, _ = process_batch(msgs, extractor)
    wall = time.perf_counter() - t0
    out = {"engine": engine, "messages": len(msgs), "records": len(records), "wall_s": round(wall, 3),
           "msg_per_s": round(len(msgs) / wall, 2), "peak_rss_mb": round(
               resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0, 1),
           "threads": threads, "ray_workers": ray_workers, "int8": os.environ.get("AIRSPACE_INT8", "") == "1"}
    if startup is not None:
        out["ray_startup_s"] = startup
    if torch.cuda.is_available() and torch.cuda.max_memory_allocated() > 0:  # a model engine ran on the GPU
        out.update(device=torch.cuda.get_device_name(0), gpu_peak_mb=round(torch.cuda.max_memory_allocated() / 2**20,
                                                                            1))
    return out


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


def read_flops(cfg, length: int) -> dict:
    """Multiply-adds x 2 of Clover's prompt read of one message of ``length`` prompt tokens (message + SEP), counted
    from the config: every linear layer, the routed experts actually run (top-k, not all E), the shared expert, the
    GDN mixing (chunk delta rule states at chunk = block size, the history readout, the in-block softmax), the
    attention scores and values over the keys each token may see (block-causal: the blocks up to its own), the
    pointer keys; block padding counted as the engine computes it (the prompt is read in whole blocks). Norms,
    gates and other elementwise work are left out (they are not matmuls)."""
    bs, D = cfg.block_size, cfg.d_model
    T = -(-length // bs) * bs  # whole blocks
    H, K, V = cfg.gdn_heads, cfg.gdn_head_k, cfg.gdn_head_v
    C = 2 * H * K + H * V
    gdn_lin = D * (C + H * V + 2 * H) + H * V * D  # in, z, a/b and out projections
    # causal + anti-causal depthwise convs; per head: the UT solve, W S, the state update, the history readout and
    # the in-block softmax (scores and values)
    gdn_mix = 7 * C + H * (bs * K + bs * (K + V) // 2 + 3 * K * V + bs * (K + V))
    Ha, Dh = cfg.attn_heads, cfg.attn_head_dim
    attn_lin = D * 4 * Ha * Dh + Ha * Dh * D
    attn_keys = sum((b + 1) * bs * bs for b in range(T // bs))  # a token of block b sees (b + 1) * bs keys
    moe = D * cfg.n_experts + cfg.top_k * 3 * D * cfg.expert_ff + (3 * D * cfg.shared_ff + D if cfg.shared_ff else 0)
    n_g, n_a = cfg.layer_pattern.count("G"), cfg.layer_pattern.count("A")
    macs = {
        "linear_and_experts": T * (n_g * gdn_lin + n_a * attn_lin + (n_g + n_a) * moe + D * D + 32 * D),
        "gdn_mixing": T * n_g * gdn_mix,
        "attention": n_a * 2 * Ha * Dh * attn_keys,
    }
    return {k: 2 * v for k, v in macs.items()}


def matmul_gflops(threads: int, n: int = 2048, repeats: int = 5) -> dict:
    """This machine's float32 matmul rate at ``threads`` torch threads, the best of ``repeats`` n x n x n: per wall
    second, and per processor second of this process (on a machine shared with other work the processor-second
    rate is the steadier one; with one thread it is what one core gives when it runs)."""
    import torch

    before = torch.get_num_threads()
    torch.set_num_threads(threads)
    try:
        a, b = torch.randn(n, n), torch.randn(n, n)
        a @ b
        wall = cpu = float("inf")
        for _ in range(repeats):
            t0, c0 = time.perf_counter(), time.process_time()
            a @ b
            wall, cpu = min(wall, time.perf_counter() - t0), min(cpu, time.process_time() - c0)
        return {"per_wall_s": round(2 * n**3 / wall / 1e9, 1), "per_cpu_s": round(2 * n**3 / max(cpu, 1e-9) / 1e9, 1)}
    finally:
        torch.set_num_threads(before)


def floor(n: int, threads: tuple[int, ...] = (1, 2)) -> dict:
    """The read's FLOPs per message on the first ``n`` archive rows against the measured matmul rate: the most
    messages a second the read alone could reach at that rate (the floor under the read's time)."""
    from airspace.model.checkpoint import load_checkpoint
    from airspace.model.engine import DEFAULT_CHECKPOINTS
    from airspace.model.pointers import encode_message

    model, tok = load_checkpoint(DEFAULT_CHECKPOINTS["clover"])
    cfg = model.cfg
    lengths = [len(encode_message(tok, m.text)[0]) for m in _rows(n)]
    lengths = [L for L in lengths if L <= cfg.max_prompt_tokens]
    parts: dict[str, float] = {}
    for L in lengths:
        for k, v in read_flops(cfg, L).items():
            parts[k] = parts.get(k, 0.0) + v / len(lengths)
    per_msg = sum(parts.values())
    rates = {str(t): matmul_gflops(t) for t in threads}
    return {
        "messages": len(lengths), "mean_prompt_tokens": round(sum(lengths) / len(lengths), 1),
        "read_mflops_per_message": round(per_msg / 1e6, 2),
        "read_mflops_by_part": {k: round(v / 1e6, 2) for k, v in parts.items()},
        "matmul_gflops_fp32": rates,
        "read_floor_msg_per_s": {t: round(r["per_wall_s"] * 1e9 / per_msg, 1) for t, r in rates.items()},
        "read_floor_msg_per_cpu_s": round(rates[str(threads[0])]["per_cpu_s"] * 1e9 / per_msg, 1),
        "config": {k: getattr(cfg, k) for k in ("layer_pattern", "d_model", "n_experts", "top_k", "expert_ff",
                                                  "shared_ff", "gdn_heads", "attn_heads", "block_size")},
    }


INT8_SETS = "real,real_relaid,real_rewritten,archive,archive_val,heldout,dev,demo20,composite5"
VALIDATION_SETS = ("archive_val", "generated_val")  # where an accuracy change may be stated (choices are made there)


def int8_records(sets: str, engines: str, chunk: int = 64) -> dict:
    """Each engine in float32 and in int8 (``model.quant``) over each bench set, in this one process: the records
    compared message for message (``model_dump_json`` of every record, cross-checked as the CLI runs), and the
    wall and processor time of each reading (ratios only: both in the same process, back to back per chunk; on a
    busy machine the processor seconds are the steadier measure, with one torch thread). A set in
    ``VALIDATION_SETS`` is marked so: the only sets where a difference may be stated rather than fixed."""
    from airspace.eval.bench import load_set
    from airspace.model.engine import load_extractor
    from airspace.pipeline.batch import process_batch

    out: dict = {}
    for engine in engines.split(","):
        modes = {"fp32": load_extractor(engine, int8=False), "int8": load_extractor(engine, int8=True)}
        for ex in modes.values():
            ex.warm_up()
        for name in sets.split(","):
            messages, _, _ = load_set(name, 200, 1234)
            walls = {m: 0.0 for m in modes}
            cpus = {m: 0.0 for m in modes}
            recs: dict[str, list] = {m: [] for m in modes}
            for lo in range(0, len(messages), chunk):
                part = messages[lo:lo + chunk]
                for mode, ex in modes.items():
                    t0, c0 = time.perf_counter(), time.process_time()
                    r, _ = process_batch(part, ex)
                    walls[mode] += time.perf_counter() - t0
                    cpus[mode] += time.process_time() - c0
                    recs[mode].extend(r)
            by = {m: {} for m in modes}
            for mode, rs in recs.items():
                for r in rs:
                    by[mode].setdefault(r.message, []).append(r.model_dump_json())
            differ = [i for i in sorted(set(by["fp32"]) | set(by["int8"])) if by["fp32"].get(i) != by["int8"].get(i)]
            out.setdefault(engine, {})[name] = {
                "validation": name in VALIDATION_SETS, "messages": len(messages), "records_fp32": len(recs["fp32"]), "records_int8": len(recs["int8"]),
                "messages_differing": len(differ), "first_differing": differ[:10],
                "wall_s": {m: round(w, 3) for m, w in walls.items()},
                "cpu_s": {m: round(c, 3) for m, c in cpus.items()},
                "int8_speedup_cpu": round(cpus["fp32"] / cpus["int8"], 3) if cpus["int8"] else None,
            }
            print(json.dumps({engine: {name: out[engine][name]}}), file=sys.stderr, flush=True)
    out["identical_everywhere"] = all(v["messages_differing"] == 0 for e in out.values() if isinstance(e, dict)
                                      for v in e.values())
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m airspace.eval.throughput", description=__doc__.split("\n\n")[0])
    ap.add_argument("--engines", default="rules,clover,ar")
    ap.add_argument("--n", type=int, default=2000, help="archive messages per run (the same first n for each)")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0: the engine's own default)")
    ap.add_argument("--ray", action="store_true", help="also Clover on the Ray actor pool with 1 and 2 workers")
    ap.add_argument("--no-busy", action="store_true", help="skip the runs beside a busy neighbour")
    ap.add_argument("--int8-records", action="store_true",
                    help="instead: float32 vs int8 records message for message on the bench sets (--sets)")
    ap.add_argument("--sets", default=INT8_SETS, help="bench sets for --int8-records")
    ap.add_argument("--floor", action="store_true",
                    help="instead: the read's FLOPs per archive message (first --n rows) against the measured "
                         "float32 matmul rate at 1 and 2 threads")
    ap.add_argument("--one", help=argparse.SUPPRESS)
    ap.add_argument("--ray-workers", type=int, default=None, help=argparse.SUPPRESS)
    ap.add_argument("--out", default=None)
    args = ap.parse_args(argv)
    if args.one:
        print(json.dumps(one(args.one, args.n, args.threads, args.ray_workers)))
        return
    if args.threads:
        import torch

        torch.set_num_threads(args.threads)
    if args.floor:
        _write(json.dumps(floor(args.n), indent=1), args.out)
        return
    if args.int8_records:
        _write(json.dumps(int8_records(args.sets, args.engines), indent=1), args.out)
        return
    runs = []
    for engine in args.engines.split(","):
        runs.append(measure(engine, args.n, args.threads))
        if not args.no_busy:
            runs.append(measure(engine, args.n, args.threads, busy=True))
        print(json.dumps(runs[-1]), file=sys.stderr, flush=True)
    result: dict = {"host": platform.node(), "cpu": _cpu_model(), "cores": len(os.sched_getaffinity(0)), "n": args.n,
                    "runs": runs}
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
    _write(json.dumps(result, indent=1), args.out)
    failed = [r["engine"] for r in runs + result.get("ray", []) if "error" in r]
    if failed:  # the report is written all the same; the exit status says a run failed (scripts/device-check.sh)
        sys.exit(f"runs failed: {', '.join(failed)}")


def _write(text: str, out: str | None) -> None:
    if out:
        os.makedirs(os.path.dirname(out) or ".", exist_ok=True)
        with open(out, "w", encoding="utf-8") as f:
            f.write(text + "\n")
    print(text)


if __name__ == "__main__":
    main()
