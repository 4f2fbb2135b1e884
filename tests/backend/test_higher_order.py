"""Second-order gradients through nested tapes, checked against finite differences.

Every op case in the `tests/backend/test_ops_*.py` tables whose op has a
traced VJP is differentiated twice: for random directions `u` (output), `w`
(gradient) and `v` (inputs), the nested-tape result `d/dx <w, grad_x <u, op(x)>>`
contracted with `v` must match a central difference of the first-order
gradient `t -> <w, grad <u, op(x + t v)>>`. The traced VJP's first-order
value must also equal the numpy VJP's.
"""

import pathlib

import numpy as np
import pytest

from hikeras.backend import GradientTape, Tensor, apply, get_op
from tests.helpers.check_op import load_cases, params

_STEP = 1e-5


def _is_float_array(x):
    return isinstance(x, np.ndarray) and np.issubdtype(x.dtype, np.floating)


def _traced_cases():
    selected = []
    for c in load_cases(pathlib.Path(__file__).parent):
        op = get_op(c.name)
        if (op.traced_vjp is not None and op.num_outputs == 1
                and c.options.get("check_grad", True)):
            selected.append(c)
    return selected


TRACED_CASES = _traced_cases()


def _wrt(c, inputs):
    wrt = c.options.get("wrt")
    return tuple(wrt) if wrt is not None else tuple(
        i for i, x in enumerate(inputs) if _is_float_array(x))


def _first_order(c, inputs, wrt, u):
    """Plain (unrecorded) gradients of `<u, op(inputs)>` w.r.t. `inputs[wrt]`."""
    inputs = [np.copy(x) if isinstance(x, np.ndarray) else x for x in inputs]
    with GradientTape() as tape:
        tape.watch([inputs[i] for i in wrt])
        out = apply(c.name, *inputs, **c.attrs)
    grads = tape.gradient(out, [inputs[i] for i in wrt], output_gradients=u)
    return [np.zeros(np.shape(inputs[i])) if g is None else np.asarray(g)
            for g, i in zip(grads, wrt)]


def _values(gs):
    return [g.value if isinstance(g, Tensor) else g for g in gs]


@pytest.mark.parametrize("op_case", params(TRACED_CASES))
def test_second_order_gradient_matches_finite_differences(op_case):
    c = op_case
    rng = np.random.default_rng(1)
    inputs = [x.astype(np.float64) if _is_float_array(x) else x for x in c.inputs]
    wrt = _wrt(c, inputs)
    if not wrt:
        pytest.skip("no float input to differentiate")
    out = np.asarray(apply(c.name, *inputs, **c.attrs))
    u = rng.standard_normal(out.shape)
    w = [rng.standard_normal(np.shape(inputs[i])) for i in wrt]
    v = [rng.standard_normal(np.shape(inputs[i])) for i in wrt]

    sources = [inputs[i] for i in wrt]
    with GradientTape() as outer:
        outer.watch(sources)
        with GradientTape() as inner:
            inner.watch(sources)
            y = apply(c.name, *inputs, **c.attrs)
        grads = inner.gradient(y, sources, output_gradients=u)
        total = None
        for g, wk in zip(grads, w):
            if g is not None:
                term = apply("sum", apply("multiply", g, wk))
                total = term if total is None else apply("add", total, term)
    plain = _first_order(c, inputs, wrt, u)
    for got, want in zip(_values(grads), plain):
        np.testing.assert_allclose(0 if got is None else got, want, rtol=1e-10, atol=1e-12,
                                   err_msg=f"{c.name}: traced VJP differs from numpy VJP")
    hessian = outer.gradient(total, sources) if isinstance(total, Tensor) else [None] * len(wrt)
    analytic = sum(0.0 if h is None else float(np.sum(np.asarray(h) * vk))
                   for h, vk in zip(_values(hessian), v))

    def directional(t):
        shifted = list(inputs)
        for i, vk in zip(wrt, v):
            shifted[i] = np.asarray(inputs[i] + t * vk)
        return sum(float(np.sum(g * wk))
                   for g, wk in zip(_first_order(c, shifted, wrt, u), w))

    numeric = (directional(_STEP) - directional(-_STEP)) / (2 * _STEP)
    scale = max(abs(numeric), abs(analytic), 1.0)
    assert abs(numeric - analytic) <= 1e-6 * scale, (
        f"{c.name}: second-order gradient {analytic!r}, finite differences {numeric!r}")


def test_traced_ops_cover_the_documented_set():
    """The ops docs/training.md lists as supporting higher-order gradients have cases."""
    covered = {c.name for c in TRACED_CASES}
    for name in ("add", "multiply", "matmul", "dense", "tanh", "sigmoid", "relu", "exp",
                 "log", "sum", "mean", "softmax", "reshape", "transpose",
                 "softmax_cross_entropy", "sparse_softmax_cross_entropy"):
        assert name in covered, name
