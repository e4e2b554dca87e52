"""Checkpoints: a directory with ``config.json``, ``model.safetensors``, ``tokenizer.json``, ``recipe.json`` and
``metrics.json``. Tensors go through safetensors only (never pickle), so loading a checkpoint runs no code.
"""

from __future__ import annotations

import json
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from airspace.model.backbone import Backbone
from airspace.model.build import build_model
from airspace.model.config import ModelConfig
from airspace.model.tokenizer import Tokenizer

FILES = ("config.json", "model.safetensors", "tokenizer.json")


def save_checkpoint(out_dir: str | Path, model: Backbone, tok: Tokenizer, *, recipe: dict | None = None,
                    metrics: dict | None = None, dtype: torch.dtype | None = None) -> Path:
    """Write the checkpoint directory (tensors as stored, or cast to ``dtype``)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    model.cfg.save(out / "config.json")
    tok.save(out / "tokenizer.json")
    sd = {k: (v.detach().to(dtype) if dtype is not None and v.is_floating_point() else v.detach()).cpu().contiguous()
          for k, v in model.state_dict().items()}
    tmp = out / "model.safetensors.tmp"
    save_file(sd, str(tmp), metadata={"format": "pt", "arch": model.cfg.arch})
    tmp.replace(out / "model.safetensors")
    if recipe is not None:
        (out / "recipe.json").write_text(json.dumps(recipe, indent=2, sort_keys=True) + "\n")
    if metrics is not None:
        (out / "metrics.json").write_text(json.dumps(metrics, indent=2, sort_keys=True) + "\n")
    return out


def load_checkpoint(ckpt_dir: str | Path, *, device: str | torch.device = "cpu",
                    dtype: torch.dtype | None = None) -> tuple[Backbone, Tokenizer]:
    """(model in eval mode, tokenizer). Tensors keep their stored dtype unless ``dtype`` is given."""
    d = Path(ckpt_dir)
    missing = [f for f in FILES if not (d / f).is_file()]
    if missing:
        raise FileNotFoundError(f"{d}: not a checkpoint directory (missing {', '.join(missing)})")
    cfg = ModelConfig.load(d / "config.json")
    tok = Tokenizer.load(d / "tokenizer.json")
    if tok.vocab_size != cfg.vocab_size:
        raise ValueError(f"{d}: tokenizer has {tok.vocab_size} tokens, config says {cfg.vocab_size}")
    sd = load_file(str(d / "model.safetensors"), device="cpu")
    model = build_model(cfg)
    stored = next(iter(sd.values())).dtype
    model.to(stored)
    model.load_state_dict(sd, strict=True)
    if dtype is not None:
        model.to(dtype)
    return model.to(device).eval(), tok


def read_json(ckpt_dir: str | Path, name: str) -> dict:
    p = Path(ckpt_dir) / name
    return json.loads(p.read_text()) if p.is_file() else {}
