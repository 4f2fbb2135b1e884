"""CIFAR-100, Reuters and California housing on tiny files in their real on-disk formats.

As in `test_loaders.py`: each test writes a small file in the dataset's format into
`$HIKERAS_HOME/datasets`, pins the loader's hash to it and points its origin at a
path that does not exist, so passing proves the cached file was used. The
expected values are worked out here from Keras's documented rules (the shuffle
is `numpy.random.RandomState(seed)` over the indices, as in Keras).
"""

import hashlib
import io
import json
import tarfile

import numpy as np
import pytest

from hikeras.backend import image_data_format, set_image_data_format
from hikeras.datasets import california_housing, cifar100, reuters
from hikeras.datasets._cifar_binary import read_records


@pytest.fixture
def cache(monkeypatch, tmp_path):
    monkeypatch.setenv("HIKERAS_HOME", str(tmp_path))
    folder = tmp_path / "datasets"
    folder.mkdir()
    return folder


def sha256(path):
    return hashlib.sha256(path.read_bytes()).hexdigest()


def missing_uri(tmp_path, name=""):
    return (tmp_path / "no-network").as_uri() + "/" + name


def shuffled(n, seed):
    order = np.arange(n)
    np.random.RandomState(seed).shuffle(order)
    return order


# -- CIFAR-100 --------------------------------------------------------------------

def cifar100_archive(path, parts):
    """A `cifar-100-binary.tar.gz`: records of coarse byte, fine byte, R, G and B planes."""
    with tarfile.open(path, "w:gz") as tar:
        for name, (images, coarse, fine) in parts.items():
            planes = images.transpose(0, 3, 1, 2).reshape(len(images), -1)
            data = np.concatenate([coarse[:, None], fine[:, None], planes], axis=1)
            data = data.astype(np.uint8).tobytes()
            info = tarfile.TarInfo(f"cifar-100-binary/{name}")
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))


@pytest.fixture
def cifar100_file(monkeypatch, cache, tmp_path):
    rng = np.random.default_rng(4)
    images = rng.integers(0, 256, (5, 32, 32, 3), dtype=np.uint8)
    coarse = np.array([19, 0, 7, 3, 12], np.uint8)
    fine = np.array([99, 4, 55, 30, 71], np.uint8)
    archive = cache / "cifar-100-binary.tar.gz"
    cifar100_archive(archive, {"train.bin": (images[:3], coarse[:3], fine[:3]),
                               "test.bin": (images[3:], coarse[3:], fine[3:])})
    monkeypatch.setattr(cifar100, "SHA256", sha256(archive))
    monkeypatch.setattr(cifar100, "ORIGIN", missing_uri(tmp_path, "cifar-100-binary.tar.gz"))
    return images, coarse, fine


def test_cifar100_fine_and_coarse_labels(cifar100_file, cache):
    images, _, _ = cifar100_file
    (x_train, y_train), (x_test, y_test) = cifar100.load_data()
    np.testing.assert_array_equal(x_train, images[:3])
    np.testing.assert_array_equal(x_test, images[3:])
    assert x_train.dtype == np.uint8 and x_train.shape == (3, 32, 32, 3)
    assert y_train.shape == (3, 1) and y_train.dtype == np.uint8
    assert y_train.ravel().tolist() == [99, 4, 55] and y_test.ravel().tolist() == [30, 71]
    (_, y_train), (_, y_test) = cifar100.load_data(label_mode="coarse")
    assert y_train.ravel().tolist() == [19, 0, 7] and y_test.ravel().tolist() == [3, 12]
    assert not (cache / "cifar-100-binary").exists()  # nothing extracted


def test_cifar100_channels_first(cifar100_file):
    images, _, _ = cifar100_file
    previous = image_data_format()
    set_image_data_format("channels_first")
    try:
        (x_train, _), _ = cifar100.load_data()
    finally:
        set_image_data_format(previous)
    np.testing.assert_array_equal(x_train, images[:3].transpose(0, 3, 1, 2))


def test_cifar100_rejects_bad_label_mode_and_other_archives(tmp_path):
    with pytest.raises(ValueError, match="Received: label_mode='medium'"):
        cifar100.load_data(label_mode="medium")
    archive = tmp_path / "python-version.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        tar.addfile(tarfile.TarInfo("cifar-100-python/train"), io.BytesIO(b""))
    with pytest.raises(ValueError, match="CIFAR-100 binary version"):
        read_records(archive, ["cifar-100-binary/train.bin"], 2,
                              "CIFAR-100 binary version")


