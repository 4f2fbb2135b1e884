"""The VGG network, shared by `vgg16` and `vgg19` (they differ in convolutions per block)."""

from ..layers import Conv2D, Dense, Flatten, MaxPooling2D
from . import imagenet_utils
from ._common import describe, finish_model, is_imagenet, model_input, pooled_features
from ._weights import published_weights


def build_vgg(family, convs_per_block, include_top, weights, input_tensor, input_shape, pooling,
              classes, classifier_activation, name, file_hashes):
    """VGG with `convs_per_block[i]` 3x3 convolutions in block i+1 (Keras's layer names)."""
    input_shape, img_input = model_input(weights, include_top, classes, pooling,
                                         input_tensor, input_shape,
                                         default_size=224, min_size=32)
    x = img_input
    for block, (filters, convs) in enumerate(zip((64, 128, 256, 512, 512), convs_per_block), 1):
        for conv in range(1, convs + 1):
            x = Conv2D(filters, (3, 3), activation="relu", padding="same",
                       name=f"block{block}_conv{conv}")(x)
        x = MaxPooling2D((2, 2), strides=(2, 2), name=f"block{block}_pool")(x)
    if include_top:
        x = Flatten(name="flatten")(x)
        x = Dense(4096, activation="relu", name="fc1")(x)
        x = Dense(4096, activation="relu", name="fc2")(x)
        imagenet_utils.validate_activation(classifier_activation, weights)
        x = Dense(classes, activation=classifier_activation, name="predictions")(x)
    else:
        x = pooled_features(x, pooling)
    lower = family.lower()
    suffix = "" if include_top else "_notop"
    published = None
    if is_imagenet(weights):
        published = published_weights(
            lower, f"{lower}_weights_tf_dim_ordering_tf_kernels{suffix}.h5",
            file_hashes[0 if include_top else 1])
    return finish_model(img_input, input_tensor, x, name, weights, published,
                        describe(family, include_top=include_top))
