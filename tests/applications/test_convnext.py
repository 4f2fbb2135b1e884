"""ConvNeXt's own layers and rules (structure and outputs are checked against Keras elsewhere)."""

import numpy as np
import pytest

from hikeras import applications
from hikeras.applications.convnext import ConvNeXt, LayerScale, StochasticDepth
from tests.applications.seeded_weights import seed_model, seeded_images


def _tiny(**kwargs):
    return ConvNeXt([1, 1, 1, 1], [8, 16, 16, 32], weights=None, input_shape=(32, 32, 3),
                    name="convnext_test", **kwargs)


def test_stochastic_depth_drops_whole_samples_in_training_only():
    layer = StochasticDepth(0.5)
    x = np.ones((64, 2, 2, 3), "float32")
    assert np.array_equal(np.asarray(layer(x)), x)
    y = np.asarray(layer(x, training=True))
    per_sample = y.reshape(64, -1)
    assert set(np.unique(per_sample)) <= {0.0, 2.0}  # kept samples scaled by 1 / keep
    assert all(len(set(row)) == 1 for row in per_sample)  # one draw per sample
    assert 0 < per_sample[:, 0].sum() < 128


def test_layer_scale_weight_and_config():
    layer = LayerScale(1e-6, 4)
    y = layer(np.ones((1, 4), "float32"))
    np.testing.assert_allclose(np.asarray(y), 1e-6)
    assert [w.shape for w in layer.weights] == [(4,)]
    assert LayerScale.from_config(layer.get_config()).projection_dim == 4


def test_drop_path_rate_grows_linearly_over_the_blocks():
    model = _tiny(drop_path_rate=0.3, include_top=False)
    # Rates 0, 0.1, 0.2, 0.3: the first block keeps Keras's identity activation.
    assert type(model.get_layer("convnext_test_stage_0_block_0_identity")).__name__ == \
        "Activation"
    last = model.get_layer("convnext_test_stage_3_block_0_stochastic_depth")
    assert last.drop_path_rate == pytest.approx(0.3)


@pytest.mark.parametrize("suffix", [".weights.h5", ".h5"])
def test_nested_stem_weights_round_trip(tmp_path, suffix):
    model = _tiny(include_top=False, pooling="avg")
    seed_model(model)
    x = seeded_images([2, 32, 32, 3], 0.0, 255.0)
    expected = model.predict(x, verbose=0)
    path = str(tmp_path / f"convnext{suffix}")
    model.save_weights(path)
    fresh = _tiny(include_top=False, pooling="avg")
    fresh.load_weights(path)
    np.testing.assert_allclose(fresh.predict(x, verbose=0), expected, rtol=1e-6)
    assert fresh.get_layer("convnext_test_stem").weights[0].path == \
        "convnext_test_stem/convnext_test_stem_conv/kernel"


def test_imagenet_needs_the_variant_in_the_name(tmp_path, monkeypatch):
    monkeypatch.setenv("KERAS_HOME", str(tmp_path))
    with pytest.raises(ValueError, match="must contain 'convnext_tiny'"):
        applications.ConvNeXtTiny(weights="imagenet", name="backbone")
    with pytest.raises(FileNotFoundError, match="convnext_small_notop.h5"):
        applications.ConvNeXtSmall(weights="imagenet", include_top=False)


@pytest.mark.parametrize("suffix", [".keras", ".h5"])
def test_whole_model_saves_and_loads_without_custom_objects(tmp_path, suffix):
    # LayerScale, StochasticDepth (and InceptionResNetV2's CustomScaleLayer) are known to
    # deserialisation, as Keras finds them through their module.
    import hikeras

    model = _tiny(include_top=False, pooling="avg", drop_path_rate=0.2)
    seed_model(model)
    path = str(tmp_path / f"convnext{suffix}")
    model.save(path)
    loaded = hikeras.models.load_model(path)
    x = seeded_images([2, 32, 32, 3], 0.0, 255.0)
    np.testing.assert_allclose(loaded.predict(x, verbose=0), model.predict(x, verbose=0),
                               rtol=1e-6)
    assert type(loaded.get_layer("convnext_test_stage_3_block_0_stochastic_depth")) is \
        StochasticDepth
