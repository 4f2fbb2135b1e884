"""The error raised when a TFRecord file is damaged, named as TensorFlow names it."""


class DataLossError(OSError):
    """A TFRecord file is corrupt or truncated; the message names the file and record.

    TensorFlow raises `tf.errors.DataLossError` in the same cases; catching
    `OSError` catches this one too.
    """
