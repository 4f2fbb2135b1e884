"""Test helpers for users' own layers, ops and losses (beyond Keras).

`check_gradients(fn, inputs)` compares what `GradientTape` computes for a
function written with `hikeras.ops` against central differences along random
directions, the check every op of hikeras passes.
"""

from .gradient_check import check_gradients

__all__ = ["check_gradients"]
