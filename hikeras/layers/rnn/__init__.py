"""Recurrent layers: fused SimpleRNN/LSTM/GRU, the generic RNN over cells, ConvLSTM and the recurrent wrappers.

The public classes are exported from `hikeras.layers`, which collects every
module's `__all__`.
"""
