"""`custom_gradient`: a user function that supplies its own gradient.

The attribute `fn` is the user's function: called on the inputs it returns
`(output, grad_fn)`. The forward runs it with recording off (its inner ops
are not part of the graph: the custom gradient replaces them) and keeps
`grad_fn` as the residual; the VJP calls `grad_fn(upstream)`, which returns
one gradient per input.
"""

import numpy as np

from ..dispatch import recording_on
from ..tensor import SymbolicTensor, Tensor
from ._registry import define


def _values(x):
    return x.value if isinstance(x, Tensor) else x


def _custom_gradient_shape(*specs, fn):
    output, _ = fn(*specs)
    if not isinstance(output, SymbolicTensor):
        output = SymbolicTensor(np.shape(output), np.asarray(output).dtype)
    return output


@define("custom_gradient", shape=_custom_gradient_shape, residual=True)
def custom_gradient(*xs, fn):
    with recording_on(()):
        output, grad_fn = fn(*xs)
    return np.asarray(_values(output)), grad_fn


@custom_gradient.defvjp
def _custom_gradient_vjp(node, g):
    grads = node.residual(g)
    grads = grads if isinstance(grads, (list, tuple)) else (grads,)
    if len(grads) != len(node.input_refs):
        raise ValueError(
            f"custom_gradient: the gradient function returned {len(grads)} gradients for "
            f"{len(node.input_refs)} inputs. Received: {len(grads)} gradients")
    out = []
    for grad, shape in zip(grads, node.input_shapes):
        if grad is None:
            out.append(None)
            continue
        grad = np.asarray(_values(grad))
        if grad.dtype != g.dtype and np.issubdtype(grad.dtype, np.inexact):
            grad = grad.astype(g.dtype)  # the inputs' float type, as the output's
        out.append(np.array(np.broadcast_to(grad, shape)))
    return tuple(out)
