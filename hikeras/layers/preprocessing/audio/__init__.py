"""Audio preprocessing: STFTSpectrogram and MelSpectrogram.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
