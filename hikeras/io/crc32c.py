"""CRC-32C and the masked form TFRecord files store, through `google-crc32c`.

TFRecord framing checksums every length field and every record with CRC-32C
(Castagnoli), then "masks" it (rotate right by 15 bits, add a constant) so
that a CRC of data that itself contains CRCs does not look special. The CRC
comes from Google's `google-crc32c` package (hardware-accelerated C), an
optional dependency installed by the `hikeras[tfrecord]` extra.
"""

_MASK_DELTA = 0xA282EAD8


def _library():
    try:
        import google_crc32c
    except ImportError as error:
        raise ImportError(
            "Reading and writing TFRecord files needs the `google-crc32c` package for "
            "its checksums. Install it with `pip install \"hikeras[tfrecord]\"`."
        ) from error
    return google_crc32c


def require():
    """Raises the install hint now (at dataset or writer creation), not mid-read."""
    _library()


def masked_crc32c(data):
    """The masked CRC-32C of `data` (bytes-like), as TFRecord stores it."""
    crc = _library().value(bytes(data) if isinstance(data, memoryview) else data)
    return (((crc >> 15) | (crc << 17)) + _MASK_DELTA) & 0xFFFFFFFF
