"""Pooling layers: max/average pooling in 1-3 dimensions and their global forms."""

__all__ = []
