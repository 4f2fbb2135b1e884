"""`hikeras.io`: TFRecord files and `tf.train.Example` records, without TensorFlow.

Names follow `tf.io`: `TFRecordWriter`, `TFRecordOptions`,
`parse_single_example`, `parse_example`, `FixedLenFeature`, `VarLenFeature`,
`FixedLenSequenceFeature`. `serialize_example` (with the explicit
`FloatList`, `Int64List` and `BytesList`) builds Examples from dicts.
`hikeras.data.TFRecordDataset` reads the files. Checksums need the
`hikeras[tfrecord]` extra.
"""

from .errors import DataLossError
from .example_proto import BytesList, FloatList, Int64List, serialize_example
from .features import FixedLenFeature, FixedLenSequenceFeature, VarLenFeature
from .parsing import parse_example, parse_single_example
from .sparse import SparseTensor
from .tfrecord_writer import TFRecordOptions, TFRecordWriter
from .wire import DecodeError

__all__ = [
    "BytesList", "DataLossError", "DecodeError", "FixedLenFeature", "FixedLenSequenceFeature",
    "FloatList", "Int64List", "SparseTensor", "TFRecordOptions", "TFRecordWriter",
    "VarLenFeature", "parse_example", "parse_single_example", "serialize_example",
]
