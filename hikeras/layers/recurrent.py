"""Recurrent layers: SimpleRNN, LSTM, GRU, their cells, the generic RNN,
Bidirectional, TimeDistributed.

Each built-in recurrent layer runs a whole sequence as one fused backend op
with a hand-written backpropagation through time (`lstm_sequence`,
`gru_sequence`, `simple_rnn_sequence`); `RNN` runs any other cell step by
step. The classes live in `rnn_cells`, `rnn_base`, `rnn_layers`,
`rnn_generic` and `rnn_wrappers`; this module is the family's export list.
"""

from .rnn_cells import GRUCell, LSTMCell, SimpleRNNCell
from .rnn_generic import RNN, StackedRNNCells
from .rnn_layers import GRU, LSTM, SimpleRNN
from .rnn_wrappers import Bidirectional, TimeDistributed

__all__ = ["Bidirectional", "GRU", "GRUCell", "LSTM", "LSTMCell", "RNN", "SimpleRNN",
           "SimpleRNNCell", "StackedRNNCells", "TimeDistributed"]
