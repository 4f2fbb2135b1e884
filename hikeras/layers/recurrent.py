"""Recurrent layers: SimpleRNN, LSTM, GRU, Bidirectional, TimeDistributed."""

__all__ = []
