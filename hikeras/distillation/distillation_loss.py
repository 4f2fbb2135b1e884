"""How a student is compared with its teacher: `DistillationLoss` and the two built-ins.

Numerics follow Keras 3.15 exactly, including its handling of loss names:
a string such as `"kl_divergence"` resolves (through `losses.get`) to the
loss *function*, which is applied to the temperature-scaled logits as they
are; only a `KLDivergence` *instance* is given softmax probabilities and
scaled by `temperature ** 2`.
"""

from .. import losses, ops, tree


def _loss_function(loss):
    """A loss name, object or None, resolved as Keras's distillation losses do."""
    if loss is None:
        return None
    if isinstance(loss, str):
        resolved = losses.get(loss)
        if resolved is None:
            raise ValueError(f"Unknown loss function: '{loss}'. Received: loss={loss!r}")
        return resolved
    if not callable(loss):
        raise TypeError(f"A distillation loss must be a loss name, a loss object or None. "
                         f"Received: loss={loss!r}")
    return loss


def _serialize_losses(loss):
    return tree.map_structure(lambda fn: None if fn is None else losses.serialize(fn), loss)


def _deserialize_losses(config):
    """Losses from their configs (nested like the outputs): hikeras's configs, or
    Keras's `{"class_name": "function", "config": name}` for a loss function."""
    if config is None:
        return None
    if isinstance(config, (list, tuple)):
        return type(config)(_deserialize_losses(c) for c in config)
    if isinstance(config, dict) and "class_name" not in config:
        return {key: _deserialize_losses(c) for key, c in config.items()}
    if isinstance(config, dict) and config["class_name"] == "function":
        return losses.get(config["config"])
    return losses.deserialize(config)


def _resolve_losses(loss, owner):
    resolved = tree.map_structure(_loss_function, loss)
    if all(fn is None for fn in tree.flatten(resolved)):
        raise ValueError(f"The `loss` argument of `{owner}` must contain at least one loss "
                         f"that is not None. Received: loss={loss!r}")
    return resolved


def _summed(loss_values):
    """The sum of a structure of scalar losses (0.0 for a skipped output)."""
    return ops.sum(ops.stack(tree.flatten(loss_values)))


class DistillationLoss:
    """Base class of the ways to compare a student's outputs with its teacher's.

    A subclass implements `compute_loss(teacher_outputs, student_outputs)`,
    returning a scalar. `validate_outputs` and `validate_model_compatibility`
    check the outputs and the models before training; the defaults require
    outputs of the same structure and accept any models.
    """

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        """The scalar loss between the teacher's and the student's outputs."""
        raise NotImplementedError(f"{type(self).__name__} must implement `compute_loss`.")

    def validate_outputs(self, teacher_outputs, student_outputs):
        """Raises a ValueError when the two outputs differ in structure."""
        tree.assert_same_structure(teacher_outputs, student_outputs)

    def validate_model_compatibility(self, teacher, student):
        """Raises a ValueError when this loss cannot compare these two models."""


