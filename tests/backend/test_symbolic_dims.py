"""Shape rules given unknown sizes: `None` in input shapes, `SymbolicDim` in attributes.

A traced layer passes `ops.shape(x)` entries on to ops; the rules must read an
unknown entry as `None` and keep every dimension they can still tell. The
expected shapes are what numpy gives once the unknowns are known, with `None`
where the answer depends on them.
"""

import numpy as np
import pytest

from hikeras.backend import SymbolicDim, SymbolicTensor, apply, is_unknown_dim


def spec(*shape):
    return SymbolicTensor(shape)


@pytest.mark.parametrize("source, target, expected", [
    ((None, 4), (-1, 2), (None, 2)),
    ((None, None, 6), ("d", "d", 2, 3), (None, None, 2, 3)),
    ((None, 6), ("d", -1, 3), (None, None, 3)),
    ((2, 6), ("d", 3), (4, 3)),          # one unknown entry of a known size is inferred
    ((2, 6), ("d", "d", 3), (None, None, 3)),
])
def test_reshape(source, target, expected):
    target = tuple(SymbolicDim() if d == "d" else d for d in target)
    assert apply("reshape", spec(*source), shape=target).shape == expected


def test_reshape_still_checks_what_it_can():
    with pytest.raises(ValueError, match=r"at most one.*Received: shape="):
        apply("reshape", spec(None, 4), shape=(-1, -1))
    with pytest.raises(ValueError, match=r"Cannot reshape.*Received: shape="):
        apply("reshape", spec(2, 5), shape=(SymbolicDim(), SymbolicDim(), 3))


def test_broadcast_to():
    out = apply("broadcast_to", spec(1, 3), shape=(SymbolicDim(), 3))
    assert out.shape == (None, 3)
    with pytest.raises(ValueError, match=r"Cannot broadcast.*Received: shape="):
        apply("broadcast_to", spec(2, 3), shape=(SymbolicDim(), 4))


def test_getitem_with_unknown_bounds_and_indices():
    x = spec(None, 5, 3)
    steps = SymbolicDim()
    assert apply("getitem", x, key=(slice(None), slice(None, steps - 1))).shape == (None, None, 3)
    assert apply("getitem", x, key=(slice(None), steps)).shape == (None, 3)
    assert apply("getitem", x, key=(slice(None), slice(1, 4))).shape == (None, 3, 3)


def test_tile():
    assert apply("tile", spec(1, 3), repeats=(SymbolicDim(), 2)).shape == (None, 6)
    assert apply("tile", spec(None, 3), repeats=(2,)).shape == (None, 6)


def test_concrete_inputs_with_an_unknown_size_give_a_spec():
    weight = np.ones((1, 3), "float32")
    out = apply("tile", weight, repeats=(SymbolicDim(), 1))
    assert isinstance(out, SymbolicTensor) and out.shape == (None, 3)
    with pytest.raises(TypeError):  # an ordinary TypeError still surfaces
        apply("tile", weight, repeats=(None, 1))


def test_is_unknown_dim():
    assert is_unknown_dim(None) and is_unknown_dim(SymbolicDim())
    assert not is_unknown_dim(3) and not is_unknown_dim(np.int64(0))
