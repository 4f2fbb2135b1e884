import numpy as np
import pytest

from hikeras import callbacks


class KerasGuideCallback(callbacks.Callback):
    """The patterns of Keras's "writing your own callbacks" guide, unchanged."""

    def __init__(self):
        super().__init__()
        self.lines = []

    def on_train_begin(self, logs=None):
        self.lines.append(f"start; keys {list(logs.keys())}")

    def on_epoch_begin(self, epoch, logs=None):
        lr = float(np.array(self.model.optimizer.learning_rate))
        self.model.optimizer.learning_rate = lr * 0.5

    def on_train_batch_end(self, batch, logs=None):
        self.lines.append(f"batch {batch}: loss {logs['loss']:7.2f}")

    def on_epoch_end(self, epoch, logs=None):
        self.lines.append(f"epoch {epoch}: {sorted(logs)}")
        if epoch == 1:
            self.model.stop_training = True

    def on_test_begin(self, logs=None):
        self.lines.append(f"test; keys {list(logs.keys())}")


def test_guide_style_callback_runs_unchanged(make_model, data):
    x, y = data
    cb = KerasGuideCallback()
    model = make_model(lr=0.1)
    history = model.fit(x, y, batch_size=8, epochs=5, verbose=0, callbacks=[cb],
                        validation_data=data)
    assert history.epoch == [0, 1]
    assert cb.lines[0] == "start; keys []"
    assert "epoch 0: ['loss', 'val_loss']" in cb.lines
    assert cb.params["epochs"] == 5 and cb.params["steps"] == 2
    assert model.optimizer.learning_rate == pytest.approx(0.025)
    model.evaluate(x, y, verbose=0, callbacks=[cb])
    assert cb.lines[-1] == "test; keys []"


def test_lambda_callback_hooks_and_errors():
    seen = []
    cb = callbacks.LambdaCallback(on_train_begin=lambda logs: seen.append(("begin", logs)),
                                  on_test_batch_end=lambda batch, logs: seen.append(batch))
    lst = callbacks.CallbackList([cb])
    lst.on_train_begin()
    lst.on_test_batch_end(7, {"loss": 1.0})
    assert seen == [("begin", {}), 7]
    with pytest.raises(ValueError, match=r"\['on_epoch_finish'\] are not callback hooks"):
        callbacks.LambdaCallback(on_epoch_finish=print)
    with pytest.raises(TypeError, match="on_epoch_end must be callable"):
        callbacks.LambdaCallback(on_epoch_end=3)


def test_an_error_names_the_callback_and_keeps_its_type(make_model, data, tmp_path):
    class Faulty(callbacks.Callback):
        def on_epoch_end(self, epoch, logs=None):
            if epoch == 1:
                raise KeyError("boom")

    x, y = data
    backup = callbacks.BackupAndRestore(tmp_path / "backup")
    log = tmp_path / "log.csv"
    with pytest.raises(KeyError, match="boom") as info:
        make_model().fit(x, y, epochs=3, verbose=0,
                         callbacks=[backup, callbacks.CSVLogger(log), Faulty()])
    assert "Raised by the callback Faulty in `on_epoch_end`." in info.value.__notes__
    # Nothing already saved is lost: epoch 0's row and backup survive the error.
    assert log.read_text().splitlines()[1].startswith("0,")
    assert (tmp_path / "backup" / "training_state.h5").exists()


def test_backup_runs_last_and_only_once(tmp_path):
    history, backup = callbacks.History(), callbacks.BackupAndRestore(tmp_path)
    other = callbacks.Callback()
    lst = callbacks.CallbackList([backup, other], add_history=True)
    assert lst.callbacks == [other, lst.callbacks[1], backup]
    assert isinstance(lst.callbacks[1], callbacks.History)
    assert backup.callbacks == lst.callbacks[:2]
    with pytest.raises(ValueError, match="Only one BackupAndRestore"):
        callbacks.CallbackList([backup, callbacks.BackupAndRestore(tmp_path), history])
    with pytest.raises(TypeError, match="must be instances"):
        callbacks.CallbackList([print])
