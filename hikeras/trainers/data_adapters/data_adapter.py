"""`DataAdapter`: what the training loops need from any kind of input."""


class DataAdapter:
    """One source of batches for `fit`, `evaluate` or `predict`.

    Attributes:
        num_batches: batches in one pass; `None` when unknown.
        infinite: whether a pass never ends (then steps must be given).
        reiterable: whether `iter_pass` can start a new pass (arrays,
            `Sequence`, `Dataset`) or always continues one iterator (a
            Python generator can be consumed only once).
    """

    num_batches = None
    infinite = False
    reiterable = True

    def iter_pass(self):
        """An iterator over the batches of one pass."""
        raise NotImplementedError
