"""`Trainer`: compile/fit/evaluate/predict, mixed into `Model`.

One training step, as data flows: a batch of arrays -> `model(x,
training=True)` under a `GradientTape` -> compiled loss plus regularisation
-> executor backward -> gradients of the trainable weights (frozen layers
record nothing, so they cost nothing) -> in-place optimizer update ->
constraints (applied by the optimizer) -> metric states -> logs for the callbacks.
"""

import contextlib
import itertools

import numpy as np

from .. import metrics as metrics_module
from .. import ops, optimizers
from ..backend import GradientTape, retained_heap
from ..callbacks import CallbackList
from ..callbacks.callback_list import pythonify_logs
from ..callbacks.progbar_logger import resolve_verbose
from ..config.settings import capped_fit_length
from ..distribute.scope import get_strategy
from ..layers.layer import flat_masks
from ..ops import kernels
from ..scopes import StatelessScope
from ..utils import tree
from ..utils.rng import make_generator
from .argument_checks import check_count, check_not_empty, check_numeric_inputs
from .compile_utils import (
    CompiledLoss,
    CompiledMetrics,
    CompileLoss,
    CompileMetrics,
    check_gradients,
    flatten_targets,
)
from .data_adapters import (
    class_weight_to_sample_weight,
    get_data_adapter,
    is_array_like,
    split_validation,
    unpack_x_y_sample_weight,
)
from .epoch_iterator import EpochIterator, epoch_range


