"""Evaluation: scoring records against truth, the benchmark, the real-archive split and the triage tool."""
