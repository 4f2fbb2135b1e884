"""Merge layers: combine a list of inputs (add, subtract, multiply, average, maximum, minimum, concatenate, dot).

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
