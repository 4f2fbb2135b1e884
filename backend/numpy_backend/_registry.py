"""The numpy backend's op table; kernel modules register into it."""

from ..registry import OpRegistry

ops = OpRegistry()
define = ops.define
