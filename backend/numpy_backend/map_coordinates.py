"""`map_coordinates`: an array sampled at arbitrary (fractional) coordinates.

`coordinates` has one row per input axis; output entry `j` interpolates the
input at `coordinates[:, j]`, with order 0 (the nearest entry, coordinates
rounded half to even) or order 1 (multilinear, over the `2**rank`
surrounding entries). Indices outside the input are mapped back by
`fill_mode` (`nearest` clamps, `wrap` repeats, `mirror` and `reflect`
reflect without and with the edge repeated) or, for `constant`, read as
`fill_value`. The VJP scatters the gradient back to the entries read and,
for order 1, differentiates the weights with respect to the coordinates.
"""

import itertools

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define

FILL_MODES = ("constant", "nearest", "wrap", "mirror", "reflect")


def _mirror(index, size):
    if size == 1:
        return np.zeros_like(index)
    span = size - 1
    return np.abs((index + span) % (2 * span) - span)


def _fix(index, size, fill_mode):
    """`(index inside the axis, whether the entry exists)` for integer `index`."""
    if fill_mode == "nearest":
        return np.clip(index, 0, size - 1), np.ones(index.shape, bool)
    if fill_mode == "wrap":
        return index % size, np.ones(index.shape, bool)
    if fill_mode == "mirror":
        return _mirror(index, size), np.ones(index.shape, bool)
    if fill_mode == "reflect":
        return (_mirror(2 * index + 1, 2 * size + 1) - 1) // 2, np.ones(index.shape, bool)
    valid = (index >= 0) & (index < size)
    return np.where(valid, index, 0), valid


def _taps(coordinates, shape, order, fill_mode):
    """Per tap: `(indices per axis, valid mask, weight per axis, sign per axis)`."""
    per_axis = []
    for row, size in zip(coordinates, shape):
        if order == 0:
            index = np.round(row).astype(np.int64)
            per_axis.append([(index, np.ones_like(row), 0.0)])
        else:
            lower = np.floor(row)
            frac = row - lower
            lower = lower.astype(np.int64)
            per_axis.append([(lower, 1.0 - frac, -1.0), (lower + 1, frac, 1.0)])
    taps = []
    for combination in itertools.product(*per_axis):
        indices, valid = [], True
        for (index, _, _), size in zip(combination, shape):
            fixed, ok = _fix(index, size, fill_mode)
            indices.append(fixed)
            valid = valid & ok
        taps.append((tuple(indices), valid, [c[1] for c in combination],
                     [c[2] for c in combination]))
    return taps


def _map_shape(x, coordinates, order=1, fill_mode="constant", fill_value=0.0):
    sx, sc = rules.shape_of(x), rules.shape_of(coordinates)
    if not sc or sc[0] is not None and sc[0] != len(sx):
        raise ValueError(
            "map_coordinates needs one row of coordinates per input axis. "
            f"Received: inputs.shape={sx}, coordinates.shape={sc}")
    return SymbolicTensor(sc[1:], rules.dtype_of(x))


@define("map_coordinates", shape=_map_shape, save_inputs=(0, 1))
def map_coordinates(x, coordinates, order=1, fill_mode="constant", fill_value=0.0):
    x = np.asarray(x)
    coordinates = np.asarray(coordinates, dtype=np.float64)
    out = np.zeros(coordinates.shape[1:], np.float64)
    for indices, valid, weights, _ in _taps(coordinates, x.shape, order, fill_mode):
        values = np.where(valid, x[indices], fill_value)
        out += np.prod(weights, axis=0) * values
    return out.astype(x.dtype)


def sampling_gradients(x, coordinates, g, order, fill_mode, fill_value):
    """`(gradient w.r.t. x, w.r.t. the coordinates)` of sampling `x` at `coordinates`."""
    coords = np.asarray(coordinates, dtype=np.float64)
    gx = np.zeros(x.shape, np.float64)
    gc = np.zeros(coords.shape, np.float64)
    for indices, valid, weights, signs in _taps(coords, x.shape, order, fill_mode):
        weight = np.prod(weights, axis=0)
        np.add.at(gx, tuple(i[valid] for i in indices), (g * weight)[valid])
        if order == 1:
            values = np.where(valid, x[indices], fill_value)
            for axis in range(len(weights)):
                others = np.prod([w for k, w in enumerate(weights) if k != axis], axis=0)
                gc[axis] += g * values * others * signs[axis]
    return gx.astype(x.dtype), gc


@map_coordinates.defvjp
def _map_coordinates_vjp(node, g):
    x, coordinates = node.inputs
    gx, gc = sampling_gradients(x, coordinates, g, node.attrs.get("order", 1),
                                node.attrs.get("fill_mode", "constant"),
                                node.attrs.get("fill_value", 0.0))
    floating = np.issubdtype(np.asarray(coordinates).dtype, np.floating)
    return gx, gc.astype(coordinates.dtype) if floating else None
