"""Self-supervised pretraining of the shared backbone on real message text, and Clover's conversion from that base.

DESIGN.md's order is "base, then conversion": an autoregressive base learns what messages look like from their
text alone (no labels), then both engines start from it. Here the base is the ``ar`` model trained on next-token
prediction (one token per character, ``tokenizer.py``) over

* the real archive's **train split only** (``airspace.eval.realsplit.split_of`` by NOTAM id: val and test rows are
  never read into the base, so the silver val rows and the team's test set stay unseen),
* the real dev messages (their text; the truth is not read),
* ``--generated`` texts of the generator's train split from the families the archive lacks (Chinese-language
  notices, dispatcher free text, TFR pages: ``FAMILIES_ARCHIVE_LACKS``).

The output head is the input embedding, tied, so a base has no weight the engines lack and ``airspace-train
--init`` reads it as any other ``ar`` checkpoint; the pointer head (``ptr_*``, ``slot_embed``) gets no gradient
here and stays at its init. The tokenizer is built as ``airspace-train`` builds one (``Tokenizer.from_texts``, here
over every base text), so a later ``--init`` grows it by a corpus's new characters. The budget is process CPU time
on a CPU (wall time on CUDA), AdamW with warm-up and cosine as in ``training.py``. A few texts are held back
(whole NOTAM ids, never dev messages) for the held-out cross-entropy in ``metrics.json``.

Conversion (``convert_model``): an ``ar`` base becomes a ``CloverLM`` with every shared tensor copied bit for bit
(embeddings, every projection and norm, the GDN layers' causal conv, the MoE, the pointer head) and Clover's own
parameters (``CLOVER_OWN``, each ``BlockGatedDeltaNet``'s) at their init: the right-context conv ``rconv_w`` zero,
the history slot's bias ``hist_b`` zero, its block-size calibration ``hist_c`` at ``calib_init_c``, the in-block
softmax temperature ``q_logtemp`` at log sqrt(K). A base whose tensors are not the shared ones of a Clover of its
config (missing, extra, another shape) or that is not an ``ar`` checkpoint is refused.

What the conversion keeps exactly, and what it cannot: Clover's mixers are not the base's (its GDN layers answer a
block query by one softmax over the block's keys plus the history readout slot instead of the delta rule's own
readout; its attention sees the current block both ways), so no setting of its own parameters makes its hidden
states the base's. Given the same layer input, every converted layer reads and remembers what the base's does: in
a GDN layer the q/k/v features (causal conv + the zero right-context conv) and the conv tail are bit-identical and
the recurrent state the history slot reads, at every block boundary, is the base's (equal up to the chunk scan's
rounding: Clover cuts it at the block size); in an attention layer the KV cache is bit-identical and the output at
each block's last position (where block-causal and causal see the same keys) equals the base's
(``tests/test_pretrain.py``).

    python -m airspace.model.pretrain --out runs/base --archive data/real/archive.jsonl \\
        --dev data/real/dev.jsonl --generated 6000 --minutes 15 --threads 1 --seed 8
    python -m airspace.model.pretrain --convert runs/base --out runs/base-clover
    airspace-train --arch ar     --init runs/base        --corpus runs/corpus8 --minutes 40 --out runs/ar ...
    airspace-train --arch clover --init runs/base-clover --corpus runs/corpus8 --minutes 40 --out runs/clover ...

(``airspace-pretrain`` is the same command.)
"""

from __future__ import annotations

import argparse
import math
import platform
import random
import sys
import time
from dataclasses import dataclass, replace
from pathlib import Path

import torch
import torch.nn.functional as F

from airspace.model.backbone import Backbone
from airspace.model.build import build_model
from airspace.model.checkpoint import expected_shapes, load_checkpoint, read_json, save_checkpoint
from airspace.model.config import ModelConfig
from airspace.model.layers import BlockGatedDeltaNet
from airspace.model.tokenizer import Tokenizer

# the generator's families whose kind of text the real archive does not hold (it is ICAO / FAA NOTAMs)
FAMILIES_ARCHIVE_LACKS = ("chinese", "freetext", "tfr")
# parameters only a CloverLM has (every BlockGatedDeltaNet's); a conversion leaves them at their init
CLOVER_OWN = ("rconv_w", "q_logtemp", "hist_b", "hist_c")
HELD_OUT_TEXTS = 64


