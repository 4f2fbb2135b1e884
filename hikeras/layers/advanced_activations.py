"""Activation layers with parameters: ReLU, LeakyReLU, PReLU, ELU, Softmax."""

__all__ = []
