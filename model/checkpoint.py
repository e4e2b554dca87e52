"""Checkpoints: a directory with ``config.json``, ``model.safetensors``, ``tokenizer.json``, ``recipe.json`` and
``metrics.json``. Tensors go through safetensors only (never pickle), so loading a checkpoint runs no code.

A checkpoint directory may come from anyone, so loading checks before it spends: every file must be a regular file
inside the directory (a symbolic link pointing out of it is refused), the JSON files are bounded in size
(``MAX_CONFIG_BYTES``, ``MAX_TOKENIZER_BYTES``) and the config's sizes in value (``CONFIG_BOUNDS``), and the
tensors the config implies (names, shapes) are compared with the safetensors header — read alone, bounded — before
any model is built or any weight read. A checkpoint that would load and then fail on every message is refused too:
config numbers of the wrong type, not finite or out of range (``REAL_BOUNDS``), and weights of mixed or non-float
types, NaN or infinite values, or mostly all-zero matrices (``_check_weights``). Each refusal is a ``ValueError``
(``FileNotFoundError`` for a missing file) that says what is wrong with the checkpoint.
"""

from __future__ import annotations

import json
import math
import struct
from dataclasses import replace
from pathlib import Path

import torch
from safetensors.torch import load_file, save_file

from airspace.model.backbone import Backbone
from airspace.model.build import build_model
from airspace.model.config import ModelConfig
from airspace.model.tokenizer import Tokenizer

FILES = ("config.json", "model.safetensors", "tokenizer.json")
MAX_CONFIG_BYTES = 64 * 1024  # the shipped config.json is ~1 kB
MAX_TOKENIZER_BYTES = 16 * 1024 * 1024
HALF_DTYPES = (torch.float16, torch.bfloat16)
MAX_HEADER_BYTES = 16 * 1024 * 1024  # the safetensors JSON header (the shipped one: ~20 kB)
# value bounds on the config's sizes: far above anything trained here, far below what would exhaust the machine
CONFIG_BOUNDS = {
    "vocab_size": (1, 1 << 20), "d_model": (1, 8192), "attn_heads": (1, 256), "attn_head_dim": (2, 1024),
    "gdn_heads": (1, 256), "gdn_head_k": (1, 1024), "gdn_head_v": (1, 1024), "conv_size": (1, 64),
    "n_experts": (1, 256), "top_k": (1, 256), "expert_ff": (1, 65536), "shared_ff": (0, 65536),
    "block_size": (1, 4096), "max_prompt_tokens": (1, 1 << 20), "max_answer_tokens": (1, 1 << 16),
}
MAX_LAYERS = 128
# the config's real numbers: (lowest, highest, lowest excluded). A value of another type, not finite or out of range
# (``tau: "x"``, ``norm_eps: NaN``, ``rope_theta: 0``) builds a model that loads and then fails on every message
REAL_BOUNDS = {
    "tau": (0.0, 1.0, True), "norm_eps": (0.0, 1.0, True), "rope_theta": (0.0, 1e12, True),
    "aux_loss_coef": (0.0, 1e6, False), "mask_lo": (0.0, 1.0, False), "mask_hi": (0.0, 1.0, False),
    "calib_init_c": (-1e6, 1e6, False),
}


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


def _file(d: Path, name: str) -> Path:
    """``d / name`` when it is a regular file inside ``d`` (a symbolic link may point only within ``d``)."""
    p = d / name
    if p.is_symlink():
        target = p.resolve()
        if not target.is_relative_to(d.resolve()):
            raise ValueError(f"{d}: {name} is a symbolic link to {target}, outside the checkpoint directory; refused")
    if not p.is_file():
        raise FileNotFoundError(f"{d}: not a checkpoint directory (missing {name})")
    return p


def _read_bounded(p: Path, limit: int) -> str:
    with open(p, "rb") as fh:
        data = fh.read(limit + 1)
    if len(data) > limit:
        raise ValueError(f"{p}: over {limit:,} bytes; not a checkpoint file of this project")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise ValueError(f"{p}: not UTF-8 text") from exc


