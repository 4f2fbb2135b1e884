"""get_file: cache resolution, verified atomic downloads, and the offline message.

Downloads use `file://` URLs, so no test touches the network.
"""

import hashlib
import os

import pytest

from hikeras.utils import get_file
from hikeras.utils.file_utils import cache_dir_root


@pytest.fixture
def source(tmp_path):
    path = tmp_path / "remote" / "data.bin"
    path.parent.mkdir()
    path.write_bytes(b"hikeras" * 1000)
    return path, hashlib.sha256(path.read_bytes()).hexdigest()


def test_cache_root_prefers_argument_then_environment_then_home(monkeypatch, tmp_path):
    monkeypatch.setenv("HIKERAS_HOME", str(tmp_path / "env"))
    assert cache_dir_root() == str(tmp_path / "env")
    assert cache_dir_root(str(tmp_path / "arg")) == str(tmp_path / "arg")
    monkeypatch.delenv("HIKERAS_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    assert cache_dir_root() == str(tmp_path / "home" / ".hikeras")


def test_download_lands_in_hikeras_home_and_is_reused(monkeypatch, tmp_path, source, capsys):
    remote, digest = source
    monkeypatch.setenv("HIKERAS_HOME", str(tmp_path / "cache"))
    path = get_file(origin=remote.as_uri(), file_hash=digest)
    assert path == str(tmp_path / "cache" / "datasets" / "data.bin")
    assert open(path, "rb").read() == remote.read_bytes()
    assert "Downloading data from" in capsys.readouterr().out
    remote.unlink()  # the cached copy is used: no second download
    assert get_file(origin=remote.as_uri(), file_hash=digest) == path
    assert capsys.readouterr().out == ""
    assert os.listdir(tmp_path / "cache" / "datasets") == ["data.bin"]


def test_checksum_mismatch_raises_and_writes_nothing(tmp_path, source):
    remote, _ = source
    with pytest.raises(ValueError, match=r"corrupted.*SHA256 is .* expected 0{64}"):
        get_file(origin=remote.as_uri(), file_hash="0" * 64, cache_dir=str(tmp_path / "c"))
    assert os.listdir(tmp_path / "c" / "datasets") == []


def test_md5_hashes_are_accepted(tmp_path, source):
    remote, _ = source
    md5 = hashlib.md5(remote.read_bytes()).hexdigest()
    path = get_file("x.bin", origin=remote.as_uri(), file_hash=md5, cache_dir=str(tmp_path))
    assert os.path.basename(path) == "x.bin"


def test_stale_cached_copy_is_downloaded_again(tmp_path, source):
    remote, digest = source
    cached = tmp_path / "datasets" / "data.bin"
    cached.parent.mkdir()
    cached.write_bytes(b"truncated")
    get_file(origin=remote.as_uri(), file_hash=digest, cache_dir=str(tmp_path))
    assert cached.read_bytes() == remote.read_bytes()


def test_offline_error_says_where_to_put_the_file(tmp_path):
    missing = (tmp_path / "nowhere" / "mnist.npz").as_uri()
    with pytest.raises(ConnectionError) as info:
        get_file(origin=missing, file_hash="a" * 64, cache_dir=str(tmp_path / "c"))
    message = str(info.value)
    assert "copy it to " + str(tmp_path / "c" / "datasets" / "mnist.npz") in message
    assert "SHA256 must be " + "a" * 64 in message
    assert os.listdir(tmp_path / "c" / "datasets") == []


def test_offline_with_a_corrupt_cached_copy_says_so(tmp_path):
    cached = tmp_path / "datasets" / "mnist.npz"
    cached.parent.mkdir()
    cached.write_bytes(b"bad")
    with pytest.raises(ConnectionError, match="cached copy .* does not match"):
        get_file(origin=(tmp_path / "none.npz").as_uri(), fname="mnist.npz",
                 file_hash="b" * 64, cache_dir=str(tmp_path))


def test_arguments_are_checked(tmp_path):
    with pytest.raises(ValueError, match="origin"):
        get_file("a.txt")
    with pytest.raises(ValueError, match="hash_algorithm"):
        get_file("a.txt", origin="file:///a.txt", file_hash="ab", hash_algorithm="sha1",
                 cache_dir=str(tmp_path))
