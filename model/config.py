"""Model configuration: one JSON-serialisable dataclass shared by the Clover engine and the AR baseline.

The layer pattern is a string of ``G`` (gated DeltaNet) and ``A`` (gated softmax attention) letters, one per
layer, e.g. ``"GGGA"`` (3 : 1 as in Qwen3-Next). ``arch`` names the model class (``airspace.model.build``):
``"clover"`` (``CloverLM``, block diffusion: history in GDN state / KV cache, current block bidirectional) or
``"ar"`` (``ARLM``, fully causal).

``fields`` are the answer fields a checkpoint writes, in slot order (``airspace.model.pointers``): one zone is one
block of ``n_slots = 2 + 2 * len(fields)`` pointer slots (anchor, a start and an end per field, next), so
``block_size`` is ``n_slots``, derived from the fields, not a setting of its own: config.json holds it as a check (older
files held it as a setting), which loads where it matches the fields and is refused, with the reason, where it
does not (so is a ``block_size=`` given to the constructor or to ``dataclasses.replace``). The default is the nine fields the first checkpoints were trained on, written out
here rather than taken from ``airspace.core.contract.FIELDS``, so that a config without the key reads as those did;
the shipped checkpoints name their fields (eleven since stage 11: ``date`` and ``tz`` appended).
"""

from __future__ import annotations

import json
from dataclasses import InitVar, asdict, dataclass, fields
from pathlib import Path

ARCHS = ("clover", "ar")
# the fields of a config without the key (the first nine of airspace.core.contract.FIELDS)
DEFAULT_FIELDS: tuple[str, ...] = ("center", "radius", "polygon", "name", "lower", "upper", "start", "end", "schedule")


@dataclass
class ModelConfig:
    arch: str = "clover"
    vocab_size: int = 512
    d_model: int = 128
    layer_pattern: str = "GGGA"
    # gated softmax attention layers
    attn_heads: int = 4
    attn_head_dim: int = 32
    rope_theta: float = 10000.0
    # gated DeltaNet layers
    gdn_heads: int = 4
    gdn_head_k: int = 32
    gdn_head_v: int = 32
    conv_size: int = 4
    # mixture of experts FFN (softmax router, top-k renormalised, sigmoid-gated shared expert)
    n_experts: int = 4
    top_k: int = 2
    expert_ff: int = 192
    shared_ff: int = 192
    aux_loss_coef: float = 0.01
    norm_eps: float = 1e-6
    # the answer: the fields each zone's block of pointer slots holds, in slot order
    fields: tuple[str, ...] = DEFAULT_FIELDS
    # block diffusion (Clover); both models embed a slot's index in its block. ``block_size`` (= n_slots: one zone
    # per block) is a property, set below the class; here only a value to check against the fields
    block_size: InitVar[int | None] = None
    tau: float = 0.9
    mask_lo: float = 0.0  # per-block mask rate t ~ U[mask_lo, mask_hi] in training (complement gets 1 - t)
    mask_hi: float = 1.0
    # history-slot calibration: extra logit = b_h + c_h * log(L), L = valid keys of the block (c_h starts at 1,
    # which exactly offsets the log L growth of the block's softmax mass under uniform attention)
    calib_init_c: float = 1.0
    # context: prompts (message + SEP) longer than this many tokens are refused, never cut
    max_prompt_tokens: int = 6144
    max_answer_tokens: int = 320  # 16 zones of 20 slots

    def __post_init__(self, block_size: int | None) -> None:
        self.fields = tuple(self.fields)  # a JSON list when loaded
        if not self.fields or len(set(self.fields)) != len(self.fields) or not all(
                isinstance(f, str) and f and "." not in f for f in self.fields):
            raise ValueError(f"fields must be distinct non-empty names without '.', got {self.fields!r}")
        if self.arch not in ARCHS:
            raise ValueError(f"arch must be one of {ARCHS}, got {self.arch!r}")
        if not self.layer_pattern or set(self.layer_pattern) - {"G", "A"}:
            raise ValueError(f"layer_pattern must be a non-empty string of 'G'/'A', got {self.layer_pattern!r}")
        if not 1 <= self.top_k <= self.n_experts:
            raise ValueError("top_k must be in [1, n_experts]")
        if block_size is not None and block_size != self.n_slots:
            raise ValueError(f"block_size is derived from the fields: one zone per block of 2 + 2 * {len(self.fields)} "
                             f"fields = {self.n_slots} slots, but the config says {block_size}")
        if self.conv_size < 1:
            raise ValueError("conv_size must be >= 1")
        if self.attn_head_dim % 2:
            raise ValueError("attn_head_dim must be even (RoPE)")

    @property
    def n_layers(self) -> int:
        return len(self.layer_pattern)

    @property
    def n_slots(self) -> int:
        """Pointer slots of one zone: anchor, start and end of every field, next."""
        return 2 + 2 * len(self.fields)

    def to_dict(self) -> dict:
        """The config's keys, with the derived ``block_size`` written beside them: code that reads config.json
        without deriving it (an older checkout, a tool) reads the right block size, and ``from_dict`` checks it."""
        return {**asdict(self), "block_size": self.block_size}

    @classmethod
    def from_dict(cls, d: dict) -> ModelConfig:
        """A config from its keys; ``block_size`` (older files) is checked against the fields, not stored."""
        known = {f.name for f in fields(cls)} | {"block_size"}
        unknown = set(d) - known
        if unknown:
            raise ValueError(f"unknown config keys {sorted(unknown)}")
        return cls(**d)

    def save(self, path: str | Path) -> None:
        Path(path).write_text(json.dumps(self.to_dict(), indent=2, sort_keys=True) + "\n")

    @classmethod
    def load(cls, path: str | Path) -> ModelConfig:
        return cls.from_dict(json.loads(Path(path).read_text()))


def _block_size(self: ModelConfig) -> int:
    """Slots of one block: one zone per block, so ``n_slots``."""
    return self.n_slots


# set after the class: a property in the class body would be taken as the InitVar's default
ModelConfig.block_size = property(_block_size)  # type: ignore[assignment]
