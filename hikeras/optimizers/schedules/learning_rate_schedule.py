"""Learning-rate schedules: the learning rate as a function of the step count.

An optimizer given a schedule calls it with its iteration count before every
update. Values are computed in float32, in the same order of operations as
Keras, so a schedule here and in Keras give the same float32 numbers.
"""

import math

import numpy as np

_F32 = np.float32


def _check_positive(value, name):
    if value <= 0:
        raise ValueError(f"Argument `{name}` must be > 0. Received: {name}={value}")


class LearningRateSchedule:
    """Base class: `__call__(step)` returns the learning rate, `get_config` describes it.

    >>> class Halving(LearningRateSchedule):
    ...     def __init__(self, initial_learning_rate):
    ...         self.initial_learning_rate = initial_learning_rate
    ...     def __call__(self, step):
    ...         return self.initial_learning_rate / 2 ** step
    ...     def get_config(self):
    ...         return {"initial_learning_rate": self.initial_learning_rate}
    >>> Halving(1.0)(3)
    0.125
    """

    def __call__(self, step):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override `__call__(self, step)`."
        )

    def get_config(self):
        raise NotImplementedError(
            f"Learning rate schedule '{type(self).__name__}' must override `get_config()` "
            "to be serializable."
        )

    @classmethod
    def from_config(cls, config):
        """Rebuilds the schedule from `get_config`'s output."""
        return cls(**config)


class _RateDecay(LearningRateSchedule):
    """Shared by decays of `initial_learning_rate` driven by `step / decay_steps`."""

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase, name):
        _check_positive(decay_steps, "decay_steps")
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.decay_rate = decay_rate
        self.staircase = staircase
        self.name = name

    def _progress(self, step):
        """`step / decay_steps` in float32, floored when `staircase`."""
        p = _F32(step) / _F32(self.decay_steps)
        return np.floor(p) if self.staircase else p

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "decay_rate": self.decay_rate,
                "staircase": self.staircase, "name": self.name}


