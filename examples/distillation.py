"""Knowledge distillation: a small student learns from a larger teacher.

A teacher MLP is trained on the 8x8 digits shipped with hikeras. A student
with an eighth of its hidden units is then trained through a `Distiller`:
its loss mixes the labels' cross-entropy with the gap to the teacher's
softened logits (`LogitsDistillation`) and hidden features
(`FeatureDistillation`). The same student architecture trained on the labels
alone, for as many epochs, is the baseline. Runs offline in seconds:

    python examples/distillation.py
"""

import numpy as np

import hikeras
from hikeras import layers, losses
from hikeras.datasets import digits
from hikeras.distillation import Distiller, FeatureDistillation, LogitsDistillation


def mlp(hidden, name):
    """Digits classifier that outputs logits; its hidden layer is `<name>_features`."""
    return hikeras.Sequential([
        hikeras.Input(shape=(64,)),
        layers.Dense(hidden, activation="relu"),
        layers.Dense(16, activation="relu", name=f"{name}_features"),
        layers.Dense(10, name=f"{name}_logits"),
    ], name=name)


def accuracy(model, x, y):
    return float(np.mean(model.predict(x, verbose=0).argmax(axis=1) == y))


def main(epochs=15):
    hikeras.utils.set_random_seed(1)
    (x_train, y_train), (x_test, y_test) = digits.load_data()
    x_train = x_train.reshape(len(x_train), 64).astype("float32") / 16.0
    x_test = x_test.reshape(len(x_test), 64).astype("float32") / 16.0
    scce = losses.SparseCategoricalCrossentropy(from_logits=True)

    teacher = mlp(256, "teacher")
    teacher.compile(optimizer="adam", loss=scce)
    teacher.fit(x_train, y_train, batch_size=32, epochs=20, verbose=0)

    alone = mlp(32, "alone")
    alone.compile(optimizer="adam", loss=scce)
    alone.fit(x_train, y_train, batch_size=32, epochs=epochs, verbose=0)

    student = mlp(32, "student")
    distiller = Distiller(
        teacher=teacher, student=student,
        distillation_losses=[
            LogitsDistillation(temperature=3.0, loss=losses.KLDivergence()),
            FeatureDistillation(loss="mse", teacher_layer_name="teacher_features",
                                student_layer_name="student_features"),
        ],
        distillation_loss_weights=[1.0, 0.1],
        student_loss_weight=0.3,
    )
    distiller.compile(optimizer="adam", loss=scce)
    history = distiller.fit(x_train, y_train, batch_size=32, epochs=epochs, verbose=0)
    last = {key: round(values[-1], 4) for key, values in history.history.items()}
    print(f"distiller logs after {epochs} epochs: {last}")

    results = {"teacher": accuracy(teacher, x_test, y_test),
               "student alone": accuracy(alone, x_test, y_test),
               "distilled student": accuracy(distiller.student, x_test, y_test)}
    for name, value in results.items():
        print(f"{name:>30}: test accuracy {value:.4f}")
    print(f"teacher params {teacher.count_params():,} - student params "
          f"{distiller.student.count_params():,}")
    return results


if __name__ == "__main__":
    main()
