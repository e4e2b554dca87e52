"""``make bench``: every engine on every evaluation set, in one process, on one machine; one JSON object out.

Sets:
- ``heldout``: the corpus's family-held-out test split (templates never seen in training), gold by construction;
- ``generated_val`` (not in the default sets): the corpus's val split (``--heldout-n`` rows of ``--seed``), gold by
  construction, per template; with ``archive_val`` the rows decoding choices are made on (``--go-on``);
- ``dev``: ``data/real/dev.jsonl`` (25 real messages; the 6 with hand-derived truth are scored);
- ``demo20``: the shipped 20-message demo batch with its expected records;
- ``composite5``: the shipped five-zone ICAO composite (circles and polygons in one item E), with its records;
- ``real``: the team's real test set (``data/eval/real_test.jsonl``: 135 messages drawn from the archive's test
  split, hand-derived truth; ``airspace.eval.realtest``): the share of truth fields right and the silently wrong
  records (``ok`` but wrong, with the rules cross-check that model engines run by default);
- ``real_relaid``: the same 135 messages, each laid out as another feed would (``realtest.relaid``: one item a
  line or one line, item E wrapped, item letters tight or spaced, no feed tail), scored against the same truth;
- ``real_rewritten``: the same 135 messages with their values written as other feeds write them
  (``realtest.rewritten``: ``451200N / 0013000E``, ``N451200 E0013000``, ``3,000 FT AMSL``, ``FL 120``), the same
  truth;
- ``archive``: the archive's test split (``airspace.data.realsplit``, no truth): how often each model engine reads
  a message as the rules engine does, the disagreements counted by kind;
- ``archive_val``: the same on the archive's val split, the rows stages are chosen on (the test split is only
  reported); ``dev`` reports that agreement too, over all 25 messages.
- ``world_test`` / ``world_val``: the world set (``airspace.data.world``: real messages from sources beyond the two
  archive feeds, split by source) scored zone by zone (``airspace.eval.world``: fields right, zones right and ``ok``,
  silently wrong records, ``ok`` zones on messages that define none), the records as the product ships them
  (cross-checked). The test split is scored once per shipped change (its history: ``docs/world-test.md``); every
  choice is made on val.

For each engine (clover, ar, rules) on each set: wall seconds, forward passes, answer tokens, tokens per forward,
records right / total, peak memory (resident-set growth during the run, sampled) — plus
``speedup_clover_vs_ar`` (AR wall / Clover wall) on each set, the same after the prompt read, the same with every
prompt read kept from before (the dashboard reads a batch ahead of its Run), and the ceiling the prompt read leaves
(AR wall / Clover's prompt read). Both model engines decode in the same batches. Every set but held-out is timed
as the median of ``--repeats`` passes (held-out: one pass) after a warm-up batch. Timings are ratios
within this one process; absolute seconds depend on the machine.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import sys
import threading
import time
from collections import defaultdict
from pathlib import Path

import torch

from airspace.core.contract import ModelStats, capabilities_of
from airspace.data.paths import archive_path, dev_set_path
from airspace.eval.compare import gold_from_dev_truth, records_right
from airspace.pipeline.batch import process_batch
from airspace.pipeline.engines import ENGINES, get_extractor
from airspace.pipeline.split import Message, split_batch

REPO = Path(__file__).resolve().parents[1]
SAMPLES = REPO / "data" / "samples"


class PeakRSS:
    """Samples this process's resident set size in a thread; ``peak_mb`` is the growth over the start value."""

    def __init__(self, interval: float = 0.005):
        self.interval = interval
        self._stop = threading.Event()
        self.start_mb = self.peak = _rss_mb()

    def __enter__(self):
        self._thread = threading.Thread(target=self._run, daemon=True)
        self._thread.start()
        return self

    def _run(self):
        while not self._stop.is_set():
            self.peak = max(self.peak, _rss_mb())
            time.sleep(self.interval)

    def __exit__(self, *exc):
        self._stop.set()
        self._thread.join()
        self.peak = max(self.peak, _rss_mb())

    @property
    def growth_mb(self) -> float:
        return round(self.peak - self.start_mb, 1)

    @property
    def peak_mb(self) -> float:
        return round(self.peak, 1)


