"""LoRA: fine-tune a large weight through a trainable low-rank update (Keras 3's `enable_lora`).

`layer.enable_lora(rank)` freezes the layer's main weight `W` (a Dense or
convolution kernel, an embedding table) and adds two trainable factors, `A`
of shape `W.shape[:-1] + (rank,)` and `B` of shape `(rank, W.shape[-1])`.
The layer then computes with `W + (lora_alpha / rank) * A @ B`. `B` starts
at zero, so enabling LoRA changes no output; training moves only `A`, `B`
and the other trainable weights (the bias), a small fraction of the
parameters.

Files hold the merged weight in `W`'s place and no factors, so they load
into the same layer without LoRA, in hikeras or Keras; loading into a
LoRA-enabled layer sets `W` and resets both factors to zero, as Keras does.

A layer opts in by inheriting `LoraMixin` before `Layer`, declaring its main
weight as a class attribute `kernel = lora_adapted("kernel")` (the name its
`build` assigns), and calling `_init_lora` in `__init__` and `_build_lora`
at the end of `build`.
"""

import numpy as np

from .. import ops


def lora_adapted(name):
    """A property for the weight `name` that returns it merged with its LoRA update, if enabled.

    Assigning the property (as `build` does) stores the variable itself; the
    getter returns that variable while LoRA is off.
    """
    private = f"_{name}"

    def get(self):
        if private not in self.__dict__:
            raise AttributeError(f"'{type(self).__name__}' object has no attribute '{name}' "
                                 "(the layer is not built yet)")
        base = self.__dict__[private]
        if not self.lora_enabled:
            return base
        return self._lora_merged(base)

    def put(self, value):
        self.__dict__[private] = value

    return property(get, put, doc=f"The layer's `{name}`, with its LoRA update when enabled.")


class LoraMixin:
    """`enable_lora` and the LoRA options of a layer whose main weight is `_lora_target`."""

    _lora_target = "kernel"
    lora_enabled = False
    lora_rank = None
    lora_alpha = None

    def _init_lora(self, lora_rank, lora_alpha):
        for arg, value in (("lora_rank", lora_rank), ("lora_alpha", lora_alpha)):
            if value is not None and (isinstance(value, bool) or not isinstance(
                    value, (int, float, np.integer, np.floating)) or value <= 0):
                raise ValueError(f"{type(self).__name__} '{self.name}': `{arg}` must be a "
                                 f"positive number or None. Received: {arg}={value!r}")
        if lora_rank is not None and int(lora_rank) != lora_rank:
            raise ValueError(f"{type(self).__name__} '{self.name}': `lora_rank` must be an "
                             f"integer. Received: lora_rank={lora_rank!r}")
        self.lora_rank = None if lora_rank is None else int(lora_rank)
        self.lora_alpha = lora_alpha if lora_alpha is not None else self.lora_rank
        self.lora_enabled = False

    def _build_lora(self):
        """Ends `build`: the layer is built, then LoRA is enabled if a rank was given."""
        self.built = True
        if self.lora_rank:
            self.enable_lora(self.lora_rank, lora_alpha=self.lora_alpha)

    def enable_lora(self, rank, lora_alpha=None, a_initializer="he_uniform",
                    b_initializer="zeros"):
        """Freezes the main weight and adds the trainable low-rank factors.

        Args:
            rank: the factors' inner dimension.
            lora_alpha: scales the update by `lora_alpha / rank` (default
                `rank`, a scale of 1).
            a_initializer, b_initializer: for the factors; `B` at zero keeps
                the layer's outputs unchanged.
        """
        target = self._lora_target
        if getattr(self, f"{target}_constraint", None) is not None:
            raise ValueError(
                f"Lora is incompatible with {target} constraints. In order to enable lora on "
                f"layer '{self.name}', remove the `{target}_constraint` argument.")
        if not self.built:
            raise ValueError(f"Cannot enable lora on a layer that isn't yet built. "
                             f"Received: layer '{self.name}', not built")
        if self.lora_enabled:
            raise ValueError(f"lora is already enabled on layer '{self.name}'. This can only "
                             "be done once per layer.")
        if isinstance(rank, bool) or not isinstance(rank, (int, np.integer)) or rank <= 0:
            raise ValueError(f"`rank` must be a positive integer. Received: rank={rank!r}")
        base = self.__dict__[f"_{target}"]
        regularizer = getattr(self, f"{target}_regularizer", None)
        factor_a = self.add_weight(name=f"lora_{target}_a", shape=base.shape[:-1] + (rank,),
                                   initializer=a_initializer, dtype="float32",
                                   regularizer=regularizer)
        factor_b = self.add_weight(name=f"lora_{target}_b", shape=(rank, base.shape[-1]),
                                   initializer=b_initializer, dtype="float32",
                                   regularizer=regularizer)
        setattr(self, f"lora_{target}_a", factor_a)
        setattr(self, f"lora_{target}_b", factor_b)
        base.trainable = False
        self.lora_enabled = True
        self.lora_rank = int(rank)
        self.lora_alpha = lora_alpha if lora_alpha is not None else int(rank)

    def _lora_factors(self):
        target = self._lora_target
        return getattr(self, f"lora_{target}_a"), getattr(self, f"lora_{target}_b")

    def _lora_merged(self, base):
        factor_a, factor_b = self._lora_factors()
        update = ops.multiply(ops.matmul(factor_a, factor_b), self.lora_alpha / self.lora_rank)
        return ops.cast(ops.add(base, update), base.dtype)

    def _lora_saved_variables(self):
        """The variables a file holds for this layer: all own ones but the factors."""
        factors = [id(v) for v in self._lora_factors()]
        return [v for v in self.own_variables() if id(v) not in factors]

    def save_own_variables(self, store):
        """Writes the merged weight in the main weight's place, and no factors (as Keras)."""
        if not self.lora_enabled:
            super().save_own_variables(store)
            return
        base = self.__dict__[f"_{self._lora_target}"]
        for i, variable in enumerate(self._lora_saved_variables()):
            store[str(i)] = (np.asarray(self._lora_merged(base)) if variable is base
                             else variable)

    def load_own_variables(self, store):
        """Reads a file written with or without LoRA; the factors restart at zero."""
        if not self.lora_enabled:
            super().load_own_variables(store)
            return
        self._assign_from_store(store, self._lora_saved_variables())
        for factor in self._lora_factors():
            factor.assign(np.zeros(factor.shape, factor.dtype))

    def _lora_config(self):
        """The config entries Keras writes: only when a rank is set."""
        if not self.lora_rank:
            return {}
        return {"lora_rank": self.lora_rank, "lora_alpha": self.lora_alpha}
