"""Per-model layer naming (instead of Keras's process-wide counters)."""


def assign_unique_names(layers):
    """Gives every unnamed layer a name unique among `layers`.

    Explicit names are kept (duplicates are an error); a layer already named by
    another model keeps that name; the rest get `base`, `base_1`, `base_2`...
    in order, so the same architecture always gets the same names.
    """
    taken, next_index = {}, {}
    for layer in layers:
        fixed = layer._name or layer._auto_name
        if fixed is None:
            continue
        if fixed in taken and taken[fixed] is not layer:
            raise ValueError(
                f"All layers in a model must have unique names; the name '{fixed}' is used "
                f"by {taken[fixed]} and {layer}. Received: name={fixed!r}"
            )
        taken[fixed] = layer
    for layer in layers:
        if layer._name or layer._auto_name:
            continue
        base = layer._base_name()
        i = next_index.get(base, 0)  # every earlier suffix is taken: start after them
        candidate = f"{base}_{i}" if i else base
        while candidate in taken:
            i += 1
            candidate = f"{base}_{i}"
        next_index[base] = i
        taken[candidate] = layer
        layer._set_auto_name(candidate)
