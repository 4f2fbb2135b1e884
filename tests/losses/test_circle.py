"""Circle loss against Keras's values (fixtures/keras_surface), gradients, config, bad input."""

import json
import pathlib

import numpy as np
import pytest

from hikeras import losses
from hikeras.testing import check_gradients

FIXTURE = json.loads((pathlib.Path(__file__).parents[1] / "fixtures" / "keras_surface"
                      / "surface.json").read_text())["circle"]
LABELS = np.array(FIXTURE["labels"])
EMBEDDINGS = np.array(FIXTURE["embeddings"])


def test_function_matches_keras():
    np.testing.assert_allclose(losses.circle(LABELS, EMBEDDINGS), FIXTURE["fn"], rtol=1e-6,
                               atol=1e-9)
    np.testing.assert_allclose(
        losses.circle(LABELS, EMBEDDINGS, remove_diagonal=False, gamma=10.0, margin=0.25),
        FIXTURE["fn_keep_diagonal_gamma"], rtol=1e-6)
    np.testing.assert_allclose(
        losses.circle(LABELS, EMBEDDINGS, ref_labels=np.array(FIXTURE["ref_labels"]),
                      ref_embeddings=np.array(FIXTURE["ref_embeddings"])),
        FIXTURE["fn_ref"], rtol=1e-6)


def test_class_reductions_match_keras():
    x = EMBEDDINGS.astype("float32")
    assert float(losses.Circle()(LABELS, x)) == pytest.approx(FIXTURE["class"], rel=1e-5)
    assert float(losses.Circle(reduction="sum")(LABELS, x)) == pytest.approx(
        FIXTURE["class_sum"], rel=1e-5)
    weighted = losses.Circle(gamma=20.0)(LABELS, x, sample_weight=np.array(
        FIXTURE["sample_weight"]))
    assert float(weighted) == pytest.approx(FIXTURE["class_weighted"], rel=1e-5)


def test_config_round_trip_and_lookup():
    loss = losses.Circle(gamma=10.0, remove_diagonal=False)
    assert losses.Circle().get_config() == FIXTURE["config"]
    again = losses.deserialize(losses.serialize(loss))
    assert (again.gamma, again.remove_diagonal) == (10.0, False)
    assert losses.get("circle") is losses.circle


def test_gradients(rng):
    x = rng.standard_normal((6, 3))
    x /= np.linalg.norm(x, axis=1, keepdims=True)
    labels = np.array([0, 0, 1, 1, 2, 2])
    check_gradients(lambda e: losses.circle(labels, e, gamma=4.0), [x], rtol=1e-4)


def test_bad_labels():
    with pytest.raises(ValueError, match=r"Received: y_true.shape=\(2, 2\)"):
        losses.circle(np.zeros((2, 2)), EMBEDDINGS[:2])
    with pytest.raises(ValueError, match=r"y_pred.shape=\(8, 4\)"):
        losses.circle(LABELS[:3], EMBEDDINGS)
