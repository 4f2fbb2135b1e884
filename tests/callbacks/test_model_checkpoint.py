import os
import random
import signal
import time

import numpy as np
import pytest

import hikeras
from hikeras import callbacks, layers

from .conftest import ScriptedLogs


def _fit(model, data, cbs, epochs=3, batch_size=8, **kwargs):
    x, y = data
    return model.fit(x, y, batch_size=batch_size, epochs=epochs, verbose=0, callbacks=cbs,
                     **kwargs)


def test_filepath_takes_epoch_and_logged_values(make_model, data, tmp_path):
    template = str(tmp_path / "ckpt" / "{epoch:02d}-{val_loss:.3f}.weights.h5")
    history = _fit(make_model(), data, [callbacks.ModelCheckpoint(
        template, save_weights_only=True)], validation_data=data)
    expected = sorted(f"{e + 1:02d}-{v:.3f}.weights.h5"
                      for e, v in zip(history.epoch, history.history["val_loss"]))
    assert sorted(os.listdir(tmp_path / "ckpt")) == expected


def test_saved_weights_load_back_equal(make_model, data, tmp_path):
    path = tmp_path / "last.h5"
    model = make_model()
    _fit(model, data, [callbacks.ModelCheckpoint(path, save_weights_only=True)])
    fresh = make_model(seed=5)
    fresh.load_weights(path)
    for a, b in zip(model.get_weights(), fresh.get_weights()):
        np.testing.assert_array_equal(a, b)


@pytest.mark.parametrize("name", ["model.h5", "model.keras"])
def test_whole_model_checkpoint_loads_as_a_model(make_model, data, tmp_path, name):
    path = tmp_path / name
    model = make_model()
    _fit(model, data, [callbacks.ModelCheckpoint(path, monitor="loss")], epochs=1)
    loaded = hikeras.models.load_model(path)
    np.testing.assert_array_equal(loaded.predict(data[0], verbose=0),
                                  model.predict(data[0], verbose=0))


def test_save_best_only_saves_on_improvement(make_model, data, tmp_path, capsys):
    snapshots = []
    record = callbacks.LambdaCallback(
        on_epoch_end=lambda epoch, logs: snapshots.append(model.get_weights()))
    ckpt = callbacks.ModelCheckpoint(tmp_path / "{epoch}.weights.h5", save_best_only=True,
                                     save_weights_only=True, verbose=1)
    model = make_model()
    _fit(model, data, [ScriptedLogs(val_loss=[3, 2, 2.5, 1]), ckpt, record], epochs=4,
         validation_data=data)
    assert sorted(os.listdir(tmp_path)) == ["1.weights.h5", "2.weights.h5", "4.weights.h5"]
    assert ckpt.best == 1
    out = capsys.readouterr().out
    assert "Epoch 3: val_loss did not improve from 2.00000" in out
    assert "Epoch 4: val_loss improved from 2.00000 to 1.00000" in out
    fresh = make_model(seed=3)
    fresh.load_weights(tmp_path / "2.weights.h5")
    for a, b in zip(fresh.get_weights(), snapshots[1]):
        np.testing.assert_array_equal(a, b)


def test_best_value_is_kept_across_fits_and_threshold_applies(make_model, data, tmp_path):
    ckpt = callbacks.ModelCheckpoint(tmp_path / "{epoch}.h5", monitor="loss",
                                     save_best_only=True, save_weights_only=True,
                                     initial_value_threshold=1.0)
    model = make_model()
    _fit(model, data, [ScriptedLogs(loss=[2, 1.5, 0.5]), ckpt])
    assert os.listdir(tmp_path) == ["3.h5"]
    _fit(model, data, [ScriptedLogs(loss=[0.7, 0.4]), ckpt], epochs=2)  # must beat 0.5
    assert sorted(os.listdir(tmp_path)) == ["2.h5", "3.h5"] and ckpt.best == 0.4


def test_integer_save_freq_counts_batches_across_epochs(make_model, data, tmp_path):
    # 2 batches per epoch, 6 in all: saves after global batches 3 and 6.
    ckpt = callbacks.ModelCheckpoint(tmp_path / "e{epoch}-b{batch}.weights.h5",
                                     save_weights_only=True, save_freq=3)
    _fit(make_model(), data, [ckpt])
    assert sorted(os.listdir(tmp_path)) == ["e2-b1.weights.h5", "e3-b2.weights.h5"]


def test_missing_monitor_lists_available_keys_at_the_first_epoch_end(make_model, data,
                                                                    tmp_path):
    ended = []
    watcher = callbacks.LambdaCallback(on_epoch_end=lambda e, logs: ended.append(e))
    ckpt = callbacks.ModelCheckpoint(tmp_path / "w.h5", monitor="val_acc",
                                     save_best_only=True, save_weights_only=True)
    with pytest.raises(ValueError, match=r"Available keys: \['loss', 'mae', 'val_loss', "
                                         r"'val_mae'\]. Received: monitor='val_acc'"):
        _fit(make_model(metrics=["mae"]), data, [watcher, ckpt], validation_data=data)
    assert ended == [0] and not os.listdir(tmp_path)


