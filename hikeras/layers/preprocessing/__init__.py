"""Preprocessing layers: feature scaling here; image, categorical and text preprocessing in sub-packages.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
