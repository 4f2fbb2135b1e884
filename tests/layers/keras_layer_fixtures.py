"""Writes keras_layer_fixtures.npz: real Keras outputs of layers for known weights.

Not part of the test run. In a separate environment with TensorFlow:

    python3 -m venv ~/.venvs/tf && ~/.venvs/tf/bin/pip install tensorflow-cpu h5py
    ~/.venvs/tf/bin/python tests/layers/keras_layer_fixtures.py

For each case below it builds the Keras 3 layer, calls it on fixed random
inputs, and stores the layer's `get_config()` (as JSON), its weights before
and after the call, the inputs, the call's keyword arguments and Keras's
outputs. `test_layers_keras.py` rebuilds each layer in hikeras from Keras's
own config, loads the same weights and compares. The cases are where layers
are easiest to get subtly wrong: padding arithmetic ("same" with strides,
causal, output padding of transposed convolutions, averages over padded
windows), kernel layouts and weight order, recurrent gate order, masking and
`go_backwards`, GRU's two reset modes, bidirectional merging, normalisation
axes and moving statistics, attention's projections, masks and scaling,
bilinear upsampling, the channels-first layouts of the 3D reshaping layers,
and how each merging layer broadcasts. The random regularisation layers are
checked in inference mode (the identity), where their Keras configs load.
"""

import json
import os

import numpy as np

os.environ.setdefault("TF_CPP_MIN_LOG_LEVEL", "3")
os.environ.setdefault("CUDA_VISIBLE_DEVICES", "")
os.environ.setdefault("KERAS_BACKEND", "tensorflow")

HERE = os.path.dirname(os.path.abspath(__file__))

# Sequence masks: the first sample is padded at the end, the second has a
# gap in the middle (Keras's recurrent layers carry the state over it).
MASK_2x5 = [[True, True, True, False, False], [True, False, True, True, True]]


def case(name, class_name, kwargs, inputs, **options):
    """One fixture. `inputs`: a shape, or a list of shapes for several inputs.

    Options: `call` (keyword arguments of the call: JSON values, plus `mask`
    as a nested list of booleans), `args` (pass several inputs positionally
    instead of as one list), `ints` (integer inputs in `[0, ints)`),
    `states` (shapes of an `initial_state`).
    """
    return dict(name=name, class_name=class_name, kwargs=kwargs, inputs=inputs, **options)


CONVOLUTION = [
    case("conv2d_same_strides", "Conv2D", dict(filters=3, kernel_size=3, strides=2,
                                               padding="same"), (2, 7, 6, 2)),
    case("conv2d_same_even_kernel", "Conv2D", dict(filters=2, kernel_size=(2, 4), padding="same",
                                                   activation="relu"), (2, 5, 6, 3)),
    case("conv2d_groups_dilated", "Conv2D", dict(filters=4, kernel_size=(3, 2), dilation_rate=2,
                                                 padding="same", groups=2), (2, 6, 7, 4)),
    case("conv1d_causal_dilated", "Conv1D", dict(filters=2, kernel_size=3, padding="causal",
                                                 dilation_rate=2, activation="tanh"), (2, 9, 3)),
    case("conv3d_same", "Conv3D", dict(filters=2, kernel_size=2, strides=(1, 2, 1),
                                       padding="same"), (1, 3, 5, 4, 2)),
    case("conv2d_transpose_same", "Conv2DTranspose", dict(filters=3, kernel_size=3, strides=2,
                                                          padding="same"), (2, 4, 5, 2)),
    case("conv2d_transpose_valid_output_padding", "Conv2DTranspose",
         dict(filters=2, kernel_size=(3, 2), strides=(2, 3), output_padding=(1, 2)),
         (1, 3, 4, 2)),
    case("conv2d_transpose_same_output_padding", "Conv2DTranspose",
         dict(filters=2, kernel_size=4, strides=3, padding="same", output_padding=1),
         (1, 3, 3, 2)),
    case("conv1d_transpose_same_strides", "Conv1DTranspose",
         dict(filters=2, kernel_size=3, strides=2, padding="same"), (2, 5, 3)),
    case("depthwise_conv2d", "DepthwiseConv2D", dict(kernel_size=3, depth_multiplier=2, strides=2,
                                                     padding="same"), (2, 6, 5, 3)),
    case("separable_conv2d", "SeparableConv2D", dict(filters=4, kernel_size=3, depth_multiplier=2,
                                                     padding="same", activation="relu"),
         (2, 5, 5, 3)),
    case("separable_conv1d", "SeparableConv1D", dict(filters=3, kernel_size=2, strides=2),
         (2, 7, 2)),
]

