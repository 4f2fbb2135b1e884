"""The fused `ctc_loss` op against a brute-force sum over every frame-by-frame path."""

import itertools

import numpy as np
import pytest

from hikeras.backend import GradientTape, SymbolicTensor, apply
from tests.helpers.check_op import case, params

# Builds constant data at import only; a test draws from its own `rng` fixture.
_TABLE_RNG = np.random.default_rng(11)


def _log_softmax(x):
    shifted = x - np.max(x, axis=-1, keepdims=True)
    return shifted - np.log(np.sum(np.exp(shifted), axis=-1, keepdims=True))


def _collapse(path, blank):
    merged = [k for i, k in enumerate(path) if i == 0 or k != path[i - 1]]
    return [k for k in merged if k != blank]


def _brute_force(output, target, target_length, output_length, mask_index=0):
    """`-log` of the summed probability of every path that collapses to the labels."""
    losses = []
    for logits, labels, n, frames in zip(output, target, target_length, output_length):
        log_p = _log_softmax(logits[:frames])
        labels = list(labels[:n])
        total = sum(np.exp(sum(log_p[t, k] for t, k in enumerate(path)))
                    for path in itertools.product(range(logits.shape[-1]), repeat=frames)
                    if _collapse(path, mask_index) == labels)
        losses.append(np.inf if total == 0 else -np.log(total))
    return np.array(losses)


CASES = [
    case("ctc_loss", _TABLE_RNG.normal(size=(3, 5, 3)), np.array([[1, 2, 0], [2, 2, 0], [1, 1, 2]]),
         np.array([2, 2, 3]), np.array([5, 4, 5]), reference=_brute_force),
    case("ctc_loss", _TABLE_RNG.normal(size=(2, 4, 4)) * 2, np.array([[3, 0], [0, 0]]),
         np.array([1, 0]), np.array([2, 3]), reference=_brute_force, label="empty-target"),
    case("ctc_loss", _TABLE_RNG.normal(size=(2, 4, 3)), np.array([[0, 2], [2, 0]]),
         np.array([2, 2]), np.array([4, 3]), attrs={"mask_index": 1},
         reference=lambda o, t, tl, ol: _brute_force(o, t, tl, ol, mask_index=1),
         label="mask-index-1"),
    case("ctc_loss", _TABLE_RNG.normal(size=(2, 6, 3)),
         np.array([[1, 2, 1], [2, 1, 2]], dtype=float),
         np.array([3, 2]), np.array([6, 6]), reference=_brute_force, wrt=(0,), label="float-labels"),
]


@pytest.mark.parametrize("op_case", params(CASES))
def test_op(op_case):
    op_case.run()


def test_two_frames_one_label_by_hand():
    # Label [1] over 2 frames: the paths 1 1, blank 1 and 1 blank collapse to it.
    p = np.array([[0.6, 0.4], [0.3, 0.7]])  # p[t, k], class 0 is the blank
    expected = -np.log(p[0, 1] * p[1, 1] + p[0, 0] * p[1, 1] + p[0, 1] * p[1, 0])
    out = apply("ctc_loss", np.log(p)[None], np.array([[1]]), np.array([1]), np.array([2]))
    np.testing.assert_allclose(out, [expected], rtol=1e-12)


def test_unreachable_labels_give_inf_and_zero_gradient(rng):
    # "1 1" needs a blank between the repeats: 3 frames; 2 are too few.
    logits = rng.normal(size=(2, 2, 3))
    target, lengths = np.array([[1, 1], [1, 2]]), np.array([2, 2])
    with GradientTape() as tape:
        tape.watch(logits)
        loss = apply("ctc_loss", logits, target, lengths, np.array([2, 2]))
    assert np.isinf(loss.value[0]) and np.isfinite(loss.value[1])
    grad = tape.gradient(loss, logits)
    np.testing.assert_array_equal(grad[0], 0.0)
    assert np.all(np.isfinite(grad[1]))


def test_frames_after_output_length_get_no_gradient_and_no_influence(rng):
    logits = rng.normal(size=(1, 6, 3))
    args = (np.array([[2, 1]]), np.array([2]), np.array([4]))
    with GradientTape() as tape:
        tape.watch(logits)
        loss = apply("ctc_loss", logits, *args)
    grad = tape.gradient(loss, logits)
    np.testing.assert_array_equal(grad[0, 4:], 0.0)
    np.testing.assert_allclose(grad[0, :4].sum(axis=-1), 0.0, atol=1e-12)
    changed = logits.copy()
    changed[0, 4:] += 5.0
    np.testing.assert_allclose(apply("ctc_loss", changed, *args), loss.value, rtol=1e-12)


def test_long_sequences_stay_finite(rng):
    # 2000 frames: in probability space the path sums would underflow to 0.
    logits = rng.normal(size=(1, 2000, 5)).astype(np.float32)
    target = rng.integers(1, 5, size=(1, 50))
    out = apply("ctc_loss", logits, target, np.array([50]), np.array([2000]))
    assert out.dtype == np.float32 and np.isfinite(out).all() and out[0] > 100


@pytest.mark.parametrize("target, target_length, output_length, match", [
    (np.array([[1, 0]]), np.array([2]), np.array([3]), "other than mask_index"),
    (np.array([[1, 5]]), np.array([2]), np.array([3]), "labels in"),
    (np.array([[1, 2]]), np.array([3]), np.array([3]), "target_length"),
    (np.array([[1, 2]]), np.array([2]), np.array([4]), "output_length"),
    (np.array([[1, 2]]), np.array([2, 2]), np.array([3]), "one length"),
])
def test_argument_errors(target, target_length, output_length, match):
    with pytest.raises(ValueError, match=match) as info:
        apply("ctc_loss", np.zeros((1, 3, 4)), target, target_length, output_length)
    assert "Received: " in str(info.value)


def test_shape_rule_needs_rank_3_output_and_rank_2_target():
    with pytest.raises(ValueError, match="Received: output.shape"):
        apply("ctc_loss", SymbolicTensor((None, 4)), SymbolicTensor((None, 2), "int64"),
              SymbolicTensor((None,), "int64"), SymbolicTensor((None,), "int64"))
