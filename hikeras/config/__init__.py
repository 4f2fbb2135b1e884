"""`hikeras.config`: process-wide settings, by Keras's names (`keras.config`).

`settings.py` holds Keras's settings (floatx, epsilon, image data format, the
`fit` caps, logging switches, the dtype policy); `threads.py` the one thread
setting that governs BLAS, the batch-parallel kernels and the numba backend.
"""

from .settings import *  # noqa: F403
from .settings import __all__ as _settings_names
from .settings import capped_fit_length as capped_fit_length  # for fit; not a Keras name
from .threads import get_num_threads, set_num_threads

__all__ = [*_settings_names, "get_num_threads", "set_num_threads"]
