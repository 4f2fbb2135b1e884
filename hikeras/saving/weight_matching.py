"""Pairing saved weights with a model's variables: topological or by name.

Both strategies only *plan*: they return `(variable, SavedArray)` pairs and a
`LoadReport`, raising before anything is assigned when the file does not
fit. `assign` then writes the values. So a failed load leaves the model as
it was.

The weights of one layer are saved in Keras's legacy order, which does not
depend on `trainable` flags: the variables the layer (and, for a nested
model, its sublayers) created as trainable, then those created
non-trainable. Freezing a layer between saving and loading changes nothing.
"""

from .file_errors import file_error


class LoadReport:
    """What `load_weights` did: matched, skipped, missing and unexpected weights.

    Attributes:
        matched: `(saved name, variable path)` pairs that were loaded.
        skipped: `(what, reason)` for saved weights/layers skipped on a mismatch.
        missing: paths of model variables the file had nothing for.
        unexpected: names of saved weights nothing in the model took.

    >>> import os, tempfile, hikeras
    >>> model = hikeras.Sequential([hikeras.Input((3,)), hikeras.layers.Dense(2)])
    >>> path = os.path.join(tempfile.mkdtemp(), "w.weights.h5")
    >>> model.save_weights(path)
    >>> report = model.load_weights(path)
    >>> report.matched
    [('layers/dense/vars/0', 'dense/kernel'), ('layers/dense/vars/1', 'dense/bias')]
    """

    def __init__(self, source):
        self.source = str(source)
        self.matched = []
        self.skipped = []
        self.missing = []
        self.unexpected = []

    def __repr__(self):
        return (f"<LoadReport '{self.source}': {len(self.matched)} matched, "
                f"{len(self.skipped)} skipped, {len(self.missing)} missing, "
                f"{len(self.unexpected)} unexpected>")

    def summary(self):
        """A multi-line, human-readable account of the load."""
        lines = [repr(self)]
        for what, reason in self.skipped:
            lines.append(f"  skipped {what}: {reason}")
        lines.extend(f"  missing {path}" for path in self.missing)
        lines.extend(f"  unexpected {name}" for name in self.unexpected)
        return "\n".join(lines)


def saved_order(layer):
    """The variables of `layer` in the order Keras saves them (see module docstring)."""
    layers = [layer, *layer._flatten_layers()]
    out, seen = [], set()
    for group in ("_trainable_variables", "_non_trainable_variables"):
        for sub in layers:
            for var in getattr(sub, group):
                if id(var) not in seen:
                    seen.add(id(var))
                    out.append(var)
    return out


def weighted_layers(model, order=saved_order):
    """`[(layer, order(layer))]` for the model's top-level layers that have weights."""
    pairs = [(layer, order(layer)) for layer in model.layers]
    return [(layer, vars_) for layer, vars_ in pairs if vars_]


def _shape_problems(layer_name, variables, saved):
    return [f"weight '{v.path}' of layer '{layer_name}' has shape {tuple(v.shape)} in the "
            f"model but {s.shape} in the file ('{s.name}')"
            for v, s in zip(variables, saved) if tuple(v.shape) != s.shape]


def _pair_layer(layer, variables, entry, plan, report, skip_mismatch, source):
    """Pairs one layer with one saved entry (count and shapes must match)."""
    if len(variables) != len(entry.weights):
        reason = (f"layer '{layer.name}' has {len(variables)} weights "
                  f"({[v.path for v in variables]}) but the file has {len(entry.weights)} for "
                  f"'{entry.name}' ({[w.name for w in entry.weights]})")
        if not skip_mismatch:
            raise file_error(source, f"does not fit the model: {reason}. Pass "
                                     "skip_mismatch=True to skip such layers")
        report.skipped.append((f"layer '{layer.name}'", reason))
        report.missing.extend(v.path for v in variables)
        report.unexpected.extend(w.name for w in entry.weights)
        return
    problems = _shape_problems(layer.name, variables, entry.weights)
    if problems:
        if not skip_mismatch:
            raise file_error(source, f"does not fit the model: {problems[0]}. Pass "
                                     "skip_mismatch=True to skip such layers")
        report.skipped.append((f"layer '{layer.name}'", "; ".join(problems)))
        report.missing.extend(v.path for v in variables)
        report.unexpected.extend(w.name for w in entry.weights)
        return
    for var, saved in zip(variables, entry.weights):
        plan.append((var, saved))
        report.matched.append((saved.name, var.path))


