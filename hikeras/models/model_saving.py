"""`SavingMixin`: the saving methods of `Model` (`save`, `save_weights`, ...).

The formats live in `hikeras.saving`; these methods only forward, so `Model`
stays about graphs and training. `hikeras.saving` sits above this package (it
rebuilds models from files), so each method imports what it forwards to when
it runs: the one tie from `models/` up to `saving/`, as in Keras's `Model.save`.
"""

import os


class SavingMixin:
    """Keras's model saving API, mixed into `Model`."""

    def save(self, filepath, overwrite=True, include_optimizer=True, **kwargs):
        """Saves the whole model (architecture, weights, optimizer state).

        The suffix picks the format: `.keras` (Keras 3's zip) or `.h5`
        (Keras's legacy HDF5). `save_format` (Keras 2) is accepted when it
        names the same format as the suffix.
        """
        from ..saving.saving_api import save_model

        save_format = kwargs.pop("save_format", None)
        suffix_format = "keras" if os.fspath(filepath).endswith(".keras") else "h5"
        if kwargs or save_format not in (None, suffix_format):
            raise ValueError(f"Model.save writes the format its path's suffix names "
                             f"('.keras' or '.h5'). Received: filepath={filepath!r}, "
                             f"save_format={save_format!r}, other arguments={sorted(kwargs)}")
        save_model(self, filepath, overwrite=overwrite, include_optimizer=include_optimizer)

    def export(self, filepath, format="tf_saved_model", verbose=None, input_signature=None,
               **kwargs):
        """Exports the model's inference computation for other runtimes (Keras 3's signature).

        hikeras writes `format="onnx"` (`pip install "hikeras[onnx]"`): the batch
        dimension is dynamic, `input_signature` (shapes and dtypes, e.g. a list of
        `hikeras.Input`s) fixes or frees the others, and `opset_version` (17 or
        higher, default 18) picks the opset. Keras's other formats (its default
        "tf_saved_model", "openvino", "litert", "torch") need their frameworks and
        are refused. See docs/export.md.
        """
        from ..export import export_model

        return export_model(self, filepath, format=format, verbose=verbose,
                            input_signature=input_signature, **kwargs)

    def save_weights(self, filepath, overwrite=True, max_shard_size=None):
        """Saves the weights: `.weights.h5` (Keras 3), `.h5` (Keras 2) or sharded `.weights.json`."""
        from ..saving.saving_api import save_weights

        save_weights(self, filepath, overwrite=overwrite, max_shard_size=max_shard_size)

    def load_weights(self, filepath, skip_mismatch=False, by_name=False, name_map=None,
                     verbose=False, layers=None):
        """Loads weights from any Keras or hikeras weights file; returns a `LoadReport`.

        See `hikeras.saving.load_weights` for the arguments.
        """
        from ..saving.saving_api import load_weights

        return load_weights(self, filepath, skip_mismatch=skip_mismatch, by_name=by_name,
                            name_map=name_map, verbose=verbose, layers=layers)

    def to_json(self, **kwargs):
        """The architecture as JSON (Keras 2's dialect); `json.dumps` kwargs pass through."""
        from ..saving.model_config import model_to_json

        return model_to_json(self, **kwargs)

    def get_compile_config(self):
        """The serialised arguments of `compile()`, or None if the model is not compiled."""
        from ..saving.training_config import get_compile_config

        return get_compile_config(self)

    def compile_from_config(self, config):
        """Compiles the model from `get_compile_config()` output."""
        from ..saving.training_config import compile_from_config

        compile_from_config(self, config)
