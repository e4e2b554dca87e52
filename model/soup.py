"""Weight averaging of checkpoints of one lineage (a "model soup"): ``python -m airspace.model.soup``.

Each training stage here continues the last from a fresh draw of the corpus, and on the real test set two stages
from the same parent differ by several truth fields in either direction (data/checkpoints/README.md, the sections
after "Stage 38"): what a stage learns is real, but so is the noise of its draw. Checkpoints fine-tuned
from one parent sit in one basin, so the mean of their weights is a model too, and it keeps what the draws agree
on while their disagreements partly cancel. Only checkpoints that can
be averaged are: the same architecture and config (every tensor the same name and shape) and the same tokenizer
(an embedding row means the same character in each). Anything else is refused with the reason.

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
    base, tok = load_checkpoint(dirs[0])
    base_sd = base.state_dict()
    acc = {k: (v.double() * weights[0] if v.is_floating_point() else v.clone()) for k, v in base_sd.items()}
    for d, w in zip(dirs[1:], weights[1:]):
        model, other_tok = load_checkpoint(d)
        if model.cfg != base.cfg:
            raise ValueError(f"{d}: config differs from {dirs[0]}'s; only one architecture can be averaged")
        if other_tok.to_dict() != tok.to_dict():
            raise ValueError(f"{d}: tokenizer differs from {dirs[0]}'s; embedding rows would mean other characters")
        for k, v in model.state_dict().items():
            if v.is_floating_point():
                acc[k] += v.double() * w
            elif not torch.equal(v, acc[k]):
                raise ValueError(f"{d}: integer tensor {k} differs from {dirs[0]}'s")
    base.load_state_dict({k: v.to(base_sd[k].dtype) for k, v in acc.items()}, strict=True)
    return base, tok


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