POOLING = [
    case("max_pooling2d_same", "MaxPooling2D", dict(pool_size=3, strides=2, padding="same"),
         (2, 7, 6, 2)),
    case("average_pooling2d_same", "AveragePooling2D", dict(pool_size=3, strides=2,
                                                            padding="same"), (2, 7, 6, 2)),
    case("average_pooling1d_same", "AveragePooling1D", dict(pool_size=4, strides=3,
                                                            padding="same"), (2, 10, 2)),
    case("max_pooling1d_valid", "MaxPooling1D", dict(pool_size=3, strides=2), (2, 8, 3)),
    case("max_pooling3d_same", "MaxPooling3D", dict(pool_size=2, padding="same"),
         (1, 3, 5, 4, 2)),
    case("average_pooling3d_valid", "AveragePooling3D", dict(pool_size=(2, 1, 2)),
         (1, 4, 3, 4, 2)),
    case("global_average_pooling2d", "GlobalAveragePooling2D", dict(keepdims=True),
         (2, 3, 4, 2)),
    case("global_max_pooling1d", "GlobalMaxPooling1D", {}, (2, 5, 3)),
    case("global_average_pooling1d_masked", "GlobalAveragePooling1D", {}, (2, 5, 3),
         call=dict(mask=MASK_2x5)),
]

RECURRENT = [
    case("lstm_sequences", "LSTM", dict(units=4, return_sequences=True), (2, 5, 3)),
    case("lstm_state_backwards", "LSTM", dict(units=3, return_state=True, go_backwards=True),
         (2, 5, 3)),
    case("lstm_masked", "LSTM", dict(units=3, return_sequences=True), (2, 5, 3),
         call=dict(mask=MASK_2x5)),
    case("lstm_initial_state", "LSTM", dict(units=3, unit_forget_bias=False), (2, 5, 3),
         states=[(2, 3), (2, 3)]),
    case("gru_reset_after", "GRU", dict(units=4, return_sequences=True), (2, 5, 3)),
    case("gru_reset_before", "GRU", dict(units=3, reset_after=False, return_state=True),
         (2, 5, 3)),
    case("gru_masked_backwards", "GRU", dict(units=3, go_backwards=True), (2, 5, 3),
         call=dict(mask=MASK_2x5)),
    case("simple_rnn_relu_masked", "SimpleRNN", dict(units=3, activation="relu",
                                                     return_sequences=True), (2, 5, 3),
         call=dict(mask=MASK_2x5)),
    case("bidirectional_concat", "Bidirectional",
         dict(layer=("LSTM", dict(units=3, return_sequences=True))), (2, 5, 3)),
    case("bidirectional_sum_gru", "Bidirectional",
         dict(layer=("GRU", dict(units=2)), merge_mode="sum"), (2, 5, 3)),
    case("bidirectional_ave_masked", "Bidirectional",
         dict(layer=("SimpleRNN", dict(units=2, return_sequences=True)), merge_mode="ave"),
         (2, 5, 3), call=dict(mask=MASK_2x5)),
    case("bidirectional_mul", "Bidirectional",
         dict(layer=("LSTM", dict(units=2)), merge_mode="mul"), (2, 5, 3)),
    case("time_distributed_dense", "TimeDistributed",
         dict(layer=("Dense", dict(units=3, activation="tanh"))), (2, 4, 3)),
]

NORMALIZATION = [
    case("batch_norm_inference", "BatchNormalization", {}, (4, 3)),
    case("batch_norm_training", "BatchNormalization", dict(momentum=0.8), (6, 2, 3),
         call=dict(training=True)),
    case("batch_norm_axis1_uncentered", "BatchNormalization", dict(axis=1, center=False),
         (4, 3, 2, 2), call=dict(training=True)),
    case("layer_norm", "LayerNormalization", {}, (2, 3, 4)),
    case("layer_norm_two_axes_unscaled", "LayerNormalization", dict(axis=[1, 2], scale=False),
         (2, 3, 4)),
    case("layer_norm_rms", "LayerNormalization", dict(rms_scaling=True), (2, 5)),  # deprecated
    case("group_norm", "GroupNormalization", dict(groups=2), (2, 3, 4)),
    case("unit_norm", "UnitNormalization", dict(axis=[1, 2]), (2, 3, 4)),
    case("rms_norm", "RMSNormalization", {}, (2, 3, 4)),
    case("rms_norm_two_axes", "RMSNormalization", dict(axis=[2, 1], epsilon=0.1), (2, 3, 4)),
]

EMBEDDING_AND_MASKING = [
    case("embedding_mask_zero", "Embedding", dict(input_dim=6, output_dim=3, mask_zero=True),
         (2, 5), ints=6),
    case("masking", "Masking", dict(mask_value=0.0), (2, 4, 3)),
]

