"""`Distiller`: a model that trains a student against a frozen teacher.

It is a subclassed `Model` whose forward pass is the student's; training it
with `compile`/`fit` minimises

    student_loss_weight * student_loss
        + (1 - student_loss_weight) * sum_i(weight_i * distillation_loss_i)

where the student loss is the `loss` given to `compile` (on the labels) and
each distillation loss compares teacher and student outputs, final or taken
from named layers. Only the student's weights train: the teacher is frozen.
The logs add `student_loss`, `distillation_loss` and `total_loss` (means of
the batch values) to `loss`, as Keras 3.15 does.
"""

import numpy as np

from .. import metrics, ops, tree
from ..layers.layer_table import deserialize as deserialize_layer
from ..models.model import Model
from ..models.sequential import Sequential
from ..serialization import deserialize_keras_object, serialize_keras_object
from .distillation_loss import (
    DistillationLoss,
    FeatureDistillation,
    LogitsDistillation,
    _loss_function,
    _symbolic_inputs,
)

_FINAL = "final_output"
_LOSS_CLASSES = {cls.__name__: cls for cls in (DistillationLoss, FeatureDistillation,
                                               LogitsDistillation)}


class Distiller(Model):
    """Trains `student` on labels and on what the frozen `teacher` outputs.

    Args:
        teacher: a trained `Model`; frozen (`trainable = False`) here.
        student: the `Model` to train; `distiller.student` afterwards.
        distillation_losses: a `DistillationLoss` or a list of them.
        distillation_loss_weights: one weight per distillation loss
            (default 1.0 each).
        student_loss_weight: the share of the supervised loss, in [0, 1];
            default 0.5.
        name: default `"distiller"`.

    >>> import numpy as np, hikeras
    >>> from hikeras import layers
    >>> from hikeras.distillation import Distiller, LogitsDistillation
    >>> def tiny(units):
    ...     return hikeras.Sequential([hikeras.Input((4,)), layers.Dense(units, "relu"),
    ...                                layers.Dense(3)])
    >>> distiller = Distiller(teacher=tiny(16), student=tiny(4),
    ...                       distillation_losses=LogitsDistillation(temperature=3.0))
    >>> distiller.compile(optimizer="adam", loss="sparse_categorical_crossentropy")
    >>> history = distiller.fit(np.ones((8, 4)), np.zeros(8), epochs=1, verbose=0)
    >>> sorted(history.history)
    ['distillation_loss', 'loss', 'student_loss', 'total_loss']
    """

    def __init__(self, teacher, student, distillation_losses, distillation_loss_weights=None,
                 student_loss_weight=0.5, name="distiller", **kwargs):
        super().__init__(name=name, **kwargs)
        _check_models(teacher, student)
        self.teacher = teacher
        self.student = student
        if isinstance(student_loss_weight, bool) or not isinstance(
                student_loss_weight, (int, float)) or not 0.0 <= student_loss_weight <= 1.0:
            raise ValueError("`student_loss_weight` must be a number between 0.0 and 1.0. "
                             f"Received: student_loss_weight={student_loss_weight!r}")
        self.student_loss_weight = student_loss_weight
        if distillation_losses is None:
            raise ValueError("`distillation_losses` cannot be None: give a distillation loss "
                             "(LogitsDistillation, FeatureDistillation) or a list of them. "
                             "Received: distillation_losses=None")
        if not isinstance(distillation_losses, (list, tuple)):
            distillation_losses, distillation_loss_weights = [distillation_losses], None
        distillation_losses = list(distillation_losses)
        for loss in distillation_losses:
            if not isinstance(loss, DistillationLoss):
                raise TypeError("Each distillation loss must be a DistillationLoss. "
                                 f"Received: {loss!r}")
        if distillation_loss_weights is None:
            distillation_loss_weights = [1.0] * len(distillation_losses)
        if len(distillation_loss_weights) != len(distillation_losses):
            raise ValueError(
                f"`distillation_loss_weights` needs one weight per distillation loss "
                f"({len(distillation_losses)}). Received: distillation_loss_weights="
                f"{distillation_loss_weights!r}")
        self.distillation_losses = distillation_losses
        self.distillation_loss_weights = list(distillation_loss_weights)
        for loss in distillation_losses:
            loss.validate_model_compatibility(teacher, student)
        # Views of the teacher's and student's own layers: kept out of the tracked
        # sublayers, so the Distiller's weights and files hold each weight once.
        object.__setattr__(self, "_teacher_feature_extractor", _feature_extractor(
            teacher, [getattr(loss, "teacher_layer_name", None) for loss in distillation_losses]))
        object.__setattr__(self, "_student_feature_extractor", _feature_extractor(
            student, [getattr(loss, "student_layer_name", None) for loss in distillation_losses]))
        self.teacher.trainable = False
        self.student_loss_tracker = metrics.Mean(name="student_loss")
        self.distillation_loss_tracker = metrics.Mean(name="distillation_loss")
        self.total_loss_tracker = metrics.Mean(name="total_loss")
        self._student_loss = None

    # ----------------------------------------------------------------- training
    def compile(self, optimizer="adam", loss=None, metrics=None, **kwargs):
        """Configures training; `loss` is the student's supervised loss (required)."""
        if loss is None:
            raise ValueError("A Distiller needs the student's `loss`. Received: loss=None")
        if metrics is not None and not isinstance(metrics, (list, tuple)):
            raise ValueError(f"`metrics` must be a list or tuple. Received: metrics={metrics!r}")
        self._student_loss = tree.map_structure(_loss_function, loss)
        super().compile(optimizer=optimizer, loss=None, metrics=metrics, **kwargs)
        # Recorded for the compile config a saved file carries, so it recompiles.
        self._compile_args = {**self._compile_args, "loss": loss}

    def _build_compiled(self, y_pred):
        """The compiled metrics only: `compute_loss` computes the student's loss itself."""
        recorded = self._compile_args
        self._compile_args = {**recorded, "loss": None}
        try:
            super()._build_compiled(y_pred)
        finally:
            self._compile_args = recorded

    def call(self, inputs, training=None):
        return self.student(inputs, training=training)

    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """The weighted sum of the student's and the distillation losses (see module)."""
        if y_pred is None:
            y_pred = self(x, training=training)
        self._ensure_compiled_built(y, y_pred)
        student_loss = 0.0
        if self.student_loss_weight > 0.0 and y is not None:
            values = tree.flatten(tree.map_structure(lambda fn, t, p: fn(t, p),
                                                     self._student_loss, y, y_pred))
            student_loss = ops.sum(ops.stack(values)) if len(values) > 1 else values[0]
            if np.ndim(student_loss) > 0:
                student_loss = ops.mean(student_loss)
        distillation_loss = 0.0
        if self.student_loss_weight < 1.0:
            distillation_loss = self._distillation_loss(x, y_pred)
        total_loss = ops.add(
            ops.multiply(self.student_loss_weight, student_loss),
            ops.multiply(1.0 - self.student_loss_weight, distillation_loss))
        for tracker, value in ((self.student_loss_tracker, student_loss),
                               (self.distillation_loss_tracker, distillation_loss),
                               (self.total_loss_tracker, total_loss)):
            tracker.update_state(float(np.asarray(value)))
        return total_loss

    def _distillation_loss(self, x, y_pred):
        teacher_features = _features(self._teacher_feature_extractor, self.teacher, x, False)
        student_features = (self._student_feature_extractor(x, training=True)
                            if self._student_feature_extractor is not None
                            else {_FINAL: y_pred})
        total = 0.0
        for loss, weight in zip(self.distillation_losses, self.distillation_loss_weights):
            if getattr(loss, "teacher_layer_name", None) is not None:
                teacher = teacher_features[loss.teacher_layer_name]
                student = student_features[loss.student_layer_name or _FINAL]
            else:
                teacher, student = teacher_features[_FINAL], y_pred
            loss.validate_outputs(teacher, student)
            value = loss.compute_loss(teacher, student)
            if np.ndim(value) > 0:
                raise ValueError(
                    f"Distillation loss {type(loss).__name__} must return a scalar from "
                    f"`compute_loss`. Received: a loss of shape {np.shape(value)}")
            total = ops.add(total, ops.multiply(weight, value))
        return total

    def _loss_trackers(self):
        return [self.student_loss_tracker, self.distillation_loss_tracker,
                self.total_loss_tracker]

    @property
    def metrics(self):
        """The model's metrics, then the three loss trackers (reset each epoch).

        The trackers are added only where the base class does not already list
        them (a base that tracks `Metric` attributes does, as Keras 3's).
        """
        found = super().metrics
        return found + [t for t in self._loss_trackers() if not any(t is m for m in found)]

    def get_metrics_result(self):
        logs = super().get_metrics_result()
        for tracker in self._loss_trackers():
            logs[tracker.name] = float(tracker.result())
        return logs

    # ------------------------------------------------------------ serialisation
    def get_config(self):
        config = super().get_config()
        config.update({
            "teacher": serialize_keras_object(self.teacher),
            "student": serialize_keras_object(self.student),
            "distillation_losses": [serialize_keras_object(loss)
                                    for loss in self.distillation_losses],
            "distillation_loss_weights": list(self.distillation_loss_weights),
            "student_loss_weight": self.student_loss_weight,
        })
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["teacher"] = deserialize_layer(config["teacher"], custom_objects)
        config["student"] = deserialize_layer(config["student"], custom_objects)
        config["distillation_losses"] = [
            deserialize_keras_object(loss, _LOSS_CLASSES, custom_objects, "distillation loss")
            for loss in config["distillation_losses"]]
        return cls(**config)


