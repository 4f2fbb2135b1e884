"""`OperationLayer`: a user's `Operation` called on graph tensors, as a layer node.

The functional graph is made of layer calls (`Node`s hold a layer; naming,
configs and masks are layer machinery). Calling an `Operation` that is not a
layer on `KerasTensor`s wraps it in this layer, which records the node; the
graph then runs the operation wherever it runs the node (a functional
`Model`, a `Function`). Each call makes a new wrapper, as each op call on
graph tensors makes a new `OpLayer`.
"""

from ..ops import operation as operation_module
from ..serialization import deserialize_keras_object, serialize_keras_object
from .layer import Layer


class OperationLayer(Layer):
    """Calls `operation` on its arguments; its output specs are the operation's."""

    def __init__(self, operation, **kwargs):
        kwargs.setdefault("name", operation.name)
        super().__init__(**kwargs)
        self.operation = operation
        self.built = True

    def _convert_inputs(self, inputs):
        return inputs  # an operation sees its arguments as given, dtypes included

    def call(self, *args, **kwargs):
        return self.operation(*args, **kwargs)

    def compute_output_spec(self, *args, **kwargs):
        return self.operation.compute_output_spec(*args, **kwargs)

    def get_config(self):
        config = super().get_config()
        config["operation"] = serialize_keras_object(self.operation)
        return config

    @classmethod
    def from_config(cls, config, custom_objects=None):
        config = dict(config)
        config["operation"] = deserialize_keras_object(config["operation"],
                                                       custom_objects=custom_objects)
        return cls(**config)


def _record(operation, args, kwargs):
    return OperationLayer(operation)(*args, **kwargs)


operation_module.set_graph_recorder(_record)
