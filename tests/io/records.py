"""The Examples in the TFRecord fixtures, shared by the generator and the tests.

Four records: fixed-length floats, int64 lists with the extreme values,
byte strings with trailing zeros and UTF-8, an always-empty list, and a
label that one record lacks.
"""

from hikeras import io as hio

RECORDS = [
    {"floats": [1.5, -2.25, 3e-8], "ints": [0, -1, 2**63 - 1, -2**63], "names": [b"a\x00", b""],
     "empty": [], "label": [3]},
    {"floats": [0.0, 0.0, 0.0], "ints": [7], "names": ["h\u00e9llo".encode()], "empty": [],
     "label": [0]},
    {"floats": [float("inf"), -0.0, 1e30], "ints": [], "names": [b"\x00\x00"], "empty": []},
    {"floats": [4.0, 5.0, 6.0], "ints": list(range(300)), "names": [b"z" * 1000], "empty": [],
     "label": [-5]},
]
KINDS = {"floats": "float", "ints": "int64", "names": "bytes", "empty": "float", "label": "int64"}


def hikeras_example(record):
    """`record` serialized by hikeras, each feature in its list type."""
    wrap = {"float": hio.FloatList, "int64": hio.Int64List, "bytes": hio.BytesList}
    return hio.serialize_example({k: wrap[KINDS[k]](v) for k, v in record.items()})
