"""`Layer`: the base class of every layer and model.

The protocol is Keras's: `__init__` stores configuration, `build(input_shape)`
creates weights with `add_weight`, `call(inputs, training=None)` computes,
`get_config`/`from_config` round-trip. Calling a layer on `KerasTensor`s
records a `Node` instead of computing (the functional API); calling it on
arrays computes.

Names: a layer created without `name` is called by its snake-case class name
until a model gives it a name unique among the model's layers
(`dense`, `dense_1`, ...). Naming per model, instead of Keras's process-wide
counters, means building the same architecture twice gives the same names.
"""

import functools
import inspect
import re
import threading

import numpy as np

from .. import constraints, initializers, ops, regularizers
from ..backend import SymbolicTensor
from ..dtype_policies import DTypePolicy
from ..dtype_policies import serialize as serialize_policy
from ..metrics.metric import Metric
from ..ops.core import tracing_layer_call
from ..ops.operation import Operation
from ..scopes import StatelessScope, SymbolicScope, current_path, get_stateless_scope
from ..serialization.limits import charge_weight
from ..utils import tree
from ..utils.dtype_utils import standardize_dtype
from ..variables import Variable
from . import autocasting
from .input_spec import check_input_spec
from .layer_table import deserialize
from .node import KerasHistory, KerasTensor, Node

_context = threading.local()


def current_training():
    """The `training` flag of the enclosing layer call, or None."""
    return getattr(_context, "training", None)


def to_snake_case(name):
    """`"BatchNormalization"` -> `"batch_normalization"`, `"Conv2D"` -> `"conv2d"`."""
    name = re.sub(r"(.)([A-Z][a-z]+)", r"\1_\2", name)
    return re.sub(r"([a-z])([A-Z])", r"\1_\2", name).lower()


_BASE_KWARGS = ("input_shape", "batch_input_shape", "batch_size", "input_dim", "batch_shape")
_JSON_SCALARS = (type(None), bool, int, float, str)


def _is_plain_value(value):
    if isinstance(value, (list, tuple)):
        return all(_is_plain_value(v) for v in value)
    if isinstance(value, dict):
        return all(isinstance(k, str) and _is_plain_value(v) for k, v in value.items())
    return isinstance(value, _JSON_SCALARS)


def auto_config_arguments(layer):
    """`(recorded, left_out)`: the constructor arguments a layer was given, as Keras 3
    records them for a subclass without its own `get_config()`.

    Plain values (numbers, strings, lists and dicts of them) are recorded;
    `left_out` names the others, which a config cannot hold.
    """
    args, kwargs = getattr(layer, "_constructor_arguments", ((), {}))
    try:
        bound = inspect.signature(type(layer).__init__).bind(layer, *args, **kwargs)
    except TypeError:
        return {}, []
    recorded, left_out = {}, []
    for name, value in list(bound.arguments.items())[1:]:
        parameter = bound.signature.parameters[name]
        if parameter.kind is parameter.VAR_KEYWORD:
            continue
        if parameter.kind is parameter.VAR_POSITIONAL:
            left_out.append(name)
        elif _is_plain_value(value):
            recorded[name] = list(value) if isinstance(value, tuple) else value
        else:
            left_out.append(name)
    return recorded, left_out