def _config(p: Path) -> ModelConfig:
    try:
        d = json.loads(_read_bounded(p, MAX_CONFIG_BYTES))
    except (json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"{p}: not valid JSON") from exc
    if not isinstance(d, dict):
        raise ValueError(f"{p}: expected a JSON object")
    for key, (lo, hi) in CONFIG_BOUNDS.items():
        v = d.get(key)
        if key in d and not (isinstance(v, int) and not isinstance(v, bool) and lo <= v <= hi):
            raise ValueError(f"{p}: {key} = {str(v)[:40]} is not an integer in [{lo}, {hi}]")
    for key, (lo, hi, lo_open) in REAL_BOUNDS.items():
        v = d.get(key)
        if key in d and not (isinstance(v, (int, float)) and not isinstance(v, bool) and math.isfinite(v)
                             and (lo < v if lo_open else lo <= v) and v <= hi):
            raise ValueError(f"{p}: {key} = {str(v)[:40]} is not a finite number in {'(' if lo_open else '['}{lo:g}, "
                             f"{hi:g}]")
    pattern = d.get("layer_pattern")
    if pattern is not None and not (isinstance(pattern, str) and 1 <= len(pattern) <= MAX_LAYERS):
        raise ValueError(f"{p}: layer_pattern must be a string of 1 to {MAX_LAYERS} layers")
    fields_ = d.get("fields")
    if fields_ is not None and not (isinstance(fields_, list) and len(fields_) <= 64):
        raise ValueError(f"{p}: fields must be a list of at most 64 names")
    try:
        return ModelConfig.from_dict(d)
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{p}: {exc}") from exc


_DTYPE_BYTES = {"F64": 8, "F32": 4, "F16": 2, "BF16": 2, "I64": 8, "I32": 4, "I16": 2, "I8": 1, "U8": 1, "BOOL": 1}


