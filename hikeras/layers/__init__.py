"""Layers, and the name table (`layer_table`) used to rebuild them from configs.

The base classes (`Layer`, `InputSpec`, `InputLayer`, the symbolic `KerasTensor`
and `Node`) sit at this level; every layer lives in a family sub-package that
mirrors Keras's `keras/src/layers/` (core, convolutional, pooling, ...). Each
module lists its public layers (and functional forms such as `add`) in
`__all__`: everything listed is exported here, and every `Layer` subclass among
them is registered for deserialisation. There is no hand-kept list: a new
module is picked up by being in a family folder.
"""

import importlib
import pkgutil

from .input_layer import Input, InputLayer
from .input_spec import InputSpec
from .layer import Layer
from .layer_table import deserialize, register_layer_classes, serialize
from .operation_layer import OperationLayer

__all__ = ["Input", "InputLayer", "InputSpec", "Layer", "deserialize", "serialize"]
register_layer_classes({"InputLayer": InputLayer, "OperationLayer": OperationLayer})


def _family_modules():
    """Every module inside the family sub-packages, in a fixed (sorted) order."""
    for info in sorted(pkgutil.walk_packages(__path__, f"{__name__}."), key=lambda i: i.name):
        if info.name.count(".") > 2 or info.ispkg:  # hikeras.layers.<family>.<module>...
            yield importlib.import_module(info.name)


for _module in _family_modules():
    for _name in getattr(_module, "__all__", ()):
        _obj = getattr(_module, _name)
        globals()[_name] = _obj
        __all__.append(_name)
        if isinstance(_obj, type) and issubclass(_obj, Layer):
            register_layer_classes({_name: _obj})
