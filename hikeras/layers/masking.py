"""The Masking layer."""

__all__ = []
