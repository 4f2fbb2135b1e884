"""One symbolic-call case per layer class exported by `hikeras.layers`.

`CASES[name]` builds the layer and describes its inputs with `None` for every
dimension that may vary from call to call: the batch axis always, and time or
spatial axes wherever the layer accepts any length. `test_symbolic_calls.py`
calls each layer on `Input`s of those shapes, then runs the model it makes on
data of two different sizes. `tests/layers/test_symbolic_calls.py` fails when
an exported class has no entry here, so a new layer must say how it is called.

An entry is `case(make, *input_shapes, dtype=..., data=...)`:

- `make()` returns a new layer (a wrapped layer or a cell is made inside it);
- each input shape excludes the batch axis; `None` marks an unknown axis;
- `dtype` is the inputs' dtype; `data(rng, shape)` draws one input of a
  concrete shape (default: standard normal floats, or integers in [0, 5));
- `call(layer, inputs, **kwargs)` calls the layer (default: on the one
  input, or on the list of them), passing `kwargs` (`training=True`) on.
"""

import collections

import numpy as np

from hikeras import layers

Case = collections.namedtuple("Case", ["make", "input_shapes", "dtype", "data", "call"])


def _one_or_list(layer, inputs, **kwargs):
    return layer(inputs[0] if len(inputs) == 1 else list(inputs), **kwargs)


def _positional(layer, inputs, **kwargs):
    return layer(*inputs, **kwargs)


def _cell(layer, inputs, **kwargs):
    return layer(inputs[0], list(inputs[1:]), **kwargs)


def case(make, *input_shapes, dtype="float32", data=None, call=_one_or_list):
    return Case(make, input_shapes, dtype, data, call)


def _images(rng, shape):
    return rng.uniform(0, 255, size=shape).astype("float32")


def _unit(rng, shape):
    return rng.uniform(0, 1, size=shape).astype("float32")


def _words(rng, shape):
    return rng.choice(np.array(["a", "b", "c", "zz"]), size=shape)


def _sentences(rng, shape):
    return rng.choice(np.array(["a b zz", "c c a", "b"]), size=shape)


# Layers that are called on no tensor, or never called (see test_layer_coverage.py).
NOT_CALLED = {
    "Wrapper": "an abstract base (TimeDistributed, Bidirectional, SpectralNormalization)",
    "InputLayer": "a functional graph's source, never called on a tensor",
}

T = None  # an unknown time or spatial length

