"""Activation: applies an activation function."""

from ... import activations
from ..layer import Layer

__all__ = ["Activation"]


class Activation(Layer):
    """Applies an activation function, e.g. `Activation("relu")`."""

    def __init__(self, activation, **kwargs):
        super().__init__(**kwargs)
        self.supports_masking = True  # passes the input's mask on, as Keras
        self.activation = activations.get(activation)

    def call(self, inputs):
        return self.activation(inputs)

    def get_config(self):
        config = super().get_config()
        config["activation"] = activations.serialize(self.activation)
        return config
