"""Weight initializers, by Keras's names.

`get` turns whatever a layer was given as `kernel_initializer=` into an
initializer object: a name (`"glorot_uniform"`, `"HeNormal"`, ...), a config
dict, a class, an instance or any callable `(shape, dtype) -> array`.

>>> get("he_normal").__class__.__name__
'HeNormal'
>>> get("ones")((2,)).tolist()
[1.0, 1.0]
"""

import re

from ..serialization import deserialize_keras_object, resolve, serialize_keras_object
from .constant_initializers import Constant, Identity, Ones, Zeros
from .initializer import Initializer, compute_fans
from .random_initializers import (
    GlorotNormal,
    GlorotUniform,
    HeNormal,
    HeUniform,
    LecunNormal,
    LecunUniform,
    Orthogonal,
    RandomNormal,
    RandomUniform,
    TruncatedNormal,
    VarianceScaling,
)
from .stft_initializer import STFT, STFTInitializer, stft

# Keras's other exported names for the same classes.
OrthogonalInitializer = Orthogonal
IdentityInitializer = Identity

# ...and the lowercase names Keras exports for them (classes, not functions).
constant = Constant
identity = Identity
ones = Ones
zeros = Zeros
glorot_normal = GlorotNormal
glorot_uniform = GlorotUniform
he_normal = HeNormal
he_uniform = HeUniform
lecun_normal = LecunNormal
lecun_uniform = LecunUniform
orthogonal = Orthogonal
random_normal = RandomNormal
random_uniform = RandomUniform
truncated_normal = TruncatedNormal
variance_scaling = VarianceScaling

_CLASSES = (
    Initializer, Constant, Identity, Ones, Zeros, GlorotNormal, GlorotUniform, HeNormal,
    HeUniform, LecunNormal, LecunUniform, Orthogonal, RandomNormal, RandomUniform,
    TruncatedNormal, VarianceScaling,
)


def _snake_case(name):
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


# Every class by its own name and its snake_case name, plus Keras's aliases.
ALL_OBJECTS_DICT = {cls.__name__: cls for cls in _CLASSES}
ALL_OBJECTS_DICT.update({_snake_case(cls.__name__): cls for cls in _CLASSES})
ALL_OBJECTS_DICT.update({
    "OrthogonalInitializer": Orthogonal,
    "orthogonal_initializer": Orthogonal,
    "IdentityInitializer": Identity,
    "identity_initializer": Identity,
    "STFT": STFT,
    "STFTInitializer": STFT,
    "stft": STFT,
    "uniform": RandomUniform,
    "normal": RandomNormal,
    "one": Ones,
    "zero": Zeros,
})


def serialize(initializer):
    """The initializer's `{"class_name", "config"}` dict."""
    return serialize_keras_object(initializer)


def deserialize(config, custom_objects=None):
    """Rebuilds an initializer from a name or a `{"class_name", "config"}` dict."""
    return deserialize_keras_object(config, ALL_OBJECTS_DICT, custom_objects,
                                    printable_module_name="initializer")


def get(identifier):
    """An initializer from None, a name, a config dict, a class or a callable.

    Classes (also those found by name) are instantiated with their defaults;
    None gives None. An unknown name raises `ValueError` listing the choices.
    """
    return resolve(identifier, ALL_OBJECTS_DICT, "initializer")


__all__ = [
    "STFT",
    "Constant",
    "GlorotNormal",
    "GlorotUniform",
    "HeNormal",
    "HeUniform",
    "Identity",
    "IdentityInitializer",
    "Initializer",
    "LecunNormal",
    "LecunUniform",
    "Ones",
    "Orthogonal",
    "OrthogonalInitializer",
    "RandomNormal",
    "RandomUniform",
    "STFTInitializer",
    "TruncatedNormal",
    "VarianceScaling",
    "Zeros",
    "compute_fans",
    "constant",
    "deserialize",
    "get",
    "glorot_normal",
    "glorot_uniform",
    "he_normal",
    "he_uniform",
    "identity",
    "lecun_normal",
    "lecun_uniform",
    "ones",
    "orthogonal",
    "random_normal",
    "random_uniform",
    "serialize",
    "stft",
    "truncated_normal",
    "variance_scaling",
    "zeros",
]
