"""``airspace-train``: train the Clover engine or the AR baseline on the synthetic corpus, on CPU or CUDA.

    airspace-train --arch clover --minutes 35 --seed 0 --out data/checkpoints/clover
    airspace-train --arch ar     --minutes 35 --seed 0 --out data/checkpoints/ar

Data: streamed from ``airspace.data.corpus.generate`` (or read from ``--corpus DIR`` with train.jsonl/val.jsonl).
Budget: wall-clock minutes of optimisation (evaluation time not counted); the learning rate follows the fraction of
the budget spent (warm-up, then cosine). Curriculum: messages of at most ``--short-chars`` characters for the
first ``--short-frac`` of the budget, then every message up to the context limit (longer ones are skipped and
counted, never cut). Writes the checkpoint (safetensors) with ``recipe.json`` and ``metrics.json`` every
``--save-every`` minutes and at the end; validation: teacher-forced loss during training, exact answer match on
``--val-n`` rows at the end.
"""

from __future__ import annotations

import argparse
import itertools
import json
import math
import platform
import random
import resource
import sys
import time
from pathlib import Path

import torch

from airspace.core.answer import AnswerFormatError
from airspace.model.backbone import Backbone
from airspace.model.build import build_model
from airspace.model.checkpoint import load_checkpoint, read_json, save_checkpoint
from airspace.model.config import DEFAULT_FIELDS, ModelConfig
from airspace.model.pointers import encode_example, encode_message, slot_names, slots_to_answer, spans_to_slots
from airspace.model.tokenizer import BLANK_RUNS, Tokenizer

PRESETS = {
    # the shipped default: learns on 2 CPU cores in about half an hour
    # GAGA rather than GGGA at this depth: two softmax hops for the copy circuit (locate the value, then read
    # the character at the block offset); every Clover mechanism lives in the two GDN layers.
    "small": dict(d_model=128, layer_pattern="GAGA", attn_heads=4, attn_head_dim=32, gdn_heads=4, gdn_head_k=32,
                  gdn_head_v=32, n_experts=4, top_k=2, expert_ff=192, shared_ff=192, block_size=20),
    "tiny": dict(d_model=64, layer_pattern="GA", attn_heads=2, attn_head_dim=32, gdn_heads=2, gdn_head_k=32,
                 gdn_head_v=32, n_experts=2, top_k=1, expert_ff=64, shared_ff=64, block_size=20),
    "base": dict(d_model=384, layer_pattern="GGGAGGGA", attn_heads=6, attn_head_dim=64, gdn_heads=6, gdn_head_k=64,
                 gdn_head_v=64, n_experts=8, top_k=2, expert_ff=512, shared_ff=512, block_size=20),
}


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


def peak_rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024.0


# ------------------------------------------------------------------------------------------------ data
def rows_from(corpus: str | None, split: str, seed: int, n: int | None = None, start: int = 0):
    """Iterator over corpus rows (dicts with text, answer)."""
    if corpus:
        with open(Path(corpus) / f"{split}.jsonl", encoding="utf-8") as f:
            rows = (json.loads(line) for line in f if line.strip())
            yield from itertools.islice(rows, start, None if n is None else start + n)
        return
    from airspace.data.corpus import generate

    yield from generate(n if n is not None else 10**9, seed=seed, split=split, start=start)


