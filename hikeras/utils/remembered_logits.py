"""The logits a softmax or sigmoid output was computed from, for the crossentropies.

Keras 3 (on TensorFlow, the reference) attaches to the output of
`activations.softmax`/`sigmoid` the logits it came from, and its crossentropy
losses, given such an output, compute from the logits instead of clipping the
probabilities at `epsilon`: for very confident predictions the two differ
(clipping caps each term at `-log(1e-7)` and cuts the gradient). hikeras does
the same, in both training and inference. Arrays cannot take attributes, so
the logits are kept here, keyed by the output's `id` and dropped when the
output is garbage collected (the weak reference guards against a reused id).
"""

import weakref

import numpy as np

_LOGITS = {}


def remember_logits(output, logits, kind, axis=-1):
    """Records that `output = kind(logits)` (`kind`: "softmax" or "sigmoid")."""
    key = id(output)
    try:
        ref = weakref.ref(output, lambda _, key=key: _LOGITS.pop(key, None))
    except TypeError:  # a Python scalar or another object without weak references
        return
    _LOGITS[key] = (ref, logits, kind, axis)


def remembered_logits(output, kind, axis=-1):
    """The logits `output` was computed from by `kind` along `axis`, else None."""
    entry = _LOGITS.get(id(output))
    if entry is None or entry[0]() is not output or entry[2] != kind:
        return None
    rank = len(getattr(output, "shape", ()))
    if rank and entry[3] % rank != axis % rank:
        return None
    return entry[1]


def as_array_keeping_logits(output):
    """`np.asarray(output)`, still known to come from its logits (for metrics, which
    take numpy predictions: a crossentropy metric then agrees with the loss)."""
    array = np.asarray(output)
    entry = _LOGITS.get(id(output))
    if array is not output and entry is not None and entry[0]() is output:
        remember_logits(array, np.asarray(entry[1]), entry[2], entry[3])
    return array
