"""CTC (connectionist temporal classification): sequence labels without alignments.

For speech or handwriting, a model emits one class distribution per frame,
but the labels are a shorter sequence with no frame positions. CTC sums the
probability of every frame-by-frame path that reads as the labels once
repeated classes are merged and blanks (class 0) dropped; the loss is its
negative logarithm. The sum itself is `hikeras.ops.ctc_loss`.
"""

import numpy as np

from .. import ops
from ..backend import Tensor
from .loss import Loss, LossFunctionWrapper


def ctc(y_true, y_pred):
    """Per-sequence CTC loss, with Keras's conventions for lengths.

    Args:
        y_true: integer labels, `(batch_size, max_length)`, padded with `0`.
            Class `0` is the blank and never a label; each row's labels are
            its non-zero entries, which must come first.
        y_pred: logits, `(batch_size, max_time, num_classes)`, *not*
            softmax probabilities (a log-softmax is taken inside). Every
            frame counts.

    Returns:
        `(batch_size,)` losses (`inf` where a row's labels need more frames
        than there are).

    Raises:
        ValueError: for inputs of the wrong rank.

    >>> import numpy as np
    >>> logits = np.log(np.array([[[0.6, 0.4], [0.3, 0.7]]]))
    >>> round(float(ctc(np.array([[1, 0]]), logits)[0]), 4)  # -log(0.82)
    0.1985
    """
    true_shape, pred_shape = ops.shape(y_true), ops.shape(y_pred)
    if len(true_shape) != 2:
        raise ValueError("ctc needs y_true of shape (batch_size, max_length) holding integer "
                         f"labels. Received: y_true.shape={true_shape}")
    if len(pred_shape) != 3:
        raise ValueError("ctc needs y_pred logits of shape (batch_size, max_length, "
                         f"num_classes). Received: y_pred.shape={pred_shape}")
    labels = np.asarray(y_true.value if isinstance(y_true, Tensor) else y_true)
    labels = labels.astype(np.int64)
    target_length = np.count_nonzero(labels, axis=-1)
    output_length = np.full(labels.shape[:1], pred_shape[1], dtype=np.int64)
    return ops.ctc_loss(labels, y_pred, target_length, output_length, mask_index=0)


class CTC(LossFunctionWrapper):
    """CTC loss of integer label sequences against per-frame logits.

    See `ctc`: `y_true` is `(batch_size, max_length)` labels padded with the
    blank `0`, `y_pred` is `(batch_size, max_time, num_classes)` logits.

    Args:
        reduction: see `Loss`.
        name: defaults to `"ctc"`.
        dtype: see `Loss`.

    >>> import numpy as np
    >>> logits = np.log(np.array([[[0.6, 0.4], [0.3, 0.7]]]))
    >>> round(float(CTC()(np.array([[1, 0]]), logits)), 4)
    0.1985
    """

    def __init__(self, reduction="sum_over_batch_size", name="ctc", dtype=None):
        super().__init__(ctc, name=name, reduction=reduction, dtype=dtype)

    def get_config(self):
        return Loss.get_config(self)
