"""Text preprocessing: TextVectorization.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
