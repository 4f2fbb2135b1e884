"""`check_op`: one call tests an op's forward, gradient and shape rule.

A test supplies inputs (float64 arrays, integer/bool arrays, Python
scalars) and a numpy reference; the harness then

a. runs the op on float32 copies of the float inputs through
   `hikeras.backend.apply` and compares with the reference (computed in
   float64), also checking that float32 stays float32 and that the kernel
   did not write into its inputs;
b. runs it in float64 under a persistent `GradientTape`, contracts the
   output(s) with a random direction `u`, and compares `tape.gradient` with
   a central difference of `<u, op(x + t v)>` along a random direction `v`
   for each differentiated input (cost independent of tensor size). While
   it does so, the op's VJP is wrapped to assert that it returns one
   gradient per input with exactly that input's shape and dtype, does not
   write into the incoming gradient, and gives the same result when run
   twice (so it does not consume its saved arrays or residual). Each input
   is then also differentiated alone, which exercises the VJP's branches
   for untracked inputs. A float32 backward must give float32 gradients;
c. applies the op to `SymbolicTensor`s of the same shapes and dtypes and
   checks the shape rule against the concrete outputs, then again with the
   leading dimension of every input unknown (`None`), where the result
   must be compatible.

Non-differentiable ops are checked to return untracked arrays under a tape.
Every op name checked is added to `CHECKED_OPS`. Update ops, which write
into their inputs (declared with `mutates`), have their own harness,
`tests/helpers/check_update_op.py`.

`OpCase` bundles one call's arguments, so that test modules can declare a
module-level `CASES` table; `tests/backend/test_registry_coverage.py` reads
those tables to make sure every registered op has a case.
"""

import dataclasses
from typing import Any, Callable

import numpy as np

from hikeras.backend import GradientTape, SymbolicTensor, Tensor, apply, get_op

CHECKED_OPS = set()

_FD_STEP = 1e-6


def _is_float_array(x):
    return isinstance(x, np.ndarray) and np.issubdtype(x.dtype, np.floating)


def _as_tuple(out):
    return out if isinstance(out, tuple) else (out,)


def _value(x):
    return x.value if isinstance(x, Tensor) else np.asarray(x)


def check_op(name, *inputs, attrs=None, reference=None, wrt=None, rtol=1e-5, atol=1e-6,
             grad_rtol=1e-5, grad_atol=1e-8, check_grad=True, batch_none=True, seed=0):
    """Checks op `name` on `inputs`; see the module docstring for what is checked.

    Args:
        name: registered op name.
        *inputs: the op's positional inputs; float arrays should be float64.
        attrs: the op's keyword attributes.
        reference: `reference(*inputs)` computing the expected output(s) in
            numpy from the float64 inputs; `None` skips the value check.
        wrt: indices of the inputs to differentiate; defaults to every float
            array input.
        rtol, atol: float32 forward tolerance against the reference.
        grad_rtol, grad_atol: float64 VJP tolerance against finite differences.
        check_grad: set False for points where the op is not differentiable.
        batch_none: also check the shape rule with unknown leading dims.
        seed: seed of the random directions.
    """
    attrs = dict(attrs or {})
    op = get_op(name)
    CHECKED_OPS.add(name)
    inputs32 = [x.astype(np.float32) if _is_float_array(x) else x for x in inputs]
    outs32 = _check_forward(name, inputs32, inputs, attrs, reference, rtol, atol)
    _check_shape_rule(name, inputs32, attrs, outs32, batch_none)
    if not op.differentiable:
        _check_untracked(name, inputs, attrs)
        return
    if wrt is None:
        wrt = [i for i, x in enumerate(inputs) if _is_float_array(x)]
    wrt = tuple(wrt)
    original = op.vjp
    op.vjp = _strict_vjp(original)
    try:
        _check_float32_gradients(op, inputs32, attrs, wrt)
        if check_grad:
            _check_gradients(op, list(inputs), attrs, wrt, grad_rtol, grad_atol,
                             np.random.default_rng(seed))
    finally:
        op.vjp = original