class Layer(Operation):
    """Base class for layers: an `Operation` with weights, as in Keras 3.

    Args:
        trainable: whether the layer's weights are updated by training.
        name: the layer's name; unique within a model.
        dtype: a dtype or a `DTypePolicy` (default: the global policy). A
            mixed policy (`"mixed_float16"`) keeps the weights in float32 and
            computes in half precision (see docs/mixed_precision.md).
        autocast: whether a mixed policy casts floating inputs and weights to
            the compute dtype when the layer is called.
        input_shape / batch_input_shape / batch_shape / input_dim: for the
            first layer of a `Sequential` model, declare its input.

    >>> import numpy as np
    >>> from hikeras import layers
    >>> layer = layers.Dense(3)
    >>> layer(np.ones((2, 4), "float32")).shape
    (2, 3)
    >>> [w.shape for w in layer.get_weights()]
    [(4, 3), (3,)]
    """

    # hikeras has no compiler: nothing is ever jit-compiled (Keras's flag, read by its trainers).
    supports_jit = False

    def __init_subclass__(cls, **kwargs):
        """Wraps a subclass's `build` so that calling it directly marks the layer built.

        Users call `layer.build(shape)` themselves (as in Keras); without this
        the first call on data would build again and create duplicate weights.
        """
        super().__init_subclass__(**kwargs)
        build = cls.__dict__.get("build")
        if build is not None and not getattr(build, "_marks_built", False):
            @functools.wraps(build)
            def wrapped(self, *args, **kw):
                result = build(self, *args, **kw)
                self.built = True
                if getattr(self, "_build_shapes", None) is None and len(args) == 1:
                    self._build_shapes = args[0]  # for get_build_config
                return result

            wrapped._marks_built = True
            cls.build = wrapped

    def __new__(cls, *args, **kwargs):
        # Kept for `get_config` of subclasses that do not write their own (see there).
        instance = super().__new__(cls)
        instance._constructor_arguments = (args, kwargs)
        return instance

    def __init__(self, trainable=True, name=None, dtype=None, autocast=True, **kwargs):
        unknown = set(kwargs) - set(_BASE_KWARGS)
        if unknown:
            raise TypeError(
                f"Unrecognized keyword arguments passed to {type(self).__name__}: "
                f"{sorted(unknown)}. Received: kwargs={kwargs}"
            )
        if name is not None and (not isinstance(name, str) or not name or "/" in name):
            raise ValueError(
                "A layer name must be a non-empty string without '/'. "
                f"Received: name={name!r}"
            )
        self._name = name
        self._auto_name = None
        self._trainable = bool(trainable)
        self._dtype_policy = autocasting.mixed_policy_of(dtype)  # None unless mixed
        self.dtype = standardize_dtype(dtype)  # a mixed policy's variable dtype
        self.autocast = bool(autocast)
        self.built = False
        self.input_spec = None
        self._trainable_variables = []
        self._non_trainable_variables = []
        self._layers = []
        self._metrics = []  # Metric objects assigned as attributes (Keras 3 tracks them)
        self._regularized = []  # (variable, regularizer)
        self.activity_regularizer = None
        self._activity_losses = []
        self._added_losses = []  # from add_loss during the latest call
        self._inbound_nodes = []
        self._build_shapes = None
        self._batch_input_shape = _declared_input_shape(kwargs)
        self._call_signature = inspect.signature(self.call)
        sig = self._call_signature.parameters
        self._call_has_training = "training" in sig
        # A non-None default of `call`'s `training` applies when neither the
        # caller nor an enclosing call says (Keras 3: augmentation layers
        # default to `training=True`, so calling one directly augments).
        default = sig["training"].default if self._call_has_training else None
        self._call_training_default = None if default is inspect.Parameter.empty else default
        self._call_has_mask = "mask" in sig
        # Arguments with a `<name>_mask` partner (`query`/`query_mask`, ...): as
        # in Keras 3, models pass each one's mask there (`_argument_masks`).
        self._call_masked_arguments = tuple(
            name for name in sig if name != "mask" and f"{name}_mask" in sig)
        # As Keras 3: a layer that overrides `compute_mask` supports masking.
        self.supports_masking = type(self).compute_mask is not Layer.compute_mask

    # ----------------------------------------------------------------- naming
    @property
    def name(self):
        return self._name or self._auto_name or self._base_name()

    @property
    def path(self):
        """The layer's path, which prefixes its variables' paths (`"dense/kernel"`): its
        name, after the `name_scope`s it was built in (`"outer/dense"`)."""
        return f"{getattr(self, '_path_prefix', '')}{self.name}"

    def _base_name(self):
        """The stem of automatic names: the snake-case class name."""
        return to_snake_case(type(self).__name__)

    @name.setter
    def name(self, value):
        self._name = value
        self._update_weight_paths()

    def _set_auto_name(self, name):
        self._auto_name = name
        self._update_weight_paths()

    def _update_weight_paths(self):
        prefix = getattr(self, "_path_prefix", "")
        for v in self._trainable_variables + self._non_trainable_variables:
            v.path = f"{prefix}{self.name}/{v.name}"

    # ---------------------------------------------------------- attribute tracking
    def __setattr__(self, name, value):
        """Tracks sublayers and metrics assigned as attributes (alone, or as a list or
        dict of them, as Keras does)."""
        for kind, tracked in ((Layer, "_layers"), (Metric, "_metrics")):
            if tracked not in self.__dict__:
                continue
            if isinstance(value, kind):
                _track(self.__dict__[tracked], [value])
                continue
            items = list(value.values()) if isinstance(value, dict) else value
            if (isinstance(items, (list, tuple)) and items and not name.startswith("_")
                    and all(isinstance(v, kind) for v in items)):
                _track(self.__dict__[tracked], items)
        object.__setattr__(self, name, value)

    # ------------------------------------------------------------------ weights
    def add_weight(self, *, shape=None, initializer=None, dtype=None, trainable=True,
                   autocast=True, regularizer=None, constraint=None, name=None):
        """Creates a weight variable owned by this layer.

        Args:
            shape: the variable's shape (default scalar).
            initializer: initialiser name/object; default `glorot_uniform`
                for floats and `zeros` otherwise (as Keras).
            dtype: default the layer's dtype.
            trainable: whether optimizers update it.
            autocast: whether a mixed-precision call reads it in the compute
                dtype (False for weights that must stay float32).
            regularizer: penalty added to `layer.losses`.
            constraint: projection applied after each optimizer update.
            name: the variable's short name (e.g. `"kernel"`).
        """
        shape = () if shape is None else tuple(int(d) for d in shape)
        dtype = standardize_dtype(dtype or self.dtype)
        charge_weight(shape, dtype, self.name, name or "variable")  # a loader's budget
        if initializer is None:
            initializer = "glorot_uniform" if np.issubdtype(dtype, np.floating) else "zeros"
        init = initializers.get(initializer)
        value = np.asarray(init(shape, dtype=dtype), dtype=dtype)
        if not hasattr(self, "_path_prefix"):  # the `name_scope` the layer is built in
            self._path_prefix = f"{current_path()}/" if current_path() else ""
        var = Variable(value, name=name or "variable", trainable=trainable,
                       path=f"{self._path_prefix}{self.name}/{name or 'variable'}",
                       autocast=autocast)
        if trainable:
            var.trainable = self.trainable
            self._trainable_variables.append(var)
        else:
            self._non_trainable_variables.append(var)
        if regularizer is not None:
            self._regularized.append((var, regularizers.get(regularizer)))
        var.constraint = constraints.get(constraint)
        return var

    def add_variable(self, shape, initializer, dtype=None, trainable=True, autocast=True,
                     regularizer=None, constraint=None, name=None):
        """Keras 3's positional form of `add_weight`."""
        return self.add_weight(shape=shape, initializer=initializer, dtype=dtype,
                               trainable=trainable, autocast=autocast, regularizer=regularizer,
                               constraint=constraint, name=name)

    def add_metric(self, *args, **kwargs):
        """Removed in Keras 3, as here: metrics belong in `compile` or in tracked `Metric`s."""
        raise NotImplementedError(
            f"Layer `add_metric()` is not supported (Keras 3 removed it). Add the metric to "
            f"`Model.compile(metrics=[...])`, or create a `Metric` in `__init__`/`build` of "
            f"'{self.name}' and call its `update_state()` in `call`.")

    @property
    def metrics(self):
        """The `Metric`s assigned as attributes of this layer and of its sublayers."""
        return _unique(list(self._metrics)
                       + [m for layer in self._flatten_layers() for m in layer._metrics])

    @property
    def metrics_variables(self):
        """The variables of `self.metrics` (their running totals and counts)."""
        return [v for metric in self.metrics for v in metric.variables]

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        value = bool(value)
        self._trainable = value
        for v in self._trainable_variables:
            v.trainable = value
        for layer in self._layers:
            layer.trainable = value

    @property
    def layers(self):
        """Directly tracked sublayers."""
        return list(self._layers)

    def _flatten_layers(self):
        seen = set()
        stack = list(reversed(self._layers))
        while stack:
            layer = stack.pop()
            if id(layer) in seen:
                continue
            seen.add(id(layer))
            yield layer
            stack.extend(reversed(layer._layers))

    @property
    def weights(self):
        """All weights, in a stable order: own (creation order), then sublayers'."""
        own = self._trainable_variables + self._non_trainable_variables
        return _unique(own + [v for layer in self._layers for v in layer.weights])

    variables = weights

    @property
    def trainable_weights(self):
        """Weights the optimizer updates (none if this layer is frozen)."""
        if not self.trainable:
            return []
        own = [v for v in self._trainable_variables if v.trainable]
        return _unique(own + [v for layer in self._layers for v in layer.trainable_weights])

    trainable_variables = trainable_weights

    @property
    def non_trainable_weights(self):
        trainable = {id(v) for v in self.trainable_weights}
        return [v for v in self.weights if id(v) not in trainable]

    non_trainable_variables = non_trainable_weights

    def get_weights(self):
        """Copies of the weights' values, in `weights` order."""
        return [v.value.copy() for v in self.weights]

    def set_weights(self, weights):
        """Sets the weights from a list of arrays in `weights` order (shapes checked)."""
        params = self.weights
        weights = list(weights)
        if len(weights) != len(params):
            raise ValueError(
                f"Layer '{self.name}' expects {len(params)} weight arrays "
                f"({[v.path for v in params]}), but received {len(weights)}. "
                f"Received: len(weights)={len(weights)}"
            )
        arrays = []
        for var, value in zip(params, weights):
            value = np.asarray(value)
            if value.dtype.kind not in "biuf":  # None, complex, strings, objects
                raise ValueError(
                    f"Weight '{var.path}' of layer '{self.name}' needs a real numeric array. "
                    f"Received: weights[{len(arrays)}] of dtype {value.dtype} "
                    f"({type(weights[len(arrays)]).__name__})")
            if value.shape != var.shape:
                raise ValueError(
                    f"Weight '{var.path}' of layer '{self.name}' has shape {var.shape}, "
                    f"but the provided array has shape {value.shape}. "
                    f"Received: weights[{len(arrays)}].shape={value.shape}"
                )
            arrays.append(value)
        for var, value in zip(params, arrays):
            var.assign(value)

    # ------------------------------------------------------------ saved state
    def own_variables(self, trainable=None):
        """The variables this layer created itself (not its sublayers'), in creation order.

        Args:
            trainable: None for all of them, those created trainable first;
                True or False for only those created trainable or
                non-trainable. Freezing a layer (`layer.trainable = False`)
                does not move a variable from one group to the other.
        """
        if trainable is None:
            return self._trainable_variables + self._non_trainable_variables
        return list(self._trainable_variables if trainable else self._non_trainable_variables)

    def save_own_variables(self, store):
        """Writes this layer's own state into `store`, Keras 3's saving protocol.

        Every file format saves a layer through this method (sublayers save
        themselves): the layer puts arrays (or variables) into the dict-like
        `store` under string keys. By default the keys are `"0"`, `"1"`, ...
        over `own_variables()`: those created trainable, then the others.
        Override it, together with `load_own_variables`, for state that is
        not a variable, or to name the entries differently (see
        docs/saving.md).

        >>> from hikeras import layers
        >>> layer = layers.Dense(2)
        >>> layer.build((None, 3))
        >>> store = {}
        >>> layer.save_own_variables(store)
        >>> {key: value.path for key, value in store.items()}
        {'0': 'dense/kernel', '1': 'dense/bias'}
        """
        for i, variable in enumerate(self.own_variables()):
            store[str(i)] = variable

    def load_own_variables(self, store):
        """Reads this layer's own state back from `store`, as `save_own_variables` wrote it.

        By default the store must hold exactly one array per own variable,
        under `"0"`, `"1"`, ..., each of the variable's shape; every entry is
        checked before the first variable is assigned.

        Raises:
            ValueError: the store holds a different number of entries, lacks
                a key, or holds an array of another shape.
        """
        self._assign_from_store(store, self.own_variables())

    def _assign_from_store(self, store, variables):
        """`load_own_variables`'s checks and assignment, for the given `variables`."""
        if len(store.keys()) != len(variables):
            hint = ("" if variables or self.built else
                    " The layer was never built, so it has no variables yet: build it (call "
                    "it on data or `build(input_shape)`) before loading its state.")
            raise ValueError(
                f"Layer '{self.name}' ({type(self).__name__}) expected {len(variables)} "
                f"variables, but received {len(store.keys())} variables during loading. "
                f"Expected: {[v.name for v in variables]}.{hint} "
                f"Received: keys={sorted(store.keys())}")
        values = []
        for i, variable in enumerate(variables):
            key = str(i)
            if key not in store:
                raise ValueError(
                    f"Layer '{self.name}' ({type(self).__name__}) stores its variables under "
                    f"'0' to '{len(variables) - 1}', but the store has no '{key}' (for "
                    f"'{variable.name}'). Received: keys={sorted(store.keys())}")
            value = store[key]
            if tuple(np.shape(value)) != tuple(variable.shape):
                raise ValueError(
                    f"Layer '{self.name}' ({type(self).__name__}): variable '{variable.name}' "
                    f"has shape {tuple(variable.shape)}, but the store's '{key}' has shape "
                    f"{tuple(np.shape(value))}. Received: store['{key}'].shape="
                    f"{tuple(np.shape(value))}")
            values.append(value)
        for variable, value in zip(variables, values):
            variable.assign(value)

    def count_params(self):
        """Total number of scalars in the layer's weights."""
        if not self.built:
            raise ValueError(
                f"You tried to call count_params on layer '{self.name}', but the layer isn't "
                "built. Build it first by calling it on data or with `build(input_shape)`."
            )
        return int(sum(np.prod(v.shape, dtype=np.int64) for v in self.weights))

    @property
    def losses(self):
        """Losses of this layer and its sublayers: `add_loss` values from the latest
        call, activity regularisation, and weight penalties (computed now)."""
        out = list(self._added_losses)
        out += [reg(var) for var, reg in self._regularized] + list(self._activity_losses)
        for layer in self._layers:
            out.extend(layer.losses)
        return out

    def add_loss(self, loss):
        """Adds a scalar loss (or a list of them) from inside `call`.

        The trainer adds `model.losses` to the compiled loss, so the value is
        minimised along with it. Losses added during a call replace those of
        the previous call (the outermost layer call clears them).

        >>> from hikeras import ops
        >>> class ActivityPenalty(Layer):
        ...     def call(self, x):
        ...         self.add_loss(0.1 * ops.sum(ops.square(x)))
        ...         return x
        >>> layer = ActivityPenalty()
        >>> _ = layer(np.array([1.0, 2.0]))
        >>> [round(float(v), 4) for v in layer.losses]
        [0.5]
        """
        for value in tree.flatten(loss):
            if isinstance(value, SymbolicTensor):
                continue  # tracing a functional model: nothing to add yet
            if value is None or not np.isscalar(value) and np.ndim(value) != 0:
                raise ValueError(
                    f"Layer '{self.name}': add_loss() expects scalar losses (reduce them with "
                    f"ops.sum or ops.mean first). Received: loss with shape {np.shape(value)}")
            self._added_losses.append(value)
            scope = get_stateless_scope()
            if scope is not None and scope.collect_losses:
                scope.add_loss(value)

    def _clear_added_losses(self):
        if self._added_losses:   # assigning goes through the tracking `__setattr__`
            self._added_losses = []
        for layer in self._layers:
            layer._clear_added_losses()

    # ------------------------------------------------------------------ calling
    def build(self, input_shape):
        """Creates the layer's weights; subclasses override it."""
        self.built = True

    def call(self, inputs, *args, **kwargs):
        """The layer's computation; subclasses override it."""
        return inputs

    def get_build_config(self):
        """`{"input_shape": ...}`, the shape the layer was built for; None if unbuilt.

        `build_from_config` reads it back, as Keras does when it loads a file.
        """
        if not self.built or self._build_shapes is None:
            return None
        return {"input_shape": self._build_shapes}

    def build_from_config(self, config):
        """Builds the layer for the shape `get_build_config` recorded (nothing for None)."""
        if not config:
            return
        if not isinstance(config, dict) or "input_shape" not in config:
            raise ValueError(f"Layer '{self.name}' expects a build config with 'input_shape'. "
                             f"Received: config={config!r}")
        if self.built:
            return
        shape = config["input_shape"]
        shape = tuple(shape) if _is_shape(shape) else shape
        self.build(shape)
        self._build_shapes = shape
        self.built = True
        self._update_weight_paths()

    def stateless_call(self, trainable_variables, non_trainable_variables, *args,
                       return_losses=False, **kwargs):
        """Calls the layer with the given variable values, leaving its own untouched.

        Args:
            trainable_variables, non_trainable_variables: arrays in the order of
                `self.trainable_variables` and `self.non_trainable_variables`.
            *args, **kwargs: the call's arguments.
            return_losses: also return the losses the call added.

        Returns:
            `(outputs, non_trainable_values)` (plus the losses with
            `return_losses`): the non-trainable values after the call (a
            BatchNormalization's moving statistics, say), while the layer's
            variables keep the values they had before. The call runs in a
            `StatelessScope` over those values.
        """
        if not self.built:
            raise ValueError(f"Layer '{self.name}' must be built before `stateless_call`.")
        trainable, non_trainable = self.trainable_variables, self.non_trainable_variables
        for given, own, kind in ((trainable_variables, trainable, "trainable_variables"),
                                 (non_trainable_variables, non_trainable,
                                  "non_trainable_variables")):
            if len(given) != len(own):
                raise ValueError(f"Layer '{self.name}' has {len(own)} {kind}. "
                                 f"Received: {len(given)} values")
        mapping = list(zip(trainable + non_trainable,
                           list(trainable_variables) + list(non_trainable_variables)))
        with StatelessScope(state_mapping=mapping) as scope:
            outputs = self(*args, **kwargs)
            losses = list(self.losses)
        new_non_trainable = [np.copy(scope.get_current_value(v)) for v in non_trainable]
        if return_losses:
            return outputs, new_non_trainable, losses
        return outputs, new_non_trainable

    def quantize(self, mode=None, **kwargs):
        """Not supported: hikeras runs in float dtypes only."""
        raise NotImplementedError(
            f"Quantization is not supported by hikeras. Received: mode={mode!r} for "
            f"'{self.name}'")

    @property
    def quantization_mode(self):
        """Always `None`: hikeras does not quantize (see `quantize`)."""
        return None

    def quantized_build(self, input_shape, mode):
        """Not supported, like `quantize`."""
        self.quantize(mode)

    def quantized_call(self, *args, **kwargs):
        """Not supported, like `quantize`."""
        self.quantize(None)

    def _maybe_build(self, inputs):
        if self.built:
            return
        shapes = tree.map_structure(_build_shape, inputs)
        self._build_shapes = shapes
        self.build(shapes)
        self.built = True
        self._update_weight_paths()

    def __call__(self, *args, **kwargs):
        if not args:
            raise ValueError(f"Layer '{self.name}' was called without inputs.")
        symbolic = _symbolic_kind(args, kwargs)
        if symbolic is KerasTensor:
            return self._symbolic_call(args, kwargs)
        if symbolic is SymbolicTensor:
            return self._traced_call(args, kwargs)
        inputs = self._convert_inputs(args[0])
        args = (inputs,) + args[1:]
        if self._dtype_policy is not None:  # as Keras, every tensor argument is autocast
            args = (inputs,) + tuple(autocasting.convert_input(self, a, ops.cast)
                                     for a in args[1:])
            kwargs = {k: autocasting.convert_input(self, v, ops.cast) for k, v in kwargs.items()}
        self._maybe_build(inputs)
        if self.input_spec is not None:
            check_input_spec(self, inputs)
        return self._call_with_context(args, kwargs)

    def _convert_inputs(self, inputs):
        if type(inputs) is np.ndarray:   # the common case, first
            target = autocasting.input_dtype(self, inputs.dtype)
            return inputs if target is None else ops.cast(inputs, target)

        def convert(x):
            if isinstance(x, (list, float, int)) or np.isscalar(x):
                arr = np.asarray(x)
                target = autocasting.input_dtype(self, arr.dtype)
                return arr if target is None else arr.astype(target)
            # The cast op keeps an array watched by a tape differentiable.
            return autocasting.convert_input(self, x, ops.cast)

        if isinstance(inputs, (list, tuple)) and inputs and not isinstance(inputs[0], (int, float)):
            return type(inputs)(convert(x) for x in inputs)
        if isinstance(inputs, dict):
            return {k: convert(v) for k, v in inputs.items()}
        return convert(inputs)

    def _call_with_context(self, args, kwargs, call=None):
        outer = getattr(_context, "training", None)
        training = kwargs.get("training")
        if training is None:
            training = outer
        if training is None:
            training = self._call_training_default
        if self._call_has_training:
            kwargs["training"] = training
        else:
            kwargs.pop("training", None)
        _context.training = training
        depth = getattr(_context, "depth", 0)
        if depth == 0:  # the outermost call starts a fresh set of add_loss values
            self._clear_added_losses()
        _context.depth = depth + 1
        scope = autocasting.scope_for(self)
        try:
            if scope is None:
                outputs = (call or self.call)(*args, **kwargs)
            else:
                with scope:
                    outputs = (call or self.call)(*args, **kwargs)
        finally:
            _context.training = outer
            _context.depth = depth
        if self.activity_regularizer is not None and not isinstance(outputs, SymbolicTensor):
            batch = max(int(np.shape(tree.flatten(outputs)[0])[0]), 1)
            self._activity_losses = [self.activity_regularizer(o) / batch
                                     for o in tree.flatten(outputs)]
        return outputs

    def symbolic_call(self, *args, **kwargs):
        """Calls the layer on symbolic tensors, recording the call in the graph.

        `layer(keras_tensor)` does the same; this is Keras's name for that path.
        """
        return self._symbolic_call(args, kwargs)

    def _symbolic_call(self, args, kwargs):
        self._maybe_build(args[0])
        if self.input_spec is not None:
            check_input_spec(self, args[0])
        symbolic_args = tree.map_structure(_strip_history, list(args))
        symbolic_args[0] = self._convert_inputs(symbolic_args[0])
        symbolic_kwargs = tree.map_structure(_strip_history, dict(kwargs))
        mask = symbolic_kwargs.get("mask")
        if mask is None:  # the masks the graph tensors carry (see docs/masking.md)
            mask = _carried_mask(args[0])
            if mask is not None and self._call_has_mask:
                symbolic_kwargs["mask"] = mask
        outputs = self.compute_output_spec(*symbolic_args, **symbolic_kwargs)
        node_index = len(self._inbound_nodes)
        flat = tree.flatten(outputs)
        masks = flat_masks(self._output_mask(symbolic_args[0], mask), len(flat))
        wrapped = [KerasTensor(o.shape, o.dtype, name=self.name,
                               keras_history=KerasHistory(self, node_index, i), keras_mask=m)
                   for i, (o, m) in enumerate(zip(flat, masks))]
        outputs = tree.pack_sequence_as(outputs, wrapped)
        self._inbound_nodes.append(Node(self, args, kwargs, outputs))
        return outputs

    def _traced_call(self, args, kwargs):
        """A call on plain symbolic tensors: another layer's `call` is being traced.

        As in Keras, a layer called inside a trace answers with its output
        specs (`compute_output_spec`), never by running `call` on specs that
        have no data: augmentation layers draw random numbers per sample, and
        there is no batch size to draw for. No node is recorded.
        """
        self._maybe_build(args[0])
        if self.input_spec is not None:
            check_input_spec(self, args[0])
        args = (self._convert_inputs(args[0]),) + tuple(args[1:])
        return self.compute_output_spec(*args, **kwargs)

    # ------------------------------------------------------------------ masking
    def compute_mask(self, inputs, mask=None):
        """The mask of this layer's output, given its input and the input's mask.

        Masks are boolean arrays, typically `(batch, timesteps)`, marking the
        entries that count (see docs/masking.md). By default a layer that
        supports masking passes the mask on unchanged; subclasses that create
        or change masks (`Embedding(mask_zero=True)`, `Masking`, recurrent
        layers) override this.
        """
        return mask if self.supports_masking else None

    def _argument_masks(self, args, kwargs, mask_of):
        """`{"<name>_mask": mask}` for the call's arguments that carry a mask.

        Keras 3 gives `call(query, value, query_mask=None, value_mask=None)`
        the mask each tensor argument carries under its `<name>_mask`
        parameter, unless the caller passed one. `mask_of(argument)` returns
        the mask an argument carries, or None.
        """
        if not self._call_masked_arguments:
            return {}
        bound = self._call_signature.bind_partial(*args, **kwargs).arguments
        found = {}
        for name in self._call_masked_arguments:
            if name in bound and bound.get(f"{name}_mask") is None:
                mask = mask_of(bound[name])
                if mask is not None:
                    found[f"{name}_mask"] = mask
        return found

    def _output_mask(self, inputs, mask):
        """`compute_mask` where the layer supports masking, else None (the mask stops)."""
        return self.compute_mask(inputs, mask) if self.supports_masking else None

    def _call_with_mask(self, args, kwargs, mask):
        """Calls the layer on concrete inputs whose first input carries `mask`.

        Returns `(outputs, output_mask)`. Models use this to propagate masks:
        `mask` reaches `call` when it takes a `mask` argument (unless one was
        passed explicitly), and the output mask comes from `compute_mask`.
        """
        if kwargs.get("mask") is not None:
            mask = kwargs["mask"]
        elif mask is not None and self._call_has_mask:
            kwargs = dict(kwargs, mask=mask)
        outputs = self(*args, **kwargs)
        return outputs, self._output_mask(args[0], mask)

    def compute_output_spec(self, *args, **kwargs):
        """Output specs (`SymbolicTensor`s) for symbolic inputs, as Keras's.

        A layer that overrides `compute_output_shape` answers with it (outputs
        of the layer's dtype). Otherwise `call` is traced on the specs: ops
        apply their shape rules, unknown dimensions stay `None`, and
        `ops.shape(x)` gives `SymbolicDim`s for them (see `ops.shape`), so a
        custom layer needs neither method to be used in a functional model.
        """
        if type(self).compute_output_shape is not Layer.compute_output_shape:
            tensors = args[0]
            shapes = tree.map_structure(lambda t: tuple(t.shape), tensors)
            if len(args) > 1 and all(isinstance(a, SymbolicTensor) for a in args):
                shapes = [tuple(a.shape) for a in args]
            return _specs_of_shapes(self.compute_output_shape(shapes), self.compute_dtype)
        try:
            with SymbolicScope(), tracing_layer_call():
                return self._call_with_context(args, kwargs)
        except Exception as error:
            if hasattr(error, "add_note"):  # Python 3.11+: the traceback names the layer
                shapes = [tuple(t.shape) for t in tree.flatten(args)
                          if isinstance(t, SymbolicTensor)]
                error.add_note(
                    f"Raised while tracing the call of layer '{self.name}' "
                    f"({type(self).__name__}) on symbolic inputs of shapes {shapes}. A layer "
                    "whose `call` cannot run on symbolic tensors overrides "
                    "`compute_output_shape`.")
            raise

    def compute_output_shape(self, input_shape):
        """Output shape for an input shape (batch axis may be None)."""
        if _is_shape(input_shape):
            spec = SymbolicTensor(input_shape, self.dtype)
        else:
            spec = [SymbolicTensor(s, self.dtype) for s in input_shape]
        self._maybe_build(spec)
        out = self.compute_output_spec(spec)
        return tree.map_structure(lambda t: t.shape, out)

    # ------------------------------------------------------------ introspection
    @property
    def call_signature_parameters(self):
        """The names of `call`'s parameters, in order."""
        return list(self._call_signature.parameters)

    @property
    def input(self):
        """The symbolic input of the layer's first call."""
        return self._first_node("input").call_args[0]

    @property
    def output(self):
        """The symbolic output of the layer's first call."""
        return self._first_node("output").outputs

    @property
    def output_shape(self):
        return tree.map_structure(lambda t: t.shape, self.output)

    @property
    def input_shape(self):
        return tree.map_structure(lambda t: t.shape, self.input)

    def _first_node(self, what):
        if not self._inbound_nodes:
            raise AttributeError(
                f"Layer '{self.name}' has never been called on symbolic inputs, so it has no "
                f"defined {what}."
            )
        return self._inbound_nodes[0]

    @property
    def dtype_policy(self):
        """The layer's `DTypePolicy` (a mixed one, or one of `self.dtype`)."""
        return self._dtype_policy or DTypePolicy(self.dtype)

    @dtype_policy.setter
    def dtype_policy(self, policy):
        self._dtype_policy = autocasting.mixed_policy_of(policy)
        self.dtype = standardize_dtype(policy)

    @property
    def compute_dtype(self):
        """The dtype the layer computes in: a mixed policy's half dtype, else `self.dtype`."""
        policy = self._dtype_policy
        return self.dtype if policy is None else policy.compute_dtype

    @property
    def variable_dtype(self):
        """The dtype of the layer's weights (`self.dtype`, as Keras's alias)."""
        return self.dtype

    @property
    def input_dtype(self):
        """The dtype floating inputs are cast to when the layer is called."""
        return self.compute_dtype if self.autocast else self.dtype

    # ------------------------------------------------------------ serialisation
    def get_config(self):
        """The constructor arguments that recreate this layer (without weights)."""
        # A mixed policy is written as Keras writes policies (a float one stays a name).
        dtype = self.dtype if self._dtype_policy is None else serialize_policy(self._dtype_policy)
        config = {"name": self.name, "trainable": self.trainable, "dtype": dtype}
        if self._batch_input_shape is not None:
            config["batch_input_shape"] = self._batch_input_shape
        if type(self).get_config is Layer.get_config:
            # A subclass without its own get_config(): its constructor's arguments, as Keras 3.
            config = {**auto_config_arguments(self)[0], **config}
        return config

    # Config entries that hold serialised layers (a wrapper's layer, an RNN's
    # cell or cells), which `from_config` rebuilds before calling the constructor.
    _nested_layer_keys = ()

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """Creates a layer from `get_config()` output."""
        config = dict(config)
        if cls._nested_layer_keys:
            for key in cls._nested_layer_keys:
                value = config.get(key)
                if isinstance(value, list):
                    config[key] = [deserialize(v, custom_objects=custom_objects) for v in value]
                elif value is not None:
                    config[key] = deserialize(value, custom_objects=custom_objects)
        return cls(**config)

    def __repr__(self):
        return f"<{type(self).__name__} name={self.name}, built={self.built}>"


