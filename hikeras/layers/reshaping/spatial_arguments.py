"""Argument checks shared by the spatial reshaping layers (up-sampling, padding, cropping)."""

from ... import backend


def _data_format(value):
    value = value or backend.image_data_format()
    if value not in ("channels_last", "channels_first"):
        raise ValueError("data_format must be 'channels_last' or 'channels_first'. "
                         f"Received: data_format={value!r}")
    return value


def _spatial_axes(data_format, rank):
    """The spatial axes of inputs with `rank` spatial dimensions."""
    first = 1 if data_format == "channels_last" else 2
    return tuple(range(first, first + rank))


def _int_tuple(value, rank, argument, layer):
    """An int, or `rank` ints, as a tuple of `rank` positive ints."""
    values = (value,) * rank if isinstance(value, int) else tuple(value)
    if len(values) != rank or not all(isinstance(v, int) and v >= 1 for v in values):
        raise ValueError(f"{layer} expects `{argument}` to be a positive int or {rank} "
                         f"positive ints. Received: {argument}={value!r}")
    return values


def _pairs(value, rank, argument, layer):
    """Amounts before/after each of `rank` axes, from Keras's accepted forms:

    an int (everywhere); for 1D a pair `(before, after)`; for 2D and 3D
    `rank` entries, each an int (symmetric on that axis) or a pair.
    """
    def is_int(v):
        return isinstance(v, int) and not isinstance(v, bool) and v >= 0

    if is_int(value):
        return ((value, value),) * rank
    entries = tuple(tuple(v) if isinstance(v, (list, tuple)) else v
                    for v in (value if isinstance(value, (list, tuple)) else (value,)))
    if rank == 1 and len(entries) == 2 and all(map(is_int, entries)):
        return (entries,)
    pairs = tuple((v, v) if is_int(v) else v for v in entries)
    if len(pairs) == rank and all(isinstance(p, tuple) and len(p) == 2
                                  and all(map(is_int, p)) for p in pairs):
        return pairs
    raise ValueError(f"{layer} got an invalid `{argument}`: expected non-negative ints in "
                     f"one of Keras's forms. Received: {argument}={value!r}")


def _scaled(dim, factor):
    return None if dim is None else dim * factor
