"""Classify tones by pitch from raw waveforms, with a custom layer written in `hikeras.ops`.

The `LogSpectrogram` layer turns a waveform into log-magnitude STFT frames with
`ops.stft`, then keeps each frame's strongest bins with `ops.top_k`; the model is
built on an `Input` whose batch size is unknown and trained with `fit`. Runs offline
in a few seconds:

    python examples/spectrogram_classifier.py
"""

import numpy as np

import hikeras
from hikeras import layers, ops

SAMPLES, CLASSES = 256, 4


class LogSpectrogram(layers.Layer):
    """`log(1 + |STFT|)` of each waveform, averaged over time: one value per frequency bin."""

    def __init__(self, frame_length=64, frame_step=32, **kwargs):
        super().__init__(**kwargs)
        self.frame_length = frame_length
        self.frame_step = frame_step

    def call(self, waveforms):
        real, imag = ops.stft(waveforms, self.frame_length, self.frame_step, self.frame_length)
        magnitude = ops.sqrt(ops.add(ops.square(real), ops.square(imag)))
        return ops.mean(ops.log1p(magnitude), axis=1)

    def get_config(self):
        return {**super().get_config(), "frame_length": self.frame_length,
                "frame_step": self.frame_step}


def tones(count, rng):
    """Noisy sine waves whose frequency (one of four) is the label."""
    labels = rng.integers(0, CLASSES, count)
    t = np.arange(SAMPLES)
    frequencies = 0.03 + 0.06 * labels
    phases = rng.uniform(0, 2 * np.pi, count)
    waves = np.sin(2 * np.pi * frequencies[:, None] * t + phases[:, None])
    waves += 0.3 * rng.standard_normal(waves.shape)
    return waves.astype("float32"), labels


def main():
    hikeras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    x_train, y_train = tones(512, rng)
    x_test, y_test = tones(128, rng)

    inputs = hikeras.Input(shape=(SAMPLES,))
    features = LogSpectrogram()(inputs)
    strongest, _ = ops.top_k(features, 3)  # the three strongest bins' levels, as extra features
    hidden = layers.Concatenate()([features, strongest])
    outputs = layers.Dense(CLASSES, activation="softmax")(layers.Dense(32, activation="relu")(hidden))
    model = hikeras.Model(inputs, outputs)
    model.compile(optimizer="adam", loss="sparse_categorical_crossentropy", metrics=["accuracy"])
    model.fit(x_train, y_train, batch_size=32, epochs=15, verbose=0)
    _, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"test accuracy: {accuracy:.3f}")
    return accuracy


if __name__ == "__main__":
    main()
