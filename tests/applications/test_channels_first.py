"""Under `channels_first` the same weights give the same features (on transposed images)."""

import numpy as np
import pytest

from hikeras import applications, backend
from tests.applications.seeded_weights import seed_model, seeded_images


@pytest.fixture
def channels_first():
    backend.set_image_data_format("channels_first")
    try:
        yield
    finally:
        backend.set_image_data_format("channels_last")


@pytest.mark.parametrize("constructor, kwargs, pixels", [
    (applications.MobileNetV2, {"alpha": 0.35}, False),
    (applications.MobileNetV3Small, {"alpha": 0.75}, True),
    (applications.ResNet50V2, {}, False),
], ids=["MobileNetV2", "MobileNetV3Small", "ResNet50V2"])
def test_channels_first_matches_channels_last(constructor, kwargs, pixels, request):
    x = seeded_images([2, 33, 32, 3], *((0, 255) if pixels else (-1, 1)))
    last = constructor(weights=None, include_top=False, pooling="avg", input_shape=(33, 32, 3),
                       **kwargs)
    seed_model(last)
    expected = last.predict(x, verbose=0)
    request.getfixturevalue("channels_first")
    first = constructor(weights=None, include_top=False, pooling="avg", input_shape=(3, 33, 32),
                        **kwargs)
    seed_model(first)
    actual = first.predict(np.ascontiguousarray(x.transpose(0, 3, 1, 2)), verbose=0)
    np.testing.assert_allclose(actual, expected, rtol=1e-4, atol=1e-5)


def test_densenet_refuses_channels_first(channels_first):
    with pytest.raises(ValueError, match="channels_first"):
        applications.DenseNet121(weights=None, include_top=False)
