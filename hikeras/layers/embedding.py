"""The Embedding layer."""

__all__ = []