class Trainer:
    """Training and inference loops for `Model` (see module docstring)."""

    def __init__(self):
        self.compiled = False
        self.optimizer = None
        self.stop_training = False
        self.history = None
        self._compile_args = None
        self._compile_loss = None
        self._compile_metrics = None
        self._loss_tracker = None
        self.distribute_strategy = get_strategy()  # set by `MPIStrategy.scope()`
        self.run_eagerly = False
        self.jit_compile = False
        self.steps_per_execution = 1
        self.unrolled_steps_per_execution = 1  # Keras's TensorFlow loop-unrolling count
        self.train_function = self.test_function = self.predict_function = None

    # ---------------------------------------------------------------- compile
    def compile(self, optimizer="rmsprop", loss=None, metrics=None, loss_weights=None,
                weighted_metrics=None, run_eagerly=False, steps_per_execution=1,
                jit_compile="auto", auto_scale_loss=True):
        """Configures the model for training.

        Args:
            optimizer: name or optimizer instance.
            loss: name, function or `Loss`; a list (output order) or dict (by
                output name) for multi-output models.
            metrics: list of names/functions/`Metric`s; per output as a list
                of lists or a dict for multi-output models. Not weighted by
                `sample_weight`/`class_weight` (as in Keras 3).
            loss_weights: scalars weighting each output's loss.
            weighted_metrics: like `metrics`, but weighted by `sample_weight`
                and `class_weight`.
            run_eagerly: kept as `self.run_eagerly`; hikeras always runs eagerly.
            steps_per_execution: batches each call of `self.train_function`
                (see `make_train_function`) runs; `fit` calls callbacks
                after every batch whatever this is.
            jit_compile: accepted for Keras compatibility; there is no
                compiler, so `self.jit_compile` is always False.
            auto_scale_loss: under the `"mixed_float16"` policy, wrap the
                optimizer in a `LossScaleOptimizer` (as Keras), so that small
                float16 gradients do not flush to zero.
        """
        check_count("steps_per_execution", steps_per_execution, minimum=1)
        self.run_eagerly = bool(run_eagerly)
        self.steps_per_execution = int(steps_per_execution)
        self.train_function = self.test_function = self.predict_function = None
        self.optimizer = optimizers.get(optimizer)
        if (auto_scale_loss and self.dtype_policy.name == "mixed_float16"
                and not isinstance(self.optimizer, optimizers.LossScaleOptimizer)):
            self.optimizer = optimizers.LossScaleOptimizer(self.optimizer,
                                                           name="loss_scale_optimizer")
        self.distribute_strategy = get_strategy() or self.distribute_strategy
        self._compile_args = {"loss": loss, "metrics": metrics, "loss_weights": loss_weights,
                              "weighted_metrics": weighted_metrics}
        self.loss = loss
        self._compile_loss = None
        self._compile_metrics = None
        # Listed by `metrics` itself, so not tracked as an attribute (Keras: compile
        # runs without automatic tracking).
        object.__setattr__(self, "_loss_tracker", metrics_module.Mean(name="loss"))
        self.compiled = True

    def _output_names_for(self, y_pred):
        names = getattr(self, "output_names", None)
        try:
            names = list(names) if names is not None else None
        except ValueError:
            names = None
        n = len(tree.flatten(y_pred))
        if not names or len(names) != n:
            names = [f"output_{i}" for i in range(n)] if n > 1 else ["output"]
        return names

    def _build_compiled(self, y_pred):
        names = self._output_names_for(y_pred)
        args = self._compile_args
        if args["loss"] is not None:
            self._compile_loss = CompileLoss(args["loss"], args["loss_weights"], names)
            loss_names = self._compile_loss.names
        else:
            loss_names = [None] * len(names)
        self._compile_metrics = CompileMetrics(args["metrics"], names, loss_names,
                                               args.get("weighted_metrics"))

    def _ensure_compiled_built(self, y, y_pred):
        """Builds the compiled loss and metrics from the first batch (shapes decide
        what `"accuracy"` means), so `self.metrics` lists them from the first step on."""
        self._require_compiled("train_step")
        if self._compile_metrics is None:
            self._build_compiled(y_pred)
        if not self._compile_metrics.built and y is not None:
            self._compile_metrics.build(y, y_pred)

    @property
    def compiled_loss(self):
        """Keras 2's loss helper for `train_step` overrides (see `CompiledLoss`)."""
        return CompiledLoss(self)

    @property
    def compiled_metrics(self):
        """Keras 2's metrics helper for `train_step` overrides (see `CompiledMetrics`)."""
        return CompiledMetrics(self)

    def _require_compiled(self, method):
        if not self.compiled:
            raise RuntimeError(
                f"You must call `compile()` before `{method}()`: the model "
                f"'{self.name}' has no optimizer, loss or metrics yet."
            )

    # ------------------------------------------------------------------ steps
    def compute_loss(self, x=None, y=None, y_pred=None, sample_weight=None, training=True):
        """Compiled loss plus the model's regularisation losses (differentiable)."""
        self._ensure_compiled_built(y, y_pred)
        total = None
        if self._compile_loss is not None:
            total, _ = self._compile_loss(y, y_pred, sample_weight)
        for extra in self.losses:
            total = extra if total is None else total + extra
        if total is None:
            raise ValueError(
                f"Model '{self.name}' has no loss to optimize: pass `loss=` to compile() or "
                "add losses with `add_loss` / regularizers."
            )
        return total

    def compute_metrics(self, x, y, y_pred, sample_weight=None):
        """Updates the compiled metrics and returns the current logs."""
        self._compile_metrics.update_state(y, y_pred, sample_weight)
        return self.get_metrics_result()

    def get_metrics_result(self):
        logs = {"loss": float(self._loss_tracker.result())} if self._loss_tracker else {}
        logs.update(self._compile_loss.result() if self._compile_loss else {})
        logs.update(self._compile_metrics.result() if self._compile_metrics else {})
        for metric in self._tracked_metrics():
            result = metric.result()
            if isinstance(result, dict):
                logs.update(result)
            else:
                logs[metric.name] = result
        return logs

    @property
    def metrics(self):
        """The loss tracker, each output's loss tracker, the compiled metrics, then the tracked ones.

        Tracked metrics are `Metric`s assigned as attributes of the model or
        of its layers (not of nested models): as in Keras 3, they are reset
        at each epoch and logged by the default steps.
        """
        out = [self._loss_tracker] if self._loss_tracker is not None else []
        out += list(self._compile_loss.trackers.values()) if self._compile_loss else []
        out += self._compile_metrics.all_metrics if self._compile_metrics else []
        return out + self._tracked_metrics()

    def _tracked_metrics(self):
        layers = [layer for layer in self._flatten_layers() if not isinstance(layer, Trainer)]
        found = list(self._metrics) + [m for layer in layers for m in layer._metrics]
        seen = set()
        return [m for m in found if not (id(m) in seen or seen.add(id(m)))]

    @property
    def metrics_variables(self):
        """The variables of `self.metrics` (running totals and counts)."""
        return [v for metric in self.metrics for v in metric.variables]

    @property
    def metrics_names(self):
        return [m.name for m in self.metrics]

    def reset_metrics(self):
        for metric in self.metrics:
            metric.reset_state()

    def train_step(self, data):
        """One optimisation step on a batch; returns the logs."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        with _overflow_handled_by(self.optimizer), GradientTape() as tape:
            y_pred, mask = self._call_with_mask((x,), {"training": True}, None)
            y, y_pred, sample_weight = self._unmasked_entries(y, y_pred, sample_weight, mask)
            loss = self.compute_loss(x, y, y_pred, sample_weight, training=True)
            # A LossScaleOptimizer (or loss_scale_factor) scales the loss it then unscales.
            scaled_loss = self.optimizer.scale_loss(loss)
        variables = self.trainable_weights
        with _overflow_handled_by(self.optimizer):
            grads = tape.gradient(scaled_loss, variables)
        check_gradients(grads, variables, self.name)
        if self.distribute_strategy is not None:  # averaged over the ranks
            grads = self.distribute_strategy.reduce_gradients(grads)
        self.optimizer.apply_gradients(zip(grads, variables))
        self._loss_tracker.update_state(float(np.asarray(loss)),
                                        sample_weight=_batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def test_step(self, data):
        """Loss and metrics on a batch, without updating weights."""
        x, y, sample_weight = unpack_x_y_sample_weight(data)
        y_pred, mask = self._call_with_mask((x,), {"training": False}, None)
        y, y_pred, sample_weight = self._unmasked_entries(y, y_pred, sample_weight, mask)
        loss = self.compute_loss(x, y, y_pred, sample_weight, training=False)
        self._loss_tracker.update_state(float(np.asarray(loss)),
                                        sample_weight=_batch_size(x))
        return self.compute_metrics(x, y, y_pred, sample_weight)

    def _unmasked_entries(self, y, y_pred, sample_weight, mask):
        """Targets, predictions and weights of the unmasked entries of masked outputs.

        Keras gives masked entries (e.g. padded time steps) zero weight in the
        loss and metrics and averages over the others; keeping only the others
        gives the same values. The predictions are gathered with the
        `gather_rows` op, whose gradient is a cheap scatter. Outputs without a
        mask pass through unchanged.
        """
        if mask is None or y is None:
            return y, y_pred, sample_weight
        preds = tree.flatten(y_pred)
        masks = flat_masks(mask, len(preds))
        if all(m is None for m in masks):
            return y, y_pred, sample_weight
        names = self._output_names_for(y_pred)
        ys = flatten_targets(y, names)
        weights = flatten_targets(sample_weight, names, "sample_weight")
        for i, m in enumerate(masks):
            if m is None:
                continue
            m = np.asarray(m, dtype=bool)
            target = np.asarray(ys[i])
            if target.shape[:m.ndim] != m.shape:
                raise ValueError(
                    f"Output '{names[i]}' of model '{self.name}' carries a mask of shape "
                    f"{m.shape}; its targets must start with those dimensions. "
                    f"Received: targets of shape {target.shape}")
            rows = ops.reshape(preds[i], (-1,) + tuple(preds[i].shape[m.ndim:]))
            preds[i] = kernels.gather_rows(rows, np.flatnonzero(m))
            ys[i] = target[m]
            if weights[i] is not None:
                w = np.asarray(weights[i])
                w = w.reshape(w.shape + (1,) * (m.ndim - w.ndim)) if w.ndim < m.ndim else w
                weights[i] = np.broadcast_to(w, m.shape + w.shape[m.ndim:])[m]
        if len(preds) == 1:
            return ys[0], preds[0], weights[0]
        return ys, preds, weights

    def predict_step(self, data):
        """Model outputs for a batch."""
        x, _, _ = unpack_x_y_sample_weight(data)
        return self(x, training=False)

    def _run_step(self, step_fn, batch):
        """`step_fn(batch)`; under a distribution strategy, on this rank's shard (global logs)."""
        if self.distribute_strategy is None:
            return step_fn(batch)
        return self.distribute_strategy.run_step(self, step_fn, batch)

    def _run_predict_step(self, batch):
        """`predict_step(batch)`; under a distribution strategy, sharded and gathered in order."""
        if self.distribute_strategy is None:
            return self.predict_step(batch)
        return self.distribute_strategy.run_predict_step(self, self.predict_step, batch)

    # ------------------------------------------------------- step functions
    def make_train_function(self, force=False):
        """`self.train_function`: `fn(iterator)` runs `steps_per_execution` training steps.

        Each step takes the next batch from the iterator; the logs of the last
        come back. `fit` runs its steps directly, so overriding this method
        does not change `fit` (it does in Keras): override `train_step`.
        """
        if self.train_function is None or force:
            self.train_function = self._step_function(lambda batch: self._run_step(
                self.train_step, batch))
        return self.train_function

    def make_test_function(self, force=False):
        """`self.test_function`, the evaluation counterpart of `make_train_function`."""
        if self.test_function is None or force:
            self.test_function = self._step_function(lambda batch: self._run_step(
                self.test_step, batch))
        return self.test_function

    def make_predict_function(self, force=False):
        """`self.predict_function`: `fn(iterator)` returns the outputs of
        `steps_per_execution` batches, joined along the batch axis."""
        if self.predict_function is None or force:
            step = self._step_function(self._run_predict_step, keep_all=True)

            def predict_function(iterator):
                outputs = step(iterator)
                columns = zip(*(tree.flatten(output) for output in outputs))
                return tree.pack_sequence_as(outputs[0], [np.concatenate(c) for c in columns])
            self.predict_function = predict_function
        return self.predict_function

    def _step_function(self, run, keep_all=False):
        def function(iterator):
            results = []
            for _ in range(self.steps_per_execution):
                try:
                    batch = next(iterator)
                except StopIteration:
                    break
                results.append(run(batch))
            if not results:
                raise StopIteration
            return results if keep_all else results[-1]
        return function

    def stateless_compute_loss(self, trainable_variables, non_trainable_variables,
                               metrics_variables, x=None, y=None, y_pred=None,
                               sample_weight=None, training=True):
        """`compute_loss` with the given variable values, leaving the model's own untouched.

        Returns `(loss, (trainable_values, non_trainable_values,
        metrics_values))`: the values after the computation (the loss
        trackers' totals move), in the order of the three arguments.
        """
        groups = (self.trainable_variables, self.non_trainable_variables, self.metrics_variables)
        given = (trainable_variables, non_trainable_variables, metrics_variables)
        for own, values, kind in zip(groups, given, ("trainable_variables",
                                                    "non_trainable_variables",
                                                    "metrics_variables")):
            if len(values) != len(own):
                raise ValueError(f"Model '{self.name}' has {len(own)} {kind}. "
                                 f"Received: {len(values)} values")
        mapping = [(variable, value) for own, values in zip(groups, given)
                   for variable, value in zip(own, values)]
        with StatelessScope(state_mapping=mapping) as scope:
            loss = self.compute_loss(x=x, y=y, y_pred=y_pred, sample_weight=sample_weight,
                                     training=training)
        return loss, tuple([np.copy(scope.get_current_value(v)) for v in group]
                           for group in groups)

    # ------------------------------------------------------------------ loops
    @retained_heap()   # the same activations every batch: reuse, no page faults
    def fit(self, x=None, y=None, batch_size=None, epochs=1, verbose="auto", callbacks=None,
            validation_split=0.0, validation_data=None, shuffle=True, class_weight=None,
            sample_weight=None, initial_epoch=0, steps_per_epoch=None, validation_steps=None,
            validation_batch_size=None, validation_freq=1, max_queue_size=None, workers=None,
            use_multiprocessing=None):
        """Trains the model; returns a `History` whose `history` holds per-epoch logs.

        `x` may be arrays (with `y`), a `hikeras.data.Dataset`, a
        `hikeras.utils.Sequence` or a generator of batches (see docs/data.md);
        `workers`, `use_multiprocessing` and `max_queue_size` override a
        `Sequence`'s own settings.
        """
        self._require_compiled("fit")
        verbose = resolve_verbose(verbose)
        check_count("epochs", epochs, 0)
        check_count("initial_epoch", initial_epoch, 0)
        epochs, steps_per_epoch = capped_fit_length(epochs, steps_per_epoch)
        if y is None and isinstance(x, tuple):
            x, y, sample_weight = unpack_x_y_sample_weight(x)
        check_numeric_inputs("fit", "x", x)
        check_numeric_inputs("fit", "y", y)
        if validation_split and validation_data is None:
            if not is_array_like(x):
                raise ValueError(
                    "validation_split only works with in-memory arrays; pass "
                    "`validation_data` for a Dataset, Sequence or generator. "
                    f"Received: validation_split={validation_split}, x of type "
                    f"{type(x).__name__}"
                )
            (x, y, sample_weight), validation_data = split_validation(
                x, y, sample_weight, validation_split)
        streams = {"workers": workers, "use_multiprocessing": use_multiprocessing,
                   "max_queue_size": max_queue_size}
        self._shuffle_rng = make_generator()  # BackupAndRestore saves and restores it
        train = EpochIterator(
            get_data_adapter(x, y, sample_weight, batch_size=batch_size, shuffle=shuffle,
                             rng=self._shuffle_rng, **streams),
            steps_per_epoch, "steps_per_epoch", repeat=True, class_weight=class_weight,
            model=self)
        val = None
        if validation_data is not None:
            vx, vy, vsw = (unpack_x_y_sample_weight(tuple(validation_data))
                           if isinstance(validation_data, (tuple, list)) else
                           (validation_data, None, None))
            val = EpochIterator(
                get_data_adapter(vx, vy, vsw, batch_size=validation_batch_size or (
                    (batch_size or 32) if is_array_like(vx) else None), **streams),
                validation_steps, "validation_steps")
        cbs = CallbackList(callbacks, add_history=True, add_progbar=verbose != 0, model=self,
                           verbose=verbose, epochs=epochs, steps=train.num_steps,
                           do_validation=val is not None)
        self.stop_training = False
        self._resume_at = None
        cbs.on_train_begin()
        if self.distribute_strategy is not None:  # rank 0's weights and shuffling
            self.distribute_strategy.sync_model(self)
        # A BackupAndRestore resume point (epoch, step): the input batches the
        # interrupted run consumed before it are read again, untrained, so that
        # shuffling and generator positions continue exactly where they were.
        resume_epoch, resume_step = self._resume_at or (initial_epoch, 0)
        logs = {}
        for epoch in epoch_range(initial_epoch, epochs, (train, val)):
            if epoch < resume_epoch:
                for _ in train:
                    pass
                continue
            self.reset_metrics()
            cbs.on_epoch_begin(epoch)
            skip = resume_step if epoch == resume_epoch else 0
            for step, batch in itertools.islice(enumerate(train), skip, None):
                cbs.on_train_batch_begin(step)
                logs = self._run_step(self.train_step, batch)
                cbs.on_train_batch_end(step, logs)
                if self.stop_training:
                    break
            epoch_logs = self._metrics_result_or(logs)
            if val is not None and (epoch + 1) % validation_freq == 0:
                val_logs = self._run_evaluation(val, cbs)
                epoch_logs.update({f"val_{k}": v for k, v in val_logs.items()})
            cbs.on_epoch_end(epoch, epoch_logs)
            logs = epoch_logs
            if self.stop_training:
                break
        self.optimizer.finalize_variable_values(self.trainable_weights)  # use_ema averages
        cbs.on_train_end(logs)
        return cbs.history

    def _run_evaluation(self, batches, cbs):
        self.reset_metrics()
        cbs.on_test_begin()
        logs = {}
        for step, batch in enumerate(batches):
            cbs.on_test_batch_begin(step)
            logs = self._run_step(self.test_step, batch)
            cbs.on_test_batch_end(step, logs)
        logs = self._metrics_result_or(logs)
        cbs.on_test_end(logs)
        return logs

    def _metrics_result_or(self, logs):
        """The metrics' current results when `logs` has their keys (the built-in steps,
        or a custom step that reports every metric), else a copy of `logs` (Keras 3)."""
        results = self.get_metrics_result()
        return results if set(logs) == set(results) else dict(logs)

    @retained_heap()   # the same activations every batch: reuse, no page faults
    def evaluate(self, x=None, y=None, batch_size=None, verbose="auto", sample_weight=None,
                 steps=None, callbacks=None, return_dict=False):
        """Loss and metrics on data: a scalar, a list, or a dict with `return_dict`."""
        self._require_compiled("evaluate")
        verbose = resolve_verbose(verbose)
        if y is None and isinstance(x, tuple):
            x, y, sample_weight = unpack_x_y_sample_weight(x)
        batches = EpochIterator(get_data_adapter(x, y, sample_weight, batch_size=batch_size),
                                steps, "steps")
        cbs = CallbackList(callbacks, add_progbar=verbose != 0, model=self, verbose=verbose,
                           epochs=1, steps=batches.num_steps)
        return _format_result(self._run_evaluation(batches, cbs), return_dict)

    @retained_heap()   # the same activations every batch: reuse, no page faults
    def predict(self, x, batch_size=None, verbose="auto", steps=None, callbacks=None):
        """Model outputs for `x`, computed batch by batch (numpy arrays)."""
        verbose = resolve_verbose(verbose)
        check_numeric_inputs("predict", "x", x)
        adapter = get_data_adapter(x, batch_size=batch_size)
        check_not_empty("predict", getattr(adapter, "num_samples", None))
        batches = EpochIterator(adapter, steps, "steps")
        cbs = CallbackList(callbacks, add_progbar=verbose != 0, model=self, verbose=verbose,
                           epochs=1, steps=batches.num_steps)
        cbs.on_predict_begin()
        outputs = []
        for step, batch in enumerate(batches):
            cbs.on_predict_batch_begin(step)
            out = self._run_predict_step(batch)
            outputs.append(tree.map_structure(np.asarray, out))
            cbs.on_predict_batch_end(step, {"outputs": out})
        cbs.on_predict_end()
        if len(outputs) == 1:
            return outputs[0]
        flat = [tree.flatten(o) for o in outputs]
        merged = [np.concatenate(parts) for parts in zip(*flat)]
        return tree.pack_sequence_as(outputs[0], merged)

    def train_on_batch(self, x, y=None, sample_weight=None, class_weight=None,
                       return_dict=False):
        """One training step on exactly this batch; returns loss (and metrics)."""
        self._require_compiled("train_on_batch")
        if class_weight is not None:
            cw = class_weight_to_sample_weight(y, class_weight)
            sample_weight = cw if sample_weight is None else np.asarray(sample_weight) * cw
        self.reset_metrics()
        logs = self._run_step(self.train_step, (x, y, sample_weight))
        return _format_result(logs, return_dict)

    def test_on_batch(self, x, y=None, sample_weight=None, return_dict=False):
        """Loss (and metrics) on exactly this batch."""
        self._require_compiled("test_on_batch")
        self.reset_metrics()
        logs = self._run_step(self.test_step, (x, y, sample_weight))
        return _format_result(logs, return_dict)

    def predict_on_batch(self, x):
        """Model outputs for one batch, as numpy arrays."""
        return tree.map_structure(np.asarray, self._run_predict_step(x))


def _overflow_handled_by(optimizer):
    """Silences numpy's overflow warnings when a `LossScaleOptimizer` handles overflow.

    Under loss scaling, float16 values overflowing to inf (and inf * 0 giving
    NaN in the backward pass) are expected: the optimizer skips that step and
    lowers the scale, as in Keras, which warns about none of it.
    """
    if isinstance(optimizer, optimizers.LossScaleOptimizer):
        return np.errstate(over="ignore", invalid="ignore")
    return contextlib.nullcontext()


def _batch_size(x):
    first = tree.flatten(x)[0]
    return int(np.shape(first)[0])


def _format_result(logs, return_dict):
    """Keras 3's results: a dict with sorted keys and float values (`pythonify_logs`), or
    the values in the metrics' order, a scalar when there is one."""
    if return_dict:
        return pythonify_logs(logs)
    values = list(logs.values())
    return values[0] if len(values) == 1 else values
