"""`custom_gradient`: at inference only its forward function counts.

The op holds the user's function `fn` (returning `(output, grad_fn)`); its
inner ops never reach the model's trace, because the backend runs `fn` with
recording off. The translation traces `fn` once more on the op's inputs and
translates the ops its output needs, in place of the op; the gradient
function is never called.
"""

from ..tracing import TracedTensor, trace
from .registry import translate, translates


@translates("custom_gradient")
def _custom_gradient(g, op):
    outer = g.current
    inputs = [TracedTensor(x.shape, x.dtype) if isinstance(x, TracedTensor) else x
              for x in op.inputs]
    inner = trace(lambda xs: op.attrs["fn"](*xs)[0], inputs)
    for mine, given in zip(inputs, op.inputs):
        if isinstance(mine, TracedTensor):
            g.bind(mine, g.value(given))
    (output,) = inner.outputs
    if not isinstance(output, TracedTensor):
        raise g.error(f"a forward function whose output is not computed with hikeras.ops "
                      f"(it returned {type(output).__name__})")
    for inner_op in inner.needed():
        inner_op.layer = inner_op.layer or outer.layer
        translate(g, inner_op)
    g.current = outer
    return g.value(output)
