"""The op namespace for custom layers, losses and metrics, like `keras.ops`.

Every function works on numpy arrays, Python numbers, tensors recorded by a
`GradientTape` and symbolic tensors alike; each is a thin call into
`hikeras.backend`, where the kernels and their gradients live.

>>> import numpy as np
>>> from hikeras import ops
>>> ops.sum(ops.square(np.array([1.0, 2.0]))).item()
5.0
"""

from .core import (
    cast, convert_to_numpy, convert_to_tensor, dtype, is_tensor, shape, stop_gradient,
)
from .nn import (
    binary_crossentropy, categorical_crossentropy, ctc_loss, dot_product_attention, elu, gelu,
    hard_sigmoid, hard_silu,
    hard_swish, leaky_relu, log_softmax, one_hot, relu, relu6, selu, sigmoid, silu, softmax,
    softplus, softsign, sparse_categorical_crossentropy, swish, tanh,
)
from .numpy import (
    abs, absolute, add, all, any, arange, argmax, argmin, broadcast_to, clip, concatenate, divide, dot,
    einsum,
    equal, exp, expand_dims, expm1, eye, floor, full, full_like, greater, greater_equal, less,
    less_equal, log, log1p, logical_and, logical_not, logical_or, matmul, max, maximum, mean,
    min, minimum, multiply, ndim, negative, not_equal, ones, ones_like, pad, power, prod,
    repeat, reshape, round, sign, size, split, sqrt, square, squeeze, stack, std, subtract,
    sum, take, tile, transpose, true_divide, var, where, zeros, zeros_like,
)

__all__ = [
    "abs", "absolute", "add", "all", "any", "arange", "argmax", "argmin", "binary_crossentropy",
    "broadcast_to", "cast", "categorical_crossentropy", "clip", "concatenate",
    "convert_to_numpy", "convert_to_tensor", "ctc_loss", "divide", "dot", "dot_product_attention",
    "einsum", "dtype", "elu", "equal", "exp",
    "expand_dims", "expm1", "eye", "floor", "full", "full_like", "gelu", "greater",
    "greater_equal", "hard_sigmoid", "hard_silu", "hard_swish", "is_tensor", "leaky_relu",
    "less", "less_equal", "log", "log1p", "log_softmax", "logical_and", "logical_not",
    "logical_or", "matmul", "max", "maximum", "mean", "min", "minimum",
    "multiply", "ndim", "negative", "not_equal", "one_hot", "ones", "ones_like", "pad",
    "power", "prod", "relu", "relu6", "repeat", "reshape", "round", "selu", "shape",
    "sigmoid", "sign", "silu", "size", "softmax", "softplus", "softsign",
    "sparse_categorical_crossentropy", "split", "sqrt", "square", "squeeze", "stack", "std",
    "stop_gradient", "subtract", "sum", "swish", "take", "tanh", "tile", "transpose",
    "true_divide", "var", "where", "zeros", "zeros_like",
]

# keras.src.ops.math, reached flat as in Keras (the FFTs and framing in spectral.py).
from .math import (  # noqa: E402
    cdist, erf, erfc, erfinv, in_top_k, logdet, logsumexp, rsqrt, segment_max, segment_min,
    segment_prod, segment_sum, top_k, view_as_complex, view_as_real,
)
from .spectral import (  # noqa: E402
    extract_sequences, fft, fft2, ifft2, irfft, istft, rfft, stft,
)

__all__ += [
    "cdist", "erf", "erfc", "erfinv", "extract_sequences", "fft", "fft2", "ifft2", "in_top_k",
    "irfft", "istft", "logdet", "logsumexp", "rfft", "rsqrt", "segment_max", "segment_min",
    "segment_prod", "segment_sum", "stft", "top_k", "view_as_complex", "view_as_real",
]

# keras.ops.linalg, also reached flat as in Keras.
from . import linalg  # noqa: E402
from .linalg import (  # noqa: E402
    cholesky, cholesky_inverse, det, eig, eigh, inv, jvp, lstsq, lu_factor, matrix_rank, norm,
    pinv, qr, solve, solve_triangular, svd,
)

__all__ += [
    "cholesky", "cholesky_inverse", "det", "eig", "eigh", "inv", "jvp", "linalg", "lstsq",
    "lu_factor", "matrix_rank", "norm", "pinv", "qr", "solve", "solve_triangular", "svd",
]

# keras.ops.image (not flat in Keras either) and keras.ops.nn as namespaces.
from . import image, nn  # noqa: E402

__all__ += ["image", "nn"]
