"""Control flow with Keras 3's names: `cond`, `switch`, loops, scans and maps.

On concrete values (arrays, tape-recorded tensors) these run as Python
control flow over registered ops, so a `GradientTape` records what actually
ran and gradients pass through every branch taken and every iteration (as
with Keras's eager backends). On symbolic tensors `cond` and `switch` trace
every branch and return the common output spec (Keras's
`compute_output_spec`), and the loops trace their body.

A branch chosen by a value a functional model only knows when it runs (a
symbolic tensor from `Input`) cannot be recorded as a graph node: write it in
a layer's `call`, which runs on concrete values.

>>> import numpy as np
>>> fori_loop(0, 4, lambda i, total: total + i, np.float32(0.0)).item()
6.0
"""

import numpy as np

from ..backend import SymbolicTensor, Tensor
from .core import shape, tensor_operand
from .numpy import get_item, moveaxis, stack


def _flatten(structure):
    """Leaves of nested lists, tuples and dicts, depth-first (dicts in insertion order)."""
    if isinstance(structure, dict):
        return [leaf for v in structure.values() for leaf in _flatten(v)]
    if isinstance(structure, (list, tuple)):
        return [leaf for v in structure for leaf in _flatten(v)]
    return [structure]


def _pack(structure, leaves):
    """`structure`'s containers around `leaves` (the inverse of `_flatten`)."""
    leaves = iter(leaves)

    def build(node):
        if isinstance(node, dict):
            return {k: build(v) for k, v in node.items()}
        if isinstance(node, (list, tuple)):
            return type(node)(build(v) for v in node)
        return next(leaves)

    return build(structure)


def _is_graph_tensor(x):
    """Whether `x` belongs to a functional model being built (carries layer history)."""
    return getattr(x, "_keras_history", None) is not None


def _merged_spec(a, b, op):
    a_shape, b_shape = tuple(shape(a)), tuple(shape(b))
    if len(a_shape) != len(b_shape):
        raise ValueError(f"{op}: the branches return tensors of different ranks. Received: "
                         f"shapes {a_shape} and {b_shape}")
    merged = tuple(d if d == e else None for d, e in zip(a_shape, b_shape))
    return SymbolicTensor(merged, np.result_type(a.dtype, b.dtype))


def _merge_branches(outputs, op):
    """The output spec common to every branch's (symbolic) output structure."""
    first = outputs[0]
    flat = [_flatten(o) for o in outputs]
    if any(len(f) != len(flat[0]) for f in flat):
        raise ValueError(f"{op}: the branches return different structures. Received: "
                         f"{[type(o).__name__ for o in outputs]}")
    merged = flat[0]
    for other in flat[1:]:
        merged = [None if a is None and b is None else _merged_spec(a, b, op)
                  for a, b in zip(merged, other)]
    return _pack(first, merged)


def _check_not_graph(value, op, name):
    if _is_graph_tensor(value):
        raise TypeError(
            f"{op}: `{name}` is a tensor of a functional model under construction, known "
            "only when the model runs; put the branching in a layer's `call`. "
            f"Received: {name}={value!r}")


def cond(pred, true_fn, false_fn):
    """`true_fn()` if `pred` holds, else `false_fn()`.

    >>> cond(np.array(True), lambda: 1, lambda: 2)
    1
    """
    _check_not_graph(pred, "cond", "pred")
    if isinstance(pred, SymbolicTensor):
        return _merge_branches([true_fn(), false_fn()], "cond")
    value = pred.value if isinstance(pred, Tensor) else np.asarray(pred)
    if value.size != 1:
        raise ValueError(f"cond needs a scalar predicate. Received: pred.shape={value.shape}")
    return true_fn() if bool(value) else false_fn()


def switch(index, branches, *operands):
    """`branches[index](*operands)`, with `index` clamped into the valid range.

    >>> switch(5, [lambda x: x + 1, lambda x: x * 10], 2)
    20
    """
    if not branches:
        raise ValueError("switch needs at least one branch. Received: branches=[]")
    _check_not_graph(index, "switch", "index")
    if isinstance(index, SymbolicTensor):
        return _merge_branches([branch(*operands) for branch in branches], "switch")
    value = int(index.value if isinstance(index, Tensor) else np.asarray(index))
    return branches[min(max(value, 0), len(branches) - 1)](*operands)


