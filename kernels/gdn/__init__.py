"""Gated delta rule (GDN): torch references (naive.py), Triton chunked forward (chunk.py), fused recurrent step."""

from airspace.kernels.gdn.naive import naive_chunk_gated_delta_rule, naive_recurrent_gated_delta_rule

__all__ = ["naive_chunk_gated_delta_rule", "naive_recurrent_gated_delta_rule"]
