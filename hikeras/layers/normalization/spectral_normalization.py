"""`SpectralNormalization`: divides a layer's kernel by its spectral norm while training.

The largest singular value of the kernel (reshaped to `(-1, kernel.shape[-1])`)
is estimated by power iteration from a persistent, non-trainable `vector_u`,
as in Miyato et al. (2018) and Keras 3. As Keras does, each training call
(`training=True`) overwrites the wrapped layer's kernel with the normalised
kernel and `vector_u` with the refined vector, then calls the layer: the
optimizer then updates the normalised kernel directly (no gradient flows
through the norm), and inference uses the kernel as last normalised. A
kernel of all zeros is left alone.
"""

import numpy as np

from ...backend import SymbolicTensor
from ...initializers import TruncatedNormal
from ..core.wrapper import Wrapper
from ..input_spec import InputSpec

# Keras's `normalize` floors the norm at `backend.epsilon()`.
_EPSILON = 1e-7


def _normalized(vector):
    return vector * min(1.0 / np.sqrt(np.sum(np.square(vector))), 1.0 / _EPSILON)


def spectral_norm_step(kernel, vector_u, power_iterations=1):
    """`(vector_u, kernel / sigma)` after `power_iterations` steps, from numpy arrays."""
    weights = kernel.reshape(-1, kernel.shape[-1])
    for _ in range(power_iterations):
        vector_v = _normalized(vector_u @ weights.T)
        vector_u = _normalized(vector_v @ weights)
    sigma = (vector_v @ weights @ vector_u.T).item()
    return vector_u, kernel / sigma


class SpectralNormalization(Wrapper):
    """Constrains a layer's kernel to spectral norm 1 (for Lipschitz-bounded layers, GANs).

    Args:
        layer: a layer with a `kernel` (`Dense`, `Conv2D`, ...) or
            `embeddings` (`Embedding`) weight.
        power_iterations: power-iteration steps per training call (>= 1).

    Weights are ordered as Keras orders them: the kernel, `vector_u`, then
    the wrapped layer's other weights.

    >>> import numpy as np
    >>> from hikeras.layers import Dense
    >>> layer = SpectralNormalization(Dense(2, use_bias=False))
    >>> _ = layer(np.ones((1, 2), "float32"))
    >>> _ = layer.layer.kernel.assign(np.diag([3.0, 1.0]).astype("float32"))
    >>> _ = layer.vector_u.assign(np.array([[1.0, 0.0]], "float32"))
    >>> layer(np.ones((1, 2), "float32"), training=True).tolist()  # kernel / 3
    [[1.0, 0.3333333432674408]]
    """

    def __init__(self, layer, power_iterations=1, **kwargs):
        super().__init__(layer, **kwargs)
        if (not isinstance(power_iterations, (int, np.integer))
                or isinstance(power_iterations, bool) or power_iterations <= 0):
            raise ValueError(
                f"SpectralNormalization '{self.name}': `power_iterations` must be a positive "
                f"integer. Received: power_iterations={power_iterations!r}")
        self.power_iterations = int(power_iterations)

    def build(self, input_shape):
        super().build(input_shape)
        self.input_spec = InputSpec(min_ndim=1, axes={-1: input_shape[-1]})
        kernel = getattr(self.layer, "kernel", None)
        if kernel is None:
            kernel = getattr(self.layer, "embeddings", None)
        if kernel is None:
            raise ValueError(
                f"Layer '{self.name}' (SpectralNormalization) wraps a layer with neither a "
                f"`kernel` nor an `embeddings` weight. Received: layer={self.layer!r}")
        self.kernel = kernel
        # Keras tracks the borrowed kernel as the wrapper's own first variable, which puts
        # it first in `weights` and at `vars/0` of the wrapper in `.keras` files.
        borrowed = any(v is kernel for v in self.layer._trainable_variables)
        (self._trainable_variables if borrowed else self._non_trainable_variables).append(kernel)
        self.vector_u = self.add_weight(shape=(1, kernel.shape[-1]),
                                        initializer=TruncatedNormal(stddev=0.02),
                                        trainable=False, name="vector_u", dtype=kernel.dtype)
        self.built = True

    def _update_weight_paths(self):
        super()._update_weight_paths()
        self.layer._update_weight_paths()  # the kernel keeps its path in the wrapped layer

    def call(self, inputs, training=False):
        if training and not isinstance(inputs, SymbolicTensor):
            self.normalize_weights()
        return self.layer(inputs)

    def normalize_weights(self):
        """Replaces the kernel by its normalised value and `vector_u` by the refined one."""
        kernel = self.kernel.numpy()
        if not kernel.any():
            return
        vector_u, kernel = spectral_norm_step(kernel, self.vector_u.numpy(),
                                              self.power_iterations)
        self.vector_u.assign(vector_u.astype(self.vector_u.dtype))
        self.kernel.assign(kernel.astype(self.kernel.dtype))

    def compute_output_shape(self, input_shape):
        return self.layer.compute_output_shape(input_shape)

    def get_config(self):
        config = super().get_config()
        config["power_iterations"] = self.power_iterations
        return config


__all__ = ["SpectralNormalization"]
