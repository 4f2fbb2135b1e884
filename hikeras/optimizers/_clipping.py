"""Gradient clipping as Keras 3 does it, on numpy arrays.

Clipping returns new arrays and never writes into the gradients it is given
(they may be views of buffers the caller still owns).
"""

import math

import numpy as np


def global_norm(grads):
    """The L2 norm of all arrays in `grads` taken together."""
    return math.sqrt(sum(float(np.vdot(g, g)) for g in grads))


def clip_by_norm(gradient, clipnorm):
    """`gradient` rescaled so its L2 norm is at most `clipnorm`."""
    norm = math.sqrt(float(np.vdot(gradient, gradient)))
    if norm > clipnorm:
        return gradient * (clipnorm / norm)
    return gradient


def clip_by_global_norm(grads, clipnorm):
    """All `grads` rescaled by one factor so their joint norm is at most `clipnorm`.

    A non-finite joint norm turns every gradient into NaN, as Keras does, so a
    blown-up step is visible instead of silently rescaled to zero.
    """
    norm = global_norm(grads)
    if not math.isfinite(norm):
        return [np.full_like(g, np.nan) for g in grads]
    if norm <= clipnorm:
        return grads
    scale = clipnorm / norm
    return [g * scale for g in grads]


def clip_by_value(gradient, clipvalue):
    """`gradient` clipped elementwise to `[-clipvalue, clipvalue]`."""
    return np.clip(gradient, -clipvalue, clipvalue)
