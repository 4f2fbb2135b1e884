"""Pooling layers: max and average over windows, over whole axes (global) and into a fixed number of bins (adaptive).

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