def log(msg: str) -> None:
    print(f"[{time.strftime('%H:%M:%S')}] {msg}", flush=True)


# ------------------------------------------------------------------------------------------------ data
@dataclass(frozen=True)
class Text:
    """One pretraining text and where it came from (``source``: archive, dev or generated; ``id``: its NOTAM id,
    dev id or generated row id)."""

    source: str
    id: str
    text: str


def archive_texts(path: str | Path) -> tuple[list[Text], set[str]]:
    """(the archive's train-split rows (by NOTAM id), the texts of its val and test rows): the second never
    enters the base, whichever source brings it."""
    from airspace.eval.realsplit import read_rows, split_of

    train, withheld = [], set()
    for r in read_rows(path):
        if split_of(r["id"]) == "train":
            train.append(Text("archive", r["id"], r["text"]))
        else:
            withheld.add(r["text"])
    return train, withheld


def dev_texts(path: str | Path) -> list[Text]:
    """The dev messages' text (their truth is not read)."""
    from airspace.eval.realsplit import read_rows

    return [Text("dev", r["id"], r["text"]) for r in read_rows(path)]


def generated_texts(n: int, seed: int, families: tuple[str, ...] = FAMILIES_ARCHIVE_LACKS) -> list[Text]:
    """``n`` texts of the generator's train split (``seed``) from ``families``, in stream order."""
    from airspace.data.corpus import generate

    out: list[Text] = []
    if n <= 0:
        return out
    for row in generate(10**9, seed=seed, split="train"):
        if row["family"] in families:
            out.append(Text("generated", row["id"], row["text"]))
            if len(out) == n:
                return out
    return out


def base_texts(archive: str | None, dev: str | None, n_generated: int, seed: int) -> list[Text]:
    """Every pretraining text: archive train rows, dev messages, generated texts; exact repeats kept once, and no
    text of an archive val or test row (two dev messages are one)."""
    train, withheld = archive_texts(archive) if archive else ([], set())
    texts = train + (dev_texts(dev) if dev else []) + generated_texts(n_generated, seed)
    seen: set[str] = set(withheld)
    out = []
    for t in texts:
        if t.text.strip() and t.text not in seen:
            seen.add(t.text)
            out.append(t)
    return out


def hold_back(texts: list[Text], n: int, seed: int) -> tuple[list[Text], list[Text]]:
    """(train, held-out): whole ids (every revision of a NOTAM together) of archive and generated texts are held
    back until at least ``n`` texts are; dev messages always train (there are only 25)."""
    groups: dict[tuple[str, str], list[int]] = {}
    for i, t in enumerate(texts):
        if t.source != "dev":
            groups.setdefault((t.source, t.id), []).append(i)
    keys = sorted(groups)
    random.Random(seed).shuffle(keys)
    held: set[int] = set()
    for k in keys:
        if len(held) >= n:
            break
        held.update(groups[k])
    return [t for i, t in enumerate(texts) if i not in held], [t for i, t in enumerate(texts) if i in held]


def encode(tok: Tokenizer, text: str) -> list[int]:
    """A text as the engines' prompts are: its characters, then SEP (so the base also learns where a message
    ends)."""
    return tok.encode_prompt(text)


def window(ids: list[int], max_len: int, rng: random.Random) -> list[int]:
    """A random window of ``max_len`` tokens of a longer text (every part of a long message gets its turn)."""
    if len(ids) <= max_len:
        return ids
    start = rng.randrange(len(ids) - max_len + 1)
    return ids[start:start + max_len]


def lm_batches(encoded: list[list[int]], *, max_len: int, batch_tokens: int, rng: random.Random, pool: int = 256):
    """Endless length-bucketed batches of windows (lists of ids), as ``training.batches`` cuts them: a pool sorted
    by length, cut under ``batch_tokens`` padded tokens, the batches shuffled; epoch after epoch."""
    usable = [ids for ids in encoded if len(ids) >= 2]
    if not usable:
        raise ValueError("no text of at least two tokens to pretrain on")
    while True:
        order = list(range(len(usable)))
        rng.shuffle(order)
        for s in range(0, len(order), pool):
            items = sorted((window(usable[i], max_len, rng) for i in order[s:s + pool]), key=len)
            out, cur = [], []
            for ids in items:
                if cur and len(ids) * (len(cur) + 1) > batch_tokens:
                    out.append(cur)
                    cur = []
                cur.append(ids)
            out.append(cur)
            rng.shuffle(out)
            yield from out


