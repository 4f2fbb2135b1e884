"""The op namespace for custom layers, losses and metrics, like `keras.ops`.

Every function works on numpy arrays, Python numbers, tensors recorded by a
`GradientTape` and symbolic tensors alike; each is a thin call into
`hikeras.backend`, where the kernels and their gradients live.

>>> import numpy as np
>>> from hikeras import ops
>>> ops.sum(ops.square(np.array([1.0, 2.0]))).item()
5.0
"""

from . import image, linalg, nn
from .core import (
    cast,
    convert_to_numpy,
    convert_to_tensor,
    dtype,
    is_tensor,
    shape,
    stop_gradient,
)
from .linalg import (
    cholesky,
    cholesky_inverse,
    det,
    eig,
    eigh,
    inv,
    jvp,
    lstsq,
    lu_factor,
    matrix_rank,
    norm,
    pinv,
    qr,
    solve,
    solve_triangular,
    svd,
)
from .math import (
    cdist,
    erf,
    erfc,
    erfinv,
    in_top_k,
    logdet,
    logsumexp,
    rsqrt,
    segment_max,
    segment_min,
    segment_prod,
    segment_sum,
    top_k,
    view_as_complex,
    view_as_real,
)
from .nn import (
    adaptive_average_pool,
    adaptive_max_pool,
    average_pool,
    batch_normalization,
    binary_crossentropy,
    categorical_crossentropy,
    celu,
    conv,
    conv_transpose,
    ctc_decode,
    ctc_loss,
    depth_to_space,
    depthwise_conv,
    dot_product_attention,
    elu,
    fold,
    gelu,
    glu,
    hard_shrink,
    hard_sigmoid,
    hard_silu,
    hard_swish,
    hard_tanh,
    layer_normalization,
    leaky_relu,
    log_sigmoid,
    log_softmax,
    max_pool,
    moments,
    multi_hot,
    normalize,
    one_hot,
    polar,
    psnr,
    relu,
    relu6,
    rms_normalization,
    selu,
    separable_conv,
    sigmoid,
    silu,
    soft_shrink,
    softmax,
    softplus,
    softsign,
    space_to_depth,
    sparse_categorical_crossentropy,
    sparse_plus,
    sparse_sigmoid,
    sparsemax,
    squareplus,
    swish,
    tanh,
    tanh_shrink,
    threshold,
    unfold,
)
from .spectral import extract_sequences, fft, fft2, ifft2, irfft, istft, rfft, stft

from .numpy import *  # every keras.ops.numpy name is flat in keras.ops
from .control_flow import (
    associative_scan, cond, fori_loop, map, scan, switch, vectorized_map, while_loop,
)
from .core import custom_gradient, saturate_cast
from .rearrange import rearrange
from .slicing import scatter, scatter_update, slice, slice_update, unstack
from . import numpy  # the namespace itself, `hikeras.ops.numpy`

__all__ = [
    "abs", "absolute", "adaptive_average_pool", "adaptive_max_pool", "add", "all", "any",
    "arange", "argmax", "argmin", "average_pool", "batch_normalization", "binary_crossentropy",
    "broadcast_to", "cast", "categorical_crossentropy", "cdist", "celu", "cholesky",
    "cholesky_inverse", "clip", "concatenate", "conv", "conv_transpose", "convert_to_numpy",
    "convert_to_tensor", "ctc_decode", "ctc_loss", "depth_to_space", "depthwise_conv", "det",
    "divide", "dot", "dot_product_attention", "dtype", "eig", "eigh", "einsum", "elu", "equal",
    "erf", "erfc", "erfinv", "exp", "expand_dims", "expm1", "extract_sequences", "eye", "fft",
    "fft2", "floor", "fold", "full", "full_like", "gelu", "glu", "greater", "greater_equal",
    "hard_shrink", "hard_sigmoid", "hard_silu", "hard_swish", "hard_tanh", "ifft2", "image",
    "in_top_k", "inv", "irfft", "is_tensor", "istft", "jvp", "layer_normalization", "leaky_relu",
    "less", "less_equal", "linalg", "log", "log1p", "log_sigmoid", "log_softmax", "logdet",
    "logical_and", "logical_not", "logical_or", "logsumexp", "lstsq", "lu_factor", "matmul",
    "matrix_rank", "max", "max_pool", "maximum", "mean", "min", "minimum", "moments", "multi_hot",
    "multiply", "ndim", "negative", "nn", "norm", "normalize", "not_equal", "one_hot", "ones",
    "ones_like", "pad", "pinv", "polar", "power", "prod", "psnr", "qr", "relu", "relu6", "repeat",
    "reshape", "rfft", "rms_normalization", "round", "rsqrt", "segment_max", "segment_min",
    "segment_prod", "segment_sum", "selu", "separable_conv", "shape", "sigmoid", "sign", "silu",
    "size", "soft_shrink", "softmax", "softplus", "softsign", "solve", "solve_triangular",
    "space_to_depth", "sparse_categorical_crossentropy", "sparse_plus", "sparse_sigmoid",
    "sparsemax", "split", "sqrt", "square", "squareplus", "squeeze", "stack", "std", "stft",
    "stop_gradient", "subtract", "sum", "svd", "swish", "take", "tanh", "tanh_shrink",
    "threshold", "tile", "top_k", "transpose", "true_divide", "unfold", "var", "view_as_complex",
    "view_as_real", "where", "zeros", "zeros_like",
]
__all__ += [name for name in numpy.__all__ if name not in __all__]
__all__ += [
    "associative_scan", "cond", "custom_gradient", "fori_loop", "map", "rearrange",
    "saturate_cast", "scan",
    "scatter", "scatter_update", "slice", "slice_update", "switch", "unstack",
    "vectorized_map", "while_loop",
]
