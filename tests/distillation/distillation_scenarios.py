"""Distillation runs written once for `keras` and for `hikeras`.

Tiny teacher and student models with fixed weights train for two epochs
through `Distiller.fit` (no shuffling), and each scenario returns the
training logs, the evaluation logs and the student's weights as JSON lists.
`keras_distillation.py` records Keras's answers in `keras_distillation.json`;
`test_distillation_keras.py` compares hikeras's.
"""

import numpy as np

_WEIGHTS = np.random.default_rng(7)
TEACHER_WEIGHTS = [_WEIGHTS.normal(size=s).round(2).astype("float32")
                   for s in ((4, 4), (4,), (4, 3), (3,))]
STUDENT_WEIGHTS = [_WEIGHTS.normal(size=s).round(2).astype("float32")
                   for s in ((4, 4), (4,), (4, 3), (3,))]
X = _WEIGHTS.normal(size=(8, 4)).round(2).astype("float32")
Y = np.array([0, 1, 2, 1, 0, 2, 2, 1], "int32")


def tiny_model(k, prefix, weights):
    model = k.Sequential([
        k.Input((4,)),
        k.layers.Dense(4, activation="tanh", name=f"{prefix}_hidden"),
        k.layers.Dense(3, name=f"{prefix}_logits"),
    ], name=f"{prefix}_model")
    model.set_weights(weights)
    return model


def _run(k, distiller, optimizer):
    distiller.compile(optimizer=optimizer,
                      loss=k.losses.SparseCategoricalCrossentropy(from_logits=True))
    history = distiller.fit(X, Y, batch_size=4, epochs=2, shuffle=False, verbose=0)
    evaluation = distiller.evaluate(X, Y, batch_size=4, verbose=0, return_dict=True)
    return {"history": {key: [float(v) for v in values]
                        for key, values in history.history.items()},
            "evaluate": {key: float(v) for key, v in evaluation.items()},
            "student_weights": [np.asarray(w).tolist() for w in distiller.student.get_weights()],
            "predict": np.asarray(distiller.predict(X[:2], verbose=0)).tolist()}


def logits_distillation(k):
    teacher = tiny_model(k, "teacher", TEACHER_WEIGHTS)
    student = tiny_model(k, "student", STUDENT_WEIGHTS)
    distiller = k.distillation.Distiller(
        teacher=teacher, student=student,
        distillation_losses=k.distillation.LogitsDistillation(temperature=2.0))
    return _run(k, distiller, k.optimizers.SGD(learning_rate=0.1))


def logits_and_feature_distillation(k):
    teacher = tiny_model(k, "teacher", TEACHER_WEIGHTS)
    student = tiny_model(k, "student", STUDENT_WEIGHTS)
    distiller = k.distillation.Distiller(
        teacher=teacher, student=student,
        distillation_losses=[
            k.distillation.LogitsDistillation(temperature=3.0),
            k.distillation.FeatureDistillation(loss="mse", teacher_layer_name="teacher_hidden",
                                               student_layer_name="student_hidden"),
        ],
        distillation_loss_weights=[1.0, 0.5], student_loss_weight=0.3)
    return _run(k, distiller, k.optimizers.Adam(learning_rate=0.05))


def feature_distillation_only(k):
    teacher = tiny_model(k, "teacher", TEACHER_WEIGHTS)
    student = tiny_model(k, "student", STUDENT_WEIGHTS)
    distiller = k.distillation.Distiller(
        teacher=teacher, student=student,
        distillation_losses=[k.distillation.FeatureDistillation(loss="mae")],
        student_loss_weight=0.0)
    return _run(k, distiller, k.optimizers.SGD(learning_rate=0.2, momentum=0.5))


def kl_instance_distillation(k):
    teacher = tiny_model(k, "teacher", TEACHER_WEIGHTS)
    student = tiny_model(k, "student", STUDENT_WEIGHTS)
    distiller = k.distillation.Distiller(
        teacher=teacher, student=student, student_loss_weight=0.25,
        distillation_losses=k.distillation.LogitsDistillation(
            temperature=2.0, loss=k.losses.KLDivergence()))
    return _run(k, distiller, k.optimizers.RMSprop(learning_rate=0.01))


SCENARIOS = {f.__name__: f for f in (
    logits_distillation, logits_and_feature_distillation, feature_distillation_only,
    kl_instance_distillation)}
