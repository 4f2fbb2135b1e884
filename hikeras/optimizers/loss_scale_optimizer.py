"""`LossScaleOptimizer`: dynamic loss scaling around another optimizer.

The loss is multiplied by a scale before differentiation (`scale_loss`, which
`fit` calls), and the gradients divided by it before the inner optimizer
steps. A step whose gradients hold an inf or NaN is skipped and halves the
scale; `dynamic_growth_steps` finite steps in a row double it. In float16
this keeps small gradients from flushing to zero; in float32 it costs
nothing and catches overflowing steps.
"""

import numpy as np

from ..serialization import serialize_keras_object
from .optimizer import Optimizer


class LossScaleOptimizer(Optimizer):
    """Scales the loss dynamically and unscales the gradients for `inner_optimizer`.

    `hikeras.optimizers` sets `deserialize_inner` to its `deserialize`, so that
    `from_config` can rebuild the inner optimizer by name.

    Args:
        inner_optimizer: the optimizer that applies the unscaled gradients.
        initial_scale: the first loss scale. Defaults to `2**15`.
        dynamic_growth_steps: finite steps in a row after which the scale doubles.
        name: the optimizer's name.
    """

    deserialize_inner = None

    def __init__(self, inner_optimizer, initial_scale=32768.0, dynamic_growth_steps=2000,
                 name=None, **kwargs):
        if not isinstance(inner_optimizer, Optimizer):
            raise TypeError("LossScaleOptimizer expects an Optimizer to wrap. "
                            f"Received: inner_optimizer={inner_optimizer!r}")
        if isinstance(inner_optimizer, LossScaleOptimizer):
            raise TypeError("LossScaleOptimizer cannot wrap another LossScaleOptimizer. "
                            f"Received: inner_optimizer={inner_optimizer!r}")
        if not initial_scale > 0:
            raise ValueError("`initial_scale` must be positive. "
                             f"Received: initial_scale={initial_scale!r}")
        if isinstance(dynamic_growth_steps, bool) or not isinstance(dynamic_growth_steps, int) \
                or dynamic_growth_steps < 1:
            raise ValueError("`dynamic_growth_steps` must be a positive integer. "
                             f"Received: dynamic_growth_steps={dynamic_growth_steps!r}")
        super().__init__(learning_rate=0.0, name=name, **kwargs)
        self.inner_optimizer = inner_optimizer
        # The inner optimizer's own loss_scale_factor would scale a second time.
        inner_optimizer.loss_scale_factor = None
        self.initial_scale = float(initial_scale)
        self.dynamic_growth_steps = dynamic_growth_steps
        self.step_counter = None
        self.dynamic_scale = None

    def build(self, var_list):
        self.step_counter = self.add_variable((), "zeros", dtype="int64", name="step_counter")
        self.dynamic_scale = self.add_variable((), "zeros", dtype="float32",
                                               name="dynamic_scale")
        self.dynamic_scale.assign(np.array(self.initial_scale, "float32"))
        self.inner_optimizer.build(var_list)
        super().build(var_list)

    @property
    def variables(self):
        return list(self._variables) + self.inner_optimizer.variables

    @property
    def learning_rate(self):
        return self.inner_optimizer.learning_rate

    @learning_rate.setter
    def learning_rate(self, value):
        if "inner_optimizer" not in self.__dict__:  # the base constructor's own rate
            Optimizer.learning_rate.fset(self, value)
        else:
            self.inner_optimizer.learning_rate = value

    @property
    def iterations(self):
        return self.inner_optimizer.iterations

    def scale_loss(self, loss):
        """`loss` times the current scale."""
        scale = float(self.dynamic_scale.value) if self.built else self.initial_scale
        return loss * scale

    def apply(self, grads, trainable_variables=None):
        grads = list(grads)
        if not self.built:
            if trainable_variables is None:
                raise ValueError("When passing `grads` without `trainable_variables`, the "
                                 "optimizer must already be built; call "
                                 "`optimizer.build(trainable_variables)` first.")
            self.build(list(trainable_variables))
        scale = float(self.dynamic_scale.value)
        values = [None if g is None else np.asarray(getattr(g, "value", g)) for g in grads]
        if all(v is None or np.isfinite(v).all() for v in values):
            unscaled = [None if v is None else v / np.asarray(scale, v.dtype) for v in values]
            self.inner_optimizer.apply(unscaled, trainable_variables)
            if int(self.step_counter.value) == self.dynamic_growth_steps - 1:
                self.step_counter.assign(np.array(0, "int64"))
                self.dynamic_scale.assign(np.array(scale * 2.0, "float32"))
            else:
                self.step_counter.assign(self.step_counter.value + 1)
        else:  # skip the step, try a smaller scale next time
            self.step_counter.assign(np.array(0, "int64"))
            self.dynamic_scale.assign(np.array(scale * 0.5, "float32"))

    def finalize_variable_values(self, var_list):
        self.inner_optimizer.finalize_variable_values(var_list)

    def get_config(self):
        return {"name": self.name,
                "inner_optimizer": serialize_keras_object(self.inner_optimizer),
                "initial_scale": self.initial_scale,
                "dynamic_growth_steps": self.dynamic_growth_steps}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        inner = cls.deserialize_inner(config.pop("inner_optimizer"), custom_objects)
        return cls(inner, **config)
