"""Examples on the wire: our encoder and decoder against hand-assembled protobuf bytes."""

import numpy as np
import pytest

from hikeras import io as hio
from hikeras.io import example_proto, wire


def _ld(number, payload):
    """A length-delimited field, assembled by hand (lengths here are < 128)."""
    assert len(payload) < 128
    return bytes([number << 3 | 2, len(payload)]) + payload


def _example(*entries):
    """Example bytes from (key, feature-bytes) pairs, assembled by hand."""
    body = b"".join(_ld(1, _ld(1, key.encode()) + _ld(2, feature)) for key, feature in entries)
    return _ld(1, body)


def test_hand_assembled_example_with_packed_and_unpacked_numbers():
    packed_floats = _ld(2, _ld(1, np.float32([1.0, 2.5]).tobytes()))
    unpacked_floats = _ld(2, bytes([0x0D]) + np.float32([3.0]).tobytes()
                          + bytes([0x0D]) + np.float32([-1.0]).tobytes())
    # int64 300 is the varint ac 02; -1 is ten bytes ff..ff 01.
    packed_ints = _ld(3, _ld(1, bytes([0xAC, 0x02]) + b"\xff" * 9 + b"\x01"))
    unpacked_ints = _ld(3, bytes([0x08, 0x05, 0x08, 0x00]))
    strings = _ld(1, _ld(1, b"x\x00") + _ld(1, b""))
    data = _example(("a", packed_floats), ("b", unpacked_floats), ("c", packed_ints),
                    ("d", unpacked_ints), ("e", strings), ("f", b""))
    decoded = example_proto.decode_example(data)
    assert decoded["a"][0] == "float" and decoded["a"][1].tolist() == [1.0, 2.5]
    assert decoded["b"][1].tolist() == [3.0, -1.0]
    assert decoded["c"] == ("int64", decoded["c"][1]) and decoded["c"][1].tolist() == [300, -1]
    assert decoded["d"][1].tolist() == [5, 0]
    assert decoded["e"] == ("bytes", [b"x\x00", b""])
    assert decoded["f"] == (None, [])


def test_merge_rules():
    ints = _ld(3, _ld(1, bytes([1, 2])))
    floats = _ld(2, _ld(1, np.float32([9.0]).tobytes()))
    # The same key twice: the later entry replaces the earlier one.
    assert example_proto.decode_example(_example(("k", ints), ("k", floats)))["k"][0] == "float"
    # The same list kind twice inside one Feature concatenates; another kind replaces.
    assert example_proto.decode_example(_example(("k", ints + ints)))["k"][1].tolist() == [1, 2, 1, 2]
    assert example_proto.decode_example(_example(("k", ints + floats)))["k"][1].tolist() == [9.0]
    # Two `features` fields merge; unknown fields (here number 7, varint) are skipped.
    merged = _example(("a", ints)) + _example(("b", floats)) + bytes([7 << 3, 1])
    assert sorted(example_proto.decode_example(merged)) == ["a", "b"]


def test_encoder_writes_the_bytes_protobuf_would():
    data = hio.serialize_example({"c": hio.Int64List([300, -1]), "a": [1.0, 2.5], "b": b"x"})
    expected = _example(
        ("a", _ld(2, _ld(1, np.float32([1.0, 2.5]).tobytes()))),
        ("b", _ld(1, _ld(1, b"x"))),
        ("c", _ld(3, _ld(1, bytes([0xAC, 0x02]) + b"\xff" * 9 + b"\x01"))),
    )
    assert data == expected


def test_round_trip_of_every_kind(rng):
    features = {
        "f": rng.standard_normal(50).astype(np.float32),
        "i": rng.integers(-2**63, 2**63 - 1, 200, dtype=np.int64),
        "b": [bytes(rng.integers(0, 256, n, dtype=np.uint8)) for n in (0, 1, 200)],
        "flag": np.array([True, False]),
        "s": "\u00e9t\u00e9",
        "empty": hio.FloatList([]),
    }
    decoded = example_proto.decode_example(hio.serialize_example(features))
    np.testing.assert_array_equal(decoded["f"][1], features["f"])
    np.testing.assert_array_equal(decoded["i"][1], features["i"])
    assert decoded["b"][1] == features["b"]
    assert decoded["flag"] == ("int64", decoded["flag"][1]) and decoded["flag"][1].tolist() == [1, 0]
    assert decoded["s"][1] == ["\u00e9t\u00e9".encode()]
    assert decoded["empty"][0] == "float" and decoded["empty"][1].size == 0


def test_serialize_example_rejects_what_it_cannot_type():
    with pytest.raises(ValueError, match="empty feature 'e'.*FloatList"):
        hio.serialize_example({"e": []})
    with pytest.raises(TypeError, match="feature 'z'.*complex"):
        hio.serialize_example({"z": np.array([1j])})
    with pytest.raises(TypeError, match="dict"):
        hio.serialize_example([("a", 1)])


@pytest.mark.parametrize("data, message", [
    (bytes([0x0A, 0x05, 0x0A]), "claims 5 bytes"),
    (bytes([0x0A]) + b"\xff" * 11, "past 10 bytes"),
    (bytes([0x0B]), "wire type 3"),
    (bytes([0x00, 0x00]), "number 0"),
    (_example(("k", _ld(2, _ld(1, b"\x00\x00\x00")))), "multiple of 4"),
    (_example(("k", _ld(3, _ld(1, b"\x80")))), "past the end"),
    (_ld(1, _ld(1, _ld(1, b"\xff\xfe"))), "UTF-8"),
])
def test_malformed_bytes_raise_decode_errors(data, message):
    with pytest.raises(wire.DecodeError, match=message):
        example_proto.decode_example(data)


def test_mutated_examples_never_escape_as_other_errors(rng):
    """Random byte flips, cuts and insertions: every outcome is a parse or a DecodeError."""
    base = hio.serialize_example({"f": np.arange(6, dtype=np.float32), "i": [1, 2**40, -3],
                                  "s": [b"abc", b""]})
    for _ in range(1500):
        data = bytearray(base)
        for _ in range(rng.integers(1, 4)):
            position = int(rng.integers(0, len(data)))
            action = rng.integers(0, 3)
            if action == 0:
                data[position] = int(rng.integers(0, 256))
            elif action == 1:
                del data[position:]
            else:
                data[position:position] = bytes(rng.integers(0, 256, 3, dtype=np.uint8))
            if not data:
                break
        try:
            example_proto.decode_example(bytes(data))
        except wire.DecodeError:
            pass
