"""The one error type for unreadable, corrupt or hostile saved files."""


# What h5py raises for damaged metadata or data: every one of them means a bad file.
H5_ERRORS = (KeyError, TypeError, ValueError, OSError, RuntimeError, AttributeError)


class SavedFileError(ValueError):
    """A saved file (or a part of it) is missing, corrupt or not what was expected.

    It is a `ValueError`, as Keras raises for bad files; the message always
    starts with the file it is about.

    >>> str(file_error("model.h5", "has no attribute 'model_config'"))
    "The file 'model.h5' has no attribute 'model_config'."
    """


def file_error(source, message):
    """`SavedFileError("The file '<source>' <message>.")`; `source` may carry a location."""
    source = str(source)
    if source.startswith("The "):
        head = source
    elif source.startswith("<") and source.endswith(">"):  # not a file: "<json string>"
        head = f"The {source[1:-1]}"
    else:
        head = f"The file '{source}'"
    return SavedFileError(f"{head} {message}.")