def test_unknown_filepath_field_fails_at_the_first_batch(make_model, data, tmp_path):
    ckpt = callbacks.ModelCheckpoint(tmp_path / "{epoch}-{val_accuracy}.h5",
                                     save_weights_only=True)
    with pytest.raises(ValueError, match=r"'\{val_accuracy\}' is not among the logged"):
        _fit(make_model(), data, [ckpt], validation_data=data)


def test_unusable_directory_fails_before_training(make_model, data, tmp_path):
    (tmp_path / "file").write_text("")
    started = []
    watcher = callbacks.LambdaCallback(on_train_batch_begin=lambda b, logs: started.append(b))
    ckpt = callbacks.ModelCheckpoint(tmp_path / "file" / "sub" / "{epoch}.h5",
                                     save_weights_only=True)
    with pytest.raises(ValueError, match="ModelCheckpoint: cannot write to the directory"):
        _fit(make_model(), data, [watcher, ckpt])
    assert started == []


@pytest.mark.parametrize("kwargs, match", [
    (dict(save_freq=0), "save_freq must be 'epoch' or a positive integer"),
    (dict(save_freq=-2), "save_freq must be 'epoch' or a positive integer"),
    (dict(save_freq="batch"), "save_freq must be 'epoch' or a positive integer"),
    (dict(mode="lowest"), "mode must be one of"),
    (dict(filepath="w{batch}.h5"), r"uses \{batch\}"),
    (dict(filepath="w{epoch.h5"), "not a valid format string"),
    (dict(filepath="w.pt"), r"ending in one of \['.keras', '.h5', '.hdf5'\]"),
    (dict(filepath="w.keras", save_weights_only=True), "'.weights.h5'"),
    (dict(max_shard_size="1MB", save_weights_only=True), r"\['.weights.json'\]"),
    (dict(save_best_only=True, save_freq=5), "never hold 'val_loss'"),
])
def test_bad_arguments(kwargs, match):
    kwargs.setdefault("filepath", "w.h5")
    with pytest.raises(ValueError, match=match):
        callbacks.ModelCheckpoint(**kwargs)


def _train_and_save_forever(folder, save_weights_only):
    hikeras.utils.set_random_seed(0)
    model = hikeras.Sequential([hikeras.Input((256,)), layers.Dense(512), layers.Dense(1)])
    model.compile(optimizer=hikeras.optimizers.SGD(1e-4), loss="mse")
    name = "ckpt.weights.h5" if save_weights_only else "ckpt.h5"
    ckpt = callbacks.ModelCheckpoint(os.path.join(folder, name), save_freq=1,
                                     save_weights_only=save_weights_only)
    x = np.ones((4, 256), "float32")
    model.fit(x, np.ones((4, 1), "float32"), epochs=10 ** 6, verbose=0, callbacks=[ckpt])


@pytest.mark.parametrize("save_weights_only, runs", [(True, 15), (False, 5)])
def test_killed_mid_save_leaves_a_loadable_checkpoint(tmp_path, save_weights_only, runs):
    rng = random.Random(0)
    target = tmp_path / ("ckpt.weights.h5" if save_weights_only else "ckpt.h5")
    interrupted_saves = 0
    # Kills land at random times: keep going past `runs` (up to 8x) until at least one
    # has landed mid-save, so a loaded machine cannot make the last assertion vacuous.
    for attempt in range(8 * runs):
        if attempt >= runs and interrupted_saves:
            break
        pid = os.fork()
        if pid == 0:  # the child trains and saves until it is killed
            try:
                _train_and_save_forever(str(tmp_path), save_weights_only)
            finally:
                os._exit(0)
        deadline = time.monotonic() + 30
        while not target.exists() and time.monotonic() < deadline:
            time.sleep(0.005)
        time.sleep(rng.uniform(0.0, 0.1))
        os.kill(pid, signal.SIGKILL)
        os.waitpid(pid, 0)
        leftovers = [p for p in os.listdir(tmp_path) if p.endswith(".tmp")]
        interrupted_saves += bool(leftovers)
        for p in leftovers:
            os.remove(tmp_path / p)
        if save_weights_only:
            model = hikeras.Sequential([hikeras.Input((256,)), layers.Dense(512),
                                        layers.Dense(1)])
            model.load_weights(target)
        else:
            model = hikeras.models.load_model(target)
        assert all(np.isfinite(w).all() for w in model.get_weights())
    assert interrupted_saves > 0  # some kills really landed in the middle of a save
