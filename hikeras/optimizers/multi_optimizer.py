"""`OptimizerMap` and `MultiOptimizer`: different optimizers for different variables.

An `OptimizerMap` picks an optimizer by variable path (`"encoder/dense/kernel"`):
an exact key first, then keys read as regular expressions (`"encoder/.*"`),
else the default. A `MultiOptimizer` applies each gradient with the optimizer
its variable maps to, and counts one step for all of them.
"""

import re
from collections.abc import MutableMapping

from ..serialization import serialize_keras_object
from .loss_scale_optimizer import LossScaleOptimizer
from .optimizer import Optimizer


def _check_inner(optimizer, where):
    if not isinstance(optimizer, Optimizer):
        raise TypeError(f"{where} must be an Optimizer. Received: {optimizer!r}")
    if isinstance(optimizer, (LossScaleOptimizer, MultiOptimizer)):
        raise TypeError(f"{where} cannot be a {type(optimizer).__name__}. "
                        f"Received: {optimizer!r}")


class OptimizerMap(MutableMapping):
    """Maps variable paths (or path patterns) to optimizers.

    Args:
        default_optimizer: the optimizer of every variable no key matches.
        optimizer_map: a dict `{path or pattern: optimizer}`.
    """

    def __init__(self, default_optimizer, optimizer_map=None):
        _check_inner(default_optimizer, "default_optimizer")
        if optimizer_map is not None and not isinstance(optimizer_map, dict):
            raise TypeError(f"optimizer_map must be a dictionary. "
                            f"Received: optimizer_map={optimizer_map!r}")
        self._default_optimizer = default_optimizer
        self._optimizer_map = {}
        for key, optimizer in (optimizer_map or {}).items():
            self[key] = optimizer

    @property
    def default_optimizer(self):
        return self._default_optimizer

    def __getitem__(self, key):
        if key in self._optimizer_map:
            return self._optimizer_map[key]
        matches = [pattern for pattern in self._optimizer_map if re.fullmatch(pattern, key)]
        if len(matches) > 1:
            raise ValueError(f"Multiple optimizers assigned to variable {key}: the patterns "
                             f"{matches} all match it.")
        return self._optimizer_map[matches[0]] if matches else self._default_optimizer

    def __setitem__(self, key, optimizer):
        if not isinstance(key, str):
            raise TypeError(f"key must be a string. Received: key={key!r}")
        if key in self._optimizer_map:
            raise ValueError(f"'{key}' already exists in the OptimizerMap with value "
                             f"{self._optimizer_map[key]!r}. Received: key={key!r}")
        _check_inner(optimizer, "optimizer")
        self._optimizer_map[key] = optimizer

    def __delitem__(self, key):
        del self._optimizer_map[key]

    def __len__(self):
        return len(self._optimizer_map)

    def __iter__(self):
        return iter(self._optimizer_map)

    def __call__(self, variable):
        return self[variable.path]

    def get_config(self):
        return {"default_optimizer": serialize_keras_object(self._default_optimizer),
                "optimizer_map": {k: serialize_keras_object(v)
                                  for k, v in self._optimizer_map.items()}}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        rebuild = LossScaleOptimizer.deserialize_inner  # the family's `deserialize`
        return cls(rebuild(config["default_optimizer"], custom_objects),
                   {k: rebuild(v, custom_objects)
                    for k, v in (config.get("optimizer_map") or {}).items()})


