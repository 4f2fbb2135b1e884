"""The published files of Xception, the Inceptions, EfficientNet (V1, V2), ConvNeXt and NASNet.

Each constructor with `weights="imagenet"` and an empty Keras cache names the
exact file Keras fetches and its URL; nothing is downloaded.
"""

import os

import numpy as np
import pytest

from hikeras import applications
from hikeras.applications import _common

_KERAS_APPS = "https://storage.googleapis.com/tensorflow/keras-applications/"


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    os.makedirs(tmp_path / "models")
    return tmp_path / "models"


CASES = [
    ("Xception", {}, _KERAS_APPS + "xception/xception_weights_tf_dim_ordering_tf_kernels.h5",
     "0a58e3b7378bc2990ea3b43d5981f1f6"),
    ("InceptionV3", {"include_top": False},
     _KERAS_APPS + "inception_v3/inception_v3_weights_tf_dim_ordering_tf_kernels_notop.h5",
     "bcbd6486424b2319ff4ef7d526e38f63"),
    ("InceptionResNetV2", {},
     _KERAS_APPS + "inception_resnet_v2/inception_resnet_v2_weights_tf_dim_ordering_"
     "tf_kernels.h5", "e693bd0210a403b3192acc6073ad2e96"),
    ("EfficientNetB0", {"include_top": False},
     "https://storage.googleapis.com/keras-applications/efficientnetb0_notop.h5",
     "50bc09e76180e00e4465e1a485ddc09d"),
    ("EfficientNetB7", {}, "https://storage.googleapis.com/keras-applications/efficientnetb7.h5",
     "8c03f828fec3ef71311cd463b6759d99"),
    ("EfficientNetV2B3", {"include_top": False},
     _KERAS_APPS + "efficientnet_v2/efficientnetv2-b3_notop.h5",
     "f6abf7b5849ac99a89b50dd3fd532856"),
    ("EfficientNetV2L", {"include_top": False, "input_shape": (32, 32, 3)},
     _KERAS_APPS + "efficientnet_v2/efficientnetv2-l_notop.h5",
     "b0b66b5c863aef5b46e8608fe1711615"),
    ("ConvNeXtTiny", {}, _KERAS_APPS + "convnext/convnext_tiny.h5",
     "8ae6e78ce2933352b1ef4008e6dd2f17bc40771563877d156bc6426c7cf503ff"),
    ("ConvNeXtXLarge", {"include_top": False, "input_shape": (32, 32, 3)},
     _KERAS_APPS + "convnext/convnext_xlarge_notop.h5",
     "de3f8a54174130e0cecdc71583354753d557fcf1f4487331558e2a16ba0cfe05"),
    ("NASNetMobile", {}, _KERAS_APPS + "nasnet/NASNet-mobile.h5",
     "020fb642bf7360b370c678b08e0adf61"),
    ("NASNetLarge", {"include_top": False}, _KERAS_APPS + "nasnet/NASNet-large-no-top.h5",
     "d81d89dc07e6e56530c4e77faddd61b5"),
]
# Keras keeps NASNet's files in its cache under other names than the downloaded ones.
_CACHE_NAMES = {"NASNet-mobile.h5": "nasnet_mobile.h5",
                "NASNet-large-no-top.h5": "nasnet_large_no_top.h5"}


def _present(cases):
    return [case for case in cases if hasattr(applications, case[0])]


@pytest.mark.parametrize("arch, kwargs, url, md5", _present(CASES), ids=lambda v: str(v)[:40])
def test_missing_file_names_the_published_file(keras_home, arch, kwargs, url, md5, monkeypatch):
    import urllib.request

    def refuse(*args, **kw):
        raise AssertionError("tried to download")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    with pytest.raises(FileNotFoundError) as info:
        getattr(applications, arch)(weights="imagenet", **kwargs)
    message = str(info.value)
    remote_name = url.rsplit("/", 1)[1]
    assert f"'{_CACHE_NAMES.get(remote_name, remote_name)}'" in message
    assert url in message
    assert md5 in message


def _built_for_imagenet(constructor, monkeypatch, **kwargs):
    """The model `weights="imagenet"` builds, before any file is looked for."""
    monkeypatch.setattr(_common, "load_weights_into", lambda *args: None)
    return constructor(weights="imagenet", **kwargs)


def test_efficientnet_imagenet_adds_keras_std_rescaling(monkeypatch):
    # Keras's published EfficientNet weights expect another input normalisation
    # (tensorflow#49930): with weights="imagenet" Keras divides once more by sqrt(std).
    model = _built_for_imagenet(applications.EfficientNetB0, monkeypatch, include_top=False)
    names = [layer.name for layer in model.layers[:5]]
    assert names == ["input_layer", "rescaling", "normalization", "rescaling_1", "stem_conv_pad"]
    np.testing.assert_allclose(model.get_layer("rescaling_1").scale,
                               [1 / np.sqrt(s) for s in (0.229, 0.224, 0.225)])
    plain = applications.EfficientNetB0(weights=None, include_top=False)
    assert "rescaling_1" not in [layer.name for layer in plain.layers]


def test_efficientnet_v2_preprocessing_follows_the_variant():
    b0 = applications.EfficientNetV2B0(weights=None, include_top=False, input_shape=(32, 32, 3))
    assert [type(layer).__name__ for layer in b0.layers[1:3]] == ["Rescaling", "Normalization"]
    s = applications.EfficientNetV2S(weights=None, include_top=False, input_shape=(32, 32, 3))
    assert type(s.layers[1]).__name__ == "Rescaling" and s.layers[1].offset == -1
    # Keras chooses by the model's name (a custom name breaks it); hikeras by the variant.
    named = applications.EfficientNetV2B0(weights=None, include_top=False, name="backbone",
                                          input_shape=(32, 32, 3))
    assert type(named.layers[2]).__name__ == "Normalization"
    bare = applications.EfficientNetV2B0(weights=None, include_top=False,
                                         include_preprocessing=False, input_shape=(32, 32, 3))
    assert bare.layers[1].name == "stem_conv"
