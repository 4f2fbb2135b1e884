"""The `hikeras.utils` names Keras 3 has: Config, Progbar, image helpers, get_source_inputs."""

import numpy as np
import pytest

import hikeras
from hikeras import config, layers, utils


def test_config_attribute_and_item_access_and_freezing():
    settings = utils.Config(learning_rate=0.1)
    settings.seed = 3
    settings["momentum"] = 0.9
    assert (settings.seed, settings["learning_rate"], len(settings)) == (3, 0.1, 3)
    assert settings.as_dict() == {"learning_rate": 0.1, "seed": 3, "momentum": 0.9}
    assert settings.to_json() == '{"learning_rate": 0.1, "seed": 3, "momentum": 0.9}'
    settings.freeze()
    assert settings.frozen
    with pytest.raises(AttributeError, match="frozen"):
        settings.seed = 4
    with pytest.raises(AttributeError, match="frozen"):
        settings["x"] = 1
    settings.unfreeze()
    settings.seed = 4
    with pytest.raises(AttributeError, match="Unknown attribute: 'missing'"):
        settings.missing  # noqa: B018


def test_progbar_averages_and_draws(capsys):
    bar = utils.Progbar(4, verbose=1, interval=0.0, stateful_metrics=["acc"])
    bar.update(2, [("loss", 1.0), ("acc", 0.5)])
    bar.update(4, [("loss", 3.0), ("acc", 0.75)])
    out = capsys.readouterr().out
    assert "4/4 [====================]" in out
    assert "loss: 2.0000" in out and "acc: 0.7500" in out
    assert out.endswith("\n")
    with pytest.raises(ValueError, match="Received: verbose=3"):
        utils.Progbar(1, verbose=3)


def test_progbar_without_interactive_logging_writes_one_line(capsys):
    config.disable_interactive_logging()
    try:
        bar = utils.Progbar(2, interval=0.0)
        bar.add(1, [("loss", 1.0)])
        bar.add(1, [("loss", 0.0)])
    finally:
        config.enable_interactive_logging()
    out = capsys.readouterr().out
    assert "\r" not in out and out.count("\n") == 1 and "loss: 0.5000" in out


def test_image_round_trip(tmp_path, rng):
    pytest.importorskip("PIL")
    x = rng.uniform(0, 255, (5, 7, 3)).round()
    path = tmp_path / "a.png"
    utils.save_img(path, x, scale=False)
    image = utils.load_img(path)
    assert image.size == (7, 5)
    np.testing.assert_array_equal(utils.img_to_array(image), x)
    assert utils.img_to_array(image, data_format="channels_first").shape == (3, 5, 7)
    gray = utils.load_img(path, color_mode="grayscale", target_size=(2, 3))
    assert utils.img_to_array(gray).shape == (2, 3, 1)
    scaled = np.asarray(utils.array_to_img(np.array([[[0.0], [0.5]], [[1.0], [0.25]]])))
    np.testing.assert_array_equal(scaled, [[0, 127], [255, 63]])
    with pytest.raises(ValueError, match=r"rank 3.*Received: x.shape=\(2, 2\)"):
        utils.array_to_img(np.ones((2, 2)))
    with pytest.raises(ValueError, match="Received: color_mode='cmyk'"):
        utils.load_img(path, color_mode="cmyk")


def test_get_source_inputs_and_is_keras_tensor():
    a, b = hikeras.Input((2,), name="a"), hikeras.Input((2,), name="b")
    out = layers.Dense(1)(layers.Concatenate()([a, layers.Dense(2)(b)]))
    assert utils.get_source_inputs(out) == [a, b]
    assert utils.get_source_inputs(a) == [a]
    assert utils.is_keras_tensor(out) and not utils.is_keras_tensor(np.ones(2))
    with pytest.raises(ValueError, match="symbolic tensor"):
        utils.get_source_inputs(np.ones(2))


def test_serialization_names_are_the_saving_ones():
    assert utils.register_keras_serializable is hikeras.saving.register_keras_serializable
    assert utils.custom_object_scope is hikeras.saving.custom_object_scope
    assert utils.standardize_dtype("float64") == "float64"