def snapshot_corpus(out: str | Path, n_train: int, n_val: int, seed: int = 0) -> dict:
    """Freeze the generator's rows into ``out``/{train,val}.jsonl so that both engines train on the same data even
    while the generator code changes; rows the generator cannot make are skipped and counted."""
    from airspace.data.corpus import make_row

    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    info: dict = {"seed": seed}
    for split, n in (("train", n_train), ("val", n_val)):
        bad = 0
        with open(out / f"{split}.jsonl", "w", encoding="utf-8") as fh:
            for i in range(n):
                try:
                    row = make_row(seed, split, i)
                except Exception:  # noqa: BLE001 - a generator bug costs one row, not the run
                    bad += 1
                    continue
                fh.write(json.dumps({k: row[k] for k in ("id", "family", "template", "text", "answer")},
                                    ensure_ascii=False) + "\n")
        info[split] = {"requested": n, "failed": bad}
    try:
        import subprocess

        info["generator_commit"] = subprocess.run(["git", "rev-parse", "HEAD"], capture_output=True, text=True,
                                                  cwd=Path(__file__).resolve().parents[1]).stdout.strip()
    except Exception:  # noqa: BLE001
        pass
    (out / "snapshot.json").write_text(json.dumps(info, indent=1) + "\n")
    return info


def init_from(ckpt_dir: str | Path, arch: str, texts, fields: list[str] | None = None) -> tuple[Backbone, Tokenizer]:
    """A checkpoint to continue training: its model (train mode, fp32) and its tokenizer with the characters of
    ``texts`` it lacks appended (old ids unchanged; new embedding rows drawn like a fresh model's). ``fields``: the
    answer grows to these fields (every field the checkpoint writes among them; ``Backbone.grow_fields``)."""
    model, old_tok = load_checkpoint(ckpt_dir, dtype=torch.float32)
    if model.cfg.arch != arch:
        raise ValueError(f"{ckpt_dir} is a {model.cfg.arch} checkpoint, not {arch}")
    grown = Tokenizer.from_texts(texts)
    tok = Tokenizer(old_tok.chars + [c for c in grown.chars if c not in old_tok.char_to_id], old_tok.blank_runs)
    model.grow_vocab(tok.vocab_size)
    if fields is not None and tuple(fields) != model.cfg.fields:
        model.grow_fields(fields)
    return model.train(), tok


def byte_dropout(text: str, rate: float, rng: random.Random) -> frozenset[int]:
    """Indices of non-ASCII characters to write as bytes, each with probability ``rate``: real messages carry
    characters the vocabulary lacks (a title's 设立, a traditional form), and a model that never saw a byte run in
    training points at it as if it were a value."""
    if rate <= 0:
        return frozenset()
    return frozenset(i for i, ch in enumerate(text) if ord(ch) > 127 and rng.random() < rate)


def encode_row(tok: Tokenizer, row: dict, as_bytes: frozenset[int] = frozenset(),
               fields: tuple[str, ...] = DEFAULT_FIELDS) -> tuple[list[int], list[int]]:
    """(prompt ids, gold pointer slots): from the row's own character spans where it has them (silver rows), else
    by grounding the answer's values in the message."""
    if "spans" in row:
        prompt, offsets = encode_message(tok, row["text"], as_bytes)
        return prompt, spans_to_slots([{k: tuple(v) for k, v in z.items()} for z in row["spans"]], offsets, fields)
    return encode_example(tok, row["text"], row["answer"], as_bytes, fields)


def batches(stream, tok: Tokenizer, model: Backbone, *, max_chars_fn, batch_tokens: int, rng: random.Random,
            pool: int = 256, skipped: dict, byte_rate: float = 0.0):
    """Length-bucketed batches: fill a pool, sort by cost (``model.example_cost``), cut into batches under
    ``batch_tokens``, shuffle. ``byte_rate``: see ``byte_dropout``."""
    cfg = model.cfg
    while True:
        items = []
        limit = max_chars_fn()
        for row in stream:
            if len(row["text"]) > limit:
                skipped["curriculum"] = skipped.get("curriculum", 0) + 1
                continue
            try:
                p, a = encode_row(tok, row, byte_dropout(row["text"], byte_rate, rng), cfg.fields)
            except AnswerFormatError:
                skipped["ungrounded"] = skipped.get("ungrounded", 0) + 1
                continue
            if len(p) > cfg.max_prompt_tokens or len(a) > cfg.max_answer_tokens:
                skipped["too_long"] = skipped.get("too_long", 0) + 1
                continue
            items.append((model.example_cost(len(p), len(a)), p, a))
            if len(items) >= pool:
                break
        if not items:
            return
        items.sort(key=lambda t: t[0])
        out, cur, cur_max = [], [], 0
        for it in items:
            m = max(cur_max, it[0])
            if cur and m * (len(cur) + 1) > batch_tokens:
                out.append(cur)
                cur, m = [], it[0]
            cur.append(it)
            cur_max = m
        if cur:
            out.append(cur)
        rng.shuffle(out)
        for b in out:
            yield [p for _, p, _ in b], [a for _, _, a in b]