def plan_topological(model, entries, source, skip_mismatch=False, order=saved_order):
    """Pairs layers with weights and saved entries with weights, in order (Keras's default)."""
    layers = weighted_layers(model, order)
    entries = [e for e in entries if e.weights]
    if len(layers) != len(entries):
        raise file_error(
            source,
            f"has weights for {len(entries)} layers ({[e.name for e in entries]}), but model "
            f"'{model.name}' has {len(layers)} layers with weights "
            f"({[l.name for l, _ in layers]}). Load with by_name=True to match layers by name")
    plan, report = [], LoadReport(source)
    for (layer, variables), entry in zip(layers, entries):
        _pair_layer(layer, variables, entry, plan, report, skip_mismatch, source)
    if layers:  # a model without weights (e.g. only preprocessing layers) loads nothing
        _require_some(plan, report, source)
    return plan, report


def _leaf_key(name):
    """`"dense/kernel:0"` -> `"dense/kernel"`: a weight's layer-level path."""
    return name.removesuffix(":0")


def plan_by_name(model, entries, source, skip_mismatch=False, name_map=None,
                 order=saved_order):
    """Pairs top-level layers with saved entries of the same name.

    Layers left over are then matched weight by weight on their variables'
    paths (`"dense/kernel"`), which is what makes a model load into the same
    architecture wrapped in, or unwrapped from, a nested model. `name_map`
    renames saved layers (and path prefixes) first: `{"saved": "current"}`.
    """
    name_map = dict(name_map or {})
    plan, report = [], LoadReport(source)
    by_name = {}
    for entry in entries:
        by_name.setdefault(name_map.get(entry.name, entry.name), entry)
    leftover_layers = []
    used = set()
    layers = weighted_layers(model, order)
    for layer, variables in layers:
        entry = by_name.get(layer.name)
        if entry is None or not entry.weights:
            leftover_layers.append((layer, variables))
            continue
        used.add(id(entry))
        _pair_layer(layer, variables, entry, plan, report, skip_mismatch, source)
    leftover_saved = {}
    for entry in entries:
        if id(entry) in used:
            continue
        for saved in entry.weights:
            key = _rename_path(_leaf_key(saved.name), name_map)
            leftover_saved.setdefault(key, saved)
    for layer, variables in leftover_layers:
        found = [leftover_saved.get(v.path) for v in variables]
        if not any(found):
            report.missing.extend(v.path for v in variables)
            continue
        if not all(found):
            reason = (f"the file has only some of the weights of layer '{layer.name}' "
                      f"({[v.path for v, s in zip(variables, found) if s is not None]})")
            if not skip_mismatch:
                raise file_error(source, f"does not fit the model: {reason}")
            report.skipped.append((f"layer '{layer.name}'", reason))
            report.missing.extend(v.path for v in variables)
            continue
        problems = _shape_problems(layer.name, variables, found)
        if problems and not skip_mismatch:
            raise file_error(source, f"does not fit the model: {problems[0]}. Pass "
                                     "skip_mismatch=True to skip such layers")
        for var, saved in zip(variables, found):
            del leftover_saved[var.path]
            if problems:
                report.missing.append(var.path)
                report.unexpected.append(saved.name)
            else:
                plan.append((var, saved))
                report.matched.append((saved.name, var.path))
        if problems:
            report.skipped.append((f"layer '{layer.name}'", "; ".join(problems)))
    report.unexpected.extend(s.name for s in leftover_saved.values())
    if layers or report.unexpected:  # a model and file without weights load nothing
        _require_some(plan, report, source)
    return plan, report


def _rename_path(path, name_map):
    layer, _, rest = path.partition("/")
    return f"{name_map.get(layer, layer)}/{rest}" if rest else path


def _require_some(plan, report, source):
    if not plan:
        raise file_error(source, "has no weights that match the model (nothing was loaded):\n"
                         + report.summary())


def assign(plan, source):
    """Writes every planned saved array into its variable (staged data is read first)."""
    for _, saved in plan:
        saved.stage()
    for var, saved in plan:
        try:
            saved.read_into(var.value)
        except Exception as e:  # an I/O error after validation: name it, keep the cause
            raise file_error(source, f"could not be read while loading '{saved.name}' into "
                                     f"'{var.path}' ({type(e).__name__}: {e}); the model may "
                                     "be partly loaded") from e
