"""A backend that inherits numpy's kernels and records which update ops run.

It is what a compiled backend looks like from the front end's side: every
update op (`mutates`) is overridden, here by a wrapper that logs the op's
name and calls numpy's kernel. Tests use it to show that optimizers and
metrics do their per-step arithmetic through the active backend.
"""

import contextlib
import types

import numpy as np

from hikeras import backend
from hikeras.backend import OpRegistry


@contextlib.contextmanager
def recording_update_ops():
    """Runs the enclosed code on the recording backend; yields the list of op names called."""
    numpy_ops = backend.get_backend().ops
    ops = OpRegistry.inheriting(numpy_ops)
    calls = []
    for name in numpy_ops.update_ops():
        ops.override(name)(_recorded(name, numpy_ops[name].forward, calls))
    previous = backend.backend()
    backend.register_backend("recording", types.SimpleNamespace(name="recording", xp=np, ops=ops))
    backend.set_backend("recording")
    try:
        yield calls
    finally:
        backend.set_backend(previous)


def _recorded(name, forward, calls):
    def kernel(*args, **kwargs):
        calls.append(name)
        return forward(*args, **kwargs)

    return kernel
