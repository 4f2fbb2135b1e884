"""`weights="imagenet"`: Keras's published files, found in the Keras cache, never downloaded."""

import os
import shutil

import numpy as np
import pytest

from hikeras import applications
from hikeras.applications import _weights, resnet
from hikeras.applications._weights import PublishedFile, find_published_file, keras_cache_dirs
from tests.applications.keras_fixtures import FIXTURES, numerics, outputs
from tests.applications.seeded_weights import seeded_images


@pytest.fixture
def keras_home(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))  # no real ~/.keras leaks in
    os.makedirs(tmp_path / "models")
    return tmp_path / "models"


def test_cache_folders_follow_keras(keras_home, tmp_path):
    assert keras_cache_dirs() == [str(keras_home),
                                  os.path.join(str(tmp_path / "home"), ".keras", "models")]


def test_missing_file_names_file_url_and_folder(keras_home):
    with pytest.raises(FileNotFoundError) as info:
        applications.ResNet50(weights="imagenet", include_top=False)
    message = str(info.value)
    assert "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5" in message
    assert ("https://storage.googleapis.com/tensorflow/keras-applications/resnet/"
            "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5") in message
    assert str(keras_home) in message
    assert "4d473c1dd8becc155b73f8504c6f6626" in message


@pytest.mark.parametrize("constructor, kwargs, file_name", [
    (applications.VGG16, {}, "vgg16_weights_tf_dim_ordering_tf_kernels.h5"),
    (applications.VGG19, {"include_top": False},
     "vgg19_weights_tf_dim_ordering_tf_kernels_notop.h5"),
    (applications.ResNet152V2, {}, "resnet152v2_weights_tf_dim_ordering_tf_kernels.h5"),
    (applications.MobileNet, {"alpha": 0.5, "input_shape": (160, 160, 3), "include_top": False},
     "mobilenet_5_0_160_tf_no_top.h5"),
    (applications.MobileNetV2, {"alpha": 0.35, "input_shape": (96, 96, 3)},
     "mobilenet_v2_weights_tf_dim_ordering_tf_kernels_0.35_96.h5"),
    (applications.MobileNetV3Small, {"minimalistic": True, "include_top": False},
     "weights_mobilenet_v3_small_minimalistic_224_1.0_float_no_top_v2.h5"),
    (applications.MobileNetV3Large, {"alpha": 0.75},
     "weights_mobilenet_v3_large_224_0.75_float.h5"),
    (applications.DenseNet169, {"include_top": False},
     "densenet169_weights_tf_dim_ordering_tf_kernels_notop.h5"),
])
def test_published_file_names(keras_home, constructor, kwargs, file_name):
    with pytest.warns(UserWarning) if _warns(constructor, kwargs) else _no_warning():
        with pytest.raises(FileNotFoundError, match=file_name.replace(".", r"\.")):
            constructor(weights="imagenet", **kwargs)


def _warns(constructor, kwargs):
    return constructor in (applications.MobileNetV3Small, applications.MobileNetV3Large)


class _no_warning:
    def __enter__(self):
        return self

    def __exit__(self, *exc):
        return False


def test_imagenet_weights_load_from_the_keras_cache(keras_home):
    # The tf_keras file written by generate_fixtures.py, put where Keras keeps MobileNet's
    # published 0.25 no-top weights: sizes other than Keras's four fall back to the 224 file.
    case = "mobilenet_025_notop"
    shutil.copy(FIXTURES / f"{case}.h5",
                keras_home / "mobilenet_2_5_224_tf_no_top.h5")
    with pytest.warns(UserWarning, match="224"):
        model = applications.MobileNet(weights="imagenet", alpha=0.25, include_top=False,
                                       input_shape=(32, 32, 3))
    x = seeded_images([2, 32, 32, 3], *numerics()["cases"][case]["input_range"])
    np.testing.assert_allclose(model.predict(x, verbose=0), outputs()[f"{case}/output"],
                               rtol=1e-4, atol=1e-5)


def test_file_found_in_home_keras_without_keras_home(tmp_path, monkeypatch):
    monkeypatch.delenv("KERAS_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    folder = tmp_path / ".keras" / "models"
    folder.mkdir(parents=True)
    (folder / "thing.bin").write_bytes(b"abc")
    published = PublishedFile("thing.bin", "https://example.invalid/thing.bin",
                              "900150983cd24fb0d6963f7d28e17f72")  # MD5 of b"abc"
    assert find_published_file(published, "the thing") == str(folder / "thing.bin")


def test_hash_mismatch_is_refused(keras_home):
    (keras_home / "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5").write_bytes(b"junk")
    with pytest.raises(ValueError, match="4d473c1dd8becc155b73f8504c6f6626") as info:
        applications.ResNet50(weights="imagenet", include_top=False)
    assert "is not the file Keras publishes" in str(info.value)


def test_hash_is_checked_before_loading(keras_home, monkeypatch):
    # A file with the published hash loads; the hash table is what decides.
    source = FIXTURES / "mobilenet_025_notop.h5"
    target = keras_home / "resnet50_weights_tf_dim_ordering_tf_kernels_notop.h5"
    shutil.copy(source, target)
    digest = _weights.hash_file(str(target), "md5")
    monkeypatch.setitem(resnet.WEIGHTS_HASHES, "resnet50", ("0" * 32, digest))
    with pytest.raises(ValueError, match="Cannot load these weights into resnet50"):
        applications.ResNet50(weights="imagenet", include_top=False)  # hash fine, file wrong


def test_nothing_is_downloaded(keras_home, monkeypatch):
    import urllib.request

    def refuse(*args, **kwargs):
        raise AssertionError("tried to download")

    monkeypatch.setattr(urllib.request, "urlopen", refuse)
    with pytest.raises(FileNotFoundError):
        applications.DenseNet121(weights="imagenet")
