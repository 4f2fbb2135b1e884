"""Checks that a callback's output location is usable, done before training starts.

A checkpoint directory that cannot be created, or a file that cannot be
written, should stop `fit` at `on_train_begin`, not after the first epoch's
work has been done and lost.
"""

import numbers
import os
import string
import tempfile


def static_directory(filepath):
    """The directory part of `filepath` before its first `{placeholder}`.

    >>> static_directory("ckpt/run1/{epoch:02d}/w.h5")
    'ckpt/run1'
    """
    return os.path.dirname(filepath.split("{", 1)[0])


def ensure_writable_dir(directory, owner, argument, value):
    """Creates `directory` if needed and proves a file can be written in it."""
    directory = directory or "."
    try:
        os.makedirs(directory, exist_ok=True)
        with tempfile.NamedTemporaryFile(dir=directory, prefix=".hikeras-write-check-"):
            pass
    except OSError as err:
        raise ValueError(
            f"{owner}: cannot write to the directory '{directory}' ({err.strerror or err}). "
            f"Choose a writable location. Received: {argument}={value!r}"
        ) from err


def format_fields(template, owner, argument):
    """The field names used by a `str.format` template (validating its syntax)."""
    try:
        return [name for _, name, _, _ in string.Formatter().parse(template)
                if name is not None]
    except ValueError as err:
        raise ValueError(f"{owner}: {argument} is not a valid format string ({err}). "
                         f"Received: {argument}={template!r}") from err


class _SampleValues(dict):
    """What a template is filled with at save time: integer `epoch`/`batch`, float logs."""

    def __missing__(self, key):
        return 1 if key in ("epoch", "batch") else 0.5


def check_format_specs(template, owner, argument):
    """Fills `template` with sample values so a bad format spec (`{epoch:02q}`,
    `{loss:d}`) fails when the callback is made, not after an epoch of training.

    >>> check_format_specs("{epoch:02d}-{val_loss:.2f}.h5", "ModelCheckpoint", "filepath")
    """
    try:
        string.Formatter().vformat(template, (), _SampleValues())
    except (ValueError, TypeError) as err:
        raise ValueError(
            f"{owner}: {argument} has a format spec that cannot be applied ({err}); `epoch` "
            f"and `batch` are integers and logged metrics are floats. Received: "
            f"{argument}={template!r}") from err
    except (AttributeError, IndexError, KeyError):
        pass  # attribute or index lookups are checked against the real logs at save time


def check_save_freq(save_freq, owner):
    if save_freq == "epoch":
        return
    if isinstance(save_freq, bool) or not isinstance(save_freq, numbers.Integral) \
            or save_freq <= 0:
        raise ValueError(f"{owner}: save_freq must be 'epoch' or a positive integer (a number "
                         f"of batches). Received: save_freq={save_freq!r}")
