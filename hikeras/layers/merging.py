"""Merging layers (Add, Concatenate, Dot, ...) and their functional forms."""

__all__ = []