def while_loop(cond, body, loop_vars, maximum_iterations=None):
    """Runs `loop_vars = body(*loop_vars)` while `cond(*loop_vars)` holds (at most
    `maximum_iterations` times); a lone tensor is passed and returned as is.

    >>> while_loop(lambda i: i < 10, lambda i: i * 2, 1)
    16
    """
    single = not isinstance(loop_vars, (list, tuple))
    state = (loop_vars,) if single else tuple(loop_vars)
    for value in _flatten(state):
        _check_not_graph(value, "while_loop", "loop_vars")
    steps = 0
    while maximum_iterations is None or steps < maximum_iterations:
        keep_going = cond(*state)
        keep_going = keep_going.value if isinstance(keep_going, Tensor) else keep_going
        if not bool(np.asarray(keep_going)):
            break
        state = body(*state)
        state = (state,) if single or not isinstance(state, (list, tuple)) else tuple(state)
        steps += 1
    if single:
        return state[0]
    return type(loop_vars)(state) if isinstance(loop_vars, list) else state


def fori_loop(lower, upper, body_fun, init_val):
    """`val = body_fun(i, val)` for `i` in `range(lower, upper)`; returns `val`."""
    value = init_val
    for i in range(int(lower), int(upper)):
        value = body_fun(i, value)
    return value


def _length(xs, length, op):
    leaves = [x for x in _flatten(xs) if x is not None]
    lengths = {shape(x)[0] for x in leaves}
    if length is not None:
        lengths.add(int(length))
    if len(lengths) != 1 or None in lengths:
        raise ValueError(f"{op} needs inputs of one known leading length. Received: "
                         f"lengths={sorted(lengths, key=str)}")
    return lengths.pop()


def _slice(xs, i):
    return _pack(xs, [None if x is None else get_item(tensor_operand(x), i)
                      for x in _flatten(xs)])


def _stack(items, axis=0):
    """Stacks a list of equal structures leaf by leaf."""
    if not items or items[0] is None:
        return None
    flat = [_flatten(item) for item in items]
    return _pack(items[0], [stack([f[k] for f in flat], axis=axis)
                            for k in range(len(flat[0]))])


def scan(f, init, xs=None, length=None, reverse=False, unroll=1):
    """Carries `init` through `carry, y = f(carry, x)` for each slice `x` of `xs` along
    axis 0 (or `length` times with `x = None`); returns `(carry, stacked ys)`.

    `unroll` is accepted for Keras's signature; Python loops need no unrolling.

    >>> carry, ys = scan(lambda c, x: (c + x, c * x), np.float32(0), np.arange(1.0, 4.0))
    >>> float(carry), ys.tolist()
    (6.0, [0.0, 2.0, 9.0])
    """
    n = _length(xs, length, "scan") if xs is not None else int(length)
    order = range(n - 1, -1, -1) if reverse else range(n)
    carry, ys = init, []
    for i in order:
        carry, y = f(carry, None if xs is None else _slice(xs, i))
        ys.append(y)
    if reverse:
        ys.reverse()
    return carry, _stack(ys)


def associative_scan(f, elems, reverse=False, axis=0):
    """Inclusive prefix scan with the associative `f` along `axis`:
    `out[i] = f(out[i - 1], elems[i])`.

    >>> associative_scan(lambda a, b: a + b, np.array([1.0, 2.0, 3.0])).tolist()
    [1.0, 3.0, 6.0]
    """
    leaves = [moveaxis(tensor_operand(x), axis, 0) for x in _flatten(elems)]
    moved = _pack(elems, leaves)
    n = _length(moved, None, "associative_scan")
    order = list(range(n - 1, -1, -1)) if reverse else list(range(n))
    outs, total = [], None
    for i in order:
        item = _slice(moved, i)
        total = item if total is None else (f(item, total) if reverse else f(total, item))
        outs.append(total)
    if reverse:
        outs.reverse()
    stacked = _stack(outs)
    return _pack(stacked, [moveaxis(x, 0, axis) for x in _flatten(stacked)])


def map(f, xs):
    """`f` applied to each slice of `xs` along axis 0, the results stacked.

    >>> map(lambda x: x * 2, np.array([1.0, 2.0])).tolist()
    [2.0, 4.0]
    """
    n = _length(xs, None, "map")
    return _stack([f(_slice(xs, i)) for i in range(n)])


def vectorized_map(function, elements):
    """`function` applied to each slice of `elements` along axis 0, the results stacked
    (a loop over `map` here: numpy has no automatic batching)."""
    return map(function, elements)


