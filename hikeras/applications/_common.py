"""What every application constructor shares: argument checks, the input, the top, the model.

A family module builds its network between `image_input` and `finish_model`:

    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape, default_size, min_size)
    x = ...the family's layers...
    x = pooled_features(x, pooling, avg_name=..., max_name=...)   # when include_top=False
    return finish_model(img_input, input_tensor, x, name, weights, published, description)
"""

from .. import backend
from ..layers import GlobalAveragePooling2D, GlobalMaxPooling2D, Input
from ..layers.node import KerasTensor
from ..models import Model
from ._weights import check_weights_argument, load_weights_into
from .imagenet_utils import obtain_input_shape

POOLING_MODES = (None, "avg", "max")


def check_arguments(weights, include_top, classes, pooling):
    """The checks every constructor makes before building anything.

    Unlike Keras, an unknown `pooling` is an error rather than silently no pooling.
    """
    check_weights_argument(weights)
    if isinstance(weights, str) and weights == "imagenet" and include_top and classes != 1000:
        raise ValueError("If using `weights='imagenet'` with `include_top=True`, `classes` "
                         f"should be 1000. Received: classes={classes}")
    if pooling not in POOLING_MODES:
        raise ValueError("`pooling` must be None (the last block's 4D feature map), 'avg' "
                         "(global average pooling) or 'max' (global max pooling). "
                         f"Received: pooling={pooling!r}")


def is_imagenet(weights):
    return isinstance(weights, str) and weights == "imagenet"


def channel_axis():
    """The channel axis of a 4D image tensor under the current image data format."""
    return 1 if backend.image_data_format() == "channels_first" else 3


def spatial_size(input_shape):
    """(rows, cols) of an input shape without its batch axis."""
    if backend.image_data_format() == "channels_first":
        return input_shape[1], input_shape[2]
    return input_shape[0], input_shape[1]


def image_input(input_tensor, input_shape):
    """The tensor the network starts from: `input_tensor` itself, or a new `Input`."""
    if input_tensor is None:
        return Input(shape=input_shape)
    if not isinstance(input_tensor, KerasTensor):
        raise ValueError("`input_tensor` must be a symbolic tensor (the output of "
                         "`hikeras.Input` or of a layer called on one). "
                         f"Received: input_tensor of type {type(input_tensor).__name__}")
    return input_tensor


def model_input(weights, include_top, classes, pooling, input_tensor, input_shape,
                default_size, min_size):
    """`(input_shape, img_input)`: the argument checks, Keras's input-shape rules, the input.

    Families with their own shape rules (MobileNet's `alpha`/rows pairing, NASNet's)
    call the three steps themselves.
    """
    check_arguments(weights, include_top, classes, pooling)
    input_shape = obtain_input_shape(input_shape, default_size=default_size, min_size=min_size,
                                     data_format=backend.image_data_format(),
                                     require_flatten=include_top, weights=weights)
    return input_shape, image_input(input_tensor, input_shape)


def source_inputs(tensor):
    """The model inputs `tensor` derives from (Keras's `get_source_inputs`)."""
    found, seen, stack = [], set(), [tensor]
    while stack:
        current = stack.pop()
        history = current._keras_history
        layer = history.layer
        node = layer._inbound_nodes[history.node_index]
        if not node.input_tensors:  # an InputLayer's node
            if id(current) not in seen:
                seen.add(id(current))
                found.append(current)
            continue
        stack.extend(reversed(node.input_tensors))
    return found[0] if len(found) == 1 else found


def pooled_features(x, pooling, avg_name=None, max_name=None):
    """`include_top=False`: global average or max pooling, or the 4D map unchanged."""
    if pooling == "avg":
        return GlobalAveragePooling2D(name=avg_name)(x)
    if pooling == "max":
        return GlobalMaxPooling2D(name=max_name)(x)
    return x


def finish_model(img_input, input_tensor, outputs, name, weights, published, description):
    """The functional model from the network's source inputs to `outputs`, weights loaded."""
    inputs = img_input if input_tensor is None else source_inputs(input_tensor)
    model = Model(inputs, outputs, name=name)
    load_weights_into(model, weights, published, description)
    return model


def describe(family, **arguments):
    """'ResNet50 (include_top=False)': the configuration in error messages."""
    shown = ", ".join(f"{key}={value!r}" for key, value in arguments.items())
    return f"{family} ({shown})" if shown else family
