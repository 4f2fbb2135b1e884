"""Linear algebra, as `keras.ops.linalg`: decompositions, solves, norms and `jvp`.

Every function works on the last two axes of (stacks of) matrices, takes
integer inputs as `floatx()`, and runs eagerly, symbolically and on a
`GradientTape`. Gradients follow the usual formulas (see
`backend/numpy_backend/decompositions.py` and `matrix_solve.py`); `eig`,
`lu_factor` and `matrix_rank` have none, as their results are complex,
pivots or counts.

>>> import numpy as np
>>> float(det(np.array([[2.0, 0.0], [0.0, 3.0]])))
6.0
"""

import numpy as np

from .. import backend
from ..backend import GradientTape, Tensor
from .core import convert_to_numpy, shape
from .math import float_operand

_apply = backend.apply


def _matrices(x, op, square=False):
    x = float_operand(x)
    s = shape(x)
    if len(s) < 2 or square and None not in s[-2:] and s[-1] != s[-2]:
        what = "square matrices" if square else "matrices"
        raise ValueError(f"{op} needs {what} in the last two axes. Received: x.shape={s}")
    return x


def _swap_last(x):
    rank = len(shape(x))
    axes = tuple(range(rank - 2)) + (rank - 1, rank - 2)
    return _apply("transpose", x, axes=axes)


def cholesky(x, upper=False):
    """The Cholesky factor of symmetric positive-definite `x`: lower `L` with
    `x = L L^T`, or upper `U = L^T` with `x = U^T U`."""
    factor = _apply("cholesky", _matrices(x, "cholesky", square=True))
    return _swap_last(factor) if upper else factor


def cholesky_inverse(x, upper=False):
    """`inv(A)` from `A`'s Cholesky factor `x` (lower, or upper when `upper`)."""
    x = _matrices(x, "cholesky_inverse", square=True)
    n = shape(x)[-1]
    eye = np.eye(n, dtype=np.dtype(x.dtype))
    inverse_factor = _apply("solve_triangular", x, eye, lower=not upper)
    if upper:
        return _apply("matmul", inverse_factor, _swap_last(inverse_factor))
    return _apply("matmul", _swap_last(inverse_factor), inverse_factor)


def det(x):
    """The determinant of (stacks of) square matrices."""
    return _apply("det", _matrices(x, "det", square=True))


def eig(x):
    """Complex `(eigenvalues, eigenvectors)` of general square matrices (no gradient)."""
    return _apply("eig", _matrices(x, "eig", square=True))


def eigh(x):
    """`(eigenvalues ascending, eigenvectors as columns)` of symmetric matrices.

    Only the lower triangle is read.
    """
    return _apply("eigh", _matrices(x, "eigh", square=True))


def inv(x):
    """The inverse of (stacks of) square matrices."""
    return _apply("inv", _matrices(x, "inv", square=True))


def lu_factor(x):
    """`(lu, pivots)` of the LU factorisation with partial pivoting (no gradient).

    `lu` holds `L` (unit diagonal, not stored) below the diagonal and `U` on
    and above it; row `i` was swapped with row `pivots[i]` (int32), as
    LAPACK's `getrf` and `scipy.linalg.lu_factor` report them.
    """
    return _apply("lu_factor", _matrices(x, "lu_factor", square=True))


def solve(a, b):
    """`x` with `a @ x = b`; `b` is `(..., n, k)`, or `(n,)` for one right-hand side."""
    return _apply("solve", _matrices(a, "solve", square=True), float_operand(b))


def solve_triangular(a, b, lower=False):
    """`solve` for triangular `a`, reading only its lower (`lower=True`) or upper triangle."""
    return _apply("solve_triangular", _matrices(a, "solve_triangular", square=True),
                  float_operand(b), lower=bool(lower))


def svd(x, full_matrices=True, compute_uv=True):
    """`(u, s, vh)` with `x = u @ diag(s) @ vh`; only `s` when `compute_uv=False`.

    Singular vectors of a non-square `x` with `full_matrices=True` have no
    gradient (their padding columns are not unique).
    """
    out = _apply("svd", _matrices(x, "svd"), full_matrices=bool(full_matrices),
                 compute_uv=bool(compute_uv))
    return out if compute_uv else out[0]


def qr(x, mode="reduced"):
    """`(q, r)`: orthonormal columns and an upper-triangular factor, `x = q @ r`.

    `mode` is `"reduced"` (`k = min(m, n)` columns) or `"complete"`.
    """
    if mode not in ("reduced", "complete"):
        raise ValueError(f"qr: mode must be 'reduced' or 'complete'. Received: mode={mode!r}")
    return _apply("qr", _matrices(x, "qr"), mode=mode)


