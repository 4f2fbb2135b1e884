"""Bad arguments and `channels_first`: Xception, the Inceptions, EfficientNet, ConvNeXt, NASNet."""

import numpy as np
import pytest

from hikeras import applications, backend
from tests.applications.seeded_weights import seed_model, seeded_images

# Constructor name -> the smallest input Keras accepts.
MIN_SIZES = {
    "Xception": 71, "InceptionV3": 75, "InceptionResNetV2": 75,
    **{f"EfficientNetB{i}": 32 for i in range(8)},
    **{f"EfficientNetV2{v}": 32 for v in ("B0", "B1", "B2", "B3", "S", "M", "L")},
    **{f"ConvNeXt{v}": 32 for v in ("Tiny", "Small", "Base", "Large", "XLarge")},
    "NASNetMobile": 32, "NASNetLarge": 32,
}
NAMES = [name for name in MIN_SIZES if hasattr(applications, name)]


@pytest.mark.parametrize("name", NAMES)
def test_input_shape_too_small(name):
    size = MIN_SIZES[name]
    with pytest.raises(ValueError, match=rf"at least {size}x{size}.*input_shape=\({size - 1}, "):
        getattr(applications, name)(weights=None, include_top=False,
                                    input_shape=(size - 1, 96, 3))


@pytest.mark.parametrize("name", NAMES)
def test_unknown_pooling(name):
    with pytest.raises(ValueError, match=r"pooling.*Received: pooling='mean'"):
        getattr(applications, name)(weights=None, include_top=False, pooling="mean")


@pytest.mark.parametrize("name", NAMES)
def test_classes_with_imagenet_top(name, tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(ValueError, match=r"`classes` should be 1000.*classes=10"):
        getattr(applications, name)(weights="imagenet", include_top=True, classes=10)


@pytest.fixture
def channels_first():
    backend.set_image_data_format("channels_first")
    try:
        yield
    finally:
        backend.set_image_data_format("channels_last")


@pytest.mark.parametrize("name", ["ConvNeXtTiny", "NASNetMobile"])
def test_channels_first_refused_as_in_keras(name, channels_first):
    if not hasattr(applications, name):
        pytest.skip(f"{name} not built yet")
    with pytest.raises(ValueError, match="channels_first"):
        getattr(applications, name)(weights=None, include_top=False)


@pytest.mark.parametrize("name, pixels", [("Xception", False), ("EfficientNetB0", True),
                                          ("EfficientNetV2B0", True)])
def test_channels_first_matches_channels_last(name, pixels, request):
    constructor = getattr(applications, name)
    size = MIN_SIZES[name]
    x = seeded_images([1, size, size + 3, 3], *((0, 255) if pixels else (-1, 1)))
    last = constructor(weights=None, include_top=False, pooling="avg",
                       input_shape=(size, size + 3, 3))
    seed_model(last)
    expected = last.predict(x, verbose=0)
    request.getfixturevalue("channels_first")
    first = constructor(weights=None, include_top=False, pooling="avg",
                        input_shape=(3, size, size + 3))
    seed_model(first)
    actual = first.predict(np.ascontiguousarray(x.transpose(0, 3, 1, 2)), verbose=0)
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)


def test_nasnet_imagenet_needs_a_static_input_shape():
    with pytest.raises(ValueError, match="must be static"):
        applications.NASNetMobile(weights="imagenet", include_top=False,
                                  input_shape=(None, None, 3))


def test_nasnet_penultimate_filters_multiple_of_96():
    from hikeras.applications.nasnet import NASNet

    with pytest.raises(ValueError, match="multiple of 24.*penultimate_filters=100"):
        NASNet(input_shape=(32, 32, 3), penultimate_filters=100, weights=None,
               include_top=False)
