"""`EinsumDense`: a dense layer whose product is any einsum equation."""

import re

from ... import activations, ops
from ..layer import Layer
from ..lora import LoraMixin, lora_adapted
from ..weight_options import parse_weight_options, serialize_weight_options

_SPEC = r"[a-zA-Z]+"
_FORMS = (  # (pattern, where the equation elides axes with "...")
    (re.compile(rf"({_SPEC}),({_SPEC})->({_SPEC})$"), None),
    (re.compile(rf"\.\.\.({_SPEC}),({_SPEC})->\.\.\.({_SPEC})$"), "left"),
    (re.compile(r"([a-zA-Z]{2,})\.\.\.,([a-zA-Z]+)->([a-zA-Z]{2,})\.\.\.$"), "right"),
)


def analyze_equation(equation, bias_axes, input_shape, output_shape):
    """Kernel shape, bias shape (or None) and full output shape of an EinsumDense.

    Args:
        equation: `"<input>,<kernel>-><output>"`, optionally with `...` at
            the start or end of the input and output.
        bias_axes: output letters the bias spans, or None.
        input_shape: the input's shape, batch axis included.
        output_shape: the output's shape without the batch axis (`None` for
            axes taken from the input).
    """
    for pattern, elided_side in _FORMS:
        match = pattern.match(equation.replace(" ", ""))
        if match:
            break
    else:
        raise ValueError(
            "EinsumDense: the equation must have the form 'ab,bc->ac', '...b,bc->...c' or "
            f"'ab...,bc->ac...'. Received: equation={equation!r}"
        )
    input_spec, kernel_spec, output_spec = match.groups()
    input_shape = list(input_shape)
    elided = len(input_shape) - len(input_spec)
    if elided < 0 or (elided and elided_side is None):
        raise ValueError(
            f"EinsumDense: the equation {equation!r} expects inputs of rank "
            f"{len(input_spec)}. Received: input_shape={tuple(input_shape)}"
        )
    full_output = [input_shape[0]] + list(output_shape)
    if elided_side == "left":
        full_output[1:1] = input_shape[1:elided]
        input_axis = {c: elided + i for i, c in enumerate(input_spec)}
        output_axis = {c: elided + i for i, c in enumerate(output_spec)}
    else:
        full_output += input_shape[len(input_spec):]
        input_axis = {c: i for i, c in enumerate(input_spec)}
        output_axis = {c: i for i, c in enumerate(output_spec)}
    if max(output_axis.values(), default=-1) >= len(full_output):
        raise ValueError(
            f"EinsumDense: output_shape {tuple(output_shape)} has too few axes for the output "
            f"'{output_spec}' of equation {equation!r}. Received: output_shape={output_shape}"
        )
    for c, axis in output_axis.items():
        if c in input_axis:
            size = input_shape[input_axis[c]]
            if full_output[axis] is not None and size is not None and full_output[axis] != size:
                raise ValueError(
                    f"EinsumDense: output axis '{c}' has size {full_output[axis]} in "
                    f"output_shape but {size} in the input. Received: "
                    f"input_shape={tuple(input_shape)}, output_shape={output_shape}"
                )
            full_output[axis] = size
        elif c not in kernel_spec:
            raise ValueError(
                f"EinsumDense: output letter '{c}' appears in neither the input nor the "
                f"kernel of the equation. Received: equation={equation!r}"
            )
    kernel_shape = []
    for c in kernel_spec:
        size = (input_shape[input_axis[c]] if c in input_axis
                else full_output[output_axis[c]] if c in output_axis else None)
        if size is None:
            raise ValueError(
                f"EinsumDense: the size of kernel axis '{c}' is not known from the input or "
                f"output_shape. Received: equation={equation!r}, "
                f"input_shape={tuple(input_shape)}, output_shape={output_shape}"
            )
        kernel_shape.append(size)
    bias_shape = None
    if bias_axes:
        unknown = [c for c in bias_axes if c not in output_spec]
        if unknown:
            raise ValueError(
                f"EinsumDense: bias axes {unknown} are not in the output '{output_spec}'. "
                f"Received: bias_axes={bias_axes!r}"
            )
        first = min(output_spec.index(c) for c in bias_axes)
        bias_shape = [full_output[output_axis[c]] if c in bias_axes else 1
                      for c in output_spec[first:]]
        if elided_side == "right":
            bias_shape += [1] * elided
    return tuple(kernel_shape), None if bias_shape is None else tuple(bias_shape), \
        tuple(full_output)


class EinsumDense(LoraMixin, Layer):
    """A dense layer computing `activation(einsum(equation, inputs, kernel) + bias)`.

    The kernel's shape follows from the equation, the input shape and
    `output_shape`. `MultiHeadAttention` projects its inputs with these.

    Args:
        equation: e.g. `"abc,cde->abde"` (project the last axis to two axes);
            `...` may stand for leading (`"...b,bc->...c"`) or trailing axes.
        output_shape: the output's shape without the batch axis; `None` for
            axes that come from the input. An int means a 1-tuple.
        activation: activation name or callable (default linear).
        bias_axes: output letters the bias spans (e.g. `"de"`), or None for
            no bias.
        kernel_initializer, bias_initializer, kernel_regularizer,
        bias_regularizer, activity_regularizer, kernel_constraint,
        bias_constraint, lora_rank, lora_alpha: as for `Dense`.

    >>> import numpy as np
    >>> layer = EinsumDense("abc,cde->abde", output_shape=(None, 4, 8), bias_axes="de")
    >>> layer(np.ones((2, 5, 16), "float32")).shape
    (2, 5, 4, 8)
    >>> [w.shape for w in layer.weights]
    [(16, 4, 8), (4, 8)]
    """

    def __init__(self, equation, output_shape, activation=None, bias_axes=None,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None, lora_alpha=None,
                 **kwargs):
        super().__init__(**kwargs)
        self._init_lora(lora_rank, lora_alpha)
        if not isinstance(equation, str):
            raise TypeError(f"EinsumDense: equation must be a string. Received: "
                            f"equation={equation!r}")
        self.equation = equation
        if isinstance(output_shape, int):
            output_shape = (output_shape,)
        self.partial_output_shape = tuple(None if d is None else int(d) for d in output_shape)
        self.bias_axes = bias_axes
        self.activation = activations.get(activation)
        parse_weight_options(self, ("kernel", "bias"), locals())

    kernel = lora_adapted("kernel")

    def build(self, input_shape):
        kernel_shape, bias_shape, self.full_output_shape = analyze_equation(
            self.equation, self.bias_axes, input_shape, self.partial_output_shape)
        self.kernel = self.add_weight(
            shape=kernel_shape, initializer=self.kernel_initializer, name="kernel",
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if bias_shape is not None:
            self.bias = self.add_weight(
                shape=bias_shape, initializer=self.bias_initializer, name="bias",
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self._build_lora()

    def call(self, inputs):
        outputs = ops.einsum(self.equation, inputs, self.kernel)
        if self.bias is not None:
            outputs = ops.add(outputs, self.bias)
        return self.activation(outputs)

    def get_config(self):
        config = super().get_config()
        config.update({
            "output_shape": self.partial_output_shape,
            "equation": self.equation,
            "activation": activations.serialize(self.activation),
            "bias_axes": self.bias_axes,
            **serialize_weight_options(self),
            **self._lora_config(),
        })
        return config


__all__ = ["EinsumDense"]
