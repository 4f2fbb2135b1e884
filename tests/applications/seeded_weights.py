"""Deterministic weights for an application, the same in Keras and in hikeras (numpy only).

Each layer's arrays are drawn from a generator seeded by the layer's name,
so both sides rebuild identical weights without sharing a file, whatever order
they visit layers in. Batch-norm moving statistics are perturbed away from
(0, 1), and every weight is non-zero, so every weight changes the output.
Kernels are scaled by their fan-in (He), which keeps the activations of deep
networks within a few orders of magnitude.
"""

import zlib

import numpy as np


def layer_arrays(layer_name, class_name, shapes, seed=0):
    """The arrays for a layer's weights (given their shapes, in Keras's order)."""
    rng = np.random.default_rng([seed, zlib.crc32(layer_name.encode("utf-8"))])
    if class_name == "BatchNormalization" and len(shapes) == 4:
        gamma, beta, mean, variance = shapes
        return [rng.uniform(0.5, 1.0, gamma), rng.normal(0.0, 0.1, beta),
                rng.normal(0.0, 0.1, mean), rng.uniform(0.5, 1.5, variance)]
    if class_name == "BatchNormalization":  # scale=False (the Inceptions): no gamma
        beta, mean, variance = shapes
        return [rng.normal(0.0, 0.1, beta), rng.normal(0.0, 0.1, mean),
                rng.uniform(0.5, 1.5, variance)]
    if class_name == "Normalization":  # EfficientNet's input statistics (mean, variance, count)
        mean, variance, count = shapes
        return [rng.uniform(0.3, 0.6, mean).astype("float32"),
                rng.uniform(0.04, 0.08, variance).astype("float32"),
                np.zeros(count, "int64") + 1000]
    arrays = []
    for shape in shapes:
        shape = tuple(shape)
        if len(shape) == 1:
            arrays.append(rng.normal(0.0, 0.05, shape))
            continue
        fan_in = int(np.prod(shape[:2])) if class_name == "DepthwiseConv2D" else int(
            np.prod(shape[:-1]))
        arrays.append(rng.normal(0.0, np.sqrt(2.0 / fan_in), shape))
    return [a.astype("float32") for a in arrays]


def seed_model(model, seed=0, skip=("OpLayer",)):
    """Sets every layer of `model` that has weights to its seeded arrays."""
    for layer in model.layers:
        current = layer.get_weights()
        if not current or type(layer).__name__ in skip:
            continue
        layer.set_weights(layer_arrays(layer.name, type(layer).__name__,
                                       [w.shape for w in current], seed))
        if hasattr(layer, "finalize_state"):
            # Keras 3's Normalization reads its statistics into constants when built, and
            # again when loaded from a file; after set_weights it needs telling.
            layer.finalize_state()


def seeded_images(shape, low, high, seed=0):
    """A fixed batch of images."""
    return np.random.default_rng([seed, 7]).uniform(low, high, shape).astype("float32")