MERGING = [
    case("add", "Add", {}, [(2, 3), (2, 3), (2, 3)]),
    case("subtract", "Subtract", {}, [(2, 3), (2, 3)]),
    case("multiply", "Multiply", {}, [(2, 3), (2, 3)]),
    case("average", "Average", {}, [(2, 3), (2, 3)]),
    case("maximum", "Maximum", {}, [(2, 3), (2, 3)]),
    case("minimum", "Minimum", {}, [(2, 3), (2, 3)]),
    case("concatenate_axis1", "Concatenate", dict(axis=1), [(2, 2, 3), (2, 4, 3)]),
    case("dot_axes", "Dot", dict(axes=(1, 2)), [(2, 3, 4), (2, 5, 3)]),
    case("dot_normalized", "Dot", dict(axes=1, normalize=True), [(2, 4), (2, 4)]),
]

RESHAPING = [
    case("permute", "Permute", dict(dims=(2, 3, 1)), (2, 3, 4, 2)),
    case("repeat_vector", "RepeatVector", dict(n=3), (2, 4)),
    case("upsampling1d", "UpSampling1D", dict(size=3), (2, 3, 2)),
    case("upsampling2d_nearest", "UpSampling2D", dict(size=(2, 3)), (2, 2, 3, 2)),
    case("upsampling2d_bilinear", "UpSampling2D", dict(size=(2, 3), interpolation="bilinear"),
         (2, 3, 4, 2)),
    case("zero_padding1d", "ZeroPadding1D", dict(padding=(1, 2)), (2, 3, 2)),
    case("zero_padding2d", "ZeroPadding2D", dict(padding=((1, 2), (0, 1))), (2, 3, 2, 2)),
    case("cropping1d", "Cropping1D", dict(cropping=(1, 2)), (2, 6, 2)),
    case("cropping2d", "Cropping2D", dict(cropping=((1, 0), (2, 1))), (2, 4, 5, 2)),
    case("upsampling3d", "UpSampling3D", dict(size=(1, 2, 3)), (2, 2, 3, 2, 2)),
    case("upsampling3d_channels_first", "UpSampling3D",
         dict(size=(2, 1, 2), data_format="channels_first"), (1, 2, 2, 3, 2)),
    case("zero_padding3d", "ZeroPadding3D", dict(padding=(1, (0, 2), (2, 1))), (2, 2, 3, 2, 2)),
    case("zero_padding3d_channels_first", "ZeroPadding3D",
         dict(padding=((0, 1), 1, (2, 0)), data_format="channels_first"), (1, 2, 2, 3, 2)),
    case("cropping3d", "Cropping3D", dict(cropping=((1, 0), (0, 2), 1)), (2, 3, 4, 5, 2)),
    case("cropping3d_channels_first", "Cropping3D",
         dict(cropping=(1, (2, 0), (0, 1)), data_format="channels_first"), (1, 2, 3, 4, 3)),
]

ACTIVATIONS = [
    case("relu_clipped_leaky_threshold", "ReLU", dict(max_value=1.5, negative_slope=0.1,
                                                      threshold=0.5), (3, 4)),
    case("leaky_relu", "LeakyReLU", dict(negative_slope=0.2), (3, 4)),
    case("prelu_shared_axes", "PReLU", dict(shared_axes=[1]), (2, 3, 4)),
    case("elu", "ELU", dict(alpha=0.5), (3, 4)),
    case("softmax_axis1", "Softmax", dict(axis=1), (2, 3, 4)),
]

ATTENTION = [
    case("multi_head_attention", "MultiHeadAttention", dict(num_heads=2, key_dim=3),
         [(2, 4, 5), (2, 3, 6)], args=True, call=dict(return_attention_scores=True)),
    case("multi_head_attention_causal_key", "MultiHeadAttention",
         dict(num_heads=3, key_dim=2, value_dim=4, output_shape=7, use_bias=False),
         [(2, 4, 5), (2, 4, 5), (2, 4, 3)], args=True, call=dict(use_causal_mask=True)),
    case("attention_scaled", "Attention", dict(use_scale=True), [(2, 3, 4), (2, 5, 4)],
         call=dict(return_attention_scores=True)),
    case("attention_concat_causal", "Attention", dict(score_mode="concat"),
         [(2, 4, 3), (2, 4, 2), (2, 4, 3)], call=dict(use_causal_mask=True)),
    case("additive_attention", "AdditiveAttention", {}, [(2, 3, 4), (2, 5, 4)]),
]

