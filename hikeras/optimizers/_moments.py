"""The first and second moment updates Adam, Nadam and Lamb share."""

import numpy as np


def update_moments(m, v, gradient, beta_1, beta_2, scratch):
    """Moves `m` and `v` toward the gradient and its square, in place.

    `m += (1 - beta_1) * (g - m)` and `v += (1 - beta_2) * (g**2 - v)`: Keras's
    form of the exponential moving averages, in its order of operations, so
    results agree bit for bit. `scratch` is a temporary shaped like `m`.
    """
    np.subtract(gradient, m, out=scratch)
    scratch *= 1.0 - beta_1
    m += scratch
    np.multiply(gradient, gradient, out=scratch)
    scratch -= v
    scratch *= 1.0 - beta_2
    v += scratch
