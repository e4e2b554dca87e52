"""Confidence select (max-prob/argmax over the vocabulary + the tau commit rule): reference and Triton kernel."""

from airspace.kernels.select.naive import naive_confidence_select, tau_rule

__all__ = ["naive_confidence_select", "tau_rule"]
