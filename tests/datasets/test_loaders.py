"""The dataset loaders on tiny files in the real formats, placed in the cache by hand.

Each test writes a small file in the dataset's real format into
`$HIKERAS_HOME/datasets`, points the loader's pinned hash at it and its
origin at a path that does not exist: a loader that tried to download
would fail, so passing proves it used the cached file.
"""

import gzip
import hashlib
import io
import json
import tarfile

import numpy as np
import pytest

from hikeras.datasets import boston_housing, cifar10, fashion_mnist, imdb, mnist
from hikeras.datasets._object_arrays import load_npz_array


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("HIKERAS_HOME", str(tmp_path))
    folder = tmp_path / "datasets"
    folder.mkdir()
    return folder


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def offline(monkeypatch, module, attribute, tmp_path):
    monkeypatch.setattr(module, attribute, (tmp_path / "no-network").as_uri() + "/")


def test_mnist(monkeypatch, cache, tmp_path):
    rng = np.random.default_rng(0)
    arrays = {"x_train": rng.integers(0, 256, (5, 28, 28), dtype=np.uint8),
              "y_train": np.arange(5, dtype=np.uint8), "x_test": np.zeros((2, 28, 28), np.uint8),
              "y_test": np.array([7, 1], np.uint8)}
    np.savez(cache / "mnist.npz", **arrays)
    monkeypatch.setattr(mnist, "SHA256", sha256(cache / "mnist.npz"))
    offline(monkeypatch, mnist, "ORIGIN", tmp_path)
    (x_train, y_train), (x_test, y_test) = mnist.load_data()
    np.testing.assert_array_equal(x_train, arrays["x_train"])
    assert y_train.tolist() == [0, 1, 2, 3, 4] and y_test.tolist() == [7, 1]
    assert x_test.shape == (2, 28, 28) and x_train.dtype == np.uint8


def test_mnist_with_a_wrong_file_and_no_network_explains(monkeypatch, cache, tmp_path):
    (cache / "mnist.npz").write_bytes(b"not mnist")
    offline(monkeypatch, mnist, "ORIGIN", tmp_path)
    with pytest.raises(ConnectionError, match=r"copy it to .*mnist\.npz \(its SHA256 must be "
                                              + mnist.SHA256):
        mnist.load_data()


def write_idx(path, array):
    header = bytes([0, 0, 0x08, array.ndim]) + b"".join(
        int(n).to_bytes(4, "big") for n in array.shape)
    with gzip.open(path, "wb") as f:
        f.write(header + array.tobytes())


def test_fashion_mnist_idx_files(monkeypatch, cache, tmp_path):
    folder = cache / "fashion-mnist"
    folder.mkdir()
    rng = np.random.default_rng(1)
    parts = {"train-images-idx3-ubyte.gz": rng.integers(0, 256, (3, 28, 28), dtype=np.uint8),
             "train-labels-idx1-ubyte.gz": np.array([9, 0, 4], np.uint8),
             "t10k-images-idx3-ubyte.gz": rng.integers(0, 256, (2, 28, 28), dtype=np.uint8),
             "t10k-labels-idx1-ubyte.gz": np.array([1, 2], np.uint8)}
    hashes = {}
    for name, array in parts.items():
        write_idx(folder / name, array)
        hashes[name] = sha256(folder / name)
    monkeypatch.setattr(fashion_mnist, "SHA256", hashes)
    offline(monkeypatch, fashion_mnist, "ORIGIN_FOLDER", tmp_path)
    (x_train, y_train), (x_test, y_test) = fashion_mnist.load_data()
    np.testing.assert_array_equal(x_train, parts["train-images-idx3-ubyte.gz"])
    np.testing.assert_array_equal(x_test, parts["t10k-images-idx3-ubyte.gz"])
    assert y_train.tolist() == [9, 0, 4] and y_test.tolist() == [1, 2]


def test_idx_reader_rejects_truncated_files(tmp_path):
    path = tmp_path / "bad.gz"
    with gzip.open(path, "wb") as f:
        f.write(bytes([0, 0, 8, 1]) + (10).to_bytes(4, "big") + b"\x00" * 4)
    with pytest.raises(ValueError, match="truncated"):
        fashion_mnist.read_idx(path)


def cifar_records(images, labels):
    """Binary CIFAR records: label byte, then the R, G and B 32x32 planes."""
    planes = images.transpose(0, 3, 1, 2).reshape(len(images), -1)
    return np.concatenate([labels[:, None], planes], axis=1).astype(np.uint8).tobytes()


