"""Attention layers: MultiHeadAttention, Attention, AdditiveAttention."""

__all__ = []
