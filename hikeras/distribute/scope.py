"""Which distribution strategy is active, and whether this process is the chief.

`MPIStrategy.scope()` pushes the strategy here; a model created (or
compiled) inside the scope remembers it as `model.distribute_strategy`, and
the training loop asks that strategy to shard batches and reduce gradients
and metrics. Outside any scope, models train on their own, as usual.
"""

_active = []


def get_strategy():
    """The strategy whose `scope()` is active, or None outside every scope.

    >>> get_strategy() is None
    True
    """
    return _active[-1] if _active else None


def enter(strategy):
    current = get_strategy()
    if current is not None and current is not strategy:
        raise ValueError(
            "A different distribution strategy's scope is already active; nest only the "
            f"same strategy's scopes. Received: {strategy!r} inside {current!r}")
    _active.append(strategy)


def exit_(strategy):
    _active.remove(strategy)


def is_chief(model=None):
    """Whether this process does the run's side effects (files, progress bars).

    True unless `model` (or, without a model, the active scope) is trained by
    a multi-process strategy and this process is not its rank 0. Callbacks
    that write files or print progress check it, so that only one rank does.

    >>> is_chief()
    True
    """
    strategy = getattr(model, "distribute_strategy", None) if model is not None else (
        get_strategy())
    return strategy is None or strategy.is_chief


def wait_for_chief(model):
    """Under a multi-process strategy, returns once every rank (rank 0 too) has called it.

    A callback that reads what rank 0 wrote earlier (a training backup) calls
    it first, so that it never reads a file rank 0 is still writing.
    """
    strategy = getattr(model, "distribute_strategy", None)
    if strategy is not None:
        strategy.barrier()
