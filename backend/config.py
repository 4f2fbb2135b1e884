"""Process-wide numeric settings that Keras users reach for by name.

`floatx` is the default float dtype of weights and inputs, `epsilon` the fuzz
factor used by losses, and `image_data_format` the default layout of image
layers. They mirror `keras.backend.floatx()` and friends.
"""

_FLOATX = "float32"
_EPSILON = 1e-7
_IMAGE_DATA_FORMAT = "channels_last"

_VALID_FLOATX = ("float16", "float32", "float64")
_VALID_FORMATS = ("channels_last", "channels_first")


def floatx():
    """Returns the default float dtype name, `"float32"` unless changed."""
    return _FLOATX


def set_floatx(value):
    """Sets the default float dtype name (`"float16"`, `"float32"` or `"float64"`)."""
    global _FLOATX
    value = str(value)
    if value not in _VALID_FLOATX:
        raise ValueError(
            f"Unknown floatx type; expected one of {_VALID_FLOATX}. Received: value={value!r}"
        )
    _FLOATX = value


def epsilon():
    """Returns the fuzz factor used in numeric expressions (default `1e-7`)."""
    return _EPSILON


def set_epsilon(value):
    """Sets the fuzz factor used in numeric expressions."""
    global _EPSILON
    _EPSILON = float(value)


def image_data_format():
    """Returns the default image layout, `"channels_last"` unless changed."""
    return _IMAGE_DATA_FORMAT


def set_image_data_format(data_format):
    """Sets the default image layout (`"channels_last"` or `"channels_first"`)."""
    global _IMAGE_DATA_FORMAT
    data_format = str(data_format)
    if data_format not in _VALID_FORMATS:
        raise ValueError(
            f"Unknown data_format; expected one of {_VALID_FORMATS}. "
            f"Received: data_format={data_format!r}"
        )
    _IMAGE_DATA_FORMAT = data_format
