"""Small datasets that ship with hikeras, so examples and tests run offline."""

from hikeras.datasets import digits

__all__ = ["digits"]