def _reciprocal_singular_values(s, rcond, m, n):
    """`1 / s` where `s >= rcond * max(s)`, else 0; the cutoff carries no gradient."""
    if rcond is None:
        rcond = np.finfo(np.dtype(s.dtype)).eps * max(m, n)
    largest = _apply("max", s, axis=-1, keepdims=True)
    keep = _apply("stop_gradient", _apply("greater_equal", s, largest * rcond))
    safe = _apply("where", keep, s, 1.0)
    return _apply("where", keep, 1.0 / safe, 0.0)


def pinv(x, rcond=None):
    """The Moore-Penrose pseudo-inverse, dropping singular values below `rcond * max(s)`."""
    x = _matrices(x, "pinv")
    m, n = shape(x)[-2:]
    u, s, vh = _apply("svd", x, full_matrices=False, compute_uv=True)
    scale = _reciprocal_singular_values(s, rcond, m or 1, n or 1)
    scaled_v = _swap_last(vh) * _apply("expand_dims", scale, axis=-2)
    return _apply("matmul", scaled_v, _swap_last(u))


def lstsq(a, b, rcond=None):
    """The least-squares solution `x` of `a @ x = b` (2-D `a`; `b` of rank 1 or 2).

    Computed through the SVD of `a`, with singular values below
    `rcond * max(s)` dropped (`rcond` defaults to `eps * max(m, n)`).
    """
    a, b = float_operand(a), float_operand(b)
    sa, sb = shape(a), shape(b)
    if len(sa) != 2 or len(sb) not in (1, 2):
        raise ValueError(
            "lstsq needs a 2-D `a` and a 1-D or 2-D `b`. "
            f"Received: a.shape={sa}, b.shape={sb}")
    if None not in (sa[0], sb[0]) and sa[0] != sb[0]:
        raise ValueError(
            f"lstsq: a and b need the same number of rows. Received: a.shape={sa}, b.shape={sb}")
    solution = _apply("matmul", pinv(a, rcond), b)
    return solution


def matrix_rank(x, tol=None):
    """The number of singular values above `tol` (default: `max(s) * max(m, n) * eps`); int32.

    No gradient (a count).
    """
    x = _matrices(x, "matrix_rank")
    s = _apply("svd", x, full_matrices=False, compute_uv=False)[0]
    if tol is None:
        m, n = shape(x)[-2:]
        size = max(m or 1, n or 1)
        eps = float(np.finfo(np.dtype(x.dtype)).eps)
        tol = _apply("max", s, axis=-1, keepdims=True) * (size * eps)
    count = _apply("sum", _apply("greater", s, tol), axis=-1)
    return _apply("cast", count, dtype=np.dtype("int32"))


def _axes(axis, rank, op):
    if axis is None:
        return tuple(range(rank))
    axes = (axis,) if isinstance(axis, (int, np.integer)) else tuple(axis)
    for a in axes:
        if not -rank <= a < rank:
            raise ValueError(
                f"{op}: every axis must be in [-{rank}, {rank}). "
                f"Received: x.shape of rank {rank}, axis={axis}")
    return tuple(a % rank for a in axes)


def norm(x, ord=None, axis=None, keepdims=False):
    """Vector or matrix norms, as `numpy.linalg.norm`.

    One axis: `ord` in None/2, inf, -inf, 0, or any number p (`sum |x|^p ^ (1/p)`).
    Two axes: None/"fro", "nuc", 1, -1, 2, -2, inf, -inf. With `axis=None` the
    whole tensor is one vector (Frobenius for matrices when `ord` is None).
    """
    x = float_operand(x)
    rank = len(shape(x))
    axes = _axes(axis, rank, "norm")
    if axis is None and ord is not None and rank > 2:
        raise ValueError(f"norm: ord needs axis for inputs of rank > 2. Received: ord={ord}")
    if axis is None and ord is not None and rank == 2:
        axes = (0, 1)
    if len(axes) == 1 or axis is None and ord is None:
        return _vector_norm(x, ord, axes, keepdims)
    if len(axes) != 2:
        raise ValueError(f"norm takes one or two axes. Received: axis={axis}")
    return _matrix_norm(x, ord, axes, keepdims, rank)


