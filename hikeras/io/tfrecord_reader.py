"""Reading the records of one TFRecord file, every checksum verified.

A TFRecord file is a sequence of records, each framed as::

    uint64 length (little endian)
    uint32 masked CRC-32C of the 8 length bytes
    byte   data[length]
    uint32 masked CRC-32C of the data

The length's checksum is verified before the length is trusted, and data is
read in bounded chunks, so a damaged or hostile length can neither make the
reader allocate more than the file holds nor hang it.
"""

import gzip
import struct
import zlib

from . import compression, crc32c
from .errors import DataLossError

DEFAULT_BUFFER_SIZE = 256 * 1024
_CHUNK = 16 * 1024 * 1024
_HEADER = struct.Struct("<QI")
_FOOTER = struct.Struct("<I")


def _read_exactly(stream, count):
    """Up to `count` bytes, gathered in bounded chunks (fewer only at end of file)."""
    if count <= _CHUNK:
        return stream.read(count)
    parts, remaining = [], count
    while remaining:
        part = stream.read(min(remaining, _CHUNK))
        if not part:
            break
        parts.append(part)
        remaining -= len(part)
    return b"".join(parts)


def _damaged(path, index, offset, what):
    return DataLossError(
        f"TFRecord file '{path}' is damaged at record {index} (byte {offset} of the "
        f"uncompressed stream): {what}. Re-create the file, or read only the records "
        "before it with `.take(n)`."
    )


def read_records(path, compression_type="", buffer_size=DEFAULT_BUFFER_SIZE):
    """Yields the data of each record of `path`, in order, as `bytes`.

    Raises `DataLossError` naming the file and the record index when a
    checksum fails, the file ends inside a record, or the compressed stream
    is broken.
    """
    crc32c.require()
    index, offset = 0, 0
    try:
        with compression.open_read(path, compression_type, buffer_size) as stream:
            while True:
                header = _read_exactly(stream, _HEADER.size)
                if not header:
                    return
                if len(header) < _HEADER.size:
                    raise _damaged(path, index, offset, "the file ends inside a record header")
                length, length_crc = _HEADER.unpack(header)
                if crc32c.masked_crc32c(header[:8]) != length_crc:
                    raise _damaged(path, index, offset, "the record length's checksum "
                                   "does not match")
                data = _read_exactly(stream, length)
                footer = _read_exactly(stream, _FOOTER.size)
                if len(data) < length or len(footer) < _FOOTER.size:
                    raise _damaged(path, index, offset, f"the file ends inside a record of "
                                   f"{length} bytes")
                if crc32c.masked_crc32c(data) != _FOOTER.unpack(footer)[0]:
                    raise _damaged(path, index, offset, "the record data's checksum does "
                                   "not match")
                yield data
                index += 1
                offset += _HEADER.size + length + _FOOTER.size
    except (EOFError, zlib.error, gzip.BadGzipFile) as error:
        raise _damaged(path, index, offset, f"the {compression_type} stream is broken "
                       f"({error})") from error
