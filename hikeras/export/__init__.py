"""Exporting models for inference elsewhere: `Model.export(filepath, format="onnx")`.

`tracing.py` records the ops of a model's inference call, `translations/`
turns each backend op into ONNX nodes, `onnx_graph.py` holds the graph being
written and `onnx_export.py` puts them together. The `onnx` package is an
optional extra: `pip install "hikeras[onnx]"`.
"""

from .onnx_export import export_onnx

EXPORT_FORMATS = ("onnx",)


def export_model(model, filepath, format="onnx", verbose=None, input_signature=None, **kwargs):
    """The body of `Model.export`: writes `model` in `format` to `filepath`."""
    if format not in EXPORT_FORMATS:
        raise ValueError(f"Model.export writes only the formats {EXPORT_FORMATS} (Keras's "
                         "other formats need TensorFlow, OpenVINO or PyTorch); pass "
                         f"format='onnx'. Received: format={format!r}")
    opset_version = kwargs.pop("opset_version", None)
    if kwargs:
        raise ValueError(f"Unknown arguments for format='onnx': {sorted(kwargs)}. "
                         f"Received: {kwargs}")
    return export_onnx(model, filepath, input_signature=input_signature,
                       opset_version=opset_version, verbose=bool(verbose))


__all__ = ["export_model", "export_onnx"]
