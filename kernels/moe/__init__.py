"""Routed SwiGLU mixture of experts: reference (with the aux loss) and the grouped-matmul Triton kernel."""

from airspace.kernels.moe.naive import moe_aux_loss, naive_moe_ffn, route

__all__ = ["moe_aux_loss", "naive_moe_ffn", "route"]
