"""Knowledge distillation, as Keras 3.15's `keras.distillation`.

A `Distiller` trains a student model on a mix of its own supervised loss and
distillation losses that compare it with a frozen teacher: on the final
outputs (`LogitsDistillation`) or on intermediate layers
(`FeatureDistillation`); subclass `DistillationLoss` for another comparison.
See docs/distillation.md.
"""

from ..layers.layer_table import register_layer_classes
from .distillation_loss import DistillationLoss, FeatureDistillation, LogitsDistillation
from .distiller import Distiller

register_layer_classes({"Distiller": Distiller})

__all__ = ["DistillationLoss", "Distiller", "FeatureDistillation", "LogitsDistillation"]
