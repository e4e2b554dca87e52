"""The model class of a config: ``build_model(cfg)`` -> ``CloverLM`` or ``ARLM`` by ``cfg.arch``."""

from __future__ import annotations

from airspace.model.ar import ARLM
from airspace.model.backbone import Backbone
from airspace.model.clover import CloverLM
from airspace.model.config import ModelConfig

MODELS: dict[str, type[Backbone]] = {"clover": CloverLM, "ar": ARLM}


def build_model(cfg: ModelConfig) -> Backbone:
    """A freshly initialised model of the class ``cfg.arch`` names."""
    return MODELS[cfg.arch](cfg)
