"""airspace.kernels"""
