"""`Config`: a dict of named values with attribute access, that can be frozen."""

import json


class Config:
    """A dict-like container for an experiment's settings.

    Values are read and set as attributes or items; `freeze()` makes every
    later change raise, and `to_json()` writes the whole config.

    >>> config = Config(learning_rate=0.1)
    >>> config.seed = 123
    >>> config["seed"], config.as_dict()
    (123, {'learning_rate': 0.1, 'seed': 123})
    """

    def __init__(self, **kwargs):
        object.__setattr__(self, "_values", dict(kwargs))
        object.__setattr__(self, "_frozen", False)

    @property
    def frozen(self):
        """Whether changes are refused."""
        return self._frozen

    def freeze(self):
        """Refuses every later change."""
        object.__setattr__(self, "_frozen", True)

    def unfreeze(self):
        """Allows changes again."""
        object.__setattr__(self, "_frozen", False)

    def _check_unfrozen(self, name):
        if self._frozen:
            raise AttributeError(f"Cannot set attribute '{name}': this Config is frozen; call "
                                 "`unfreeze()` first.")

    def __getattr__(self, name):
        values = self.__dict__.get("_values", {})
        if name in values:
            return values[name]
        raise AttributeError(f"Unknown attribute: '{name}'")

    def __setattr__(self, name, value):
        self._check_unfrozen(name)
        self._values[name] = value

    def __delattr__(self, name):
        self._check_unfrozen(name)
        del self._values[name]

    def __getitem__(self, key):
        return self._values[key]

    def __setitem__(self, key, value):
        self._check_unfrozen(key)
        self._values[key] = value

    def __delitem__(self, key):
        self._check_unfrozen(key)
        del self._values[key]

    def __contains__(self, key):
        return key in self._values

    def __iter__(self):
        return iter(self._values)

    def __len__(self):
        return len(self._values)

    def keys(self):
        return self._values.keys()

    def values(self):
        return self._values.values()

    def items(self):
        return self._values.items()

    def get(self, key, default=None):
        return self._values.get(key, default)

    def update(self, *args, **kwargs):
        self._check_unfrozen("update")
        self._values.update(*args, **kwargs)

    def pop(self, *args):
        self._check_unfrozen("pop")
        return self._values.pop(*args)

    def as_dict(self):
        """A plain dict copy."""
        return dict(self._values)

    def to_json(self):
        """The config as a JSON string."""
        return json.dumps(self._values)

    def __repr__(self):
        return f"<Config {self._values}>"
