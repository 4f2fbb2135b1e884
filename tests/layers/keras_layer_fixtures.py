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
how each merging layer broadcasts, and image resizing (half-pixel bilinear
and nearest, aspect-ratio crops and pads, centre crops of smaller images),
adaptive pooling's overlapping and repeating bins, spectral normalisation's
in-place training update (kernel and `vector_u` after the call) and the
reverse projection of `ReversibleEmbedding`.
The random regularisation and augmentation layers are checked in inference
mode (the identity), where their Keras configs load; the geometric
augmentations (rotation, translation, zoom) also in training, with one-point
factor ranges that make them deterministic; the colour augmentations in
training too, with probabilities of 1 or 0 and one-point ranges. The categorical
preprocessing layers use given vocabularies and boundaries, on integer and
string inputs (string outputs are stored decoded, as numpy str arrays).
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
    instead of as one list), `ints` (integer inputs in `[0, ints)`), `strings`
    (string inputs drawn from this list), `pixels` (float inputs uniform in
    `(low, high)`, for colour layers),
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
    # adaptive bins that overlap (7 -> 3, 10 -> 4), repeat (2 -> 5) or keep (4 -> 4) elements
    case("adaptive_average_pooling1d", "AdaptiveAveragePooling1D", dict(output_size=3),
         (2, 7, 2)),
    case("adaptive_max_pooling1d_upsample_channels_first", "AdaptiveMaxPooling1D",
         dict(output_size=5, data_format="channels_first"), (2, 3, 2)),
    case("adaptive_average_pooling2d", "AdaptiveAveragePooling2D", dict(output_size=(3, 4)),
         (2, 7, 10, 2)),
    case("adaptive_max_pooling2d", "AdaptiveMaxPooling2D", dict(output_size=(4, 3)),
         (2, 10, 7, 2)),
    case("adaptive_average_pooling3d_channels_first", "AdaptiveAveragePooling3D",
         dict(output_size=(2, 5, 4), data_format="channels_first"), (1, 2, 5, 2, 4)),
    case("adaptive_max_pooling3d", "AdaptiveMaxPooling3D", dict(output_size=(3, 2, 2)),
         (1, 7, 5, 3, 2)),
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
    # the training call normalises the kernel and refines vector_u in place
    case("spectral_norm_dense_training", "SpectralNormalization",
         dict(layer=("Dense", dict(units=3))), (2, 4), call=dict(training=True)),
    case("spectral_norm_conv2d_two_iterations", "SpectralNormalization",
         dict(layer=("Conv2D", dict(filters=2, kernel_size=2)), power_iterations=2),
         (2, 4, 4, 3), call=dict(training=True)),
    case("spectral_norm_dense_inference", "SpectralNormalization",
         dict(layer=("Dense", dict(units=2, use_bias=False))), (2, 3)),
]

