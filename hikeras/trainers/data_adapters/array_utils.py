"""Checks and slicing for in-memory arrays, and the `(x, y, sample_weight)` convention.

Validation happens once, before any training starts: lengths must agree,
inputs must be finite. `class_weight` becomes per-sample weights batch by
batch, for every kind of input.
"""

import numpy as np

from ...utils import tree
from ...utils.batch_utils import pack_x_y_sample_weight, unpack_x_y_sample_weight  # noqa: F401


def _as_array(x):
    if x is None or isinstance(x, np.ndarray):
        return x
    if hasattr(x, "__array__") or isinstance(x, (list, float, int)):
        return np.asarray(x)
    raise TypeError(
        "Expected numpy arrays (or lists/dicts of them). "
        f"Received: an object of type {type(x).__name__}"
    )


def standardize(structure):
    """Converts leaves to arrays; a list of lists of numbers stays one array."""
    if isinstance(structure, dict):
        return {k: _as_array(v) for k, v in structure.items()}
    if isinstance(structure, (list, tuple)) and structure and all(
            hasattr(v, "shape") or isinstance(v, (list, dict)) for v in structure) and any(
            hasattr(v, "shape") for v in structure):
        return [_as_array(v) for v in structure]
    return _as_array(structure)


def check_arrays(x, y=None, sample_weight=None):
    """Validates lengths and finiteness; returns the number of samples."""
    named = []
    for label, struct in (("x", x), ("y", y), ("sample_weight", sample_weight)):
        if struct is None:
            continue
        if isinstance(struct, dict):
            named += [(f"{label}['{k}']", v) for k, v in struct.items()]
        elif isinstance(struct, list):
            named += [(f"{label}[{i}]", v) for i, v in enumerate(struct)]
        else:
            named.append((label, struct))
    sizes = {name: (a.shape[0] if a.ndim else None) for name, a in named}
    if any(n is None for n in sizes.values()):
        scalar = [name for name, n in sizes.items() if n is None]
        raise ValueError(f"Inputs must have a batch axis; {scalar} are scalars. "
                         f"Received: shapes {[a.shape for _, a in named]}")
    if len(set(sizes.values())) > 1:
        raise ValueError(
            "Data cardinality is ambiguous: all arrays must contain the same number of "
            f"samples. Received: {', '.join(f'{k} with {v} samples' for k, v in sizes.items())}"
        )
    for name, a in named:
        _check_dtype(name, a)
        # A NaN or Inf anywhere makes the sum non-finite; only then pay for the
        # exact element-wise search (a finite sum can still overflow to inf).
        if (np.issubdtype(a.dtype, np.inexact) and not np.isfinite(np.sum(a))
                and not np.isfinite(a).all()):
            bad = np.argwhere(~np.isfinite(a))[0]
            value = a[tuple(bad)]
            index = tuple(int(i) for i in bad)
            raise ValueError(
                f"{name} contains a non-finite value ({value}) at index {index}"
                f"; clean or impute the data before training. Received: {name} with NaN/Inf"
            )
    return next(iter(sizes.values())) if sizes else 0


def _check_dtype(name, a):
    """Numbers for targets and weights; numbers or strings for inputs (text layers take
    strings), never other Python objects: each named, with its dtype."""
    kind = a.dtype.kind
    if kind not in "OUSV":
        return
    is_input = name == "x" or name.startswith(("x[", "x'"))
    if is_input and (kind in "US" or (kind == "O" and all(isinstance(v, str)
                                                          for v in a.ravel()[:100]))):
        return
    what = "strings" if kind in "US" else "Python objects"
    hint = ("encode the labels as numbers (class indices, e.g. with a StringLookup layer)"
            if kind in "US" or not is_input else
            f"convert it first, e.g. `{name} = np.asarray({name}, dtype='float32')`")
    raise ValueError(f"{name} has dtype {a.dtype} ({what}); {'inputs' if is_input else name} "
                     f"must be numeric arrays: {hint}. Received: {name}.dtype={a.dtype}, "
                     f"first value {a.ravel()[0]!r}")


def class_weight_to_sample_weight(y, class_weight):
    """Per-sample weights from `{class_index: weight}` (sparse or one-hot `y`)."""
    if isinstance(y, (list, dict)) and len(tree.flatten(y)) > 1:
        raise ValueError(
            "class_weight is only supported for models with a single output. "
            f"Received: class_weight={class_weight}"
        )
    y = np.asarray(tree.flatten(y)[0])
    if y.ndim == 2 and y.shape[1] > 1:
        labels = np.argmax(y, axis=1)
    else:
        labels = np.reshape(y, (y.shape[0], -1))[:, 0].astype(np.int64)
    weights = np.ones(labels.shape[0], dtype="float32")
    for cls, w in class_weight.items():
        weights[labels == int(cls)] = w
    return weights


def apply_class_weight(data, class_weight):
    """The batch `data` as `(x, y, sample_weight)`, weights multiplied by `class_weight`."""
    x, y, sample_weight = unpack_x_y_sample_weight(data)
    if y is None:
        raise ValueError(
            "class_weight needs targets, but a batch came without `y`. "
            f"Received: class_weight={class_weight}"
        )
    weights = class_weight_to_sample_weight(y, class_weight)
    if sample_weight is not None:
        weights = np.asarray(sample_weight) * weights
    return x, y, weights


def slice_structure(structure, index):
    """`structure` with every array indexed by `index` along the batch axis."""
    return tree.map_structure(lambda a: None if a is None else a[index], structure)


def split_validation(x, y, sample_weight, validation_split):
    """Keras's split: the last `validation_split` fraction, taken before shuffling."""
    if not 0 <= validation_split < 1:
        raise ValueError(
            f"validation_split must be in [0, 1). Received: validation_split={validation_split}"
        )
    x, y, sample_weight = standardize(x), standardize(y), standardize(sample_weight)
    n = check_arrays(x, y, sample_weight)
    cut = int(n * (1.0 - validation_split))
    if cut == 0 or cut == n:
        raise ValueError(
            f"validation_split={validation_split} leaves an empty training or validation set "
            f"with {n} samples. Received: validation_split={validation_split}"
        )
    train = tuple(slice_structure(s, slice(0, cut)) for s in (x, y, sample_weight))
    val = tuple(slice_structure(s, slice(cut, None)) for s in (x, y, sample_weight))
    return train, val
