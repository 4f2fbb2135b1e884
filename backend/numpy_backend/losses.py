"""Fused, numerically stable cross-entropies on logits.

Each op returns the per-sample loss, already reduced over the class axis
(elementwise for the sigmoid form). Fusing softmax with the logarithm both
avoids `log(0)` and makes the backward pass a single expression,
`softmax(logits) * sum(labels) - labels`, which is `p - onehot` for one-hot
labels. Residuals are only read by the VJPs (a persistent tape may run a
VJP twice), never overwritten. Each op also has a traced VJP (gradients of
any order), which recomputes the probabilities from the saved logits.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._grad import unbroadcast
from ._inplace import as_float, scratch
from ._registry import define
from ._traced import constant, ops


def _shifted(x, axis):
    peak = np.max(x, axis=axis, keepdims=True)
    return np.subtract(x, np.where(np.isfinite(peak), peak, 0))


def _class_axis(axis, ndim):
    return rules.normalize_axes(int(axis), ndim)[0]


def _softmax_ce_shape(logits, labels, axis=-1, **_):
    shape = rules.broadcast_shapes(rules.shape_of(logits), rules.shape_of(labels))
    axis = _class_axis(axis, len(shape))
    return SymbolicTensor(shape[:axis] + shape[axis + 1:], rules.result_dtype(logits, labels))


@define("softmax_cross_entropy", shape=_softmax_ce_shape, save_inputs=(0, 1),
        residual=True)
def softmax_cross_entropy(logits, labels, axis=-1):
    """`-sum(labels * log_softmax(logits), axis)` for one-hot or probability labels.

    The residual is `log_softmax(logits)`: the logits gradient needs its
    exponential, the labels gradient the value itself (which, unlike
    `log(softmax)`, never underflows to -inf).
    """
    logits = as_float(logits)
    log_p = _shifted(logits, axis)
    total = np.sum(np.exp(log_p), axis=axis, keepdims=True)
    log_p -= np.log(total, out=scratch(total))
    return -np.sum(labels * log_p, axis=axis), log_p


@softmax_cross_entropy.defvjp
def _softmax_ce_vjp(node, g):
    log_p = node.residual
    logits_shape, labels_shape = node.input_shapes
    shape = np.broadcast_shapes(logits_shape, labels_shape)
    labels = np.broadcast_to(node.inputs[1], shape)
    axis = _class_axis(node.attrs.get("axis", -1), len(shape))
    g = np.expand_dims(g, axis)
    g_logits = g_labels = None
    if node.input_refs[0] is not None:
        g_logits = np.exp(log_p)
        g_logits = g_logits * np.sum(labels, axis=axis, keepdims=True) - labels
        g_logits *= g
        g_logits = unbroadcast(g_logits, logits_shape)
    if node.input_refs[1] is not None:
        g_labels = unbroadcast(-g * log_p, labels_shape)
    return g_logits, g_labels


@softmax_cross_entropy.deftracedvjp
def _softmax_ce_traced_vjp(node, g):
    logits, labels = node.inputs
    logits_shape, labels_shape = node.input_shapes
    rank = len(np.broadcast_shapes(logits_shape, labels_shape))
    # Counted from the end, the class axis is the same in the (broadcast) inputs.
    axis = _class_axis(node.attrs.get("axis", -1), rank) - rank
    g = ops.expand_dims(g, axis=axis)
    g_logits = g_labels = None
    if node.input_refs[0] is not None:
        p = ops.softmax(logits, axis=axis)
        g_logits = unbroadcast((p * ops.sum(labels, axis=axis, keepdims=True) - labels) * g,
                               logits_shape)
    if node.input_refs[1] is not None:
        g_labels = unbroadcast(-g * ops.log_softmax(logits, axis=axis), labels_shape)
    return g_logits, g_labels


def _sparse_ce_shape(logits, labels, **_):
    logits_shape, labels_shape = rules.shape_of(logits), rules.shape_of(labels)
    if len(labels_shape) != len(logits_shape) - 1:
        raise ValueError(
            "sparse_softmax_cross_entropy needs integer labels of shape logits.shape[:-1]. "
            f"Received: logits.shape={logits_shape}, labels.shape={labels_shape}"
        )
    shape = rules.broadcast_shapes(logits_shape[:-1], labels_shape)
    return SymbolicTensor(shape, rules.dtype_of(logits))


def _as_class_indices(labels):
    labels = np.asarray(labels)
    return labels if np.issubdtype(labels.dtype, np.integer) else labels.astype(np.int64)


@define("sparse_softmax_cross_entropy", shape=_sparse_ce_shape, save_inputs=(0, 1),
        residual=True)
def sparse_softmax_cross_entropy(logits, labels):
    """`-log_softmax(logits)[..., labels]`: classes on the last axis, integer labels.

    `labels` has the shape `logits.shape[:-1]` and gets no gradient. The
    residual is `softmax(logits)`.
    """
    logits = as_float(logits)
    labels = _as_class_indices(labels)
    if labels.shape != logits.shape[:-1]:
        raise ValueError(
            "sparse_softmax_cross_entropy needs integer labels of shape logits.shape[:-1]. "
            f"Received: logits.shape={logits.shape}, labels.shape={labels.shape}"
        )
    shifted = _shifted(logits, -1)
    picked = np.take_along_axis(shifted, labels[..., None], axis=-1)[..., 0]
    p = np.exp(shifted, out=shifted)
    total = np.sum(p, axis=-1, keepdims=True)
    p /= total
    loss = np.log(total[..., 0])
    loss -= picked
    return loss, p


@sparse_softmax_cross_entropy.defvjp
def _sparse_ce_vjp(node, g):
    if node.input_refs[0] is None:
        return None, None
    p = node.residual
    labels = _as_class_indices(node.inputs[1])
    g = np.asarray(g)
    grad = p * g[..., None]
    rows = grad.reshape(-1, p.shape[-1])  # a view: grad is freshly allocated
    rows[np.arange(rows.shape[0]), labels.reshape(-1)] -= g.reshape(-1)
    return grad, None


@sparse_softmax_cross_entropy.deftracedvjp
def _sparse_ce_traced_vjp(node, g):
    if node.input_refs[0] is None:
        return None, None
    logits = node.inputs[0]
    labels = _as_class_indices(constant(node.inputs[1]))
    onehot = np.equal(labels[..., None], np.arange(logits.shape[-1]))
    p = ops.softmax(logits, axis=-1)
    return (p - onehot) * ops.expand_dims(g, axis=-1), None


@define("sigmoid_cross_entropy", shape=rules.elementwise_float, save_inputs=(0, 1),
        residual=True)
def sigmoid_cross_entropy(logits, labels):
    """Elementwise `-z log(sigmoid(x)) - (1 - z) log(1 - sigmoid(x))`.

    Evaluated as `max(x, 0) - x z + log1p(exp(-|x|))`, which never
    overflows; the residual is `sigmoid(x)`.
    """
    logits = as_float(logits)
    e = np.abs(logits)
    e = np.negative(e, out=scratch(e))
    e = np.exp(e, out=scratch(e))  # exp(-|x|) serves the loss and the sigmoid
    loss = np.maximum(logits, 0) - logits * labels
    loss += np.log1p(e)
    e += 1.0
    sig = np.minimum(logits, 0.0)  # sigmoid = exp(min(x, 0)) / (1 + exp(-|x|))
    sig = np.exp(sig, out=scratch(sig))
    sig /= e
    return loss, sig


def _sigmoid_ce_grads(node, g, probabilities):
    logits, labels = node.inputs
    logits_shape, labels_shape = node.input_shapes
    g_logits = g_labels = None
    if node.input_refs[0] is not None:
        g_logits = unbroadcast(g * (probabilities - labels), logits_shape)
    if node.input_refs[1] is not None:
        g_labels = unbroadcast(-g * logits, labels_shape)
    return g_logits, g_labels


@sigmoid_cross_entropy.defvjp
def _sigmoid_ce_vjp(node, g):
    return _sigmoid_ce_grads(node, g, node.residual)


@sigmoid_cross_entropy.deftracedvjp
def _sigmoid_ce_traced_vjp(node, g):
    # The residual sigmoid is a constant; recomputed, it is a function of the logits.
    return _sigmoid_ce_grads(node, g, ops.sigmoid(node.inputs[0]))