def _vector_norm(x, ord, axes, keepdims):
    magnitude = _apply("abs", x)
    if ord is None or ord == 2:
        return _apply("sqrt", _apply("sum", _apply("square", x), axis=axes, keepdims=keepdims))
    if ord == float("inf"):
        return _apply("max", magnitude, axis=axes, keepdims=keepdims)
    if ord == float("-inf"):
        return _apply("min", magnitude, axis=axes, keepdims=keepdims)
    if ord == 0:
        nonzero = _apply("cast", _apply("not_equal", x, 0.0), dtype=np.dtype(x.dtype))
        return _apply("sum", nonzero, axis=axes, keepdims=keepdims)
    if isinstance(ord, str):
        raise ValueError(f"norm: invalid ord for a vector norm. Received: ord={ord!r}")  # noqa: TRY004  (Keras raises ValueError)
    total = _apply("sum", _apply("power", magnitude, float(ord)), axis=axes, keepdims=keepdims)
    return _apply("power", total, 1.0 / float(ord))


def _matrix_norm(x, ord, axes, keepdims, rank):
    rows, cols = axes
    if ord is None or ord == "fro":
        return _apply("sqrt", _apply("sum", _apply("square", x), axis=axes, keepdims=keepdims))
    if ord in (1, -1, float("inf"), float("-inf")):
        summed, other = (rows, cols) if ord in (1, -1) else (cols, rows)
        sums = _apply("sum", _apply("abs", x), axis=summed, keepdims=True)
        pick = "max" if ord in (1, float("inf")) else "min"
        out = _apply(pick, sums, axis=other, keepdims=True)
        return out if keepdims else _apply("squeeze", out, axis=axes)
    if ord in (2, -2, "nuc"):
        others = tuple(i for i in range(rank) if i not in axes)
        moved = _apply("transpose", x, axes=others + axes)
        s = _apply("svd", moved, full_matrices=False, compute_uv=False)[0]
        if ord == "nuc":
            out = _apply("sum", s, axis=-1)
        else:
            out = _apply("max" if ord == 2 else "min", s, axis=-1)
        if keepdims:
            for a in sorted(axes):
                out = _apply("expand_dims", out, axis=a)
        return out
    raise ValueError(f"norm: invalid ord for a matrix norm. Received: ord={ord!r}")


def _flat(tree):
    if isinstance(tree, (list, tuple)):
        return [leaf for item in tree for leaf in _flat(item)]
    return [tree]


def _pack(tree, leaves):
    if isinstance(tree, (list, tuple)):
        packed = [_pack(item, leaves) for item in tree]
        return type(tree)(packed)
    return next(leaves)


def jvp(fun, primals, tangents, has_aux=False):
    """The Jacobian-vector product of `fun` at `primals` along `tangents`.

    Returns `(outputs, tangent_outputs)`, plus `fun`'s auxiliary output when
    `has_aux` (then `fun` returns `(outputs, aux)`). hikeras differentiates
    in reverse mode only, so this builds each output's Jacobian with one
    backward pass per output entry and contracts it with the tangents: exact,
    but meant for small outputs.
    """
    primal_leaves = [np.array(convert_to_numpy(p), dtype=np.result_type(
        convert_to_numpy(p).dtype, np.float32)) for p in _flat(primals)]
    tangent_leaves = [np.asarray(convert_to_numpy(t), dtype=p.dtype)
                      for t, p in zip(_flat(tangents), primal_leaves)]
    if len(tangent_leaves) != len(primal_leaves) or any(
            t.shape != p.shape for t, p in zip(tangent_leaves, primal_leaves)):
        raise ValueError(
            "jvp needs one tangent of each primal's shape. Received: primal shapes "
            f"{[p.shape for p in primal_leaves]}, tangent shapes "
            f"{[t.shape for t in tangent_leaves]}")
    # Tracked tensors, so that Python operators inside `fun` are recorded too.
    tracked = [Tensor(p) for p in primal_leaves]
    with GradientTape(persistent=True) as tape:
        tape.watch(tracked)
        result = fun(*_pack(primals, iter(tracked)))
    outputs, aux = result if has_aux else (result, None)
    out_leaves = _flat(outputs)
    tangent_out = []
    for out in out_leaves:
        value = out.value if isinstance(out, Tensor) else np.asarray(out)
        total = np.zeros(value.shape, value.dtype)
        for p, t in zip(tracked, tangent_leaves):
            jac = tape.jacobian(out, p) if isinstance(out, Tensor) else None
            if jac is not None:
                contracted = np.tensordot(np.asarray(jac), t, axes=t.ndim)
                total = total + contracted.reshape(value.shape).astype(value.dtype)
        tangent_out.append(np.asarray(total))
    values = [o.value if isinstance(o, Tensor) else np.asarray(o) for o in out_leaves]
    packed_out = _pack(outputs, iter(values))
    packed_tangents = _pack(outputs, iter(tangent_out))
    if has_aux:
        return packed_out, packed_tangents, aux
    return packed_out, packed_tangents