def _check_models(teacher, student):
    """Both are models, with inputs and outputs of matching shapes and dtypes."""
    for role, model in (("teacher", teacher), ("student", student)):
        if not isinstance(model, Model):
            raise ValueError(  # noqa: TRY004 - Keras raises a ValueError here
                f"The {role} must be a hikeras Model. Received: {role}={model!r}")
    for what in ("inputs", "outputs"):
        ours = [_symbolic_inputs(teacher) if what == "inputs" else _outputs(teacher),
                _symbolic_inputs(student) if what == "inputs" else _outputs(student)]
        if ours[0] is None or ours[1] is None:
            continue
        if len(ours[0]) != len(ours[1]):
            raise ValueError(f"Teacher and student have different numbers of {what}. "
                             f"Received: {len(ours[0])} and {len(ours[1])}")
        for t, s in zip(*ours):
            compatible = len(t.shape) == len(s.shape) and all(
                a is None or b is None or a == b for a, b in zip(t.shape, s.shape))
            if not compatible:
                raise ValueError(f"Teacher and student {what[:-1]} shapes are incompatible. "
                                 f"Received: teacher {t.shape}, student {s.shape}")
            if t.dtype != s.dtype:
                raise ValueError(f"Teacher and student {what[:-1]} dtypes must match. "
                                 f"Received: teacher {t.dtype}, student {s.dtype}")


def _outputs(model):
    try:
        return getattr(model, "outputs", None) or None
    except (AttributeError, ValueError):
        return None


def _feature_extractor(model, layer_names):
    """A model returning `{"final_output": ..., name: layer output}`, or None (no names)."""
    names = list(dict.fromkeys(name for name in layer_names if name))
    if not names:
        return None
    inputs = _symbolic_inputs(model)
    if inputs is None:
        raise ValueError(f"Cannot take features from model '{model.name}': it has no "
                         f"symbolic inputs. Received: layer names {names}")
    final = model.layers[-1].output if isinstance(model, Sequential) else model.output
    outputs = {_FINAL: final, **{name: model.get_layer(name=name).output for name in names}}
    return Model(inputs=inputs, outputs=outputs, name=f"{model.name}_multi_feature_extractor")


def _features(extractor, model, x, training):
    if extractor is not None:
        return extractor(x, training=training)
    return {_FINAL: model(x, training=training)}
