"""ConvNeXt Tiny, Small, Base, Large, XLarge (Liu et al., 2022), as `keras.applications.convnext`.

As in Keras, the stem and the three downsampling blocks are nested
`Sequential` models (`convnext_tiny_stem`, `convnext_tiny_downsampling_block_0`),
the pointwise convolutions are `Dense` layers, each block's residual is
scaled by a `LayerScale` and (when the drop path rate is not 0) dropped by a
`StochasticDepth` during training, and the network normalises its own input
(`include_preprocessing`): it takes pixels in [0, 255], so `preprocess_input`
is the identity.
"""

import numpy as np

from .. import backend, initializers, ops
from ..layers import (Activation, Conv2D, Dense, GlobalAveragePooling2D, GlobalMaxPooling2D,
                      Layer, LayerNormalization, Normalization)
from ..models import Sequential
from ..ops import kernels
from ..utils.rng import make_generator
from . import imagenet_utils
from ._common import describe, finish_model, is_imagenet, model_input
from ._naming import KerasNames
from ._weights import PublishedFile

__all__ = ["ConvNeXtBase", "ConvNeXtLarge", "ConvNeXtSmall", "ConvNeXtTiny", "ConvNeXtXLarge",
           "LayerScale", "StochasticDepth", "decode_predictions", "preprocess_input"]

_WEIGHTS_URL = "https://storage.googleapis.com/tensorflow/keras-applications/convnext/"
# SHA-256 of Keras's published files, (with the top, without it).
WEIGHTS_HASHES = {
    "convnext_tiny": ("8ae6e78ce2933352b1ef4008e6dd2f17bc40771563877d156bc6426c7cf503ff",
                      "d547c096cabd03329d7be5562c5e14798aa39ed24b474157cef5e85ab9e49ef1"),
    "convnext_small": ("ce1277d8f1ee5a0ef0e171469089c18f5233860ceaf9b168049cb9263fd7483c",
                       "6fc8009faa2f00c1c1dfce59feea9b0745eb260a7dd11bee65c8e20843da6eab"),
    "convnext_base": ("52cbb006d3dadd03f6e095a8ca1aca47aecdd75acb4bc74bce1f5c695d0086e6",
                      "40a20c5548a5e9202f69735ecc06c990e6b7c9d2de39f0361e27baeb24cb7c45"),
    "convnext_large": ("070c5ed9ed289581e477741d3b34beffa920db8cf590899d6d2c67fba2a198a6",
                       "96f02b6f0753d4f543261bc9d09bed650f24dd6bc02ddde3066135b63d23a1cd"),
    "convnext_xlarge": ("c1f5ccab661354fc3a79a10fa99af82f0fbf10ec65cb894a3ae0815f17a889ee",
                        "de3f8a54174130e0cecdc71583354753d557fcf1f4487331558e2a16ba0cfe05"),
}
MODEL_CONFIGS = {
    "tiny": {"depths": [3, 3, 9, 3], "projection_dims": [96, 192, 384, 768],
             "default_size": 224},
    "small": {"depths": [3, 3, 27, 3], "projection_dims": [96, 192, 384, 768],
              "default_size": 224},
    "base": {"depths": [3, 3, 27, 3], "projection_dims": [128, 256, 512, 1024],
             "default_size": 224},
    "large": {"depths": [3, 3, 27, 3], "projection_dims": [192, 384, 768, 1536],
              "default_size": 224},
    "xlarge": {"depths": [3, 3, 27, 3], "projection_dims": [256, 512, 1024, 2048],
               "default_size": 224},
}
_EPSILON = 1e-6


class StochasticDepth(Layer):
    """Drops the whole residual path of random samples while training (Keras's layer).

    Each sample's path is kept with probability `1 - drop_path_rate` and then
    scaled by `1 / (1 - drop_path_rate)`; at inference it is the identity.

    Args:
        drop_path_rate: probability of dropping a sample's path, in [0, 1].

    >>> import numpy as np
    >>> StochasticDepth(0.5)(np.ones((2, 3))).tolist()
    [[1.0, 1.0, 1.0], [1.0, 1.0, 1.0]]
    """

    def __init__(self, drop_path_rate, **kwargs):
        super().__init__(**kwargs)
        self.drop_path_rate = drop_path_rate
        self._rng = make_generator(None)  # the global seed's stream

    def call(self, x, training=None):
        if not training or not self.drop_path_rate:
            return x
        # Dropout of whole samples: one draw per sample, kept ones scaled by 1/keep.
        per_sample = (x.shape[0],) + (1,) * (len(x.shape) - 1)
        return kernels.dropout(x, self.drop_path_rate, rng=self._rng, noise_shape=per_sample)

    def get_config(self):
        config = super().get_config()
        config.update({"drop_path_rate": self.drop_path_rate})
        return config


