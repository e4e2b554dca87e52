"""In-block attention (history slot / KV-cache prefix + bidirectional block): reference and Triton kernel."""

from airspace.kernels.block_attn.naive import naive_block_attention

__all__ = ["naive_block_attention"]
