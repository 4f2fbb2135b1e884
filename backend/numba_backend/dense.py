"""`dense` for a few rows (one-sample inference): one pass over the kernel, bias and
activation fused.

With one row, `x @ kernel` is a matrix-vector product bound by reading the
kernel (the benchmark CNN's 9216x128 float32 kernel is 4.7 MB): BLAS's
`gemv` on the kernel's row-major layout read it at about 45 GB/s on one
core here. This loop reads it once, row by row in memory order, for all the
rows of `x` together, four kernel rows at a time into a vector of outputs,
then adds the bias and applies the activation while the outputs are in
cache: measured 1.2x numpy's product alone for that layer. Each output is
summed in a fixed order, on the calling thread, so results do not depend on
threads; they differ from BLAS's by float rounding.

Larger batches (BLAS's blocked GEMM reuses the kernel across rows), small
kernels (nothing to gain), other dtypes and layouts keep numpy's kernel.
"""

import numpy as np

from ._jit import jit
from ._registry import override

# Rows of `x` up to which the kernel is read once for all of them.
MAX_ROWS = 8
# Kernel elements from which the compiled loop pays (below, BLAS's call is as quick).
MIN_KERNEL_SIZE = 1 << 16
_ACTIVATIONS = {"linear": 0, "relu": 1, "sigmoid": 2, "tanh": 3}


@jit()
def _product(x, kernel, bias, out, activation):
    rows, depth = x.shape
    units = kernel.shape[1]
    for r in range(rows):
        for u in range(units):
            out[r, u] = 0
    i = 0
    while i + 4 <= depth:
        for r in range(rows):
            a0, a1, a2, a3 = x[r, i], x[r, i + 1], x[r, i + 2], x[r, i + 3]
            for u in range(units):
                out[r, u] += (a0 * kernel[i, u] + a1 * kernel[i + 1, u]
                              + a2 * kernel[i + 2, u] + a3 * kernel[i + 3, u])
        i += 4
    while i < depth:
        for r in range(rows):
            a = x[r, i]
            for u in range(units):
                out[r, u] += a * kernel[i, u]
        i += 1
    for r in range(rows):
        for u in range(units):
            z = out[r, u] + bias[u]
            if activation == 1:
                z = max(z, 0)
            elif activation == 2:
                z = 1 / (1 + np.exp(-z))
            elif activation == 3:
                z = np.tanh(z)
            out[r, u] = z


@override("dense")
def dense(x, kernel, *bias, activation="linear"):
    """`activation(x @ kernel + bias)`, compiled for a few rows and a large kernel."""
    if (x.ndim != 2 or kernel.ndim != 2 or x.shape[0] > MAX_ROWS
            or kernel.size < MIN_KERNEL_SIZE or not kernel.flags.c_contiguous or activation not in _ACTIVATIONS
            or x.dtype not in (np.float32, np.float64) or kernel.dtype != x.dtype
            or (bias and bias[0].dtype != x.dtype) or x.shape[1] != kernel.shape[0]):
        return NotImplemented
    b = bias[0] if bias else np.zeros(kernel.shape[1], x.dtype)
    out = np.empty((x.shape[0], kernel.shape[1]), x.dtype)
    _product(np.ascontiguousarray(x), kernel, np.ascontiguousarray(b),
             out, _ACTIVATIONS[activation])
    return out

