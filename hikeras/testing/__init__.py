"""Test helpers for users' own layers, ops and losses (beyond Keras).

- `check_layer(MyLayer, init_kwargs, input_shape)` runs a layer symbolically
  and eagerly, round-trips its config, takes a training step, checks its
  gradients and saves and reloads it (see docs/testing.md);
- `check_gradients(fn, inputs)` compares what `GradientTape` computes for a
  function written with `hikeras.ops` against central differences along
  random directions, the check every op of hikeras passes.

hikeras's own test suite runs both.
"""

from .gradient_check import check_gradients
from .layer_check import check_layer, fresh

__all__ = ["check_gradients", "check_layer", "fresh"]
