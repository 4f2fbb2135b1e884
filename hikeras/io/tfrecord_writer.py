"""`TFRecordWriter` and `TFRecordOptions`, as `tf.io` spells them."""

import os
import struct

from . import compression, crc32c

_LENGTH = struct.Struct("<Q")
_CRC = struct.Struct("<I")


class TFRecordOptions:
    """How a TFRecord file is compressed: `compression_type` is None, "", "GZIP" or "ZLIB".

    Mirrors `tf.io.TFRecordOptions`; `compression_level` (0-9, or None for
    zlib's default) is honoured, the finer zlib knobs are not offered.
    """

    def __init__(self, compression_type=None, compression_level=None):
        self.compression_type = compression.normalize(compression_type)
        if compression_level is not None and (
                isinstance(compression_level, bool) or not isinstance(compression_level, int)
                or not 0 <= compression_level <= 9):
            raise ValueError("`compression_level` must be None or an integer from 0 to 9. "
                             f"Received: compression_level={compression_level!r}")
        self.compression_level = compression_level

    def __repr__(self):
        return (f"TFRecordOptions(compression_type={self.compression_type!r}, "
                f"compression_level={self.compression_level!r})")


def _options(options):
    if isinstance(options, TFRecordOptions):
        return options
    if options is None or isinstance(options, str):
        return TFRecordOptions(compression.normalize(options, "options"))
    raise TypeError("`options` must be None, a compression type string (\"\", \"GZIP\", "
                    f"\"ZLIB\") or a TFRecordOptions. Received: options={options!r}")


class TFRecordWriter:
    """Writes records (bytes) to a TFRecord file that TensorFlow's readers accept.

    >>> import os, tempfile
    >>> path = os.path.join(tempfile.mkdtemp(), "data.tfrecord")
    >>> with TFRecordWriter(path, "GZIP") as writer:
    ...     writer.write(b"first record")
    >>> from hikeras.io.tfrecord_reader import read_records
    >>> list(read_records(path, "GZIP"))
    [b'first record']
    """

    def __init__(self, path, options=None):
        crc32c.require()
        self._options = _options(options)
        self.path = os.fspath(path)
        self._stream = compression.open_write(self.path, self._options.compression_type,
                                              self._options.compression_level)

    def write(self, record):
        """Appends one record: `bytes`, `bytearray`, `memoryview` or a `str` (UTF-8)."""
        if self._stream is None:
            raise ValueError(f"TFRecordWriter for '{self.path}' is closed; open a new one.")
        if isinstance(record, str):
            record = record.encode("utf-8")
        if not isinstance(record, (bytes, bytearray, memoryview)):
            raise TypeError("TFRecordWriter.write takes bytes (for example "
                            "`hikeras.io.serialize_example(...)`). "
                            f"Received: record of type {type(record).__name__}")
        record = bytes(record)
        length = _LENGTH.pack(len(record))
        self._stream.write(length + _CRC.pack(crc32c.masked_crc32c(length)) + record
                           + _CRC.pack(crc32c.masked_crc32c(record)))

    def flush(self):
        """Pushes what was written so far to the file."""
        if self._stream is not None:
            self._stream.flush()

    def close(self):
        """Finishes the compressed stream and closes the file; closing twice is fine."""
        if self._stream is not None:
            stream, self._stream = self._stream, None
            stream.close()

    def __enter__(self):
        return self

    def __exit__(self, *exc_info):
        self.close()