def _rss_mb() -> float:
    try:
        with open("/proc/self/statm") as f:
            return int(f.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20
    except OSError:  # not Linux
        import resource

        return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# the real test set as laid out and relaid: scored against its truth, read in one pass like the other big sets
REAL_SETS = ("real", "real_relaid", "real_rewritten")
ARCHIVE_SETS = {"archive": "test", "archive_val": "val"}
WORLD_SETS = {"world_test": "test", "world_val": "val"}  # the world set's splits, scored zone by zone
ONE_PASS_SETS = ("heldout", "generated_val", *REAL_SETS, *ARCHIVE_SETS, *WORLD_SETS)
DEFAULT_SETS = "heldout,dev,demo20,composite5,real,real_relaid,real_rewritten,archive,archive_val,world_test"
GENERATED_SPLITS = {"heldout": "test", "generated_val": "val"}
AGREEMENT_SETS = (*ARCHIVE_SETS, "dev")  # sets where each model engine is compared with the rules reader


def load_set(name: str, n_heldout: int, seed: int) -> tuple[list[Message], list[list[dict] | None], list[str] | None]:
    """Messages, per message its gold zones (None = not scored), and for the generated sets each message's template
    (the accuracy is reported per template too; None for the others)."""
    if name in GENERATED_SPLITS:
        from airspace.data.corpus import generate

        rows = list(generate(n_heldout, seed, split=GENERATED_SPLITS[name]))
        return [Message(i, r["text"]) for i, r in enumerate(rows)], [r["zones"] for r in rows], [r["template"] for r in rows]
    if name == "dev":
        from airspace.pipeline.split import read_jsonl

        path = dev_set_path()
        text = path.read_text(encoding="utf-8")
        rows = [json.loads(line) for line in text.splitlines() if line.strip()]
        golds = [[gold_from_dev_truth(r["truth"])] if r.get("truth") else None for r in rows]
        return read_jsonl(text), golds, None
    if name in REAL_SETS:
        from airspace.eval.realtest import load_real_test, relaid, rewritten

        view = {"real": list, "real_relaid": relaid, "real_rewritten": rewritten}[name]
        rows = view(load_real_test())
        return [Message(i, r["text"]) for i, r in enumerate(rows)], [None] * len(rows), None
    if name in ARCHIVE_SETS:
        from airspace.data.realsplit import read_rows, rows_of_split

        rows = rows_of_split(read_rows(archive_path()), ARCHIVE_SETS[name])
        return [Message(i, r["text"]) for i, r in enumerate(rows)], [None] * len(rows), None
    if name in WORLD_SETS:
        from airspace.data.world import scored_rows
        from airspace.eval.world import world_messages

        rows = scored_rows(WORLD_SETS[name])
        return world_messages(rows), [None] * len(rows), None
    if name in ("demo20", "composite5"):
        messages = split_batch((SAMPLES / f"{name}.txt").read_text(encoding="utf-8"))
        golds: dict[int, list[dict]] = defaultdict(list)
        for line in (SAMPLES / f"{name}.expected.jsonl").read_text(encoding="utf-8").splitlines():
            if line.strip():
                row = json.loads(line)
                golds[row["message"]].append(row)
        return messages, [sorted(golds[m.index], key=lambda g: g.get("zone", 0)) for m in messages], None
    raise ValueError(f"unknown set {name!r}")


def score(records, golds, groups: list[str] | None = None) -> tuple[int, int, list[str], dict]:
    """(records right, records total, problems, per-group [right, total] when ``groups`` names each message)."""
    by_message = defaultdict(list)
    for rec in records:
        by_message[rec.message].append(rec)
    right = total = 0
    problems = []
    per_group: dict = {}
    for i, gold in enumerate(golds):
        if gold is None:
            continue
        recs = sorted(by_message.get(i, []), key=lambda r: r.zone)
        ok, diffs = records_right(recs, gold)
        right += ok
        total += len(gold)
        if groups is not None:
            g = per_group.setdefault(groups[i], [0, 0])
            g[0] += ok
            g[1] += len(gold)
        problems.extend(f"message {i}: {d}" for d in diffs)
    return right, total, problems, per_group


def _one_pass(extractor, messages: list[Message], batch: int) -> dict:
    """One pass of an engine over a set, in batches: times, counts and the records."""
    out = {"wall": 0.0, "prefill": 0.0, "forwards": 0, "tokens": 0, "steps": [], "repaired": 0, "cached": 0,
           "records": []}
    for lo in range(0, len(messages), batch):
        chunk = messages[lo : lo + batch]
        t0 = time.perf_counter()
        recs, stats = process_batch(chunk, extractor, cross_check=False)
        out["wall"] += time.perf_counter() - t0
        if isinstance(stats, ModelStats):  # an engine that is no model reports only its time
            out["prefill"] += stats.prefill_s
            out["forwards"] += stats.forwards
            out["tokens"] += stats.answer_tokens
            out["steps"].extend(stats.steps_per_block)
            out["repaired"] += stats.repaired
            out["cached"] += stats.prompts_cached
        out["records"].extend(recs)
    return out


def _median(passes: list[dict]) -> dict:
    """The pass of median wall time (the lower middle one of an even count)."""
    return sorted(passes, key=lambda p: p["wall"])[(len(passes) - 1) // 2]


def run_engine(engine: str, messages: list[Message], golds, batch: int, groups: list[str] | None = None,
               repeats: int = 1, keep: dict | None = None, prompts_kept: bool = True,
               checkpoints: str | None = None, go_on: float | None | str = "engine") -> dict:
    """An engine over a set: ``repeats`` timed passes after a warm-up batch; times are the median pass (every pass
    writes the same records: decoding is deterministic), with the fastest and slowest beside it."""
    ckpt = str(Path(checkpoints) / engine) if checkpoints else None  # an engine without weights ignores it
    extractor = get_extractor(engine, ckpt)
    model = capabilities_of(extractor).model
    if model and go_on != "engine":  # ``go_on_floor``: a floor, None (greedy) or the engine's own
        extractor.go_on = go_on
    # warm-up on one batch of the set: lazy loads, the allocator, the prompt-reading worker threads' first ops
    process_batch(messages[:batch], extractor, cross_check=False)
    cuda = torch.cuda.is_available() and model
    if cuda:
        torch.cuda.reset_peak_memory_stats()
    with PeakRSS() as mem:
        passes = [_one_pass(extractor, messages, batch) for _ in range(max(1, repeats))]
    walls = [p["wall"] for p in passes]
    run = _median(passes)
    forwards, tokens, steps, records = run["forwards"], run["tokens"], run["steps"], run["records"]
    right, total, problems, per_group = score(records, golds, groups)
    if keep is not None:
        keep["records"], keep["extractor"] = records, extractor
    out = {
        "wall_s": round(run["wall"], 4),
        "wall_s_range": [round(min(walls), 4), round(max(walls), 4)],  # fastest and slowest of the passes
        "passes": len(passes),
        "forwards": forwards,
        "prefill_s": round(run["prefill"], 4),  # model engines: the forwards that read the messages (per length group)
        "answer_tokens": tokens,
        "tokens_per_forward": round(tokens / forwards, 3) if forwards else None,
        "records_right": right,
        "records_total": total,
        "accuracy": round(right / total, 4) if total else None,
        "peak_mb": mem.peak_mb,  # whole-process resident set at its highest during this engine's run
        "peak_growth_mb": mem.growth_mb,  # what this run added on top of what earlier runs had already allocated
        "messages": len(messages),
        "first_problems": problems[:8],
    }
    if cuda:  # the model's tensors live on the GPU: its allocator's high-water mark
        out["gpu_peak_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
    if model:
        out["fields_repaired"] = run["repaired"]  # spans re-chosen among the model's alternatives so that they read
        if prompts_kept:
            out.update(_prompts_kept(extractor, messages, batch, repeats, records))
    if per_group:
        out["right_by_template"] = {k: f"{r}/{t}" for k, (r, t) in sorted(per_group.items())}
    if steps:
        out["steps_per_block"] = {
            "mean": round(sum(steps) / len(steps), 3),
            "max": max(steps),
            "histogram": {str(k): steps.count(k) for k in sorted(set(steps))},
        }
    return out


def real_scores(kept: dict, messages: list[Message], batch: int, key: str = "real") -> dict:
    """The real test set's numbers: fields right (the records as read), and silently wrong records as the product
    ships them (model engines cross-checked against the rules reading, their default)."""
    from airspace.eval.realtest import load_real_test, score_real

    rows = load_real_test()
    plain = score_real(kept["records"], rows)
    checked = []
    for lo in range(0, len(messages), batch):
        checked.extend(process_batch(messages[lo:lo + batch], kept["extractor"], cross_check=True)[0])
    product = score_real(checked, rows)
    out = plain.to_json()
    out["silent_wrong_no_cross_check"] = out.pop("silent_wrong")
    out["silent_no_cross_check"] = out.pop("silent")
    out["silent_wrong"] = product.silent_wrong
    out["silent"] = product.silent
    out["problems"] = out["problems"][:60]
    return {key: out}


def _prompts_kept(extractor, messages: list[Message], batch: int, repeats: int, records) -> dict:
    """The dashboard's mode beside the cold one: every message's prompt read kept from before (read ahead while the
    batch is on the page, ``decoding.ReadCache``), so a pass only writes the answers. Times are the median of
    ``repeats`` passes; the records must be the cold passes' (a mismatch is reported, never hidden)."""
    extractor.keep_prompt_reads(2**40)  # unbounded here: the set is read once
    try:
        for lo in range(0, len(messages), batch):
            extractor.read_ahead([m.text for m in messages[lo : lo + batch] if not m.error])
        passes = [_one_pass(extractor, messages, batch) for _ in range(max(1, repeats))]
    finally:
        extractor.keep_prompt_reads(0)
    run = _median(passes)
    same = [r.model_dump() for r in run["records"]] == [r.model_dump() for r in records]
    return {"prompts_kept": {"wall_s": round(run["wall"], 4), "prefill_s": round(run["prefill"], 4),
                             "prompts_cached": run["cached"], "records_as_cold": same}}


def go_on_floor(text: str) -> float | None | str:
    """``--go-on``: a log-prob floor, ``none`` (greedy) or ``engine`` (each engine's own, ``decoding.GO_ON``)."""
    if text in ("engine", "none"):
        return None if text == "none" else text
    try:
        return float(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a log-prob floor, 'none' or 'engine': {text!r}") from None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m airspace.eval.bench", description=__doc__.split("\n\n")[0])
    ap.add_argument("--sets", default=DEFAULT_SETS)
    ap.add_argument("--engines", default="clover,ar,rules")
    ap.add_argument("--heldout-n", type=int, default=200, help="messages drawn from the held-out test split")
    ap.add_argument("--seed", type=int, default=1234)
    ap.add_argument("--batch", type=int, default=20, help="messages decoded together (same for every engine)")
    ap.add_argument("--threads", type=int, default=0, help="torch threads (0 = torch default)")
    ap.add_argument("--repeats", type=int, default=5,
                    help="timed passes per engine over each set but held-out (one pass), the median reported")
    ap.add_argument("--checkpoints", default=None,
                    help="a directory holding clover/ and ar/ checkpoints (default: the shipped data/checkpoints)")
    ap.add_argument("--go-on", default="engine", metavar="FLOOR", type=go_on_floor,
                    help="model engines: the log-prob floor at which a NULL next goes on (decoding.going_on); "
                         "'engine': each engine's own (decoding.GO_ON), 'none': greedy")
    ap.add_argument("--out", default="bench-results/bench.json")
    args = ap.parse_args(argv)
    if args.threads:
        torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)

    result: dict = {
        "machine": {
            "platform": platform.platform(),
            "python": sys.version.split()[0],
            "torch": torch.__version__,
            "threads": torch.get_num_threads(),
            "device": torch.cuda.get_device_name(0) if torch.cuda.is_available() else "cpu",
        },
        "batch": args.batch,
        "go_on": "none" if args.go_on is None else args.go_on,
        "sets": {},
    }
    for set_name in args.sets.split(","):
        messages, golds, groups = load_set(set_name, args.heldout_n, args.seed)
        per_engine = {}
        kept: dict[str, dict] = {}
        for engine in args.engines.split(","):
            kept[engine] = {}
            try:
                per_engine[engine] = run_engine(engine, messages, golds, args.batch, groups,
                                                repeats=1 if set_name in ONE_PASS_SETS else args.repeats,
                                                keep=kept[engine],
                                                prompts_kept=set_name not in (*REAL_SETS, *ARCHIVE_SETS,
                                                                              *WORLD_SETS, "generated_val"),
                                                checkpoints=args.checkpoints, go_on=args.go_on)
            except Exception as exc:  # an engine that cannot run is reported, the others still run
                per_engine[engine] = {"error": f"{type(exc).__name__}: {exc}"}
            if set_name in REAL_SETS and "records" in kept[engine]:
                per_engine[engine].update(real_scores(kept[engine], messages, args.batch, set_name))
            if set_name in WORLD_SETS and "records" in kept[engine]:
                from airspace.data.world import scored_rows
                from airspace.eval.world import bench_scores

                per_engine[engine]["world"] = bench_scores(kept[engine]["extractor"], kept[engine]["records"],
                                                           messages, args.batch, scored_rows(WORLD_SETS[set_name]))
            print(f"[bench] {set_name:8s} {engine:6s} {json.dumps(per_engine[engine])[:300]}", file=sys.stderr)
        read = {e: k for e, k in kept.items() if "records" in k}
        # the rules reading: the one engine whose records are not cross-checked (they are what the others are
        # checked against)
        rules = next((k for k in read.values() if not capabilities_of(k["extractor"]).cross_checked), None)
        if set_name in AGREEMENT_SETS and rules is not None:
            from airspace.eval.realtest import agreement

            for engine, k in read.items():
                if capabilities_of(k["extractor"]).cross_checked:
                    per_engine[engine]["agreement_with_rules"] = agreement(k["records"], rules["records"],
                                                                           len(messages))
        result["sets"][set_name] = per_engine
        c, a = per_engine.get("clover", {}), per_engine.get("ar", {})
        if c.get("wall_s") and a.get("wall_s"):
            result.setdefault("speedup_clover_vs_ar", {})[set_name] = round(a["wall_s"] / c["wall_s"], 3)
            # the answer-writing part alone: both engines read the messages in the same length groups
            after = [e["wall_s"] - e.get("prefill_s", 0.0) for e in (a, c)]
            if after[1] > 0:
                result.setdefault("speedup_clover_vs_ar_after_prefill", {})[set_name] = round(after[0] / after[1], 3)
            kc, ka = c.get("prompts_kept", {}), a.get("prompts_kept", {})
            if kc.get("wall_s") and ka.get("wall_s"):  # both engines with every prompt read kept (the dashboard's Run)
                result.setdefault("speedup_clover_vs_ar_prompts_kept", {})[set_name] = round(
                    ka["wall_s"] / kc["wall_s"], 3)
            # the most Clover could gain on this machine if writing its answers cost nothing: its prompt read (the
            # same work as AR's: the same backbone over the same messages) stays
            if c.get("prefill_s"):
                result.setdefault("speedup_ceiling_at_this_prompt_read", {})[set_name] = round(
                    a["wall_s"] / c["prefill_s"], 3)
    training = {}
    for arch in ENGINES:  # each engine trained into a checkpoint has its training metrics beside its weights
        metrics = Path(args.checkpoints or REPO / "data" / "checkpoints") / arch / "metrics.json"
        if metrics.exists():
            m = json.loads(metrics.read_text())
            keep = ("params", "steps", "examples", "train_seconds", "peak_rss_mb", "val_ce", "val_exact")
            training[arch] = {k: m[k] for k in keep if k in m}
    result["training"] = training
    text = json.dumps(result, indent=2, ensure_ascii=False)
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    # (a result with the world sets' problem lists is ~1 MB indented: kept on one line, every clone carries it)
    out.write_text((text if len(text) < 100_000 else json.dumps(result, ensure_ascii=False, separators=(",", ":")))
                   + "\n", encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    sys.exit(main())
