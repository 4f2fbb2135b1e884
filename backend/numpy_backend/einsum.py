"""`einsum`: Einstein summation lowered to batched matrix products.

`np.einsum` runs most contractions in its own C loop, which for layer-sized
operands is several times slower than BLAS (and `optimize=True` adds a path
search to every call). Here every contraction of two operands becomes one
`np.matmul` on transposed/reshaped views: letters shared by both operands and
kept in the output are the batch axes, shared letters dropped from the output
are contracted, and the rest are the rows and columns. Letters that occur in
one operand only and not in the output are summed first. More than two
operands are folded left to right.

The gradient of an operand is itself an einsum: the output gradient
contracted with the other operands onto the operand's subscripts, broadcast
back along letters that were summed away and summed over axes that numpy
broadcast (size 1 in the operand).

Supported: explicit (`"ab,bc->ac"`) and implicit (`"ab,bc"`) outputs, `...`
for leading or trailing axes, and size-1 broadcasting. Not supported: a
letter repeated within one operand (diagonals, traces).
"""

import math
import string

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._grad import float_grad
from ._registry import define


def parse_equation(equation, shapes):
    """Subscripts for each operand and the output, with `...` spelled out.

    Args:
        equation: the einsum equation, e.g. `"...c,cd->...d"`.
        shapes: the operands' shapes (entries may be `None`).

    Returns:
        `(input_subscripts, output_subscripts)`: a list of strings, one letter
        per axis of each operand, and the output's string.
    """
    equation = equation.replace(" ", "")
    lhs, arrow, output = equation.partition("->")
    terms = lhs.split(",")
    if len(terms) != len(shapes):
        raise ValueError(
            f"einsum: the equation names {len(terms)} operands but {len(shapes)} were given. "
            f"Received: equation={equation!r}"
        )
    for term in terms + [output]:
        letters = term.replace("...", "")
        if not all(c in string.ascii_letters for c in letters):
            raise ValueError(
                "einsum: subscripts must be letters, with at most one '...' per operand. "
                f"Received: equation={equation!r}"
            )
    ellipsis_rank = max((len(shape) - len(term) + 3 for term, shape in zip(terms, shapes)
                         if "..." in term), default=0)
    spare = [c for c in string.ascii_letters if c not in equation]
    ellipsis = "".join(spare[:ellipsis_rank])
    subscripts = []
    for term, shape in zip(terms, shapes):
        if "..." in term:
            n = len(shape) - len(term) + 3
            term = term.replace("...", ellipsis[ellipsis_rank - n:] if n else "")
        if len(term) != len(shape):
            raise ValueError(
                f"einsum: operand subscripts {term!r} do not match an operand of rank "
                f"{len(shape)}. Received: equation={equation!r}, shapes={list(shapes)}"
            )
        if len(set(term)) != len(term):
            raise ValueError(
                "einsum: a letter repeated within one operand (diagonal or trace) is not "
                f"supported. Received: equation={equation!r}"
            )
        subscripts.append(term)
    if arrow:
        output = output.replace("...", ellipsis)
    else:  # numpy's implicit mode: broadcast axes, then letters seen once, sorted
        counts = {}
        for c in "".join(subscripts):
            counts[c] = counts.get(c, 0) + 1
        output = ellipsis + "".join(sorted(c for c, n in counts.items()
                                           if n == 1 and c not in ellipsis))
    known = set("".join(subscripts))
    if len(set(output)) != len(output) or not set(output) <= known:
        raise ValueError(
            "einsum: every output letter must appear once, and in some operand. "
            f"Received: equation={equation!r}"
        )
    return subscripts, output


def letter_sizes(subscripts, shapes, equation):
    """`{letter: size}`, broadcasting size-1 axes; `None` where unknown."""
    sizes = {}
    for term, shape in zip(subscripts, shapes):
        for c, d in zip(term, shape):
            previous = sizes.get(c, 1)
            if d is None or d == 1:
                sizes[c] = None if d is None and previous == 1 else previous
            elif previous in (1, None) or previous == d:
                sizes[c] = d
            else:
                raise ValueError(
                    f"einsum: letter {c!r} has sizes {previous} and {d} in different "
                    f"operands. Received: equation={equation!r}, shapes={list(shapes)}"
                )
    return sizes


def _sum_private(x, term, keep):
    """Sums `x` over the letters of `term` that are not in `keep`."""
    axes = tuple(i for i, c in enumerate(term) if c not in keep)
    if not axes:
        return x, term
    return x.sum(axis=axes), "".join(c for c in term if c in keep)


def _stretch(x, shape):
    """`x` broadcast to `shape` (a view), or `x` itself when it already has it."""
    shape = tuple(shape)
    return x if x.shape == shape else np.broadcast_to(x, shape)


