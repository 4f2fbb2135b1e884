"""Config entries for the per-weight options that kernel layers share.

Dense, EinsumDense and the convolutions all take `<weight>_initializer`,
`<weight>_regularizer`, `<weight>_constraint` and `activity_regularizer`;
this writes them in Keras's key order.
"""

from .. import constraints, initializers, regularizers


def serialize_weight_options(layer, weights=("kernel", "bias")):
    """`{"kernel_initializer": ..., ..., "bias_constraint": ...}` for `layer`.

    >>> from hikeras import layers
    >>> sorted(serialize_weight_options(layers.Dense(2)))[:2]
    ['activity_regularizer', 'bias_constraint']
    """
    config = {f"{w}_initializer": initializers.serialize(getattr(layer, f"{w}_initializer"))
              for w in weights}
    config.update({f"{w}_regularizer": regularizers.serialize(getattr(layer, f"{w}_regularizer"))
                   for w in weights})
    config["activity_regularizer"] = regularizers.serialize(layer.activity_regularizer)
    config.update({f"{w}_constraint": constraints.serialize(getattr(layer, f"{w}_constraint"))
                   for w in weights})
    return config
