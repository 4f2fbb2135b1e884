import glob
import gzip
import json
import os
import sys

import numpy as np
import pytest

from hikeras import callbacks

event_accumulator = pytest.importorskip(
    "tensorboard.backend.event_processing.event_accumulator")


def _read(folder):
    acc = event_accumulator.EventAccumulator(
        str(folder), size_guidance={event_accumulator.SCALARS: 0,
                                    event_accumulator.HISTOGRAMS: 0,
                                    event_accumulator.TENSORS: 0})
    acc.Reload()
    return acc


def _scalars(acc, tag):
    return [(e.step, e.value) for e in acc.Scalars(tag)]


def _f32(values):
    return [float(np.float32(v)) for v in values]


class BatchRecorder(callbacks.Callback):
    def __init__(self):
        super().__init__()
        self.losses = []

    def on_train_batch_end(self, batch, logs=None):
        self.losses.append(logs["loss"])


def test_epoch_scalars_in_train_and_validation_runs(make_model, data, tmp_path):
    x, y = data
    model = make_model(lr=0.05, metrics=["mae"])
    history = model.fit(x, y, batch_size=8, epochs=3, verbose=0, validation_data=data,
                        callbacks=[callbacks.TensorBoard(tmp_path, write_graph=False)])
    assert sorted(os.listdir(tmp_path)) == ["train", "validation"]
    train, val = _read(tmp_path / "train"), _read(tmp_path / "validation")
    for key in ("loss", "mae"):
        assert _scalars(train, f"epoch_{key}") == list(enumerate(_f32(history.history[key])))
        assert _scalars(val, f"epoch_{key}") == list(enumerate(
            _f32(history.history[f"val_{key}"])))
    assert _scalars(train, "epoch_learning_rate") == list(enumerate(_f32([0.05] * 3)))
    # Validation after each epoch, at the optimizer's step count (2 batches per epoch).
    assert _scalars(val, "evaluation_loss_vs_iterations") == list(zip(
        [2, 4, 6], _f32(history.history["val_loss"])))
    assert not train.Tags()["histograms"] and not train.Tags()["graph"]


@pytest.mark.parametrize("update_freq, steps", [("batch", [1, 2, 3, 4, 5, 6]), (4, [4])])
def test_batch_scalars_follow_update_freq(make_model, data, tmp_path, update_freq, steps):
    x, y = data
    recorder = BatchRecorder()
    make_model().fit(x, y, batch_size=8, epochs=3, verbose=0, callbacks=[
        recorder, callbacks.TensorBoard(tmp_path, update_freq=update_freq, write_graph=False)])
    train = _read(tmp_path / "train")
    assert _scalars(train, "batch_loss") == [(s, float(np.float32(recorder.losses[s - 1])))
                                             for s in steps]
    assert [s for s, _ in _scalars(train, "batch_learning_rate")] == steps
    assert len(_scalars(train, "epoch_loss")) == 3


def test_histograms_every_histogram_freq_epochs(make_model, data, tmp_path):
    x, y = data
    model = make_model()
    kernels = {}
    record = callbacks.LambdaCallback(
        on_epoch_end=lambda e, logs: kernels.__setitem__(e, model.weights[0].value.copy()))
    model.fit(x, y, batch_size=8, epochs=4, verbose=0, callbacks=[
        record, callbacks.TensorBoard(tmp_path, histogram_freq=2, write_graph=False)])
    train = _read(tmp_path / "train")
    tags = sorted(train.Tags()["histograms"])
    assert tags == sorted(f"{w.path}/histogram" for w in model.weights)
    events = train.Histograms(f"{model.weights[0].path}/histogram")
    assert [e.step for e in events] == [0, 2]
    for event in events:
        kernel = kernels[event.step]
        hist = event.histogram_value
        assert hist.num == kernel.size
        assert hist.min == pytest.approx(kernel.min()) and hist.max == pytest.approx(
            kernel.max())
        assert hist.sum == pytest.approx(kernel.sum(), abs=1e-5)


def test_layer_graph_and_summary(make_model, data, tmp_path):
    x, y = data
    model = make_model()
    model.fit(x, y, epochs=1, verbose=0, callbacks=[callbacks.TensorBoard(tmp_path)])
    train = _read(tmp_path / "train")
    nodes = {n.name: n for n in train.Graph().node}
    first, second = model.layers
    assert nodes[first.name].op == "Dense" and nodes[second.name].op == "Dense"
    assert list(nodes[second.name].input) == [first.name]
    assert len(nodes[first.name].input) == 1 and nodes[nodes[first.name].input[0]].op == \
        "InputLayer"
    shape = nodes[second.name].attr["_output_shapes"].list.shape[0]
    assert [d.size for d in shape.dim] == [-1, 1]
    text = train.Tensors("model_summary/text_summary")[0].tensor_proto.string_val[0].decode()
    assert first.name in text and "Total params" in text


def test_profile_batch_writes_a_trace_and_a_table(make_model, data, tmp_path):
    x, y = data
    make_model().fit(x, y, batch_size=4, epochs=1, verbose=0, callbacks=[
        callbacks.TensorBoard(tmp_path, profile_batch=(2, 3), write_graph=False)])
    traces = glob.glob(str(tmp_path / "plugins" / "profile" / "*" / "*.trace.json.gz"))
    assert len(traces) == 1
    with gzip.open(traces[0], "rt") as f:
        events = json.load(f)["traceEvents"]
    assert sum(e["cat"] == "step" for e in events) == 2  # batches 2 and 3
    assert {"dense", "mean_squared_error"} & {e["name"] for e in events}
    text = _read(tmp_path / "train").Tensors("profile/text_summary")
    assert [t.step for t in text] == [3]
    assert b"ms per step" in text[0].tensor_proto.string_val[0]


def test_missing_writer_names_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "tensorboardX", None)
    with pytest.raises(ImportError, match=r'pip install "hikeras\[tensorboard\]"'):
        callbacks.TensorBoard("logs")


@pytest.mark.parametrize("kwargs, match", [
    (dict(update_freq=0), "update_freq must be"),
    (dict(update_freq="step"), "update_freq must be"),
    (dict(histogram_freq=-1), "histogram_freq must be"),
    (dict(profile_batch=(3, 2)), "profile_batch must be"),
    (dict(profile_batch=-1), "profile_batch must be"),
    (dict(write_images=True), "not supported"),
])
def test_bad_arguments(kwargs, match):
    with pytest.raises(ValueError, match=match):
        callbacks.TensorBoard("logs", **kwargs)


def test_log_dir_that_cannot_be_created_fails_before_training(make_model, data, tmp_path):
    (tmp_path / "f").write_text("")
    with pytest.raises(ValueError, match="TensorBoard: cannot write to the directory"):
        make_model().fit(*data, epochs=1, verbose=0,
                         callbacks=[callbacks.TensorBoard(tmp_path / "f" / "logs")])
