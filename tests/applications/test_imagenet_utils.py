"""`preprocess_input` against Keras's own, and `decode_predictions` reading the Keras cache."""

import json

import numpy as np
import pytest

import hikeras
from hikeras.applications import (densenet, imagenet_utils, mobilenet_v2, mobilenet_v3, resnet,
                                  resnet50, resnet_v2, vgg16)
from tests.applications.keras_fixtures import outputs


@pytest.mark.parametrize("mode", ["caffe", "tf", "torch"])
@pytest.mark.parametrize("data_format", ["channels_last", "channels_first"])
def test_preprocess_numpy_matches_keras(mode, data_format):
    images = outputs()["preprocess/input"]
    x = images if data_format == "channels_last" else np.moveaxis(images, -1, 1).copy()
    result = imagenet_utils.preprocess_input(x.copy(), data_format=data_format, mode=mode)
    np.testing.assert_allclose(result, outputs()[f"preprocess/{mode}/{data_format}"], rtol=1e-6)


@pytest.mark.parametrize("mode", ["caffe", "tf", "torch"])
def test_preprocess_symbolic_matches_keras(mode):
    inputs = hikeras.Input((5, 4, 3))
    model = hikeras.Model(inputs, imagenet_utils.preprocess_input(inputs, mode=mode))
    result = model.predict(outputs()["preprocess/input"], verbose=0)
    np.testing.assert_allclose(result, outputs()["preprocess/" + mode + "/channels_last"],
                               rtol=1e-5, atol=1e-5)


def test_preprocess_integer_images_and_single_images():
    image = np.arange(12, dtype="uint8").reshape(2, 2, 3)
    result = imagenet_utils.preprocess_input(image, mode="tf")
    assert result.dtype == np.float32
    np.testing.assert_allclose(result, image / 127.5 - 1.0, rtol=1e-6)
    caffe = imagenet_utils.preprocess_input(image.astype("float32"), mode="caffe")
    np.testing.assert_allclose(caffe[0, 0], [2 - 103.939, 1 - 116.779, 0 - 123.68], rtol=1e-6)


@pytest.mark.parametrize("module, mode", [(vgg16, "caffe"), (resnet, "caffe"), (resnet50, "caffe"),
                                          (resnet_v2, "tf"), (mobilenet_v2, "tf"),
                                          (densenet, "torch")])
def test_family_modes(module, mode):
    x = outputs()["preprocess/input"]
    np.testing.assert_allclose(module.preprocess_input(x.copy()),
                               outputs()[f"preprocess/{mode}/channels_last"], rtol=1e-6)


def test_mobilenet_v3_preprocessing_is_the_identity():
    x = np.ones((1, 2, 2, 3))
    assert mobilenet_v3.preprocess_input(x) is x


def test_bad_mode_and_data_format():
    with pytest.raises(ValueError, match="mode='keras'"):
        imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3)), mode="keras")
    with pytest.raises(ValueError, match="data_format='nhwc'"):
        imagenet_utils.preprocess_input(np.zeros((1, 2, 2, 3)), data_format="nhwc")


@pytest.fixture
def class_index(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setattr(imagenet_utils, "_CLASS_INDEX", None)
    (tmp_path / "models").mkdir()
    index = {str(i): [f"n{i:08d}", f"class_{i}"] for i in range(1000)}
    path = tmp_path / "models" / "imagenet_class_index.json"
    path.write_text(json.dumps(index))
    # Keras lists the real file's MD5; this stand-in is checked against its own.
    published = imagenet_utils.PublishedFile(
        "imagenet_class_index.json", imagenet_utils.CLASS_INDEX_FILE.origin,
        hikeras.utils.file_utils.hash_file(str(path), "md5"))
    monkeypatch.setattr(imagenet_utils, "CLASS_INDEX_FILE", published)
    return path


def test_decode_predictions(class_index):
    preds = np.zeros((2, 1000), "float32")
    preds[0, [3, 7, 5]] = [0.5, 0.3, 0.2]
    preds[1, 999] = 1.0
    decoded = vgg16.decode_predictions(preds, top=3)
    assert [row[:2] for row in decoded[0]] == [("n00000003", "class_3"), ("n00000007", "class_7"),
                                               ("n00000005", "class_5")]
    assert decoded[0][0][2] == pytest.approx(0.5)
    assert decoded[1][0][:2] == ("n00000999", "class_999")


def test_decode_predictions_without_the_class_index(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.setattr(imagenet_utils, "_CLASS_INDEX", None)
    with pytest.raises(FileNotFoundError) as info:
        imagenet_utils.decode_predictions(np.zeros((1, 1000)))
    message = str(info.value)
    assert "imagenet_class_index.json" in message
    assert "https://storage.googleapis.com/download.tensorflow.org/data/" in message
    assert str(tmp_path / "models") in message


def test_decode_predictions_shape():
    with pytest.raises(ValueError, match=r"\(samples, 1000\).*\(2, 10\)"):
        imagenet_utils.decode_predictions(np.zeros((2, 10)))


def test_obtain_input_shape_and_correct_pad():
    assert imagenet_utils.obtain_input_shape(None, 224, 32, "channels_last", True) == (224, 224, 3)
    assert imagenet_utils.obtain_input_shape(None, 224, 32, "channels_first", False) == (
        3, None, None)
    with pytest.warns(UserWarning, match="5 input channels"):
        imagenet_utils.obtain_input_shape((64, 64, 5), 224, 32, "channels_last", False)
    assert imagenet_utils.correct_pad(hikeras.Input((33, 34, 3)), 3) == ((1, 1), (0, 1))
    assert imagenet_utils.correct_pad(hikeras.Input((None, None, 3)), (5, 5)) == ((1, 2), (1, 2))
