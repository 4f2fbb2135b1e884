"""save_weights/load_weights: both layouts, topological and by-name loading, the report."""

import h5py
import numpy as np
import pytest

import hikeras
from hikeras import layers
from hikeras.saving import SavedFileError
from tests.saving.saving_models import (
    ScaleWithStats,
    assert_same_outputs,
    functional,
    inner_block,
    mlp,
    nested,
    randomize,
    sample_x,
)

SUFFIXES = [".h5", ".weights.h5"]
BUILDERS = [mlp, functional, nested]


@pytest.mark.parametrize("suffix", SUFFIXES)
@pytest.mark.parametrize("build", BUILDERS)
def test_round_trip_restores_every_weight(tmp_path, suffix, build):
    source = randomize(build(seed=0))
    path = tmp_path / f"w{suffix}"
    source.save_weights(path)
    target = build(seed=3)
    report = target.load_weights(path)
    for a, b in zip(source.weights, target.weights):
        np.testing.assert_array_equal(a.value, b.value)
    assert len(report.matched) == len(source.weights)
    assert not (report.missing or report.unexpected or report.skipped)
    assert_same_outputs(source, target, sample_x())


def test_legacy_layout_matches_keras(tmp_path):
    model = randomize(nested())
    path = tmp_path / "w.h5"
    model.save_weights(path)
    with h5py.File(path) as f:
        assert [n.decode() for n in f.attrs["layer_names"]] == ["input_layer", "block", "head"]
        assert f["input_layer"].attrs["weight_names"].size == 0
        block_names = [n.decode() for n in f["block"].attrs["weight_names"]]
        # A nested model's entry: its sublayers' trainable weights, then the non-trainable.
        assert block_names == ["dense/kernel:0", "dense/bias:0", "scale_with_stats/gamma:0",
                               "scale_with_stats/beta:0", "dense_1/kernel:0", "dense_1/bias:0",
                               "scale_with_stats/moving_mean:0"]
        block = model.get_layer("block")
        np.testing.assert_array_equal(f["block/dense/kernel:0"][()],
                                      block.layers[0].kernel.value)
        assert f["head/head/kernel:0"].shape == (3, 2)


def test_keras3_layout_keys(tmp_path):
    model = randomize(nested())
    path = tmp_path / "w.weights.h5"
    model.save_weights(path)
    with h5py.File(path) as f:
        assert set(f["layers"]) == {"input_layer", "sequential", "dense"}
        inner = f["layers/sequential/layers"]
        assert set(inner) == {"dense", "dense_1", "scale_with_stats"}
        assert inner["scale_with_stats/vars"].attrs["name"] == "scale_with_stats"
        stats = model.get_layer("block").layers[1]
        np.testing.assert_array_equal(inner["scale_with_stats/vars/2"][()],
                                      stats.moving_mean.value)
        np.testing.assert_array_equal(f["layers/dense/vars/0"][()],
                                      model.get_layer("head").kernel.value)


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_freezing_between_save_and_load_changes_nothing(tmp_path, suffix):
    source = randomize(nested())
    source.get_layer("block").trainable = False
    path = tmp_path / f"w{suffix}"
    source.save_weights(path)
    target = nested(seed=5)
    target.load_weights(path)
    assert_same_outputs(source, target, sample_x())
    target.get_layer("block").trainable = False
    source.get_layer("block").trainable = True
    source.save_weights(path)
    target.load_weights(path)
    assert_same_outputs(source, target, sample_x())


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_shape_mismatch_raises_and_changes_nothing(tmp_path, suffix):
    randomize(mlp()).save_weights(tmp_path / f"w{suffix}")
    other = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(7, activation="relu"),
                                ScaleWithStats(), layers.Dense(3)])
    before = other.get_weights()
    with pytest.raises(SavedFileError, match=r"\(4, 7\) in the model but \(4, 6\)"):
        other.load_weights(tmp_path / f"w{suffix}")
    for a, b in zip(before, other.get_weights()):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("suffix", SUFFIXES)
def test_skip_mismatch_loads_the_rest_and_reports(tmp_path, suffix):
    source = randomize(mlp())
    path = tmp_path / f"w{suffix}"
    source.save_weights(path)
    hikeras.utils.set_random_seed(0)
    target = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(6, activation="relu"),
                                 ScaleWithStats(), layers.Dense(5)])
    report = target.load_weights(path, skip_mismatch=True, by_name=True)
    np.testing.assert_array_equal(target.layers[0].kernel.value, source.layers[0].kernel.value)
    assert not np.array_equal(target.layers[2].bias.value[:3], source.layers[2].bias.value)
    assert [what for what, _ in report.skipped] == ["layer 'dense_1'"]
    assert "(6, 5)" in report.skipped[0][1] and "(6, 3)" in report.skipped[0][1]
    assert len(report.matched) == 5


