"""Decoding CTC outputs into label sequences: greedy and prefix beam search.

Both take logits `(batch, max_time, num_classes)` and the number of valid
frames per sequence, and return `(decoded, scores)`: `decoded` is
`(top_paths, batch, max_time)` int32 label sequences padded with -1, and
`scores` is `(batch, top_paths)`. As in TensorFlow, the greedy score is the
negated sum of each frame's largest logit, and the beam search's is the log
probability of the labelling, summed over all its alignments (the logits
are normalised with a log-softmax first). Neither has a gradient.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define


def _decode_shape(logits, lengths, top_paths=1, **_):
    shape = rules.shape_of(logits)
    if len(shape) != 3:
        raise ValueError(
            "ctc_decode needs logits of shape (batch, max_time, num_classes). "
            f"Received: inputs.shape={shape}")
    dtype = rules.dtype_of(logits)
    dtype = dtype if np.issubdtype(dtype, np.floating) and dtype.itemsize >= 4 else np.dtype(
        "float32")
    return (SymbolicTensor((top_paths, shape[0], shape[1]), "int32"),
            SymbolicTensor((shape[0], top_paths), dtype))


def _score_dtype(logits):
    return _decode_shape(SymbolicTensor(np.shape(logits), np.asarray(logits).dtype), None)[1].dtype


@define("ctc_greedy_decode", shape=_decode_shape, num_outputs=2, differentiable=False)
def ctc_greedy_decode(logits, lengths, top_paths=1, merge_repeated=True, blank=0):
    """The most likely class of each frame, repeats merged, blanks removed."""
    logits = np.asarray(logits)
    batch, steps, _ = logits.shape
    best = np.argmax(logits, axis=-1)
    decoded = np.full((1, batch, steps), -1, np.int32)
    scores = np.zeros((batch, 1), _score_dtype(logits))
    for b in range(batch):
        n = int(lengths[b])
        labels, previous = [], None
        for c in best[b, :n]:
            if c != blank and not (merge_repeated and c == previous):
                labels.append(c)
            previous = c
        decoded[0, b, :len(labels)] = labels
        scores[b, 0] = -np.sum(np.max(logits[b, :n], axis=-1))
    return decoded, scores


def _log_softmax(x):
    x = x - np.max(x, axis=-1, keepdims=True)
    return x - np.log(np.sum(np.exp(x), axis=-1, keepdims=True))


def _accumulator(grown):
    """`add(prefix, blank_part, label_part)`: log-sums the parts into `grown[prefix]`."""

    def add(prefix, blank_part, label_part):
        old_b, old_l = grown.get(prefix, (-np.inf, -np.inf))
        grown[prefix] = (np.logaddexp(old_b, blank_part), np.logaddexp(old_l, label_part))

    return add


def _beam_search(log_probs, blank, beam_width):
    """`[(labelling, log probability)]`, best first, by prefix beam search."""
    # Each prefix keeps the log probability of its alignments ending in a
    # blank and ending in its last label, so that a repeated label is merged
    # only when no blank separates the two.
    beams = {(): (0.0, -np.inf)}
    for frame in log_probs:
        grown = {}
        add = _accumulator(grown)
        for prefix, (p_blank, p_label) in beams.items():
            total = np.logaddexp(p_blank, p_label)
            add(prefix, total + frame[blank], -np.inf)
            for c in range(frame.shape[0]):
                if c == blank:
                    continue
                if prefix and prefix[-1] == c:
                    add(prefix, -np.inf, p_label + frame[c])  # the label continues
                    add(prefix + (c,), -np.inf, p_blank + frame[c])  # a new, repeated label
                else:
                    add(prefix + (c,), -np.inf, total + frame[c])
        ranked = sorted(grown.items(), key=lambda item: -np.logaddexp(*item[1]))
        beams = dict(ranked[:beam_width])
    ranked = sorted(beams.items(), key=lambda item: -np.logaddexp(*item[1]))
    return [(prefix, float(np.logaddexp(*parts))) for prefix, parts in ranked]


@define("ctc_beam_search_decode", shape=_decode_shape, num_outputs=2, differentiable=False)
def ctc_beam_search_decode(logits, lengths, top_paths=1, beam_width=100, blank=0):
    """The `top_paths` most likely labellings found with a beam of `beam_width` prefixes."""
    logits = np.asarray(logits, dtype=np.float64)
    batch, steps, _ = logits.shape
    decoded = np.full((top_paths, batch, steps), -1, np.int32)
    scores = np.full((batch, top_paths), -np.inf, _score_dtype(np.asarray(logits, np.float32)))
    for b in range(batch):
        n = int(lengths[b])
        results = _beam_search(_log_softmax(logits[b, :n]), blank, beam_width)
        for k, (labels, score) in enumerate(results[:top_paths]):
            decoded[k, b, :len(labels)] = labels
            scores[b, k] = score
    return decoded, scores
