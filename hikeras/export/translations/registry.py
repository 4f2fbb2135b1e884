"""The table of op translations: backend op name → function writing ONNX nodes.

A translation is `fn(graph, op)`: it reads the `TracedOp` `op` (inputs,
attributes, output specs), adds nodes to the `OnnxGraph` `graph` and returns
the ONNX value name of each output (one name, or a tuple for several).
"""

TRANSLATIONS = {}

# Ops of the numpy backend with no translation, and why: the exporter quotes the reason.
# `tests/export/test_op_coverage.py` fails for an op in neither table.
UNTRANSLATED = {
    "affine_transform": "the random geometric augmentations' warp runs only in training",
    "batch_norm": "batch statistics are a training-time computation (inference normalises "
                  "with the moving statistics, through multiply and add)",
    "dropout": "dropout runs only in training",
    "ctc_loss": "a loss: not part of an inference graph",
    "softmax_cross_entropy": "a loss: not part of an inference graph",
    "sparse_softmax_cross_entropy": "a loss: not part of an inference graph",
    "sigmoid_cross_entropy": "a loss: not part of an inference graph",
}


def translates(*names):
    """Registers the decorated function as the translation of the ops `names`."""

    def register(fn):
        for name in names:
            TRANSLATIONS[name] = fn
        return fn

    return register
