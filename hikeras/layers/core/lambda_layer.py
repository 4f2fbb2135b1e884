"""Lambda: wraps a Python function as a layer; rebuilt from `custom_objects`, never from code in a file."""

import inspect

from ...backend import SymbolicTensor
from ...serialization import get_registered_name, get_registered_object
from ...utils import tree
from ..layer import Layer

__all__ = ["Lambda"]


class Lambda(Layer):
    """Wraps a function of tensors as a layer: `Lambda(fn)(x)` computes `fn(x)`.

    The function should use `hikeras.ops`, so that it runs on arrays,
    recorded tensors and symbolic tensors alike. In configs and saved files
    the function is stored **by name only**, never as code: loading resolves
    the name through `custom_objects` or `register_keras_serializable`, and an
    unknown name is an error. An anonymous `lambda` therefore cannot be
    reloaded; give the function a name and register it.

    Args:
        function: the function; it receives the layer's inputs, the
            `arguments`, and `training` if it accepts that argument.
        output_shape: the output shape without the batch axis, or a function
            from the input shape to the output shape. By default it is
            inferred by running `function` on symbolic tensors.
        arguments: keyword arguments passed to `function` (JSON-able values).

    >>> import numpy as np
    >>> from hikeras import ops
    >>> from hikeras.saving import register_keras_serializable
    >>> @register_keras_serializable(package="docs")
    ... def scale_by(x, factor):
    ...     return ops.multiply(x, factor)
    >>> layer = Lambda(scale_by, arguments={"factor": 3.0})
    >>> layer(np.ones((1, 2), "float32")).tolist()
    [[3.0, 3.0]]
    >>> layer.get_config()["function"]
    'docs>scale_by'
    """

    def __init__(self, function, output_shape=None, mask=None, arguments=None, **kwargs):
        super().__init__(**kwargs)
        if not callable(function):
            raise TypeError(f"Lambda expects a callable `function`. Received: function={function!r}")
        if mask is not None:
            raise ValueError(f"Lambda does not support `mask`. Received: mask={mask!r}")
        self.function = function
        self.arguments = dict(arguments or {})
        self._output_shape = (output_shape if output_shape is None or callable(output_shape)
                              else tuple(output_shape))
        try:
            parameters = inspect.signature(function).parameters
        except (TypeError, ValueError):  # some builtins have no signature
            parameters = {}
        self._pass_training = "training" in parameters

    def call(self, inputs, training=None):
        kwargs = dict(self.arguments)
        if self._pass_training:
            kwargs["training"] = training
        return self.function(inputs, **kwargs)

    def compute_output_spec(self, inputs, training=None):
        if self._output_shape is None:
            try:
                return self.call(inputs, training=training)
            except Exception as error:  # noqa: BLE001  (any failure means: cannot trace)
                raise ValueError(
                    f"Lambda layer '{self.name}' could not infer its output shape by running "
                    f"its function on symbolic tensors ({error}). Write the function with "
                    "`hikeras.ops`, or pass `output_shape`. Received: "
                    f"function={get_registered_name(self.function)!r}"
                ) from error
        first = tree.flatten(inputs)[0]
        if callable(self._output_shape):
            shape = self._output_shape(tree.map_structure(lambda t: tuple(t.shape), inputs))
        else:
            shape = (first.shape[0],) + self._output_shape
        return SymbolicTensor(shape, first.dtype)

    def get_config(self):
        config = super().get_config()
        output_shape = self._output_shape
        if callable(output_shape):
            output_shape = get_registered_name(output_shape)
        config.update({"function": get_registered_name(self.function),
                       "output_shape": output_shape, "arguments": self.arguments})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        if config.pop("function_type", "function") == "lambda":
            raise ValueError(
                "This Lambda layer was saved by Keras as Python bytecode, which hikeras never "
                "executes. Define the function, register it, and rebuild the layer with it. "
                f"Received: function_type='lambda' in layer '{config.get('name')}'"
            )
        config.pop("module", None)
        config.pop("output_shape_module", None)
        output_type = config.pop("output_shape_type", "raw")
        config["function"] = _resolve_function(config, config["function"], "function")
        shape = config.get("output_shape")
        if isinstance(shape, (str, dict)) or output_type == "function" and shape is not None:
            config["output_shape"] = _resolve_function(config, shape, "output_shape")
        return cls(**config)


def _resolve_function(config, value, argument):
    """The registered function a Lambda config names (Keras 2 or 3 form)."""
    if isinstance(value, dict):  # Keras 3: {"class_name": "function", "config": name, ...}
        if value.get("class_name") == "__lambda__":
            value = "<lambda>"
        else:
            value = value.get("registered_name") or value.get("config")
    if not isinstance(value, str):
        raise ValueError(
            f"Lambda layer '{config.get('name')}' stores `{argument}` as code, which hikeras "
            f"never executes; only a registered name can be loaded. Received: {argument} of "
            f"type {type(value).__name__}"
        )
    found = get_registered_object(value)
    if found is None:
        hint = (" An anonymous lambda cannot be reloaded: define a named function." if
                value == "<lambda>" else "")
        raise ValueError(
            f"Lambda layer '{config.get('name')}' needs the function '{value}', which is not "
            "registered. Pass it with `custom_objects={'" + value + "': fn}` or decorate it "
            f"with `hikeras.saving.register_keras_serializable`.{hint} Received: "
            f"{argument}={value!r}"
        )
    return found
