"""Sharded checkpoints: index + shards, checksums, pointer file, partial loading."""

import json
import os

import h5py
import numpy as np
import pytest

import hikeras
from hikeras.saving import SavedFileError
from hikeras.saving.sharded import parse_size
from tests.saving.saving_models import (
    assert_same_outputs,
    mlp,
    nested,
    randomize,
    sample_x,
)


def test_shards_respect_the_size_limit_and_round_trip(tmp_path):
    source = randomize(nested())
    index_path = tmp_path / "model.weights.json"
    source.save_weights(index_path, max_shard_size=100)
    shards = sorted(n for n in os.listdir(tmp_path) if ".data-" in n)
    count = len(shards)
    token = shards[0].split(".")[2]
    assert shards == [f"model.weights.{token}.data-{k:05d}-of-{count:05d}" for k in range(count)]
    index = json.loads(index_path.read_text())
    by_shard = {}
    for spec in index["tensors"].values():
        by_shard.setdefault(spec["shard"], []).append(spec["nbytes"])
    assert count >= 3 and set(by_shard) == set(shards)
    assert all(sum(sizes) <= 100 or len(sizes) == 1 for sizes in by_shard.values())
    assert index["layers"][1]["name"] == "block"
    target = nested(seed=6)
    report = target.load_weights(index_path)
    assert len(report.matched) == len(source.weights)
    assert_same_outputs(source, target, sample_x())


def test_pointer_file_names_the_latest_checkpoint(tmp_path):
    first = randomize(mlp(), seed=1)
    first.save_weights(tmp_path / "epoch1.weights.json", max_shard_size="1KB")
    second = randomize(mlp(), seed=2)
    second.save_weights(tmp_path / "epoch2.weights.json", max_shard_size="1KB")
    assert json.loads((tmp_path / "checkpoint").read_text()) == {
        "latest": "epoch2.weights.json"}
    target = mlp()
    target.load_weights(tmp_path)
    assert_same_outputs(second, target, sample_x())


def test_overwriting_removes_stale_shards(tmp_path):
    path = tmp_path / "m.weights.json"
    randomize(mlp()).save_weights(path, max_shard_size=64)
    many = {n for n in os.listdir(tmp_path) if ".data-" in n}
    randomize(mlp()).save_weights(path, max_shard_size="1MB")
    now = {n for n in os.listdir(tmp_path) if ".data-" in n}
    assert len(now) == 1 and now.isdisjoint(many) and len(many) > 1
    assert now.pop().startswith("m.weights.")


def test_checksum_mismatch_is_detected_before_assigning(tmp_path):
    path = tmp_path / "m.weights.json"
    randomize(mlp()).save_weights(path, max_shard_size=200)
    index = json.loads(path.read_text())
    spec = index["tensors"]["dense_1/dense_1/kernel"]
    with h5py.File(tmp_path / spec["shard"], "r+") as f:
        f[spec["key"]][0, 0] += 1.0
    target = mlp(seed=3)
    before = target.get_weights()
    with pytest.raises(SavedFileError, match="checksum.*dense_1/dense_1/kernel"):
        target.load_weights(path)
    for a, b in zip(before, target.get_weights()):
        np.testing.assert_array_equal(a, b)


def test_loading_a_subset_of_layers(tmp_path):
    source = randomize(mlp())
    path = tmp_path / "m.weights.json"
    source.save_weights(path, max_shard_size=200)
    target = mlp(seed=3)
    untouched = target.layers[1].get_weights()
    report = target.load_weights(path, layers=["dense"])
    np.testing.assert_array_equal(target.layers[0].kernel.value, source.layers[0].kernel.value)
    for a, b in zip(untouched, target.layers[1].get_weights()):
        np.testing.assert_array_equal(a, b)
    assert sorted(report.missing) == sorted(
        v.path for layer in target.layers[1:] for v in layer.weights)


def test_optimizer_state_is_sharded_too(tmp_path):
    x, y = sample_x(), np.ones((5, 3), "float32")
    model = mlp()
    model.compile(optimizer="adam", loss="mse")
    model.fit(x, y, epochs=2, batch_size=5, verbose=0)
    model.save_weights(tmp_path / "m.weights.json", max_shard_size="4KB")
    other = mlp(seed=8)
    other.compile(optimizer="adam", loss="mse")
    other.load_weights(tmp_path / "m.weights.json")
    assert int(other.optimizer.iterations) == 2
    model.train_on_batch(x, y)
    other.train_on_batch(x, y)
    assert_same_outputs(model, other, x)


def test_hostile_index_entries(tmp_path):
    path = tmp_path / "m.weights.json"
    mlp().save_weights(path, max_shard_size="1MB")
    index = json.loads(path.read_text())
    spec = next(iter(index["tensors"].values()))
    spec["shard"] = "../../etc/passwd"
    path.write_text(json.dumps(index))
    with pytest.raises(SavedFileError, match="invalid entry"):
        mlp().load_weights(path)
    path.write_text("[1]")
    with pytest.raises(SavedFileError, match="not a JSON object"):
        mlp().load_weights(path)


def test_parse_size():
    assert parse_size(10) == 10
    assert parse_size("5MB") == 5 * 10**6
    assert parse_size("2GiB") == 2 * 2**30
    with pytest.raises(ValueError, match="max_shard_size"):
        parse_size("lots")
    with pytest.raises(ValueError, match="weights.json"):
        hikeras.Sequential([hikeras.Input((2,)), hikeras.layers.Dense(1)]).save_weights(
            "x.bin", max_shard_size=10)