def _track(tracked, values):
    """Appends to the list `tracked` each of `values` it does not hold yet (by identity)."""
    for value in values:
        if not any(value is held for held in tracked):
            tracked.append(value)


def _unique(variables):
    """`variables` without repeats (a shared sublayer is reachable twice), order kept."""
    seen = set()
    return [v for v in variables if not (id(v) in seen or seen.add(id(v)))]


def _symbolic_kind(args, kwargs):
    """`KerasTensor` if a call's arguments include graph tensors, else `SymbolicTensor`
    if they include plain specs (a trace), else None (fast for one array)."""
    if len(args) == 1 and type(args[0]) is np.ndarray and all(
            v is None or isinstance(v, bool) for v in kwargs.values()):
        return None
    kind = None
    for t in tree.flatten([args, kwargs]):
        if isinstance(t, KerasTensor):
            return KerasTensor
        # Plain specs only: a subclass made by another tracer (the ONNX exporter's
        # `TracedTensor`) wants `call` itself to run, so that it sees every op.
        if type(t) is SymbolicTensor:
            kind = SymbolicTensor
    return kind


def _specs_of_shapes(shapes, dtype):
    """`compute_output_shape`'s answer (a shape, or a structure of them) as specs."""
    if _is_shape(shapes):
        return SymbolicTensor(shapes, dtype)
    if isinstance(shapes, dict):
        return {k: _specs_of_shapes(v, dtype) for k, v in shapes.items()}
    return type(shapes)(_specs_of_shapes(s, dtype) for s in shapes)


