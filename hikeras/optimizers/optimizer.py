"""The `Optimizer` base class: Keras 3's optimizer API on in-place backend updates.

One call of `apply(grads, trainable_variables)` is one training step: drop the
variables whose gradient is None, clip the gradients, apply decoupled weight
decay, run `update_step(gradient, variable, learning_rate)` for every
variable, update the moving averages (`use_ema`), then count the step.
With `gradient_accumulation_steps=n`, only every n-th call updates the
variables, with the mean of the n gradients; the others only accumulate.

State lives in non-trainable `Variable`s listed by `optimizer.variables` in
Keras 3's order: `iterations`, the learning rate (when it is a float, not a
schedule), the moving averages (`use_ema`), the gradient accumulators, then
the slots a subclass creates in `build`. Slots belong to one
variable each (keyed by the variable object), so an optimizer built for one
model refuses variables it has never seen rather than mixing up slots.

The arithmetic of a step runs in the backend: each built-in optimizer's
`update_step` calls one fused update op (`hikeras.ops.updates`), which writes the
variable and its slots in place, and so do weight decay and the moving
averages. A backend that overrides those ops speeds up every optimizer. A
custom subclass may also write `update_step` in plain numpy, in place.
"""

import inspect
import re
import warnings

import numpy as np

from .. import backend, initializers
from ..backend import Tensor, floatx
from ..ops import updates
from ..serialization import serialize_keras_object
from ..variables import Variable
from ._clipping import clip_by_global_norm, clip_by_norm, clip_by_value
from .schedules import deserialize as deserialize_schedule

# Keys of Keras configs that have no effect here (XLA, TF1-era optimizers).
_IGNORED_KERAS_ARGS = ("is_legacy_optimizer", "jit_compile")


