"""The one way hikeras opens an HDF5 file for reading: checked, contained, bounded.

Every reader (Keras 2 and 3 weights, full-model `.h5`, the weights inside a
`.keras`, sharded shards, `BackupAndRestore` backups) goes through
`open_h5`, which guarantees three things before the caller sees the file:

* **It is a regular file** (`check_regular_file`): a FIFO, device, socket or
  `/dev/*` path is refused before it is opened, so nothing blocks or reads
  forever.
* **It never leaves the file.** Every link and object is walked: external
  links (and link types HDF5 users can define), virtual datasets and datasets
  with external raw storage are refused, naming the object. With no external
  link anywhere, soft links resolve inside the file too.
* **Its metadata does not make libhdf5 loop.** Corrupt metadata can send
  libhdf5 into an endless loop (or a crash) that no Python code can
  interrupt. So, where the platform can fork, the walk runs in a forked child
  under a time limit (`WALK_SECONDS`): a child that does not answer in time is
  killed and the file refused, and one that dies is reported, while the
  loading process is untouched. Without `fork` (Windows) the walk runs in
  process, with no time limit.

The walk touches metadata only (links, object headers, attribute headers,
chunk indexes), so its cost does not grow with the weights' size: a fork and
a walk of a few hundred objects (see tests/saving/test_h5_open.py).
"""

import faulthandler
import os
import select
import signal
import stat
import time

import h5py

from .file_errors import file_error

WALK_SECONDS = 10.0
_MAX_ATTRIBUTE_BYTES = 256 * 2**20
_OK = b"ok"


def check_regular_file(path, source=None):
    """Refuses anything but a regular file (after following symlinks), before opening.

    A FIFO would block the reader forever and a device (`/dev/zero`) would be read
    until memory runs out; a missing file raises `FileNotFoundError`.
    """
    source = str(path if source is None else source)
    try:
        mode = os.stat(path).st_mode
    except FileNotFoundError:
        raise FileNotFoundError(f"No file found at '{source}'. Received: filepath={source!r}"
                                ) from None
    except OSError as e:
        raise file_error(source, f"cannot be inspected ({e})") from None
    if not stat.S_ISREG(mode):
        kind = ("a directory" if stat.S_ISDIR(mode) else "a named pipe (FIFO)"
                if stat.S_ISFIFO(mode) else "a device" if stat.S_ISCHR(mode) or
                stat.S_ISBLK(mode) else "a socket" if stat.S_ISSOCK(mode) else "not a file")
        raise file_error(source, f"is {kind}, not a regular file; hikeras reads saved "
                                 "models and weights only from regular files")


def open_h5(path, source=None):
    """An `h5py.File` open for reading, once the file has passed the checks above.

    `source` names the file in errors (e.g. "m.keras: model.weights.h5").
    Raises `SavedFileError` (a `ValueError`) for a refused or unreadable file.
    """
    source = str(path if source is None else source)
    check_regular_file(path, source)
    problem = _walk_in_child(path) if hasattr(os, "fork") else _walk(path)
    if problem is not None:
        raise file_error(source, problem)
    try:
        return h5py.File(path, "r")
    except (OSError, ValueError) as e:
        raise file_error(source, f"is not a readable HDF5 file ({e})") from None


