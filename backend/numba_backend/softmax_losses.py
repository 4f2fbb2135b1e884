"""`softmax_cross_entropy` and `sparse_softmax_cross_entropy` in one pass per row.

numpy's kernels make a whole-array pass per step (maximum, shift, `exp`,
sum, `log`, divide, pick), each a row-wise reduction that is slow for few
classes; here each row is finished while it is in cache: its maximum, the
exponentials (`_vector_math`, vectorised) and their sum, then the outputs.
Rows go to threads; a row's reductions stay on one thread, so the result
does not depend on the thread count. The residuals are the numpy kernels'
(`log_softmax` for the dense form, `softmax` for the sparse one), so either
backend's VJP can follow either forward.

Classes on the last axis, float32/float64, labels of the logits' shape and
dtype (dense) or integer class indices in range (sparse); anything else
goes to the numpy kernels, which also report the errors.
"""

import math

import numpy as np

from ._jit import prange
from ._registry import override, override_vjp
from ._rows import as_rows, compiled, exp_shifted, pick, row_dot, row_sum
from ._vector_math import exp


def _sparse_forward(logits, labels, loss, p):
    for i in prange(logits.shape[0]):
        x, q = logits[i], p[i]
        peak = exp_shifted(x, q)
        total = row_sum(q)
        for j in range(q.shape[0]):
            q[j] /= total
        loss[i] = math.log(total) - (x[labels[i]] - peak)


def _sparse_backward(p, labels, g, grad):
    for i in prange(p.shape[0]):
        scale, q, out = g[i], p[i], grad[i]
        for j in range(q.shape[0]):
            out[j] = q[j] * scale
        out[labels[i]] -= scale


def _dense_forward(logits, labels, loss, log_p):
    for i in prange(logits.shape[0]):
        x, lp = logits[i], log_p[i]
        peak = exp_shifted(x, lp)
        log_total = math.log(row_sum(lp))
        for j in range(x.shape[0]):
            lp[j] = (x[j] - peak) - log_total
        loss[i] = -row_dot(labels[i], lp)


def _dense_backward(log_p, labels, g, grad):
    for i in prange(log_p.shape[0]):
        lp, z, out = log_p[i], labels[i], grad[i]
        mass, scale = row_sum(z), g[i]
        for j in range(lp.shape[0]):
            out[j] = (exp(lp[j]) * mass - z[j]) * scale


_SPARSE_FORWARD = compiled(_sparse_forward, fastmath={"contract"})
_SPARSE_BACKWARD = compiled(_sparse_backward)
_DENSE_FORWARD = compiled(_dense_forward, fastmath={"contract"})
_DENSE_BACKWARD = compiled(_dense_backward, fastmath={"contract"})


def _class_indices(labels, rows):
    """`labels` as a flat int64 array when they are integers in `[0, classes)`, else None."""
    labels = np.asarray(labels)
    if labels.dtype.kind not in "iu" or labels.size != rows.shape[0]:
        return None
    flat = np.ascontiguousarray(labels.reshape(-1), np.int64)
    if flat.size and (flat.min() < 0 or flat.max() >= rows.shape[1]):
        return None
    return flat


@override("sparse_softmax_cross_entropy")
def sparse_softmax_cross_entropy(logits, labels):
    """`-log_softmax(logits)[..., labels]`, and `softmax(logits)` as the residual, per row."""
    rows = as_rows(logits)
    if rows is None or np.shape(labels) != logits.shape[:-1]:
        return NotImplemented
    flat = _class_indices(labels, rows)
    if flat is None:
        return NotImplemented
    loss = np.empty(rows.shape[0], rows.dtype)
    p = np.empty_like(rows)
    pick(_SPARSE_FORWARD, rows.size)(rows, flat, loss, p)
    return loss.reshape(logits.shape[:-1]), p.reshape(logits.shape)


@override_vjp("sparse_softmax_cross_entropy")
def _sparse_softmax_cross_entropy_vjp(node, g):
    if node.input_refs[0] is None:
        return None, None
    p = as_rows(node.residual)
    g = np.asarray(g)
    if p is None or g.dtype != p.dtype:
        return NotImplemented
    flat = _class_indices(node.inputs[1], p)
    if flat is None:
        return NotImplemented
    grad = np.empty_like(p)
    pick(_SPARSE_BACKWARD, p.size)(p, flat, np.ascontiguousarray(g).reshape(-1), grad)
    return grad.reshape(node.residual.shape), None


def _last_axis(axis, ndim):
    return int(axis) in (-1, ndim - 1)


@override("softmax_cross_entropy")
def softmax_cross_entropy(logits, labels, axis=-1):
    """`-sum(labels * log_softmax(logits), axis)`, and `log_softmax` as the residual, per row."""
    rows = as_rows(logits)
    if (rows is None or not isinstance(labels, np.ndarray) or labels.dtype != rows.dtype
            or labels.shape != logits.shape or not _last_axis(axis, logits.ndim)):
        return NotImplemented
    loss = np.empty(rows.shape[0], rows.dtype)
    log_p = np.empty_like(rows)
    pick(_DENSE_FORWARD, rows.size)(rows, as_rows(labels), loss, log_p)
    return loss.reshape(logits.shape[:-1]), log_p.reshape(logits.shape)


@override_vjp("softmax_cross_entropy")
def _softmax_cross_entropy_vjp(node, g):
    log_p, labels = node.residual, node.inputs[1]
    g = np.asarray(g)
    if (not isinstance(labels, np.ndarray) or labels.shape != log_p.shape
            or labels.dtype != log_p.dtype or g.dtype != log_p.dtype
            or not _last_axis(node.attrs.get("axis", -1), log_p.ndim)):
        return NotImplemented
    g_logits = g_labels = None
    if node.input_refs[0] is not None:
        rows = as_rows(log_p)
        g_logits = np.empty_like(rows)
        pick(_DENSE_BACKWARD, rows.size)(rows, as_rows(labels),
                                         np.ascontiguousarray(g).reshape(-1), g_logits)
        g_logits = g_logits.reshape(log_p.shape)
    if node.input_refs[1] is not None:
        g_labels = -np.expand_dims(g, -1) * log_p
    return g_logits, g_labels