def test_topological_count_mismatch_names_both_sides(tmp_path):
    mlp().save_weights(tmp_path / "w.h5")
    target = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(6), layers.Dense(3)])
    with pytest.raises(SavedFileError, match="w.h5.*3 layers.*2 layers with weights"):
        target.load_weights(tmp_path / "w.h5")


def test_by_name_ignores_order_and_reports_missing_and_unexpected(tmp_path):
    source = randomize(hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, name="a"),
                                           layers.Dense(2, name="b")]))
    source.save_weights(tmp_path / "w.h5")
    target = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, name="a"),
                                 layers.Dense(2, name="c")])
    report = target.load_weights(tmp_path / "w.h5", by_name=True)
    np.testing.assert_array_equal(target.get_layer("a").kernel.value,
                                  source.get_layer("a").kernel.value)
    assert report.missing == ["c/kernel", "c/bias"]
    assert report.unexpected == ["b/kernel:0", "b/bias:0"]


def test_nothing_matching_is_an_error(tmp_path):
    hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, name="a")]).save_weights(
        tmp_path / "w.h5")
    target = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, name="z")])
    with pytest.raises(SavedFileError, match="nothing was loaded"):
        target.load_weights(tmp_path / "w.h5", by_name=True)


def test_unwrapping_and_wrapping_a_nested_model_by_name(tmp_path):
    wrapped = randomize(nested())
    wrapped.save_weights(tmp_path / "wrapped.h5")
    block = inner_block(seed=9)
    flat = hikeras.Model(block.inputs[0], layers.Dense(2, name="head")(block.outputs[0]))
    report = flat.load_weights(tmp_path / "wrapped.h5", by_name=True)
    assert not report.missing and not report.unexpected
    assert_same_outputs(wrapped, flat, sample_x())

    flat.get_layer("head").kernel.assign(np.full((3, 2), 0.5, "float32"))
    flat.save_weights(tmp_path / "flat.h5")
    rewrapped = nested(seed=4)
    rewrapped.load_weights(tmp_path / "flat.h5", by_name=True)
    assert_same_outputs(flat, rewrapped, sample_x())


def test_name_map_renames_saved_layers(tmp_path):
    source = randomize(hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, name="old")]))
    source.save_weights(tmp_path / "w.h5")
    target = hikeras.Sequential([hikeras.Input((4,)), layers.Dense(3, name="new")])
    target.load_weights(tmp_path / "w.h5", by_name=True, name_map={"old": "new"})
    np.testing.assert_array_equal(target.get_weights()[0], source.get_weights()[0])


def test_verbose_prints_the_report(tmp_path, capsys):
    model = mlp()
    model.save_weights(tmp_path / "w.weights.h5")
    model.load_weights(tmp_path / "w.weights.h5", verbose=True)
    assert "7 matched, 0 skipped, 0 missing, 0 unexpected" in capsys.readouterr().out


def test_unbuilt_model_and_bad_suffix_are_errors(tmp_path):
    model = hikeras.Sequential([layers.Dense(2)])
    with pytest.raises(ValueError, match="build"):
        model.save_weights(tmp_path / "w.h5")
    with pytest.raises(ValueError, match="weights.h5"):
        mlp().save_weights(tmp_path / "w.bin")
    with pytest.raises(FileExistsError):
        path = tmp_path / "w.h5"
        mlp().save_weights(path)
        mlp().save_weights(path, overwrite=False)


def test_optimizer_state_travels_in_keras3_layout(tmp_path):
    x = sample_x()
    y = np.ones((5, 3), "float32")
    model = mlp()
    model.compile(optimizer=hikeras.optimizers.Adam(0.01), loss="mse")
    model.fit(x, y, epochs=2, batch_size=5, verbose=0, shuffle=False)
    model.save_weights(tmp_path / "w.weights.h5")
    other = mlp(seed=2)
    other.compile(optimizer=hikeras.optimizers.Adam(0.01), loss="mse")
    report = other.load_weights(tmp_path / "w.weights.h5")
    assert int(other.optimizer.iterations) == 2
    assert len(report.matched) == len(model.weights)
    model.train_on_batch(x, y)
    other.train_on_batch(x, y)
    assert_same_outputs(model, other, x)


@pytest.mark.parametrize("suffix", SUFFIXES + ["_model.h5"])
@pytest.mark.parametrize("kind", ["cnn", "rnn"])
def test_conv_batchnorm_and_lstm_models_round_trip(tmp_path, suffix, kind):
    from tests.fixtures.make_keras_fixtures import build, data

    source = randomize(build(hikeras, kind))
    path = tmp_path / f"m{suffix}"
    if suffix == "_model.h5":
        source.save(path)
        target = hikeras.models.load_model(path)
    else:
        source.save_weights(path)
        target = build(hikeras, kind)
        target.load_weights(path)
    for a, b in zip(source.weights, target.weights):
        np.testing.assert_array_equal(a.value, b.value)
    x, _ = data(kind)
    np.testing.assert_array_equal(source.predict(x, verbose=0), target.predict(x, verbose=0))