def test_cifar100_rejects_a_truncated_member(monkeypatch, cache, tmp_path):
    archive = cache / "cifar-100-binary.tar.gz"
    with tarfile.open(archive, "w:gz") as tar:
        info = tarfile.TarInfo("cifar-100-binary/train.bin")
        info.size = 3073  # one byte short of a record
        tar.addfile(info, io.BytesIO(b"\x00" * 3073))
    monkeypatch.setattr(cifar100, "SHA256", sha256(archive))
    monkeypatch.setattr(cifar100, "ORIGIN", missing_uri(tmp_path, "cifar-100-binary.tar.gz"))
    with pytest.raises(ValueError, match="3074-byte records"):
        cifar100.load_data()


def test_a_download_that_does_not_match_the_pinned_hash_is_refused(monkeypatch, cache,
                                                                   tmp_path):
    served = tmp_path / "server" / "cifar-100-binary.tar.gz"
    served.parent.mkdir()
    cifar100_archive(served, {"train.bin": (np.zeros((1, 32, 32, 3), np.uint8),
                                            np.zeros(1, np.uint8), np.zeros(1, np.uint8))})
    monkeypatch.setattr(cifar100, "ORIGIN", served.as_uri())
    with pytest.raises(ValueError, match=cifar100.SHA256):
        cifar100.load_data()
    assert not (cache / "cifar-100-binary.tar.gz").exists()  # nothing kept


# -- Reuters --------------------------------------------------------------------

def object_array(lists):
    out = np.empty(len(lists), dtype=object)
    out[:] = lists
    return out


NEWSWIRES = [[1, 2, 3], [4, 5], [6, 7, 8, 9], [10], [2, 2, 11], [3, 1]]
TOPICS = [3, 4, 3, 19, 45, 0]


@pytest.fixture
def reuters_file(monkeypatch, cache, tmp_path):
    np.savez(cache / "reuters.npz", x=object_array(NEWSWIRES), y=np.array(TOPICS))
    monkeypatch.setattr(reuters, "SHA256", sha256(cache / "reuters.npz"))
    monkeypatch.setattr(reuters, "ORIGIN_FOLDER", missing_uri(tmp_path))


def test_reuters_matches_keras_preprocessing_and_split(reuters_file):
    (x_train, y_train), (x_test, y_test) = reuters.load_data(test_split=0.4, seed=7)
    order = shuffled(6, 7)
    # index_from=3 and start_char=1; without num_words, Keras's vocabulary stops below
    # the largest index (11 + 3), which becomes the OOV index 2.
    expected = [[1] + [w + 3 if w + 3 < 14 else 2 for w in NEWSWIRES[i]] for i in order]
    assert x_train.dtype == object and x_train.shape == (3,) and x_test.shape == (3,)
    assert list(x_train) + list(x_test) == expected
    assert y_train.tolist() + y_test.tolist() == [TOPICS[i] for i in order]


def test_reuters_num_words_skip_top_maxlen_and_oov(reuters_file):
    (x_train, _), (x_test, _) = reuters.load_data(num_words=8, skip_top=2, start_char=None,
                                                  index_from=0, oov_char=0, test_split=0.5)
    assert all(w == 0 or 2 <= w < 8 for text in list(x_train) + list(x_test) for w in text)
    (short, labels), (short_test, _) = reuters.load_data(maxlen=4, start_char=1, index_from=0,
                                                         test_split=0)
    # With the start index: lengths 4, 3, 5, 2, 4, 3; below 4 stay [4, 5], [10], [3, 1].
    assert len(short) == len(labels) == 3 and len(short_test) == 0
    # The largest remaining index (10) is then out of the vocabulary: the OOV index 2.
    assert sorted(map(list, short)) == [[1, 2], [1, 3, 1], [1, 4, 5]]
    assert sorted(labels.tolist()) == [0, 4, 19]
    (dropped, _), _ = reuters.load_data(num_words=5, oov_char=None, start_char=None,
                                        index_from=0, test_split=0)
    assert sorted(map(list, dropped)) == sorted([[w for w in t if w < 5] for t in NEWSWIRES])
    with pytest.raises(ValueError, match="maxlen"):
        reuters.load_data(maxlen=1)
    with pytest.raises(ValueError, match="Received: test_split=1.0"):
        reuters.load_data(test_split=1.0)


