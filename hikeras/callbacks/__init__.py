"""Callbacks: hooks into the training loop."""

from .callback import Callback
from .callback_list import CallbackList
from .history import History
from .progbar_logger import ProgbarLogger

__all__ = ["Callback", "CallbackList", "History", "ProgbarLogger"]
