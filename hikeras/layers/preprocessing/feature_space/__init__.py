"""`FeatureSpace` (public as `hikeras.utils.FeatureSpace`), where Keras keeps it.

It sits among the preprocessing layers because it is built from them, and
is reached through `hikeras.utils`, Keras's public name for it. Its modules
list nothing in `__all__`, so `hikeras.layers` does not export it; they
register the classes that configs name (`FeatureSpace`, `TFDIdentity`,
`TFDConcat`) for deserialisation.
"""