def _contract_pair(x, sx, y, sy, out, sizes):
    """`einsum(f"{sx},{sy}->{out}", x, y)` as one `np.matmul`.

    The product comes out as (batch, rows of one operand, columns of the
    other); the operands are ordered so that this matches `out` where it
    can, and the result is made contiguous where it cannot (a transposed
    view would slow down every op that reads it).
    """
    x, sx = _sum_private(x, sx, sy + out)
    y, sy = _sum_private(y, sy, sx + out)
    batch = [c for c in out if c in sx and c in sy]
    summed = [c for c in sx if c in sy and c not in out]
    rows = [c for c in sx if c not in sy]
    cols = [c for c in sy if c not in sx]
    if batch + rows + cols != list(out) and batch + cols + rows == list(out):
        x, sx, y, sy, rows, cols = y, sy, x, sx, cols, rows
    x_order, y_order = batch + rows + summed, batch + summed + cols
    xt = np.transpose(x, [sx.index(c) for c in x_order])
    yt = np.transpose(y, [sy.index(c) for c in y_order])
    xt = _stretch(xt, [sizes[c] for c in x_order])
    yt = _stretch(yt, [sizes[c] for c in y_order])
    b, m, k, n = (math.prod(sizes[c] for c in group) for group in (batch, rows, summed, cols))
    product = np.matmul(xt.reshape(b, m, k), yt.reshape(b, k, n))
    result_order = batch + rows + cols
    product = product.reshape([sizes[c] for c in result_order])
    if result_order == list(out):
        return product
    return np.ascontiguousarray(np.transpose(product, [result_order.index(c) for c in out]))


def contract(operands, subscripts, out, sizes):
    """Einsum of any number of operands onto the letters `out`, pairwise."""
    acc, acc_term = operands[0], subscripts[0]
    for j in range(1, len(operands)):
        later = out + "".join(subscripts[j + 1:])
        term = subscripts[j]
        merged = acc_term + "".join(c for c in term if c not in acc_term)
        keep = "".join(c for c in merged if c in later)
        acc = _contract_pair(acc, acc_term, operands[j], term, keep, sizes)
        acc_term = keep
    acc, acc_term = _sum_private(acc, acc_term, out)
    acc = np.transpose(acc, [acc_term.index(c) for c in out])
    shape = tuple(sizes[c] for c in out)
    return acc if acc.shape == shape else np.broadcast_to(acc, shape)


def result_dtype(dtypes):
    """The floating operands' common dtype; integers join in only without floats.

    So a float32 operand stays float32 next to an int64 one (as in Keras),
    where numpy would promote to float64.
    """
    floats = [d for d in dtypes if np.issubdtype(d, np.inexact)]
    return np.result_type(*(floats or dtypes))


def _einsum_shape(*operands, equation):
    shapes = [rules.shape_of(x) for x in operands]
    subscripts, out = parse_equation(equation, shapes)
    sizes = letter_sizes(subscripts, shapes, equation)
    dtype = result_dtype([np.dtype(rules.dtype_of(x)) for x in operands])
    return SymbolicTensor([sizes[c] for c in out], dtype)


@define("einsum", shape=_einsum_shape, residual=True)
def einsum(*operands, equation):
    """Einstein summation over `operands` as described by `equation`, e.g. `"ab,bc->ac"`."""
    arrays = [np.asarray(x) for x in operands]
    shapes = [a.shape for a in arrays]
    subscripts, out = parse_equation(equation, shapes)
    sizes = letter_sizes(subscripts, shapes, equation)
    dtypes = [a.dtype for a in arrays]
    common = result_dtype(dtypes)
    arrays = [a.astype(common, copy=False) for a in arrays]
    result = contract(arrays, subscripts, out, sizes)
    if not result.flags.writeable:  # a broadcast view: give the caller its own array
        result = result.copy()
    return result, (arrays, dtypes, subscripts, out, sizes)


@einsum.defvjp
def _einsum_vjp(node, g):
    arrays, dtypes, subscripts, out, sizes = node.residual
    grads = []
    for i, (x, term) in enumerate(zip(arrays, subscripts)):
        if node.input_refs[i] is None or not np.issubdtype(dtypes[i], np.inexact):
            grads.append(None)
            continue
        others = [g] + arrays[:i] + arrays[i + 1:]
        other_terms = [out] + subscripts[:i] + subscripts[i + 1:]
        reachable = set("".join(other_terms))
        target = "".join(c for c in term if c in reachable)
        grad = contract(others, other_terms, target, sizes)
        # Letters summed away in the forward pass: every entry got the same gradient.
        grad = np.expand_dims(grad, [k for k, c in enumerate(term) if c not in reachable])
        grad = _stretch(grad, [sizes[c] for c in term])
        # Axes numpy broadcast from size 1 in this operand.
        stretched = tuple(k for k, d in enumerate(x.shape) if d == 1 and sizes[term[k]] != 1)
        if stretched:
            grad = grad.sum(axis=stretched, keepdims=True)
        grad = np.array(grad) if not grad.flags.writeable else grad
        grads.append(float_grad(grad, dtypes[i]))
    return tuple(grads)
