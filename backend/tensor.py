"""Tensor types: concrete tracked tensors, variables, and symbolic specs.

Outside a `GradientTape`, ops take and return plain numpy arrays, so
inference pays nothing for autodiff. Inside a tape, an op whose inputs
include a tracked tensor returns a `Tensor`: a numpy array plus a reference
number that the recorded graph uses to route gradients. `Variable` is a
tensor whose array is updated in place by optimizers. `SymbolicTensor` has a
shape (with `None` for unknown dimensions) and a dtype but no data; ops on it
apply their shape rule instead of computing, which is how functional models
learn their shapes without running anything.
"""

import itertools

import numpy as np

_refs = itertools.count(1)


def new_ref():
    """Returns a fresh reference number for a tracked tensor."""
    return next(_refs)


class TensorOperators:
    """Python operators for tensor types, routed through the op registry."""

    __slots__ = ()
    __array_ufunc__ = None  # make numpy defer to our reflected operators

    def __add__(self, other):
        return _apply("add", self, other)

    def __radd__(self, other):
        return _apply("add", other, self)

    def __sub__(self, other):
        return _apply("subtract", self, other)

    def __rsub__(self, other):
        return _apply("subtract", other, self)

    def __mul__(self, other):
        return _apply("multiply", self, other)

    def __rmul__(self, other):
        return _apply("multiply", other, self)

    def __truediv__(self, other):
        return _apply("divide", self, other)

    def __rtruediv__(self, other):
        return _apply("divide", other, self)

    def __pow__(self, other):
        return _apply("power", self, other)

    def __rpow__(self, other):
        return _apply("power", other, self)

    def __matmul__(self, other):
        return _apply("matmul", self, other)

    def __rmatmul__(self, other):
        return _apply("matmul", other, self)

    def __neg__(self):
        return _apply("negative", self)

    def __pos__(self):
        return self

    def __abs__(self):
        return _apply("abs", self)

    def __getitem__(self, key):
        return _apply("getitem", self, key=key)

    def __lt__(self, other):
        return _apply("less", self, other)

    def __le__(self, other):
        return _apply("less_equal", self, other)

    def __gt__(self, other):
        return _apply("greater", self, other)

    def __ge__(self, other):
        return _apply("greater_equal", self, other)

    @property
    def ndim(self):
        return len(self.shape)

    @property
    def T(self):
        return _apply("transpose", self, axes=None)


class Tensor(TensorOperators):
    """A concrete array taking part in gradient recording.

    Args:
        value: the numpy array.
        ref: reference number in the recorded graph; `None` for an untracked
            tensor (e.g. from `convert_to_tensor`).
    """

    __slots__ = ("value", "ref", "__weakref__")

    def __init__(self, value, ref=None):
        self.value = value
        self.ref = ref

    @property
    def tracked(self):
        """Whether ops on this tensor are recorded by an active tape."""
        return self.ref is not None

    @property
    def shape(self):
        return self.value.shape

    @property
    def dtype(self):
        return self.value.dtype

    @property
    def size(self):
        return self.value.size

    def numpy(self):
        """Returns the underlying numpy array."""
        return self.value

    def __array__(self, dtype=None, copy=None):
        if dtype is None:
            return self.value
        return self.value.astype(dtype, copy=False)

    def __len__(self):
        return len(self.value)

    def __float__(self):
        return float(self.value)

    def __int__(self):
        return int(self.value)

    def __bool__(self):
        return bool(self.value)

    def __repr__(self):
        return f"<Tensor shape={self.shape} dtype={self.dtype}\n{self.value!r}>"


class Variable(Tensor):
    """A named, mutable tensor holding a layer's or optimizer's state.

    Trainable variables are tracked by every active tape without `watch`.
    `assign`, `assign_add` and `assign_sub` write into the existing array, so
    references held elsewhere (optimizer slots, checkpoints) stay valid.

    Args:
        value: initial array (copied).
        name: short name, e.g. `"kernel"`.
        trainable: whether optimizers update it.
        path: the name qualified by its owner, e.g. `"dense/kernel"`.
        constraint: callable mapping the updated array to its projection.
        autocast: whether ops inside an `AutocastScope` read a float variable
            in the scope's dtype (mixed precision).
    """

    __slots__ = ("name", "_trainable", "path", "constraint", "autocast")

    def __init__(self, value, name="variable", trainable=True, path=None, constraint=None,
                 autocast=True):
        super().__init__(np.array(value), new_ref() if trainable else None)
        self.name = name
        self.path = path or name
        self._trainable = bool(trainable)
        self.constraint = constraint  # projection optimizers apply after each update
        self.autocast = bool(autocast)

    @property
    def trainable(self):
        return self._trainable

    @trainable.setter
    def trainable(self, value):
        self._trainable = bool(value)
        self.ref = new_ref() if value else None

    def assign(self, value):
        """Writes `value` (broadcast, cast to this dtype) into the variable."""
        value = np.asarray(value.value if isinstance(value, Tensor) else value)
        if value.shape != self.value.shape and value.size != self.value.size:
            raise ValueError(
                f"Cannot assign a value of shape {value.shape} to variable '{self.path}' "
                f"of shape {self.value.shape}. Received: value.shape={value.shape}"
            )
        self.value[...] = value.reshape(self.value.shape)
        return self

    def assign_add(self, delta):
        self.value += np.asarray(delta.value if isinstance(delta, Tensor) else delta,
                                 dtype=self.value.dtype)
        return self

    def assign_sub(self, delta):
        self.value -= np.asarray(delta.value if isinstance(delta, Tensor) else delta,
                                 dtype=self.value.dtype)
        return self

    def __repr__(self):
        return (f"<Variable path={self.path} shape={self.shape} dtype={self.dtype} "
                f"trainable={self._trainable}>")


