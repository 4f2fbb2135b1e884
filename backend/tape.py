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

`jacobian` and `batch_jacobian` stack one backward pass per target entry.
"""

import math

import numpy as np

from . import executor
from .dispatch import active_tapes, apply, recording_on
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
        self._claim()
        grads = self._gradients(target, sources, output_gradients, unconnected_gradients,
                                retain=self.persistent)
        if not self.persistent:
            self._nodes = []
        return grads

    def _claim(self):
        """Marks the tape used; a non-persistent tape can be used only once."""
        if self._used and not self.persistent:
            raise RuntimeError(
                "A non-persistent GradientTape can compute gradients only once. "
                "Create it with GradientTape(persistent=True) to call gradient() again."
            )
        self._used = True

    def _gradients(self, target, sources, output_gradients, unconnected_gradients, retain):
        """One backward pass from `target` (see `gradient`); keeps the nodes if `retain`."""
        if unconnected_gradients not in ("none", "zero"):
            raise ValueError(
                "unconnected_gradients must be 'none' or 'zero'. "
                f"Received: unconnected_gradients={unconnected_gradients!r}"
            )
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
                    retain=retain, create_graph=bool(recorders),
                )
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


    def jacobian(self, target, sources, unconnected_gradients="none"):
        """The derivative of every entry of `target` (TensorFlow's `jacobian`).

        Each result has shape `target.shape + source.shape`; it is computed
        with one backward pass per entry of `target`, so it suits small
        targets. A non-persistent tape can compute one jacobian, as for
        `gradient`.

        Args:
            target: a tensor computed under this tape.
            sources: as for `gradient`.
            unconnected_gradients: `"none"` or `"zero"`, as for `gradient`.
        """
        shape = tuple(np.shape(target.value if isinstance(target, Tensor) else target))
        return self._stacked(target, sources, unconnected_gradients, shape, (),
                             lambda i: _one_hot(shape, i, target))

    def batch_jacobian(self, target, source, unconnected_gradients="none"):
        """Per-sample jacobians of a `(batch, ...)` target by a `(batch, ...)` source.

        The result has shape `(batch,) + target.shape[1:] + source.shape[1:]`;
        as in TensorFlow, sample `b` of `target` must depend on sample `b` of
        `source` only (one backward pass per entry of a sample's target).
        """
        shape = tuple(np.shape(target.value if isinstance(target, Tensor) else target))
        if not shape or shape[0] != np.shape(np.asarray(source))[0]:
            raise ValueError(
                "batch_jacobian needs a target and a source with the same leading (batch) "
                f"dimension. Received: target.shape={shape}, "
                f"source.shape={np.shape(np.asarray(source))}")
        return self._stacked(target, source, unconnected_gradients, shape[1:], (1,),
                             lambda i: _one_hot(shape[1:], i, target, batch=shape[0]))

    def _stacked(self, target, sources, unconnected_gradients, entries, axis, seed):
        """Gradients seeded by `seed(i)` for each entry `i`, stacked into jacobians."""
        self._claim()
        count = math.prod(entries)
        try:
            rows = [self._gradients(target, sources, seed(i), unconnected_gradients,
                                    retain=True) for i in range(count)]
        finally:
            if not self.persistent:
                for node in self._nodes:
                    node.release()
                self._nodes = []
        flat, rebuild = _flatten(sources)
        columns = [[_flatten(row)[0][k] for row in rows] for k in range(len(flat))]
        return rebuild([_stack_rows(column, source, entries, axis)
                        for column, source in zip(columns, flat)])


def _one_hot(shape, index, target, batch=None):
    """A seed selecting entry `index` of `shape` (in every sample, given `batch`)."""
    value = target.value if isinstance(target, Tensor) else np.asarray(target)
    seed = np.zeros(math.prod(shape), value.dtype)
    seed[index] = 1
    seed = seed.reshape(shape)
    return seed if batch is None else np.broadcast_to(seed, (batch,) + shape).copy()


def _stack_rows(rows, source, entries, axis):
    """`rows` (one gradient per entry, or None) as one array of the jacobian's shape."""
    if all(r is None for r in rows):
        return None
    source_shape = tuple(np.shape(np.asarray(source)))
    rows = [np.zeros(source_shape, np.asarray(source).dtype) if r is None else r
            for r in rows]
    if axis:  # batch_jacobian: rows are (batch,) + source[1:], stacked after the batch axis
        stacked = apply("stack", *rows, axis=1)
        return apply("reshape", stacked,
                     shape=(source_shape[0],) + entries + source_shape[1:])
    return apply("reshape", apply("stack", *rows, axis=0), shape=entries + source_shape)


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
