"""The op registry: one entry per primitive, forward and gradient side by side.

An `Op` bundles everything the rest of the system needs to know about a
primitive: its forward kernel, its vector-Jacobian product, the rule that
derives output shape and dtype from input specs (used to build functional
models without running anything), and which tensors its backward pass needs,
so the executor can release all the others as soon as the forward has run.

Kernel modules declare ops with `OpRegistry.define`:

    @ops.define("exp", shape=same_spec, save_outputs=(0,))
    def exp(x):
        return np.exp(x)

    @exp.defvjp
    def _exp_vjp(node, g):
        return (g * node.outputs[0],)

Update ops (an optimizer step, a metric's accumulation) write into some of
their inputs instead of returning new arrays. They declare which with
`mutates=(...)`, are never differentiated (`differentiable=False`, which
`define` requires of them) and return None:

    @ops.define("sgd_update", shape=rules.updates_in_place, mutates=(0,),
                differentiable=False)
    def sgd_update(variable, gradient, *, learning_rate):
        variable -= learning_rate * gradient

A second backend starts from another backend's table and replaces only the
kernels it makes faster:

    ops = OpRegistry.inheriting(numpy_backend.ops)

    @ops.override("sgd_update")
    def sgd_update(variable, gradient, *, learning_rate):
        ...  # a compiled loop; the shape rule and declarations are inherited
"""


class Op:
    """A registered primitive.

    Attributes:
        name: registry key, e.g. `"matmul"`.
        forward: `forward(*arrays, **attrs)` returning one array, or a tuple of
            `num_outputs` arrays; when `residual` is true it returns
            `(outputs, residual)` where `residual` is anything the VJP needs.
        vjp: `vjp(node, grad)` returning one gradient (or `None`) per input;
            `grad` is a tuple when the op has several outputs. `None` for ops
            that are not differentiable (argmax, comparisons, casts to int).
        traced_vjp: a VJP written only with registered ops and tensor
            operators, so that when a gradient is itself differentiated
            (nested tapes) the ops it runs are recorded; it receives
            `node.traced()`, whose saved arrays are tracked `Tensor`s. `None`
            when the op supports first-order gradients only.
        shape_rule: `shape_rule(*specs, **attrs)` returning the output spec(s);
            specs have `.shape` (with `None` for unknown dims) and `.dtype`.
        save_inputs / save_outputs: indices of the inputs/outputs the VJP reads.
        num_outputs: number of arrays `forward` returns; `None` when it varies
            with the attributes (e.g. `split`), in which case forward returns a
            tuple.
        residual: whether `forward` also returns a residual for the VJP.
        differentiable: whether the op has a gradient; `False` for ops such as
            argmax and comparisons, and for every update op.
        mutates: indices of the inputs the forward kernel writes into (an
            update op, e.g. an optimizer step); empty for ordinary ops, which
            never write into their inputs. An update op returns None.
    """

    __slots__ = (
        "name", "forward", "vjp", "shape_rule", "save_inputs", "save_outputs",
        "num_outputs", "residual", "differentiable", "traced_vjp", "mutates",
    )

    def __init__(self, name, forward, shape_rule, *, save_inputs=(), save_outputs=(),
                 num_outputs=1, residual=False, differentiable=True, mutates=()):
        if mutates and differentiable:
            raise ValueError(
                f"Op '{name}' writes into its inputs {tuple(mutates)}, so it cannot be "
                "differentiated; declare it with differentiable=False.")
        self.name = name
        self.forward = forward
        self.vjp = None
        self.traced_vjp = None
        self.shape_rule = shape_rule
        self.save_inputs = tuple(save_inputs)
        self.save_outputs = tuple(save_outputs)
        self.num_outputs = num_outputs
        self.residual = residual
        self.differentiable = differentiable
        self.mutates = tuple(mutates)

    def defvjp(self, fn=None, *, traceable=False):
        """Decorator that attaches the VJP to this op; returns `fn` unchanged.

        `@op.defvjp(traceable=True)` declares that `fn` uses only registered
        ops and tensor operators (never numpy on its inputs or in place), so
        it also serves as the op's `traced_vjp`: one definition for first-
        and higher-order gradients.
        """
        if fn is None:
            return lambda f: self.defvjp(f, traceable=traceable)
        if not self.differentiable:
            raise ValueError(f"Op '{self.name}' is declared non-differentiable.")
        self.vjp = fn
        if traceable:
            self.traced_vjp = fn
        return fn

    def deftracedvjp(self, fn):
        """Decorator attaching a traced VJP beside a faster numpy-only `vjp`.

        For ops whose first-order VJP is tuned with in-place numpy (fused
        layers): this second form, written with registered ops, is used only
        when the gradient is itself being differentiated.
        """
        if self.vjp is None:
            raise ValueError(f"Op '{self.name}' needs its VJP before a traced VJP.")
        self.traced_vjp = fn
        return fn

    def __call__(self, *arrays, **attrs):
        """Runs the forward kernel directly on arrays (handy in kernels and tests)."""
        out = self.forward(*arrays, **attrs)
        return out[0] if self.residual else out

    def __repr__(self):
        return f"<Op {self.name}>"


class OpRegistry:
    """A name -> `Op` table; each backend owns one."""

    def __init__(self):
        self._ops = {}

    @classmethod
    def inheriting(cls, base):
        """A registry holding every op of `base`, to override some of them.

        The `Op` objects are shared until `override` replaces one, so the
        base registry is never changed.
        """
        registry = cls()
        registry._ops.update(base._ops)
        return registry

    def define(self, name, *, shape, save_inputs=(), save_outputs=(), num_outputs=1,
               residual=False, differentiable=True, mutates=()):
        """Decorator registering `fn` as the forward kernel of a new op `name`."""

        def decorator(fn):
            if name in self._ops:
                raise ValueError(f"Op '{name}' is already registered.")
            op = Op(name, fn, shape, save_inputs=save_inputs, save_outputs=save_outputs,
                    num_outputs=num_outputs, residual=residual,
                    differentiable=differentiable, mutates=mutates)
            self._ops[name] = op
            return op

        return decorator

    def override(self, name):
        """Decorator replacing the forward kernel of the registered op `name`.

        Everything else is kept: the shape rule, the VJP (which must find what
        it reads: the same saved inputs/outputs, the same residual layout), and
        the declarations (`differentiable`, `mutates`). The new kernel takes the
        same inputs and attributes. The op is copied, so a registry made with
        `inheriting` leaves its base untouched.
        """
        base = self[name]

        def decorator(fn):
            op = Op.__new__(Op)
            for slot in Op.__slots__:
                setattr(op, slot, getattr(base, slot))
            op.forward = fn
            self._ops[name] = op
            return op

        return decorator

    def __getitem__(self, name):
        try:
            return self._ops[name]
        except KeyError:
            raise ValueError(
                f"Unknown op; registered ops are {sorted(self._ops)}. Received: name={name!r}"
            ) from None

    def __contains__(self, name):
        return name in self._ops

    def __iter__(self):
        return iter(self._ops.values())

    def __len__(self):
        return len(self._ops)

    def names(self):
        """Sorted names of all registered ops."""
        return sorted(self._ops)

    def update_ops(self):
        """Names of the ops that write into their inputs (declared with `mutates`)."""
        return sorted(o.name for o in self._ops.values() if o.mutates)

    def missing_vjps(self):
        """Names of differentiable ops that were registered without a VJP."""
        return sorted(o.name for o in self._ops.values() if o.differentiable and o.vjp is None)
