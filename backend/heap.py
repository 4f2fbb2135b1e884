"""Keeping freed large buffers in the process while a training or prediction loop runs.

glibc's `malloc` serves a request above its mmap threshold (adaptive, at most
32 MiB) with fresh pages from the kernel and hands them back when the block is
freed. A loop that allocates the same activations every batch then faults in
and zeroes new pages each time: a batch of 1,000 images through the benchmark
CNN's second convolution writes a 147 MB output. Measured on the project's
2-core machine, `predict` of that CNN at batch 1,000 ran at 3,000-4,900
samples/s that way and at 4,300-6,200 with the freed blocks kept for reuse
(alternating runs; TensorFlow's own allocator keeps its memory the same way).

`retained_heap()` raises glibc's mmap and trim thresholds while a loop runs,
so that blocks freed in one batch serve the next. On leaving the outermost
loop it sets them to 32 MiB and 64 MiB, glibc's own ceilings for the adaptive
thresholds (setting a threshold fixes it): glibc then returns the free top of
its heap to the operating system at the next `free`, as it does anyway. It
does not call `malloc_trim`, which walks the whole heap: that made a
one-sample `predict` 0.2-1.5 ms slower. Elsewhere than glibc it does
nothing. The setting is process-wide while a loop runs: other threads'
large blocks are kept too, never lost.
"""

import contextlib
import ctypes
import ctypes.util
import sys
import threading

_M_TRIM_THRESHOLD, _M_MMAP_THRESHOLD = -1, -3
_KEEP = 1 << 30                       # blocks up to 1 GiB come from the heap in a loop
_MMAP_AFTER, _TRIM_AFTER = 32 << 20, 64 << 20
_lock = threading.Lock()
_depth = 0


def _glibc():
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6")
    except OSError:
        return None
    if not hasattr(libc, "mallopt") or not hasattr(libc, "malloc_trim"):
        return None   # musl and others (no glibc malloc_trim): their allocators differ
    libc.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return libc


_LIBC = _glibc()


@contextlib.contextmanager
def retained_heap():
    """Keeps freed blocks of up to 1 GiB in the heap for the enclosed loop (see above)."""
    global _depth
    if _LIBC is None:
        yield
        return
    with _lock:
        _depth += 1
        if _depth == 1:
            _LIBC.mallopt(_M_MMAP_THRESHOLD, _KEEP)
            _LIBC.mallopt(_M_TRIM_THRESHOLD, _KEEP)
    try:
        yield
    finally:
        with _lock:
            _depth -= 1
            if _depth == 0:
                _LIBC.mallopt(_M_MMAP_THRESHOLD, _MMAP_AFTER)
                _LIBC.mallopt(_M_TRIM_THRESHOLD, _TRIM_AFTER)