class FeatureDistillation(DistillationLoss):
    """Compares the teacher's and the student's features (final or intermediate).

    Args:
        loss: the loss between teacher features (as `y_true`) and student
            features: a name, a loss object, or a nested structure of them
            matching the outputs, with None for outputs to skip. Default
            `"mse"`.
        teacher_layer_name: the teacher layer whose output is compared
            (None: the teacher's final output).
        student_layer_name: the student layer whose output is compared
            (None: the student's final output).

    >>> import numpy as np
    >>> loss = FeatureDistillation(loss="mae")
    >>> float(loss.compute_loss(np.array([[1.0, 2.0]]), np.array([[0.0, 2.0]])))
    0.5
    """

    def __init__(self, loss="mse", teacher_layer_name=None, student_layer_name=None):
        self.teacher_layer_name = teacher_layer_name
        self.student_layer_name = student_layer_name
        self.loss = _resolve_losses(loss, "FeatureDistillation")

    def validate_model_compatibility(self, teacher, student):
        if self.teacher_layer_name is None and self.student_layer_name is None:
            return
        without_graph = [role for role, model in (("teacher", teacher), ("student", student))
                         if _symbolic_inputs(model) is None]
        if without_graph:
            raise ValueError(
                "FeatureDistillation with layer names needs functional or Sequential models, "
                f"whose layers have symbolic outputs; the {' and '.join(without_graph)} "
                "model(s) have no symbolic inputs (subclassed, or never built on an Input). "
                "Use it without layer names, or use LogitsDistillation. Received: "
                f"teacher_layer_name={self.teacher_layer_name!r}, "
                f"student_layer_name={self.student_layer_name!r}")
        for role, model, name in (("teacher", teacher, self.teacher_layer_name),
                                  ("student", student, self.student_layer_name)):
            if name is not None:
                try:
                    model.get_layer(name=name)
                except ValueError as error:
                    raise ValueError(f"In {role} model: {error}") from None

    def validate_outputs(self, teacher_outputs, student_outputs):
        super().validate_outputs(teacher_outputs, student_outputs)
        try:
            tree.assert_same_structure(self.loss, teacher_outputs)
        except (ValueError, TypeError) as error:
            raise ValueError(
                "FeatureDistillation's `loss` must have the structure of the outputs it "
                f"compares. Received: loss structure {tree.map_structure(lambda _: '*', self.loss)}"
                f" for outputs of structure {tree.map_structure(lambda _: '*', teacher_outputs)}"
                f" ({error})") from None

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        def apply(loss_fn, teacher, student):
            return 0.0 if loss_fn is None else ops.mean(loss_fn(teacher, student))

        return _summed(tree.map_structure(apply, self.loss, teacher_outputs, student_outputs))

    def get_config(self):
        return {"loss": _serialize_losses(self.loss),
                "teacher_layer_name": self.teacher_layer_name,
                "student_layer_name": self.student_layer_name}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = _deserialize_losses(config["loss"])
        return cls(**config)


class LogitsDistillation(DistillationLoss):
    """Compares temperature-scaled logits of the teacher and the student.

    Both outputs are divided by `temperature` before `loss` compares them.
    A `losses.KLDivergence` instance is given the softmax of each and its
    value scaled by `temperature ** 2` (Hinton et al.); any other loss,
    including the default name `"kl_divergence"` (the loss function), sees
    the scaled logits themselves, as in Keras 3.15.

    Args:
        temperature: a positive number, default 3.0.
        loss: a name, a loss object, or a nested structure of them matching
            the outputs (None skips an output). Default `"kl_divergence"`.

    >>> import numpy as np
    >>> from hikeras import losses
    >>> loss = LogitsDistillation(temperature=1.0, loss=losses.KLDivergence())
    >>> float(loss.compute_loss(np.array([[2.0, 0.0]]), np.array([[2.0, 0.0]])))
    0.0
    """

    def __init__(self, temperature=3.0, loss="kl_divergence"):
        self.loss = _resolve_losses(loss, "LogitsDistillation")
        if isinstance(temperature, bool) or not isinstance(temperature, (int, float)):
            raise ValueError(  # noqa: TRY004 - Keras raises a ValueError here
                f"`temperature` must be a number. Received: temperature={temperature!r}")
        if temperature <= 0:
            raise ValueError(f"`temperature` must be positive. Received: "
                             f"temperature={temperature}")
        self.temperature = temperature

    def compute_loss(self, teacher_outputs, student_outputs, **kwargs):
        def scaled(x):
            return ops.divide(x, self.temperature)

        def apply(loss_fn, teacher, student):
            if loss_fn is None:
                return 0.0
            teacher, student = scaled(teacher), scaled(student)
            if isinstance(loss_fn, losses.KLDivergence):
                value = ops.mean(loss_fn(ops.softmax(teacher, axis=-1),
                                         ops.softmax(student, axis=-1)))
                return value * self.temperature ** 2
            return ops.mean(loss_fn(teacher, student))

        return _summed(tree.map_structure(apply, self.loss, teacher_outputs, student_outputs))

    def get_config(self):
        return {"temperature": self.temperature,
                "loss": _serialize_losses(self.loss)}

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["loss"] = _deserialize_losses(config["loss"])
        return cls(**config)


def _symbolic_inputs(model):
    """A model's symbolic inputs, or None for a model without a graph."""
    try:
        return getattr(model, "inputs", None) or None
    except (AttributeError, ValueError):
        return None
