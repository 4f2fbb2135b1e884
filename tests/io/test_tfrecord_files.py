"""TFRecord framing: round trips, compression, and damaged files named by record."""

import gzip
import os
import struct

import numpy as np
import pytest

import hikeras
from hikeras import io as hio
from hikeras.io.tfrecord_reader import read_records


def _write(path, records, compression=""):
    with hio.TFRecordWriter(str(path), compression) as writer:
        for record in records:
            writer.write(record)


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB", "gzip"])
def test_round_trip(tmp_path, rng, compression):
    records = [bytes(rng.integers(0, 256, n, dtype=np.uint8)) for n in (0, 1, 1000, 70000)]
    path = tmp_path / "r.tfrecord"
    _write(path, records, compression)
    assert list(read_records(str(path), compression.upper())) == records


def test_framing_by_hand(tmp_path):
    """One record laid out byte by byte: length, its masked CRC, data, data's masked CRC."""
    path = tmp_path / "one.tfrecord"
    _write(path, [b"abc"])
    raw = path.read_bytes()
    assert struct.unpack("<Q", raw[:8])[0] == 3 and raw[12:15] == b"abc" and len(raw) == 19
    from hikeras.io.crc32c import masked_crc32c
    # CRC-32C("123456789") is 0xE3069283 (RFC 3720); the mask rotates right 15 and adds.
    crc = 0xE3069283
    assert masked_crc32c(b"123456789") == (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF
    assert struct.unpack("<I", raw[8:12])[0] == masked_crc32c(raw[:8])
    assert struct.unpack("<I", raw[15:19])[0] == masked_crc32c(b"abc")


def _damage(path, position, value):
    data = bytearray(path.read_bytes())
    data[position] ^= value
    path.write_bytes(bytes(data))


@pytest.mark.parametrize("position, reason", [
    (8 + 4 + 10 + 4 + 3, "length's checksum"),   # record 1's length
    (8 + 4 + 10 + 4 + 12 + 2, "data's checksum"),  # record 1's data
])
def test_damage_is_named_by_file_and_record(tmp_path, position, reason):
    path = tmp_path / "d.tfrecord"
    _write(path, [b"0123456789"] * 3)
    _damage(path, position, 0x40)
    reader = read_records(str(path))
    assert next(reader) == b"0123456789"
    with pytest.raises(hio.DataLossError, match=f"d.tfrecord' is damaged at record 1.*{reason}"):
        next(reader)


def test_a_hostile_length_with_a_valid_checksum_reads_no_further_than_the_file(tmp_path):
    from hikeras.io.crc32c import masked_crc32c
    length = struct.pack("<Q", 2**62)
    path = tmp_path / "big.tfrecord"
    path.write_bytes(length + struct.pack("<I", masked_crc32c(length)) + b"short")
    with pytest.raises(hio.DataLossError, match="record 0.*ends inside a record"):
        list(read_records(str(path)))


@pytest.mark.parametrize("compression", ["", "GZIP", "ZLIB"])
def test_truncated_files(tmp_path, compression):
    path = tmp_path / "t.tfrecord"
    _write(path, [b"x" * 100] * 5, compression)
    data = path.read_bytes()
    path.write_bytes(data[:len(data) - 7])
    with pytest.raises(hio.DataLossError, match="t.tfrecord' is damaged at record"):
        list(read_records(str(path), compression))


def test_a_gzip_file_read_as_plain_is_refused(tmp_path):
    path = tmp_path / "g.tfrecord"
    path.write_bytes(gzip.compress(b"not a record stream" * 10))
    with pytest.raises(hio.DataLossError, match="record 0"):
        list(read_records(str(path)))


def test_empty_files_have_no_records(tmp_path):
    for compression in ("", "GZIP", "ZLIB"):
        path = tmp_path / f"empty{compression}"
        _write(path, [], compression)
        assert list(read_records(str(path), compression)) == []


def test_writer_arguments(tmp_path):
    with pytest.raises(ValueError, match="compression_type.*Received: compression_type='LZ4'"):
        hio.TFRecordOptions("LZ4")
    with pytest.raises(ValueError, match="compression_level"):
        hio.TFRecordOptions("GZIP", compression_level=11)
    with pytest.raises(TypeError, match="options"):
        hio.TFRecordWriter(str(tmp_path / "x"), options=3)
    writer = hio.TFRecordWriter(str(tmp_path / "x"), hio.TFRecordOptions("ZLIB", 9))
    with pytest.raises(TypeError, match="bytes.*Received: record of type int"):
        writer.write(5)
    writer.write("text is UTF-8")
    writer.close()
    writer.close()
    with pytest.raises(ValueError, match="closed"):
        writer.write(b"late")
    assert list(read_records(str(tmp_path / "x"), "ZLIB")) == [b"text is UTF-8"]


def test_flush_makes_records_readable_before_close(tmp_path):
    path = tmp_path / "f.tfrecord"
    writer = hio.TFRecordWriter(str(path))
    writer.write(b"first")
    writer.flush()
    assert os.path.getsize(path) == 8 + 4 + 5 + 4
    writer.close()


def test_missing_dependency_names_the_extra(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def refuse(name, *args, **kwargs):
        if name == "google_crc32c":
            raise ImportError("no crc")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", refuse)
    with pytest.raises(ImportError, match=r"hikeras\[tfrecord\]"):
        hikeras.data.TFRecordDataset("anything.tfrecord")
