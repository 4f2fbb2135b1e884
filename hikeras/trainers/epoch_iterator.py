"""`EpochIterator`: how many batches an epoch takes, and from where.

Without a step count, an epoch is one full pass over the data (arrays,
`Sequence`, a finite `Dataset`). With `steps_per_epoch`, training draws
that many batches per epoch from one continuing stream: the next epoch
resumes where the last one stopped, and re-iterable inputs start a new pass
(reshuffled) when one ends. Evaluation with `steps` reads at most that many
batches of a fresh pass. A Python generator can be read only once, so it
always continues, and when it runs out training stops with a warning.

Every thread the input owns (a `Sequence` pool, `Dataset` prefetching) is
released by `close()`, which `epoch_range` guarantees when the loop over
epochs ends, breaks or raises.
"""

import numbers
import warnings

from ..data.parallel import close_iterator
from .data_adapters import apply_class_weight
from ..utils.batch_utils import pack_x_y_sample_weight, unpack_x_y_sample_weight

_OUT_OF_DATA = object()


class EpochIterator:
    """Yields the batches of one epoch each time it is iterated.

    Args:
        adapter: the `DataAdapter`.
        steps: batches per epoch (`steps_per_epoch`, `validation_steps` or
            `steps`), or None for full passes.
        steps_argument: the user-facing name of `steps`, for errors.
        repeat: continue the stream across epochs and restart finished
            passes (training); otherwise every iteration is a fresh pass.
        class_weight: optional `{class: weight}` folded into each batch's
            sample weights.
        model: when a generator runs out during training, its
            `stop_training` is set.
    """

    def __init__(self, adapter, steps=None, steps_argument="steps", repeat=False,
                 class_weight=None, model=None):
        if steps is not None and (isinstance(steps, bool) or not isinstance(
                steps, numbers.Integral) or steps <= 0):
            raise ValueError(f"`{steps_argument}` must be a positive integer or None. "
                             f"Received: {steps_argument}={steps!r}")
        if steps is None and adapter.infinite:
            raise ValueError(
                "The input is an infinite dataset (for example after `repeat()`), so "
                f"`{steps_argument}` must say how many batches to take. "
                f"Received: {steps_argument}=None"
            )
        if steps is None and not adapter.reiterable:
            raise ValueError(
                "A Python generator or iterator may be infinite and can be consumed only "
                f"once, so `{steps_argument}` must say how many batches to take from it. "
                "For a finite generator of unknown length, pass "
                "`hikeras.data.Dataset.from_generator(make_generator)` instead. "
                f"Received: {steps_argument}=None"
            )
        self._adapter = adapter
        self._steps = None if steps is None else int(steps)
        self._repeat = repeat
        self._class_weight = class_weight
        self._model = model
        self._pass = None

    @property
    def num_steps(self):
        """Batches per epoch; None when unknown until the input runs out."""
        return self._steps if self._steps is not None else self._adapter.num_batches

    def __iter__(self):
        return self._epoch()

    def _epoch(self):
        try:
            if self._steps is None:
                self._pass = iter(self._adapter.iter_pass())
                for batch in self._pass:
                    yield self._prepare(batch)
                self._pass = None
            else:
                for _ in range(self._steps):
                    batch = self._next_batch()
                    if batch is _OUT_OF_DATA:
                        self._out_of_data()
                        return
                    yield self._prepare(batch)
        except BaseException:  # an error, or the loop abandoned this epoch
            self.close()
            raise
        finally:
            if not self._repeat:
                self.close()

    def _next_batch(self):
        if self._pass is None:
            self._pass = iter(self._adapter.iter_pass())
        batch = next(self._pass, _OUT_OF_DATA)
        if batch is _OUT_OF_DATA and self._repeat and self._adapter.reiterable:
            self._pass = iter(self._adapter.iter_pass())
            batch = next(self._pass, _OUT_OF_DATA)
        return batch

    def _out_of_data(self):
        warnings.warn(
            f"Your input ran out of data before {self._steps} batches; interrupting. Make "
            "sure a generator can yield at least `steps_per_epoch * epochs` batches "
            "(or `validation_steps` per validation run).", stacklevel=3)
        if self._repeat and self._model is not None:
            self._model.stop_training = True

    def _prepare(self, batch):
        if self._class_weight is not None:
            batch = apply_class_weight(batch, self._class_weight)
        return pack_x_y_sample_weight(*unpack_x_y_sample_weight(batch))

    def close(self):
        """Ends the current pass of a re-iterable input, releasing its threads."""
        if self._pass is not None and self._adapter.reiterable:
            close_iterator(self._pass)
            self._pass = None


def epoch_range(initial_epoch, epochs, iterators):
    """`range(initial_epoch, epochs)` that closes `iterators` however the loop ends."""
    try:
        yield from range(initial_epoch, epochs)
    finally:
        for iterator in iterators:
            if iterator is not None:
                iterator.close()
