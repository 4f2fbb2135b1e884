"""TFRecordDataset: a Dataset of records that composes with the pipeline and feeds fit."""

import numpy as np
import pytest

import hikeras
from hikeras import io as hio


def _write(path, values, compression=""):
    with hio.TFRecordWriter(str(path), compression) as writer:
        for value in values:
            writer.write(hio.serialize_example({"x": [float(value)], "y": [int(value) % 2]}))
    return str(path)


def _values(dataset):
    spec = {"x": hio.FixedLenFeature([], "float32")}
    return [float(hio.parse_single_example(r, spec)["x"]) for r in dataset]


def test_files_in_order_and_from_a_dataset_of_names(tmp_path):
    a = _write(tmp_path / "a.tfrecord", [0, 1, 2])
    b = _write(tmp_path / "b.tfrecord.gz", [3, 4], "GZIP")
    assert _values(hikeras.data.TFRecordDataset([a])) == [0, 1, 2]
    names = hikeras.data.Dataset.from_tensor_slices(np.array([a, a]))
    assert _values(hikeras.data.TFRecordDataset(names)) == [0, 1, 2, 0, 1, 2]
    assert _values(hikeras.data.TFRecordDataset(b, compression_type="GZIP")) == [3, 4]


def test_parallel_reads_interleave_in_tensorflows_fixed_order(tmp_path):
    files = [_write(tmp_path / f"{i}.tfrecord", values)
             for i, values in enumerate([[0, 1], [10], [20, 21, 22]])]
    ds = hikeras.data.TFRecordDataset(files, num_parallel_reads=2)
    # Slots 0 and 1 take files 0 and 1; file 1 ends and its slot goes to file 2.
    assert _values(ds) == [0, 10, 1, 20, 21, 22]
    assert _values(ds) == [0, 10, 1, 20, 21, 22]  # every pass, the same order


def test_elements_keep_trailing_zero_bytes(tmp_path):
    path = tmp_path / "z.tfrecord"
    with hio.TFRecordWriter(str(path)) as writer:
        writer.write(b"ends in zeros\x00\x00")
    (element,) = list(hikeras.data.TFRecordDataset(str(path)))
    assert element.shape == () and element[()] == b"ends in zeros\x00\x00"


def test_pipeline_feeds_fit(tmp_path):
    rng = np.random.default_rng(0)
    x = rng.standard_normal((64, 4)).astype(np.float32)
    y = (x.sum(axis=1) > 0).astype(np.int64)
    path = str(tmp_path / "train.tfrecord.zz")
    with hio.TFRecordWriter(path, "ZLIB") as writer:
        for features, label in zip(x, y):
            writer.write(hio.serialize_example({"x": features, "y": [label]}))
    spec = {"x": hio.FixedLenFeature([4], "float32"), "y": hio.FixedLenFeature([], "int64")}

    def parse(batch):
        parsed = hio.parse_example(batch, spec)
        return parsed["x"], parsed["y"]

    ds = (hikeras.data.TFRecordDataset(path, "ZLIB").shuffle(64, seed=1).batch(16)
          .map(parse).prefetch(2))
    model = hikeras.Sequential([hikeras.Input((4,)), hikeras.layers.Dense(2, activation="softmax")])
    model.compile("adam", "sparse_categorical_crossentropy", metrics=["accuracy"])
    history = model.fit(ds, epochs=2, verbose=0)
    assert len(history.history["loss"]) == 2
    xs, ys = zip(*ds)
    assert sorted(np.concatenate(ys).tolist()) == sorted(y.tolist())
    assert np.concatenate(xs).shape == (64, 4)


def test_bad_arguments(tmp_path):
    path = _write(tmp_path / "a.tfrecord", [1])
    with pytest.raises(FileNotFoundError, match="no such file '.*missing.tfrecord'"):
        hikeras.data.TFRecordDataset(str(tmp_path / "missing.tfrecord"))
    with pytest.raises(ValueError, match="at least one file"):
        hikeras.data.TFRecordDataset([])
    with pytest.raises(TypeError, match="file name.*Received: a int"):
        hikeras.data.TFRecordDataset([3])
    with pytest.raises(ValueError, match="buffer_size"):
        hikeras.data.TFRecordDataset(path, buffer_size=0)
    with pytest.raises(ValueError, match="num_parallel_reads"):
        hikeras.data.TFRecordDataset(path, num_parallel_reads=0)
    with pytest.raises(ValueError, match="compression_type"):
        hikeras.data.TFRecordDataset(path, compression_type="BZ2")