EMBEDDING_AND_MASKING = [
    case("embedding_mask_zero", "Embedding", dict(input_dim=6, output_dim=3, mask_zero=True),
         (2, 5), ints=6),
    case("reversible_embedding_forward", "ReversibleEmbedding",
         dict(input_dim=6, output_dim=3, mask_zero=True), (2, 5), ints=6),
    # `args` passes `reverse=True` to the building call too (float inputs are not indices)
    case("reversible_embedding_reverse_tied", "ReversibleEmbedding",
         dict(input_dim=5, output_dim=3), (2, 4, 3), args=True, call=dict(reverse=True)),
    case("reversible_embedding_reverse_untied_soft_cap", "ReversibleEmbedding",
         dict(input_dim=4, output_dim=3, tie_weights=False, logit_soft_cap=2.0), (2, 3),
         args=True, call=dict(reverse=True)),
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
    case("multi_head_attention_gated_window", "MultiHeadAttention",
         dict(num_heads=2, key_dim=3, value_dim=2, use_gate=True, sliding_window=2),
         [(2, 5, 4), (2, 5, 6)], args=True, call=dict(return_attention_scores=True)),
    case("group_query_attention", "GroupQueryAttention",
         dict(head_dim=2, num_query_heads=4, num_key_value_heads=2), [(2, 4, 5), (2, 3, 6)],
         args=True, call=dict(return_attention_scores=True)),
    case("group_query_attention_key_window", "GroupQueryAttention",
         dict(head_dim=2, num_query_heads=3, num_key_value_heads=1, sliding_window=2),
         [(2, 4, 5), (2, 4, 6), (2, 4, 3)], args=True),
    case("group_query_attention_gated_causal", "GroupQueryAttention",
         dict(head_dim=3, num_query_heads=2, num_key_value_heads=2, use_gate=True,
              use_bias=False, sliding_window=3), [(2, 5, 4), (2, 5, 4)], args=True,
         call=dict(use_causal_mask=True)),
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

# Keras's image layers default to `training=True` when called directly, so the
# random ones are called with `training=False` (inference: the identity).
IMAGE_PREPROCESSING = [
    case("resizing_bilinear_up", "Resizing", dict(height=5, width=7), (2, 3, 4, 2)),
    case("resizing_bilinear_down", "Resizing", dict(height=3, width=2), (2, 7, 5, 3)),
    case("resizing_nearest_mixed", "Resizing", dict(height=7, width=3, interpolation="nearest"),
         (2, 4, 5, 2)),
    case("resizing_nearest_down", "Resizing", dict(height=2, width=3, interpolation="nearest"),
         (1, 5, 7, 2)),
    case("resizing_crop_to_aspect_ratio", "Resizing",
         dict(height=4, width=4, crop_to_aspect_ratio=True), (2, 5, 9, 2)),
    case("resizing_crop_to_aspect_ratio_nearest", "Resizing",
         dict(height=3, width=6, crop_to_aspect_ratio=True, interpolation="nearest"),
         (1, 7, 5, 2)),
    case("resizing_pad_to_aspect_ratio", "Resizing",
         dict(height=4, width=6, pad_to_aspect_ratio=True, fill_value=0.5), (2, 5, 4, 2)),
    case("resizing_pad_to_aspect_ratio_channels_first", "Resizing",
         dict(height=6, width=3, pad_to_aspect_ratio=True, data_format="channels_first"),
         (1, 2, 4, 5)),
    case("resizing_single_image", "Resizing", dict(height=3, width=5), (4, 6, 2)),
    case("center_crop", "CenterCrop", dict(height=3, width=2), (2, 6, 5, 2)),
    case("center_crop_smaller", "CenterCrop", dict(height=5, width=4), (2, 3, 6, 2)),
    case("center_crop_smaller_channels_first", "CenterCrop",
         dict(height=4, width=3, data_format="channels_first"), (1, 2, 5, 2)),
    case("random_flip", "RandomFlip", dict(mode="horizontal", seed=1), (2, 3, 4, 2),
         call=dict(training=False)),
    case("random_brightness", "RandomBrightness", dict(factor=0.3, seed=2), (2, 3, 3, 1),
         call=dict(training=False)),
    case("random_contrast", "RandomContrast", dict(factor=(0.2, 0.6), value_range=(0, 1)),
         (2, 3, 3, 1), call=dict(training=False)),
    # Keras 3.15 returns RandomCrop's input uncropped outside training (its
    # docs say centre crop); at the target size both agree, so this checks the config.
    case("random_crop_target_size", "RandomCrop", dict(height=3, width=4), (2, 3, 4, 2),
         call=dict(training=False)),
    # The geometric augmentations with a one-point factor range are deterministic,
    # so they are checked in training: every fill mode, both interpolations.
    case("random_rotation_90_reflect", "RandomRotation", dict(factor=(0.25, 0.25)),
         (2, 5, 6, 2), call=dict(training=True)),
    case("random_rotation_odd_constant_nearest", "RandomRotation",
         dict(factor=(-0.1, -0.1), fill_mode="constant", interpolation="nearest",
              fill_value=0.5), (2, 5, 6, 2), call=dict(training=True)),
    case("random_rotation_odd_wrap", "RandomRotation",
         dict(factor=(0.07, 0.07), fill_mode="wrap"), (1, 6, 5, 2), call=dict(training=True)),
    case("random_rotation_nearest_fill_channels_first", "RandomRotation",
         dict(factor=(0.13, 0.13), fill_mode="nearest", data_format="channels_first"),
         (2, 2, 5, 6), call=dict(training=True)),
    case("random_rotation_single_image", "RandomRotation",
         dict(factor=(-0.3, -0.3), fill_mode="constant"), (6, 6, 1), call=dict(training=True)),
    case("random_translation_both_axes_reflect", "RandomTranslation",
         dict(height_factor=(0.3, 0.3), width_factor=(-0.2, -0.2)), (2, 5, 6, 2),
         call=dict(training=True)),
    case("random_translation_wrap_nearest", "RandomTranslation",
         dict(height_factor=(-0.4, -0.4), width_factor=(0.25, 0.25), fill_mode="wrap",
              interpolation="nearest"), (2, 5, 8, 1), call=dict(training=True)),
    case("random_translation_constant", "RandomTranslation",
         dict(height_factor=(-0.25, -0.25), width_factor=(0.35, 0.35), fill_mode="constant",
              fill_value=0.5), (1, 4, 6, 2), call=dict(training=True)),
    case("random_translation_nearest_fill_channels_first", "RandomTranslation",
         dict(height_factor=(0.45, 0.45), width_factor=(-0.3, -0.3), fill_mode="nearest",
              data_format="channels_first"), (1, 2, 5, 5), call=dict(training=True)),
    case("random_zoom_in_reflect", "RandomZoom", dict(height_factor=(-0.3, -0.3)),
         (2, 5, 6, 2), call=dict(training=True)),
    case("random_zoom_out_constant_nearest", "RandomZoom",
         dict(height_factor=(0.5, 0.5), width_factor=(0.2, 0.2), fill_mode="constant",
              interpolation="nearest", fill_value=-1.0), (2, 5, 6, 1), call=dict(training=True)),
    case("random_zoom_out_wrap", "RandomZoom",
         dict(height_factor=(0.6, 0.6), width_factor=(0.4, 0.4), fill_mode="wrap"),
         (1, 5, 7, 2), call=dict(training=True)),
    case("random_zoom_mixed_nearest_fill_channels_first", "RandomZoom",
         dict(height_factor=(0.45, 0.45), width_factor=(-0.35, -0.35), fill_mode="nearest",
              data_format="channels_first"), (1, 2, 6, 5), call=dict(training=True)),
]

# Strings for TextVectorization: case, ASCII and non-ASCII punctuation and
# letters, runs of whitespace, an empty string.
TEXTS = ["The cat sat.", "the DOG, the cat!", "  \u00bfQu\u00e9?  dog\tthe cat ",
         "\u00c9clair it's", "", "Dog", "the cat sat."]

CATEGORICAL_PREPROCESSING = [  # given vocabularies and boundaries (adapt has unit tests)
    case("category_encoding_one_hot", "CategoryEncoding",
         dict(num_tokens=5, output_mode="one_hot"), (2, 3), ints=5),
    case("category_encoding_multi_hot", "CategoryEncoding", dict(num_tokens=6), (3, 4), ints=6),
    case("category_encoding_count_weights", "CategoryEncoding",
         dict(num_tokens=4, output_mode="count"), (2, 3), ints=4,
         call=dict(count_weights=[[0.5, 1.0, 2.0], [0.25, -1.0, 3.0]])),
    case("discretization_int", "Discretization", dict(bin_boundaries=[-1.0, 0.0, 0.5]), (2, 5)),
    case("discretization_count", "Discretization",
         dict(bin_boundaries=[-0.5, 0.5], output_mode="count"), (3, 4)),
    case("integer_lookup_mask_two_oov", "IntegerLookup",
         dict(vocabulary=[1, 3, 5, 7], mask_token=0, num_oov_indices=2), (3, 4), ints=10),
    case("integer_lookup_multi_hot", "IntegerLookup",
         dict(vocabulary=[2, 4, 6], output_mode="multi_hot"), (3, 4), ints=8),
    case("integer_lookup_invert", "IntegerLookup",
         dict(vocabulary=[10, 20, 30], invert=True), (2, 4), ints=5),
    case("string_lookup_mask", "StringLookup",
         dict(vocabulary=["cat", "dog", "fish"], mask_token=""), (3, 4),
         strings=["cat", "dog", "fish", "bird", ""]),
    case("string_lookup_count_padded", "StringLookup",
         dict(vocabulary=["cat", "dog", "fish"], output_mode="count", pad_to_max_tokens=True,
              max_tokens=6), (3, 4), strings=["cat", "dog", "fish", "bird"]),
    case("string_lookup_one_hot", "StringLookup",
         dict(vocabulary=["cat", "dog"], output_mode="one_hot"), (4, 1),
         strings=["cat", "dog", "emu"]),
    case("string_lookup_invert", "StringLookup",
         dict(vocabulary=["cat", "dog", "fish"], invert=True), (2, 4), ints=6),
    case("text_vectorization_int_padded", "TextVectorization",
         dict(vocabulary=["the", "cat", "sat", "dog", "its"], output_sequence_length=5),
         (6, 1), strings=TEXTS),
    case("text_vectorization_ngrams_truncated", "TextVectorization",
         dict(vocabulary=["the cat", "cat", "the", "dog the"], ngrams=(2, 1),
              output_sequence_length=3), (5, 1), strings=TEXTS),
    case("text_vectorization_ngrams_count", "TextVectorization",
         dict(vocabulary=["the", "the cat", "cat sat", "the dog cat"], ngrams=3,
              output_mode="count"), (6,), strings=TEXTS),
    case("text_vectorization_characters_multi_hot", "TextVectorization",
         dict(vocabulary=["a", "t", "é", "?", " ", "É"], split="character", standardize="lower",
              output_mode="multi_hot", max_tokens=10, pad_to_max_tokens=True), (5, 1),
         strings=TEXTS),
    case("text_vectorization_tf_idf", "TextVectorization",
         dict(vocabulary=["the", "cat", "dog,", "sat."], idf_weights=[0.5, 1.5, 2.0, 0.25],
              standardize="strip_punctuation", output_mode="tf_idf"), (6, 1), strings=TEXTS),
    case("text_vectorization_unsplit", "TextVectorization",
         dict(vocabulary=["the cat sat.", "Dog"], standardize=None, split=None), (4, 1),
         strings=TEXTS),
]

UTILITY = [
    case("rescaling", "Rescaling", dict(scale=1 / 127.5, offset=-1.0), (2, 3)),
    case("normalization_given_stats", "Normalization",
         dict(mean=[0.5, -1.0, 2.0], variance=[4.0, 0.25, 1.0]), (2, 3)),
    case("dense_3d_input", "Dense", dict(units=2, activation="softplus"), (2, 3, 4)),
]

CONV_RECURRENT = [
    case("conv_lstm1d_same_sequences", "ConvLSTM1D",
         dict(filters=3, kernel_size=3, padding="same", return_sequences=True), (2, 5, 6, 2)),
    case("conv_lstm1d_masked", "ConvLSTM1D",
         dict(filters=2, kernel_size=2, return_sequences=True), (2, 5, 6, 2),
         call=dict(mask=MASK_2x5)),
    case("conv_lstm2d_valid_state_backwards", "ConvLSTM2D",
         dict(filters=2, kernel_size=3, return_state=True, go_backwards=True), (2, 4, 5, 5, 2)),
    case("conv_lstm2d_same_strides", "ConvLSTM2D",
         dict(filters=2, kernel_size=(3, 2), strides=2, padding="same", return_sequences=True,
              unit_forget_bias=False), (2, 3, 7, 6, 2)),
    case("conv_lstm2d_dilated_relu", "ConvLSTM2D",
         dict(filters=2, kernel_size=2, dilation_rate=2, activation="relu",
              recurrent_activation="hard_sigmoid"), (2, 3, 6, 5, 2)),
    case("conv_lstm2d_masked_backwards", "ConvLSTM2D",
         dict(filters=2, kernel_size=2, padding="same", go_backwards=True,
              return_sequences=True), (2, 5, 3, 4, 2), call=dict(mask=MASK_2x5)),
    case("conv_lstm2d_initial_state", "ConvLSTM2D",
         dict(filters=2, kernel_size=3, padding="same"), (2, 3, 4, 4, 2),
         states=[(2, 4, 4, 2), (2, 4, 4, 2)]),
    case("conv_lstm3d_same_sequences", "ConvLSTM3D",
         dict(filters=2, kernel_size=2, padding="same", return_sequences=True),
         (1, 3, 3, 4, 3, 2)),
    case("conv_lstm3d_strides_state", "ConvLSTM3D",
         dict(filters=2, kernel_size=2, strides=(1, 2, 1), return_state=True, use_bias=False),
         (1, 3, 3, 5, 4, 2)),
]

# The colour augmentations in training, with settings that make them
# deterministic (probability 1 or 0, one-point ranges, a hue turn of exactly
# half a turn either way), on pixels inside `value_range`.
_RGB_255 = dict(pixels=(0, 255), call=dict(training=True))
_RGB_1 = dict(pixels=(0, 1), call=dict(training=True))
COLOR_PREPROCESSING = [
    case("random_grayscale_all", "RandomGrayscale", dict(factor=1.0), (2, 3, 4, 3), **_RGB_255),
    case("random_grayscale_channels_first", "RandomGrayscale",
         dict(factor=1.0, data_format="channels_first"), (2, 3, 3, 4), **_RGB_255),
    case("random_grayscale_single_image", "RandomGrayscale", dict(factor=1.0), (3, 4, 3),
         **_RGB_1),
    case("random_grayscale_one_channel", "RandomGrayscale", dict(factor=1.0), (2, 3, 3, 1),
         **_RGB_255),
    case("random_grayscale_never", "RandomGrayscale", dict(factor=0.0, seed=4), (2, 3, 3, 3),
         **_RGB_255),
    case("random_invert_all", "RandomInvert", dict(factor=(1.0, 1.0)), (2, 3, 3, 3), **_RGB_255),
    case("random_invert_unit_range", "RandomInvert", dict(factor=(1.0, 1.0), value_range=(0, 1)),
         (3, 4, 3), **_RGB_1),
    case("random_invert_inference", "RandomInvert", dict(factor=0.7, seed=3), (2, 3, 3, 3),
         pixels=(0, 255), call=dict(training=False)),
    case("solarization_default", "Solarization", {}, (2, 3, 4, 3), **_RGB_255),
    case("solarization_unit_range", "Solarization", dict(value_range=(0, 1)), (2, 3, 3, 2),
         **_RGB_1),
    case("solarization_inference", "Solarization",
         dict(addition_factor=0.3, threshold_factor=(0.2, 0.6), seed=1), (2, 3, 3, 3),
         pixels=(0, 255), call=dict(training=False)),
    case("random_posterization_3_bits", "RandomPosterization", dict(factor=(3, 3)),
         (2, 4, 4, 3), **_RGB_255),
    case("random_posterization_unit_range_channels_first", "RandomPosterization",
         dict(factor=(5, 5), value_range=(0, 1), data_format="channels_first"), (2, 3, 4, 4),
         **_RGB_1),
    case("random_posterization_8_bits", "RandomPosterization", dict(factor=(8, 8)), (3, 3, 3),
         **_RGB_255),
    case("auto_contrast", "AutoContrast", {}, (2, 4, 5, 3), pixels=(30, 200),
         call=dict(training=True)),
    case("auto_contrast_unit_range_inference", "AutoContrast", dict(value_range=(0, 1)),
         (2, 3, 4, 2), pixels=(0.2, 0.7), call=dict(training=False)),
    case("random_saturation_lower", "RandomSaturation", dict(factor=(0.3, 0.3),
                                                             value_range=(0, 1)),
         (2, 3, 4, 3), **_RGB_1),
    case("random_saturation_raise_clipped", "RandomSaturation",
         dict(factor=(0.65, 0.65), value_range=(0, 1)), (2, 3, 4, 3), **_RGB_1),
    case("random_saturation_255", "RandomSaturation", dict(factor=(0.25, 0.25)), (2, 3, 3, 3),
         **_RGB_255),
    case("random_saturation_grey_channels_first", "RandomSaturation",
         dict(factor=(0.0, 0.0), value_range=(0, 1), data_format="channels_first"),
         (2, 3, 3, 4), **_RGB_1),
    case("random_hue_half_turn", "RandomHue", dict(factor=(1.0, 1.0), value_range=(0, 1)),
         (2, 3, 4, 3), **_RGB_1),
    case("random_hue_half_turn_255_single_image", "RandomHue", dict(factor=(1.0, 1.0)),
         (4, 3, 3), **_RGB_255),
    case("random_hue_zero_channels_first", "RandomHue",
         dict(factor=(0.0, 0.0), value_range=(0, 1), data_format="channels_first"),
         (2, 3, 4, 3), **_RGB_1),
    case("random_saturation_inference", "RandomSaturation", dict(factor=0.5, seed=2),
         (2, 3, 3, 3), pixels=(0, 255), call=dict(training=False)),
]

CASES = (CONVOLUTION + POOLING + RECURRENT + NORMALIZATION + EMBEDDING_AND_MASKING + MERGING
         + RESHAPING + ACTIVATIONS + ATTENTION + REGULARIZATION + UTILITY
         + IMAGE_PREPROCESSING + COLOR_PREPROCESSING + CATEGORICAL_PREPROCESSING + CONV_RECURRENT)


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
    if "pixels" in spec:
        return [rng.uniform(*spec["pixels"], shape).astype("float32") for shape in shapes]
    if "strings" in spec:
        return [np.array(spec["strings"])[rng.integers(0, len(spec["strings"]), shape)]
                for shape in shapes]
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


def _decoded(value):
    """String tensors (bytes) as a numpy str array, which npz stores without pickling."""
    value = np.asarray(value)
    if value.dtype == object:
        value = np.vectorize(lambda b: b.decode("utf-8"), otypes=[str])(value)
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
        outputs = [_decoded(o) for o in outputs]
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