# ------------------------------------------------------------------------------------------------ evaluation
@torch.no_grad()
def val_loss(model: Backbone, tok, val_rows, device, autocast) -> float:
    gen = torch.Generator().manual_seed(1234)
    tot, n = 0.0, 0
    for i in range(0, len(val_rows), 16):
        enc = [encode_row(tok, r, fields=model.cfg.fields) for r in val_rows[i:i + 16]]
        b = model.training_batch([e[0] for e in enc], [e[1] for e in enc], pad_id=tok.pad_id, generator=gen)
        b = b.to(device)
        with autocast():
            _, ce, _ = model.loss(b)
        k = int(b.loss_mask.sum())
        tot += float(ce) * k
        n += k
    return tot / max(n, 1)


@torch.no_grad()
def val_exact(model: Backbone, tok, val_rows, batch_size: int = 16) -> dict:
    """Exact answer-string match on ``val_rows`` by real decoding (the model's own engine)."""
    right, forwards, tokens = 0, 0, 0
    t0 = time.time()
    rows = sorted(val_rows, key=lambda r: len(r["text"]))
    for i in range(0, len(rows), batch_size):
        chunk = rows[i:i + batch_size]
        enc = [encode_message(tok, r["text"]) for r in chunk]
        prompts = [p for p, _ in enc]
        res = model.decode(prompts)
        for r, (_, offs), slots in zip(chunk, enc, res.slots):
            right += int(slots_to_answer(slots, offs, model.cfg.fields) == r["answer"])
        tokens += sum(res.tokens)
        forwards += res.forwards
    return {"val_exact": right / max(len(rows), 1), "val_rows": len(rows), "val_decode_s": round(time.time() - t0, 1),
            "val_tokens_per_forward": round(tokens / max(forwards, 1), 3)}