def _build_shape(x):
    """The shape `build` sees: the input's shape with the batch axis unknown."""
    shape = tuple(x.shape) if hasattr(x, "shape") else tuple(np.shape(x))
    return (None,) + shape[1:] if shape else shape


def _is_shape(x):
    """Whether `x` is one shape (ints/None) rather than a list of shapes."""
    return isinstance(x, (tuple, list)) and all(d is None or isinstance(d, (int, np.integer))
                                                for d in x)


def _carried_mask(inputs):
    """The masks the graph tensors in `inputs` carry (same structure), or None."""
    masks = tree.map_structure(lambda t: getattr(t, "_keras_mask", None), inputs)
    return None if all(m is None for m in tree.flatten(masks)) else masks


def flat_masks(mask, count):
    """One mask (or None) per output of a layer with `count` outputs (models use it)."""
    if mask is None:
        return [None] * count
    flat = tree.flatten(mask) if isinstance(mask, (list, tuple)) else [mask]
    return flat if len(flat) == count else [None] * count


def _strip_history(x):
    """A plain SymbolicTensor for a KerasTensor (so ops don't carry graph history)."""
    if isinstance(x, KerasTensor):
        return SymbolicTensor(x.shape, x.dtype)
    return x


def _declared_input_shape(kwargs):
    """The batch input shape declared through Keras's input kwargs, or None."""
    for key in ("batch_shape", "batch_input_shape"):
        if kwargs.get(key) is not None:
            return tuple(kwargs[key])
    if kwargs.get("input_shape") is not None:
        return (kwargs.get("batch_size"),) + tuple(kwargs["input_shape"])
    if kwargs.get("input_dim") is not None:
        return (kwargs.get("batch_size"), int(kwargs["input_dim"]))
    return None
