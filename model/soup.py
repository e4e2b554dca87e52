"""Weight averaging of checkpoints of one lineage (a "model soup"): ``python -m airspace.model.soup``.

Each training stage here continues the last from a fresh draw of the corpus, and on the real test set two stages
from the same parent differ by several truth fields in either direction (data/checkpoints/README.md, the sections
after "Stage 38"): what a stage learns is real, but so is the noise of its draw. Checkpoints fine-tuned
from one parent sit in one basin, so the mean of their weights is a model too, and it keeps what the draws agree
on while their disagreements partly cancel. Only checkpoints that can
be averaged are: the same architecture and config (every tensor the same name and shape) and tokenizers that
agree on every character they share (an embedding row means the same character in each). A stage whose tokenizer
grew (``training.init_from`` appends the characters its corpus brings, old ids unchanged) extends its parent's: the
mean then has the larger tokenizer, the shared characters' rows averaged and a row only the larger has taken from
it. Anything else is refused with the reason.

The averaged checkpoint is an ordinary one (``model.checkpoint``); its ``recipe.json`` names its parents, their
weights and their own recipes, and its ``metrics.json`` their metrics, so the lineage stays whole (a stage trained
from a soup nests it under ``init``, as from any checkpoint).
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import torch

from airspace.model.backbone import Backbone
from airspace.model.checkpoint import load_checkpoint, read_json, save_checkpoint
from airspace.model.tokenizer import Tokenizer


def normalised(weights: list[float] | None, n: int) -> list[float]:
    """``n`` checkpoints' weights summing to 1 (default: equal); refuses a wrong count or negative weights."""
    if weights is None:
        weights = [1.0] * n
    if len(weights) != n:
        raise ValueError(f"{len(weights)} weights for {n} checkpoints")
    if any(w < 0 for w in weights) or sum(weights) <= 0:
        raise ValueError(f"weights must be non-negative and not all zero: {weights}")
    total = float(sum(weights))
    return [w / total for w in weights]


def average(dirs: list[str | Path], weights: list[float] | None = None) -> tuple[Backbone, Tokenizer]:
    """(model, tokenizer) whose floating-point tensors are the weighted mean of the checkpoints in ``dirs``
    (``normalised`` weights). Integer tensors must agree exactly."""
    if len(dirs) < 2:
        raise ValueError("averaging needs at least two checkpoints")
    weights = normalised(weights, len(dirs))
    loaded = [load_checkpoint(d) for d in dirs]
    # the largest tokenizer; every other must be its prefix (the same characters at the same ids)
    top = max(range(len(dirs)), key=lambda i: loaded[i][1].vocab_size)
    tok = loaded[top][1]
    models = []
    for d, (model, other_tok) in zip(dirs, loaded):
        if not _extends(tok, other_tok):
            raise ValueError(f"{d}: tokenizer differs from {dirs[top]}'s; embedding rows would mean other characters")
        if other_tok.vocab_size < tok.vocab_size:  # rows only the larger tokenizer has: taken from it
            n = other_tok.vocab_size
            model.grow_vocab(tok.vocab_size)
            model.embed.weight.data[n:] = loaded[top][0].embed.weight.data[n:]
        models.append(model)
    base = models[0]
    base_sd = base.state_dict()
    acc = {k: (v.double() * weights[0] if v.is_floating_point() else v.clone()) for k, v in base_sd.items()}
    for d, w, model in zip(dirs[1:], weights[1:], models[1:]):
        if model.cfg != base.cfg:
            raise ValueError(f"{d}: config differs from {dirs[0]}'s; only one architecture can be averaged")
        for k, v in model.state_dict().items():
            if v.is_floating_point():
                acc[k] += v.double() * w
            elif not torch.equal(v, acc[k]):
                raise ValueError(f"{d}: integer tensor {k} differs from {dirs[0]}'s")
    base.load_state_dict({k: v.to(base_sd[k].dtype) for k, v in acc.items()}, strict=True)
    return base, tok


def _extends(big: Tokenizer, small: Tokenizer) -> bool:
    """Whether ``big`` is ``small`` with characters appended (or the same)."""
    a, b = big.to_dict(), small.to_dict()
    chars_a, chars_b = a.pop("chars"), b.pop("chars")
    return a == b and chars_a[:len(chars_b)] == chars_b


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="python -m airspace.model.soup", description=__doc__.split("\n\n")[0])
    ap.add_argument("checkpoints", nargs="+", help="checkpoint directories of one architecture and tokenizer")
    ap.add_argument("--weights", default=None, help="comma-separated weights, one per checkpoint (default: equal)")
    ap.add_argument("--out", required=True, help="directory for the averaged checkpoint")
    args = ap.parse_args(argv)
    try:
        weights = normalised([float(w) for w in args.weights.split(",")] if args.weights else None,
                             len(args.checkpoints))
        model, tok = average(args.checkpoints, weights)
    except (ValueError, FileNotFoundError) as exc:
        ap.exit(2, f"soup: {exc}\n")
    recipe = {
        "command": "python -m airspace.model.soup " + " ".join(args.checkpoints)
        + (f" --weights {args.weights}" if args.weights else "") + f" --out {args.out}",
        "arch": model.cfg.arch,
        "soup": [{"checkpoint": str(d), "weight": w, "recipe": read_json(d, "recipe.json")}
                 for d, w in zip(args.checkpoints, weights)],
    }
    # the mean was never trained or validated itself: its metrics are its size and its parents' own
    metrics = {"params": model.num_params(),
               "soup": [{"checkpoint": str(d), "metrics": read_json(d, "metrics.json")} for d in args.checkpoints]}
    save_checkpoint(args.out, model, tok, recipe=recipe, metrics=metrics)
    print(json.dumps({"out": str(Path(args.out)), "parents": [str(d) for d in args.checkpoints],
                      "weights": weights}))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
