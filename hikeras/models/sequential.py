"""`Sequential`: a linear stack of layers."""

import numpy as np

from ..layers.input_layer import InputLayer
from ..layers.layer import Layer
from ..layers.layer_table import deserialize, serialize
from ..layers.node import KerasTensor
from ..utils import tree
from .model import Model
from .naming import assign_unique_names


class Sequential(Model):
    """A model whose layers each take the previous layer's output.

    The input shape comes from a leading `Input`, a first layer's
    `input_shape=`, `build(input_shape)`, or (deferred) the first batch.

    Args:
        layers: optional list of layers (may start with `Input(...)`).
        name: the model's name.

    >>> import hikeras
    >>> model = hikeras.Sequential([hikeras.Input((4,)), hikeras.layers.Dense(2)])
    >>> model.count_params()
    10
    """

    def __init__(self, layers=None, trainable=True, name=None, **kwargs):
        super().__init__(trainable=trainable, name=name, **kwargs)
        self._input_layer = None
        self._stack = []
        self._graph = None
        self._has_masks = False
        for layer in layers or []:
            self.add(layer)

    # ------------------------------------------------------------ construction
    def add(self, layer):
        """Appends a layer (or sets the input, given `Input(...)`)."""
        if isinstance(layer, KerasTensor):
            layer = layer._keras_history.layer
        if not isinstance(layer, Layer):
            raise TypeError(
                "Sequential.add expects a Layer instance. "
                f"Received: layer={layer!r} of type {type(layer).__name__}"
            )
        if isinstance(layer, InputLayer):
            if self._stack or self._input_layer is not None:
                raise ValueError(
                    "An Input can only be the first element of a Sequential model. "
                    f"Received: layer={layer.name}"
                )
            self._input_layer = layer
        else:
            if self._input_layer is None and not self._stack and layer._batch_input_shape:
                self._input_layer = InputLayer(batch_shape=layer._batch_input_shape,
                                               dtype=layer.dtype)
            self._stack.append(layer)
        self._layers = ([self._input_layer] if self._input_layer else []) + self._stack
        assign_unique_names(self._layers)
        self._invalidate()
        if self._input_layer is not None:
            self._build_graph()

    def pop(self):
        """Removes and returns the last layer."""
        if not self._stack:
            raise ValueError("There are no layers in this Sequential model to pop.")
        layer = self._stack.pop()
        self._layers = ([self._input_layer] if self._input_layer else []) + self._stack
        self._invalidate()
        if self._input_layer is not None and self._stack:
            self._build_graph()
        return layer

    def _invalidate(self):
        self._graph = None
        self.built = False

    def _build_graph(self):
        """Traces the stack symbolically: builds weights and records shapes."""
        x = self._input_layer.output
        tensors = [x]
        for layer in self._stack:
            x = layer(x)
            tensors.append(x)
        self._graph = tensors
        self._has_masks = any(getattr(t, "_keras_mask", None) is not None
                              for t in tree.flatten(tensors))
        self.built = True

    def build(self, input_shape=None):
        """Builds the model for inputs of `input_shape` (batch axis included)."""
        if self._input_layer is None:
            if input_shape is None:
                raise ValueError("Sequential.build needs an input_shape. Received: None")
            self._input_layer = InputLayer(batch_shape=tuple(input_shape))
            self._layers = [self._input_layer] + self._stack
            assign_unique_names(self._layers)
        self._build_graph()

    def _maybe_build(self, inputs):
        if self.built:
            return
        shape = (None,) + tuple(np.shape(inputs) if not hasattr(inputs, "shape")
                                else inputs.shape)[1:]
        dtype = getattr(inputs, "dtype", None)
        self._input_layer = InputLayer(
            batch_shape=shape,
            dtype=dtype if dtype is not None and not np.issubdtype(dtype, np.floating) else None)
        self._layers = [self._input_layer] + self._stack
        assign_unique_names(self._layers)
        self._build_graph()

    # ----------------------------------------------------------------- running
    @property
    def layers(self):
        """The stacked layers (without the input layer, as in Keras)."""
        return list(self._stack)

    def call(self, inputs, training=None, mask=None):
        if mask is None and not self._has_masks:
            x = inputs
            for layer in self._stack:
                x = layer(x)
            return x
        return self._run_stack(inputs, training, mask)[0]

    def _run_stack(self, inputs, training=None, mask=None):
        """Runs the stack passing each layer's output mask on; `(outputs, mask)`."""
        x = inputs
        for layer in self._stack:
            x, mask = layer._call_with_mask((x,), {}, mask)
        return x, mask

    def compute_mask(self, inputs, mask=None):
        """The output mask for `inputs` (runs the stack; None if it has no masks)."""
        if mask is None and not self._has_masks:
            return None
        return self._run_stack(inputs, None, mask)[1]

    def _call_with_mask(self, args, kwargs, mask):
        self._maybe_build(args[0])
        if mask is None and kwargs.get("mask") is None and not self._has_masks:
            return self(*args, **kwargs), None
        if kwargs.get("mask") is None:
            kwargs = dict(kwargs, mask=mask)
        return self._call_with_context(args, kwargs, call=self._run_stack)

    def compute_output_spec(self, inputs, training=None, mask=None):
        return self.call(inputs, mask=mask)

    @property
    def inputs(self):
        self._require_graph("inputs")
        return [self._graph[0]]

    @property
    def outputs(self):
        self._require_graph("outputs")
        return [self._graph[-1]]

    @property
    def input_names(self):
        return [self._input_layer.name] if self._input_layer else []

    @property
    def output_names(self):
        return [self._stack[-1].name] if self._stack else []

    @property
    def input_shape(self):
        self._require_graph("input_shape")
        return self._graph[0].shape

    @property
    def output_shape(self):
        self._require_graph("output_shape")
        return self._graph[-1].shape

    def _require_graph(self, what):
        if self._graph is None:
            raise ValueError(
                f"Sequential model '{self.name}' has no defined {what} yet: it is built from "
                "its first batch. Start it with `hikeras.Input(shape)`, call `build(shape)`, "
                "or call it on data first."
            )

    # ----------------------------------------------------------- serialisation
    def get_config(self):
        layers = [serialize(l) for l in self._stack]
        if self._input_layer is not None:
            # The InputLayer holds the input shape; a layer repeating it as
            # `batch_input_shape` would be rejected by Keras 3.
            for entry in layers:
                entry["config"].pop("batch_input_shape", None)
            layers.insert(0, serialize(self._input_layer))
        return {"name": self.name, "layers": layers}

    @classmethod
    def from_config(cls, config, custom_objects=None):
        model = cls(name=config.get("name"))
        for layer_config in config.get("layers", []):
            model.add(deserialize(layer_config, custom_objects=custom_objects))
        return model
