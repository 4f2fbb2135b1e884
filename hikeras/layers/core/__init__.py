"""Core layers: Dense, EinsumDense, Embedding, Activation, Lambda, Identity, Masking, Wrapper.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
