"""`InputSpec`: what a layer accepts, checked on every call with a clear error."""

import numpy as np


class InputSpec:
    """Constraints on a layer input.

    Args:
        ndim: exact rank expected.
        min_ndim: minimum rank.
        axes: `{axis: size}` dims that must match (negative axes allowed).
    """

    def __init__(self, ndim=None, min_ndim=None, axes=None):
        self.ndim = ndim
        self.min_ndim = min_ndim
        self.axes = dict(axes or {})

    def expected_shape(self, ndim):
        """A printable expected shape of rank `ndim` (None where free)."""
        shape = [None] * ndim
        for axis, size in self.axes.items():
            if -ndim <= axis < ndim:
                shape[axis] = size
        return tuple(shape)


def _shown(shape):
    return (None,) + tuple(shape[1:]) if shape else tuple(shape)


def _prefix(layer):
    return f"Input 0 of layer '{layer.name}' ({type(layer).__name__}) is incompatible with the layer:"


def check_input_spec(layer, inputs):
    """Raises a ValueError naming `layer` if `inputs` violates `layer.input_spec`."""
    spec = layer.input_spec
    shape = tuple(inputs.shape) if hasattr(inputs, "shape") else np.shape(inputs)
    ndim = len(shape)
    if spec.ndim is not None and ndim != spec.ndim:
        raise ValueError(
            f"{_prefix(layer)} expected ndim={spec.ndim}, found ndim={ndim}. "
            f"Received: input shape {_shown(shape)}"
        )
    if spec.min_ndim is not None and ndim < spec.min_ndim:
        raise ValueError(
            f"{_prefix(layer)} expected min_ndim={spec.min_ndim}, found ndim={ndim}. "
            f"Received: input shape {_shown(shape)}"
        )
    for axis, size in spec.axes.items():
        if not -ndim <= axis < ndim:
            continue
        if shape[axis] is not None and size is not None and shape[axis] != size:
            raise ValueError(
                f"{_prefix(layer)} expected shape {spec.expected_shape(ndim)}, but it received an "
                f"input with shape {_shown(shape)}. Received: input shape {_shown(shape)}"
            )
