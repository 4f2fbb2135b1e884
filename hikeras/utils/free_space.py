"""Refusing a save that cannot fit, before HDF5 writes a byte.

h5py 3.16 with HDF5 2.0.0 does not report a failed write (disk full, a
file-size limit) as an error: the process dies with SIGSEGV inside libhdf5,
so no `except` clause and no cleanup can run. Every HDF5 writer therefore
calls `check_free_space` first with the bytes it is about to write, and a
save that would not fit raises an `OSError` naming the path, while the
previous file stays as it was. The check covers free disk space (as the
process's user sees it) and the process's file-size limit (`RLIMIT_FSIZE`);
a quota that the file system enforces without showing it in `statvfs`
cannot be seen beforehand.
"""

import errno
import os

# HDF5 needs room beyond the raw arrays: object headers, B-trees, the
# superblock, attributes (a model's config). Generous on purpose.
_FIXED_OVERHEAD = 1 << 20
_PER_ARRAY_OVERHEAD = 4096
_SLACK = 1.05


def bytes_needed(array_bytes, array_count, extra_bytes=0):
    """An upper estimate of the size of an HDF5 file holding these arrays."""
    return int(array_bytes * _SLACK) + array_count * _PER_ARRAY_OVERHEAD + \
        int(extra_bytes) + _FIXED_OVERHEAD


def check_free_space(path, array_bytes, array_count, extra_bytes=0):
    """Raises `OSError` (ENOSPC or EFBIG) if the file would not fit at `path`.

    >>> check_free_space(".", 10, 1)  # plenty of room: returns quietly
    """
    path = os.fspath(path)
    needed = bytes_needed(array_bytes, array_count, extra_bytes)
    directory = os.path.dirname(os.path.abspath(path))
    try:
        stats = os.statvfs(directory)
    except (AttributeError, OSError):  # no statvfs (Windows) or no directory: let the write say
        stats = None
    if stats is not None and stats.f_frsize:
        free = stats.f_bavail * stats.f_frsize
        if needed > free:
            raise OSError(errno.ENOSPC,
                          f"Not enough free space to save '{path}': it needs about "
                          f"{needed} bytes and {free} are free. The previous file, if any, "
                          "is unchanged", path)
    limit = _file_size_limit()
    if limit is not None and needed > limit:
        raise OSError(errno.EFBIG,
                      f"Cannot save '{path}': it needs about {needed} bytes, more than this "
                      f"process's file-size limit (RLIMIT_FSIZE = {limit} bytes). The "
                      "previous file, if any, is unchanged", path)


def _file_size_limit():
    try:
        import resource
    except ImportError:  # Windows
        return None
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    return None if soft == resource.RLIM_INFINITY else soft


def model_arrays(model, include_optimizer=True):
    """`(total bytes, count)` of the arrays saving `model` writes."""
    arrays = [w.value for w in model.weights]
    optimizer = getattr(model, "optimizer", None)
    if include_optimizer and optimizer is not None and getattr(optimizer, "built", False):
        arrays.extend(v.value for v in optimizer.variables)
    return sum(int(getattr(a, "nbytes", 0)) for a in arrays), len(arrays)
