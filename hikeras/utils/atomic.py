"""Atomic file replacement: a crash mid-save never destroys the previous file.

Every file writer (the formats of `hikeras.saving`, `BackupAndRestore`) writes
into a temporary file in the target's directory, flushes and fsyncs it, then
renames it over the target (`os.replace` is atomic on POSIX and Windows) and
fsyncs the directory so the rename itself survives a power cut. Until the
rename, the old file is untouched; after it, the new file is complete. The
temporary's name carries the writer's process id, so one left by a killed
process is removed by the next save of the same file.
"""

import contextlib
import os
import re
import uuid


def _fsync_path(path, directory=False):
    flags = os.O_RDONLY | (getattr(os, "O_DIRECTORY", 0) if directory else 0)
    try:
        fd = os.open(path, flags)
    except OSError:
        if directory:  # some platforms cannot open directories; the rename still happened
            return
        raise
    try:
        os.fsync(fd)
    finally:
        os.close(fd)


_TEMPORARY = re.compile(r"^\.(.+)\.(\d+)-[0-9a-f]{12}\.tmp$")


def is_stale_temporary(name):
    """Whether `name` is an `atomic_write` temporary whose writing process has exited."""
    match = _TEMPORARY.match(name)
    return bool(match) and not _process_exists(int(match.group(2)))


def _remove_stale_temporaries(directory, base):
    """Removes `.<base>.<pid>-<hex>.tmp` files whose writing process has exited:
    what a killed save (or one libhdf5 crashed) left behind."""
    prefix = f".{base}."
    try:
        names = [n for n in os.listdir(directory) if n.startswith(prefix)]
    except OSError:
        return
    for name in names:
        match = _TEMPORARY.match(name)
        if match and match.group(1) == base and is_stale_temporary(name):
            with contextlib.suppress(OSError):
                os.remove(os.path.join(directory, name))


def _process_exists(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (OSError, OverflowError):
        return True  # another user's process, or cannot tell: keep its file
    return True


@contextlib.contextmanager
def atomic_write(path):
    """Yields a temporary path to write; on success it replaces `path` atomically.

    On any exception the temporary file is removed and `path` is left as it was.

    >>> import os, tempfile
    >>> target = os.path.join(tempfile.mkdtemp(), "note.txt")
    >>> with atomic_write(target) as tmp:
    ...     _ = open(tmp, "w").write("hello")
    >>> open(target).read()
    'hello'
    """
    path = os.fspath(path)
    directory = os.path.dirname(os.path.abspath(path))
    if not os.path.isdir(directory):
        raise FileNotFoundError(
            f"Cannot save to '{path}': the directory '{directory}' does not exist. "
            f"Received: filepath={path!r}"
        )
    _remove_stale_temporaries(directory, os.path.basename(path))
    tmp = os.path.join(directory, f".{os.path.basename(path)}.{os.getpid()}-"
                                  f"{uuid.uuid4().hex[:12]}.tmp")
    try:
        yield tmp
        _fsync_path(tmp)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.remove(tmp)
        raise
    _fsync_path(directory, directory=True)