# ------------------------------------------------------------------------------------------------ main
def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="airspace-train", description=__doc__.split("\n\n")[0])
    ap.add_argument("--arch", choices=("clover", "ar"), required=True)
    ap.add_argument("--minutes", type=float, required=True,
                    help="optimisation budget in CPU minutes of this process (GPU: wall minutes)")
    ap.add_argument("--wall-cap-minutes", type=float, default=None,
                    help="stop earlier if this much wall-clock time has passed (shared, loaded machines)")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--out", required=True)
    ap.add_argument("--corpus", default=None, help="directory with train.jsonl / val.jsonl (default: stream)")
    ap.add_argument("--preset", choices=sorted(PRESETS), default="small")
    ap.add_argument("--config", default=None, help="JSON file with ModelConfig overrides")
    ap.add_argument("--batch-tokens", type=int, default=3072)
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--min-lr-frac", type=float, default=0.1)
    ap.add_argument("--warmup-steps", type=int, default=30)
    ap.add_argument("--weight-decay", type=float, default=0.01)
    ap.add_argument("--short-chars", type=int, default=600)
    ap.add_argument("--short-frac", type=float, default=0.4)
    ap.add_argument("--max-chars", type=int, default=2200)
    ap.add_argument("--val-n", type=int, default=64)
    ap.add_argument("--vocab-rows", type=int, default=20000)
    ap.add_argument("--save-every", type=float, default=5.0, help="minutes")
    ap.add_argument("--log-every", type=int, default=20)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--device", default="auto")
    ap.add_argument("--no-final-eval", action="store_true")
    ap.add_argument("--byte-dropout", type=float, default=0.0,
                    help="probability that a non-ASCII character of a training message is written as bytes, as an "
                         "unknown character would be (0 = off)")
    ap.add_argument("--init", default=None,
                    help="continue from this checkpoint directory (its config; its tokenizer grown by the new "
                         "characters of --vocab-rows, new embedding rows initialised like fresh ones)")
    ap.add_argument("--fields", default=None, type=lambda s: [f.strip() for f in s.split(",") if f.strip()],
                    help="comma-separated answer fields in slot order (default: the preset's, or the --init "
                         "checkpoint's); with --init, every field it writes must be among them: its weights are "
                         "kept and the new fields' slot embeddings initialised like fresh ones")
    ap.add_argument("--slot-weight", default="", type=parse_slot_weight,
                    help="loss weights of slots of the zone block, e.g. 'next=5' or 'upper=2' (a field: both its "
                         "slots; every other slot 1; default: unweighted). The `next` slot that ends a zone list is "
                         "one in 24, and a model that stops lists early gets it wrong far more often than the rest")
    ap.add_argument("--blank-runs", choices=BLANK_RUNS, default=None,
                    help="how the prompt writes a run of white space: 'keep' every character, or 'one' blank token "
                         "(every feed's layout of a notice is then one prompt); default: the --init checkpoint's, "
                         "else 'keep'")
    return ap.parse_args(argv)


def parse_slot_weight(text: str) -> dict[str, float]:
    """'next=4,anchor=2' -> {'next': 4.0, 'anchor': 2.0}."""
    out = {}
    for part in filter(None, (p.strip() for p in text.split(","))):
        name, _, value = part.partition("=")
        if not value or float(value) <= 0:
            raise argparse.ArgumentTypeError(f"slot weight {part!r} is not slot=positive number")
        out[name.strip()] = float(value)
    return out


def slot_weight_vector(weights: dict[str, float], fields) -> torch.Tensor | None:
    """A loss weight per slot of the block of ``fields`` (None when nothing is weighted)."""
    if not weights:
        return None
    names = slot_names(fields)
    unknown = sorted(set(weights) - set(names) - set(fields))
    if unknown:
        raise ValueError(f"--slot-weight names {unknown}, not slots of this block ({', '.join(names)}) nor fields")
    # a field's name weighs both its slots; a slot named itself wins
    return torch.tensor([weights.get(n, weights.get(n.split(".")[0], 1.0)) for n in names], dtype=torch.float32)


def run_device(name: str):
    """(device, budget clock, autocast factory) for ``--device``: bf16 autocast on CUDA; on a CPU the budget is the
    CPU time of this process, so two runs sharing a loaded machine get the same compute."""
    device = torch.device("cuda" if name == "auto" and torch.cuda.is_available() else
                          ("cpu" if name == "auto" else name))
    use_bf16 = device.type == "cuda"
    clock = time.perf_counter if use_bf16 else time.process_time

    def autocast():
        return torch.autocast("cuda", dtype=torch.bfloat16) if use_bf16 else torch.autocast("cpu", enabled=False)

    return device, clock, autocast


