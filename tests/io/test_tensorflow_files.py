"""TFRecord files both ways with real TensorFlow (fixtures from generate_fixtures.py)."""

import base64
import gzip
import json
import pathlib
import zlib

import numpy as np
import pytest

import hikeras
from hikeras import io as hio
from tests.io import records

FIXTURES = pathlib.Path(__file__).parent / "fixtures"
FILES = {"plain": ("", ".tfrecord"), "gzip": ("GZIP", ".tfrecord.gz"),
         "zlib": ("ZLIB", ".tfrecord.zz")}
SPEC = {
    "floats": hio.FixedLenFeature([3], "float32"),
    "ints": hio.VarLenFeature("int64"),
    "names": hio.VarLenFeature("string"),
    "empty": hio.VarLenFeature("float32"),
    "label": hio.FixedLenFeature([], "int64", default_value=-1),
}


def _load(name):
    return json.loads((FIXTURES / name).read_text())


def _as_json(value):
    """Our parse result in the generator's JSON form (floats by repr, bytes in base64)."""
    if isinstance(value, hio.SparseTensor):
        return {"indices": value.indices.tolist(), "values": _as_json(value.values),
                "dense_shape": value.dense_shape.tolist()}
    if value.dtype == object:
        return [base64.b64encode(v).decode() for v in value.reshape(-1)]
    if value.dtype.kind == "f":
        return [repr(float(v)) for v in value.reshape(-1)]
    return [int(v) for v in value.reshape(-1)]


@pytest.mark.parametrize("name", sorted(FILES))
def test_files_written_by_tensorflow_parse_to_what_tensorflow_parses(name):
    compression, suffix = FILES[name]
    records = list(hikeras.data.TFRecordDataset(str(FIXTURES / f"tf_{name}{suffix}"),
                                                compression_type=compression))
    parsed = hio.parse_example(np.array(records, dtype=object), SPEC)
    truth = _load("tf_parsed.json")[name]
    assert len(records) == truth["records"] == 4
    assert {k: _as_json(v) for k, v in parsed.items()} == truth["parsed"]


def test_spot_values_of_the_tensorflow_file_by_hand():
    records = list(hikeras.data.TFRecordDataset(str(FIXTURES / "tf_plain.tfrecord")))
    first = hio.parse_single_example(records[0], SPEC)
    np.testing.assert_array_equal(first["floats"], np.float32([1.5, -2.25, 3e-8]))
    assert first["ints"].values.tolist() == [0, -1, 2**63 - 1, -2**63]
    assert first["names"].values.tolist() == [b"a\x00", b""]
    assert first["empty"].values.shape == (0,) and first["empty"].dense_shape.tolist() == [0]
    assert hio.parse_single_example(records[2], SPEC)["label"] == -1  # missing: the default


def test_a_large_record():
    path = FIXTURES / "tf_large.tfrecord.gz"
    (record,) = hikeras.data.TFRecordDataset(str(path), "GZIP")
    big = hio.parse_single_example(record, {"big": hio.FixedLenFeature([1_000_000], "float32")})
    np.testing.assert_array_equal(big["big"], (np.arange(1_000_000) % 7).astype(np.float32))


def test_tensorflow_read_the_files_hikeras_wrote():
    verdict = _load("tf_reads_hikeras.json")
    truth = _load("tf_parsed.json")
    for name in FILES:
        assert verdict[name]["same_as_tf_written"] is True
        assert verdict[name]["parsed"] == truth[name]["parsed"]


def _decompressed(path, compression):
    data = path.read_bytes()
    return {"": lambda d: d, "GZIP": gzip.decompress, "ZLIB": zlib.decompress}[compression](data)


@pytest.mark.parametrize("name", sorted(FILES))
def test_hikeras_still_writes_the_streams_tensorflow_accepted(name, tmp_path):
    """The verdict above covers today's writer: it writes those same record streams."""
    compression, suffix = FILES[name]
    path = tmp_path / f"again{suffix}"
    with hio.TFRecordWriter(str(path), compression) as writer:
        for record in records.RECORDS:
            writer.write(records.hikeras_example(record))
    committed = FIXTURES / f"hikeras_{name}{suffix}"
    assert _decompressed(path, compression) == _decompressed(committed, compression)
