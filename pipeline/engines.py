"""The engine registry: a name ('rules', 'clover', 'ar') -> an ``Extractor`` (``airspace.core.contract``).

The model engines are imported only when asked for, so the rules path never loads torch.
"""

from __future__ import annotations

from airspace.core.contract import Extractor
from airspace.parser.rules import RulesExtractor

__all__ = ["ENGINES", "DEFAULT_ENGINE", "EngineUnavailable", "get_extractor"]

ENGINES = ("rules", "clover", "ar")
# Clover, the product's model engine, reads at least as many truth fields of the team's real test set as the rules
# reader with no silently wrong record (README, "Which engine is the default, and why"); its records are
# cross-checked against the rules reading, so where the two disagree the record comes back ``review``
DEFAULT_ENGINE = "clover"


class EngineUnavailable(RuntimeError):
    """A model engine was asked for but cannot be loaded (no checkpoint, a checkpoint that does not load)."""


def get_extractor(name: str, checkpoint: str | None = None) -> Extractor:
    """'rules' -> ``RulesExtractor``; 'clover' / 'ar' -> ``airspace.model.engine.load_extractor``."""
    if name == "rules":
        return RulesExtractor()
    if name in ("clover", "ar"):
        try:
            from airspace.model.engine import load_extractor
        except ImportError as exc:
            raise EngineUnavailable(f"engine {name!r} is not available ({exc})") from exc
        try:
            return load_extractor(name, checkpoint)
        except Exception as exc:  # noqa: BLE001 - any load failure is reported as the engine being unavailable
            raise EngineUnavailable(f"engine {name!r} could not be loaded: {exc}") from exc
    raise ValueError(f"unknown engine {name!r}; choose one of {', '.join(ENGINES)}")
