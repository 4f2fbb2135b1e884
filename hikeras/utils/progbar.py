"""`Progbar`: Keras's text progress bar, for custom training loops."""

import sys
import time

import numpy as np

from .. import config


class Progbar:
    """A progress bar that shows running averages of named values.

    Args:
        target: total number of steps, or None if unknown.
        width: width of the bar in characters.
        verbose: 0 (silent), 1 (bar redrawn in place) or 2 (a line at the end).
        interval: minimum seconds between redraws.
        stateful_metrics: names whose values are shown as given, not averaged.
        stateless_metrics: accepted as in Keras; treated like `stateful_metrics`.
        unit_name: what a step is called in the display.
    """

    def __init__(self, target, width=20, verbose=1, interval=0.05, stateful_metrics=None,
                 stateless_metrics=None, unit_name="step"):
        if verbose not in (0, 1, 2):
            raise ValueError(f"verbose must be 0, 1 or 2. Received: verbose={verbose!r}")
        self.target = target
        self.width = width
        self.verbose = verbose
        self.interval = interval
        self.stateful_metrics = set(stateful_metrics or ()) | set(stateless_metrics or ())
        self.unit_name = unit_name
        self._sums = {}  # name -> [weighted sum, count] (stateful: [value, 1])
        self._seen = 0
        self._start = time.time()
        self._last_draw = 0.0

    def update(self, current, values=None, finalize=None):
        """Moves the bar to step `current`, folding in `values` (a list of `(name, value)`)."""
        if finalize is None:
            finalize = self.target is not None and current >= self.target
        for name, value in values or ():
            value = float(np.mean(value))
            if name in self.stateful_metrics:
                self._sums[name] = [value, 1]
            else:
                steps = max(current - self._seen, 1)
                total = self._sums.setdefault(name, [0.0, 0])
                total[0] += value * steps
                total[1] += steps
        self._seen = current
        now = time.time()
        if self.verbose == 0 or (not finalize and now - self._last_draw < self.interval):
            return
        self._last_draw = now
        line = self._line(current, now)
        if self.verbose == 1 and config.is_interactive_logging_enabled():
            sys.stdout.write("\r" + line + ("\n" if finalize else ""))
        elif finalize:
            sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def add(self, n, values=None):
        """Advances the bar by `n` steps."""
        self.update(self._seen + n, values)

    def _line(self, current, now):
        if self.target is not None:
            filled = int(self.width * min(current / max(self.target, 1), 1.0))
            bar = f"{current}/{self.target} [" + "=" * filled + "." * (self.width - filled) + "]"
        else:
            bar = f"{current}/Unknown"
        elapsed = now - self._start
        values = " - ".join(f"{name}: {total / count:.4f}"
                            for name, (total, count) in self._sums.items())
        return f"{bar} - {elapsed:.0f}s {self.unit_name}" + (f" - {values}" if values else "")
