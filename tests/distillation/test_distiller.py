"""`Distiller` and the distillation losses: behaviour, configs, saving, bad input."""

import numpy as np
import pytest

import hikeras
from hikeras import layers, losses
from hikeras.distillation import (
    DistillationLoss,
    Distiller,
    FeatureDistillation,
    LogitsDistillation,
)


def tiny(prefix, hidden=4, outputs=3):
    return hikeras.Sequential([hikeras.Input((4,)),
                               layers.Dense(hidden, activation="tanh", name=f"{prefix}_hidden"),
                               layers.Dense(outputs, name=f"{prefix}_logits")],
                              name=f"{prefix}_model")


def test_logits_distillation_by_hand():
    teacher = np.array([[2.0, 0.0, -2.0]])
    student = np.array([[1.0, 1.0, -1.0]])
    # The name resolves to the kl_divergence function, applied to the scaled logits,
    # whose values are clipped to [1e-7, 1]: t = [1, eps, eps], s = [.5, .5, eps].
    eps = 1e-7
    value = LogitsDistillation(temperature=2.0).compute_loss(teacher, student)
    np.testing.assert_allclose(float(value), np.log(1.0 / 0.5) + eps * np.log(eps / 0.5),
                               rtol=1e-6)
    # A KLDivergence instance compares softmax probabilities, scaled by T**2.
    p, q = (np.exp(v / 2.0) / np.exp(v / 2.0).sum() for v in (teacher[0], student[0]))
    expected = 4.0 * np.sum(p * np.log(p / q))
    value = LogitsDistillation(2.0, losses.KLDivergence()).compute_loss(teacher, student)
    np.testing.assert_allclose(float(value), expected, rtol=1e-5)


def test_feature_distillation_skips_outputs_given_none():
    loss = FeatureDistillation(loss=["mse", None])
    teacher = [np.array([[1.0, 3.0]]), np.array([[100.0]])]
    student = [np.array([[0.0, 1.0]]), np.array([[0.0]])]
    np.testing.assert_allclose(float(loss.compute_loss(teacher, student)), (1.0 + 4.0) / 2)


def test_only_the_student_trains_and_the_student_saves_alone(tmp_path, rng):
    teacher, student = tiny("teacher"), tiny("student")
    teacher_before = teacher.get_weights()
    distiller = Distiller(teacher, student, [
        LogitsDistillation(), FeatureDistillation(teacher_layer_name="teacher_hidden",
                                                  student_layer_name="student_hidden")])
    assert not teacher.trainable
    assert {id(v) for v in distiller.trainable_weights} == {id(v) for v in student.weights}
    distiller.compile(optimizer="sgd", loss="sparse_categorical_crossentropy")
    distiller.fit(rng.normal(size=(6, 4)), rng.integers(0, 3, 6), epochs=1, verbose=0)
    for a, b in zip(teacher.get_weights(), teacher_before):
        np.testing.assert_array_equal(a, b)
    path = str(tmp_path / "student.keras")
    distiller.student.save(path)
    loaded = hikeras.models.load_model(path)
    x = rng.normal(size=(2, 4)).astype("float32")
    np.testing.assert_allclose(loaded.predict(x, verbose=0), distiller.predict(x, verbose=0),
                               rtol=1e-6)


def test_the_whole_distiller_saves_and_loads_compiled(tmp_path, rng):
    distiller = Distiller(tiny("teacher"), tiny("student"), [
        LogitsDistillation(), FeatureDistillation(teacher_layer_name="teacher_hidden",
                                                  student_layer_name="student_hidden")])
    distiller.compile(optimizer="adam", loss=losses.MeanSquaredError(), metrics=["mae"])
    x, y = rng.normal(size=(6, 4)), rng.normal(size=(6, 3))
    distiller.fit(x, y, epochs=1, verbose=0)
    path = str(tmp_path / "distiller.keras")
    distiller.save(path)
    loaded = hikeras.models.load_model(path)
    assert isinstance(loaded, Distiller) and not loaded.teacher.trainable
    assert len(loaded.weights) == len(distiller.weights) == 8
    ours, theirs = (m.evaluate(x, y, verbose=0, return_dict=True) for m in (distiller, loaded))
    assert sorted(ours) == sorted(theirs) == [
        "distillation_loss", "loss", "mae", "student_loss", "total_loss"]
    for key in ours:
        np.testing.assert_allclose(theirs[key], ours[key], rtol=1e-6)


