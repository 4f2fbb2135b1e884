"""parse_single_example / parse_example against hand-built Examples."""

import numpy as np
import pytest

from hikeras import io as hio


def _ex(**features):
    return hio.serialize_example(features)


def test_fixed_length_shapes_and_dtypes():
    data = _ex(img=np.arange(6.0), id=[42], tags=[b"a", b"b"])
    out = hio.parse_single_example(data, {
        "img": hio.FixedLenFeature([2, 3], "float32"),
        "id": hio.FixedLenFeature([], np.int64),
        "tags": hio.FixedLenFeature(2, "string"),
    })
    assert out["img"].dtype == np.float32 and out["img"].tolist() == [[0, 1, 2], [3, 4, 5]]
    assert out["id"].shape == () and out["id"].dtype == np.int64 and out["id"] == 42
    assert out["tags"].dtype == object and out["tags"].tolist() == [b"a", b"b"]


def test_defaults_fill_missing_features_only():
    spec = {"x": hio.FixedLenFeature([2], "float32", default_value=[1.0, 2.0]),
            "y": hio.FixedLenFeature([3], "int64", default_value=0),
            "s": hio.FixedLenFeature([], "string", default_value="none")}
    out = hio.parse_single_example(_ex(other=[1]), spec)
    assert out["x"].tolist() == [1.0, 2.0] and out["y"].tolist() == [0, 0, 0]
    assert out["s"] == b"none"
    assert hio.parse_single_example(_ex(x=[5.0, 6.0]), spec)["x"].tolist() == [5.0, 6.0]


@pytest.mark.parametrize("spec, data, message", [
    ({"x": hio.FixedLenFeature([], "float32")}, _ex(y=[1.0]),
     "Example 0: feature 'x' is required but could not be found"),
    ({"x": hio.FixedLenFeature([2], "float32")}, _ex(x=[1.0, 2.0, 3.0]),
     "feature 'x' has 3 values but its FixedLenFeature shape \\(2,\\) needs 2"),
    ({"x": hio.FixedLenFeature([], "int64")}, _ex(x=[1.0]),
     "feature 'x' holds float values but the config expects int64"),
    ({"x": hio.FixedLenSequenceFeature([2], "float32", allow_missing=True)}, _ex(x=[1.0] * 3),
     "3 values, not a whole number of items of shape \\(2,\\)"),
])
def test_mismatches_name_the_feature(spec, data, message):
    with pytest.raises(ValueError, match=message):
        hio.parse_single_example(data, spec)


def test_var_len_single_and_batched():
    spec = {"v": hio.VarLenFeature("int64")}
    single = hio.parse_single_example(_ex(v=[4, 5, 6]), spec)["v"]
    assert single.indices.tolist() == [[0], [1], [2]] and single.dense_shape.tolist() == [3]
    batch = [_ex(v=[1, 2]), _ex(other=[0]), _ex(v=[3, 4, 5])]
    sparse = hio.parse_example(batch, spec)["v"]
    assert sparse.indices.tolist() == [[0, 0], [0, 1], [2, 0], [2, 1], [2, 2]]
    assert sparse.values.tolist() == [1, 2, 3, 4, 5] and sparse.dense_shape.tolist() == [3, 3]
    assert sparse.to_dense().tolist() == [[1, 2, 0], [0, 0, 0], [3, 4, 5]]
    assert sparse.to_dense(-1).tolist()[1] == [-1, -1, -1]


def test_sequence_features_pad_in_batches():
    spec = {"s": hio.FixedLenSequenceFeature([2], "float32", allow_missing=True,
                                             default_value=-1.0)}
    out = hio.parse_example(np.array([_ex(s=[1.0, 2.0, 3.0, 4.0]), _ex(t=[0])], dtype=object),
                            spec)["s"]
    assert out.shape == (2, 2, 2)
    assert out.tolist() == [[[1, 2], [3, 4]], [[-1, -1], [-1, -1]]]
    with pytest.raises(ValueError, match="allow_missing=True"):
        hio.FixedLenSequenceFeature([2], "float32")


def test_parse_example_stacks_fixed_features():
    spec = {"x": hio.FixedLenFeature([2], "int64")}
    out = hio.parse_example([_ex(x=[1, 2]), _ex(x=[3, 4])], spec)
    assert out["x"].tolist() == [[1, 2], [3, 4]]
    assert hio.parse_example([], spec)["x"].shape == (0, 2)
    with pytest.raises(ValueError, match="Example 1 \\('second'\\): feature 'x'"):
        hio.parse_example([_ex(x=[1, 2]), _ex(x=[1])], spec, example_names=["first", "second"])


def test_bad_arguments():
    with pytest.raises(ValueError, match="non-empty dict"):
        hio.parse_single_example(_ex(x=[1]), {})
    with pytest.raises(TypeError, match="features\\['x'\\]"):
        hio.parse_single_example(_ex(x=[1]), {"x": "int64"})
    with pytest.raises(TypeError, match="serialized Example \\(bytes\\)"):
        hio.parse_single_example(12, {"x": hio.VarLenFeature("int64")})
    with pytest.raises(ValueError, match="1-D batch"):
        hio.parse_example(_ex(x=[1]), {"x": hio.VarLenFeature("int64")})
    with pytest.raises(ValueError, match="dtypes \"float32\", \"int64\" and \"string\".*float16"):
        hio.FixedLenFeature([], "float16")
    with pytest.raises(ValueError, match="shape of non-negative integers"):
        hio.FixedLenFeature([None], "float32")
    with pytest.raises(ValueError, match="default_value must be a scalar or hold 3"):
        hio.FixedLenFeature([3], "float32", default_value=[1.0, 2.0])


def test_bytes_arrays_that_lost_trailing_zeros_get_a_hint():
    record = _ex(x=np.zeros(1, np.int64))  # ends in a zero byte
    assert record.endswith(b"\x00")
    with pytest.raises(hio.DecodeError, match="Example 0.*object arrays"):
        hio.parse_example(np.array([record]), {"x": hio.VarLenFeature("int64")})