def test_reuters_word_index_and_label_names(monkeypatch, cache, tmp_path):
    (cache / "reuters_word_index.json").write_text(json.dumps({"the": 1, "said": 4}))
    monkeypatch.setattr(reuters, "WORD_INDEX_MD5", hashlib.md5(
        (cache / "reuters_word_index.json").read_bytes()).hexdigest())
    monkeypatch.setattr(reuters, "ORIGIN_FOLDER", missing_uri(tmp_path))
    assert reuters.get_word_index() == {"the": 1, "said": 4}
    names = reuters.get_label_names()
    assert len(names) == 46 and len(set(names)) == 46
    assert (names[0], names[3], names[4], names[45]) == ("cocoa", "earn", "acq", "lead")


def test_reuters_refuses_code_in_its_object_arrays(monkeypatch, cache, tmp_path):
    np.savez(cache / "reuters.npz", x=object_array([_CallsCode()]), y=np.array([0]))
    monkeypatch.setattr(reuters, "SHA256", sha256(cache / "reuters.npz"))
    monkeypatch.setattr(reuters, "ORIGIN_FOLDER", missing_uri(tmp_path))
    with pytest.raises(ValueError, match="Refusing to load"):
        reuters.load_data()


class _CallsCode:
    def __reduce__(self):
        import os
        return (os.getcwd, ())


def test_reuters_with_a_wrong_cached_file_and_no_network_names_the_hash(monkeypatch, cache,
                                                                        tmp_path):
    (cache / "reuters.npz").write_bytes(b"not reuters")
    monkeypatch.setattr(reuters, "ORIGIN_FOLDER", missing_uri(tmp_path))
    with pytest.raises(ConnectionError, match=reuters.SHA256):
        reuters.load_data()


# -- California housing ---------------------------------------------------------

@pytest.fixture
def california_file(monkeypatch, cache, tmp_path):
    x = np.arange(700 * 8, dtype="float32").reshape(700, 8)
    y = np.arange(700, dtype="float32") * 1000
    np.savez(cache / "california_housing.npz", x=x, y=y)
    monkeypatch.setattr(california_housing, "SHA256", sha256(cache / "california_housing.npz"))
    monkeypatch.setattr(california_housing, "ORIGIN",
                        missing_uri(tmp_path, "california_housing.npz"))
    return x, y


def test_california_housing_large_and_small_versions(california_file):
    x, y = california_file
    (x_train, y_train), (x_test, y_test) = california_housing.load_data(seed=3)
    order = shuffled(700, 3)
    np.testing.assert_array_equal(x_train, x[order[:560]])
    np.testing.assert_array_equal(y_test, y[order[560:]])
    assert x_test.shape == (140, 8) and y_train.shape == (560,)
    # "small": the first 600 samples, then the shuffle and the split.
    (x_train, y_train), (x_test, _) = california_housing.load_data(version="small",
                                                                   test_split=0.25)
    order = shuffled(600, 113)
    np.testing.assert_array_equal(x_train, x[order[:450]])
    np.testing.assert_array_equal(y_train, y[order[:450]])
    assert len(x_test) == 150 and x_train.max() < 600 * 8


def test_california_housing_argument_errors(california_file):
    with pytest.raises(ValueError, match="Received: version='medium'"):
        california_housing.load_data(version="medium")
    with pytest.raises(ValueError, match="Received: test_split=1"):
        california_housing.load_data(test_split=1)


def test_california_housing_refuses_pickled_arrays(monkeypatch, cache, tmp_path):
    np.savez(cache / "california_housing.npz", x=object_array([[1.0]]), y=np.zeros(1))
    monkeypatch.setattr(california_housing, "SHA256", sha256(cache / "california_housing.npz"))
    monkeypatch.setattr(california_housing, "ORIGIN",
                        missing_uri(tmp_path, "california_housing.npz"))
    with pytest.raises(ValueError, match="allow_pickle"):
        california_housing.load_data()
