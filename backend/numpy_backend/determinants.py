"""`slogdet`: the sign and log-magnitude of determinants of (batched) square matrices.

The gradient of `log|det x|` is `inv(x)^T`; the sign has none.
"""

import numpy as np

from .. import shape_rules as rules
from ..tensor import SymbolicTensor
from ._registry import define


def _slogdet_shape(x, **_):
    shape = rules.shape_of(x)
    if len(shape) < 2 or (None not in shape[-2:] and shape[-1] != shape[-2]):
        raise ValueError(f"slogdet needs square matrices. Received: x.shape={shape}")
    spec = SymbolicTensor(shape[:-2], rules.dtype_of(x))
    return spec, spec


@define("slogdet", shape=_slogdet_shape, num_outputs=2, save_inputs=(0,))
def slogdet(x):
    sign, logdet = np.linalg.slogdet(x)
    return np.asarray(sign, x.dtype), np.asarray(logdet, x.dtype)


@slogdet.defvjp
def _slogdet_vjp(node, g):
    _, g_logdet = g
    x = node.inputs[0]
    inverse_t = np.swapaxes(np.linalg.inv(x), -1, -2)
    return ((np.asarray(g_logdet)[..., None, None] * inverse_t).astype(x.dtype, copy=False),)
