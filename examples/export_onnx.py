"""Train a small text classifier, export it to ONNX and run it in onnxruntime.

The model reads padded token sequences (masked with `mask_zero=True`) through
an LSTM, and a second input of numeric features. It trains on a synthetic task
in a few seconds, is exported with `model.export(path, format="onnx")`, and the
exported file is run by onnxruntime on new data of another batch size; the
script checks that the two runtimes agree.

    pip install "hikeras[onnx]" onnxruntime
    python examples/export_onnx.py [output.onnx]
"""

import os
import sys
import tempfile

import numpy as np

import hikeras
from hikeras import layers

VOCAB, STEPS = 20, 12


def make_data(rng, count):
    """Token sequences (left-padded with 0) and features; label: is token 7 present?"""
    tokens = rng.integers(1, VOCAB, size=(count, STEPS))
    lengths = rng.integers(3, STEPS + 1, size=count)
    for row, length in enumerate(lengths):
        tokens[row, :STEPS - length] = 0
    features = rng.normal(size=(count, 2)).astype("float32")
    labels = (tokens == 7).any(axis=1).astype("float32")
    return [tokens.astype("int32"), features], labels


def build_model():
    tokens = hikeras.Input((STEPS,), dtype="int32", name="tokens")
    features = hikeras.Input((2,), name="features")
    x = layers.Embedding(VOCAB, 8, mask_zero=True)(tokens)
    x = layers.LSTM(16)(x)
    x = layers.Concatenate()([x, layers.Dense(4, activation="relu")(features)])
    output = layers.Dense(1, activation="sigmoid")(x)
    return hikeras.Model([tokens, features], output)


def main(path=None):
    import onnxruntime  # the runtime a deployment would use

    hikeras.utils.set_random_seed(0)
    rng = np.random.default_rng(0)
    model = build_model()
    model.compile(optimizer=hikeras.optimizers.Adam(0.01), loss="binary_crossentropy", metrics=["accuracy"])
    x, y = make_data(rng, 512)
    model.fit(x, y, batch_size=32, epochs=15, verbose=0)
    x_test, y_test = make_data(rng, 100)
    _, accuracy = model.evaluate(x_test, y_test, verbose=0)
    print(f"hikeras test accuracy: {accuracy:.3f}")

    path = path or os.path.join(tempfile.mkdtemp(), "classifier.onnx")
    model.export(path, format="onnx", verbose=True)

    session = onnxruntime.InferenceSession(path, providers=["CPUExecutionProvider"])
    print("ONNX inputs:", [(i.name, i.type, i.shape) for i in session.get_inputs()])
    (onnx_scores,) = session.run(None, {"tokens": x_test[0], "features": x_test[1]})
    hikeras_scores = model.predict(x_test, verbose=0)
    difference = float(np.max(np.abs(onnx_scores - hikeras_scores)))
    onnx_accuracy = float(np.mean((onnx_scores[:, 0] > 0.5) == y_test))
    print(f"onnxruntime test accuracy: {onnx_accuracy:.3f}; largest difference from "
          f"model.predict: {difference:.2e}")
    return difference, accuracy


if __name__ == "__main__":
    main(sys.argv[1] if len(sys.argv) > 1 else None)
