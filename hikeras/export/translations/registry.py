"""The table of op translations: backend op name → function writing ONNX nodes.

A translation is `fn(graph, op)`: it reads the `TracedOp` `op` (inputs,
attributes, output specs), adds nodes to the `OnnxGraph` `graph` and returns
the ONNX value name of each output (one name, or a tuple for several).
`translate` applies the table to one op.
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
    "elastic_transform": "a random augmentation: it runs only in training",
    "ctc_greedy_decode": "decoding gives sequences whose length depends on the values (a "
                         "post-processing step; run it on the exported model's outputs)",
    "ctc_beam_search_decode": "a beam search over variable-length hypotheses (a "
                              "post-processing step; run it on the exported model's outputs)",
    "svd": "ONNX has no singular value decomposition, and an iterative one written as a "
           "Loop would not reproduce LAPACK's choice of the singular vectors' signs",
    "eig": "its eigenvalues and eigenvectors are complex, which onnxruntime computes with "
           "no node, and they come from an iterative algorithm ONNX has no node for",
    "eigh": "ONNX has no eigendecomposition, and an iterative one written as a Loop would "
            "not reproduce LAPACK's choice of the eigenvectors' signs",
}


def translates(*names):
    """Registers the decorated function as the translation of the ops `names`."""

    def register(fn):
        for name in names:
            TRANSLATIONS[name] = fn
        return fn

    return register


def translate(g, op):
    """Writes traced `op` into graph `g` and binds its outputs to the ONNX values made.

    An op with no translation is an error naming it (and its layer), with the
    reason from `UNTRANSLATED` when there is one.
    """
    translation = TRANSLATIONS.get(op.name)
    g.current = op
    if translation is None:
        reason = f" ({UNTRANSLATED[op.name]})" if op.name in UNTRANSLATED else ""
        raise ValueError(
            f"Cannot export {op.where()} to ONNX: the op has no ONNX translation{reason}. "
            f"Ops with one: {', '.join(sorted(TRANSLATIONS))}.")
    names = translation(g, op)
    names = names if isinstance(names, tuple) else (names,)
    for tensor, name in zip(op.outputs, names):
        g.bind(tensor, name)
