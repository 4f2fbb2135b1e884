"""The hikeras version, in a module of its own (as Keras's `keras/src/version.py`).

The file formats write it into what they save; importing it from here rather
than from `hikeras` (whose `__init__` imports every package) keeps them from
depending on the whole library.
"""

__version__ = "0.1.0"
