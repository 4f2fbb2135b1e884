"""`SwapEMAWeights`: evaluate (and optionally checkpoint) with the moving-average weights.

With an optimizer built with `use_ema=True`, the model's trainable weights are
exchanged with the optimizer's moving averages around every evaluation and
prediction, and swapped back before training resumes. With
`swap_on_epoch=True` the averages also stay in the model from the end of one
epoch to the start of the next, so callbacks listed after this one (a
`ModelCheckpoint`, say) see the averaged weights.
"""

import numpy as np

from .callback import Callback


class SwapEMAWeights(Callback):
    """Swaps the model's weights with the optimizer's moving averages for evaluation.

    Args:
        swap_on_epoch: also keep the averages in the model between the end of
            an epoch and the start of the next.
    """

    def __init__(self, swap_on_epoch=False):
        super().__init__()
        self.swap_on_epoch = bool(swap_on_epoch)
        self._averages_in_model = False

    def _optimizer(self):
        optimizer = getattr(self.model, "optimizer", None)
        if optimizer is None or not getattr(optimizer, "use_ema", False):
            raise ValueError("SwapEMAWeights requires that the optimizer has `use_ema=True`. "
                             f"Received: optimizer={optimizer!r}")
        return optimizer

    def _swap(self):
        optimizer = self._optimizer()
        if not optimizer.built:
            return
        for variable in self.model.trainable_variables:
            average = optimizer._averages[optimizer._get_variable_index(variable)]
            held = np.copy(variable.value)
            variable.assign(average.value)
            average.value[...] = held
        self._averages_in_model = not self._averages_in_model

    def _swap_in(self):
        if not self._averages_in_model:
            self._swap()

    def _swap_out(self):
        if self._averages_in_model:
            self._swap()

    def on_train_begin(self, logs=None):
        self._optimizer()

    def on_epoch_begin(self, epoch, logs=None):
        self._swap_out()

    def on_epoch_end(self, epoch, logs=None):
        if self.swap_on_epoch:
            self._swap_in()

    def on_test_begin(self, logs=None):
        self._swap_in()

    def on_test_end(self, logs=None):
        if not self.swap_on_epoch:
            self._swap_out()

    def on_predict_begin(self, logs=None):
        self._swap_in()

    def on_predict_end(self, logs=None):
        self._swap_out()