REGULARIZATION = [  # inference mode: the identity
    case("spatial_dropout1d", "SpatialDropout1D", dict(rate=0.5, seed=3), (2, 4, 3)),
    case("spatial_dropout2d_channels_first", "SpatialDropout2D",
         dict(rate=0.3, data_format="channels_first"), (2, 3, 2, 2)),
    case("spatial_dropout3d", "SpatialDropout3D", dict(rate=0.3), (1, 2, 2, 2, 3)),
    case("gaussian_noise", "GaussianNoise", dict(stddev=0.5, seed=1), (2, 3)),
    case("gaussian_dropout", "GaussianDropout", dict(rate=0.4), (2, 3)),
    case("alpha_dropout", "AlphaDropout", dict(rate=0.2, noise_shape=(None, 1, 3)), (2, 4, 3)),
    case("activity_regularization", "ActivityRegularization", dict(l1=0.01, l2=0.1), (2, 3)),
]

UTILITY = [
    case("rescaling", "Rescaling", dict(scale=1 / 127.5, offset=-1.0), (2, 3)),
    case("normalization_given_stats", "Normalization",
         dict(mean=[0.5, -1.0, 2.0], variance=[4.0, 0.25, 1.0]), (2, 3)),
    case("dense_3d_input", "Dense", dict(units=2, activation="softplus"), (2, 3, 4)),
]

CASES = (CONVOLUTION + POOLING + RECURRENT + NORMALIZATION + EMBEDDING_AND_MASKING + MERGING
         + RESHAPING + ACTIVATIONS + ATTENTION + REGULARIZATION + UTILITY)


def _build(keras, class_name, kwargs):
    kwargs = dict(kwargs)
    if "layer" in kwargs:
        inner, inner_kwargs = kwargs["layer"]
        kwargs["layer"] = getattr(keras.layers, inner)(**inner_kwargs)
    return getattr(keras.layers, class_name)(**kwargs)


def _inputs(rng, spec):
    shapes = spec["inputs"] if isinstance(spec["inputs"], list) else [spec["inputs"]]
    if "ints" in spec:
        return [rng.integers(0, spec["ints"], shape).astype("int32") for shape in shapes]
    xs = [rng.standard_normal(shape).astype("float32") for shape in shapes]
    if spec["class_name"] == "Masking":  # whole time steps equal to mask_value
        xs[0][0, 1] = 0.0
        xs[0][1, 3] = 0.0
    return xs


def _call(layer, spec, xs, states):
    call = dict(spec.get("call", {}))
    if "mask" in call:
        call["mask"] = np.array(call["mask"])
    if states:
        call["initial_state"] = states
    if spec.get("args"):
        return layer(*xs, **call)
    return layer(xs if isinstance(spec["inputs"], list) else xs[0], **call)


def _weight(rng, variable):
    value = rng.standard_normal(variable.shape).astype("float32")
    if "variance" in variable.path:  # moving variances are positive
        value = np.abs(value) + 0.5
    return value


def main():
    import keras

    rng = np.random.default_rng(2024)
    arrays = {}
    for spec in CASES:
        name = spec["name"]
        layer = _build(keras, spec["class_name"], spec["kwargs"])
        xs = _inputs(rng, spec)
        states = [rng.standard_normal(s).astype("float32") for s in spec.get("states", [])]
        inference = dict(spec, call={k: v for k, v in spec.get("call", {}).items()
                                     if k != "training"})
        _call(layer, inference, xs, states)  # builds the weights without updating them
        weights = [_weight(rng, w) for w in layer.weights]
        layer.set_weights(weights)
        outputs = _call(layer, spec, xs, states)
        outputs = list(outputs) if isinstance(outputs, (list, tuple)) else [outputs]
        arrays[f"{name}/config"] = np.array(json.dumps({"class_name": spec["class_name"],
                                                        "config": layer.get_config()}))
        arrays[f"{name}/call"] = np.array(json.dumps(spec.get("call", {})))
        arrays[f"{name}/args"] = np.array(bool(spec.get("args")))
        arrays[f"{name}/list"] = np.array(isinstance(spec["inputs"], list))
        for group, values in (("x", xs), ("state", states), ("y", outputs),
                              ("w", weights), ("after", layer.get_weights())):
            for i, value in enumerate(values):
                arrays[f"{name}/{group}{i}"] = np.asarray(value)
        if len(xs) == 1 and not states:
            mask = spec.get("call", {}).get("mask")
            mask = layer.compute_mask(keras.ops.convert_to_tensor(xs[0]),
                                      None if mask is None else keras.ops.convert_to_tensor(mask))
            if mask is not None and not isinstance(mask, (list, tuple)):
                arrays[f"{name}/mask_out"] = np.asarray(mask)
    arrays["keras_version"] = np.array(keras.__version__)
    np.savez_compressed(os.path.join(HERE, "keras_layer_fixtures.npz"), **arrays)
    print(f"wrote {len(CASES)} cases with Keras {keras.__version__}")


if __name__ == "__main__":
    main()