class LayerScale(Layer):
    """Multiplies its input by a learned per-channel scale, `gamma` (Keras's layer).

    Args:
        init_values: the initial value of every scale.
        projection_dim: the number of channels (the last axis).

    >>> import numpy as np
    >>> LayerScale(0.5, 2)(np.ones((1, 2))).tolist()
    [[0.5, 0.5]]
    """

    def __init__(self, init_values, projection_dim, **kwargs):
        super().__init__(**kwargs)
        self.init_values = init_values
        self.projection_dim = projection_dim
        # Keras leaves the weight unnamed ("variable", "variable_1", ... from a
        # process-wide counter); the ConvNeXt builder gives Keras's names.
        self._variable_name = "variable"

    def build(self, input_shape):
        self.gamma = self.add_weight(shape=(self.projection_dim,),
                                     initializer=initializers.Constant(self.init_values),
                                     trainable=True, name=self._variable_name)
        super().build(input_shape)

    def call(self, x):
        return ops.multiply(x, self.gamma)

    def get_config(self):
        config = super().get_config()
        config.update({"init_values": self.init_values, "projection_dim": self.projection_dim})
        return config


def ConvNeXtBlock(projection_dim, drop_path_rate=0.0, layer_scale_init_value=1e-6, name=None,
                  *, names=None):
    """A ConvNeXt block: 7x7 depthwise convolution, LayerNorm, 4x MLP (as `Dense`), GELU,
    LayerScale, stochastic depth, plus the input. Returns a function of the input tensor.
    """
    names = names or KerasNames()

    def apply(inputs):
        x = Conv2D(projection_dim, 7, padding="same", groups=projection_dim,
                   name=f"{name}_depthwise_conv")(inputs)
        x = LayerNormalization(epsilon=_EPSILON, name=f"{name}_layernorm")(x)
        x = Dense(4 * projection_dim, name=f"{name}_pointwise_conv_1")(x)
        x = Activation("gelu", name=f"{name}_gelu")(x)
        x = Dense(projection_dim, name=f"{name}_pointwise_conv_2")(x)
        if layer_scale_init_value is not None:
            scale = LayerScale(layer_scale_init_value, projection_dim,
                               name=f"{name}_layer_scale")
            scale._variable_name = names("variable")
            x = scale(x)
        if drop_path_rate:
            layer = StochasticDepth(drop_path_rate, name=f"{name}_stochastic_depth")
        else:
            layer = Activation("linear", name=f"{name}_identity")
        return inputs + layer(x)

    return apply


def PreStem(name):
    """ImageNet's mean and variance on [0, 255] pixels, as constants (no weights)."""
    def apply(x):
        return Normalization(mean=[0.485 * 255, 0.456 * 255, 0.406 * 255],
                             variance=[(0.229 * 255) ** 2, (0.224 * 255) ** 2,
                                       (0.225 * 255) ** 2],
                             name=f"{name}_prestem_normalization")(x)

    return apply


def Head(num_classes=1000, classifier_activation=None, name=None):
    """Global average pooling, LayerNorm and the classifier."""
    def apply(x):
        x = GlobalAveragePooling2D(name=f"{name}_head_gap")(x)
        x = LayerNormalization(epsilon=_EPSILON, name=f"{name}_head_layernorm")(x)
        return Dense(num_classes, activation=classifier_activation, name=f"{name}_head_dense")(x)

    return apply


def ConvNeXt(depths, projection_dims, drop_path_rate=0.0, layer_scale_init_value=1e-6,
             default_size=224, name="convnext", include_preprocessing=True, include_top=True,
             weights=None, input_tensor=None, input_shape=None, pooling=None, classes=1000,
             classifier_activation="softmax", weights_name=None):
    """The ConvNeXt skeleton: `depths[i]` blocks of `projection_dims[i]` channels per stage."""
    if backend.image_data_format() == "channels_first":
        raise ValueError("ConvNeXt does not support the `channels_first` image data format. "
                         "Switch to `channels_last` with "
                         "hikeras.backend.set_image_data_format('channels_last').")
    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape,
                                         default_size=default_size, min_size=32)
    if is_imagenet(weights):
        _check_imagenet_variant(depths, projection_dims, name, weights_name)

    x = img_input
    if include_preprocessing and input_shape[-1] == 3:
        x = PreStem(name=name)(x)
    downsampling = [Sequential([
        Conv2D(projection_dims[0], 4, strides=4, name=f"{name}_stem_conv"),
        LayerNormalization(epsilon=_EPSILON, name=f"{name}_stem_layernorm"),
    ], name=f"{name}_stem")]
    for i in range(3):
        downsampling.append(Sequential([
            LayerNormalization(epsilon=_EPSILON, name=f"{name}_downsampling_layernorm_{i}"),
            Conv2D(projection_dims[i + 1], 2, strides=2, name=f"{name}_downsampling_conv_{i}"),
        ], name=f"{name}_downsampling_block_{i}"))

    # The drop path rate grows linearly over the blocks, from 0 to `drop_path_rate`.
    drop_rates = [float(rate) for rate in np.linspace(0.0, drop_path_rate, sum(depths))]
    names = KerasNames()
    first = 0
    for i in range(4):
        x = downsampling[i](x)
        _nest_weight_paths(downsampling[i])
        for j in range(depths[i]):
            x = ConvNeXtBlock(projection_dims[i], drop_path_rate=drop_rates[first + j],
                              layer_scale_init_value=layer_scale_init_value,
                              name=f"{name}_stage_{i}_block_{j}", names=names)(x)
        first += depths[i]

    if include_top:
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Head(num_classes=classes, classifier_activation=classifier_activation, name=name)(x)
    else:
        # Keras leaves these unnamed, and normalises the features whatever the pooling.
        if pooling == "avg":
            x = GlobalAveragePooling2D()(x)
        elif pooling == "max":
            x = GlobalMaxPooling2D()(x)
        x = LayerNormalization(epsilon=_EPSILON)(x)

    published = None
    if is_imagenet(weights):
        file_name = name + (".h5" if include_top else "_notop.h5")
        published = PublishedFile(file_name, _WEIGHTS_URL + file_name,
                                  WEIGHTS_HASHES[weights_name][0 if include_top else 1])
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe(name, include_top=include_top))


