"""Segment reductions, `top_k`, `in_top_k`, `sparsemax` and CTC decoding: values
against plain-Python references, gradients, shape rules."""

import numpy as np
import pytest

from tests.helpers.check_op import case, params, random_array

_TABLE_RNG = np.random.default_rng(13)


def r(*shape):
    return random_array(_TABLE_RNG, *shape)


_IDS = np.array([0, 2, 2, -1, 0, 1, 5])
_IDENTITY = {"sum": 0.0, "prod": 1.0, "max": -np.finfo(np.float32).max,
             "min": np.finfo(np.float32).max}


def _segments(reduction, num_segments):
    combine = {"sum": lambda a, b: a + b, "prod": lambda a, b: a * b,
               "max": np.maximum, "min": np.minimum}[reduction]

    def reference(data, ids):
        out = [None] * num_segments
        for row, i in zip(data, ids):
            if 0 <= i < num_segments:
                out[i] = row if out[i] is None else combine(out[i], row)
        return np.array([np.full(data.shape[1:], _IDENTITY[reduction]) if o is None else o
                         for o in out])

    return reference


def _top_k(x, k):
    order = [sorted(range(len(row)), key=lambda i: (-row[i], i))[:k] for row in x]
    return np.array([[row[i] for i in o] for row, o in zip(x, order)]), np.array(order)


def _sparsemax(x):
    """Row-wise projection onto the simplex, its threshold found by bisection."""
    out = []
    for row in x:
        low, high = row.min() - 1, row.max()
        for _ in range(100):
            tau = (low + high) / 2
            low, high = (tau, high) if np.maximum(row - tau, 0).sum() > 1 else (low, tau)
        out.append(np.maximum(row - (low + high) / 2, 0))
    return np.array(out)


def _ties_distinct(x):
    """Rows with no ties near the top, so that finite differences never cross one."""
    return x + np.arange(x.shape[-1]) * 0.3


CASES = [
    case("segment_reduce", r(7, 3), _IDS, attrs={"num_segments": 3, "reduction": reduction},
         reference=_segments(reduction, 3), label=reduction)
    for reduction in ("sum", "prod", "max", "min")
] + [
    case("segment_reduce", r(7, 2), _IDS, attrs={"num_segments": 5, "reduction": "sum"},
         reference=_segments("sum", 5), label="empty-segments"),
    case("segment_reduce", np.array([[1.0], [0.0], [2.0], [0.0], [3.0]]), np.array([0, 0, 1, 1, 1]),
         attrs={"num_segments": 2, "reduction": "prod"}, reference=_segments("prod", 2),
         label="prod-with-zeros"),
    case("top_k", _ties_distinct(r(3, 6)), attrs={"k": 3}, reference=lambda x: _top_k(x, 3)),
    case("top_k", np.array([[1.0, 3.0, 3.0, 2.0]]), attrs={"k": 2},
         reference=lambda x: _top_k(x, 2), label="ties-to-lower-index", check_grad=False),
    case("in_top_k", np.array([1, 0, 3]), np.array([[0.1, 0.5, 0.5, 0.0],
                                                     [0.3, 0.2, 0.1, 0.4],
                                                     [1.0, 1.0, 1.0, 1.0]]),
         attrs={"k": 1}, reference=lambda t, p: np.array([True, False, True])),
    case("sparsemax", np.array([[1.0, 0.8, -2.0, 0.1], [0.3, 0.2, 0.25, 0.1]]),
         reference=_sparsemax),
    case("sparsemax", r(3, 5) * 2, attrs={"axis": 0},
         reference=lambda x: _sparsemax(x.T).T, label="axis0"),
]

# Frame-by-frame class scores; blank = 0.
_LOGITS = np.log(np.array([[[0.1, 0.6, 0.3], [0.1, 0.7, 0.2], [0.8, 0.1, 0.1],
                            [0.2, 0.7, 0.1], [0.1, 0.1, 0.8]],
                           [[0.2, 0.1, 0.7], [0.6, 0.3, 0.1], [0.3, 0.3, 0.4],
                            [0.1, 0.8, 0.1], [0.9, 0.05, 0.05]]]))
_LENGTHS = np.array([5, 3])


def _greedy_reference(logits, lengths):
    # Row 0: best classes 1 1 0 1 2 -> "1 1 2"; row 1, 3 frames: 2 0 2 -> "2 2".
    decoded = np.full((1, 2, 5), -1)
    decoded[0, 0, :3] = [1, 1, 2]
    decoded[0, 1, :2] = [2, 2]
    scores = np.array([[-np.log([0.6, 0.7, 0.8, 0.7, 0.8]).sum() * -1],
                       [-np.log([0.7, 0.6, 0.4]).sum() * -1]])
    return decoded, -scores


def _labelling_probability(probs, labels, blank=0):
    """The CTC probability of `labels`, summing every alignment by enumeration."""
    import itertools

    total = 0.0
    for path in itertools.product(range(probs.shape[1]), repeat=probs.shape[0]):
        collapsed = [c for i, c in enumerate(path) if c != blank and (i == 0 or c != path[i - 1])]
        if collapsed == list(labels):
            total += np.prod([probs[t, c] for t, c in enumerate(path)])
    return total


def _beam_reference(logits, lengths):
    probs = np.exp(logits[0, :3])
    probs /= probs.sum(axis=-1, keepdims=True)
    candidates = [(), (1,), (2,), (1, 2), (2, 1), (2, 2), (1, 1), (1, 2, 1), (2, 1, 2),
                  (2, 2, 2), (1, 1, 1), (2, 1, 1), (1, 2, 2), (1, 1, 2), (2, 2, 1)]
    scored = sorted(((_labelling_probability(probs, c), c) for c in candidates), reverse=True)
    decoded = np.full((2, 1, 5), -1)
    scores = np.zeros((1, 2))
    for k, (p, labels) in enumerate(scored[:2]):
        decoded[k, 0, :len(labels)] = labels
        scores[0, k] = np.log(p)
    return decoded, scores


CASES += [
    case("ctc_greedy_decode", _LOGITS, _LENGTHS, attrs={"blank": 0},
         reference=_greedy_reference),
    case("ctc_beam_search_decode", _LOGITS[1:], _LENGTHS[1:],
         attrs={"top_paths": 2, "beam_width": 50, "blank": 0}, reference=_beam_reference),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()
