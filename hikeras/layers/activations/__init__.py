"""Activation layers with parameters of their own: ReLU, LeakyReLU, PReLU, ELU, Softmax.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
