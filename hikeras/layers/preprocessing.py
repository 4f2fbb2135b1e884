"""Preprocessing layers: Rescaling, Normalization."""

__all__ = []
