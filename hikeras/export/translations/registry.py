"""The table of op translations: backend op name → function writing ONNX nodes.

A translation is `fn(graph, op)`: it reads the `TracedOp` `op` (inputs,
attributes, output specs), adds nodes to the `OnnxGraph` `graph` and returns
the ONNX value name of each output (one name, or a tuple for several).
"""

TRANSLATIONS = {}


def translates(*names):
    """Registers the decorated function as the translation of the ops `names`."""

    def register(fn):
        for name in names:
            TRANSLATIONS[name] = fn
        return fn

    return register
