"""Which layers export to ONNX, with a small model around each, and which do not (and why).

`CASES` maps every exported layer class name to a `Case`: how to build a
layer and what input(s) to call it on. `NOT_EXPORTED` holds the layers that do
not export, each with its reason. `test_layer_export.py` fails for a class in
neither table, so a new layer fails until it is decided.
"""

import dataclasses

from hikeras import layers


@dataclasses.dataclass
class Case:
    """A layer to export alone: `make()` builds it; one input shape per model input."""

    make: object
    shapes: tuple  # a shape (without batch), or a tuple of shapes for several inputs
    dtype: str = "float32"
    high: int = 0  # for integer inputs: values in [0, high)

    @property
    def multi(self):
        return isinstance(self.shapes[0], tuple)


def case(make, *shapes, dtype="float32", high=0):
    return Case(make, shapes[0] if len(shapes) == 1 else shapes, dtype, high)


L = layers
SEQ, IMG1, IMG2, IMG3 = (7, 3), (9, 3), (8, 8, 3), (6, 6, 6, 2)

CASES = {
    # core
    "Dense": case(lambda: L.Dense(4, activation="tanh"), (5,)),
    "EinsumDense": case(lambda: L.EinsumDense("ab,bc->ac", output_shape=4, bias_axes="c"),
                        (5,)),
    "Embedding": case(lambda: L.Embedding(11, 4), (6,), dtype="int32", high=11),
    "Activation": case(lambda: L.Activation("gelu"), (5,)),
    "Identity": case(lambda: L.Identity(), (5,)),
    "Masking": case(lambda: L.Masking(0.0), SEQ),
    "ReversibleEmbedding": case(lambda: L.ReversibleEmbedding(11, 4), (6,), dtype="int32",
                                high=11),
    # convolution
    "Conv1D": case(lambda: L.Conv1D(4, 3, padding="causal", dilation_rate=2), IMG1),
    "Conv2D": case(lambda: L.Conv2D(4, 3, strides=2, padding="same", activation="relu"), IMG2),
    "Conv3D": case(lambda: L.Conv3D(3, 2, padding="same"), IMG3),
    "Conv1DTranspose": case(lambda: L.Conv1DTranspose(4, 3, strides=2), IMG1),
    "Conv2DTranspose": case(lambda: L.Conv2DTranspose(4, 3, strides=2, padding="same"), IMG2),
    "Conv3DTranspose": case(lambda: L.Conv3DTranspose(2, 2, strides=2), IMG3),
    "DepthwiseConv1D": case(lambda: L.DepthwiseConv1D(3, depth_multiplier=2), IMG1),
    "DepthwiseConv2D": case(lambda: L.DepthwiseConv2D(3, padding="same"), IMG2),
    "SeparableConv1D": case(lambda: L.SeparableConv1D(4, 3, depth_multiplier=2), IMG1),
    "SeparableConv2D": case(lambda: L.SeparableConv2D(4, 3, padding="same"), IMG2),
    # pooling
    "MaxPooling1D": case(lambda: L.MaxPooling1D(2), IMG1),
    "MaxPooling2D": case(lambda: L.MaxPooling2D(3, strides=2, padding="same"), IMG2),
    "MaxPooling3D": case(lambda: L.MaxPooling3D(2), IMG3),
    "AveragePooling1D": case(lambda: L.AveragePooling1D(2, padding="same"), IMG1),
    "AveragePooling2D": case(lambda: L.AveragePooling2D(3, strides=2, padding="same"), IMG2),
    "AveragePooling3D": case(lambda: L.AveragePooling3D(2), IMG3),
    "GlobalMaxPooling1D": case(lambda: L.GlobalMaxPooling1D(), IMG1),
    "GlobalMaxPooling2D": case(lambda: L.GlobalMaxPooling2D(), IMG2),
    "GlobalMaxPooling3D": case(lambda: L.GlobalMaxPooling3D(keepdims=True), IMG3),
    "GlobalAveragePooling1D": case(lambda: L.GlobalAveragePooling1D(), IMG1),
    "GlobalAveragePooling2D": case(lambda: L.GlobalAveragePooling2D(), IMG2),
    "GlobalAveragePooling3D": case(lambda: L.GlobalAveragePooling3D(), IMG3),
    "AdaptiveMaxPooling1D": case(lambda: L.AdaptiveMaxPooling1D(3), IMG1),
    "AdaptiveMaxPooling2D": case(lambda: L.AdaptiveMaxPooling2D(3), IMG2),
    "AdaptiveMaxPooling3D": case(lambda: L.AdaptiveMaxPooling3D(2), IMG3),
    "AdaptiveAveragePooling1D": case(lambda: L.AdaptiveAveragePooling1D(3), IMG1),
    "AdaptiveAveragePooling2D": case(lambda: L.AdaptiveAveragePooling2D(3), IMG2),
    "AdaptiveAveragePooling3D": case(lambda: L.AdaptiveAveragePooling3D(2), IMG3),
    # normalisation
    "BatchNormalization": case(lambda: _with_statistics(L.BatchNormalization()), IMG2),
    "LayerNormalization": case(lambda: L.LayerNormalization(), SEQ),
    "GroupNormalization": case(lambda: L.GroupNormalization(groups=2), (5, 4)),
    "RMSNormalization": case(lambda: L.RMSNormalization(), SEQ),
    "UnitNormalization": case(lambda: L.UnitNormalization(), SEQ),
    "SpectralNormalization": case(lambda: L.SpectralNormalization(L.Dense(3)), (5,)),
    # activations
    "ReLU": case(lambda: L.ReLU(max_value=1.5, negative_slope=0.1, threshold=0.2), (5,)),
    "LeakyReLU": case(lambda: L.LeakyReLU(0.3), (5,)),
    "PReLU": case(lambda: L.PReLU(), (5,)),
    "ELU": case(lambda: L.ELU(0.7), (5,)),
    "Softmax": case(lambda: L.Softmax(), (5,)),
    # regularisation: identity at inference
    "Dropout": case(lambda: L.Dropout(0.5), (5,)),
    "AlphaDropout": case(lambda: L.AlphaDropout(0.5), (5,)),
    "GaussianDropout": case(lambda: L.GaussianDropout(0.5), (5,)),
    "GaussianNoise": case(lambda: L.GaussianNoise(0.5), (5,)),
    "SpatialDropout1D": case(lambda: L.SpatialDropout1D(0.5), IMG1),
    "SpatialDropout2D": case(lambda: L.SpatialDropout2D(0.5), IMG2),
    "SpatialDropout3D": case(lambda: L.SpatialDropout3D(0.5), IMG3),
    "ActivityRegularization": case(lambda: L.ActivityRegularization(0.1), (5,)),
    # recurrent
    "LSTM": case(lambda: L.LSTM(4, return_sequences=True), SEQ),
    "GRU": case(lambda: L.GRU(4, reset_after=False), SEQ),
    "SimpleRNN": case(lambda: L.SimpleRNN(4, go_backwards=True, return_sequences=True), SEQ),
    "RNN": case(lambda: L.RNN(L.LSTMCell(4), return_sequences=True), SEQ),
    "Bidirectional": case(lambda: L.Bidirectional(L.LSTM(3, return_sequences=True)), SEQ),
    "TimeDistributed": case(lambda: L.TimeDistributed(L.Dense(4)), SEQ),
    # attention
    "MultiHeadAttention": case(lambda: _SelfAttention(L.MultiHeadAttention(2, 3)), SEQ),
    "GroupQueryAttention": case(
        lambda: _SelfAttention(L.GroupQueryAttention(head_dim=3, num_query_heads=4,
                                                     num_key_value_heads=2)), SEQ),
    "Attention": case(lambda: L.Attention(), SEQ, SEQ),
    "AdditiveAttention": case(lambda: L.AdditiveAttention(), SEQ, SEQ),
    # merging
    "Add": case(lambda: L.Add(), (5,), (5,)),
    "Subtract": case(lambda: L.Subtract(), (5,), (5,)),
    "Multiply": case(lambda: L.Multiply(), (5,), (5,)),
    "Average": case(lambda: L.Average(), (5,), (5,)),
    "Maximum": case(lambda: L.Maximum(), (5,), (5,)),
    "Minimum": case(lambda: L.Minimum(), (5,), (5,)),
    "Concatenate": case(lambda: L.Concatenate(), (5,), (3,)),
    "Dot": case(lambda: L.Dot(axes=-1, normalize=True), SEQ, SEQ),
    # reshaping
    "Flatten": case(lambda: L.Flatten(), IMG2),
    "Reshape": case(lambda: L.Reshape((3, 7)), SEQ),
    "Permute": case(lambda: L.Permute((2, 1)), SEQ),
    "RepeatVector": case(lambda: L.RepeatVector(3), (5,)),
    "Cropping1D": case(lambda: L.Cropping1D((1, 2)), IMG1),
    "Cropping2D": case(lambda: L.Cropping2D(((1, 2), (0, 1))), IMG2),
    "Cropping3D": case(lambda: L.Cropping3D(1), IMG3),
    "ZeroPadding1D": case(lambda: L.ZeroPadding1D(2), IMG1),
    "ZeroPadding2D": case(lambda: L.ZeroPadding2D(((1, 0), (2, 1))), IMG2),
    "ZeroPadding3D": case(lambda: L.ZeroPadding3D(1), IMG3),
    "UpSampling1D": case(lambda: L.UpSampling1D(2), IMG1),
    "UpSampling2D": case(lambda: L.UpSampling2D(2), IMG2),
    "UpSampling3D": case(lambda: L.UpSampling3D(2), IMG3),
    # preprocessing that computes with ops
    "Rescaling": case(lambda: L.Rescaling(1 / 255.0, offset=-0.5), IMG2),
    "Normalization": case(lambda: _adapted(L.Normalization()), (5,)),
    "Resizing": case(lambda: L.Resizing(4, 5), IMG2),
    "AutoContrast": case(lambda: L.AutoContrast(), IMG2),
    "Solarization": case(lambda: L.Solarization(0.5, threshold_factor=0.4), IMG2),
    "CenterCrop": case(lambda: L.CenterCrop(4, 5), IMG2),
    # random augmentation: identity at inference
    **{name: case(lambda name=name, kwargs=kwargs: getattr(L, name)(**kwargs), IMG2)
       for name, kwargs in {
           "RandomFlip": {}, "RandomRotation": {"factor": 0.2},
           "RandomTranslation": {"height_factor": 0.2, "width_factor": 0.2},
           "RandomZoom": {"height_factor": 0.2}, "RandomContrast": {"factor": 0.2},
           "RandomBrightness": {"factor": 0.2}, "RandomCrop": {"height": 8, "width": 8},
           "RandomGrayscale": {}, "RandomHue": {"factor": 0.2},
           "RandomSaturation": {"factor": 0.2}, "RandomInvert": {},
           "RandomPosterization": {"factor": (2, 4)},
           "RandomColorDegeneration": {"factor": 0.5}, "RandomSharpness": {"factor": 0.5},
           "RandomColorJitter": {"brightness_factor": 0.2},
           "RandomGaussianBlur": {"factor": 0.5}, "RandomErasing": {"factor": 0.5},
           "RandomShear": {"x_factor": 0.2}, "MixUp": {}, "CutMix": {},
           "RandomPerspective": {"scale": 0.3}, "RandomElasticTransform": {"scale": 0.3},
           "RandAugment": {}, "AugMix": {},
       }.items()},
    "Pipeline": case(lambda: L.Pipeline([L.RandomFlip(), L.Rescaling(0.5)]), IMG2),
    "Equalization": case(lambda: L.Equalization(), IMG2),
    "MaxNumBoundingBoxes": case(lambda: L.MaxNumBoundingBoxes(4), IMG2),
    "STFTSpectrogram": case(lambda: L.STFTSpectrogram(frame_length=4, frame_step=2,
                                                      fft_length=4), (16, 1)),
}

