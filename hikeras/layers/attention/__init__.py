"""Attention layers: dot-product and additive attention, multi-head and grouped-query attention.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
