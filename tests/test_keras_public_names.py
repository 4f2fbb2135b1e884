"""Every public name of Keras 3.15 outside `keras.ops` exists in hikeras (issue #18).

The names come from `fixtures/keras_names` (recorded from real Keras). Each
namespace maps to the hikeras module that answers for it; what is left out is
listed with its reason. `missing_names` also fails when an excluded name has
since been built, so the tables only shrink. "not yet built (#18)" marks the
work still open.
"""

import importlib

import pytest

from tests.helpers.keras_names import keras_namespaces, missing_names

TODO = "not yet built (#18)"
OTHER_BACKEND = "wraps another framework's models (JAX/Flax/PyTorch/TensorFlow); excluded by #18"
QUANTIZATION = "quantization belongs to keras.quantizers, which #18 excludes"

EXCLUDED = {
    "keras": {
        "device": "device placement for accelerator backends; excluded by #18",
        "distribution": "keras.distribution (JAX device meshes); excluded by #18",
        "quantizers": "keras.quantizers; excluded by #18",
        "Quantizer": QUANTIZATION,
        "wrappers": "keras.wrappers (scikit-learn wrappers); excluded by #18",
        "remat": "rematerialisation for compiled backends; excluded by #18",
        "RematScope": "rematerialisation for compiled backends; excluded by #18",
        "src": "Keras's private implementation package, not public API",
        "legacy": "keras.legacy.saving: Keras 2's saving internals for tf.keras code; hikeras "
                  "reads Keras 2 files through its ordinary loaders",
    },
    "keras.activations": {},
    "keras.applications": {},
    "keras.backend": {},
    "keras.callbacks": {
        "OrbaxCheckpoint": "checkpoints through Orbax (JAX); excluded by #18",
    },
    "keras.config": {
        "disable_flash_attention": "flash-attention switch of accelerator backends; excluded by #18",
        "enable_flash_attention": "flash-attention switch of accelerator backends; excluded by #18",
        "is_flash_attention_enabled": "flash-attention switch of accelerator backends; excluded "
                                      "by #18",
        "is_nnx_enabled": "Flax NNX switch of the JAX backend; excluded by #18",
    },
    "keras.constraints": {},
    "keras.datasets": {},
    "keras.dtype_policies": {
        "AWQDTypePolicy": QUANTIZATION,
        "GPTQDTypePolicy": QUANTIZATION,
        "Int4DTypePolicy": QUANTIZATION,
        "QuantizedDTypePolicy": QUANTIZATION,
        "QuantizedFloat8DTypePolicy": QUANTIZATION,
    },
    "keras.initializers": {},
    "keras.layers": {
        "FlaxLayer": OTHER_BACKEND,
        "JaxLayer": OTHER_BACKEND,
        "TorchModuleWrapper": OTHER_BACKEND,
        "TFSMLayer": OTHER_BACKEND,
        **{name: TODO for name in (
            "HashedCrossing", "Hashing")},
    },
    "keras.losses": {},
    "keras.metrics": {},
    "keras.mixed_precision": {},
    "keras.models": {},
    "keras.optimizers": {
        "legacy": "Keras 2's optimizers, which Keras 3 keeps only as stubs that raise",
    },
    "keras.optimizers.schedules": {},
    "keras.preprocessing": {},
    "keras.preprocessing.image": {},
    "keras.preprocessing.sequence": {},
    "keras.regularizers": {},
    "keras.saving": {},
    "keras.tree": {},
    "keras.utils.bounding_boxes": {},
    "keras.visualization": {},
    "keras.utils": {
        "legacy": "Keras 2's serialization helpers for tf.keras code; "
                  "`deserialize_keras_object` already reads Keras 2 configs",
        "FeatureSpace": TODO,
        "audio_dataset_from_directory": TODO,
    },
}

# Namespaces #18 leaves out: other issues, or excluded outright.
OUT_OF_SCOPE = {
    "keras.ops", "keras.ops.image", "keras.ops.linalg", "keras.ops.nn", "keras.ops.numpy",
    "keras.random", "keras.distribution", "keras.quantizers", "keras.wrappers", "keras.export",
    "keras.legacy",
}


def module_for(namespace):
    return importlib.import_module("hikeras" + namespace[len("keras"):])


def test_every_recorded_namespace_is_accounted_for():
    recorded = set(keras_namespaces())
    unaccounted = recorded - set(EXCLUDED) - OUT_OF_SCOPE
    assert not unaccounted, unaccounted


@pytest.mark.parametrize("namespace", sorted(EXCLUDED))
def test_namespace_has_every_keras_name(namespace):
    missing = missing_names(namespace, module_for(namespace), EXCLUDED[namespace])
    assert not missing, f"{namespace}: hikeras lacks {missing}"
