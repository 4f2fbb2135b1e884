"""Pooling ops against window-by-window loop references, plus hand-computed values."""

import itertools

import numpy as np
import pytest

from hikeras.backend import GradientTape, apply
from hikeras.backend.numpy_backend import pooling
from tests.helpers.check_op import case, params, random_array

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(5)


def r(*shape):
    return random_array(_TABLE_RNG, *shape, low=-2.0, high=2.0)


def _windows(length, pool, stride, padding):
    """`(start, stop)` of each window over the real elements of one axis."""
    if padding == "valid":
        count, before = (length - pool) // stride + 1, 0
    else:
        count = -(-length // stride)
        before = max((count - 1) * stride + pool - length, 0) // 2
    return [(max(i * stride - before, 0), min(i * stride - before + pool, length))
            for i in range(count)]


def pool_reference(reduce):
    def reference(x, pool_size, strides=None, padding="valid"):
        rank = x.ndim - 2
        pool = (pool_size,) * rank if isinstance(pool_size, int) else pool_size
        strides = pool if strides is None else strides
        strides = (strides,) * rank if isinstance(strides, int) else strides
        axes = [_windows(n, k, s, padding)
                for n, k, s in zip(x.shape[1:-1], pool, strides)]
        out = np.zeros((x.shape[0], *map(len, axes), x.shape[-1]))
        for pos in itertools.product(*(range(len(a)) for a in axes)):
            window = x[(slice(None),) + tuple(slice(*a[p]) for a, p in zip(axes, pos))]
            flat = window.reshape(x.shape[0], -1, x.shape[-1])
            out[(slice(None), *pos)] = reduce(flat, axis=1)
        return out

    return reference


def pool_case(name, x_shape, label, **attrs):
    reduce = np.max if name == "max_pool" else np.mean
    reference = pool_reference(reduce)
    return case(name, r(*x_shape), attrs=attrs, label=label,
                reference=lambda x: reference(x, **attrs))


CASES = []
for _name in ("max_pool", "avg_pool"):
    CASES += [
        pool_case(_name, (2, 7, 3), "1d-valid", pool_size=2),
        pool_case(_name, (2, 7, 3), "1d-same-stride1", pool_size=3, strides=1, padding="same"),
        pool_case(_name, (2, 6, 6, 2), "2d-tiling", pool_size=(2, 2)),
        pool_case(_name, (2, 5, 7, 2), "2d-same-overlap", pool_size=3, strides=(2, 2),
                  padding="same"),
        pool_case(_name, (1, 5, 4, 3), "2d-strides-above-pool", pool_size=(2, 1), strides=3),
        pool_case(_name, (2, 4, 5, 3, 2), "3d-same", pool_size=2, padding="same"),
        pool_case(_name, (2, 4, 4, 4, 1), "3d-valid", pool_size=(2, 3, 2), strides=(2, 1, 1)),
    ]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


@pytest.mark.parametrize("op_case", params(CASES))
def test_op_with_chunks_on_threads(monkeypatch, op_case):
    """One image per chunk, the chunks spread over threads: the same values and gradients."""
    monkeypatch.setattr(pooling, "CHUNK_BYTES", 1)
    monkeypatch.setenv("HIKERAS_NUM_THREADS", "2")
    op_case.run()


def test_hand_computed_same_average_counts_only_real_elements():
    x = np.arange(1, 10, dtype="float32").reshape(1, 3, 3, 1)
    out = apply("avg_pool", x, pool_size=2, padding="same")[0, :, :, 0]
    # windows [0:2]x[0:2], [0:2]x[2:3], [2:3]x[0:2], [2:3]x[2:3]
    np.testing.assert_allclose(out, [[3.0, 4.5], [7.5, 9.0]])


def test_max_pool_gradient_goes_to_the_first_maximum():
    x = np.array([[1.0, 1.0], [0.0, 1.0]], "float32").reshape(1, 2, 2, 1)
    with GradientTape() as tape:
        tape.watch(x)
        out = apply("max_pool", x, pool_size=2)
    (g,) = tape.gradient(out, [x])
    np.testing.assert_array_equal(g[0, :, :, 0], [[1, 0], [0, 0]])


def test_max_pool_same_padding_never_selects_the_padding():
    x = -np.ones((1, 3, 1), "float32")
    np.testing.assert_array_equal(apply("max_pool", x, pool_size=2, padding="same"),
                                  -np.ones((1, 2, 1)))


@pytest.mark.parametrize("op", ["max_pool", "avg_pool"])
def test_pool_larger_than_valid_input(op):
    with pytest.raises(ValueError, match=r"pool \(\(3, 3\)\) is larger than the input"):
        apply(op, np.ones((1, 2, 5, 1), "float32"), pool_size=3)


@pytest.mark.parametrize("attrs, message", [
    ({"pool_size": 2, "padding": "causal"}, "padding must be 'valid' or 'same'"),
    ({"pool_size": (2, 2, 2)}, "pool_size must be"),
    ({"pool_size": 2, "strides": 0}, "strides must be"),
])
def test_bad_attributes(attrs, message):
    with pytest.raises(ValueError, match=message):
        apply("max_pool", np.ones((1, 4, 4, 1), "float32"), **attrs)


@pytest.mark.parametrize("padding", ["valid", "same"])
def test_max_pool_propagates_nan_to_its_windows_only(padding):
    x = np.arange(1 * 5 * 5 * 2, dtype="float32").reshape(1, 5, 5, 2)
    x[0, 2, 3, 1] = np.nan
    out = apply("max_pool", x, pool_size=3, strides=2, padding=padding)
    expected = pool_reference(np.max)(x, pool_size=3, strides=2, padding=padding)
    np.testing.assert_array_equal(np.isnan(out), np.isnan(expected))
    assert np.isnan(out).sum() == 2   # the windows holding row 2, column 3
    np.testing.assert_array_equal(out[~np.isnan(out)], expected[~np.isnan(expected)])
