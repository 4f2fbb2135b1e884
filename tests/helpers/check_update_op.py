"""`check_update_op`: the harness for update ops, which write into their inputs.

Update ops (optimizer steps, metric accumulations) are declared with
`mutates=(...)` and `differentiable=False`: they have no gradient to check
against finite differences and no output shape to derive. Their category in
the op-coverage test is this harness instead of `check_op`. A test supplies
inputs (float64 arrays, integer/bool arrays, None for an absent optional
slot) and a plain numpy reference that returns the expected new value of
every mutated input; the harness then

a. checks the op's declaration: it mutates some inputs, is not
   differentiable, and refuses symbolic tensors (its shape rule raises);
b. runs the op in float64 through `hikeras.backend.apply` and checks that
   it returns None, that every mutated input now holds the reference's value
   *in the array that was passed* (same object, same shape and dtype), and
   that it wrote into no other input;
c. runs it again on float32 copies, within float32 rounding of the float64
   reference, and checks that float32 state stays float32;
d. runs it under a `GradientTape` that watches the float inputs and checks
   that nothing is recorded.

`UpdateCase` declares one such call in a module's `CASES` table, beside the
`OpCase`s, so `tests/backend/test_registry_coverage.py` and the backend
conformance suite find it.
"""

import dataclasses
from typing import Any, Callable

import numpy as np
import pytest

from hikeras.backend import GradientTape, SymbolicTensor, apply, get_op


def _is_float_array(x):
    return isinstance(x, np.ndarray) and np.issubdtype(x.dtype, np.floating)


def _copies(inputs, dtype=None):
    out = []
    for x in inputs:
        if _is_float_array(x):
            out.append(np.array(x, dtype=dtype or x.dtype))
        elif isinstance(x, np.ndarray):
            out.append(np.array(x))
        else:
            out.append(x)
    return out


def check_update_op(name, *inputs, attrs=None, reference=None, rtol=1e-5, atol=1e-6,
                    rtol64=1e-12, atol64=1e-12):
    """Checks update op `name` on `inputs`; see the module docstring for what is checked.

    Args:
        name: registered op name.
        *inputs: the op's positional inputs; float arrays should be float64.
        attrs: the op's keyword attributes.
        reference: `reference(*inputs, **attrs)` returning the expected new
            values of the mutated inputs, one per index in the op's `mutates`
            (None for an input passed as None), computed from float64 copies
            (which it may modify).
        rtol, atol: float32 tolerance against the reference.
        rtol64, atol64: float64 tolerance against the reference.
    """
    attrs = dict(attrs or {})
    op = get_op(name)
    assert op.mutates, f"{name} declares no `mutates`: check it with check_op"
    assert not op.differentiable, f"update op {name} must be declared non-differentiable"
    with pytest.raises(TypeError, match="in place"):
        symbolic = [SymbolicTensor(x.shape, x.dtype) if isinstance(x, np.ndarray) else x
                    for x in inputs]
        apply(name, *symbolic, **attrs)

    expected = reference(*_copies(inputs), **attrs)
    assert len(expected) == len(op.mutates), (
        f"{name}: the reference gives {len(expected)} values for {len(op.mutates)} mutated inputs")
    _check_run(op, inputs, attrs, expected, None, rtol64, atol64)
    _check_run(op, inputs, attrs, expected, np.float32, rtol, atol)
    _check_unrecorded(op, inputs, attrs)


def _check_run(op, inputs, attrs, expected, dtype, rtol, atol):
    name = op.name
    arrays = _copies(inputs, dtype)
    before = _copies(arrays)
    result = apply(name, *arrays, **attrs)
    assert result is None, f"{name} returned {result!r}; an update op returns None"
    for i, (x, original) in enumerate(zip(arrays, before)):
        if x is None:
            continue
        if i not in op.mutates:
            if isinstance(x, np.ndarray):
                np.testing.assert_array_equal(x, original, err_msg=f"{name} wrote into input {i}")
            continue
        want = np.asarray(expected[op.mutates.index(i)])
        assert x.shape == original.shape and x.dtype == original.dtype, (
            f"{name}: input {i} changed to {x.shape} {x.dtype}")
        np.testing.assert_allclose(x.astype(np.float64), want, rtol=rtol, atol=atol,
                                   err_msg=f"{name}: input {i} after the update ({x.dtype})")
    for i, want in zip(op.mutates, expected):
        assert (arrays[i] is None) == (want is None), (
            f"{name}: input {i} is {arrays[i]!r} but the reference gives {want!r}")


def _check_unrecorded(op, inputs, attrs):
    arrays = _copies(inputs)
    with GradientTape(persistent=True) as tape:
        for x in arrays:
            if _is_float_array(x):
                tape.watch(x)
        result = apply(op.name, *arrays, **attrs)
    assert result is None
    assert not tape._nodes, f"{op.name} was recorded on a tape"


@dataclasses.dataclass
class UpdateCase:
    """One `check_update_op` call, declared in a module-level `CASES` table."""

    name: str
    inputs: tuple
    attrs: dict = dataclasses.field(default_factory=dict)
    reference: Callable[..., Any] | None = None
    options: dict = dataclasses.field(default_factory=dict)
    label: str = ""
    marks: tuple = ()

    def run(self):
        check_update_op(self.name, *self.inputs, attrs=self.attrs, reference=self.reference,
                        **self.options)

    def __str__(self):
        shapes = "-".join(
            "x".join(map(str, np.shape(x))) or "scalar" if isinstance(x, np.ndarray)
            else type(x).__name__ for x in self.inputs)
        return f"{self.name}[{self.label or shapes}]"


def update_case(name, *inputs, attrs=None, reference=None, label="", marks=(), **options):
    """Shorthand for an `UpdateCase`; extra keyword arguments go to `check_update_op`."""
    return UpdateCase(name, inputs, dict(attrs or {}), reference, options, label, tuple(marks))
