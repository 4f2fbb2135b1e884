"""Writes keras_conv_fixtures.npz: real Keras outputs of convolution and pooling layers.

Not part of the test run. In a separate environment with TensorFlow:

    python3 -m venv ~/.venvs/tf && ~/.venvs/tf/bin/pip install tensorflow-cpu h5py
    ~/.venvs/tf/bin/python tests/layers/keras_conv_fixtures.py

For each case below it builds the Keras 3 layer, calls it on a fixed random
input, and stores the layer's `get_config()` (as JSON), its weights, the input
and Keras's output. `test_convolutional_keras.py` rebuilds each layer in
hikeras from Keras's own config, loads the same weights and compares outputs:
this pins down the padding arithmetic ("same" with strides, causal, output
padding of transposed convolutions, averages over padded windows), kernel
layouts and weight order where they are easiest to get subtly wrong.
"""

import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

HERE = os.path.dirname(os.path.abspath(__file__))

# (name, layer class, constructor kwargs, input shape)
CASES = [
    ("conv2d_same_strides", "Conv2D", dict(filters=3, kernel_size=3, strides=2, padding="same"),
     (2, 7, 6, 2)),
    ("conv2d_same_even_kernel", "Conv2D", dict(filters=2, kernel_size=(2, 4), padding="same",
                                              activation="relu"), (2, 5, 6, 3)),
    ("conv2d_groups_dilated", "Conv2D", dict(filters=4, kernel_size=(3, 2), dilation_rate=2,
                                            padding="same", groups=2), (2, 6, 7, 4)),
    ("conv1d_causal_dilated", "Conv1D", dict(filters=2, kernel_size=3, padding="causal",
                                            dilation_rate=2, activation="tanh"), (2, 9, 3)),
    ("conv3d_same", "Conv3D", dict(filters=2, kernel_size=2, strides=(1, 2, 1), padding="same"),
     (1, 3, 5, 4, 2)),
    ("conv2d_transpose_same", "Conv2DTranspose", dict(filters=3, kernel_size=3, strides=2,
                                                      padding="same"), (2, 4, 5, 2)),
    ("conv2d_transpose_valid_output_padding", "Conv2DTranspose",
     dict(filters=2, kernel_size=(3, 2), strides=(2, 3), output_padding=(1, 2)), (1, 3, 4, 2)),
    ("conv2d_transpose_same_output_padding", "Conv2DTranspose",
     dict(filters=2, kernel_size=4, strides=3, padding="same", output_padding=1), (1, 3, 3, 2)),
    ("conv1d_transpose_same_dilated", "Conv1DTranspose",
     dict(filters=2, kernel_size=3, dilation_rate=2, padding="same"), (2, 5, 3)),
    ("depthwise_conv2d", "DepthwiseConv2D", dict(kernel_size=3, depth_multiplier=2, strides=2,
                                                 padding="same"), (2, 6, 5, 3)),
    ("separable_conv2d", "SeparableConv2D", dict(filters=4, kernel_size=3, depth_multiplier=2,
                                                 padding="same", activation="relu"),
     (2, 5, 5, 3)),
    ("separable_conv1d", "SeparableConv1D", dict(filters=3, kernel_size=2, strides=2),
     (2, 7, 2)),
    ("max_pooling2d_same", "MaxPooling2D", dict(pool_size=3, strides=2, padding="same"),
     (2, 7, 6, 2)),
    ("average_pooling2d_same", "AveragePooling2D", dict(pool_size=3, strides=2, padding="same"),
     (2, 7, 6, 2)),
    ("average_pooling1d_same", "AveragePooling1D", dict(pool_size=4, strides=3, padding="same"),
     (2, 10, 2)),
    ("max_pooling3d_same", "MaxPooling3D", dict(pool_size=2, padding="same"), (1, 3, 5, 4, 2)),
    ("global_average_pooling2d", "GlobalAveragePooling2D", dict(keepdims=True), (2, 3, 4, 2)),
]


def main():
    import keras

    rng = np.random.default_rng(2024)
    arrays = {}
    for name, class_name, kwargs, shape in CASES:
        layer = getattr(keras.layers, class_name)(**kwargs)
        x = rng.standard_normal(shape).astype("float32")
        layer(x)
        weights = [rng.standard_normal(w.shape).astype("float32") for w in layer.weights]
        layer.set_weights(weights)
        arrays[f"{name}/config"] = np.array(json.dumps({"class_name": class_name,
                                                        "config": layer.get_config()}))
        arrays[f"{name}/x"] = x
        arrays[f"{name}/y"] = np.asarray(layer(x))
        for i, w in enumerate(weights):
            arrays[f"{name}/w{i}"] = w
    arrays["keras_version"] = np.array(keras.__version__)
    np.savez_compressed(os.path.join(HERE, "keras_conv_fixtures.npz"), **arrays)
    print(f"wrote {len(CASES)} cases with Keras {keras.__version__}")


if __name__ == "__main__":
    main()
