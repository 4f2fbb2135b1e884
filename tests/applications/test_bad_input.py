"""Each bad argument gives an error that names the argument, or the layer and the file."""

import pytest

import hikeras
from hikeras import applications
from tests.applications.keras_fixtures import FIXTURES

ALL = [applications.VGG16, applications.VGG19, applications.ResNet50, applications.ResNet101,
       applications.ResNet152, applications.ResNet50V2, applications.ResNet101V2,
       applications.ResNet152V2, applications.MobileNet, applications.MobileNetV2,
       applications.MobileNetV3Small, applications.MobileNetV3Large, applications.DenseNet121,
       applications.DenseNet169, applications.DenseNet201]


@pytest.mark.parametrize("constructor", ALL, ids=lambda c: c.__name__)
def test_input_shape_too_small(constructor):
    with pytest.raises(ValueError, match=r"at least 32x32.*input_shape=\(31, 64, 3\)"):
        constructor(weights=None, include_top=False, input_shape=(31, 64, 3))


@pytest.mark.parametrize("constructor", ALL, ids=lambda c: c.__name__)
def test_unknown_pooling(constructor):
    with pytest.raises(ValueError, match=r"pooling.*Received: pooling='mean'"):
        constructor(weights=None, include_top=False, pooling="mean")


@pytest.mark.parametrize("constructor", ALL, ids=lambda c: c.__name__)
def test_classes_with_imagenet_top(constructor, tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(ValueError, match=r"`classes` should be 1000.*classes=10"):
        constructor(weights="imagenet", include_top=True, classes=10)


@pytest.mark.parametrize("weights", ["no/such/file.h5", "ImageNet", 3])
def test_weights_value(weights):
    with pytest.raises(ValueError, match="`weights` argument"):
        applications.MobileNetV2(weights=weights, alpha=0.35, include_top=False)


def test_file_of_another_alpha_names_the_layer_and_file():
    # The file holds MobileNet alpha=0.25 weights; alpha=0.5 has twice the filters.
    path = str(FIXTURES / "mobilenet_025_notop.h5")
    with pytest.raises(ValueError) as info:
        applications.MobileNet(weights=path, alpha=0.5, include_top=False,
                               input_shape=(32, 32, 3))
    message = str(info.value)
    assert "MobileNet (alpha=0.5" in message and path in message and "'conv1'" in message


def test_file_of_another_architecture_names_the_file():
    path = str(FIXTURES / "mobilenetv3small_min_notop.h5")
    with pytest.raises(ValueError) as info:
        applications.MobileNetV2(weights=path, alpha=0.35, include_top=False,
                                 input_shape=(32, 32, 3))
    assert "MobileNetV2 (alpha=0.35" in str(info.value) and path in str(info.value)


def test_file_with_a_top_into_a_model_without_one():
    path = str(FIXTURES / "mobilenet_025_notop.h5")
    with pytest.raises(ValueError, match="include_top=True"):
        applications.MobileNet(weights=path, alpha=0.25, include_top=True, classes=10,
                               input_shape=(32, 32, 3))


def test_include_top_needs_a_static_shape():
    with pytest.raises(ValueError, match="static `input_shape`"):
        applications.ResNet50(weights=None, input_shape=(None, None, 3))


def test_imagenet_top_needs_the_default_shape(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(ValueError, match=r"should be \(224, 224, 3\)"):
        applications.VGG16(weights="imagenet", input_shape=(64, 64, 3))


def test_imagenet_needs_three_channels(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(ValueError, match="3 channels"):
        applications.ResNet50(weights="imagenet", include_top=False, input_shape=(64, 64, 1))


def test_input_shape_rank():
    with pytest.raises(ValueError, match="three integers"):
        applications.DenseNet121(weights=None, include_top=False, input_shape=(64, 64))


@pytest.mark.parametrize("constructor, kwargs, match", [
    (applications.MobileNet, {"alpha": 0.3}, "alpha"),
    (applications.MobileNet, {"depth_multiplier": 2}, "depth multiplier"),
    (applications.MobileNetV2, {"alpha": 0.6}, "alpha"),
    (applications.MobileNetV3Small, {"alpha": 0.5}, "alpha"),
    (applications.MobileNetV3Large, {"alpha": 0.75, "minimalistic": True}, "alpha"),
])
def test_no_published_weights_for_this_width(constructor, kwargs, match, tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(ValueError, match=match):
        constructor(weights="imagenet", include_top=False, input_shape=(224, 224, 3), **kwargs)


def test_classifier_activation_with_pretrained_weights():
    path = str(FIXTURES / "mobilenet_025_notop.h5")
    with pytest.raises(ValueError, match="classifier_activation"):
        applications.VGG16(weights=path, input_shape=(32, 32, 3), classes=10,
                           classifier_activation="sigmoid")


def test_input_tensor_must_be_symbolic():
    import numpy as np

    with pytest.raises(ValueError, match="input_tensor"):
        applications.ResNet50(weights=None, include_top=False,
                              input_tensor=np.zeros((1, 32, 32, 3)))


def test_input_tensor_builds_on_an_existing_graph():
    inputs = hikeras.Input((40, 40, 3))
    x = hikeras.layers.Rescaling(1 / 255.0, name="scale")(inputs)
    model = applications.MobileNetV2(weights=None, alpha=0.35, include_top=False,
                                     input_tensor=x, pooling="avg")
    assert model.inputs[0] is inputs
    assert model.get_layer("scale") is not None
    assert model.outputs[0].shape == (None, 1280)
