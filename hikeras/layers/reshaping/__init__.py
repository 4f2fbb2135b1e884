"""Reshaping layers: flatten, reshape, permute, repeat, up-sampling, padding and cropping.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