class SymbolicTensor(TensorOperators):
    """A shape and dtype without data; `None` marks an unknown dimension."""

    __slots__ = ("shape", "dtype")

    def __init__(self, shape, dtype="float32"):
        self.shape = tuple(None if d is None else int(d) for d in shape)
        self.dtype = np.dtype(dtype)

    def __repr__(self):
        return f"<SymbolicTensor shape={self.shape} dtype={self.dtype.name}>"

    def __iter__(self):
        # Without this, Python would iterate through `__getitem__` until an IndexError
        # that an unknown first dimension never raises.
        if not self.shape or self.shape[0] is None:
            raise TypeError(
                "Cannot iterate over a symbolic tensor whose first dimension is unknown or "
                f"that has no dimensions. Received: shape={self.shape}")
        return (self[i] for i in range(self.shape[0]))


class SymbolicDim(SymbolicTensor):
    """An unknown dimension, as `ops.shape` gives it while a layer is traced.

    It is a 0-d int32 symbolic tensor (Keras's TensorFlow backend gives a
    scalar tensor there too), so it can enter ops. Python arithmetic with
    integers or other unknown dimensions gives another unknown dimension, so
    `ops.reshape(x, (batch, steps * 2, -1))` or `x[:, :steps - 1]` traces;
    the shape rules read it as `None`. When the traced model later runs on
    data, `ops.shape` returns plain integers and none of this is involved.
    Using it where Python needs a number (`range`, `if`, `int`) is an error.
    It compares equal to `None`, the entry it stands for (`ops.shape(x) ==
    (None, 3)` holds as it does for a graph tensor), and to itself only.
    """

    __slots__ = ()

    def __init__(self):
        super().__init__((), "int32")

    def __eq__(self, other):
        return other is None or other is self

    def __ne__(self, other):
        return not self.__eq__(other)

    __hash__ = object.__hash__

    def __repr__(self):
        return "<SymbolicDim (unknown)>"

    def __neg__(self):
        return SymbolicDim()

    def _unknown(self, *args):
        raise TypeError(
            "This dimension is unknown while the layer is traced symbolically (it is None in "
            "the input's shape), so it cannot be used as a Python number. Compute with it "
            "through ops (e.g. `ops.reshape(x, (-1, n))`), give the input a known size, or "
            "override the layer's `compute_output_shape` so that `call` is not traced.")

    __index__ = __int__ = __float__ = __bool__ = _unknown
    __lt__ = __le__ = __gt__ = __ge__ = _unknown


def _dim_arithmetic(name):
    """An operator that keeps an unknown dimension unknown when the other operand is an int."""
    tensor_method = getattr(TensorOperators, name, None)

    def method(self, other):
        if isinstance(other, (int, np.integer, SymbolicDim)) and not isinstance(other, bool):
            return SymbolicDim()
        if tensor_method is None:
            return NotImplemented
        return tensor_method(self, other)

    method.__name__ = name
    return method


for _name in ("__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__",
              "__floordiv__", "__rfloordiv__", "__mod__", "__rmod__"):
    setattr(SymbolicDim, _name, _dim_arithmetic(_name))


def is_unknown_dim(d):
    """Whether a shape entry is unknown: `None` or a `SymbolicDim` (or any symbolic scalar)."""
    return d is None or isinstance(d, SymbolicTensor)


def spec_of(x):
    """Describes `x` for a shape rule: a `SymbolicTensor` for tensors and arrays.

    Python scalars are returned unchanged, because they are "weak" in numpy's
    type promotion (`float32 array * 2.0` stays float32) and rules must see that.
    """
    if isinstance(x, SymbolicTensor) or isinstance(x, (bool, int, float, complex)):
        return x
    if isinstance(x, Tensor):
        return SymbolicTensor(x.value.shape, x.value.dtype)
    arr = np.asarray(x)
    return SymbolicTensor(arr.shape, arr.dtype)


def _apply(name, *inputs, **attrs):
    return _dispatch.apply(name, *inputs, **attrs)


from . import dispatch as _dispatch  # noqa: E402  (dispatch imports this module)
