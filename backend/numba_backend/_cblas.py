"""numpy's OpenBLAS `sgemm`, callable from compiled code.

A compiled kernel that runs a loop of small matrix products (a recurrent op's
time steps) cannot call numpy in between without going back to Python. numpy's
wheel bundles OpenBLAS with its 64-bit-integer CBLAS interface exported as
`scipy_cblas_sgemm64_`; loading that library into LLVM's symbol table lets
nopython code declare and call the function by name. A call by name, unlike
a ctypes function pointer, keeps the calling kernel cacheable (`cache=True`).

`AVAILABLE` is False when no such library or symbol is found (a numpy built
against another BLAS); callers then decline their inputs, and the numpy
kernel runs. Pointers are passed as integers (`array.ctypes.data` plus a byte
offset), which the x86-64 and AArch64 calling conventions pass like pointers.
"""

import ctypes

from llvmlite import binding
from numba import types

from ..numpy_backend.blas_threads import openblas_candidates

_SYMBOL = "scipy_cblas_sgemm64_"

ROW_MAJOR, NO_TRANS, TRANS = 101, 111, 112


def _load():
    for path in openblas_candidates():
        try:
            lib = ctypes.CDLL(path)
        except OSError:
            continue
        if hasattr(lib, _SYMBOL):
            binding.load_library_permanently(path)
            return True
    return False


AVAILABLE = _load()

_pointer, _int = types.uintp, types.int64
# cblas_sgemm(order, trans_a, trans_b, m, n, k, alpha, a, lda, b, ldb, beta, c, ldc)
sgemm = types.ExternalFunction(_SYMBOL, types.void(
    types.int32, types.int32, types.int32, _int, _int, _int,
    types.float32, _pointer, _int, _pointer, _int, types.float32, _pointer, _int))
