"""`GradientTape`: records ops run on tracked tensors and differentiates them.

Usage mirrors TensorFlow's tape, which Keras users know:

    with GradientTape() as tape:
        loss = some_function_of(variables)
    grads = tape.gradient(loss, variables)

Trainable `Variable`s are tracked automatically; other tensors and numpy
arrays are tracked after `tape.watch(x)`. The recorded nodes are handed to
the executor, the same engine the training step uses.

A gradient computed while another tape records (or inside its own
persistent tape) is itself recorded, so tapes nest for second-order
derivatives:

    with GradientTape() as outer:
        with GradientTape() as inner:
            y = f(x)
        dy_dx = inner.gradient(y, x)
    d2y_dx2 = outer.gradient(dy_dx, x)
"""

import numpy as np

from . import executor
from .dispatch import active_tapes, recording_on
from .tensor import Tensor, new_ref


class GradientTape:
    """Records differentiable ops for reverse-mode autodiff.

    Args:
        persistent: allow `gradient` to be called more than once (the saved
            arrays are kept until the tape is garbage collected).
    """

    def __init__(self, persistent=False):
        self.persistent = bool(persistent)
        self._nodes = []
        self._watched = {}  # id(ndarray) -> (ref, ndarray), keeping the array alive
        self._used = False

    def __enter__(self):
        active_tapes().append(self)
        return self

    def __exit__(self, *exc_info):
        tapes = active_tapes()
        if self in tapes:
            tapes.remove(self)
        return False

    def record(self, node):
        """Appends a recorded node (called by dispatch)."""
        self._nodes.append(node)

    def watch(self, tensor):
        """Tracks `tensor` (a `Tensor`, numpy array, or a list of them)."""
        if isinstance(tensor, (list, tuple)):
            for t in tensor:
                self.watch(t)
            return
        if isinstance(tensor, Tensor):
            if tensor.ref is None:
                tensor.ref = new_ref()
        elif isinstance(tensor, np.ndarray):
            if self.watched_ref(tensor) is None:
                # One array watched by nested tapes is one tensor to all of them.
                shared = (t.watched_ref(tensor) for t in active_tapes())
                ref = next((r for r in shared if r is not None), None) or new_ref()
                self._watched[id(tensor)] = (ref, tensor)
        else:
            raise TypeError(
                "GradientTape.watch expects a Tensor, a Variable or a numpy array. "
                f"Received: tensor of type {type(tensor).__name__}"
            )

    def watched_ref(self, array):
        """The reference of a watched numpy array, or None."""
        entry = self._watched.get(id(array))
        return entry[0] if entry is not None and entry[1] is array else None

    def _ref_of(self, source):
        if isinstance(source, Tensor):
            return source.ref
        if isinstance(source, np.ndarray):
            return self.watched_ref(source)
        raise TypeError(
            "GradientTape.gradient sources must be Variables, Tensors or watched numpy "
            f"arrays. Received: source of type {type(source).__name__}"
        )

    def gradient(self, target, sources, output_gradients=None,
                 unconnected_gradients="none"):
        """Gradients of `target` with respect to `sources`.

        Args:
            target: a tensor computed under this tape; a non-scalar target is
                differentiated as the sum of its entries.
            sources: a tensor/variable/watched array, or a list, tuple or
                dict of them; the result has the same structure.
            output_gradients: seed gradient with the target's shape.
            unconnected_gradients: `"none"` returns `None` for sources the
                target does not depend on, `"zero"` returns zeros.
        """
        if unconnected_gradients not in ("none", "zero"):
            raise ValueError(
                "unconnected_gradients must be 'none' or 'zero'. "
                f"Received: unconnected_gradients={unconnected_gradients!r}"
            )
        if self._used and not self.persistent:
            raise RuntimeError(
                "A non-persistent GradientTape can compute gradients only once. "
                "Create it with GradientTape(persistent=True) to call gradient() again."
            )
        self._used = True
        flat, rebuild = _flatten(sources)
        refs = [self._ref_of(s) for s in flat]
        target_ref = target.ref if isinstance(target, Tensor) else None
        results = {}
        if target_ref is not None:
            # Tapes still recording see the gradient computation (this one too
            # when persistent, since it may differentiate the result again).
            recorders = [t for t in active_tapes() if t is not self or self.persistent]
            with recording_on(recorders):
                results = executor.backward(
                    self._nodes, target_ref,
                    _seed(target, output_gradients, tracked=bool(recorders)),
                    [r for r in refs if r is not None],
                    retain=self.persistent, create_graph=bool(recorders),
                )
        if not self.persistent:
            self._nodes = []
        grads = []
        handed_out = set()
        for source, ref in zip(flat, refs):
            g = results.get(ref) if ref is not None else None
            if g is None and unconnected_gradients == "zero":
                g = np.zeros(np.shape(np.asarray(source)), dtype=np.asarray(source).dtype)
            elif g is not None:
                g = _match_shape(g, source)
                # A VJP may pass one array to several inputs (`add` does); give
                # each distinct source its own array, since callers may update
                # gradients in place.
                if id(g) in handed_out:
                    g = Tensor(g.value.copy(), g.ref) if isinstance(g, Tensor) else g.copy()
                handed_out.add(id(g))
            grads.append(g)
        return rebuild(grads)


def _seed(target, output_gradients, tracked):
    """The gradient seeding `target`: ones, or the given one (kept as a `Tensor`
    when the gradient computation is recorded, so it is differentiable too)."""
    value = target.value
    if output_gradients is None:
        return np.ones_like(value)
    if tracked and isinstance(output_gradients, Tensor):
        return output_gradients
    if isinstance(output_gradients, Tensor):
        output_gradients = output_gradients.value
    return np.asarray(output_gradients, dtype=value.dtype)


def _match_shape(g, source):
    if isinstance(g, Tensor):  # a tracked gradient, to be differentiated again
        if not g.value.flags.writeable:
            g = Tensor(g.value.copy(), g.ref)
        _check_shape(g.value, source)
        return g
    g = np.asarray(g)
    _check_shape(g, source)
    if not g.flags.writeable:
        # VJPs may return read-only broadcast views (sum, mean, broadcast_to);
        # callers such as optimizers may scale gradients in place.
        g = g.copy()
    return g


def _check_shape(g, source):
    if g.shape != tuple(source.shape):
        raise RuntimeError(
            f"Internal error: a gradient of shape {g.shape} was computed for a source of "
            f"shape {tuple(source.shape)}; an op's VJP returned a wrongly shaped gradient."
        )


def _flatten(sources):
    if isinstance(sources, dict):
        keys = list(sources)
        return [sources[k] for k in keys], lambda gs: dict(zip(keys, gs))
    if isinstance(sources, (list, tuple)):
        kind = type(sources)
        return list(sources), lambda gs: kind(gs) if kind is tuple else list(gs)
    return [sources], lambda gs: gs[0]