def _nest_weight_paths(model):
    """Gives the weights of a nested model's layers Keras 3's paths, `<model>/<layer>/<weight>`.

    Keras 3 names a variable by the name scopes open when it is created, and a nested
    model builds its layers inside its own scope; hikeras names weights `<layer>/<weight>`
    wherever the layer sits. Loading ignores these paths (by topology, or by layer name
    for `.h5`), but `layer.weights` and saved weight names then read as Keras's.
    """
    for layer in model.layers:
        for variable in layer.weights:
            variable.path = f"{model.name}/{layer.name}/{variable.name}"


def _check_imagenet_variant(depths, projection_dims, name, weights_name):
    """Keras's checks that the published file fits: the variant's shape, and its name."""
    expected = MODEL_CONFIGS[weights_name.split("convnext_")[-1]]
    if list(depths) != expected["depths"] or list(projection_dims) != expected["projection_dims"]:
        raise ValueError(
            f"Architecture configuration does not match {weights_name} variant: with "
            f"weights='imagenet' it must be exactly the pre-trained one. Expected depths "
            f"{expected['depths']} and projection_dims {expected['projection_dims']}. "
            f"Received: depths={depths}, projection_dims={projection_dims}")
    if weights_name not in name:
        raise ValueError(
            f"Model name {name!r} does not match weights variant {weights_name!r}: with "
            f"weights='imagenet' the name must contain {weights_name!r} (it names the "
            f"published file). Received: name={name!r}")


_DOC = """Instantiates the {name} architecture (Liu et al., 2022).

    The model preprocesses its input itself (`include_preprocessing`): it takes
    float or uint8 pixels in [0, 255] (`preprocess_input` is the identity).

    Args:
        include_top: whether to include the classification head.
        include_preprocessing: whether the model starts with ImageNet's
            per-channel normalisation (only for 3-channel inputs).
        weights: `None` (random initialisation), `"imagenet"` (Keras's
            published file, from the Keras cache; see docs/applications.md) or
            the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        input_shape: optional shape tuple, only with `include_top=False`
            (otherwise `(224, 224, 3)`); at least 32x32.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or
            `"max"`; the features are layer-normalised in every case, as in Keras.
        classes: number of classes, only without `"imagenet"` weights.
        classifier_activation: activation of the top layer (`None` for logits).
        name: the model's name (it also names the published weight file).

    Returns:
        A functional `Model`.
    """


def _variant(size):
    config = MODEL_CONFIGS[size]
    weights_name = f"convnext_{size}"

    def constructor(include_top=True, include_preprocessing=True, weights="imagenet",
                    input_tensor=None, input_shape=None, pooling=None, classes=1000,
                    classifier_activation="softmax", name=weights_name):
        return ConvNeXt(config["depths"], config["projection_dims"], drop_path_rate=0.0,
                        layer_scale_init_value=1e-6, default_size=config["default_size"],
                        name=name, include_preprocessing=include_preprocessing,
                        include_top=include_top, weights=weights, input_tensor=input_tensor,
                        input_shape=input_shape, pooling=pooling, classes=classes,
                        classifier_activation=classifier_activation, weights_name=weights_name)

    title = "XLarge" if size == "xlarge" else size.capitalize()
    constructor.__name__ = constructor.__qualname__ = f"ConvNeXt{title}"
    constructor.__doc__ = _DOC.format(name=constructor.__name__)
    return constructor


ConvNeXtTiny = _variant("tiny")
ConvNeXtSmall = _variant("small")
ConvNeXtBase = _variant("base")
ConvNeXtLarge = _variant("large")
ConvNeXtXLarge = _variant("xlarge")


def preprocess_input(x, data_format=None):
    """The identity: ConvNeXt normalises inside the model (kept for Keras's API)."""
    return x


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
