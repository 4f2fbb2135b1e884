"""Normalization layers: batch, layer, group, unit, RMS and spectral normalization.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
