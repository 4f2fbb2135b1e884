"""Regularization layers: dropout in its forms, noise, activity penalties.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
