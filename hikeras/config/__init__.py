"""`hikeras.config`: process-wide settings, by Keras's names (`keras.config`).

`settings.py` holds Keras's settings (floatx, epsilon, image data format, the
`fit` caps, logging switches, the dtype policy); `threads.py` the one thread
setting that governs BLAS, the batch-parallel kernels and the numba backend.
"""

from .settings import (
    backend,
    disable_interactive_logging,
    disable_traceback_filtering,
    dtype_policy,
    enable_interactive_logging,
    enable_traceback_filtering,
    enable_unsafe_deserialization,
    epsilon,
    floatx,
    image_data_format,
    is_interactive_logging_enabled,
    is_traceback_filtering_enabled,
    is_unsafe_deserialization_enabled,
    max_epochs,
    max_steps_per_epoch,
    set_backend,
    set_dtype_policy,
    set_epsilon,
    set_floatx,
    set_image_data_format,
    set_max_epochs,
    set_max_steps_per_epoch,
)
from .threads import get_num_threads, set_num_threads

__all__ = [
    "backend",
    "disable_interactive_logging",
    "disable_traceback_filtering",
    "dtype_policy",
    "enable_interactive_logging",
    "enable_traceback_filtering",
    "enable_unsafe_deserialization",
    "epsilon",
    "floatx",
    "get_num_threads",
    "image_data_format",
    "is_interactive_logging_enabled",
    "is_traceback_filtering_enabled",
    "is_unsafe_deserialization_enabled",
    "max_epochs",
    "max_steps_per_epoch",
    "set_backend",
    "set_dtype_policy",
    "set_epsilon",
    "set_floatx",
    "set_image_data_format",
    "set_max_epochs",
    "set_max_steps_per_epoch",
    "set_num_threads",
]
