"""The three compression settings of TFRecord files, as byte streams.

TensorFlow writes `""` (none), `"GZIP"` (a gzip stream) or `"ZLIB"` (a zlib
stream with its 2-byte header), compressing the whole file rather than each
record. `open_read` and `open_write` return file-like objects whose bytes are
the uncompressed record stream, so the framing code never sees compression.
"""

import gzip
import io
import zlib

COMPRESSION_TYPES = ("", "GZIP", "ZLIB")
_DEFAULT_LEVEL = 6


def normalize(compression_type, argument="compression_type"):
    """`None`/`""`/`"GZIP"`/`"ZLIB"` (any case) to one of `COMPRESSION_TYPES`."""
    if compression_type is None:
        return ""
    if isinstance(compression_type, str) and compression_type.upper() in COMPRESSION_TYPES:
        return compression_type.upper()
    raise ValueError(
        f"`{argument}` must be None, \"\", \"GZIP\" or \"ZLIB\". "
        f"Received: {argument}={compression_type!r}"
    )


class _ZlibReader(io.RawIOBase):
    """Decompresses a zlib stream (or several back to back) as it is read.

    Output is produced at most one read buffer at a time, so a small
    compressed file can never expand into memory all at once.
    """

    def __init__(self, raw, chunk_size):
        self._raw = raw
        self._chunk_size = chunk_size
        self._inflater = zlib.decompressobj()
        self._fed = False
        self._pending = b""

    def readable(self):
        return True

    def readinto(self, buffer):
        while not self._pending:
            if self._inflater.eof:
                data = self._inflater.unused_data or self._raw.read(self._chunk_size)
                if not data:
                    return 0
                self._inflater = zlib.decompressobj()
            else:
                data = self._inflater.unconsumed_tail or self._raw.read(self._chunk_size)
                if not data:
                    if self._fed:
                        raise EOFError("the zlib stream ends before its end marker")
                    return 0
            self._fed = True
            self._pending = self._inflater.decompress(data, len(buffer))
        count = min(len(buffer), len(self._pending))
        buffer[:count] = self._pending[:count]
        self._pending = self._pending[count:]
        return count

    def close(self):
        self._raw.close()
        super().close()


class _ZlibWriter(io.RawIOBase):
    """Compresses everything written into one zlib stream, finished on close."""

    def __init__(self, raw, level):
        self._raw = raw
        self._deflater = zlib.compressobj(level)

    def writable(self):
        return True

    def write(self, data):
        self._raw.write(self._deflater.compress(data))
        return len(data)

    def flush(self):
        if self._deflater is not None:
            self._raw.write(self._deflater.flush(zlib.Z_SYNC_FLUSH))
            self._raw.flush()

    def close(self):
        if self._deflater is not None:
            deflater, self._deflater = self._deflater, None
            self._raw.write(deflater.flush(zlib.Z_FINISH))
            self._raw.close()
        super().close()


def open_read(path, compression_type, buffer_size):
    """A binary reader of the uncompressed record stream of `path`."""
    if compression_type == "GZIP":
        return gzip.GzipFile(filename=path, mode="rb")  # opens and closes the file itself
    raw = open(path, "rb", buffering=buffer_size)  # noqa: SIM115 (the caller closes it)
    if compression_type == "ZLIB":
        return io.BufferedReader(_ZlibReader(raw, buffer_size), buffer_size)
    return raw


def open_write(path, compression_type, level=None):
    """A binary writer whose bytes land in `path`, compressed as asked.

    `level` is zlib's 0-9; None means zlib's default (6), as TensorFlow uses.
    """
    level = _DEFAULT_LEVEL if level is None else level
    raw = open(path, "wb")  # noqa: SIM115 (the caller closes it)
    if compression_type == "GZIP":
        return _ClosingGzip(raw, level)
    if compression_type == "ZLIB":
        return _ZlibWriter(raw, level)
    return raw


class _ClosingGzip(gzip.GzipFile):
    """A gzip writer that also closes the file it writes into (with mtime 0, reproducible)."""

    def __init__(self, raw, level):
        super().__init__(fileobj=raw, mode="wb", compresslevel=level, mtime=0, filename="")
        self._raw = raw

    def close(self):
        try:
            super().close()
        finally:
            self._raw.close()