def test_config_round_trip():
    distiller = Distiller(tiny("teacher"), tiny("student"), [
        LogitsDistillation(temperature=4.0, loss=losses.KLDivergence()),
        FeatureDistillation(loss="mae", teacher_layer_name="teacher_hidden",
                            student_layer_name="student_hidden")],
        distillation_loss_weights=[1.0, 0.25], student_loss_weight=0.2)
    clone = Distiller.from_config(distiller.get_config())
    assert clone.student_loss_weight == 0.2
    assert clone.distillation_loss_weights == [1.0, 0.25]
    logits, features = clone.distillation_losses
    assert logits.temperature == 4.0 and isinstance(logits.loss, losses.KLDivergence)
    assert features.loss is losses.get("mae")
    assert features.teacher_layer_name == "teacher_hidden"
    assert [w.shape for w in clone.student.weights] == [w.shape for w in distiller.student.weights]
    # Keras writes a loss function as a dict; that form reads too.
    keras_form = {"temperature": 3.0, "loss": {"module": "builtins", "class_name": "function",
                                               "config": "kl_divergence",
                                               "registered_name": "function"}}
    assert LogitsDistillation.from_config(keras_form).loss is losses.get("kl_divergence")


def test_a_custom_distillation_loss_trains(rng):
    class MeanGap(DistillationLoss):
        def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
            return hikeras.ops.mean(hikeras.ops.abs(teacher_outputs - student_outputs))

    distiller = Distiller(tiny("teacher"), tiny("student"), MeanGap(), student_loss_weight=0.0)
    distiller.compile(optimizer="adam", loss="mse")
    history = distiller.fit(rng.normal(size=(8, 4)), rng.normal(size=(8, 3)), epochs=3,
                            verbose=0)
    gaps = history.history["distillation_loss"]
    assert gaps[-1] < gaps[0]


def test_bad_arguments_say_what_was_received():
    teacher, student = tiny("teacher"), tiny("student")
    with pytest.raises(ValueError, match="between 0.0 and 1.0. Received"):
        Distiller(teacher, student, LogitsDistillation(), student_loss_weight=1.5)
    with pytest.raises(ValueError, match="cannot be None"):
        Distiller(teacher, student, None)
    with pytest.raises(ValueError, match="one weight per distillation loss"):
        Distiller(teacher, student, [LogitsDistillation()], distillation_loss_weights=[1, 2])
    with pytest.raises(ValueError, match="must be a hikeras Model. Received"):
        Distiller(layers.Dense(3), student, LogitsDistillation())
    with pytest.raises(ValueError, match=r"output shapes are incompatible. Received"):
        Distiller(teacher, tiny("student", outputs=5), LogitsDistillation())
    with pytest.raises(ValueError, match="In student model: No such layer: nope"):
        Distiller(teacher, student, FeatureDistillation(teacher_layer_name="teacher_hidden",
                                                        student_layer_name="nope"))
    with pytest.raises(ValueError, match="must be positive. Received: temperature=0"):
        LogitsDistillation(temperature=0)
    with pytest.raises(ValueError, match="at least one loss"):
        FeatureDistillation(loss=[None, None])
    with pytest.raises(ValueError, match="Unknown"):
        LogitsDistillation(loss="no_such_loss")
    distiller = Distiller(teacher, student, LogitsDistillation())
    with pytest.raises(ValueError, match="needs the student's `loss`"):
        distiller.compile(optimizer="adam")
