"""The extractor interface every engine implements (rules, clover, ar).

An extractor reads whole messages and writes, for each, one answer in the engine output format
(``airspace.parser.answer``). Everything downstream (grounding, normalisation, validation, volumes) is shared.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol, runtime_checkable


@dataclass
class ExtractStats:
    """What one ``extract`` call cost: the numbers the timing demo and ``make bench`` report."""

    engine: str
    messages: int = 0
    wall_s: float = 0.0
    forwards: int = 0  # model forward passes (0 for rules)
    answer_tokens: int = 0  # tokens written (pre-filled/jumped tokens included, counted once)
    steps_per_block: list[int] = field(default_factory=list)  # clover: denoising steps each block took
    peak_mb: float = 0.0
    prefill_s: float = 0.0  # model engines: wall seconds of the first (prompt-reading) forward of each batch
    trace: list[list[str]] | None = None  # optional: per step, the partially denoised answer (for the UI)
    errors: dict[int, str] = field(default_factory=dict)  # message index -> why its answer is None (too long...)
    repaired: int = 0  # model engines: fields whose span was re-chosen so that it reads as its field
    prompts_cached: int = 0  # model engines: messages whose prompt read was kept from before (read cache)

    @property
    def tokens_per_forward(self) -> float:
        return self.answer_tokens / self.forwards if self.forwards else 0.0


@runtime_checkable
class Extractor(Protocol):
    name: str

    def extract(self, messages: list[str]) -> tuple[list[str], ExtractStats]:
        """One answer string per message, in order, and the cost of producing them."""
        ...
