"""The fused recurrent ops as ONNX's `LSTM`, `GRU` and `RNN` nodes.

Keras orders the LSTM's gates `i, f, c, o` in its kernels, ONNX `i, o, f, c`;
both order the GRU's `z, r, h`. Kernels are transposed to ONNX's `(gates *
units, inputs)` and the biases laid out as ONNX's `[input bias; recurrent
bias]` (Keras's `reset_after=True` GRU is ONNX's `linear_before_reset=1`).
`go_backwards` reverses the sequence before a forward pass, which also gives
hikeras's output order (the order of processing).

Masks: a masked step keeps the states and outputs the previous output (zeros
before the first unmasked step, or zeros with `zero_output_for_mask`). ONNX's
recurrent nodes have no per-step mask, so a masked sequence runs as an ONNX
`Scan` over time whose body is a single-step recurrent node, with `Where`
keeping the states of masked steps; the time axis stays dynamic.
"""

import numpy as np

from ...backend import SymbolicTensor
from ..tracing import TracedTensor
from .registry import translates

# Keras activation -> (ONNX recurrent activation, its alpha and beta or None).
_ACTIVATIONS = {"tanh": ("Tanh", None), "sigmoid": ("Sigmoid", None), "relu": ("Relu", None),
                "hard_sigmoid": ("HardSigmoid", (1.0 / 6.0, 0.5)),  # Keras 3: relu6(x + 3) / 6
                "linear": ("Affine", (1.0, 0.0))}
_END = np.iinfo(np.int64).max


def _array(x):
    return None if x is None else np.asarray(getattr(x, "value", x))


def _blocks(a, order):
    """`a`'s last axis cut into `len(order)` equal blocks, reordered."""
    n = len(order)
    parts = np.split(a, n, axis=-1)
    return np.concatenate([parts[i] for i in order], axis=-1)


class _Cell:
    """What the three ops share: the ONNX node type, weights and attributes."""

    def __init__(self, g, op, kind, num_states):
        self.g, self.op, self.kind, self.num_states = g, op, kind, num_states
        self.dtype = op.outputs[0].dtype
        x, *rest = op.inputs
        self.states = rest[:num_states]
        kernel, recurrent, bias, mask, recurrent_mask = rest[num_states:num_states + 5]
        if recurrent_mask is not None:
            raise g.error("a recurrent dropout mask (a training-time input)")
        if not isinstance(kernel, np.ndarray) and not hasattr(kernel, "value"):
            raise g.error("recurrent weights computed from the inputs")
        self.x, self.mask = x, mask
        self.units = _array(recurrent).shape[0]
        self.weights = self._weights(_array(kernel), _array(recurrent), _array(bias))
        attrs = op.attrs
        names = [attrs.get("activation", "tanh")]
        if kind != "RNN":
            names = [attrs.get("recurrent_activation", "sigmoid")] + names
        if kind == "LSTM":
            names.append(attrs.get("activation", "tanh"))
        unknown = [n for n in names if n not in _ACTIVATIONS]
        if unknown:
            raise g.error(f"the recurrent activation(s) {unknown}, which ONNX's {kind} lacks")
        # ONNX reads alphas and betas in order, for the activations that take them.
        params = [_ACTIVATIONS[n][1] for n in names if _ACTIVATIONS[n][1] is not None]
        self.attributes = {"hidden_size": int(self.units),
                           "activations": [_ACTIVATIONS[n][0] for n in names],
                           "activation_alpha": [p[0] for p in params] or None,
                           "activation_beta": [p[1] for p in params] or None}
        if kind == "GRU":
            self.attributes["linear_before_reset"] = int(attrs.get("reset_after", True))

    def _weights(self, kernel, recurrent, bias):
        units, kind = self.units, self.kind
        gates = {"LSTM": 4, "GRU": 3, "RNN": 1}[kind]
        if bias is None:
            bias = np.zeros(gates * units, kernel.dtype)
        if kind == "GRU" and bias.ndim == 2:  # reset_after: (input bias, recurrent bias)
            b_in, b_rec = bias[0], bias[1]
        else:
            b_in, b_rec = bias, np.zeros_like(bias)
        if kind == "LSTM":
            order = (0, 3, 1, 2)  # Keras i, f, c, o -> ONNX i, o, f, c
            kernel, recurrent = _blocks(kernel, order), _blocks(recurrent, order)
            b_in, b_rec = _blocks(b_in, order), _blocks(b_rec, order)
        g = self.g
        return [g.constant(kernel.T[None], self.dtype, hint=f"{self.op.name}/W"),
                g.constant(recurrent.T[None], self.dtype, hint=f"{self.op.name}/R"),
                g.constant(np.concatenate([b_in, b_rec])[None], self.dtype,
                           hint=f"{self.op.name}/B")]

    def initial_state(self, state):
        """ONNX's `(1, B, H)` initial state, or "" for zeros (an untraced placeholder)."""
        if isinstance(state, TracedTensor):
            return self.g.node("Unsqueeze", [self.g.value(state, self.dtype),
                                             self.g.ints([0], "axes")])
        if isinstance(state, SymbolicTensor):
            return ""  # the layer's own zero state, made while tracing symbolically
        return self.g.constant(np.asarray(getattr(state, "value", state))[None], self.dtype)

    def run(self, xs, states):
        """One ONNX node over time-major `xs`; returns `(Y, final states)`."""
        inputs = [xs] + self.weights + ["", *states]
        outs = self.g.node(self.kind, inputs, outputs=1 + self.num_states, **self.attributes)
        return outs[0], outs[1:]


