"""Normalisation layers: BatchNormalization, LayerNormalization, GroupNormalization, UnitNormalization."""

__all__ = []
