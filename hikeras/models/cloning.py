"""`clone_model`: the same architecture with new layers (and so new weights).

As in Keras 3, each layer is replaced by `clone_function(layer)` (by default
a fresh instance from the layer's config, with newly initialised weights),
and the graph between them is rebuilt: a `Sequential` model becomes a
`Sequential` of the clones, a functional model is re-traced node by node
from new `Input`s (or the given `input_tensors`), with a layer shared by
several calls cloned once and shared again. Nested models are handed to
`clone_function` like any layer unless `recursive=True`, which clones their
insides too. A subclassed model is re-created from its config. Weights are
never copied: call `clone.set_weights(model.get_weights())` for that.
"""

from ..layers.input_layer import Input, InputLayer
from ..layers.node import KerasTensor
from ..serialization.config_errors import rebuilding
from ..utils import tree
from .functional import Functional
from .sequential import Sequential


def _fresh_copy(layer):
    """The default `clone_function`: a new layer from `layer`'s config (a config it
    cannot be rebuilt from is a `ConfigError` naming the layer and the key)."""
    config = layer.get_config()
    with rebuilding(type(layer), config, "layer"):
        return type(layer).from_config(config)


def clone_model(model, input_tensors=None, clone_function=None, call_function=None,
                recursive=False, **kwargs):
    """Clones a `Sequential`, functional or subclassed model; weights are new.

    Args:
        model: the model to clone.
        input_tensors: for a functional model, `Input` tensors (matching the
            model's inputs) to build the clone on instead of new ones.
        clone_function: `layer -> new layer`, applied to every layer (but not
            to `InputLayer`s); e.g. to swap a layer type or share a layer.
        call_function: `(layer, *args, **kwargs) -> outputs`, used instead of
            `layer(*args, **kwargs)` when re-tracing a functional model.
        recursive: also clone the layers inside nested `Sequential` and
            functional models (otherwise `clone_function` gets the nested
            model as a whole).

    Returns:
        The new, uncompiled model.
    """
    if kwargs:
        raise ValueError(f"Unknown arguments to clone_model: {sorted(kwargs)}")
    clone_function = clone_function or _fresh_copy
    if isinstance(model, Sequential):
        if input_tensors is not None or call_function is not None:
            raise ValueError(
                "clone_model takes `input_tensors` and `call_function` for functional models "
                f"only; '{model.name}' is a Sequential model. Clone it without them and call "
                "the clone on your tensors.")
        return _clone_sequential(model, clone_function, recursive)
    if isinstance(model, Functional):
        return _clone_functional(model, input_tensors, clone_function, call_function,
                                 recursive)
    if input_tensors is not None or clone_function is not _fresh_copy or call_function:
        raise ValueError(
            f"Model '{model.name}' is a subclassed model: clone_model can only re-create it "
            "from its config, so `input_tensors`, `clone_function` and `call_function` "
            "do not apply.")
    try:
        return type(model).from_config(model.get_config())
    except (NotImplementedError, TypeError) as e:
        raise ValueError(
            f"Cannot clone subclassed model '{model.name}' ({type(model).__name__}): "
            "re-creating it from `get_config()` failed. Implement `get_config` (and "
            f"`from_config` if needed) on the class. Received: {type(e).__name__}: {e}"
        ) from None


def _clone_layer(layer, clone_function, recursive, clones):
    """The clone of `layer`, made once per layer (shared layers stay shared)."""
    if id(layer) not in clones:
        if recursive and isinstance(layer, (Sequential, Functional)):
            clone = clone_model(layer, clone_function=clone_function, recursive=True)
        else:
            clone = clone_function(layer)
        clones[id(layer)] = clone
    return clones[id(layer)]


def _clone_sequential(model, clone_function, recursive):
    clones = {}
    layers = [_clone_layer(layer, clone_function, recursive, clones)
              for layer in model._stack]
    input_layer = model._input_layer
    if input_layer is not None:
        layers.insert(0, InputLayer.from_config(input_layer.get_config()))
    return Sequential(layers, trainable=model.trainable, name=model.name)


def _clone_functional(model, input_tensors, clone_function, call_function, recursive):
    if input_tensors is None:
        new_inputs = [Input(batch_shape=t.shape, dtype=t.dtype,
                            name=t._keras_history.layer.name) for t in model.inputs]
    else:
        new_inputs = tree.flatten(input_tensors)
        if len(new_inputs) != len(model.inputs) or not all(
                isinstance(t, KerasTensor) for t in new_inputs):
            raise ValueError(
                f"`input_tensors` must be {len(model.inputs)} symbolic tensor(s) from "
                f"`hikeras.Input`, one per input of model '{model.name}'. "
                f"Received: {input_tensors!r}")
    mapped = {id(old): new for old, new in zip(model.inputs, new_inputs)}

    def substitute(value):
        return mapped[id(value)] if isinstance(value, KerasTensor) else value

    clones = {}
    for node in model._nodes_in_order:
        layer = _clone_layer(node.layer, clone_function, recursive, clones)
        args = tree.map_structure(substitute, node.call_args)
        kwargs = tree.map_structure(substitute, node.call_kwargs)
        outputs = (call_function(layer, *args, **kwargs) if call_function
                   else layer(*args, **kwargs))
        for old, new in zip(node.output_tensors, tree.flatten(outputs)):
            mapped[id(old)] = new
    inputs = tree.pack_sequence_as(model._inputs_struct, new_inputs)
    outputs = tree.map_structure(substitute, model._outputs_struct)
    return Functional(inputs, outputs, name=model.name, trainable=model.trainable)
