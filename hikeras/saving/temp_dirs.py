"""Temporary folders for `.keras` saving and loading that never pile up.

h5py needs a real file, so the weights inside a `.keras` archive pass through
a temporary folder. A folder is removed when its save or load ends; one left
by a killed process is removed by the next save or load in any process: the
folder's name carries the id of the process that made it
(`hikeras-<kind>-<pid>-<random>`), and folders whose process no longer
exists are cleared before a new one is made.
"""

import contextlib
import os
import re
import shutil
import tempfile

_NAME = re.compile(r"^hikeras-(keras|assets)-(\d+)-")


def make_temp_dir(kind):
    """A new private folder `hikeras-<kind>-<pid>-…` (after clearing dead processes' ones)."""
    clear_stale_temp_dirs()
    return tempfile.mkdtemp(prefix=f"hikeras-{kind}-{os.getpid()}-")


def clear_stale_temp_dirs(root=None):
    """Removes the temporary folders of hikeras processes that have exited."""
    root = tempfile.gettempdir() if root is None else root
    try:
        names = os.listdir(root)
    except OSError:
        return
    for name in names:
        match = _NAME.match(name)
        if match and not _alive(int(match.group(2))):
            path = os.path.join(root, name)
            if os.path.isdir(path) and not os.path.islink(path) and _owned(path):
                shutil.rmtree(path, ignore_errors=True)


def _alive(pid):
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except (PermissionError, OverflowError, OSError):
        return True  # exists (another user's) or cannot tell: leave it
    return True


def _owned(path):
    with contextlib.suppress(AttributeError, OSError):
        return os.stat(path).st_uid == os.getuid()
    return False
