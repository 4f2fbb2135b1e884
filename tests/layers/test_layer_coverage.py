"""Every layer class exported by `hikeras.layers` must go through the layer harness.

The harness is `run_layer_test` (one input) or `run_multi_input_layer_test`
(several inputs, and a recurrent cell's step). Which classes it is given is
read from the test sources, not from which tests happened to run, so the
check holds whatever the order or selection of the tests: every call of a
harness function in `tests/**/test_*.py` (outside `pytest.raises`) is found,
and its first argument is evaluated in its module, once per row of the
test's `parametrize` marks when it names a parameter.
"""

import ast
import importlib
import inspect
import itertools
import pathlib

import pytest

from hikeras import layers
from hikeras.layers import Layer

HARNESS_FUNCTIONS = ("run_layer_test", "run_multi_input_layer_test")

# Exported classes that Keras too never calls on data. Keep this list short: a class
# is here only while it is an abstract base or a graph's source, never to skip work.
NOT_HARNESSED = {
    # The base of every layer; in Keras it is abstract (its `call` raises).
    "Layer": "the base class of every layer",
    # Keras documents `Wrapper` as an abstract base ("do not use this class as a
    # layer"); its build and config code runs in the harness cases of
    # TimeDistributed, Bidirectional and SpectralNormalization, its subclasses.
    "Wrapper": "an abstract base (TimeDistributed, Bidirectional, SpectralNormalization)",
    # A functional graph's source, made by `Input()`; Keras's `call` takes no tensor.
    "InputLayer": "a functional graph's source, never called on a tensor",
}

_PARAMETER_SET = type(pytest.param(None))  # what `pytest.param` makes
TESTS = pathlib.Path(__file__).resolve().parents[1]


def exported_layer_classes():
    """`{class: name}` of every `Layer` subclass in `hikeras.layers.__all__` (aliases once)."""
    classes = {}
    for name in layers.__all__:
        value = getattr(layers, name)
        if inspect.isclass(value) and issubclass(value, Layer):
            classes.setdefault(value, value.__name__)
    return classes


def _parametrize_rows(function):
    """One `{argname: value}` per combination of the function's `parametrize` marks."""
    tables = []
    for mark in getattr(function, "pytestmark", []):
        if mark.name != "parametrize":
            continue
        argnames, argvalues = mark.args[0], mark.args[1]
        if isinstance(argnames, str):
            argnames = [n.strip() for n in argnames.split(",") if n.strip()]
        rows = []
        for row in argvalues:
            if isinstance(row, _PARAMETER_SET):
                row = row.values
            elif len(argnames) == 1:
                row = (row,)
            rows.append(dict(zip(argnames, row)))
        tables.append(rows)
    for combination in itertools.product(*tables):
        merged = {}
        for row in combination:
            merged.update(row)
        yield merged


def _harness_calls(tree):
    """`(function name, call)` for each harness call outside `pytest.raises`."""
    found = []

    def visit(node, function, expecting_failure):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)) and function is None:
            function = node.name
        if isinstance(node, ast.With) and any(
                "raises" in ast.unparse(item.context_expr) for item in node.items):
            expecting_failure = True
        if (isinstance(node, ast.Call) and isinstance(node.func, ast.Name)
                and node.func.id in HARNESS_FUNCTIONS and not expecting_failure):
            found.append((function, node))
        for child in ast.iter_child_nodes(node):
            visit(child, function, expecting_failure)

    visit(tree, None, False)
    return found


def harnessed_classes():
    """`(covered, unresolved)`: the classes given to the harness, and the calls whose
    class could not be told from the source (`path:line: expression`)."""
    covered, unresolved = set(), []
    root = TESTS.parent
    for path in sorted(TESTS.rglob("test_*.py")):
        source = path.read_text()
        if not any(f"{name}(" in source for name in HARNESS_FUNCTIONS):
            continue
        module = importlib.import_module(
            ".".join(path.relative_to(root).with_suffix("").parts))
        for function_name, call in _harness_calls(ast.parse(source)):
            argument = call.args[0] if call.args else next(
                (k.value for k in call.keywords if k.arg == "layer_cls"), None)
            expression = ast.unparse(argument)
            function = getattr(module, function_name or "", None)
            rows = list(_parametrize_rows(function)) if function is not None else [{}]
            for row in rows or [{}]:
                try:
                    layer_cls = eval(expression, vars(module), row)
                except Exception:  # a local variable, a fixture, ...
                    layer_cls = None
                if not (inspect.isclass(layer_cls) and issubclass(layer_cls, Layer)):
                    unresolved.append(f"{path.relative_to(root)}:{call.lineno}: {expression}")
                    break
                covered.add(layer_cls)
    return covered, unresolved


COVERED, UNRESOLVED = harnessed_classes()


def test_every_exported_layer_goes_through_the_harness():
    missing = sorted(name for cls, name in exported_layer_classes().items()
                     if cls not in COVERED and name not in NOT_HARNESSED)
    assert not missing, (
        f"layer classes exported by hikeras.layers that no test passes to run_layer_test "
        f"or run_multi_input_layer_test (tests/helpers/): {missing}")


def test_every_harness_call_names_its_class():
    assert not UNRESOLVED, (
        "harness calls whose layer class cannot be read from the source; pass the class "
        "itself (a wrapped layer or cell goes in init_kwargs, through `fresh`), or a "
        f"parametrized name: {UNRESOLVED}")


def test_exemptions_are_exported_and_not_harnessed():
    exported = exported_layer_classes()
    names = set(exported.values())
    assert set(NOT_HARNESSED) <= names, sorted(set(NOT_HARNESSED) - names)
    needless = sorted(name for cls, name in exported.items()
                      if name in NOT_HARNESSED and cls in COVERED)
    assert not needless, f"exempt from the harness but harnessed after all: {needless}"