def _reverse_time(g, xs, axis):
    return g.node("Slice", [xs, g.ints([-1]), g.ints([-_END]), g.ints([axis]), g.ints([-1])])


def _translate(g, op, kind, num_states):
    cell = _Cell(g, op, kind, num_states)
    attrs = op.attrs
    xs = g.node("Transpose", [g.value(cell.x, cell.dtype)], perm=[1, 0, 2])  # (T, B, D)
    if attrs.get("go_backwards", False):
        xs = _reverse_time(g, xs, 0)
    states = [cell.initial_state(s) for s in cell.states]
    if cell.mask is None:
        y, finals = cell.run(xs, states)
        if attrs.get("return_sequences", True):
            out = g.node("Transpose", [g.node("Squeeze", [y, g.ints([1], "axes")])],
                         perm=[1, 0, 2])
        else:
            out = g.node("Squeeze", [finals[0], g.ints([0], "axes")])
    else:
        out, finals = _masked(g, op, cell, xs, states)
    return (out, *(g.node("Squeeze", [s, g.ints([0], "axes")]) for s in finals))


def _masked(g, op, cell, xs, states):
    """The masked recurrence as an ONNX `Scan` over time of a one-step recurrent node.

    The scan carries the states and whether an unmasked step has been seen (the
    output before it is zeros); each step's output is its carried `h` where seen.
    """
    attrs = op.attrs
    mask = g.node("Transpose", [g.value(cell.mask, np.bool_)], perm=[1, 0])  # (T, B)
    if attrs.get("go_backwards", False):
        mask = _reverse_time(g, mask, 0)
    mask = g.node("Unsqueeze", [mask, g.ints([2], "axes")])  # (T, B, 1)
    batch = g.node("Slice", [g.node("Shape", [xs]), g.ints([1]), g.ints([2]), g.ints([0])])
    state_shape = g.node("Concat", [g.ints([1]), batch, g.ints([cell.units])], axis=0)
    zeros = g.node("ConstantOfShape", [state_shape],
                   value=g.onnx.numpy_helper.from_array(np.zeros(1, cell.dtype)))
    unseen = g.node("ConstantOfShape", [g.node("Concat", [g.ints([1]), batch, g.ints([1])],
                                               axis=0)],
                    value=g.onnx.numpy_helper.from_array(np.zeros(1, np.bool_)))
    states = [s or zeros for s in states]
    body = _step_body(g, cell, zero_output=attrs.get("zero_output_for_mask", False))
    outs = g.node("Scan", [*states, unseen, xs, mask], outputs=len(states) + 2, body=body,
                  num_scan_inputs=2)
    finals, seen, sequence = outs[:len(states)], outs[len(states)], outs[-1]
    if attrs.get("return_sequences", True):
        out = g.node("Transpose", [g.node("Squeeze", [sequence, g.ints([1], "axes")])],
                     perm=[1, 0, 2])
    else:
        last = g.node("Where", [seen, finals[0], g.scalar(0, cell.dtype)])
        out = g.node("Squeeze", [last, g.ints([0], "axes")])
    return out, finals


def _step_body(g, cell, zero_output):
    """The `Scan` body: `(states..., seen, x_t, m_t) -> (states..., seen, output_t)`."""
    helper = g.onnx.helper
    elem = helper.np_dtype_to_tensor_dtype(np.dtype(cell.dtype))
    boolean = helper.np_dtype_to_tensor_dtype(np.dtype(np.bool_))
    states = [g.fresh("step/state") for _ in range(cell.num_states)]
    seen, x_t, m_t = g.fresh("step/seen"), g.fresh("step/x"), g.fresh("step/mask")
    inputs = [helper.make_tensor_value_info(n, elem, [1, "batch", cell.units]) for n in states]
    inputs += [helper.make_tensor_value_info(seen, boolean, [1, "batch", 1]),
               helper.make_tensor_value_info(x_t, elem, ["batch", cell.x.shape[-1]]),
               helper.make_tensor_value_info(m_t, boolean, ["batch", 1])]
    outer, g.nodes = g.nodes, []  # the body's nodes; constants stay in the outer graph
    try:
        keep = g.node("Unsqueeze", [m_t, g.ints([0], "axes")])  # (1, B, 1)
        _, new = cell.run(g.node("Unsqueeze", [x_t, g.ints([0], "axes")]), states)
        new = [g.node("Where", [keep, n, s]) for n, s in zip(new, states)]
        now_seen = keep if zero_output else g.node("Or", [seen, keep])
        output = g.node("Where", [now_seen, new[0], g.scalar(0, cell.dtype)])
        nodes = g.nodes
    finally:
        g.nodes = outer
    outputs = [*new, now_seen, output]
    shapes = [[1, "batch", cell.units]] * cell.num_states + [[1, "batch", 1],
                                                             [1, "batch", cell.units]]
    types = [elem] * cell.num_states + [boolean, elem]
    values = [helper.make_tensor_value_info(n, t, s) for n, t, s in zip(outputs, types, shapes)]
    return helper.make_graph(nodes, g.fresh("step"), inputs, values)


@translates("lstm_sequence")
def _lstm(g, op):
    return _translate(g, op, "LSTM", 2)


@translates("gru_sequence")
def _gru(g, op):
    return _translate(g, op, "GRU", 1)


@translates("simple_rnn_sequence")
def _simple_rnn(g, op):
    return _translate(g, op, "RNN", 1)
