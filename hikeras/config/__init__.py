"""Process-wide settings (`keras.config`'s place): for now, the thread count."""

from .threads import get_num_threads, set_num_threads

__all__ = ["get_num_threads", "set_num_threads"]