NOT_EXPORTED = {
    # Not layers one exports alone.
    "Layer": "the abstract base of every layer",
    "Wrapper": "an abstract base (TimeDistributed, Bidirectional, SpectralNormalization)",
    "InputLayer": "a graph's source: exported as the model's input",
    "LSTMCell": "a cell is run by a recurrent layer (RNN(LSTMCell) is a case)",
    "GRUCell": "a cell is run by a recurrent layer (RNN(GRUCell) exports as the GRU op)",
    "SimpleRNNCell": "a cell is run by a recurrent layer (as LSTMCell)",
    "StackedRNNCells": "RNN runs a custom or stacked cell's Python step in a loop; traced "
                       "symbolically it gives one step's shapes only, so it is refused "
                       "(test_model_export checks the error)",
    "Lambda": "runs arbitrary Python; exports when that code uses hikeras.ops only",
    "OpLayer": "the node a functional model records for an op on graph tensors; exports as "
               "that op",
    "ContrastLimitedAdaptiveHistogramEqualization": "computes its tile histograms and "
        "lookups with numpy on the values (it applies at inference too), not through "
        "hikeras.ops, so its call cannot be traced",
    "MelSpectrogram": "computes its mel filter bank with numpy on the values, not through "
                      "hikeras.ops, so its call cannot be traced",
    # Inputs ONNX's numeric graph cannot take.
    "TextVectorization": "works on strings in Python (vocabulary lookup outside the ops)",
    "StringLookup": "works on strings in Python (vocabulary lookup outside the ops)",
    "IntegerLookup": "a Python vocabulary lookup, outside the ops",
    "CategoryEncoding": "encodes with numpy, outside the ops",
    "Discretization": "bins with numpy, outside the ops",
    "ConvLSTM1D": "a convolutional recurrence with no ONNX node; its symbolic call gives "
                  "one step's shapes, so the trace refuses it",
    "ConvLSTM2D": "as ConvLSTM1D",
    "ConvLSTM3D": "as ConvLSTM1D",
}


class _SelfAttention(layers.Layer):
    """Self-attention around an attention layer, so the case takes one input."""

    def __init__(self, attention, **kwargs):
        super().__init__(**kwargs)
        self.attention = attention

    def call(self, x):
        return self.attention(x, x)


def _with_statistics(layer):
    """A BatchNormalization whose moving statistics are not the identity's."""
    original_build = layer.build

    def build(shape):
        original_build(shape)
        layer.moving_mean.assign(layer.moving_mean.value + 0.3)
        layer.moving_variance.assign(layer.moving_variance.value * 2.0)
        layer.gamma.assign(layer.gamma.value * 1.5)

    layer.build = build
    return layer


def _adapted(layer):
    import numpy as np

    layer.adapt(np.arange(40, dtype="float32").reshape(8, 5) ** 1.3)
    return layer
