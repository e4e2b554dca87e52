"""The engine registry: one table, an engine's name -> the function that loads its ``Extractor``
(``airspace.core.contract``). What an engine can do is its extractor's ``capabilities``, never its name, so a new
engine is one entry here.

The model engines are imported only when asked for, so the rules path never loads torch.
"""

from __future__ import annotations

from collections.abc import Callable

from airspace.core.contract import Extractor
from airspace.parser.rules import RulesExtractor

__all__ = ["LOADERS", "ENGINES", "DEFAULT_ENGINE", "EngineUnavailable", "get_extractor"]


def _rules(checkpoint: str | None) -> Extractor:
    return RulesExtractor()  # no weights: a checkpoint has nothing to say to it


def _model(name: str) -> Callable[[str | None], Extractor]:
    def load(checkpoint: str | None) -> Extractor:
        from airspace.model.engine import load_extractor  # torch: only when a model engine is asked for

        return load_extractor(name, checkpoint)

    return load


# name -> loader(checkpoint or None: the engine's shipped one); the order is the one the CLI lists
LOADERS: dict[str, Callable[[str | None], Extractor]] = {
    "rules": _rules,
    "clover": _model("clover"),
    "ar": _model("ar"),
}
ENGINES = tuple(LOADERS)
# Clover, the product's model engine, reads at least as many truth fields of the team's real test set as the rules
# reader with no silently wrong record (README, "Which engine is the default, and why"); its records are
# cross-checked against the rules reading, so where the two disagree the record comes back ``review``
DEFAULT_ENGINE = "clover"


class EngineUnavailable(RuntimeError):
    """An engine was asked for but cannot be loaded (no checkpoint, a checkpoint that does not load, torch missing)."""


def get_extractor(name: str, checkpoint: str | None = None) -> Extractor:
    """The extractor of the engine ``name`` (``LOADERS``), over ``checkpoint`` where the engine reads one."""
    load = LOADERS.get(name)
    if load is None:
        raise ValueError(f"unknown engine {name!r}; choose one of {', '.join(ENGINES)}")
    try:
        return load(checkpoint)
    except ImportError as exc:
        raise EngineUnavailable(f"engine {name!r} is not available ({exc})") from exc
    except Exception as exc:  # noqa: BLE001 - any load failure is reported as the engine being unavailable
        raise EngineUnavailable(f"engine {name!r} could not be loaded: {exc}") from exc