def pad_right(batch: list[list[int]], pad_id: int) -> tuple[torch.Tensor, torch.Tensor]:
    """(ids [B, T], valid [B, T]); right padding: no causal position sees it, and it is no target."""
    n = max(len(b) for b in batch)
    ids = torch.full((len(batch), n), pad_id, dtype=torch.long)
    valid = torch.zeros((len(batch), n), dtype=torch.bool)
    for i, b in enumerate(batch):
        ids[i, :len(b)] = torch.tensor(b, dtype=torch.long)
        valid[i, :len(b)] = True
    return ids, valid


# ------------------------------------------------------------------------------------------------ objective
def lm_loss(model: Backbone, ids: torch.Tensor, valid: torch.Tensor) -> tuple[torch.Tensor, torch.Tensor, int]:
    """(total loss, next-token CE, targets): every real token after the first is predicted from the causal pass's
    final hidden state before it, through the input embedding (tied head); plus the MoE load-balancing loss."""
    out = model(clean_valid=valid, clean_ids=ids)
    target_mask = valid[:, 1:]  # right padding: a real target always follows a real position
    h = out.clean[:, :-1][target_mask]
    logits = h @ model.embed.weight.to(h.dtype).T
    ce = F.cross_entropy(logits.float(), ids[:, 1:][target_mask])
    return ce + model.cfg.aux_loss_coef * out.aux, ce.detach(), int(target_mask.sum())


def make_optimizer(model: Backbone, lr: float, weight_decay: float) -> torch.optim.AdamW:
    """AdamW as ``airspace-train`` makes it: no decay on norms, embeddings and vectors."""
    decay, no_decay = [], []
    for name, p in model.named_parameters():
        (no_decay if p.dim() < 2 or "norm" in name or "embed" in name else decay).append(p)
    return torch.optim.AdamW([{"params": decay, "weight_decay": weight_decay},
                              {"params": no_decay, "weight_decay": 0.0}], lr=lr, betas=(0.9, 0.98), eps=1e-8)


def lr_at(step: int, frac: float, lr: float, warmup_steps: int, min_lr_frac: float) -> float:
    """Linear warm-up over steps, then cosine to ``min_lr_frac`` over the fraction of the budget spent."""
    return lr * min(1.0, (step + 1) / warmup_steps) * (
        min_lr_frac + (1 - min_lr_frac) * 0.5 * (1 + math.cos(math.pi * min(frac, 1.0))))


def train_step(model: Backbone, opt: torch.optim.Optimizer, ids: torch.Tensor, valid: torch.Tensor,
               lr: float, autocast=None) -> tuple[float, float, int]:
    """One optimisation step -> (next-token CE, gradient norm, targets)."""
    for grp in opt.param_groups:
        grp["lr"] = lr
    with autocast() if autocast else torch.autocast("cpu", enabled=False):
        loss, ce, n = lm_loss(model, ids, valid)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    gnorm = torch.nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    return float(ce), float(gnorm), n


@torch.no_grad()
def held_out_ce(model: Backbone, tok: Tokenizer, texts: list[Text], *, max_len: int, device,
                batch_tokens: int = 8192) -> dict:
    """Token-weighted next-token CE on ``texts`` (each text's first ``max_len`` tokens), overall and by source."""
    was = model.training
    model.eval()
    sums: dict[str, list[float]] = {}
    enc = sorted(((t.source, encode(tok, t.text)[:max_len]) for t in texts), key=lambda x: len(x[1]))
    i = 0
    while i < len(enc):
        j = i + 1
        while j < len(enc) and len(enc[j][1]) * (j - i + 1) <= batch_tokens:
            j += 1
        ids, valid = pad_right([e[1] for e in enc[i:j]], tok.pad_id)
        out = model(clean_valid=valid.to(device), clean_ids=ids.to(device))
        logits = (out.clean[:, :-1] @ model.embed.weight.to(out.clean.dtype).T).float()
        nll = F.cross_entropy(logits.transpose(1, 2), ids[:, 1:].to(device), reduction="none").cpu()
        mask = valid[:, 1:]
        for r, (src, _) in enumerate(enc[i:j]):
            sums.setdefault(src, [0.0, 0])
            sums[src][0] += float(nll[r][mask[r]].sum())
            sums[src][1] += int(mask[r].sum())
        i = j
    model.train(was)
    tot = sum(s for s, _ in sums.values()), sum(n for _, n in sums.values())
    return {"ce": round(tot[0] / max(tot[1], 1), 4), "tokens": tot[1], "texts": len(texts),
            "by_source": {k: round(s / max(n, 1), 4) for k, (s, n) in sorted(sums.items())}}


