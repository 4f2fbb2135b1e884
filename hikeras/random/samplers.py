"""Random tensors with Keras 3's `keras.random` names, arguments and seed rules.

`seed` may be an int (the same numbers every time), a `SeedGenerator` (its
state advances with each call) or None (drawn from hikeras' global
generator, which `hikeras.utils.set_random_seed` resets). The bit streams
are numpy's, not TensorFlow's: distributions match Keras, values do not.

On a `shape` with unknown (None) dimensions, samplers return a symbolic
tensor of that shape, so they can run while a model is being built.
"""

import numpy as np

from .. import backend
from ..backend import SymbolicTensor, Tensor
from ..ops import kernels
from ..ops import shape as _shape_of
from ..ops import take as _take
from ..ops.core import tensor_operand
from ..utils.rng import make_generator
from .seed_generator import SeedGenerator


def draw_generator(seed):
    """The numpy `Generator` a random op draws from, per Keras's seed rules."""
    if isinstance(seed, SeedGenerator):
        return seed.next()
    if seed is None:
        return make_generator()
    if isinstance(seed, Tensor):
        seed = seed.value
    if isinstance(seed, (int, np.integer)) and not isinstance(seed, bool):
        return np.random.default_rng(int(seed))
    if isinstance(seed, np.ndarray) and np.issubdtype(seed.dtype, np.integer):
        return np.random.default_rng([int(s) for s in seed.reshape(-1)])
    raise ValueError("seed must be an int, a SeedGenerator, an integer tensor or None. "
                     f"Received: seed={seed!r}")


def _shape(shape, op):
    if isinstance(shape, (int, np.integer)):
        return (int(shape),)
    try:
        return tuple(None if backend.is_unknown_dim(d) else int(d) for d in shape)
    except TypeError:
        raise ValueError(f"{op}: shape must be a tuple of ints. Received: shape={shape!r}") \
            from None


def _float_dtype(dtype, op):
    dtype = np.dtype(backend.floatx() if dtype is None else dtype)
    if not np.issubdtype(dtype, np.floating):
        raise ValueError(f"{op} samples floats. Received: dtype={dtype}")
    return dtype


def _symbolic(shape, dtype):
    return SymbolicTensor(shape, dtype) if None in shape else None


def normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normally distributed values."""
    shape, dtype = _shape(shape, "normal"), _float_dtype(dtype, "normal")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    values = draw_generator(seed).standard_normal(shape)
    return (values * stddev + mean).astype(dtype)


def uniform(shape, minval=0.0, maxval=1.0, dtype=None, seed=None):
    """Values uniform in `[minval, maxval)`."""
    shape, dtype = _shape(shape, "uniform"), _float_dtype(dtype, "uniform")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    return draw_generator(seed).uniform(minval, maxval, shape).astype(dtype)


def truncated_normal(shape, mean=0.0, stddev=1.0, dtype=None, seed=None):
    """Normal values redrawn until they lie within two standard deviations of `mean`."""
    shape, dtype = _shape(shape, "truncated_normal"), _float_dtype(dtype, "truncated_normal")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    rng = draw_generator(seed)
    values = rng.standard_normal(shape)
    outside = np.abs(values) > 2.0
    while outside.any():
        values[outside] = rng.standard_normal(int(outside.sum()))
        outside = np.abs(values) > 2.0
    return (values * stddev + mean).astype(dtype)


def randint(shape, minval, maxval, dtype="int32", seed=None):
    """Integers uniform in `[minval, maxval)`."""
    shape, dtype = _shape(shape, "randint"), np.dtype(dtype)
    if not np.issubdtype(dtype, np.integer):
        raise ValueError(f"randint samples integers. Received: dtype={dtype}")
    if int(maxval) <= int(minval):
        raise ValueError(f"randint needs minval < maxval. Received: minval={minval}, "
                         f"maxval={maxval}")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    return draw_generator(seed).integers(int(minval), int(maxval), shape).astype(dtype)


def categorical(logits, num_samples, dtype="int32", seed=None):
    """Class indices drawn `num_samples` times per row of the 2-d `logits`
    (unnormalised log-probabilities)."""
    logits = tensor_operand(logits)
    dims = _shape_of(logits)
    if len(dims) != 2:
        raise ValueError(f"categorical needs 2-d logits (batch, classes). Received: "
                         f"logits.shape={dims}")
    if dims[0] is None or isinstance(logits, SymbolicTensor):
        return SymbolicTensor((dims[0], int(num_samples)), dtype)
    values = np.asarray(logits.value if isinstance(logits, Tensor) else logits, np.float64)
    gumbel = -np.log(-np.log(draw_generator(seed).uniform(
        np.finfo(np.float64).tiny, 1.0, (dims[0], int(num_samples), dims[1]))))
    return np.argmax(values[:, None, :] + gumbel, axis=-1).astype(dtype)


def dropout(inputs, rate, noise_shape=None, seed=None):
    """`inputs` with entries zeroed at `rate` and the rest scaled by `1 / (1 - rate)`;
    differentiable in `inputs`."""
    inputs = tensor_operand(inputs)
    if isinstance(inputs, SymbolicTensor):
        return SymbolicTensor(inputs.shape, inputs.dtype)
    return kernels.dropout(inputs, rate, rng=draw_generator(seed), noise_shape=noise_shape)


def shuffle(x, axis=0, seed=None):
    """`x` with its slices along `axis` in a random order; differentiable in `x`."""
    x = tensor_operand(x)
    length = _shape_of(x)[axis]
    if length is None:
        return SymbolicTensor(x.shape, x.dtype)
    order = draw_generator(seed).permutation(length).astype(np.int32)
    return _take(x, order, axis=axis)


def gamma(shape, alpha, dtype=None, seed=None):
    """Gamma-distributed values with shape parameter `alpha` and scale 1."""
    shape, dtype = _shape(shape, "gamma"), _float_dtype(dtype, "gamma")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    return draw_generator(seed).gamma(np.asarray(alpha, np.float64), 1.0, shape).astype(dtype)


def beta(shape, alpha, beta, dtype=None, seed=None):
    """Beta-distributed values with parameters `alpha` and `beta`."""
    shape, dtype = _shape(shape, "beta"), _float_dtype(dtype, "beta")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    return draw_generator(seed).beta(np.asarray(alpha, np.float64),
                                     np.asarray(beta, np.float64), shape).astype(dtype)


def binomial(shape, counts, probabilities, dtype=None, seed=None):
    """The number of successes in `counts` trials of success probability `probabilities`
    (as floats, like Keras)."""
    shape, dtype = _shape(shape, "binomial"), _float_dtype(dtype, "binomial")
    spec = _symbolic(shape, dtype)
    if spec is not None:
        return spec
    counts = np.asarray(counts.value if isinstance(counts, Tensor) else counts)
    probabilities = np.asarray(probabilities.value if isinstance(probabilities, Tensor)
                               else probabilities, np.float64)
    return draw_generator(seed).binomial(counts.astype(np.int64), probabilities,
                                         shape).astype(dtype)
