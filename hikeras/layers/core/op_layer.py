"""`OpLayer`: an op applied to graph tensors, recorded as a layer call.

Writing `x + y`, `ops.concatenate([a, b])` or `x[:, 0]` on the symbolic
tensors of a functional model has to become a node of the graph, like Keras
3's symbolic operations (Keras 2's `TFOpLambda`). The backend consults
`_intercept` before answering a symbolic op with its shape rule; when an
input carries graph history, the op is wrapped in an `OpLayer` and called.
"""

from ... import backend
from ..layer import Layer
from ..node import KerasTensor


class OpLayer(Layer):
    """Applies backend op `op` with `attrs` to its tensor arguments.

    Args:
        op: registered op name, e.g. `"add"`.
        attrs: the op's keyword attributes.
        template: the op's positional arguments, with `None` where a tensor
            goes (in order) and constants elsewhere.
    """

    def __init__(self, op, attrs=None, template=None, **kwargs):
        super().__init__(**kwargs)
        self.op = op
        self.attrs = dict(attrs or {})
        self.template = list(template or [])

    def _base_name(self):
        return self.op

    def call(self, inputs):
        tensors = iter(inputs if isinstance(inputs, list) else [inputs])
        args = [next(tensors) if a is None else a for a in self.template]
        # Replays a recorded op: its name is data here (from the graph or a saved config).
        return backend.apply(self.op, *args, **self.attrs)

    def get_config(self):
        config = super().get_config()
        config.update({"op": self.op, "attrs": _encode(self.attrs),
                       "template": _encode(self.template)})
        return config

    @classmethod
    def from_config(cls, config):
        config = dict(config)
        config["attrs"] = _decode(config.get("attrs", {}))
        config["template"] = _decode(config.get("template", []))
        return cls(**config)


def _intercept(name, inputs, attrs):
    tensors = [x for x in inputs if isinstance(x, KerasTensor)]
    if not tensors:
        return NotImplemented
    template = [None if isinstance(x, KerasTensor) else x for x in inputs]
    layer = OpLayer(name, attrs, template)
    return layer(tensors if len(tensors) > 1 else tensors[0])


backend.set_symbolic_interceptor(_intercept)


def _encode(value):
    """JSON-able form of op attributes (slices, Ellipsis and tuples included)."""
    if isinstance(value, slice):
        return {"__slice__": [value.start, value.stop, value.step]}
    if value is Ellipsis:
        return {"__ellipsis__": True}
    if isinstance(value, tuple):
        return {"__tuple__": [_encode(v) for v in value]}
    if isinstance(value, list):
        return [_encode(v) for v in value]
    if isinstance(value, dict):
        return {k: _encode(v) for k, v in value.items()}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(
        f"An op in this model has an attribute that cannot be saved in a config: {value!r}. "
        "Wrap that computation in a custom layer instead."
    )


def _decode(value):
    if isinstance(value, dict):
        if "__slice__" in value:
            return slice(*value["__slice__"])
        if "__ellipsis__" in value:
            return Ellipsis
        if "__tuple__" in value:
            return tuple(_decode(v) for v in value["__tuple__"])
        return {k: _decode(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_decode(v) for v in value]
    return value


__all__ = ["OpLayer"]