def _check_forward(name, inputs32, inputs64, attrs, reference, rtol, atol):
    before = [np.copy(x) for x in inputs32]
    outs = _as_tuple(apply(name, *inputs32, **attrs))
    for x, copy in zip(inputs32, before):
        np.testing.assert_array_equal(x, copy, err_msg=f"{name} wrote into its input")
    for out in outs:
        out = np.asarray(out)
        if "dtype" not in attrs:  # float32 in, single precision out (complex64 if complex)
            if np.issubdtype(out.dtype, np.floating):
                assert out.dtype == np.float32, f"{name} turned float32 into {out.dtype}"
            elif np.issubdtype(out.dtype, np.complexfloating):
                assert out.dtype == np.complex64, f"{name} turned float32 into {out.dtype}"
    if reference is not None:
        expected = _as_tuple(reference(*inputs64))
        assert len(expected) == len(outs), f"{name}: {len(outs)} outputs, expected {len(expected)}"
        for got, want in zip(outs, expected):
            want = np.asarray(want)
            assert np.shape(got) == want.shape, f"{name}: shape {np.shape(got)} != {want.shape}"
            if np.issubdtype(want.dtype, np.inexact):
                np.testing.assert_allclose(np.asarray(got, dtype=np.float64), want,
                                           rtol=rtol, atol=atol, err_msg=f"{name} forward")
            else:
                np.testing.assert_array_equal(got, want, err_msg=f"{name} forward")
    return outs


def _spec(x, batch_none):
    if not isinstance(x, np.ndarray):
        return x
    shape = x.shape
    if batch_none and shape:
        shape = (None,) + shape[1:]
    return SymbolicTensor(shape, x.dtype)


def _check_shape_rule(name, inputs32, attrs, outs, batch_none):
    for unknown in (False, True) if batch_none else (False,):
        specs = _as_tuple(apply(name, *[_spec(x, unknown) for x in inputs32], **attrs))
        assert len(specs) == len(outs), f"{name}: shape rule gives {len(specs)} outputs"
        for spec, out in zip(specs, outs):
            assert isinstance(spec, SymbolicTensor), f"{name}: shape rule returned {spec!r}"
            shape = np.shape(out)
            assert spec.dtype == np.asarray(out).dtype, (
                f"{name}: rule dtype {spec.dtype} != {np.asarray(out).dtype}")
            if not unknown:
                assert spec.shape == shape, f"{name}: rule shape {spec.shape} != {shape}"
            else:
                assert len(spec.shape) == len(shape) and all(
                    s is None or s == d for s, d in zip(spec.shape, shape)
                ), f"{name}: rule shape {spec.shape} incompatible with {shape}"


def _check_untracked(name, inputs, attrs):
    with GradientTape() as tape:
        for x in inputs:
            if _is_float_array(x):
                tape.watch(x)
        outs = _as_tuple(apply(name, *inputs, **attrs))
    for out in outs:
        assert not isinstance(out, Tensor) or out.ref is None, (
            f"non-differentiable op {name} returned a tracked tensor")


def _contract(outs, directions):
    """`sum_i <u_i, out_i>` as a numpy float."""
    return sum(float(np.sum(_value(o) * u)) for o, u in zip(outs, directions))


def _tape_gradients(op, inputs, attrs, wrt, directions):
    with GradientTape(persistent=True) as tape:
        for i in wrt:
            tape.watch(inputs[i])
        outs = _as_tuple(apply(op.name, *inputs, **attrs))
        if len(outs) == 1:
            target, seed = outs[0], directions[0]
        else:  # contract several outputs into one scalar with already-checked ops
            target, seed = None, None
            for out, u in zip(outs, directions):
                term = apply("sum", apply("multiply", out, u))
                target = term if target is None else apply("add", target, term)
    sources = [inputs[i] for i in wrt]
    first = tape.gradient(target, sources, output_gradients=seed)
    second = tape.gradient(target, sources, output_gradients=seed)
    for a, b in zip(first, second):
        assert (a is None) == (b is None)
        if a is not None:
            np.testing.assert_array_equal(a, b, err_msg=f"{op.name}: a second backward differs")
    return first


def _check_float32_gradients(op, inputs32, attrs, wrt):
    """Gradients of float32 inputs must come back float32 (no silent float64)."""
    outs = _as_tuple(apply(op.name, *inputs32, **attrs))
    directions = [np.ones(np.shape(o), np.asarray(o).dtype) for o in outs]
    inputs32 = [np.copy(x) if isinstance(x, np.ndarray) else x for x in inputs32]
    grads = _tape_gradients(op, inputs32, attrs, wrt, directions)
    for i, g in zip(wrt, grads):
        if g is not None and inputs32[i].dtype == np.float32:
            assert g.dtype == np.float32, f"{op.name}: float32 input {i} got a {g.dtype} gradient"