def test_cifar10_binary_tarball_is_read_without_unpickling(monkeypatch, cache, tmp_path):
    rng = np.random.default_rng(2)
    images = rng.integers(0, 256, (7, 32, 32, 3), dtype=np.uint8)
    labels = np.array([3, 1, 4, 1, 5, 9, 2], np.uint8)
    members = {f"data_batch_{i}.bin": (images[i - 1:i], labels[i - 1:i]) for i in range(1, 6)}
    members["test_batch.bin"] = (images[5:], labels[5:])
    archive = cache / "cifar-10-binary.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        for name, (x, y) in members.items():
            data = cifar_records(x, y)
            info = tarfile.TarInfo(f"cifar-10-batches-bin/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
    monkeypatch.setattr(cifar10, "SHA256", sha256(archive))
    monkeypatch.setattr(cifar10, "ORIGIN", (tmp_path / "x" / "cifar-10-binary.tar.gz").as_uri())
    (x_train, y_train), (x_test, y_test) = cifar10.load_data()
    np.testing.assert_array_equal(x_train, images[:5])
    np.testing.assert_array_equal(x_test, images[5:])
    assert y_train.shape == (5, 1) and y_train.ravel().tolist() == [3, 1, 4, 1, 5]
    assert y_test.ravel().tolist() == [9, 2] and x_train.shape == (5, 32, 32, 3)
    assert not (cache / "cifar-10-batches-bin").exists()  # nothing extracted


def test_cifar10_rejects_a_python_version_archive(tmp_path):
    archive = tmp_path / "wrong.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("cifar-10-batches-py/data_batch_1")
        tar.addfile(info, io.BytesIO(b""))
    with pytest.raises(ValueError, match="binary version"):
        cifar10.read_batches(archive, ["data_batch_1.bin"])


def object_array(lists):
    out = np.empty(len(lists), dtype=object)
    out[:] = lists
    return out


@pytest.fixture
def imdb_file(monkeypatch, cache, tmp_path):
    x_train = object_array([[1, 2, 3], [4, 5], [6, 7, 8, 9], [10]])
    x_test = object_array([[2, 2], [11, 1, 3]])
    np.savez(cache / "imdb.npz", x_train=x_train, y_train=np.array([1, 0, 1, 0]),
             x_test=x_test, y_test=np.array([0, 1]))
    monkeypatch.setattr(imdb, "SHA256", sha256(cache / "imdb.npz"))
    offline(monkeypatch, imdb, "ORIGIN_FOLDER", tmp_path)
    return x_train, x_test


def test_imdb_matches_keras_preprocessing(imdb_file):
    x_train, x_test = imdb_file
    (xtr, ytr), (xte, yte) = imdb.load_data(seed=5)
    rng = np.random.RandomState(5)
    order_train = np.arange(4)
    rng.shuffle(order_train)
    order_test = np.arange(2)
    rng.shuffle(order_test)
    # Keras sets num_words to the largest index, and keeps only indices below
    # it: the single largest word (11 + 3) becomes the OOV index 2.
    def encode(review):
        return [1] + [w + 3 if w + 3 < 14 else 2 for w in review]

    assert xtr == [encode(x_train[i]) for i in order_train]
    assert xte == [encode(x_test[i]) for i in order_test]
    assert [1, 2, 4, 6] in xte
    assert ytr.tolist() == [[1, 0, 1, 0][i] for i in order_train]
    assert yte.tolist() == [[0, 1][i] for i in order_test]


def test_imdb_num_words_skip_top_maxlen_and_oov(imdb_file):
    (xtr, _), (xte, _) = imdb.load_data(num_words=8, skip_top=2, start_char=None, index_from=0,
                                        oov_char=0, seed=0)
    for review in xtr + xte:
        assert all(w == 0 or 2 <= w < 8 for w in review)
    (short, labels), _ = imdb.load_data(maxlen=4, start_char=1, index_from=0, seed=0)
    assert all(len(r) < 4 for r in short) and len(short) == len(labels) == 2
    (dropped, _), _ = imdb.load_data(num_words=5, oov_char=None, start_char=None,
                                     index_from=0, seed=0)
    assert all(w < 5 for r in dropped for w in r)
    with pytest.raises(ValueError, match="maxlen"):
        imdb.load_data(maxlen=1)


def test_imdb_word_index(monkeypatch, cache, tmp_path):
    (cache / "imdb_word_index.json").write_text(json.dumps({"the": 1, "film": 19}))
    monkeypatch.setattr(imdb, "WORD_INDEX_MD5",
                        hashlib.md5((cache / "imdb_word_index.json").read_bytes()).hexdigest())
    offline(monkeypatch, imdb, "ORIGIN_FOLDER", tmp_path)
    assert imdb.get_word_index() == {"the": 1, "film": 19}


def test_boston_housing_split_matches_keras(monkeypatch, cache, tmp_path):
    x = np.arange(50, dtype="float64").reshape(10, 5)
    y = np.arange(10, dtype="float64") * 1.5
    np.savez(cache / "boston_housing.npz", x=x, y=y)
    monkeypatch.setattr(boston_housing, "SHA256", sha256(cache / "boston_housing.npz"))
    offline(monkeypatch, boston_housing, "ORIGIN", tmp_path)
    (x_train, y_train), (x_test, y_test) = boston_housing.load_data(test_split=0.3, seed=113)
    order = np.arange(10)
    np.random.RandomState(113).shuffle(order)
    np.testing.assert_array_equal(x_train, x[order[:7]])
    np.testing.assert_array_equal(y_test, y[order[7:]])
    with pytest.raises(ValueError, match="test_split"):
        boston_housing.load_data(test_split=1)
    assert x_test.shape == (3, 5) and y_train.shape == (7,)


class Dangerous:
    """Pickled by reference: unpickling would call this module's code."""

    def __reduce__(self):
        import os
        return (os.getcwd, ())


def test_object_arrays_with_code_references_are_refused(tmp_path):
    np.savez(tmp_path / "evil.npz", x=object_array([Dangerous()]))
    with pytest.raises(ValueError, match="Refusing to load.*getcwd"):
        load_npz_array(tmp_path / "evil.npz", "x")
    np.savez(tmp_path / "ok.npz", x=object_array([[1, 2**40, -3], "text", (1.5, None, True)]))
    loaded = load_npz_array(tmp_path / "ok.npz", "x")
    assert loaded.tolist() == [[1, 2**40, -3], "text", (1.5, None, True)]
    with pytest.raises(ValueError, match="no array named"):
        load_npz_array(tmp_path / "ok.npz", "y")