class ExponentialDecay(_RateDecay):
    """`initial_learning_rate * decay_rate ** (step / decay_steps)`.

    Args:
        initial_learning_rate: the rate at step 0.
        decay_steps: steps per factor of `decay_rate`; must be > 0.
        decay_rate: the factor applied every `decay_steps` steps.
        staircase: if True, `step / decay_steps` is rounded down (decay in steps).
        name: kept in the config.

    >>> round(float(ExponentialDecay(0.1, decay_steps=2, decay_rate=0.5)(4)), 6)
    0.025
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="ExponentialDecay"):
        super().__init__(initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def __call__(self, step):
        p = self._progress(step)
        return _F32(self.initial_learning_rate) * np.power(_F32(self.decay_rate), p)


class PiecewiseConstantDecay(LearningRateSchedule):
    """`values[0]` up to `boundaries[0]` (inclusive), `values[1]` up to `boundaries[1]`, ...

    Args:
        boundaries: increasing step counts where the rate changes.
        values: one more rate than boundaries.
        name: kept in the config.

    >>> schedule = PiecewiseConstantDecay([2, 5], [1.0, 0.5, 0.1])
    >>> [round(float(schedule(s)), 6) for s in (2, 3, 6)]
    [1.0, 0.5, 0.1]
    """

    def __init__(self, boundaries, values, name="PiecewiseConstant"):
        if len(boundaries) != len(values) - 1:
            raise ValueError(
                "The length of boundaries should be 1 less than the length of values. "
                f"Received: boundaries={boundaries} of length {len(boundaries)}, and "
                f"values={values} of length {len(values)}."
            )
        self.boundaries = boundaries
        self.values = values
        self.name = name

    def __call__(self, step):
        index = int(np.searchsorted(np.asarray(self.boundaries), step, side="left"))
        return _F32(self.values[index])

    def get_config(self):
        return {"boundaries": self.boundaries, "values": self.values, "name": self.name}


class PolynomialDecay(LearningRateSchedule):
    """From `initial_learning_rate` to `end_learning_rate` along `(1 - step / decay_steps) ** power`.

    Args:
        initial_learning_rate: the rate at step 0.
        decay_steps: steps to reach `end_learning_rate`; must be > 0.
        end_learning_rate: the final rate. Defaults to `0.0001`.
        power: the polynomial's power. Defaults to `1.0` (linear).
        cycle: if True, restart the decay every `decay_steps`, with the period
            growing to the next multiple of `decay_steps` past the step.
        name: kept in the config.

    >>> round(float(PolynomialDecay(0.1, 10, end_learning_rate=0.0)(5)), 6)
    0.05
    """

    def __init__(self, initial_learning_rate, decay_steps, end_learning_rate=0.0001, power=1.0,
                 cycle=False, name="PolynomialDecay"):
        _check_positive(decay_steps, "decay_steps")
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.end_learning_rate = end_learning_rate
        self.power = power
        self.cycle = cycle
        self.name = name

    def __call__(self, step):
        initial, end = _F32(self.initial_learning_rate), _F32(self.end_learning_rate)
        step = _F32(step)
        decay_steps = _F32(self.decay_steps)
        if self.cycle:
            multiplier = _F32(1.0) if step == 0 else np.ceil(step / decay_steps)
            decay_steps = decay_steps * multiplier
        else:
            step = min(step, decay_steps)
        p = step / decay_steps
        return (initial - end) * np.power(_F32(1.0) - p, _F32(self.power)) + end

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "end_learning_rate": self.end_learning_rate,
                "power": self.power, "cycle": self.cycle, "name": self.name}


class InverseTimeDecay(_RateDecay):
    """`initial_learning_rate / (1 + decay_rate * step / decay_steps)`.

    Args:
        initial_learning_rate: the rate at step 0.
        decay_steps: must be > 0.
        decay_rate: how fast the rate falls.
        staircase: if True, `step / decay_steps` is rounded down.
        name: kept in the config.

    >>> round(float(InverseTimeDecay(0.1, decay_steps=1, decay_rate=1.0)(1)), 6)
    0.05
    """

    def __init__(self, initial_learning_rate, decay_steps, decay_rate, staircase=False,
                 name="InverseTimeDecay"):
        super().__init__(initial_learning_rate, decay_steps, decay_rate, staircase, name)

    def __call__(self, step):
        p = self._progress(step)
        return _F32(self.initial_learning_rate) / (_F32(1.0) + _F32(self.decay_rate) * p)


def _cosine(fraction, alpha):
    """`(1 - alpha) * 0.5 * (1 + cos(pi * fraction)) + alpha`, in float32."""
    decayed = _F32(0.5) * (_F32(1.0) + np.cos(_F32(math.pi) * fraction))
    return (_F32(1.0) - _F32(alpha)) * decayed + _F32(alpha)


class CosineDecay(LearningRateSchedule):
    """Cosine decay to `alpha * initial`, optionally after a linear warmup.

    Without warmup: `initial_learning_rate * ((1 - alpha) * 0.5 * (1 + cos(pi * t)) + alpha)`
    with `t = min(step, decay_steps) / decay_steps`. With `warmup_target`, the
    rate first grows linearly from `initial_learning_rate` to `warmup_target`
    over `warmup_steps`, then decays from `warmup_target` as above.

    Args:
        initial_learning_rate: the starting rate.
        decay_steps: length of the cosine decay; must be > 0.
        alpha: the final rate as a fraction of the decayed-from rate.
        name: kept in the config.
        warmup_target: the rate at the end of the warmup, or None (no warmup).
        warmup_steps: length of the warmup.

    >>> round(float(CosineDecay(0.1, decay_steps=10)(5)), 6)
    0.05
    """

    def __init__(self, initial_learning_rate, decay_steps, alpha=0.0, name="CosineDecay",
                 warmup_target=None, warmup_steps=0):
        _check_positive(decay_steps, "decay_steps")
        self.initial_learning_rate = initial_learning_rate
        self.decay_steps = decay_steps
        self.alpha = alpha
        self.name = name
        self.warmup_target = warmup_target
        self.warmup_steps = warmup_steps

    def __call__(self, step):
        initial = _F32(self.initial_learning_rate)
        decay_steps = _F32(self.decay_steps)
        step = _F32(step)
        if self.warmup_target is None:
            step = min(step, decay_steps)
            return initial * _cosine(step / decay_steps, self.alpha)
        target = _F32(self.warmup_target)
        warmup_steps = _F32(self.warmup_steps)
        step = min(step, decay_steps + warmup_steps)
        if step < warmup_steps:
            return (target - initial) * (step / warmup_steps) + initial
        return target * _cosine((step - warmup_steps) / decay_steps, self.alpha)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "decay_steps": self.decay_steps, "alpha": self.alpha, "name": self.name,
                "warmup_target": self.warmup_target, "warmup_steps": self.warmup_steps}


class CosineDecayRestarts(LearningRateSchedule):
    """Cosine decay with warm restarts (SGDR, Loshchilov & Hutter 2016).

    The first period lasts `first_decay_steps`; each next one is `t_mul` times
    longer and starts from `m_mul` times the previous peak.

    Args:
        initial_learning_rate: the first peak.
        first_decay_steps: length of the first period; must be > 0.
        t_mul: period growth factor. Defaults to `2.0`.
        m_mul: peak decay factor per restart. Defaults to `1.0`.
        alpha: the floor, as a fraction of the peak.
        name: kept in the config.

    >>> schedule = CosineDecayRestarts(0.1, first_decay_steps=2, t_mul=1.0)
    >>> [round(float(schedule(s)), 6) for s in (0, 1, 2)]
    [0.1, 0.05, 0.1]
    """

    def __init__(self, initial_learning_rate, first_decay_steps, t_mul=2.0, m_mul=1.0,
                 alpha=0.0, name="SGDRDecay"):
        _check_positive(first_decay_steps, "first_decay_steps")
        self.initial_learning_rate = initial_learning_rate
        self.first_decay_steps = first_decay_steps
        self.t_mul = t_mul
        self.m_mul = m_mul
        self.alpha = alpha
        self.name = name

    def __call__(self, step):
        fraction = _F32(step) / _F32(self.first_decay_steps)
        t_mul = _F32(self.t_mul)
        if t_mul == 1.0:
            restart = np.floor(fraction)
            fraction = fraction - restart
        else:
            restart = np.floor(np.log(_F32(1.0) - fraction * (_F32(1.0) - t_mul)) / np.log(t_mul))
            done = (_F32(1.0) - np.power(t_mul, restart)) / (_F32(1.0) - t_mul)
            fraction = (fraction - done) / np.power(t_mul, restart)
        peak = np.power(_F32(self.m_mul), restart)
        decayed = _F32(0.5) * peak * (_F32(1.0) + np.cos(_F32(math.pi) * fraction))
        alpha = _F32(self.alpha)
        return _F32(self.initial_learning_rate) * ((_F32(1.0) - alpha) * decayed + alpha)

    def get_config(self):
        return {"initial_learning_rate": self.initial_learning_rate,
                "first_decay_steps": self.first_decay_steps, "t_mul": self.t_mul,
                "m_mul": self.m_mul, "alpha": self.alpha, "name": self.name}
