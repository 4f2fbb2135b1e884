"""Pairing saved weights with a model's layers: topological or by name.

Both strategies only *plan*: they return `(Slot, SavedArray)` pairs (a slot
is one entry of a layer's `save_own_variables` store, see `layer_stores`)
and a `LoadReport`, raising before anything is assigned when the file does
not fit. `assign` then hands every layer its saved arrays through
`load_own_variables`. So a failed load leaves the model as it was.

By default the entries of one top-level layer are in Keras's legacy order
(`layer_stores.legacy_slots`), which does not depend on `trainable` flags:
the variables the layer (and, for a nested model, its sublayers) created
as trainable, then those created non-trainable. Freezing a layer between
saving and loading changes nothing.
"""

from .checksums import verify as verify_checksums
from .config_checksums import check_coverage
from .file_errors import file_error
from .layer_stores import Slot, legacy_slots, load_stores
from .value_checks import dtype_problem, has_nonfinite, warn_nonfinite


class LoadReport:
    """What `load_weights` did: matched, skipped, missing and unexpected weights.

    Attributes:
        matched: `(saved name, variable path)` pairs that were loaded.
        skipped: `(what, reason)` for saved weights/layers skipped on a mismatch.
        missing: paths of model variables the file had nothing for.
        unexpected: names of saved weights nothing in the model took.
        nonfinite: `(saved name, variable path)` of loaded weights holding NaN or
            inf (loaded, with a warning; see `value_checks`).

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
        self.nonfinite = []

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
        lines.extend(f"  NaN/inf in {name} (loaded into {path})" for name, path in self.nonfinite)
        return "\n".join(lines)


def weighted_layers(model, order=legacy_slots):
    """`[(layer, order(layer))]` for the model's top-level layers that save something."""
    pairs = [(layer, order(layer)) for layer in model.layers]
    return [(layer, slots) for layer, slots in pairs if slots]


def _fit_problems(layer_name, slots, saved):
    """Shape and dtype mismatches of the variables among `slots` (plain arrays are their
    layer's to check: their shape may depend on state, such as a vocabulary's size)."""
    problems = []
    for slot, s in zip(slots, saved):
        if slot.variable is None:
            continue
        what = f"weight '{slot.path}' of layer '{layer_name}'"
        if slot.shape != s.shape:
            problems.append(f"{what} has shape {slot.shape} in the model but {s.shape} in the "
                            f"file ('{s.name}')")
            continue
        problem = dtype_problem(what, slot.variable.value.dtype, s.dtype)
        if problem:
            problems.append(f"{problem} ('{s.name}')")
    return problems


def _pair_layer(layer, slots, entry, plan, report, skip_mismatch, source):
    """Pairs one layer with one saved entry (count and shapes must match)."""
    if len(slots) != len(entry.weights):
        reason = (f"layer '{layer.name}' has {len(slots)} weights "
                  f"({[s.path for s in slots]}) but the file has {len(entry.weights)} for "
                  f"'{entry.name}' ({[w.name for w in entry.weights]})")
        if not skip_mismatch:
            raise file_error(source, f"does not fit the model: {reason}. Pass "
                                     "skip_mismatch=True to skip such layers")
        _skip(entry, layer, reason, slots, report)
        return
    problems = _fit_problems(layer.name, slots, entry.weights)
    if problems:
        if not skip_mismatch:
            raise file_error(source, f"does not fit the model: {problems[0]}. Pass "
                                     "skip_mismatch=True to skip such layers")
        _skip(entry, layer, "; ".join(problems), slots, report)
        return
    for slot, saved in zip(slots, entry.weights):
        plan.append((slot, saved))
        report.matched.append((saved.name, slot.path))


def _skip(entry, layer, reason, slots, report):
    entry.skipped = True
    report.skipped.append((f"layer '{layer.name}'", reason))
    report.missing.extend(s.path for s in slots)
    report.unexpected.extend(w.name for w in entry.weights)


def plan_topological(model, entries, source, skip_mismatch=False, order=legacy_slots):
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
                 order=legacy_slots):
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
    for layer, slots in leftover_layers:
        found = [leftover_saved.get(s.path) for s in slots]
        if not any(found):
            report.missing.extend(s.path for s in slots)
            continue
        if not all(found):
            reason = (f"the file has only some of the weights of layer '{layer.name}' "
                      f"({[s.path for s, f in zip(slots, found) if f is not None]})")
            if not skip_mismatch:
                raise file_error(source, f"does not fit the model: {reason}")
            report.skipped.append((f"layer '{layer.name}'", reason))
            report.missing.extend(s.path for s in slots)
            continue
        problems = _fit_problems(layer.name, slots, found)
        if problems and not skip_mismatch:
            raise file_error(source, f"does not fit the model: {problems[0]}. Pass "
                                     "skip_mismatch=True to skip such layers")
        for slot, saved in zip(slots, found):
            del leftover_saved[slot.path]
            if problems:
                report.missing.append(slot.path)
                report.unexpected.append(saved.name)
            else:
                plan.append((slot, saved))
                report.matched.append((saved.name, slot.path))
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


def assign(plan, source, report=None):
    """Loads the plan: every layer gets its saved arrays through `load_own_variables`,
    and planned variables (an optimizer's) are read into directly. Data that must be
    staged is read first and recorded checksums are verified (`checksums.verify`), so
    decoding errors and damaged data surface before anything changes. Weights holding
    NaN or inf give one warning and go into `report.nonfinite`."""
    for _, saved in plan:
        saved.stage()
    check_coverage(plan, source)
    verify_checksums(plan, source)
    nonfinite = [(saved.name, target.path) for target, saved in plan
                 if has_nonfinite(saved.array())]
    warn_nonfinite(source, nonfinite)
    if report is not None:
        report.nonfinite.extend(nonfinite)
    load_stores([(slot, saved) for slot, saved in plan if isinstance(slot, Slot)],
                lambda layer, e: _load_error(source, layer, e))
    for var, saved in plan:
        if isinstance(var, Slot):
            continue
        try:
            saved.read_into(var.value)
        except Exception as e:  # an I/O error after validation: name it, keep the cause
            raise file_error(source, f"could not be read while loading '{saved.name}' into "
                                     f"'{var.path}' ({type(e).__name__}: {e}); the model may "
                                     "be partly loaded") from e


def _load_error(source, layer, error):
    return file_error(source, f"could not be loaded into layer '{layer.name}' "
                              f"({type(layer).__name__}.load_own_variables raised "
                              f"{type(error).__name__}: {error}); the model may be partly loaded")
