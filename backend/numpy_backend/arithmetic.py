"""Elementwise arithmetic with full numpy broadcasting.

Every VJP here is traced (written with operators and registered ops), so
these ops support gradients of any order.
"""

import numpy as np

from .. import shape_rules as rules
from ._grad import unbroadcast
from ._registry import define
from ._traced import constant, ops


@define("add", shape=rules.elementwise)
def add(x, y):
    return np.add(x, y)


@add.defvjp(traceable=True)
def _add_vjp(node, g):
    sx, sy = node.input_shapes
    return unbroadcast(g, sx), unbroadcast(g, sy)


@define("subtract", shape=rules.elementwise)
def subtract(x, y):
    return np.subtract(x, y)


@subtract.defvjp(traceable=True)
def _subtract_vjp(node, g):
    sx, sy = node.input_shapes
    return unbroadcast(g, sx), unbroadcast(-g, sy)


@define("multiply", shape=rules.elementwise, save_inputs=(0, 1))
def multiply(x, y):
    return np.multiply(x, y)


@multiply.defvjp(traceable=True)
def _multiply_vjp(node, g):
    x, y = node.inputs
    sx, sy = node.input_shapes
    gx = None if node.input_refs[0] is None else unbroadcast(g * y, sx)
    gy = None if node.input_refs[1] is None else unbroadcast(g * x, sy)
    return gx, gy


@define("divide", shape=rules.elementwise_float, save_inputs=(0, 1))
def divide(x, y):
    return np.true_divide(x, y)


@divide.defvjp(traceable=True)
def _divide_vjp(node, g):
    x, y = node.inputs
    sx, sy = node.input_shapes
    gx = g / y
    return unbroadcast(gx, sx), unbroadcast(-gx * x / y, sy)


@define("negative", shape=rules.same)
def negative(x):
    return np.negative(x)


@negative.defvjp(traceable=True)
def _negative_vjp(node, g):
    return (-g,)


@define("power", shape=rules.elementwise, save_inputs=(0, 1), save_outputs=(0,))
def power(x, y):
    return np.power(x, y)


@power.defvjp(traceable=True)
def _power_vjp(node, g):
    x, y = node.inputs
    out = node.outputs[0]
    sx, sy = node.input_shapes
    gx = gy = None
    if node.input_refs[0] is not None:
        gx = unbroadcast(g * y * x ** (y - 1), sx)
    if node.input_refs[1] is not None:
        # d/dy x**y = x**y * log(x), defined where x > 0; 0 elsewhere (as TF does).
        safe_log = ops.log(ops.where(np.greater(constant(x), 0), x, 1))
        gy = unbroadcast(g * out * safe_log, sy)
    return gx, gy


@define("square", shape=rules.same, save_inputs=(0,))
def square(x):
    return np.square(x)


@square.defvjp(traceable=True)
def _square_vjp(node, g):
    return (2 * g * node.inputs[0],)