def _check_gradients(op, inputs, attrs, wrt, rtol, atol, rng):
    inputs = [x.astype(np.float64) if _is_float_array(x) else x for x in inputs]
    outs = _as_tuple(apply(op.name, *inputs, **attrs))
    float_outs = [np.issubdtype(np.asarray(o).dtype, np.inexact) for o in outs]
    directions = [rng.standard_normal(np.shape(o)) if f else np.zeros(np.shape(o))
                  for o, f in zip(outs, float_outs)]
    grads = _tape_gradients(op, inputs, attrs, wrt, directions)
    for k, i in enumerate(wrt):
        alone = _tape_gradients(op, inputs, attrs, (i,), directions)[0]
        if grads[k] is None:
            assert alone is None, f"{op.name}: input {i} alone gets a gradient"
        else:
            np.testing.assert_allclose(alone, grads[k], rtol=1e-12, atol=1e-12,
                                       err_msg=f"{op.name}: input {i} differentiated alone")
    for k, i in enumerate(wrt):
        v = rng.standard_normal(np.shape(inputs[i]))
        numeric = _directional_difference(op.name, inputs, attrs, i, v, directions)
        analytic = 0.0 if grads[k] is None else float(np.sum(grads[k] * v))
        scale = max(abs(numeric), abs(analytic), 1.0)
        assert abs(numeric - analytic) <= atol + rtol * scale, (
            f"{op.name}: gradient of input {i} is wrong: VJP gives {analytic!r}, "
            f"finite differences give {numeric!r}"
        )


def _directional_difference(name, inputs, attrs, i, v, directions):
    def f(t):
        shifted = list(inputs)
        shifted[i] = inputs[i] + t * v
        return _contract(_as_tuple(apply(name, *shifted, **attrs)), directions)

    return (f(_FD_STEP) - f(-_FD_STEP)) / (2 * _FD_STEP)


def _strict_vjp(vjp):
    def checked(node, g):
        grads_in = g if isinstance(g, tuple) else (g,)
        g_copies = [np.copy(x) for x in grads_in]
        result = vjp(node, g)
        name = node.op.name
        assert isinstance(result, tuple) and len(result) == len(node.input_refs), (
            f"{name}: the VJP must return a tuple with one entry per input")
        for i, (gi, shape, ref) in enumerate(zip(result, node.input_shapes, node.input_refs)):
            if gi is None or ref is None:
                continue
            assert np.shape(gi) == tuple(shape), (
                f"{name}: gradient of input {i} has shape {np.shape(gi)}, expected {shape}")
            expected = node.inputs[i].dtype if node.inputs[i] is not None else None
            assert expected is None or np.asarray(gi).dtype == expected, (
                f"{name}: gradient of input {i} has dtype {np.asarray(gi).dtype}")
        for x, copy in zip(grads_in, g_copies):
            np.testing.assert_array_equal(x, copy, err_msg=f"{name}: the VJP wrote into g")
        return result

    return checked


@dataclasses.dataclass
class OpCase:
    """One `check_op` call, declared in a module-level `CASES` table."""

    name: str
    inputs: tuple
    attrs: dict = dataclasses.field(default_factory=dict)
    reference: Callable[..., Any] | None = None
    options: dict = dataclasses.field(default_factory=dict)
    label: str = ""
    marks: tuple = ()

    def run(self):
        check_op(self.name, *self.inputs, attrs=self.attrs, reference=self.reference,
                 **self.options)

    def __str__(self):
        shapes = "-".join(
            "x".join(map(str, np.shape(x))) or "scalar" if isinstance(x, np.ndarray)
            else type(x).__name__ for x in self.inputs)
        return f"{self.name}[{self.label or shapes}]"


def case(name, *inputs, attrs=None, reference=None, label="", marks=(), **options):
    """Shorthand for an `OpCase`; extra keyword arguments go to `check_op`."""
    return OpCase(name, inputs, dict(attrs or {}), reference, options, label, tuple(marks))


def params(cases):
    """`cases` as pytest parameters, with their ids and marks."""
    import pytest

    return [pytest.param(c, id=str(c), marks=c.marks) for c in cases]


def random_array(rng, *shape, low=-2.0, high=2.0, avoid=(), margin=0.05):
    """Uniform float64 values, nudged at least `margin` away from the points in `avoid`.

    Kinks (0 for relu, the clip bounds, ...) are avoided so that the central
    differences never straddle one.
    """
    x = np.array(rng.uniform(low, high, size=shape), dtype=np.float64)
    for point in avoid:
        near = np.abs(x - point) < margin
        x[near] = point + np.where(x[near] >= point, margin, -margin)
    return x


def load_cases(directory):
    """All `OpCase`s declared in the `CASES` tables of `directory/test_ops_*.py`.

    The modules are loaded from their files, so the result does not depend
    on which tests ran before.
    """
    import importlib.util
    import pathlib

    cases = []
    for path in sorted(pathlib.Path(directory).glob("test_ops_*.py")):
        spec = importlib.util.spec_from_file_location(f"_cases_{path.stem}", path)
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        cases.extend(module.CASES)
    return cases
