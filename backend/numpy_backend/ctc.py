"""Connectionist temporal classification loss, by the forward-backward algorithm.

A label sequence `l` of length `L` is scored against `T` frames of class
logits by summing the probabilities of every frame-by-frame path that
collapses to `l` (merge repeats, then drop blanks). The sum runs over the
extended sequence `blank, l_1, blank, l_2, ..., l_L, blank` of `S = 2L + 1`
states: a path stays on a state, moves to the next, or skips a blank between
two different labels. Everything is in log space (`logaddexp`), so long
sequences never underflow.

`alpha[b, i, s]` is the log-probability of the first `i` frames ending in
state `s` (`i = 0` is a virtual start on the first blank), so the loss is
`-logaddexp(alpha[T_b, 2L_b], alpha[T_b, 2L_b - 1])`. The backward pass runs
the mirror recursion `beta`; `alpha + beta - log p` are the log posteriors
of being in each state at each frame, and the logits gradient is
`softmax(logits) - posterior mass per class` on the valid frames, 0 after a
sequence's `output_length`. A label sequence no path can produce (too few
frames for its labels and repeats) has loss `inf` and gradient 0.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define


def _ctc_shape(output, target, target_length, output_length, mask_index=0):
    shape = rules.shape_of(output)
    if len(shape) != 3 or len(rules.shape_of(target)) != 2:
        raise ValueError(
            "ctc_loss needs output of shape (batch, time, classes) and target of shape "
            f"(batch, max_label_length). Received: output.shape={shape}, "
            f"target.shape={rules.shape_of(target)}"
        )
    return SymbolicTensor(shape[:1], rules.dtype_of(output))


def _as_int(x):
    return np.asarray(x).astype(np.int64, copy=False)


def _check_inputs(output, target, target_length, output_length, mask_index):
    batch, frames, classes = output.shape
    _, max_labels = target.shape
    received = (f"Received: output.shape={output.shape}, target.shape={target.shape}, "
                f"target_length={target_length.tolist()}, "
                f"output_length={output_length.tolist()}")
    if target.shape[0] != batch or target_length.shape != (batch,) or \
            output_length.shape != (batch,):
        raise ValueError("ctc_loss needs one target row and one length of each kind per "
                         f"sequence. {received}")
    if np.any(target_length < 0) or np.any(target_length > max_labels) or \
            np.any(output_length < 0) or np.any(output_length > frames):
        raise ValueError("ctc_loss needs 0 <= target_length <= target.shape[1] and "
                         f"0 <= output_length <= output.shape[1]. {received}")
    if not 0 <= mask_index < classes:
        raise ValueError(f"ctc_loss needs mask_index in [0, {classes}). "
                         f"Received: mask_index={mask_index}")
    used = np.arange(max_labels) < target_length[:, None]
    labels = target[used]
    if np.any(labels < 0) or np.any(labels >= classes) or np.any(labels == mask_index):
        raise ValueError(
            f"ctc_loss needs labels in [0, {classes}) other than mask_index={mask_index} "
            f"within each target_length. Received: target={target.tolist()}")


def _extended(target, mask_index):
    """The blank-interleaved states, and where a state may be entered by a skip."""
    batch, max_labels = target.shape
    states = np.full((batch, 2 * max_labels + 1), mask_index, dtype=np.int64)
    states[:, 1::2] = target
    can_skip = np.zeros(states.shape, dtype=bool)
    can_skip[:, 3::2] = target[:, 1:] != target[:, :-1]
    return states, can_skip


def _log_probs(output):
    shifted = output - np.max(output, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def _shift(x, by):
    """`x` moved `by` states to the right along the last axis, -inf filled."""
    out = np.full_like(x, -np.inf)
    out[..., by:] = x[..., :-by]
    return out


def _shift_left(x, by):
    """`x` moved `by` states to the left along the last axis, -inf filled."""
    out = np.full_like(x, -np.inf)
    out[..., :-by] = x[..., by:]
    return out


def _forward(emit, can_skip):
    """`alpha` of shape `(batch, frames + 1, states)`; `emit[b, t, s]` = log p(state s at t)."""
    batch, frames, num_states = emit.shape
    alpha = np.full((batch, frames + 1, num_states), -np.inf)
    alpha[:, 0, 0] = 0.0
    for t in range(frames):
        prev = alpha[:, t]
        total = np.logaddexp(prev, _shift(prev, 1))
        total = np.logaddexp(total, np.where(can_skip, _shift(prev, 2), -np.inf))
        alpha[:, t + 1] = total + emit[:, t]
    return alpha


def _backward(emit, can_skip, target_length, output_length):
    """`beta[b, i, s]`: log-probability of frames `i..T_b-1` from state `s` after frame `i`."""
    batch, frames, num_states = emit.shape
    beta = np.full((batch, frames + 1, num_states), -np.inf)
    rows = np.arange(batch)
    ends = np.full((batch, num_states), -np.inf)
    ends[rows, 2 * target_length] = 0.0
    has_label = target_length > 0
    ends[rows[has_label], 2 * target_length[has_label] - 1] = 0.0
    # From state s a path may skip to s + 2 exactly where s + 2 may be entered by a skip.
    skip_from = np.zeros_like(can_skip)
    skip_from[:, :-2] = can_skip[:, 2:]
    beta[rows, output_length] = ends
    for t in range(frames - 1, -1, -1):
        nxt = beta[:, t + 1] + emit[:, t]
        total = np.logaddexp(nxt, _shift_left(nxt, 1))
        total = np.logaddexp(total, np.where(skip_from, _shift_left(nxt, 2), -np.inf))
        inside = (t < output_length)[:, None]
        beta[:, t] = np.where(inside, total, beta[:, t])
    return beta


@define("ctc_loss", shape=_ctc_shape, save_inputs=(1, 2, 3), residual=True)
def ctc_loss(output, target, target_length, output_length, mask_index=0):
    """Per-sequence CTC loss `-log p(target | output)` from logits.

    `output` holds `(batch, time, classes)` unnormalised logits (a log-softmax
    is taken inside), `target` `(batch, max_label_length)` integer labels of
    which the first `target_length[b]` count, and `output_length[b]` is the
    number of valid frames. Computed in float64, returned in `output`'s float
    dtype. Only `output` is differentiable.
    """
    dtype = output.dtype if np.issubdtype(output.dtype, np.floating) else np.float32
    target, target_length = _as_int(target), _as_int(target_length)
    output_length, mask_index = _as_int(output_length), int(mask_index)
    _check_inputs(output, target, target_length, output_length, mask_index)
    log_probs = _log_probs(np.asarray(output, dtype=np.float64))
    states, can_skip = _extended(target, mask_index)
    emit = np.take_along_axis(log_probs, states[:, None, :], axis=-1)
    alpha = _forward(emit, can_skip)
    rows = np.arange(len(target))
    final = alpha[rows, output_length]
    log_p = final[rows, 2 * target_length]
    before_last = np.where(target_length > 0, final[rows, np.maximum(2 * target_length - 1, 0)],
                           -np.inf)
    log_p = np.logaddexp(log_p, before_last)
    return (-log_p).astype(dtype), (log_probs, alpha, log_p)


@ctc_loss.defvjp
def _ctc_loss_vjp(node, g):
    if node.input_refs[0] is None:
        return None, None, None, None
    log_probs, alpha, log_p = node.residual
    target, target_length, output_length = (_as_int(x) for x in node.inputs[1:])
    states, can_skip = _extended(target, int(node.attrs.get("mask_index", 0)))
    emit = np.take_along_axis(log_probs, states[:, None, :], axis=-1)
    beta = _backward(emit, can_skip, target_length, output_length)
    feasible = np.isfinite(log_p)
    log_post = alpha[:, 1:] + beta[:, 1:] - np.where(feasible, log_p, 0.0)[:, None, None]
    posterior = np.exp(log_post)  # (batch, frames, states); 0 after output_length
    classes = log_probs.shape[-1]
    per_class = (states[..., None] == np.arange(classes)).astype(np.float64)
    occupancy = np.matmul(posterior, per_class)  # posterior mass of each class per frame
    frames = log_probs.shape[1]
    valid = (np.arange(frames)[None, :] < output_length[:, None])[..., None]
    grad = np.exp(log_probs) * valid - occupancy
    grad *= (np.asarray(g, dtype=np.float64) * feasible)[:, None, None]
    return grad.astype(node.output_dtypes[0], copy=False), None, None, None