def _walk_in_child(path):
    """Runs `_walk` in a forked child; its verdict, or why there is none."""
    read_end, write_end = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: walk, report, and leave without running any cleanup
        status = 0
        try:
            os.close(read_end)
            faulthandler.disable()  # a crash here is reported by the parent, not dumped
            problem = _walk(path)
            os.write(write_end, _OK if problem is None else problem.encode("utf-8", "replace"))
        except BaseException:  # noqa: BLE001 (the child must never return into the caller)
            status = 1
        finally:
            os._exit(status)
    os.close(write_end)
    try:
        answer = _read_answer(read_end, WALK_SECONDS)
    finally:
        os.close(read_end)
        if answer is None:
            os.kill(pid, signal.SIGKILL)
        _, status = os.waitpid(pid, 0)
    if answer is None:
        return (f"could not be inspected within {WALK_SECONDS:g} s: its metadata makes "
                "the HDF5 library loop (the file is corrupt)")
    if answer == _OK:
        return None
    if answer:
        return answer.decode("utf-8", "replace")
    if os.WIFSIGNALED(status):
        return (f"crashed the HDF5 library while its metadata was inspected (signal "
                f"{os.WTERMSIG(status)}): the file is corrupt")
    return None  # the walk itself failed: the reader reports the damage in its own words


def _read_answer(fd, seconds):
    """Everything the child writes before closing the pipe, or None after `seconds`."""
    deadline = time.monotonic() + seconds
    chunks = []
    while True:
        left = deadline - time.monotonic()
        if left <= 0:
            return None
        ready, _, _ = select.select([fd], [], [], left)
        if ready:
            chunk = os.read(fd, 65536)
            if not chunk:
                return b"".join(chunks)
            chunks.append(chunk)


def _walk(path):
    """Why the file must not be read (a sentence), or None.

    Errors other than a refusal are left to the reader, which names them.
    """
    try:
        f = h5py.File(path, "r")
    except (OSError, ValueError):
        return None
    with f:
        try:
            problem = _check_attributes(f, "/")
            if problem is None:
                problem = f.id.links.visit(lambda name, info: _check_link(f, name, info),
                                           info=True)
        except Exception:  # noqa: BLE001 (damage: the reader will say what it finds)
            return None
    return problem


def _check_link(f, name, info):
    name = name.decode("utf-8", "replace") if isinstance(name, bytes) else name
    if info.type == h5py.h5l.TYPE_EXTERNAL:
        target = f.id.links.get_val(name.encode())
        return (f"has an external link '/{name}' pointing outside the file, to "
                f"{_describe_external(target)}; "
                "hikeras never reads another file through a saved one")
    if info.type == h5py.h5l.TYPE_SOFT:
        return None  # a path inside this file (no external link exists to leave it)
    if info.type != h5py.h5l.TYPE_HARD:
        return f"has a link '/{name}' of a user-defined type, which could lead outside the file"
    obj = f[name]
    if isinstance(obj, h5py.Dataset):
        problem = _check_dataset(obj, name)
        if problem is not None:
            return problem
    return _check_attributes(obj, f"/{name}")


def _describe_external(target):
    try:
        filename, obj = target
        return f"'{filename.decode('utf-8', 'replace')}:{obj.decode('utf-8', 'replace')}'"
    except (TypeError, ValueError, AttributeError):
        return "another file"


def _check_dataset(dataset, name):
    plist = dataset.id.get_create_plist()
    layout = plist.get_layout()
    if layout == h5py.h5d.VIRTUAL:
        return (f"has a virtual dataset '/{name}', whose data lies outside the file; "
                "hikeras never reads another file through a saved one")
    if plist.get_external_count() > 0:
        return (f"has a dataset '/{name}' whose data is stored outside the file "
                "(external storage); "
                "hikeras never reads another file through a saved one")
    if layout == h5py.h5d.CHUNKED:
        dataset.id.get_num_chunks()  # walks the chunk index: where corrupt files loop
    return None


def _check_attributes(obj, where):
    for key in obj.attrs:
        attr = obj.attrs.get_id(key)
        if attr.get_storage_size() > _MAX_ATTRIBUTE_BYTES:
            return (f"has an attribute '{key}' of '{where}' that declares "
                    f"{attr.get_storage_size()} bytes (the limit is {_MAX_ATTRIBUTE_BYTES})")
        try:
            obj.attrs[key]  # reads the attribute's heap entries
        except Exception:  # noqa: BLE001, S110 (damage: the reader reports it)
            pass
    return None
