"""NASNet-A Mobile and Large (Zoph et al., 2018), as `keras.applications.nasnet`.

Keras names the convolutions, batch norms, poolings and most additions of
each cell (`normal_conv_1_3`, `reduction_add_1_stem_1`, ...) but leaves the
ReLUs, paddings, croppings and concatenations inside the cells unnamed; the
cells give those Keras's automatic names in the order Keras creates them (see
`_naming`), so the names, and loading by name, are Keras's. Keras 3 also
builds each cell inside name scopes (`normal_A_block_3/block_1/...`) that
prefix its weights' paths; the cells record those scopes and give the
weights the same paths.
"""

import contextlib

from .. import backend
from ..layers import (Activation, AveragePooling2D, BatchNormalization, Conv2D, Cropping2D,
                      Dense, GlobalAveragePooling2D, GlobalMaxPooling2D, MaxPooling2D,
                      SeparableConv2D, ZeroPadding2D, add, concatenate)
from . import imagenet_utils
from ._common import check_arguments, describe, finish_model, image_input, is_imagenet
from ._naming import KerasNames
from ._weights import PublishedFile, published_weights

__all__ = ["NASNetLarge", "NASNetMobile", "decode_predictions", "preprocess_input"]

# Default size -> file names and MD5s, (with the top, without it).
_PUBLISHED = {
    224: (("NASNet-mobile.h5", "nasnet_mobile.h5", "020fb642bf7360b370c678b08e0adf61"),
          ("NASNet-mobile-no-top.h5", "nasnet_mobile_no_top.h5",
           "1ed92395b5b598bdda52abe5c0dbfd63")),
    331: (("NASNet-large.h5", "nasnet_large.h5", "11577c9a518f0070763c2b964a382f17"),
          ("NASNet-large-no-top.h5", "nasnet_large_no_top.h5",
           "d81d89dc07e6e56530c4e77faddd61b5")),
}
_CHANNEL_AXIS = -1  # NASNet is channels_last only