# ------------------------------------------------------------------------------------------------ conversion
def clover_own_keys(cfg: ModelConfig) -> set[str]:
    """The tensors a Clover of ``cfg``'s sizes has and its ``ar`` twin lacks (every GDN layer's ``CLOVER_OWN``)."""
    clover = expected_shapes(replace(cfg, arch="clover"))
    return set(clover) - set(expected_shapes(replace(cfg, arch="ar")))


def check_base(base: Backbone) -> None:
    """Refuse a base that is not an ``ar`` model whose tensors are exactly the shared ones of a Clover of its
    config (same names, same shapes)."""
    if base.cfg.arch != "ar":
        raise ValueError(f"a base to convert must be an 'ar' checkpoint, not {base.cfg.arch!r}")
    clover = expected_shapes(replace(base.cfg, arch="clover"))
    have = {k: tuple(v.shape) for k, v in base.state_dict().items()}
    own = {k for k in set(clover) - set(have) if k.rsplit(".", 1)[-1] in CLOVER_OWN}
    missing = sorted(set(clover) - set(have) - own)
    extra = sorted(set(have) - set(clover))
    wrong = sorted(k for k in set(have) & set(clover) if have[k] != clover[k])
    if missing or extra or wrong:
        parts = [f"{len(missing)} shared tensors missing (e.g. {missing[0]})"] if missing else []
        parts += [f"{len(extra)} tensors Clover does not have (e.g. {extra[0]})"] if extra else []
        parts += [f"{len(wrong)} of another shape (e.g. {wrong[0]}: {list(have[wrong[0]])}, a Clover of this "
                  f"config has {list(clover[wrong[0]])})"] if wrong else []
        raise ValueError("the base does not match a Clover of its config: " + "; ".join(parts))


def zero_right_context(model: Backbone) -> None:
    """Zero every right-context conv: with it zero a GDN layer's features are exactly the causal conv's, which
    the base's weights were trained for (its default init, set here whatever the default becomes)."""
    with torch.no_grad():
        for m in model.modules():
            if isinstance(m, BlockGatedDeltaNet):
                m.rconv_w.zero_()


def convert_model(base: Backbone) -> Backbone:
    """An ``ar`` base -> a ``CloverLM`` of the same config: every shared tensor copied (same dtype, bit for bit),
    Clover's own parameters at their init, the right-context conv zero."""
    check_base(base)
    with torch.random.fork_rng():  # the fresh model's random draws are all overwritten; leave the caller's RNG
        clover = build_model(replace(base.cfg, arch="clover"))
    clover.to(next(base.parameters()).dtype)
    result = clover.load_state_dict(base.state_dict(), strict=False)
    own = clover_own_keys(base.cfg)
    if result.unexpected_keys or set(result.missing_keys) != own:
        raise ValueError(f"the base does not load into a Clover: missing {sorted(set(result.missing_keys) - own)}, "
                         f"unexpected {result.unexpected_keys}")
    zero_right_context(clover)
    return clover.to(base.device).train(base.training)


def convert_checkpoint(base_dir: str | Path, out_dir: str | Path, argv: list[str] | None = None) -> Path:
    """Convert the ``ar`` checkpoint at ``base_dir`` into a Clover checkpoint at ``out_dir`` (its tokenizer as
    it is; the base's recipe nested under ``init`` as ``airspace-train --init`` nests stages)."""
    base, tok = load_checkpoint(base_dir)
    clover = convert_model(base)
    own = sorted(clover_own_keys(base.cfg))
    recipe = {"arch": "clover", "objective": "conversion of an ar base to block diffusion (no training)",
              "conversion": {"kept": "every tensor of the base, bit for bit (embeddings, projections, norms, "
                                     "causal convs, MoE, pointer head)",
                             "at_init": own, "right_context_conv": "zero",
                             "history_slot": "hist_b 0, hist_c calib_init_c, q_logtemp log sqrt(K)"},
              "command": "python -m airspace.model.pretrain " + " ".join(sys.argv[1:] if argv is None else argv),
              "init": {"from": str(base_dir), **read_json(base_dir, "recipe.json")}}
    base_metrics = read_json(base_dir, "metrics.json")
    metrics = {"params": clover.num_params(), "converted_from": str(base_dir),
               "base": {k: base_metrics[k] for k in ("steps", "tokens", "train_seconds", "held_out", "params")
                        if k in base_metrics}}
    return save_checkpoint(out_dir, clover, tok, recipe=recipe, metrics=metrics)