def safetensors_header(p: Path) -> dict[str, tuple[str, tuple[int, ...]]]:
    """Tensor name -> (dtype, shape) from a safetensors file's header, read alone and bounded; checks that the
    file holds every byte the header promises (not truncated) and at least one tensor."""
    size = p.stat().st_size
    with open(p, "rb") as fh:
        head = fh.read(8)
        if len(head) < 8:
            raise ValueError(f"{p}: too short to be a safetensors file")
        (n,) = struct.unpack("<Q", head)
        if n > MAX_HEADER_BYTES or n > size - 8:
            raise ValueError(f"{p}: not a safetensors file (a header of {n:,} bytes in a {size:,}-byte file)")
        raw = fh.read(n)
    try:
        header = json.loads(raw.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as exc:
        raise ValueError(f"{p}: not a safetensors file (its header is not JSON)") from exc
    if not isinstance(header, dict):
        raise ValueError(f"{p}: not a safetensors file (its header is not an object)")
    out: dict[str, tuple[str, tuple[int, ...]]] = {}
    end = 0
    for name, info in header.items():
        if name == "__metadata__":
            continue
        try:
            dtype, shape, (a, b) = info["dtype"], tuple(int(x) for x in info["shape"]), info["data_offsets"]
        except (KeyError, TypeError, ValueError) as exc:
            raise ValueError(f"{p}: tensor {name[:40]!r} has a malformed header entry") from exc
        width = _DTYPE_BYTES.get(dtype)
        count = 1
        for x in shape:
            count *= x
        if width is None or min(shape, default=1) < 0 or not (isinstance(a, int) and isinstance(b, int)) \
                or not 0 <= a <= b or b - a != count * width:
            raise ValueError(f"{p}: tensor {name[:40]!r} has an inconsistent header entry ({dtype}, {list(shape)})")
        out[name] = (dtype, shape)
        end = max(end, b)
    if not out:
        raise ValueError(f"{p}: the safetensors file holds no tensors")
    if 8 + n + end > size:
        raise ValueError(f"{p}: truncated ({size:,} bytes; its header promises {8 + n + end:,})")
    return out


def expected_shapes(cfg: ModelConfig) -> dict[str, tuple[int, ...]]:
    """Tensor name -> shape of the model ``cfg`` describes, without building it: one layer of each kind is built
    and its tensors repeated for every layer of that kind, so a config of many layers costs no more to check than one
    of two. The template is built on the CPU, not the meta device: initialising meta tensors imports torch's compiler
    stack (~1.1 s of every process's first load), a one-layer-per-kind model on the CPU takes ~12 ms."""
    kinds = "".join(dict.fromkeys(cfg.layer_pattern))
    template = build_model(replace(cfg, layer_pattern=kinds)).state_dict()
    out: dict[str, tuple[int, ...]] = {}
    for k, v in template.items():
        if not k.startswith("layers."):
            out[k] = tuple(v.shape)
            continue
        j, rest = k.split(".", 2)[1:]
        for i, kind in enumerate(cfg.layer_pattern):
            if kind == kinds[int(j)]:
                out[f"layers.{i}.{rest}"] = tuple(v.shape)
    return out


def _check_against_header(d: Path, cfg: ModelConfig, header: dict[str, tuple[str, tuple[int, ...]]]) -> None:
    """The tensors the config implies against the file's header, before anything is built for real."""
    expected = expected_shapes(cfg)
    missing = sorted(set(expected) - set(header))
    extra = sorted(set(header) - set(expected))
    wrong = sorted(k for k in set(expected) & set(header) if expected[k] != header[k][1])
    if missing or extra or wrong:
        parts = []
        if missing:
            parts.append(f"{len(missing)} tensors missing (e.g. {missing[0]})")
        if extra:
            parts.append(f"{len(extra)} unexpected (e.g. {extra[0][:60]})")
        if wrong:
            k = wrong[0]
            parts.append(f"{len(wrong)} of another shape (e.g. {k}: {list(header[k][1])}, config implies "
                         f"{list(expected[k])})")
        raise ValueError(f"{d}: config.json does not describe model.safetensors: " + "; ".join(parts))


def _check_weights(d: Path, sd: dict[str, torch.Tensor]) -> None:
    """Weights that load but cannot work: every tensor of one floating dtype (one int8 tensor among float32 ones
    is a damaged or foreign file), every value finite (a NaN or an infinity spreads to every answer), and not most of
    the matrices all zeros (a model that passes nothing on writes no answer at all)."""
    dtypes = {}
    for name, t in sd.items():
        dtypes.setdefault(t.dtype, name)
    bad = [dt for dt in dtypes if not dt.is_floating_point]
    if bad or len(dtypes) > 1:
        listed = ", ".join(f"{str(dt).replace('torch.', '')} (e.g. {n[:60]})" for dt, n in dtypes.items())
        raise ValueError(f"{d}: model.safetensors mixes tensor types or holds non-float weights: {listed}; "
                         "a checkpoint's weights are all of one floating type")
    zero, matrices = [], 0
    for name, t in sd.items():
        if not bool(torch.isfinite(t).all()):
            n = int((~torch.isfinite(t)).sum())
            raise ValueError(f"{d}: tensor {name[:60]} holds {n:,} values that are NaN or infinite; refused")
        if t.dim() >= 2 and t.numel():
            matrices += 1
            if not bool(t.any()):
                zero.append(name)
    # (a few matrices start at zero by design, a residual convolution's; most at zero is a model that does nothing)
    if matrices and 2 * len(zero) > matrices:
        raise ValueError(f"{d}: {len(zero)} of the {matrices} weight matrices are all zeros (e.g. {zero[0][:60]}): "
                         "the model passes nothing on; refused")


def load_checkpoint(ckpt_dir: str | Path, *, device: str | torch.device = "cpu",
                    dtype: torch.dtype | None = None) -> tuple[Backbone, Tokenizer]:
    """(model in eval mode, tokenizer). Tensors keep their stored dtype unless ``dtype`` is given, except that a
    half-precision checkpoint (the shipped form) is loaded as float32. Every check of
    the module doc runs before a model is built or a weight is read."""
    d = Path(ckpt_dir)
    if not d.is_dir():
        raise FileNotFoundError(f"{d}: not a checkpoint directory")
    paths = {f: _file(d, f) for f in FILES}
    cfg = _config(paths["config.json"])
    _read_bounded(paths["tokenizer.json"], MAX_TOKENIZER_BYTES)
    tok = Tokenizer.load(paths["tokenizer.json"])
    if tok.vocab_size != cfg.vocab_size:
        raise ValueError(f"{d}: tokenizer has {tok.vocab_size} tokens, config says {cfg.vocab_size}")
    _check_against_header(d, cfg, safetensors_header(paths["model.safetensors"]))
    try:
        sd = load_file(str(paths["model.safetensors"]), device="cpu")
    except Exception as exc:  # noqa: BLE001 - the library's own refusal, said as what is wrong with the file
        raise ValueError(f"{d}: model.safetensors cannot be read as safetensors ({str(exc)[:120]})") from exc
    _check_weights(d, sd)
    model = build_model(cfg)
    stored = next(iter(sd.values())).dtype
    model.to(stored)
    model.load_state_dict(sd, strict=True)
    # Shipped weights are stored in half precision, the smallest form that decodes the same records as float32
    # (model/ship.py); they are computed, averaged and trained in float32 unless another dtype is asked for.
    model.to(dtype if dtype is not None else torch.float32 if stored in HALF_DTYPES else stored)
    return model.to(device).eval(), tok


def read_json(ckpt_dir: str | Path, name: str) -> dict:
    """An optional JSON file of the checkpoint (recipe, metrics), bounded like config.json; {} when absent."""
    d = Path(ckpt_dir)
    p = d / name
    if not p.is_file():
        return {}
    return json.loads(_read_bounded(_file(d, name), MAX_TOKENIZER_BYTES))
