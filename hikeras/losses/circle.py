"""Circle loss (Sun et al., 2020) between integer labels and L2-normalised embeddings.

For each query embedding, pairs with the same label (positives) are pulled
together and pairs with other labels (negatives) pushed apart, each pair
weighted by how far it is from its optimum, in cosine distance. A query with
no positive or no negative pair has no loss: it is left out of the mean, as in
Keras (which masks zero losses).
"""

import numpy as np

from .. import ops
from .loss import LossFunctionWrapper

# Stands in for -inf in the log-sum-exp of a row with no pairs of a kind: its
# exp is 0 all the same, but its gradient stays finite.
_FAR = -1e9


def _pair_masks(labels, ref_labels, remove_diagonal):
    """Positive and negative pair masks (numpy bool, queries x references)."""
    positive = labels.reshape(-1, 1) == ref_labels.reshape(1, -1)
    negative = ~positive
    if remove_diagonal:
        positive &= ~np.eye(positive.shape[0], positive.shape[1], dtype=bool)
    return positive, negative


def _labels(values, argument):
    values = np.asarray(getattr(values, "value", values))
    if values.ndim == 2 and values.shape[1] == 1:
        values = values[:, 0]
    if values.ndim != 1:
        raise ValueError(f"circle expects {argument} to be integer labels of shape (batch,). "
                         f"Received: {argument}.shape={values.shape}")
    return values.astype("int64")


def circle(y_true, y_pred, ref_labels=None, ref_embeddings=None, remove_diagonal=True,
           gamma=80, margin=0.4):
    """Per-query circle loss.

    Args:
        y_true: integer labels, shape `(batch,)`.
        y_pred: L2-normalised embeddings, shape `(batch, dim)`.
        ref_labels, ref_embeddings: the references to pair with (default: the
            batch itself).
        remove_diagonal: leave out the pair of a query with itself.
        gamma: the scale of the loss. Defaults to `80`.
        margin: the relaxation margin. Defaults to `0.4`.
    """
    y_pred = ops.convert_to_tensor(y_pred)
    labels = _labels(y_true, "y_true")
    ref_embeddings = y_pred if ref_embeddings is None else ops.convert_to_tensor(
        ref_embeddings, dtype=y_pred.dtype)
    ref_labels = labels if ref_labels is None else _labels(ref_labels, "ref_labels")
    if len(y_pred.shape) != 2 or y_pred.shape[0] != labels.shape[0]:
        raise ValueError("circle expects y_pred of shape (batch, dim) matching y_true. "
                         f"Received: y_true.shape={labels.shape}, "
                         f"y_pred.shape={tuple(y_pred.shape)}")
    positive, negative = _pair_masks(labels, ref_labels, remove_diagonal)
    distances = ops.maximum(1.0 - ops.matmul(y_pred, ops.transpose(ref_embeddings)), 0.0)
    pos_mask = positive.astype(y_pred.dtype)
    neg_mask = negative.astype(y_pred.dtype)
    pos_weights = ops.maximum((margin + distances) * pos_mask, 0.0)
    neg_weights = ops.maximum((1.0 + margin - distances) * neg_mask, 0.0)
    pos_terms = -gamma * pos_weights * (margin - distances)
    neg_terms = gamma * neg_weights * (1.0 - margin - distances)
    p_loss = ops.logsumexp(ops.where(positive, pos_terms, _FAR), axis=1)
    n_loss = ops.logsumexp(ops.where(negative, neg_terms, _FAR), axis=1)
    return ops.softplus(p_loss + n_loss)


class Circle(LossFunctionWrapper):
    """Circle loss between integer labels and L2-normalised embeddings.

    Give the model an embedding output without activation followed by
    `UnitNormalization`. Queries with no positive or no negative pair are
    left out of the reduction.

    Args:
        gamma: the scale of the loss. Defaults to `80.0`.
        margin: the relaxation margin. Defaults to `0.4`.
        remove_diagonal: leave out the pair of a query with itself.
        reduction, name, dtype: as for every loss.
    """

    def __init__(self, gamma=80.0, margin=0.4, remove_diagonal=True,
                 reduction="sum_over_batch_size", name="circle", dtype=None):
        super().__init__(circle, reduction=reduction, name=name, dtype=dtype, gamma=gamma,
                         margin=margin, remove_diagonal=remove_diagonal)
        self.gamma = gamma
        self.margin = margin
        self.remove_diagonal = remove_diagonal

    def call(self, y_true, y_pred):
        return circle(y_true, y_pred, **self._fn_kwargs)

    def _loss_mask(self, y_true, y_pred):
        labels = _labels(y_true, "y_true")
        positive, negative = _pair_masks(labels, labels, self.remove_diagonal)
        return positive.any(axis=1) & negative.any(axis=1)

    def get_config(self):
        return {"name": self.name, "reduction": self.reduction, "gamma": self.gamma,
                "margin": self.margin, "remove_diagonal": self.remove_diagonal}

    @classmethod
    def from_config(cls, config):
        return cls(**{k: v for k, v in config.items() if k != "fn"})
