"""The shipped form of a checkpoint: ``python -m airspace.model.ship SRC OUT``.

Every committed checkpoint stays in every clone, so the weights ship in the smallest form that decodes exactly
the records float32 decodes: float16 storage, float32 compute (``checkpoint.load_checkpoint`` loads a
half-precision checkpoint as float32). float16 keeps 11 significant bits where bfloat16 keeps 8; with bfloat16 one
record of the real set's rewritten view changed, with float16 none on any ``make bench`` set (the measurement is in
the checkpoints' ``recipe.json`` under ``storage``). A cast that would change a weight's magnitude class (a value
beyond float16's range) is refused rather than shipped. The recipe and metrics travel unchanged, with ``storage``
added to the recipe.
"""

from __future__ import annotations

import argparse
import json
import shutil
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from airspace.model.checkpoint import FILES

FP16_MAX = float(torch.finfo(torch.float16).max)


def ship(src: str | Path, out: str | Path, *, measured: str = "") -> Path:
    """Copy the checkpoint ``src`` to ``out`` with its floating-point tensors stored as float16."""
    src, out = Path(src), Path(out)
    sd = load_file(str(src / "model.safetensors"))
    too_large = [k for k, v in sd.items() if v.is_floating_point() and v.abs().max().item() > FP16_MAX]
    if too_large:
        raise ValueError(f"{len(too_large)} tensors exceed float16's range (e.g. {too_large[0]}); not shipped")
    out.mkdir(parents=True, exist_ok=True)
    for name in (*FILES, "recipe.json", "metrics.json"):
        if name != "model.safetensors" and (src / name).is_file() and src != out:
            shutil.copyfile(src / name, out / name)
    half = {k: (v.to(torch.float16) if v.is_floating_point() else v).contiguous() for k, v in sd.items()}
    tmp = out / "model.safetensors.tmp"
    save_file(half, str(tmp), metadata={"format": "pt", "arch": json.loads((src / "config.json").read_text())["arch"]})
    tmp.replace(out / "model.safetensors")
    recipe_path = out / "recipe.json"
    if recipe_path.is_file():
        recipe = json.loads(recipe_path.read_text(encoding="utf-8"))
        recipe["storage"] = {"dtype": "float16", "compute": "float32", "command": "python -m airspace.model.ship",
                             **({"measured": measured} if measured else {})}
        recipe_path.write_text(json.dumps(recipe, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    return out


def main(argv: list[str] | None = None) -> None:
    ap = argparse.ArgumentParser(prog="python -m airspace.model.ship", description=__doc__.split("\n\n")[0])
    ap.add_argument("src", help="a float32 checkpoint directory")
    ap.add_argument("out", help="where the shipped form goes (may be src itself)")
    ap.add_argument("--measured", default="", help="what decoding it was measured to keep (recorded in the recipe)")
    args = ap.parse_args(argv)
    print(ship(args.src, args.out, measured=args.measured))


if __name__ == "__main__":
    main()