def main(argv=None) -> int:
    args = parse_args(argv)
    torch.set_num_threads(args.threads)
    random.seed(args.seed)
    torch.manual_seed(args.seed)
    device, clock, autocast = run_device(args.device)
    use_bf16 = device.type == "cuda"

    # tokenizer: ASCII + every non-ASCII character of the first rows of the training stream
    vocab_rows = list(rows_from(args.corpus, "train", args.seed, args.vocab_rows))
    init_info = None
    if args.init:
        model, tok = init_from(args.init, args.arch, (r["text"] for r in vocab_rows), args.fields)
        cfg = model.cfg
        init_info = {"from": args.init, "vocab_grown_to": tok.vocab_size, "fields": list(cfg.fields),
                     "layer_pattern": cfg.layer_pattern, "expert_ff": cfg.expert_ff, "shared_ff": cfg.shared_ff,
                     **{k: v for k, v in read_json(args.init, "recipe.json").items()
                        if k in ("command", "budget_minutes", "train_seconds", "steps", "examples", "data_snapshot",
                                 "hardware", "init", "soup")}}
    else:
        tok = Tokenizer.from_texts(r["text"] for r in vocab_rows)
        over = dict(PRESETS[args.preset])
        if args.config:
            over.update(json.loads(Path(args.config).read_text()))
        if args.fields:
            over.update(fields=tuple(args.fields), block_size=2 + 2 * len(args.fields))
        cfg = ModelConfig(arch=args.arch, vocab_size=tok.vocab_size, **over)
        model = build_model(cfg)
    del vocab_rows
    if args.blank_runs is not None:
        tok.blank_runs = args.blank_runs
    model = model.to(device)
    n_params = model.num_params()
    log(f"arch={cfg.arch} params={n_params} vocab={tok.vocab_size} device={device} threads={args.threads}")

    val_rows = list(rows_from(args.corpus, "val", args.seed + 1, args.val_n))
    slot_w = slot_weight_vector(args.slot_weight, cfg.fields)  # the val CE stays unweighted, comparable across runs
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if p.dim() < 2 or "norm" in name or "embed" in name else decay).append(p)
    opt = torch.optim.AdamW([{"params": decay, "weight_decay": args.weight_decay},
                             {"params": no_decay, "weight_decay": 0.0}], lr=args.lr, betas=(0.9, 0.98), eps=1e-8)
    budget = args.minutes * 60.0
    train_time = 0.0
    skipped: dict = {}
    rng = random.Random(args.seed)
    gen = torch.Generator().manual_seed(args.seed)
    stream = rows_from(args.corpus, "train", args.seed, None, start=args.vocab_rows if not args.corpus else 0)

    def max_chars():
        return args.short_chars if train_time < args.short_frac * budget else args.max_chars

    it = batches(stream, tok, model, max_chars_fn=max_chars, batch_tokens=args.batch_tokens, rng=rng, skipped=skipped,
                 byte_rate=args.byte_dropout)
    curve, val_curve = [], []
    step, examples, tokens = 0, 0, 0
    ema = None
    last_save = 0.0
    out = Path(args.out)
    recipe = {
        "arch": cfg.arch, "seed": args.seed, "budget_minutes": args.minutes, "preset": args.preset,
        "data": ("corpus dir " + args.corpus) if args.corpus else
                f"airspace.data.corpus.generate(seed={args.seed}, split='train') streamed from row {args.vocab_rows}",
        "val": f"first {args.val_n} rows of split 'val' (seed {args.seed + 1})",
        "curriculum": f"messages <= {args.short_chars} chars for the first {args.short_frac:.0%} of the budget, "
                      f"then <= {args.max_chars} chars",
        "objective": model.objective(),
        "optimizer": f"AdamW lr {args.lr} (warm-up {args.warmup_steps} steps, cosine to {args.min_lr_frac}x over the "
                     f"budget) wd {args.weight_decay} betas (0.9, 0.98) clip 1.0",
        "batch_tokens": args.batch_tokens,
        "byte_dropout": args.byte_dropout,
        "slot_weight": args.slot_weight or None,
        "hardware": {"device": str(device), "cpu": platform.processor() or platform.machine(),
                     "threads": args.threads, "cuda": torch.cuda.get_device_name(0) if device.type == "cuda" else None,
                     "bf16": use_bf16, "torch": torch.__version__, "python": sys.version.split()[0]},
        "command": "airspace-train " + " ".join(sys.argv[1:] if argv is None else argv),
    }
    if init_info:
        recipe["init"] = init_info
        recipe["preset"] = "from --init"
    if args.corpus and (Path(args.corpus) / "snapshot.json").is_file():  # a frozen snapshot says what it froze
        recipe["data_snapshot"] = json.loads((Path(args.corpus) / "snapshot.json").read_text())

    def metrics(final: dict | None = None) -> dict:
        m = {"params": n_params, "steps": step, "examples": examples, "tokens": tokens,
             "train_seconds": round(train_time, 1), "steps_per_s": round(step / max(train_time, 1e-9), 3),
             "tokens_per_s": round(tokens / max(train_time, 1e-9), 1), "final_train_ce": ema,
             "curve": curve, "val_curve": val_curve, "skipped": skipped, "peak_rss_mb": round(peak_rss_mb(), 1)}
        if device.type == "cuda":
            m["peak_cuda_mb"] = round(torch.cuda.max_memory_allocated() / 2**20, 1)
        if final:
            m.update(final)
        return m

    def save(final: dict | None = None):
        r = dict(recipe, steps=step, examples=examples, tokens=tokens, train_seconds=round(train_time, 1),
                 budget_clock="process CPU time" if device.type == "cpu" else "wall time",
                 wall_seconds=round(time.time() - wall0, 1), stopped_by=stop_reason)
        save_checkpoint(out, model, tok, recipe=r, metrics=metrics(final))

    model.train()
    wall0 = time.time()
    wall_cap = None if args.wall_cap_minutes is None else args.wall_cap_minutes * 60.0
    stop_reason = "budget"
    while train_time < budget:
        if wall_cap is not None and time.time() - wall0 > wall_cap:
            stop_reason = "wall-clock cap"
            log(f"wall-clock cap reached after {train_time / 60:.1f} budget minutes")
            break
        try:
            prompts, answers = next(it)
        except StopIteration:
            log("data exhausted")
            break
        t0 = clock()
        frac = train_time / budget
        lr = args.lr * min(1.0, (step + 1) / args.warmup_steps) * (
            args.min_lr_frac + (1 - args.min_lr_frac) * 0.5 * (1 + math.cos(math.pi * min(frac, 1.0))))
        for grp in opt.param_groups:
            grp["lr"] = lr
        b = model.training_batch(prompts, answers, pad_id=tok.pad_id, generator=gen, slot_weight=slot_w).to(device)
        with autocast():
            loss, ce, aux = model.loss(b)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
        opt.step()
        if device.type == "cuda":
            torch.cuda.synchronize()
        train_time += clock() - t0
        step += 1
        examples += len(prompts)
        tokens += b.n_tokens
        ce_f = float(ce)
        ema = ce_f if ema is None else 0.95 * ema + 0.05 * ce_f
        if step % args.log_every == 0:
            curve.append({"step": step, "t": round(train_time, 1), "ce": round(ema, 4), "aux": round(float(aux), 4),
                          "lr": round(lr, 6), "gnorm": round(float(gnorm), 3), "examples": examples})
            log(f"step {step} t={train_time:.0f}s ce={ema:.4f} aux={float(aux):.3f} lr={lr:.2e} "
                f"gnorm={float(gnorm):.2f} ex={examples} tok/s={tokens / train_time:.0f} max_chars={max_chars()}")
        if train_time - last_save >= args.save_every * 60.0:
            model.eval()
            vl = val_loss(model, tok, val_rows, device, autocast)
            model.train()
            val_curve.append({"step": step, "t": round(train_time, 1), "val_ce": round(vl, 4)})
            log(f"val ce {vl:.4f}")
            save()
            last_save = train_time
    model.eval()
    final = {"val_ce": round(val_loss(model, tok, val_rows, device, autocast), 4)}
    val_curve.append({"step": step, "t": round(train_time, 1), "val_ce": final["val_ce"]})
    save(final)
    if not args.no_final_eval:
        final.update(val_exact(model, tok, val_rows))
        save(final)
    log(f"done: {json.dumps(final)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
