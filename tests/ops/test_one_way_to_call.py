"""Ops are called one way: through functions, never by a string name outside `hikeras/ops/`.

Layers, losses, metrics and the trainer call `hikeras.ops` (what Keras has)
or `hikeras.ops.kernels` (fused and layer-specific kernels); optimizers and
metrics update their state through `hikeras.ops.updates` (the in-place update
ops). Only the modules of `hikeras/ops/` name ops as strings, in
`backend.apply("name", ...)`, so a reader can follow every call from a layer,
an optimizer or a metric to its kernel.
"""

import ast
import inspect
import re
from pathlib import Path

import pytest
from hikeras.backend import get_op

import hikeras
from hikeras.ops import kernels, updates

PACKAGE = Path(hikeras.__file__).parent
REPO = PACKAGE.parent
# Modules of functions named as the op they run, one function per kernel.
KERNEL_MODULES = {"kernels": kernels, "updates": updates}
FUNCTIONS = [(module, name) for module, m in KERNEL_MODULES.items() for name in m.__all__]


def _string_op_calls(source, filename):
    """`(line, text)` of each `apply("literal", ...)` or `<x>.apply("literal", ...)` call."""
    found = []
    for node in ast.walk(ast.parse(source, filename)):
        if not isinstance(node, ast.Call) or not node.args:
            continue
        func = node.func
        name = func.id if isinstance(func, ast.Name) else (
            func.attr if isinstance(func, ast.Attribute) else None)
        first = node.args[0]
        if name in ("apply", "_apply") and isinstance(first, ast.Constant) \
                and isinstance(first.value, str):
            found.append((node.lineno, ast.get_source_segment(source, node).splitlines()[0]))
    return found


def test_the_scan_finds_string_named_calls():
    source = ('from hikeras import backend\n'
              'backend.apply("matmul", a, b)\n'
              'apply("cast", x, dtype="float32")\n'
              'optimizer.apply([g], [w])\n'
              'kernels.dense(x, w)\n')
    assert [line for line, _ in _string_op_calls(source, "example.py")] == [2, 3]


def test_no_string_named_op_calls_outside_hikeras_ops():
    offenders = []
    for path in sorted(PACKAGE.rglob("*.py")):
        relative = path.relative_to(REPO)
        if relative.parts[:2] == ("hikeras", "ops"):
            continue
        for line, text in _string_op_calls(path.read_text(encoding="utf-8"), str(path)):
            offenders.append(f"{relative}:{line}: {text.strip()}")
    assert not offenders, (
        "Call ops through hikeras.ops (Keras's functions) or hikeras.ops.kernels (fused and "
        "layer kernels), not by name:\n" + "\n".join(offenders))


@pytest.mark.parametrize("module,name", FUNCTIONS)
def test_each_kernel_function_runs_the_op_of_its_name_with_its_signature(module, name):
    """Same parameters and defaults as the kernel (a `*bias` becomes `bias=None`), so
    passing every attribute explicitly changes nothing."""
    function = getattr(KERNEL_MODULES[module], name)
    forward = inspect.unwrap(get_op(name).forward)
    expected = [
        inspect.Parameter("bias", inspect.Parameter.POSITIONAL_OR_KEYWORD, default=None)
        if p.kind is inspect.Parameter.VAR_POSITIONAL else p
        for p in inspect.signature(forward).parameters.values()
    ]
    assert list(inspect.signature(function).parameters.values()) == expected


@pytest.mark.parametrize("module,name", FUNCTIONS)
def test_each_kernel_function_names_where_its_kernel_is_registered(module, name):
    doc = getattr(KERNEL_MODULES[module], name).__doc__
    match = re.search(r"Kernel: `(\w+)` in `(backend/numpy_backend/\w+\.py)`", doc)
    assert match, f"{module}.{name}'s docstring does not say where its kernel lives"
    assert match.group(1) == name
    source = Path(inspect.getsourcefile(inspect.unwrap(get_op(name).forward)))
    assert source.relative_to(REPO).as_posix() == match.group(2)


@pytest.mark.parametrize("module", sorted(KERNEL_MODULES))
def test_every_public_function_of_the_module_is_listed(module):
    namespace = vars(KERNEL_MODULES[module])
    public = {n for n, f in namespace.items() if inspect.isfunction(f) and not n.startswith("_")}
    assert public == set(namespace["__all__"])


def test_every_update_op_has_a_function():
    assert set(updates.__all__) == set(hikeras.backend.get_backend().ops.update_ops())
