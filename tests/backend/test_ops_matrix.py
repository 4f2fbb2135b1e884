"""Inverses, solves and decompositions: values against defining identities and
numpy's LAPACK, gradients against finite differences, shape rules."""

import numpy as np
import pytest

from tests.helpers.check_op import case, params, random_array

_TABLE_RNG = np.random.default_rng(14)


def r(*shape):
    return random_array(_TABLE_RNG, *shape)


def well_conditioned(*shape):
    return r(*shape) + 3 * np.eye(shape[-1])


def spd(*shape):
    m = r(*shape)
    return m @ np.swapaxes(m, -1, -2) + shape[-1] * np.eye(shape[-1])


def _t(x):
    return np.swapaxes(x, -1, -2)


def _lower_solve(a, b):
    """Forward substitution, by hand, on the lower triangle of `a`."""
    x = np.zeros_like(b)
    for i in range(a.shape[-1]):
        x[..., i, :] = (b[..., i, :] - np.einsum("...j,...jk->...k", a[..., i, :i],
                                                   x[..., :i, :])) / a[..., i, i, None]
    return x


_A = well_conditioned(2, 3, 3)
_SPD = spd(2, 3, 3)
_ASCENDING = np.array([[4.0, 1.0, 0.5], [1.0, 3.0, 0.2], [0.5, 0.2, 1.0]])

CASES = [
    case("inv", _A, reference=lambda a: np.linalg.solve(a, np.broadcast_to(np.eye(3), a.shape))),
    case("det", _A, reference=lambda a: np.prod(np.linalg.eigvals(a), axis=-1).real),
    case("slogdet", _A, reference=lambda a: (np.sign(np.linalg.det(a)),
                                             np.log(np.abs(np.linalg.det(a))))),
    case("solve", _A, r(2, 3, 2), reference=lambda a, b: np.linalg.inv(a) @ b),
    case("solve", _A[0], r(3), reference=lambda a, b: np.linalg.inv(a) @ b, label="vector"),
    case("solve", _A, r(3, 2), reference=lambda a, b: np.linalg.inv(a) @ b, label="broadcast"),
    case("solve_triangular", _A, r(2, 3, 2), attrs={"lower": True}, reference=_lower_solve),
    case("solve_triangular", _A, r(2, 3, 2), attrs={"lower": False},
         reference=lambda a, b: _lower_solve(a[..., ::-1, ::-1], b[..., ::-1, :])[..., ::-1, :],
         label="upper"),
    case("cholesky", _SPD, reference=lambda a: np.linalg.cholesky(a)),
    case("eigh", _ASCENDING, reference=lambda a: np.linalg.eigh(a), rtol=1e-4, atol=1e-5),
    case("svd", r(4, 3), attrs={"full_matrices": False},
         reference=lambda a: np.linalg.svd(a, full_matrices=False), rtol=1e-4, atol=1e-5,
         label="reduced-tall"),
    case("svd", r(2, 3, 5), attrs={"full_matrices": False},
         reference=lambda a: np.linalg.svd(a, full_matrices=False), rtol=1e-4, atol=1e-5,
         label="reduced-wide"),
    case("svd", r(3, 4), attrs={"compute_uv": False},
         reference=lambda a: (np.sqrt(np.linalg.eigvalsh(a @ a.T))[::-1],), label="values"),
    case("svd", r(3, 3), reference=lambda a: np.linalg.svd(a), rtol=1e-4, atol=1e-5,
         label="square-full"),
    case("qr", r(2, 4, 3), reference=lambda a: np.linalg.qr(a), rtol=1e-4, atol=1e-5),
    case("qr", r(3, 3), attrs={"mode": "complete"},
         reference=lambda a: np.linalg.qr(a, mode="complete"), rtol=1e-4, atol=1e-5,
         label="complete"),
    case("eig", np.diag([3.0, -1.0, 2.0]),
         reference=lambda a: (np.array([3.0, -1.0, 2.0]) + 0j, np.eye(3) + 0j)),
]


def _lu_reference(x):
    """Partial pivoting by hand, one column at a time."""
    lu = np.array(x, dtype=np.float64)
    n = lu.shape[-1]
    pivots = np.zeros(n, np.int32)
    for k in range(n):
        p = k + int(np.argmax(np.abs(lu[k:, k])))
        pivots[k] = p
        lu[[k, p]] = lu[[p, k]]
        lu[k + 1:, k] /= lu[k, k]
        lu[k + 1:, k + 1:] -= np.outer(lu[k + 1:, k], lu[k, k + 1:])
    return lu, pivots


CASES.append(case("lu_factor", r(4, 4), reference=_lu_reference, batch_none=False))


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_lu_factor_reconstructs_the_matrix(rng):
    from hikeras.backend import apply

    x = rng.standard_normal((3, 5, 5))
    lu, pivots = apply("lu_factor", x)
    for b in range(3):
        lower = np.tril(lu[b], -1) + np.eye(5)
        permuted = x[b].copy()
        for i, p in enumerate(pivots[b]):
            permuted[[i, p]] = permuted[[p, i]]
        np.testing.assert_allclose(lower @ np.triu(lu[b]), permuted, atol=1e-12)


def test_cholesky_of_an_indefinite_matrix_names_the_op():
    from hikeras.backend import apply

    with pytest.raises(ValueError, match="cholesky needs symmetric positive definite"):
        apply("cholesky", np.array([[1.0, 2.0], [2.0, 1.0]]))
