"""Convolution layers: Conv1D/2D/3D, transposed, depthwise and separable convolutions."""

__all__ = []