def _snake_case(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def _shortest_float(value):
    """The shortest decimal that rounds to `value` in its dtype.

    A float32 learning rate of 0.001 reads back as 0.001, not 0.0010000000474974513.
    """
    return float(str(value[()]))


class LearningRateValue(float):
    """A learning rate read from its variable: a float that can also be assigned."""

    def __new__(cls, value, variable):
        instance = super().__new__(cls, value)
        instance.variable = variable
        return instance

    def assign(self, value):
        self.variable.assign(np.asarray(value, dtype=self.variable.dtype))

    def assign_add(self, delta):
        self.assign(np.asarray(self.variable.value) + delta)

    def assign_sub(self, delta):
        self.assign(np.asarray(self.variable.value) - delta)

    def numpy(self):
        return np.asarray(self.variable.value)


def _takes_step(schedule):
    """Whether `schedule` is called with the step (Keras schedules) or with nothing."""
    try:
        params = inspect.signature(schedule).parameters.values()
    except (TypeError, ValueError):
        return True
    return any(p.kind in (p.POSITIONAL_ONLY, p.POSITIONAL_OR_KEYWORD, p.VAR_POSITIONAL)
               for p in params)


class Optimizer:
    """Base class of optimizers.

    Args:
        learning_rate: a float, or a schedule: a callable given the iteration
            count (`schedule(step)`, like Keras's `LearningRateSchedule`) or a
            callable with no arguments. Evaluated once per step.
        weight_decay: if set, every step first does
            `var -= var * weight_decay * learning_rate` (decoupled decay).
        clipnorm: if set, each gradient is rescaled to an L2 norm of at most this.
        clipvalue: if set, each gradient is clipped elementwise to `[-clipvalue, clipvalue]`.
        global_clipnorm: if set, all gradients are rescaled together so their
            joint L2 norm is at most this. At most one of the three clip options.
        use_ema: keep an exponential moving average of every variable,
            `average = ema_momentum * average + (1 - ema_momentum) * variable`
            after each step (the first step copies the variable). `fit` writes
            the averages into the model at the end (`finalize_variable_values`).
        ema_momentum: the averaging momentum, in `[0, 1]`. Defaults to `0.99`.
        ema_overwrite_frequency: with `use_ema`, also write the averages into
            the variables every this many steps. Defaults to None (never).
        loss_scale_factor: if set, gradients are divided by it (see `scale_loss`).
        gradient_accumulation_steps: an int >= 2: update the variables every
            this many calls, with the mean of the accumulated gradients.
            `iterations` then counts updates, not calls.
        name: the optimizer's name, used as the prefix of its variables' paths.

    A subclass creates its slots in `build` (after `super().build(var_list)`)
    with `add_optimizer_variables` and implements `update_step`.

    >>> import numpy as np
    >>> from hikeras.backend import Variable
    >>> class HalfStep(Optimizer):
    ...     def update_step(self, gradient, variable, learning_rate):
    ...         variable.value -= 0.5 * learning_rate * gradient
    >>> w = Variable(np.array([1.0]))
    >>> opt = HalfStep(learning_rate=0.2)
    >>> opt.apply([np.array([1.0])], [w])
    >>> w.value.tolist(), int(opt.iterations)
    ([0.9], 1)
    """

    def __init__(self, learning_rate, weight_decay=None, clipnorm=None, clipvalue=None,
                 global_clipnorm=None, use_ema=False, ema_momentum=0.99,
                 ema_overwrite_frequency=None, loss_scale_factor=None,
                 gradient_accumulation_steps=None, name=None, **kwargs):
        self._accept_keras_kwargs(kwargs)
        self._check_averaging_args(use_ema, ema_momentum, ema_overwrite_frequency,
                                   gradient_accumulation_steps)
        if sum(arg is not None for arg in (clipnorm, clipvalue, global_clipnorm)) > 1:
            raise ValueError(
                "Only one of `clipnorm`, `clipvalue` and `global_clipnorm` can be set. "
                f"Received: clipnorm={clipnorm}, clipvalue={clipvalue}, "
                f"global_clipnorm={global_clipnorm}"
            )
        self.name = name or _snake_case(type(self).__name__)
        self.weight_decay = weight_decay
        self.clipnorm = clipnorm
        self.clipvalue = clipvalue
        self.global_clipnorm = global_clipnorm
        self.loss_scale_factor = loss_scale_factor
        self.use_ema = bool(use_ema)
        self.ema_momentum = ema_momentum
        self.ema_overwrite_frequency = ema_overwrite_frequency
        self.gradient_accumulation_steps = gradient_accumulation_steps
        self._averages = []
        self._accumulators = []
        self.built = False
        self._variables = []
        self._trainable_variables = []
        self._trainable_variables_indices = {}
        self._exclude_ids = set()
        self._exclude_pattern = None
        self._decay_cache = {}
        self._iterations = Variable(np.array(0, dtype=np.int64), name="iteration",
                                    trainable=False, path=f"{self.name}/iteration")
        self._variables.append(self._iterations)
        self._learning_rate = None
        self.learning_rate = learning_rate

    @staticmethod
    def _check_averaging_args(use_ema, ema_momentum, ema_overwrite_frequency,
                              gradient_accumulation_steps):
        steps = gradient_accumulation_steps
        if steps is not None and (isinstance(steps, bool) or not isinstance(steps, int)
                                  or steps < 2):
            raise ValueError("`gradient_accumulation_steps` must be an integer >= 2. "
                             f"Received: gradient_accumulation_steps={steps!r}")
        if not use_ema:
            return
        if not 0 <= ema_momentum <= 1:
            raise ValueError("`ema_momentum` must be in the range [0, 1]. "
                             f"Received: ema_momentum={ema_momentum!r}")
        frequency = ema_overwrite_frequency
        if frequency is not None and (not isinstance(frequency, int) or frequency < 1):
            raise ValueError("`ema_overwrite_frequency` must be an integer >= 1 or None. "
                             f"Received: ema_overwrite_frequency={frequency!r}")

    @staticmethod
    def _accept_keras_kwargs(kwargs):
        for key in _IGNORED_KERAS_ARGS:
            kwargs.pop(key, None)
        if kwargs.pop("decay", None):
            warnings.warn("Argument `decay` is no longer supported and will be ignored.",
                          stacklevel=3)
        if kwargs:
            raise ValueError(f"Argument(s) not recognized: {kwargs}")

    # -- learning rate and step counter ------------------------------------

    @property
    def iterations(self):
        """The number of updates so far: a non-trainable int64 `Variable`.

        With `gradient_accumulation_steps`, the number of updates (calls
        divided by the steps, rounded down) as an int64 array instead.
        """
        if self.gradient_accumulation_steps:
            return self._iterations.value // self.gradient_accumulation_steps
        return self._iterations

    def _local_step(self):
        """`iterations + 1` as a float: the step number bias corrections use."""
        return float(int(self.iterations) + 1)

    @property
    def learning_rate(self):
        """The learning rate of the next step: a float.

        Unless it comes from a schedule, the float also has the variable's
        `assign`, `assign_add`, `assign_sub` and `numpy`, so Keras 3's
        `optimizer.learning_rate.assign(5e-5)` works (read it again afterwards:
        the float itself keeps the value it was read with).
        """
        value = self._current_learning_rate()
        if isinstance(self._learning_rate, backend.Variable):
            return LearningRateValue(value, self._learning_rate)
        return value

    @learning_rate.setter
    def learning_rate(self, value):
        current = self._learning_rate
        if callable(value):
            if isinstance(current, backend.Variable):  # Keras stops tracking the float variable
                self._variables.remove(current)
            self._learning_rate = value
            self._lr_takes_step = _takes_step(value)
            return
        if isinstance(value, bool) or not isinstance(value, (int, float, np.number)):
            raise ValueError(
                "Argument `learning_rate` should be a float, or a callable schedule taking "
                f"the iteration count. Received: learning_rate={value!r}"
            )
        if current is None:
            self._learning_rate = Variable(np.array(value, dtype=floatx()), name="learning_rate",
                                           trainable=False, path=f"{self.name}/learning_rate")
            self._variables.append(self._learning_rate)
        elif isinstance(current, backend.Variable):
            current.assign(value)
        else:
            raise TypeError(
                "This optimizer was created with a schedule as its `learning_rate`, so its "
                "learning rate cannot be set to a number; create it with a float instead. "
                f"Received: learning_rate={value!r}"
            )

    def _current_learning_rate(self):
        lr = self._learning_rate
        if isinstance(lr, backend.Variable):
            return _shortest_float(lr.value)
        if self._lr_takes_step:
            return float(lr(int(self._iterations.value)))
        return float(lr())

    # -- variables ---------------------------------------------------------

    @property
    def variables(self):
        """All state: `[iterations, learning_rate?, *slots]` in creation order."""
        return list(self._variables)

    def build(self, var_list):
        """Binds the optimizer to `var_list`; subclasses then add their slots.

        Called on the first `apply` when not called before. Call it yourself
        to create the slots before loading saved optimizer state.
        """
        var_list = list(var_list)
        indices = {}
        for i, variable in enumerate(var_list):
            if not isinstance(variable, backend.Variable):
                raise TypeError(f"An optimizer updates `Variable`s. Received: {variable!r} "
                                f"at position {i}")
            if id(variable) in indices:
                raise ValueError(f"Variable '{variable.path}' is listed twice. "
                                 f"Received: var_list of length {len(var_list)}")
            indices[id(variable)] = i
        self._trainable_variables = var_list
        self._trainable_variables_indices = indices
        if self.use_ema:
            self._averages = self.add_optimizer_variables(var_list, "average")
        if self.gradient_accumulation_steps:
            self._accumulators = self.add_optimizer_variables(var_list, "gradient_accumulator")
        self.built = True

    def add_variable(self, shape, initializer="zeros", dtype=None, name=None):
        """Creates and tracks a non-trainable optimizer variable."""
        name = name or "var"
        value = initializers.get(initializer)(tuple(shape), dtype=dtype)
        variable = Variable(value, name=name, trainable=False, path=f"{self.name}/{name}")
        self._variables.append(variable)
        return variable

    def add_variable_from_reference(self, reference_variable, name=None, initializer="zeros"):
        """A slot shaped and typed like `reference_variable`, named after its path."""
        name = f"{reference_variable.path.replace('/', '_')}_{name or 'var'}"
        value = reference_variable.value
        return self.add_variable(value.shape, initializer, dtype=value.dtype, name=name)

    def add_optimizer_variables(self, trainable_variables, name, initializer="zeros"):
        """One slot per variable; with a list of names, a tuple of lists.

        With several names the slots are created interleaved, variable by
        variable (`m_0, v_0, m_1, v_1, ...`), which is Keras 3's order.
        """
        names = [name] if isinstance(name, str) else list(name)
        slots = tuple([] for _ in names)
        for variable in trainable_variables:
            for i, slot_name in enumerate(names):
                slots[i].append(self.add_variable_from_reference(variable, slot_name, initializer))
        return slots[0] if isinstance(name, str) else slots

    def _get_variable_index(self, variable):
        return self._trainable_variables_indices[id(variable)]

    def _check_variables_are_known(self, variables):
        known = self._trainable_variables_indices
        for variable in variables:
            if id(variable) not in known:
                raise ValueError(
                    f"Unknown variable '{getattr(variable, 'path', variable)}': this optimizer "
                    f"was built for {len(known)} other variables and keeps one set of slots "
                    "per variable. Create a new optimizer for a different model, or after "
                    f"changing which variables are trainable. Received: variable={variable!r}"
                )

    # -- applying gradients -------------------------------------------------

    def apply_gradients(self, grads_and_vars):
        """Applies `(gradient, variable)` pairs (any iterable); returns `iterations`."""
        pairs = list(grads_and_vars)
        if pairs:
            grads, variables = zip(*pairs)
            self.apply(grads, variables)
        return self._iterations

    def apply(self, grads, trainable_variables=None):
        """One step. Without `trainable_variables`, `grads` match the built variables."""
        grads = list(grads)
        if not grads:
            return
        if trainable_variables is None:
            if not self.built:
                raise ValueError("When passing `grads` without `trainable_variables`, the "
                                 "optimizer must already be built; call "
                                 "`optimizer.build(trainable_variables)` first.")
            variables = self._trainable_variables
        else:
            variables = list(trainable_variables)
            if not self.built:
                self.build(variables)
            self._check_variables_are_known(variables)
        if len(grads) != len(variables):
            raise ValueError(f"Expected one gradient per variable ({len(variables)}). "
                             f"Received: {len(grads)} gradients")
        grads, variables = self._filter_empty_gradients(grads, variables)
        if self.loss_scale_factor is not None:
            grads = [g / self.loss_scale_factor for g in grads]
        if self.gradient_accumulation_steps:
            grads = self._accumulate(grads, variables)
        if grads is not None:
            grads = self._clip_gradients(grads)
            learning_rate = self._current_learning_rate()
            self._apply_weight_decay(variables, learning_rate)
            self._update_variables(grads, variables, learning_rate)
            for variable in variables:
                if getattr(variable, "constraint", None) is not None:
                    variable.assign(variable.constraint(variable.value))
        if self.use_ema:
            self._update_averages()
        self._iterations.value += 1

    def _update_variables(self, grads, variables, learning_rate):
        """Runs `update_step` per variable; subclasses with per-step state extend it."""
        for gradient, variable in zip(grads, variables):
            self.update_step(gradient, variable, learning_rate)

    def _accumulate(self, grads, variables):
        """Adds `grads` to the accumulators; on every n-th call returns their means.

        Returns None on the calls that only accumulate.
        """
        steps = self.gradient_accumulation_steps
        accumulators = [self._accumulators[self._get_variable_index(v)].value
                        for v in variables]
        if (int(self._iterations.value) + 1) % steps:
            for gradient, accumulator in zip(grads, accumulators):
                accumulator += gradient
            return None
        means = [(gradient + accumulator) / steps
                 for gradient, accumulator in zip(grads, accumulators)]
        for accumulator in self._accumulators:
            accumulator.value[...] = 0
        return means

    def _update_averages(self):
        """One step of the moving averages of all built variables (`use_ema`)."""
        momentum = self.ema_momentum if int(self.iterations) != 0 else 0.0
        for variable, average in zip(self._trainable_variables, self._averages):
            updates.ema_update(average.value, variable.value, momentum=momentum)
        frequency = self.ema_overwrite_frequency
        if frequency and (int(self.iterations) + 1) % frequency == 0:
            self._overwrite_with_averages(self._trainable_variables)

    def _overwrite_with_averages(self, var_list):
        var_list = list(var_list)
        if len(var_list) != len(self._averages):
            raise ValueError(
                f"Expected the {len(self._averages)} variables this optimizer averages. "
                f"Received: {len(var_list)} variables"
            )
        for variable, average in zip(var_list, self._averages):
            variable.value[...] = average.value

    def update_step(self, gradient, variable, learning_rate):
        """Updates `variable.value` in place from a numpy `gradient`; subclasses implement it.

        The built-in optimizers call one op of `hikeras.ops.updates` here.
        """
        raise NotImplementedError(f"{type(self).__name__} must implement `update_step`.")

    @staticmethod
    def _filter_empty_gradients(grads, variables):
        kept_grads, kept_vars, missing = [], [], []
        for gradient, variable in zip(grads, variables):
            if gradient is None:
                missing.append(variable.name)
                continue
            if isinstance(gradient, Tensor):
                gradient = gradient.value
            elif not isinstance(gradient, np.ndarray):
                gradient = np.asarray(gradient)
            if gradient.shape != variable.value.shape:
                raise ValueError(
                    f"Gradient for '{variable.path}' has shape {gradient.shape}, but the "
                    f"variable has shape {variable.value.shape}. Received: "
                    f"gradient.shape={gradient.shape}"
                )
            kept_grads.append(gradient)
            kept_vars.append(variable)
        if not kept_grads:
            raise ValueError("No gradients provided for any variable.")
        if missing:
            warnings.warn(f"Gradients do not exist for variables {missing} when minimizing "
                          "the loss; they were left unchanged.", stacklevel=3)
        return kept_grads, kept_vars

    def _clip_gradients(self, grads):
        if self.clipnorm and self.clipnorm > 0:
            return [clip_by_norm(g, self.clipnorm) for g in grads]
        if self.global_clipnorm and self.global_clipnorm > 0:
            return clip_by_global_norm(grads, self.global_clipnorm)
        if self.clipvalue and self.clipvalue > 0:
            return [clip_by_value(g, self.clipvalue) for g in grads]
        return grads

    def exclude_from_weight_decay(self, var_list=None, var_names=None):
        """Exempts variables from weight decay, by object or by a name substring (regex)."""
        self._exclude_ids = {id(v) for v in var_list or ()}
        self._exclude_pattern = re.compile("|".join(var_names)) if var_names else None
        self._decay_cache = {}

    def _use_weight_decay(self, variable):
        key = id(variable)
        if key not in self._decay_cache:
            excluded = key in self._exclude_ids or (
                self._exclude_pattern is not None
                and self._exclude_pattern.search(variable.name) is not None)
            self._decay_cache[key] = not excluded
        return self._decay_cache[key]

    def _apply_weight_decay(self, variables, learning_rate):
        if not self.weight_decay:
            return
        for variable in variables:
            if self._use_weight_decay(variable):
                updates.weight_decay_update(variable.value, learning_rate=learning_rate,
                                            weight_decay=self.weight_decay)

    # -- Keras helpers ----------------------------------------------------

    def assign(self, variable, value):
        variable.assign(value)

    def assign_add(self, variable, value):
        variable.assign_add(value)

    def assign_sub(self, variable, value):
        variable.assign_sub(value)

    def scale_loss(self, loss):
        """`loss * loss_scale_factor` when one is set (undone on the gradients in `apply`)."""
        return loss if self.loss_scale_factor is None else loss * self.loss_scale_factor

    def finalize_variable_values(self, var_list):
        """Called at the end of `fit`: with `use_ema`, writes the averages into `var_list`."""
        if self.use_ema and self.built:
            self._overwrite_with_averages(var_list)

    # -- state and config -------------------------------------------------

    def set_weights(self, weights):
        """Writes arrays into `variables`, in order (the optimizer must be built)."""
        if not self.built:
            raise ValueError("Call `optimizer.build(trainable_variables)` before `set_weights`.")
        weights = list(weights)
        if len(weights) != len(self._variables):
            raise ValueError(f"Expected {len(self._variables)} arrays, one per optimizer "
                             f"variable. Received: {len(weights)} arrays")
        for variable, weight in zip(self._variables, weights):
            if np.shape(weight) != variable.value.shape:
                raise ValueError(f"Optimizer variable '{variable.path}' has shape "
                                 f"{variable.value.shape}. Received: shape {np.shape(weight)}")
            variable.assign(weight)

    def save_own_variables(self, store):
        """Writes every variable into `store` under keys `"0"`, `"1"`, ... (Keras's layout)."""
        for i, variable in enumerate(self._variables):
            store[str(i)] = np.array(variable.value)

    def load_own_variables(self, store):
        """Reads the layout written by `save_own_variables`."""
        if len(store.keys()) != len(self._variables):
            raise ValueError(
                f"Optimizer '{self.name}' has {len(self._variables)} variables (is it built?), "
                f"the saved state has {len(store.keys())}. Received: keys={sorted(store.keys())}"
            )
        self.set_weights([store[str(i)] for i in range(len(self._variables))])

    def get_config(self):
        """The constructor arguments; a schedule is serialised with its config."""
        lr = self._learning_rate
        lr = _shortest_float(lr.value) if isinstance(lr, backend.Variable) else serialize_keras_object(lr)
        return {
            "name": self.name, "learning_rate": lr, "weight_decay": self.weight_decay,
            "clipnorm": self.clipnorm, "global_clipnorm": self.global_clipnorm,
            "clipvalue": self.clipvalue, "use_ema": self.use_ema,
            "ema_momentum": self.ema_momentum,
            "ema_overwrite_frequency": self.ema_overwrite_frequency,
            "loss_scale_factor": self.loss_scale_factor,
            "gradient_accumulation_steps": self.gradient_accumulation_steps,
        }

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Rebuilds an optimizer (without its state) from `get_config`'s output."""
        config = dict(config)
        if isinstance(config.get("learning_rate"), (dict, str)):
            config["learning_rate"] = deserialize_schedule(config["learning_rate"],
                                                           custom_objects)
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name} iterations={int(self._iterations)}>"

