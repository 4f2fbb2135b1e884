"""Masks in custom layers: consuming a mask in `call`, creating one with `compute_mask`."""

import numpy as np

import hikeras as keras
from hikeras import layers, ops


class MaskedMean(keras.Layer):
    """The mean over time of the unmasked steps only."""

    def call(self, inputs, mask=None):
        if mask is None:
            return ops.mean(inputs, axis=1)
        weights = ops.expand_dims(ops.cast(mask, inputs.dtype), -1)
        return ops.sum(inputs * weights, axis=1) / ops.maximum(ops.sum(weights, axis=1), 1.0)


class DropNegativeSteps(keras.Layer):
    """Passes inputs through and masks the steps whose first feature is negative."""

    def call(self, inputs):
        return inputs

    def compute_mask(self, inputs, mask=None):
        own = ops.greater_equal(inputs[:, :, 0], 0.0)
        return own if mask is None else ops.logical_and(own, mask)


def main(small=False):
    keras.utils.set_random_seed(16)
    tokens = np.array([[3, 4, 0, 0]])
    inputs = keras.Input((None,), dtype="int32")
    embedded = layers.Embedding(10, 2, mask_zero=True)(inputs)
    model = keras.Model(inputs, MaskedMean()(embedded))
    vectors = model.layers[1](tokens)
    expected = np.asarray(vectors)[0, :2].mean(axis=0)
    np.testing.assert_allclose(model.predict(tokens, verbose=0)[0], expected, rtol=1e-5)

    steps = np.array([[[1.0, 2.0], [-1.0, 5.0], [3.0, 4.0]]], "float32")
    series_in = keras.Input((3, 2))
    pooled = MaskedMean()(DropNegativeSteps()(series_in))
    pooler = keras.Model(series_in, pooled)
    np.testing.assert_allclose(pooler.predict(steps, verbose=0), [[2.0, 3.0]], rtol=1e-6)
    return expected


if __name__ == "__main__":
    print(main())
