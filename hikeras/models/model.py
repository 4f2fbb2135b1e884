"""`Model`: a layer with training methods, in three flavours.

* `Model(inputs, outputs)` returns a `Functional` model (graph of layer calls);
* `Sequential([...])` is a plain stack of layers;
* subclassing `Model` and writing `call` gives a model whose sublayers are
  tracked from attribute assignments.

Training (`compile`, `fit`, `evaluate`, `predict`, ...) comes from `Trainer`,
kept in its own package so graph building and training stay separate; saving
(`save`, `save_weights`, `load_weights`, `to_json`) from `SavingMixin`, which
forwards to `hikeras.saving`.
"""

from ..layers.layer import Layer
from ..layers.node import KerasTensor
from ..trainers.trainer import Trainer
from ..utils import tree
from .model_saving import SavingMixin
from .naming import assign_unique_names
from .state_tree import get_state_tree, set_state_tree
from .summary import print_summary


def _is_functional_call(args, kwargs):
    """Whether `Model(...)` was given graph `inputs` and `outputs` (Keras's rule)."""
    if len(args) == 2 or (len(args) == 1 and "outputs" in kwargs):
        inputs = args[0]
    elif "inputs" in kwargs and "outputs" in kwargs:
        inputs = kwargs["inputs"]
    else:
        return False
    leaves = tree.flatten(inputs)
    return bool(leaves) and all(isinstance(t, KerasTensor) for t in leaves)


_functional_subclasses = {}


def _functional_subclass(cls, functional):
    """`cls` (a Model subclass, e.g. one overriding `train_step`) made functional.

    Keras lets `class CustomModel(keras.Model)` be instantiated as
    `CustomModel(inputs, outputs)`: the instance runs the graph while keeping
    the subclass's overrides. A class deriving from both gives exactly that.
    """
    if cls not in _functional_subclasses:
        _functional_subclasses[cls] = type(cls.__name__, (cls, functional),
                                           {"__module__": cls.__module__,
                                            "__qualname__": cls.__qualname__})
    return _functional_subclasses[cls]


class Model(SavingMixin, Trainer, Layer):
    """A layer with training and inference methods.

    >>> import hikeras
    >>> inputs = hikeras.Input(shape=(3,))
    >>> outputs = hikeras.layers.Dense(2)(inputs)
    >>> model = hikeras.Model(inputs, outputs)
    >>> type(model).__name__
    'Functional'
    """

    # `Model(inputs, outputs)` builds a `Functional` (Keras's API). `Functional` is a
    # subclass defined in functional.py, which imports this module: it fills this in.
    _functional_class = None

    def __new__(cls, *args, **kwargs):
        if _is_functional_call(args, kwargs):
            functional = Model._functional_class
            if not issubclass(cls, functional):
                cls = functional if cls is Model else _functional_subclass(cls, functional)
        return super().__new__(cls)

    def __init__(self, *args, **kwargs):
        if type(self) is Model and (args or "inputs" in kwargs):
            raise TypeError(
                "Model() takes `inputs` and `outputs` (the functional API) or nothing "
                f"(subclassing). Received: args={args}, kwargs={list(kwargs)}"
            )
        Layer.__init__(self, **kwargs)
        Trainer.__init__(self)

    @classmethod
    def from_config(cls, config, custom_objects=None):
        """A model from `get_config()` output; a functional model's config (with
        `layers`, `input_layers` and `output_layers`) rebuilds its graph, as in Keras 3."""
        functional = Model._functional_class
        if {"layers", "input_layers", "output_layers"} <= set(config) and (
                cls is Model or issubclass(cls, functional)):
            return functional.from_config(config, custom_objects)
        return super().from_config(config, custom_objects)

    def _maybe_build(self, inputs):
        if self.built:
            return
        super()._maybe_build(inputs)
        assign_unique_names(self._layers)

    def build(self, input_shape):
        """Subclassed models build their sublayers on the first call."""
        self.built = True

    def summary(self, line_length=None, positions=None, print_fn=None, expand_nested=False,
                show_trainable=False):
        """Prints Keras's summary table; see `hikeras.models.summary`."""
        print_summary(self, line_length=line_length, positions=positions, print_fn=print_fn,
                      expand_nested=expand_nested, show_trainable=show_trainable)

    def get_state_tree(self, value_format="backend_tensor"):
        """Every variable's value, grouped and nested by path (see `models.state_tree`).

        `value_format` is `"backend_tensor"` or `"numpy_array"`: both give
        numpy arrays, hikeras's tensors.
        """
        return get_state_tree(self, value_format)

    def set_state_tree(self, state_tree):
        """Assigns a tree from `get_state_tree` back to the variables it names."""
        set_state_tree(self, state_tree)

    def get_quantization_layer_structure(self, mode):
        """`None`: no quantization structure (hikeras does not quantize; see `quantize`)."""

    def get_layer(self, name=None, index=None):
        """A layer of the model by name or by index in `layers`."""
        if index is not None:
            layers = self.layers
            if not -len(layers) <= index < len(layers):
                raise ValueError(
                    f"Model '{self.name}' has {len(layers)} layers. Received: index={index}"
                )
            return layers[index]
        for layer in self.layers:
            if layer.name == name:
                return layer
        raise ValueError(
            f"No such layer: {name}. Existing layers are {[l.name for l in self.layers]}. "
            f"Received: name={name!r}"
        )