class MultiOptimizer(Optimizer):
    """Applies each variable's gradient with the optimizer an `OptimizerMap` picks.

    Args:
        optimizer_map: an `OptimizerMap`, or a callable `variable -> optimizer`.
        loss_scale_factor: set on every inner optimizer.
        name: the optimizer's name.

    It has no learning rate of its own: set it on the inner optimizers.
    """

    def __init__(self, optimizer_map, loss_scale_factor=None, name=None):
        if not callable(optimizer_map):
            raise TypeError("optimizer_map must be an OptimizerMap or a callable returning an "
                            f"optimizer per variable. Received: optimizer_map={optimizer_map!r}")
        super().__init__(learning_rate=0.0, loss_scale_factor=loss_scale_factor, name=name)
        self._optimizer_map = optimizer_map
        self._inner = []
        known = list(getattr(optimizer_map, "values", list)())
        default = getattr(optimizer_map, "default_optimizer", None)
        for optimizer in known + ([default] if default is not None else []):
            self._add_inner(optimizer)
        self._owner = {}

    def _add_inner(self, optimizer):
        if not any(optimizer is known for known in self._inner):
            optimizer.loss_scale_factor = self.loss_scale_factor
            self._inner.append(optimizer)

    @property
    def optimizers(self):
        """The inner optimizers."""
        return list(self._inner)

    @property
    def learning_rate(self):
        if "_inner" not in self.__dict__:
            return Optimizer.learning_rate.fget(self)
        raise AttributeError("A MultiOptimizer has no learning rate of its own; read it on the "
                             "individual inner optimizers (`optimizers`).")

    @learning_rate.setter
    def learning_rate(self, value):
        if "_inner" not in self.__dict__:  # the base constructor's placeholder rate
            Optimizer.learning_rate.fset(self, value)
            return
        raise AttributeError("A MultiOptimizer has no learning rate of its own; set it on the "
                             "individual inner optimizers (`optimizers`).")

    @property
    def variables(self):
        return list(self._variables) + [v for opt in self._inner for v in opt.variables]

    def build(self, var_list):
        var_list = list(var_list)
        groups = {}
        for variable in var_list:
            optimizer = self._optimizer_map(variable)
            _check_inner(optimizer, f"the optimizer of variable '{variable.path}'")
            self._add_inner(optimizer)
            self._owner[id(variable)] = optimizer
            groups.setdefault(id(optimizer), []).append(variable)
        for optimizer in self._inner:
            if id(optimizer) in groups and not optimizer.built:
                optimizer.build(groups[id(optimizer)])
        super().build(var_list)

    def apply(self, grads, trainable_variables=None):
        grads = list(grads)
        if not grads:
            return
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `trainable_variables`, the "
                                 "optimizer must already be built; call "
                                 "`optimizer.build(trainable_variables)` first.")
            trainable_variables = self._trainable_variables
        trainable_variables = list(trainable_variables)
        if not self.built:
            self.build(trainable_variables)
        self._check_variables_are_known(trainable_variables)
        if len(grads) != len(trainable_variables):
            raise ValueError(f"Expected one gradient per variable ({len(trainable_variables)})."
                             f" Received: {len(grads)} gradients")
        for optimizer in self._inner:
            pairs = [(g, v) for g, v in zip(grads, trainable_variables)
                     if self._owner[id(v)] is optimizer]
            if pairs:
                sub_grads, sub_vars = zip(*pairs)
                optimizer.apply(list(sub_grads), list(sub_vars))
        self._iterations.value += 1

    def finalize_variable_values(self, var_list):
        for optimizer in self._inner:
            mine = [v for v in var_list if self._owner.get(id(v)) is optimizer]
            if mine:
                optimizer.finalize_variable_values(mine)

    def get_config(self):
        if not isinstance(self._optimizer_map, OptimizerMap):
            raise TypeError(
                "Only a MultiOptimizer built on an OptimizerMap can be serialised (a callable "
                f"map cannot). Received: optimizer_map={self._optimizer_map!r}")
        return {"optimizer_map": {"class_name": "OptimizerMap",
                                  "config": self._optimizer_map.get_config()},
                "loss_scale_factor": self.loss_scale_factor, "name": self.name}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        mapping = config.pop("optimizer_map")
        if isinstance(mapping, dict) and mapping.get("class_name") == "OptimizerMap":
            mapping = OptimizerMap.from_config(mapping["config"], custom_objects)
        return cls(mapping, **config)