# ------------------------------------------------------------------------------------------------ main
def parse_args(argv=None):
    ap = argparse.ArgumentParser(prog="airspace-pretrain", description=__doc__.split("\n\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--convert", default=None, metavar="BASE",
                    help="convert this ar base checkpoint into a Clover checkpoint at --out (no training)")
    ap.add_argument("--archive", default=None, help="the real archive (JSONL); only its train split is read")
    ap.add_argument("--dev", default=None, help="the real dev messages (JSONL); their text only")
    ap.add_argument("--generated", type=int, default=6000,
                    help="generated texts of the families the archive lacks (%s)" % ", ".join(FAMILIES_ARCHIVE_LACKS))
    ap.add_argument("--minutes", type=float, default=15.0,
                    help="optimisation budget in CPU minutes of this process (GPU: wall minutes)")
    ap.add_argument("--wall-cap-minutes", type=float, default=None)
    ap.add_argument("--preset", default="small")
    ap.add_argument("--lr", type=float, default=3e-3)
    ap.add_argument("--min-lr-frac", type=float, default=0.1)
    ap.add_argument("--warmup-steps", type=int, default=30)
    ap.add_argument("--weight-decay", type=float, default=0.01)
    ap.add_argument("--batch-tokens", type=int, default=3072)
    ap.add_argument("--max-len", type=int, default=1024, help="tokens per window of a longer text")
    ap.add_argument("--held-out", type=int, default=HELD_OUT_TEXTS, help="texts held back for the held-out CE")
    ap.add_argument("--save-every", type=float, default=5.0, help="minutes")
    ap.add_argument("--log-every", type=int, default=20)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--device", default="auto")
    return ap.parse_args(argv)


def pretrain(args, argv=None) -> Path:
    """Train an ``ar`` base on next-token prediction over the base texts for the budget; save it at ``args.out``."""
    from airspace.model.training import PRESETS, peak_rss_mb, run_device

    torch.set_num_threads(args.threads)
    torch.manual_seed(args.seed)
    rng = random.Random(args.seed)
    device, clock, autocast = run_device(args.device)
    use_bf16 = device.type == "cuda"

    texts = base_texts(args.archive, args.dev, args.generated, args.seed)
    train, held = hold_back(texts, args.held_out, args.seed)
    tok = Tokenizer.from_texts(t.text for t in texts)
    model = build_model(ModelConfig(arch="ar", vocab_size=tok.vocab_size, **PRESETS[args.preset])).to(device)
    counts = {src: sum(t.source == src for t in train) for src in ("archive", "dev", "generated")}
    log(f"base: {len(train)} texts {counts}, {len(held)} held out, vocab {tok.vocab_size}, "
        f"params {model.num_params()}, device {device}, threads {args.threads}")
    encoded = [encode(tok, t.text) for t in train]
    it = lm_batches(encoded, max_len=args.max_len, batch_tokens=args.batch_tokens, rng=rng)
    opt = make_optimizer(model, args.lr, args.weight_decay)
    budget, wall_cap = args.minutes * 60.0, None if args.wall_cap_minutes is None else args.wall_cap_minutes * 60
    held_before = held_out_ce(model, tok, held, max_len=args.max_len, device=device)
    log(f"held-out ce at init {held_before['ce']:.4f}")
    state = {"step": 0, "tokens": 0, "padded": 0, "train_time": 0.0, "ema": None, "stopped_by": "budget"}
    curve: list[dict] = []
    recipe = {
        "arch": "ar", "preset": args.preset, "seed": args.seed, "budget_minutes": args.minutes,
        "objective": "next-token (next-character) CE on message text only, output head tied to the input "
                     "embedding; pointer head untouched (at init)",
        "data": {"archive": args.archive, "archive_split": "train only (airspace.eval.realsplit.split_of by id)",
                 "dev": args.dev, "generated": {"n": args.generated, "seed": args.seed, "split": "train",
                                                "families": list(FAMILIES_ARCHIVE_LACKS)},
                 "train_texts": counts, "held_out_texts": len(held), "distinct_texts": len(texts)},
        "windows": f"texts + SEP, random windows of <= {args.max_len} tokens, batches <= {args.batch_tokens} "
                   f"padded tokens",
        "optimizer": f"AdamW lr {args.lr} (warm-up {args.warmup_steps} steps, cosine to {args.min_lr_frac}x over "
                     f"the budget) wd {args.weight_decay} betas (0.9, 0.98) clip 1.0",
        "hardware": {"device": str(device), "cpu": platform.processor() or platform.machine(),
                     "threads": args.threads, "cuda": torch.cuda.get_device_name(0) if device.type == "cuda" else None,
                     "bf16": use_bf16, "torch": torch.__version__, "python": sys.version.split()[0]},
        "command": "python -m airspace.model.pretrain " + " ".join(sys.argv[1:] if argv is None else argv),
    }

    def save(final: dict | None = None) -> Path:
        t = max(state["train_time"], 1e-9)
        r = dict(recipe, steps=state["step"], tokens=state["tokens"], train_seconds=round(state["train_time"], 1),
                 budget_clock="process CPU time" if device.type == "cpu" else "wall time",
                 wall_seconds=round(time.time() - wall0, 1), stopped_by=state["stopped_by"])
        m = {"params": model.num_params(), "steps": state["step"], "tokens": state["tokens"],
             "padded_tokens": state["padded"], "train_seconds": round(state["train_time"], 1),
             "tokens_per_s": round(state["tokens"] / t, 1), "padded_tokens_per_s": round(state["padded"] / t, 1),
             "final_train_ce": None if state["ema"] is None else round(state["ema"], 4), "curve": curve, "held_out_at_init": held_before,
             "peak_rss_mb": round(peak_rss_mb(), 1), **(final or {})}
        return save_checkpoint(args.out, model, tok, recipe=r, metrics=m)

    model.train()
    wall0 = time.time()
    last_save = 0.0
    while state["train_time"] < budget:
        if wall_cap is not None and time.time() - wall0 > wall_cap:
            state["stopped_by"] = "wall-clock cap"
            break
        batch = next(it)
        t0 = clock()
        ids, valid = pad_right(batch, tok.pad_id)
        lr = lr_at(state["step"], state["train_time"] / budget, args.lr, args.warmup_steps, args.min_lr_frac)
        ce, gnorm, _ = train_step(model, opt, ids.to(device), valid.to(device), lr, autocast)
        if device.type == "cuda":
            torch.cuda.synchronize()
        state["train_time"] += clock() - t0
        state["step"] += 1
        state["tokens"] += int(valid.sum())
        state["padded"] += valid.numel()
        state["ema"] = ce if state["ema"] is None else 0.95 * state["ema"] + 0.05 * ce
        if state["step"] % args.log_every == 0:
            curve.append({"step": state["step"], "t": round(state["train_time"], 1), "ce": round(state["ema"], 4),
                          "lr": round(lr, 6), "gnorm": round(gnorm, 3), "tokens": state["tokens"]})
            log(f"step {state['step']} t={state['train_time']:.0f}s ce={state['ema']:.4f} lr={lr:.2e} "
                f"gnorm={gnorm:.2f} tok/s={state['tokens'] / state['train_time']:.0f}")
        if state["train_time"] - last_save >= args.save_every * 60.0:
            save()
            last_save = state["train_time"]
    final = held_out_ce(model, tok, held, max_len=args.max_len, device=device)
    log(f"done: {state['step']} steps, {state['tokens']} tokens in {state['train_time']:.0f} s, held-out ce "
        f"{held_before['ce']:.4f} -> {final['ce']:.4f}")
    return save({"held_out": final})


def main(argv: list[str] | None = None) -> int:
    args = parse_args(argv)
    if args.convert:
        out = convert_checkpoint(args.convert, args.out, argv)
        log(f"converted {args.convert} -> {out}")
        return 0
    pretrain(args, argv)
    return 0


if __name__ == "__main__":
    sys.exit(main())
