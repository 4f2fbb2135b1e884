"""CTC loss and `ops.ctc_loss`: hand-worked alignments, lengths, errors, config, training.

Values against real Keras 3 are in `test_keras_golden.py`; the op's gradient
check is in `tests/backend/test_ops_ctc.py`.
"""

import json

import numpy as np
import pytest

import hikeras
from hikeras import layers, losses, ops
from hikeras.backend import GradientTape
from tests.fixtures.keras_training import f32, golden


def _logits(probabilities):
    return np.log(np.asarray(probabilities, dtype="float64"))


def test_two_frames_one_label_sums_the_three_alignments():
    # Class 0 is the blank. "1 1", "blank 1" and "1 blank" all read as [1].
    p = np.array([[0.6, 0.4], [0.3, 0.7]])
    alignments = p[0, 1] * p[1, 1] + p[0, 0] * p[1, 1] + p[0, 1] * p[1, 0]
    value = losses.ctc(np.array([[1, 0]]), _logits([p]))
    np.testing.assert_allclose(value, [-np.log(alignments)], rtol=1e-12)


def test_repeated_labels_need_a_blank_between_them():
    # [1, 1] over 3 frames has exactly one alignment: 1 blank 1.
    p = np.array([[0.1, 0.9], [0.8, 0.2], [0.3, 0.7]])
    value = losses.ctc(np.array([[1, 1]]), _logits([p]))
    np.testing.assert_allclose(value, [-np.log(0.9 * 0.8 * 0.7)], rtol=1e-12)
    # Over 2 frames there is none: the loss is infinite.
    assert np.isinf(losses.ctc(np.array([[1, 1]]), _logits([p[:2]]))[0])


def test_empty_labels_mean_all_blank():
    p = np.array([[0.5, 0.25, 0.25], [0.9, 0.05, 0.05]])
    np.testing.assert_allclose(losses.ctc(np.zeros((1, 3)), _logits([p])),
                               [-np.log(0.5 * 0.9)], rtol=1e-12)


def test_outputs_are_logits_not_probabilities():
    # Shifting a frame's logits changes nothing; rescaling probabilities would.
    logits = np.random.default_rng(0).normal(size=(2, 4, 3))
    labels = np.array([[1, 2], [2, 0]])
    np.testing.assert_allclose(losses.ctc(labels, logits + 3.0), losses.ctc(labels, logits),
                               rtol=1e-12)


def test_op_lengths_ignore_padding_frames_and_labels():
    rng = np.random.default_rng(1)
    logits = rng.normal(size=(2, 6, 4))
    target = np.array([[3, 1, 2], [2, 2, 0]])
    full = ops.ctc_loss(target[:1, :2], logits[:1, :4], np.array([2]), np.array([4]))
    padded = ops.ctc_loss(target, logits, np.array([2, 2]), np.array([4, 6]))
    np.testing.assert_allclose(padded[0], full[0], rtol=1e-12)
    # mask_index picks the blank class.
    moved = ops.ctc_loss(target[1:] + 1, np.roll(logits[1:], 1, axis=-1), np.array([2]),
                         np.array([6]), mask_index=1)
    np.testing.assert_allclose(moved, padded[1:], rtol=1e-12)


@pytest.mark.parametrize("name", ["ctc_loss", "ctc_loss_mask_index"])
def test_op_matches_keras_with_lengths_and_mask_index(name):
    entry = golden()["ops"][name]
    value = ops.ctc_loss(np.array(entry["target"]), f32(entry["output"]),
                         np.array(entry["target_length"]), np.array(entry["output_length"]),
                         mask_index=entry["mask_index"])
    assert value.dtype == np.float32
    np.testing.assert_allclose(value, entry["value"], rtol=1e-5, atol=1e-6)


def test_gradient_flows_from_the_loss_to_the_logits():
    logits = np.random.default_rng(2).normal(size=(3, 5, 4)).astype("float32")
    labels = np.array([[1, 2, 0], [3, 0, 0], [2, 2, 1]])
    with GradientTape() as tape:
        tape.watch(logits)
        loss = losses.CTC()(labels, logits)
    grad = tape.gradient(loss, logits)
    assert grad.dtype == np.float32 and grad.shape == logits.shape
    # Per frame the gradient is softmax minus posterior mass: it sums to zero.
    np.testing.assert_allclose(grad.sum(axis=-1), 0.0, atol=1e-6)


def test_reductions_and_sample_weights():
    logits = np.random.default_rng(3).normal(size=(3, 4, 3)).astype("float32")
    labels = np.array([[1, 2], [2, 0], [1, 1]])
    per_sample = losses.ctc(labels, logits)
    np.testing.assert_allclose(losses.CTC(reduction=None)(labels, logits), per_sample)
    np.testing.assert_allclose(losses.CTC(reduction="sum")(labels, logits), per_sample.sum(),
                               rtol=1e-6)
    weight = np.array([1.0, 0.0, 2.0], dtype="float32")
    np.testing.assert_allclose(losses.CTC()(labels, logits, weight),
                               (per_sample * weight).sum() / 3, rtol=1e-6)


@pytest.mark.parametrize("y_true, y_pred, received", [
    (np.array([1, 2]), np.zeros((1, 3, 3)), "y_true.shape=(2,)"),
    (np.array([[1, 2]]), np.zeros((1, 3)), "y_pred.shape=(1, 3)"),
])
def test_rank_errors(y_true, y_pred, received):
    with pytest.raises(ValueError, match="ctc") as info:
        losses.CTC()(y_true, y_pred)
    assert str(info.value).endswith(f"Received: {received}")


def test_labels_out_of_range_or_blank_inside_the_labels_are_refused():
    with pytest.raises(ValueError, match="Received: target="):
        losses.ctc(np.array([[1, 7]]), np.zeros((1, 4, 3)))
    # Keras counts the non-zero entries; a zero between labels would make the
    # blank a label, so it is refused rather than silently misread.
    with pytest.raises(ValueError, match="other than mask_index=0"):
        losses.ctc(np.array([[1, 0, 2]]), np.zeros((1, 4, 3)))


def test_config_round_trip_and_lookup():
    loss = losses.CTC(reduction="sum", name="seq")
    config = loss.get_config()
    assert config == {"name": "seq", "reduction": "sum"}
    rebuilt = losses.deserialize(json.loads(json.dumps(losses.serialize(loss))))
    assert type(rebuilt) is losses.CTC and rebuilt.get_config() == config
    assert losses.CTC().name == "ctc"
    assert losses.get("ctc") is losses.ctc
    assert isinstance(losses.get("CTC"), losses.CTC)


def test_a_model_trains_with_ctc():
    rng = np.random.default_rng(0)
    x = rng.normal(size=(16, 8, 4)).astype("float32")
    y = rng.integers(1, 4, size=(16, 3))
    model = hikeras.Sequential([layers.Input((8, 4)), layers.Dense(16, activation="tanh"),
                                layers.Dense(4)])
    model.compile(optimizer=hikeras.optimizers.Adam(0.01), loss="ctc")
    history = model.fit(x, y, epochs=10, batch_size=8, verbose=0)
    assert history.history["loss"][-1] < history.history["loss"][0]
