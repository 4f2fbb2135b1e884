"""`_vector_math.exp32`/`exp64` (the numba backend's vectorisable exp) against `np.exp`.

The reference is numpy's own `exp`, correctly rounded to within about an
ulp; ours is allowed 2 ulp (Taylor truncation is a tenth of an ulp, the rest
is rounding in Horner's scheme and the range reduction). Exact agreement is
required where the result is special: 0 below the subnormal range, inf above
the largest float, NaN for NaN.
"""

import numpy as np
import pytest

from tests.helpers.backends import installed

pytestmark = pytest.mark.skipif(not installed("numba"),
                                reason='needs `pip install "hikeras[numba]"`')


@pytest.fixture(scope="module")
def loops():
    from hikeras.backend.numba_backend._jit import jit
    from hikeras.backend.numba_backend._vector_math import exp32, exp64

    def loop(exp):
        @jit(fastmath={"contract"})
        def apply(x, out):
            for i in range(x.shape[0]):
                out[i] = exp(x[i])
        return apply

    return {np.float32: loop(exp32), np.float64: loop(exp64)}


def _exp(loops, x):
    out = np.empty_like(x)
    loops[x.dtype.type](x, out)
    return out


def _ulps(got, want):
    return np.abs(got.astype(np.float64) - want) / np.spacing(want).astype(np.float64)


# (overflow threshold, least x whose exp is not 0) of each dtype, with a margin
_RANGE = {np.float32: (-106.0, 90.0), np.float64: (-750.0, 712.0)}


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exp_within_two_ulp_of_numpy_over_the_whole_range(loops, rng, dtype):
    low, high = _RANGE[dtype]
    x = np.concatenate([np.linspace(low, high, 400_001, dtype=dtype),
                        rng.uniform(-3, 3, 100_000).astype(dtype),
                        np.array([0.0, -0.0, 1e-30, -1e-30, 1.0, -1.0], dtype)])
    got = _exp(loops, x)
    with np.errstate(over="ignore", under="ignore"):
        want = np.exp(x)
    assert got.dtype == dtype
    regular = np.isfinite(want) & (want != 0)
    np.testing.assert_array_equal(got[~regular], want[~regular])   # the exact 0s and infs
    assert _ulps(got[regular], want[regular]).max() <= 2.0
    assert got[x == 0].tolist() == [1.0, 1.0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exp_special_values(loops, dtype):
    info = np.finfo(dtype)
    x = np.array([np.nan, np.inf, -np.inf, info.max, -info.max, info.tiny, -info.tiny], dtype)
    got = _exp(loops, x)
    assert np.isnan(got[0])
    assert got[1:].tolist() == [np.inf, 0.0, np.inf, 0.0, 1.0, 1.0]


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
def test_exp_at_the_ends_of_the_range(loops, dtype):
    # the largest x with a finite exp, the first that overflows, and the subnormal tail
    info = np.finfo(dtype)
    largest = np.log(info.max).astype(dtype)
    with np.errstate(over="ignore"):
        while not np.isfinite(np.exp(largest)):
            largest = np.nextafter(largest, dtype(0))
    x = np.array([largest, np.nextafter(largest, dtype(np.inf)), np.log(info.tiny),
                  np.log(info.smallest_subnormal)], dtype)
    with np.errstate(over="ignore"):
        want = np.exp(x)
    got = _exp(loops, x)
    assert np.isfinite(got[0]) and got[1] == want[1] == np.inf
    assert _ulps(got[[0, 2]], want[[0, 2]]).max() <= 2.0
    assert got[3] == want[3]   # the least subnormal