CASES = {
    # ------------------------------------------------------------------ core
    "Layer": case(layers.Layer, (T, 3)),
    "Dense": case(lambda: layers.Dense(4), (T, 3)),
    "EinsumDense": case(lambda: layers.EinsumDense("abc,cd->abd", output_shape=(None, 4),
                                                   bias_axes="d"), (T, 3)),
    "Activation": case(lambda: layers.Activation("relu"), (T, T, 3)),
    "Identity": case(layers.Identity, (T, 3)),
    "Embedding": case(lambda: layers.Embedding(7, 4), (T,), dtype="int32"),
    "ReversibleEmbedding": case(lambda: layers.ReversibleEmbedding(7, 4), (T,), dtype="int32"),
    "Masking": case(layers.Masking, (T, 3)),
    "Lambda": case(lambda: layers.Lambda(lambda x: x * 2.0), (T, 3)),
    "OpLayer": case(lambda: layers.OpLayer("multiply", template=[None, 2.0]), (T, 3)),
    # --------------------------------------------------------- activations
    "ELU": case(layers.ELU, (T, 3)),
    "LeakyReLU": case(layers.LeakyReLU, (T, 3)),
    "PReLU": case(layers.PReLU, (4, 3)),
    "ReLU": case(layers.ReLU, (T, 3)),
    "Softmax": case(layers.Softmax, (T, 3)),
    # ------------------------------------------------------------- attention
    "Attention": case(layers.Attention, (T, 4), (T, 4)),
    "AdditiveAttention": case(layers.AdditiveAttention, (T, 4), (T, 4)),
    "MultiHeadAttention": case(lambda: layers.MultiHeadAttention(2, 3), (T, 4), (T, 4),
                               call=_positional),
    "GroupQueryAttention": case(lambda: layers.GroupQueryAttention(3, 4, 2), (T, 4), (T, 4),
                                call=_positional),
    # --------------------------------------------------------- convolutional
    "Conv1D": case(lambda: layers.Conv1D(2, 3), (T, 3)),
    "Conv2D": case(lambda: layers.Conv2D(2, 3, padding="same"), (T, T, 3)),
    "Conv3D": case(lambda: layers.Conv3D(2, 2), (T, T, T, 2)),
    "Conv1DTranspose": case(lambda: layers.Conv1DTranspose(2, 3, strides=2), (T, 3)),
    "Conv2DTranspose": case(lambda: layers.Conv2DTranspose(2, 3), (T, T, 3)),
    "Conv3DTranspose": case(lambda: layers.Conv3DTranspose(2, 2), (T, T, T, 2)),
    "DepthwiseConv1D": case(lambda: layers.DepthwiseConv1D(3), (T, 3)),
    "DepthwiseConv2D": case(lambda: layers.DepthwiseConv2D(3, padding="same"), (T, T, 3)),
    "SeparableConv1D": case(lambda: layers.SeparableConv1D(2, 3), (T, 3)),
    "SeparableConv2D": case(lambda: layers.SeparableConv2D(2, 3), (T, T, 3)),
    # --------------------------------------------------------------- merging
    "Add": case(layers.Add, (T, 3), (T, 3)),
    "Average": case(layers.Average, (T, 3), (T, 3)),
    "Concatenate": case(layers.Concatenate, (T, 3), (T, 2)),
    "Dot": case(lambda: layers.Dot(axes=2), (T, 3), (T, 3)),
    "Maximum": case(layers.Maximum, (T, 3), (T, 3)),
    "Minimum": case(layers.Minimum, (T, 3), (T, 3)),
    "Multiply": case(layers.Multiply, (T, 3), (T, 3)),
    "Subtract": case(layers.Subtract, (T, 3), (T, 3)),
    # --------------------------------------------------------- normalization
    "BatchNormalization": case(layers.BatchNormalization, (T, T, 3)),
    "GroupNormalization": case(lambda: layers.GroupNormalization(groups=2), (T, T, 4)),
    "LayerNormalization": case(layers.LayerNormalization, (T, 3)),
    "RMSNormalization": case(layers.RMSNormalization, (T, 3)),
    "SpectralNormalization": case(lambda: layers.SpectralNormalization(layers.Dense(2)),
                                  (T, 3)),
    "UnitNormalization": case(layers.UnitNormalization, (T, 3)),
    # --------------------------------------------------------------- pooling
    "AveragePooling1D": case(lambda: layers.AveragePooling1D(2), (T, 3)),
    "AveragePooling2D": case(lambda: layers.AveragePooling2D(2, padding="same"), (T, T, 3)),
    "AveragePooling3D": case(lambda: layers.AveragePooling3D(2), (T, T, T, 2)),
    "MaxPooling1D": case(lambda: layers.MaxPooling1D(padding="same"), (T, 3)),
    "MaxPooling2D": case(layers.MaxPooling2D, (T, T, 3)),
    "MaxPooling3D": case(layers.MaxPooling3D, (T, T, T, 2)),
    "GlobalAveragePooling1D": case(layers.GlobalAveragePooling1D, (T, 3)),
    "GlobalAveragePooling2D": case(layers.GlobalAveragePooling2D, (T, T, 3)),
    "GlobalAveragePooling3D": case(layers.GlobalAveragePooling3D, (T, T, T, 2)),
    "GlobalMaxPooling1D": case(layers.GlobalMaxPooling1D, (T, 3)),
    "GlobalMaxPooling2D": case(layers.GlobalMaxPooling2D, (T, T, 3)),
    "GlobalMaxPooling3D": case(layers.GlobalMaxPooling3D, (T, T, T, 2)),
    "AdaptiveAveragePooling1D": case(lambda: layers.AdaptiveAveragePooling1D(2), (T, 3)),
    "AdaptiveAveragePooling2D": case(lambda: layers.AdaptiveAveragePooling2D(2), (T, T, 3)),
    "AdaptiveAveragePooling3D": case(lambda: layers.AdaptiveAveragePooling3D(2),
                                     (T, T, T, 2)),
    "AdaptiveMaxPooling1D": case(lambda: layers.AdaptiveMaxPooling1D(2), (T, 3)),
    "AdaptiveMaxPooling2D": case(lambda: layers.AdaptiveMaxPooling2D(2), (T, T, 3)),
    "AdaptiveMaxPooling3D": case(lambda: layers.AdaptiveMaxPooling3D(2), (T, T, T, 2)),
    # --------------------------------------------------------- preprocessing
    "Normalization": case(lambda: layers.Normalization(mean=0.5, variance=2.0), (T, 3)),
    "Rescaling": case(lambda: layers.Rescaling(1 / 255), (T, T, 3)),
    "CategoryEncoding": case(lambda: layers.CategoryEncoding(5, output_mode="multi_hot"),
                             (T,), dtype="int32"),
    "Discretization": case(lambda: layers.Discretization(bin_boundaries=[-1.0, 0.0, 1.0]),
                           (T, 3)),
    "IntegerLookup": case(lambda: layers.IntegerLookup(vocabulary=[1, 2, 3]), (T,),
                          dtype="int64"),
    "StringLookup": case(lambda: layers.StringLookup(vocabulary=["a", "b", "c"]), (T,),
                         dtype="string", data=_words),
    "TextVectorization": case(lambda: layers.TextVectorization(vocabulary=["a", "b", "c"]),
                              (1,), dtype="string", data=_sentences),
    "CenterCrop": case(lambda: layers.CenterCrop(2, 3), (T, T, 3), data=_images),
    "Resizing": case(lambda: layers.Resizing(4, 5), (T, T, 3), data=_images),
    "RandomCrop": case(lambda: layers.RandomCrop(2, 3), (T, T, 3), data=_images),
    "RandomFlip": case(layers.RandomFlip, (T, T, 3), data=_images),
    "RandomRotation": case(lambda: layers.RandomRotation(0.2), (T, T, 3), data=_images),
    "RandomTranslation": case(lambda: layers.RandomTranslation(0.2, 0.1), (T, T, 3),
                              data=_images),
    "RandomZoom": case(lambda: layers.RandomZoom(0.2), (T, T, 3), data=_images),
    "RandomBrightness": case(lambda: layers.RandomBrightness(0.2), (T, T, 3), data=_images),
    "RandomContrast": case(lambda: layers.RandomContrast(0.2), (T, T, 3), data=_images),
    "RandomGrayscale": case(lambda: layers.RandomGrayscale(0.5), (T, T, 3), data=_images),
    "RandomHue": case(lambda: layers.RandomHue(0.2), (T, T, 3), data=_images),
    "RandomSaturation": case(lambda: layers.RandomSaturation(0.2), (T, T, 3), data=_images),
    "RandomInvert": case(layers.RandomInvert, (T, T, 3), data=_images),
    "RandomPosterization": case(lambda: layers.RandomPosterization(4), (T, T, 3),
                                data=_images),
    "Solarization": case(lambda: layers.Solarization(0.5), (T, T, 3), data=_images),
    "AutoContrast": case(layers.AutoContrast, (T, T, 3), data=_images),
    "RandomColorDegeneration": case(lambda: layers.RandomColorDegeneration(0.5), (T, T, 3),
                                    data=_images),
    "MixUp": case(layers.MixUp, (T, T, 3), data=_images),
    "CutMix": case(layers.CutMix, (T, T, 3), data=_images),
    "Pipeline": case(lambda: layers.Pipeline([layers.RandomFlip(), layers.RandomZoom(0.2)]),
                     (T, T, 3), data=_images),
    "Equalization": case(layers.Equalization, (T, T, 3), data=_images),
    "MaxNumBoundingBoxes": case(lambda: layers.MaxNumBoundingBoxes(4), (T, T, 3),
                                data=_images),
    "RandomSharpness": case(lambda: layers.RandomSharpness(0.5), (T, T, 3), data=_images),
    "RandomColorJitter": case(lambda: layers.RandomColorJitter(brightness_factor=0.2),
                              (T, T, 3), data=_images),
    "RandomGaussianBlur": case(lambda: layers.RandomGaussianBlur(0.5), (T, T, 3),
                               data=_images),
    "RandomErasing": case(lambda: layers.RandomErasing(0.5), (T, T, 3), data=_images),
    "RandomShear": case(lambda: layers.RandomShear(0.2), (T, T, 3), data=_images),
    "RandomPerspective": case(lambda: layers.RandomPerspective(scale=0.3), (T, T, 3),
                              data=_images),
    "RandomElasticTransform": case(lambda: layers.RandomElasticTransform(scale=0.3),
                                   (T, T, 3), data=_images),
    "ContrastLimitedAdaptiveHistogramEqualization": case(
        lambda: layers.ContrastLimitedAdaptiveHistogramEqualization(tile_grid_size=(2, 2)),
        (T, T, 3), data=_images),
    "RandAugment": case(lambda: layers.RandAugment(num_ops=2), (T, T, 3), data=_images),
    "AugMix": case(lambda: layers.AugMix(num_chains=2, chain_depth=2), (T, T, 3),
                   data=_images),
    "STFTSpectrogram": case(lambda: layers.STFTSpectrogram(frame_length=4, frame_step=2,
                                                           fft_length=4), (T, 1)),
    "MelSpectrogram": case(lambda: layers.MelSpectrogram(fft_length=16, sequence_stride=8,
                                                         sampling_rate=800, num_mel_bins=8),
                           (T,)),
    # -------------------------------------------------------- regularization
    "ActivityRegularization": case(lambda: layers.ActivityRegularization(l1=0.1), (T, 3)),
    "AlphaDropout": case(lambda: layers.AlphaDropout(0.5), (T, 3)),
    "Dropout": case(lambda: layers.Dropout(0.5), (T, 3)),
    "GaussianDropout": case(lambda: layers.GaussianDropout(0.5), (T, 3)),
    "GaussianNoise": case(lambda: layers.GaussianNoise(0.5), (T, 3)),
    "SpatialDropout1D": case(lambda: layers.SpatialDropout1D(0.5), (T, 3)),
    "SpatialDropout2D": case(lambda: layers.SpatialDropout2D(0.5), (T, T, 3)),
    "SpatialDropout3D": case(lambda: layers.SpatialDropout3D(0.5), (T, T, T, 2)),
    # ------------------------------------------------------------- reshaping
    "Cropping1D": case(layers.Cropping1D, (T, 3)),
    "Cropping2D": case(layers.Cropping2D, (T, T, 3)),
    "Cropping3D": case(layers.Cropping3D, (T, T, T, 2)),
    "Flatten": case(layers.Flatten, (T, 3)),
    "Permute": case(lambda: layers.Permute((2, 1)), (T, 3)),
    "RepeatVector": case(lambda: layers.RepeatVector(2), (3,)),
    "Reshape": case(lambda: layers.Reshape((-1, 2)), (T, 4)),
    "UpSampling1D": case(layers.UpSampling1D, (T, 3)),
    "UpSampling2D": case(layers.UpSampling2D, (T, T, 3)),
    "UpSampling3D": case(layers.UpSampling3D, (T, T, T, 2)),
    "ZeroPadding1D": case(layers.ZeroPadding1D, (T, 3)),
    "ZeroPadding2D": case(layers.ZeroPadding2D, (T, T, 3)),
    "ZeroPadding3D": case(layers.ZeroPadding3D, (T, T, T, 2)),
    # ------------------------------------------------------------------- rnn
    "SimpleRNN": case(lambda: layers.SimpleRNN(2, return_sequences=True), (T, 3)),
    "GRU": case(lambda: layers.GRU(2), (T, 3)),
    "LSTM": case(lambda: layers.LSTM(2, return_sequences=True), (T, 3)),
    "RNN": case(lambda: layers.RNN(layers.LSTMCell(2)), (T, 3)),
    "SimpleRNNCell": case(lambda: layers.SimpleRNNCell(2), (3,), (2,), call=_cell),
    "GRUCell": case(lambda: layers.GRUCell(2), (3,), (2,), call=_cell),
    "LSTMCell": case(lambda: layers.LSTMCell(2), (3,), (2,), (2,), call=_cell),
    "StackedRNNCells": case(lambda: layers.StackedRNNCells([layers.SimpleRNNCell(2)]),
                            (3,), (2,), call=_cell),
    "Bidirectional": case(lambda: layers.Bidirectional(layers.GRU(2, return_sequences=True)),
                          (T, 3)),
    "TimeDistributed": case(lambda: layers.TimeDistributed(layers.Dense(2)), (T, 3)),
    "ConvLSTM1D": case(lambda: layers.ConvLSTM1D(2, 3, padding="same"), (T, 4, 3)),
    "ConvLSTM2D": case(lambda: layers.ConvLSTM2D(2, 3), (T, 4, 4, 2)),
    "ConvLSTM3D": case(lambda: layers.ConvLSTM3D(2, 2), (T, 3, 3, 3, 1)),
}
