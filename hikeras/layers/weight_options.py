"""The per-weight options that layers with weights share, parsed and serialised in one place.

Dense, EinsumDense, the convolutions, the recurrent cells, attention and
others take `<weight>_initializer`, `<weight>_regularizer` and
`<weight>_constraint` for each of their weights (and usually
`activity_regularizer`). `parse_weight_options` turns the constructor's
arguments into objects through the `get()` helpers, in Keras's order, and
`serialize_weight_options` writes them back as config entries in Keras's key
order.
"""

from .. import constraints, initializers, regularizers

ACTIVITY_REGULARIZER = "activity_regularizer"


def parse_weight_options(layer, weights, arguments, activity_regularizer=ACTIVITY_REGULARIZER):
    """Sets `layer.<weight>_initializer`, `_regularizer` and `_constraint` for each weight.

    The values come from `arguments` (the constructor's arguments by name:
    pass `locals()`) through `initializers.get`, `regularizers.get` and
    `constraints.get`: all initializers first, then the regularizers and
    `activity_regularizer`, then the constraints, so an invalid argument
    raises the error it always has.

    Args:
        layer: the layer being constructed.
        weights: the weights' prefixes, e.g. `("kernel", "bias")` or
            `("kernel", "recurrent", "bias")`.
        arguments: mapping holding `"<weight>_initializer"`, ... for each
            weight, and `"activity_regularizer"` unless that is None.
        activity_regularizer: the attribute that takes
            `arguments["activity_regularizer"]`, or None for a layer without
            one.

    >>> from hikeras.layers import Layer
    >>> layer = Layer()
    >>> parse_weight_options(layer, ("kernel",), {"kernel_initializer": "ones",
    ...     "kernel_regularizer": "l2", "kernel_constraint": None,
    ...     "activity_regularizer": None})
    >>> type(layer.kernel_initializer).__name__, type(layer.kernel_regularizer).__name__
    ('Ones', 'L2')
    """
    for weight in weights:
        name = f"{weight}_initializer"
        setattr(layer, name, initializers.get(arguments[name]))
    for weight in weights:
        name = f"{weight}_regularizer"
        setattr(layer, name, regularizers.get(arguments[name]))
    if activity_regularizer is not None:
        setattr(layer, activity_regularizer,
                regularizers.get(arguments[ACTIVITY_REGULARIZER]))
    for weight in weights:
        name = f"{weight}_constraint"
        setattr(layer, name, constraints.get(arguments[name]))


def serialize_weight_options(layer, weights=("kernel", "bias"),
                             activity_regularizer=ACTIVITY_REGULARIZER):
    """`{"kernel_initializer": ..., ..., "bias_constraint": ...}` for `layer`.

    The inverse of `parse_weight_options`, with the same arguments; the
    `"activity_regularizer"` entry is left out when `activity_regularizer`
    is None.

    >>> from hikeras import layers
    >>> sorted(serialize_weight_options(layers.Dense(2)))[:2]
    ['activity_regularizer', 'bias_constraint']
    """
    config = {f"{w}_initializer": initializers.serialize(getattr(layer, f"{w}_initializer"))
              for w in weights}
    config.update({f"{w}_regularizer": regularizers.serialize(getattr(layer, f"{w}_regularizer"))
                   for w in weights})
    if activity_regularizer is not None:
        config[ACTIVITY_REGULARIZER] = regularizers.serialize(
            getattr(layer, activity_regularizer))
    config.update({f"{w}_constraint": constraints.serialize(getattr(layer, f"{w}_constraint"))
                   for w in weights})
    return config
