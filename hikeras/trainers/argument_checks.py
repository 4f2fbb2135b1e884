"""Checks of `fit`/`evaluate`/`predict` arguments made before any work starts,
so a bad call fails with a Keras-style message instead of a numpy error (or a
silent default) deep inside the loop."""

import numbers

import numpy as np

from ..utils import tree


def check_count(name, value, minimum):
    """An integer argument such as `epochs` or `initial_epoch` (bools refused)."""
    if isinstance(value, bool) or not isinstance(value, numbers.Integral) or value < minimum:
        raise ValueError(f"`{name}` must be an integer >= {minimum}. Received: "
                         f"{name}={value!r}")


def check_numeric_inputs(method, name, data):
    """Refuses complex arrays in `x`/`y`: a model computes in real floats, and
    casting them would drop the imaginary part or fail obscurely. (Strings are
    valid input for models that start with a text or lookup layer.)"""
    for array in tree.flatten(data) if data is not None else ():
        dtype = getattr(array, "dtype", None)
        if dtype is None or not hasattr(array, "shape"):
            continue
        if np.dtype(dtype).kind == "c":
            raise ValueError(f"`{method}` needs real numeric `{name}` (int, float or bool "
                             f"arrays); complex data cannot be used. Received: {name} with "
                             f"dtype={np.dtype(dtype)} and shape={tuple(array.shape)}")


def check_not_empty(method, num_samples):
    """`predict`/`evaluate` on 0 samples has nothing to compute and no output shape."""
    if num_samples == 0:
        raise ValueError(f"`{method}` received no samples: `x` has 0 rows. "
                         "Received: x with 0 samples")
