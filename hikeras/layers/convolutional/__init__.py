"""Convolution layers: plain, transposed, depthwise and separable convolutions in 1-3 dimensions.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
