"""Context managers that change how code inside them behaves, as Keras 3's.

`name_scope` prefixes the paths of the variables created inside it,
`SymbolicScope` marks code that runs on symbolic tensors only (output specs
being traced), and `StatelessScope` runs code against given variable values
and collects what it would assign instead of writing it. They sit on the
ground floor: they import nothing of hikeras but the backend, so variables
and layers can consult them.
"""

from .name_scope import current_path, name_scope
from .stateless_scope import StatelessScope, get_stateless_scope, in_stateless_scope
from .symbolic_scope import SymbolicScope, in_symbolic_scope

__all__ = [
    "StatelessScope", "SymbolicScope", "current_path", "get_stateless_scope",
    "in_stateless_scope", "in_symbolic_scope", "name_scope",
]
