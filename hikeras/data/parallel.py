"""Background threads for input pipelines: an ordered parallel map and a prefetcher.

numpy releases the GIL inside its heavy kernels (copies, arithmetic, BLAS,
most ufuncs), so Python threads can prepare the next batches while the
training step runs. Both helpers are generators that own their threads:
closing the generator (or exhausting it, or an error in it) stops and joins
every thread it started, so nothing outlives the loop that consumed it. An
exception raised in a worker is re-raised in the consuming thread as the
same exception object, whose traceback still shows the worker's frames.
"""

import collections
import os
import queue
import threading
from concurrent.futures import ThreadPoolExecutor

AUTOTUNE = -1
THREAD_NAME_PREFIX = "hikeras-data"


def resolve_parallelism(value, argument):
    """`AUTOTUNE` becomes the CPU count; anything else must be a positive int."""
    if value == AUTOTUNE and not isinstance(value, bool):
        return os.cpu_count() or 1
    if isinstance(value, bool) or not isinstance(value, int) or value <= 0:
        raise ValueError(
            f"`{argument}` must be a positive integer or hikeras.data.AUTOTUNE. "
            f"Received: {argument}={value!r}"
        )
    return value


def close_iterator(iterator):
    """Closes `iterator` if it is a generator (runs its cleanup now)."""
    close = getattr(iterator, "close", None)
    if close is not None:
        close()


def ordered_map(fn, iterable, num_workers, max_in_flight=None):
    """Yields `fn(item)` for each item of `iterable`, in order, computed by threads.

    Items are pulled from `iterable` in the consuming thread; up to
    `max_in_flight` calls (default `2 * num_workers`) run ahead of the
    consumer. An exception in `fn` is raised when its result is reached.
    """
    max_in_flight = max_in_flight or 2 * num_workers
    source = iter(iterable)
    executor = ThreadPoolExecutor(num_workers, thread_name_prefix=THREAD_NAME_PREFIX)
    pending = collections.deque()
    try:
        exhausted = False
        while True:
            while not exhausted and len(pending) < max_in_flight:
                try:
                    item = next(source)
                except StopIteration:
                    exhausted = True
                    break
                pending.append(executor.submit(fn, item))
            if not pending:
                return
            yield pending.popleft().result()
    finally:
        for future in pending:
            future.cancel()
        executor.shutdown(wait=True)
        close_iterator(source)


_ITEM, _END, _ERROR = "item", "end", "error"


def prefetch(iterable, buffer_size):
    """Yields the items of `iterable`, produced up to `buffer_size` ahead by a thread."""
    buffer = queue.Queue(maxsize=buffer_size)
    stop = threading.Event()

    def put(message):
        while not stop.is_set():
            try:
                buffer.put(message, timeout=0.05)
                return True
            except queue.Full:
                continue
        return False

    def produce():
        source = iter(iterable)
        try:
            for item in source:
                if not put((_ITEM, item)):
                    return
            put((_END, None))
        except BaseException as error:  # handed to the consumer, raised there
            put((_ERROR, error))
        finally:
            close_iterator(source)

    thread = threading.Thread(target=produce, name=f"{THREAD_NAME_PREFIX}-prefetch",
                              daemon=True)
    thread.start()
    try:
        while True:
            kind, value = buffer.get()
            if kind is _END:
                return
            if kind is _ERROR:
                raise value
            yield value
    finally:
        stop.set()
        thread.join()