class _Cell:
    """What the cells of one build share: automatic names, name scopes, and their layers."""

    def __init__(self):
        self.names = KerasNames()
        self._scopes = []
        self._scoped_layers = []

    @contextlib.contextmanager
    def scope(self, name):
        """Keras's `backend.name_scope(name)`: a prefix of the weight paths made inside."""
        self._scopes.append(name)
        try:
            yield
        finally:
            self._scopes.pop()

    def track(self, layer):
        """Records `layer` under the current name scopes; returns it."""
        if self._scopes:
            self._scoped_layers.append((layer, "/".join(self._scopes)))
        return layer

    def set_weight_paths(self):
        """Gives the weights of the scoped layers Keras 3's paths, `<scopes>/<layer>/<weight>`."""
        for layer, scope in self._scoped_layers:
            for variable in layer.weights:
                variable.path = f"{scope}/{layer.name}/{variable.name}"

    def relu(self, x, name=None):
        return Activation("relu", name=name or self.names("activation"))(x)

    def batch_norm(self, x, name):
        return self.track(BatchNormalization(axis=_CHANNEL_AXIS, momentum=0.9997, epsilon=1e-3,
                                             name=name))(x)

    def conv_1x1(self, x, filters, name):
        return self.track(Conv2D(filters, 1, strides=1, padding="same", use_bias=False,
                                 name=name, kernel_initializer="he_normal"))(x)

    def separable_block(self, x, filters, kernel_size=(3, 3), strides=(1, 1), block_id=None):
        """ReLU, separable convolution (stride `strides`), BN, ReLU, separable convolution, BN."""
        kernel_size = (kernel_size, kernel_size) if isinstance(kernel_size, int) else kernel_size
        with self.scope(f"separable_conv_block_{block_id}"):
            x = self.relu(x)
            padding = "same"
            if strides == (2, 2):
                x = ZeroPadding2D(padding=imagenet_utils.correct_pad(x, kernel_size),
                                  name=f"separable_conv_1_pad_{block_id}")(x)
                padding = "valid"
            x = self.track(SeparableConv2D(filters, kernel_size, strides=strides,
                                           name=f"separable_conv_1_{block_id}", padding=padding,
                                           use_bias=False))(x)
            x = self.batch_norm(x, f"separable_conv_1_bn_{block_id}")
            x = self.relu(x)
            x = self.track(SeparableConv2D(filters, kernel_size,
                                           name=f"separable_conv_2_{block_id}", padding="same",
                                           use_bias=False))(x)
            return self.batch_norm(x, f"separable_conv_2_bn_{block_id}")

    def adjust(self, p, ip, filters, block_id):
        """The previous cell's output `p` brought to `ip`'s size and `filters` channels."""
        with self.scope("adjust_block"):
            if p is None:
                return ip
            if p.shape[-2] != ip.shape[-2]:  # halve the size: two offset strided 1x1 paths
                with self.scope(f"adjust_reduction_block_{block_id}"):
                    return self._halved(p, filters, block_id)
            if p.shape[_CHANNEL_AXIS] != filters:  # project the channels
                with self.scope(f"adjust_projection_block_{block_id}"):
                    p = self.relu(p)
                    p = self.conv_1x1(p, filters, f"adjust_conv_projection_{block_id}")
                    return self.batch_norm(p, f"adjust_bn_{block_id}")
            return p

    def _halved(self, p, filters, block_id):
        p = self.relu(p, name=f"adjust_relu_1_{block_id}")
        p1 = AveragePooling2D(1, strides=2, padding="valid",
                              name=f"adjust_avg_pool_1_{block_id}")(p)
        p1 = self.conv_1x1(p1, filters // 2, f"adjust_conv_1_{block_id}")
        p2 = ZeroPadding2D(padding=((0, 1), (0, 1)), name=self.names("zero_padding2d"))(p)
        p2 = Cropping2D(cropping=((1, 0), (1, 0)), name=self.names("cropping2d"))(p2)
        p2 = AveragePooling2D(1, strides=2, padding="valid",
                              name=f"adjust_avg_pool_2_{block_id}")(p2)
        p2 = self.conv_1x1(p2, filters // 2, f"adjust_conv_2_{block_id}")
        p = concatenate([p1, p2], axis=_CHANNEL_AXIS, name=self.names("concatenate"))
        return self.batch_norm(p, f"adjust_bn_{block_id}")

    def _squeezed_input(self, ip, filters, kind, block_id):
        h = self.relu(ip)
        h = self.conv_1x1(h, filters, f"{kind}_conv_1_{block_id}")
        return self.batch_norm(h, f"{kind}_bn_1_{block_id}")

    def normal(self, ip, p, filters, block_id):
        """A normal cell: five pairs of branches, concatenated with `p`. Returns (x, ip)."""
        with self.scope(f"normal_A_block_{block_id}"):
            p = self.adjust(p, ip, filters, block_id)
            h = self._squeezed_input(ip, filters, "normal", block_id)
            with self.scope("block_1"):
                x1 = add([self.separable_block(h, filters, (5, 5),
                                               block_id=f"normal_left1_{block_id}"),
                          self.separable_block(p, filters, block_id=f"normal_right1_{block_id}")],
                         name=f"normal_add_1_{block_id}")
            with self.scope("block_2"):
                x2 = add([self.separable_block(p, filters, (5, 5),
                                               block_id=f"normal_left2_{block_id}"),
                          self.separable_block(p, filters, (3, 3),
                                               block_id=f"normal_right2_{block_id}")],
                         name=f"normal_add_2_{block_id}")
            x3 = AveragePooling2D(3, strides=1, padding="same",
                                  name=f"normal_left3_{block_id}")(h)
            x3 = add([x3, p], name=f"normal_add_3_{block_id}")
            x4 = add([AveragePooling2D(3, strides=1, padding="same",
                                       name=f"normal_left4_{block_id}")(p),
                      AveragePooling2D(3, strides=1, padding="same",
                                       name=f"normal_right4_{block_id}")(p)],
                     name=f"normal_add_4_{block_id}")
            with self.scope("block_5"):
                x5 = self.separable_block(h, filters, block_id=f"normal_left5_{block_id}")
                x5 = add([x5, h], name=f"normal_add_5_{block_id}")
            x = concatenate([p, x1, x2, x3, x4, x5], axis=_CHANNEL_AXIS,
                            name=f"normal_concat_{block_id}")
        return x, ip

    def reduction(self, ip, p, filters, block_id):
        """A reduction cell: halves the size. Returns (x, ip)."""
        with self.scope(f"reduction_A_block_{block_id}"):
            p = self.adjust(p, ip, filters, block_id)
            h = self._squeezed_input(ip, filters, "reduction", block_id)
            h3 = ZeroPadding2D(padding=imagenet_utils.correct_pad(h, 3),
                               name=f"reduction_pad_1_{block_id}")(h)
            with self.scope("block_1"):
                x1 = add([self.separable_block(h, filters, (5, 5), strides=(2, 2),
                                               block_id=f"reduction_left1_{block_id}"),
                          self.separable_block(p, filters, (7, 7), strides=(2, 2),
                                               block_id=f"reduction_right1_{block_id}")],
                         name=f"reduction_add_1_{block_id}")
            with self.scope("block_2"):
                x2 = add([MaxPooling2D(3, strides=2, padding="valid",
                                       name=f"reduction_left2_{block_id}")(h3),
                          self.separable_block(p, filters, (7, 7), strides=(2, 2),
                                               block_id=f"reduction_right2_{block_id}")],
                         name=f"reduction_add_2_{block_id}")
            with self.scope("block_3"):
                x3 = add([AveragePooling2D(3, strides=2, padding="valid",
                                           name=f"reduction_left3_{block_id}")(h3),
                          self.separable_block(p, filters, (5, 5), strides=(2, 2),
                                               block_id=f"reduction_right3_{block_id}")],
                         name=f"reduction_add3_{block_id}")
            x4 = AveragePooling2D(3, strides=1, padding="same",
                                  name=f"reduction_left4_{block_id}")(x1)
            x4 = add([x2, x4], name=self.names("add"))
            with self.scope("block_5"):
                x5 = add([self.separable_block(x1, filters, (3, 3),
                                               block_id=f"reduction_left4_{block_id}"),
                          MaxPooling2D(3, strides=2, padding="valid",
                                       name=f"reduction_right5_{block_id}")(h3)],
                         name=f"reduction_add4_{block_id}")
            x = concatenate([x2, x3, x4, x5], axis=_CHANNEL_AXIS,
                            name=f"reduction_concat_{block_id}")
        return x, ip


def NASNet(input_shape=None, penultimate_filters=4032, num_blocks=6, stem_block_filters=96,
           skip_reduction=True, filter_multiplier=2, include_top=True, weights="imagenet",
           input_tensor=None, pooling=None, classes=1000, default_size=None,
           classifier_activation="softmax", name="NASNet"):
    """NASNet-A: a stem, then `num_blocks` normal cells around each of two reduction cells."""
    if backend.image_data_format() == "channels_first":
        raise ValueError("NASNet does not support the `channels_first` image data format. "
                         "Switch to `channels_last` with "
                         "hikeras.backend.set_image_data_format('channels_last').")
    check_arguments(weights, include_top, classes, pooling)
    if isinstance(input_shape, tuple) and None in input_shape and is_imagenet(weights):
        raise ValueError("When specifying the input shape of a NASNet and loading `ImageNet` "
                         "weights, the input_shape argument must be static (no None entries). "
                         f"Received: input_shape={input_shape}")
    default_size = 331 if default_size is None else default_size
    if is_imagenet(weights) and default_size not in _PUBLISHED:
        raise ValueError("ImageNet weights can only be loaded with NASNetLarge or NASNetMobile "
                         f"(default_size 331 or 224). Received: default_size={default_size}")
    input_shape = imagenet_utils.obtain_input_shape(
        input_shape, default_size=default_size, min_size=32,
        data_format=backend.image_data_format(), require_flatten=include_top, weights=weights)
    img_input = image_input(input_tensor, input_shape)
    if penultimate_filters % (24 * filter_multiplier**2) != 0:
        raise ValueError("For NASNet-A models, the `penultimate_filters` must be a multiple of "
                         "24 * (`filter_multiplier` ** 2). "
                         f"Received: penultimate_filters={penultimate_filters}")

    cell = _Cell()
    filters = penultimate_filters // 24
    x = Conv2D(stem_block_filters, 3, strides=2, padding="valid", use_bias=False,
               name="stem_conv1", kernel_initializer="he_normal")(img_input)
    x = cell.batch_norm(x, "stem_bn1")
    p = None
    x, p = cell.reduction(x, p, filters // filter_multiplier**2, block_id="stem_1")
    x, p = cell.reduction(x, p, filters // filter_multiplier, block_id="stem_2")
    for stage in range(3):
        stage_filters = filters * filter_multiplier**stage
        if stage > 0:
            x, p0 = cell.reduction(x, p, stage_filters, block_id=f"reduce_{stage * num_blocks}")
            p = p if skip_reduction else p0
        for i in range(num_blocks):
            block_id = f"{i}" if stage == 0 else f"{stage * num_blocks + i + 1}"
            x, p = cell.normal(x, p, stage_filters, block_id=block_id)
    x = cell.relu(x)
    cell.set_weight_paths()

    if include_top:
        x = GlobalAveragePooling2D(name=cell.names("global_average_pooling2d"))(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Dense(classes, activation=classifier_activation, name="predictions")(x)
    elif pooling == "avg":
        x = GlobalAveragePooling2D(name=cell.names("global_average_pooling2d"))(x)
    elif pooling == "max":
        x = GlobalMaxPooling2D(name=cell.names("global_max_pooling2d"))(x)

    published = None
    if is_imagenet(weights):
        remote, local, md5 = _PUBLISHED[default_size][0 if include_top else 1]
        # Keras keeps the file in its cache under another name than the one it downloads.
        published = PublishedFile(local, published_weights("nasnet", remote).origin, md5)
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe(name, include_top=include_top))


_DOC = """Instantiates the {name} architecture (Zoph et al., 2018).

    Args:
        input_shape: optional shape tuple, only with `include_top=False`
            (otherwise `({size}, {size}, 3)`){mobile_note}; at least 32x32.
        include_top: whether to include the fully-connected layer at the top.
        weights: `None` (random initialisation), `"imagenet"` (Keras's
            published file, from the Keras cache; see docs/applications.md) or
            the path of a weights file.
        input_tensor: optional symbolic tensor to use as the image input.
        pooling: with `include_top=False`: `None` (4D output), `"avg"` or `"max"`.
        classes: number of classes, only without `"imagenet"` weights.
        classifier_activation: activation of the top layer (`None` for logits).
        name: the model's name.

    Returns:
        A functional `Model` (channels_last only). Inputs are preprocessed with
        `hikeras.applications.nasnet.preprocess_input` (pixels to [-1, 1]).
    """


def NASNetMobile(input_shape=None, include_top=True, weights="imagenet", input_tensor=None,
                 pooling=None, classes=1000, classifier_activation="softmax",
                 name="nasnet_mobile"):
    if not include_top and input_shape is None:
        input_shape = (224, 224, 3)
    return NASNet(input_shape, penultimate_filters=1056, num_blocks=4, stem_block_filters=32,
                  skip_reduction=False, filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor, pooling=pooling, classes=classes,
                  default_size=224, classifier_activation=classifier_activation, name=name)


def NASNetLarge(input_shape=None, include_top=True, weights="imagenet", input_tensor=None,
                pooling=None, classes=1000, classifier_activation="softmax",
                name="nasnet_large"):
    return NASNet(input_shape, penultimate_filters=4032, num_blocks=6, stem_block_filters=96,
                  skip_reduction=True, filter_multiplier=2, include_top=include_top,
                  weights=weights, input_tensor=input_tensor, pooling=pooling, classes=classes,
                  default_size=331, classifier_activation=classifier_activation, name=name)


NASNetMobile.__doc__ = _DOC.format(name="NASNetMobile", size=224,
                                   mobile_note=" (also 224x224 by default without the top)")
NASNetLarge.__doc__ = _DOC.format(name="NASNetLarge", size=331, mobile_note="")


def preprocess_input(x, data_format=None):
    """Scales pixels from [0, 255] to [-1, 1] (Keras's "tf" mode)."""
    return imagenet_utils.preprocess_input(x, data_format=data_format, mode="tf")


def decode_predictions(preds, top=5):
    """See `imagenet_utils.decode_predictions`."""
    return imagenet_utils.decode_predictions(preds, top=top)
