"""Dense: `activation(inputs @ kernel + bias)`, one fused op."""

from ... import activations
from ...backend import FUSED_DENSE_ACTIVATIONS
from ...ops import kernels
from ..input_spec import InputSpec
from ..layer import Layer
from ..lora import LoraMixin, lora_adapted
from ..weight_options import parse_weight_options, serialize_weight_options

__all__ = ["Dense"]


class Dense(LoraMixin, Layer):
    """Densely connected layer: `activation(inputs @ kernel + bias)`.

    The product, bias and (for linear/relu/sigmoid/tanh) activation run as
    one fused backend op with a single hand-written gradient.

    Args:
        units: output dimension.
        activation: activation name or callable (default linear).
        use_bias: whether to add a bias.
        kernel_initializer: default `"glorot_uniform"`.
        bias_initializer: default `"zeros"`.
        kernel_regularizer, bias_regularizer, activity_regularizer: penalties.
        kernel_constraint, bias_constraint: projections after each update.
        lora_rank, lora_alpha: enable LoRA with this rank (and scale
            `lora_alpha / lora_rank`) when the layer is built; see
            `enable_lora` and `hikeras.layers.lora`.

    >>> import numpy as np
    >>> Dense(2, activation="relu")(np.ones((1, 3), "float32")).shape
    (1, 2)
    """

    def __init__(self, units, activation=None, use_bias=True,
                 kernel_initializer="glorot_uniform", bias_initializer="zeros",
                 kernel_regularizer=None, bias_regularizer=None, activity_regularizer=None,
                 kernel_constraint=None, bias_constraint=None, lora_rank=None, lora_alpha=None,
                 **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self._init_lora(lora_rank, lora_alpha)
        if not isinstance(units, int) or isinstance(units, bool) or units <= 0:
            raise ValueError(f"units must be a positive integer. Received: units={units!r}")
        self.units = units
        self.activation = activations.get(activation)
        self.use_bias = bool(use_bias)
        parse_weight_options(self, ("kernel", "bias"), locals())
        name = activations.serialize(self.activation)
        # A sigmoid runs unfused: its logits must reach the crossentropy (Keras 3 computes
        # it from them; see `utils.remembered_logits`).
        fusable = name in FUSED_DENSE_ACTIVATIONS and name != "sigmoid"
        self._fused_activation = name if fusable else None
        self.input_spec = InputSpec(min_ndim=2)

    kernel = lora_adapted("kernel")

    def build(self, input_shape):
        input_dim = input_shape[-1]
        if input_dim is None:
            raise ValueError(
                f"The last dimension of the input to Dense layer '{self.name}' must be known. "
                f"Received: input_shape={input_shape}"
            )
        self.kernel = self.add_weight(
            shape=(input_dim, self.units), initializer=self.kernel_initializer, name="kernel",
            regularizer=self.kernel_regularizer, constraint=self.kernel_constraint)
        self.bias = None
        if self.use_bias:
            self.bias = self.add_weight(
                shape=(self.units,), initializer=self.bias_initializer, name="bias",
                regularizer=self.bias_regularizer, constraint=self.bias_constraint)
        self.input_spec = InputSpec(min_ndim=2, axes={-1: input_dim})
        self._build_lora()

    def call(self, inputs):
        if self._fused_activation is not None:
            return kernels.dense(inputs, self.kernel, self.bias,
                                 activation=self._fused_activation)
        return self.activation(kernels.dense(inputs, self.kernel, self.bias))

    def get_config(self):
        config = super().get_config()
        config.update({
            "units": self.units,
            "activation": activations.serialize(self.activation),
            "use_bias": self.use_bias,
            **serialize_weight_options(self),
            **self._lora_config(),
        })
        return config
