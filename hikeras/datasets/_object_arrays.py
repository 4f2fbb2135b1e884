"""Reading object arrays from `.npz` files without unpickling them.

numpy stores an array of Python objects (IMDB's variable-length reviews are
lists of ints) as a pickle. `pickle.load` would execute whatever callables
the file names, so a tampered cache file could run code. This module
interprets the pickle opcodes itself and understands only plain data
(ints, floats, strings, bytes, lists, tuples, None, booleans) and the three
numpy names an object array's pickle uses (`_reconstruct`, `ndarray`,
`dtype`), which it rebuilds as data instead of calling. Any other name or
opcode is refused.
"""

import io
import struct
import zipfile

import numpy as np

_ALLOWED_GLOBALS = {
    ("numpy.core.multiarray", "_reconstruct"), ("numpy._core.multiarray", "_reconstruct"),
    ("numpy", "ndarray"), ("numpy", "dtype"),
}
_MARK = object()


class _Global:
    def __init__(self, module, name):
        if (module, name) not in _ALLOWED_GLOBALS:
            raise ValueError(
                "Refusing to load an object array whose pickle refers to "
                f"{module}.{name}: only plain data is accepted. Received: {module}.{name}"
            )
        self.name = name


class _ArrayStub:
    """An ndarray being rebuilt: `BUILD` gives its shape, dtype and items."""

    def __init__(self):
        self.value = None


def _read_pickle(data):
    """The object described by the pickle `data`, restricted to plain data and arrays."""
    stream = io.BytesIO(data)
    stack, memo = [], {}

    def read(n):
        chunk = stream.read(n)
        if len(chunk) != n:
            raise ValueError("Truncated object array data. Received: a pickle that ends early")
        return chunk

    def unpack(fmt):
        return struct.unpack(fmt, read(struct.calcsize(fmt)))[0]

    def pop_mark():
        items = []
        while True:
            item = stack.pop()
            if item is _MARK:
                return items[::-1]
            items.append(item)

    def reduce(func, args):
        if not isinstance(func, _Global):
            raise ValueError(f"Unsupported call in object array data. Received: {func!r}")
        if func.name == "_reconstruct":
            return _ArrayStub()
        if func.name == "dtype":
            return np.dtype(args[0])
        raise ValueError(f"Unsupported call in object array data. Received: {func.name}")

    def build(obj, state):
        if isinstance(obj, np.dtype):
            return obj
        if not isinstance(obj, _ArrayStub):
            raise ValueError(f"Unsupported BUILD target in object array data. Received: {obj!r}")
        _, shape, dtype, fortran, payload = state
        if not isinstance(dtype, np.dtype) or dtype.kind != "O" or not isinstance(payload, list):
            raise ValueError(f"Expected an object array. Received: dtype {dtype!r}")
        array = np.empty(len(payload), dtype=object)
        array[:] = payload
        obj.value = array.reshape(shape, order="F" if fortran else "C")
        return obj

    simple = {
        b"N": lambda: None, b"\x88": lambda: True, b"\x89": lambda: False,
        b"K": lambda: unpack("<B"), b"M": lambda: unpack("<H"), b"J": lambda: unpack("<i"),
        b"G": lambda: unpack(">d"),
        b"\x8a": lambda: int.from_bytes(read(unpack("<B")), "little", signed=True),
        b"\x8b": lambda: int.from_bytes(read(unpack("<i")), "little", signed=True),
        b"\x8c": lambda: read(unpack("<B")).decode("utf-8"),
        b"X": lambda: read(unpack("<I")).decode("utf-8"),
        b"\x8d": lambda: read(unpack("<Q")).decode("utf-8"),
        b"U": lambda: read(unpack("<B")).decode("latin-1"),
        b"T": lambda: read(unpack("<I")).decode("latin-1"),
        b"C": lambda: read(unpack("<B")), b"B": lambda: read(unpack("<I")),
        b"\x8e": lambda: read(unpack("<Q")),
        b"]": list, b")": tuple,
    }
    while True:
        op = read(1)
        if op in simple:
            stack.append(simple[op]())
        elif op == b"\x80":
            read(1)  # protocol number
        elif op == b"\x95":
            read(8)  # frame length
        elif op == b"(":
            stack.append(_MARK)
        elif op == b"a":
            value = stack.pop()
            stack[-1].append(value)
        elif op == b"e":
            items = pop_mark()
            stack[-1].extend(items)
        elif op == b"l":
            stack.append(pop_mark())
        elif op == b"t":
            stack.append(tuple(pop_mark()))
        elif op in (b"\x85", b"\x86", b"\x87"):
            n = {b"\x85": 1, b"\x86": 2, b"\x87": 3}[op]
            items = stack[-n:]
            del stack[-n:]
            stack.append(tuple(items))
        elif op == b"\x94":
            memo[len(memo)] = stack[-1]
        elif op in (b"q", b"r", b"p"):
            key = unpack("<B") if op == b"q" else unpack("<I") if op == b"r" else int(
                stream.readline())
            memo[key] = stack[-1]
        elif op in (b"h", b"j", b"g"):
            key = unpack("<B") if op == b"h" else unpack("<I") if op == b"j" else int(
                stream.readline())
            stack.append(memo[key])
        elif op == b"c":
            module = stream.readline().decode("ascii").strip()
            stack.append(_Global(module, stream.readline().decode("ascii").strip()))
        elif op == b"\x93":
            name = stack.pop()
            stack.append(_Global(stack.pop(), name))
        elif op == b"R":
            args = stack.pop()
            stack.append(reduce(stack.pop(), args))
        elif op == b"b":
            state = stack.pop()
            stack[-1] = build(stack[-1], state)
        elif op == b"0":
            stack.pop()
        elif op == b".":
            result = stack.pop()
            return result.value if isinstance(result, _ArrayStub) else result
        else:
            raise ValueError(
                f"Unsupported pickle opcode {op!r} in object array data: only plain data "
                f"is accepted. Received: opcode {op!r}"
            )


def load_npz_array(path, key):
    """Array `key` of the `.npz` at `path`; object arrays are read without unpickling."""
    with zipfile.ZipFile(path) as archive:
        names = {name[:-4] if name.endswith(".npy") else name: name
                 for name in archive.namelist()}
        if key not in names:
            raise ValueError(f"{path} has no array named {key!r}. Received: arrays "
                             f"{sorted(names)}")
        with archive.open(names[key]) as member:
            data = member.read()
    stream = io.BytesIO(data)
    version = np.lib.format.read_magic(stream)
    readers = {(1, 0): np.lib.format.read_array_header_1_0,
               (2, 0): np.lib.format.read_array_header_2_0}
    if version not in readers:
        raise ValueError(f"{path}: unsupported .npy format version {version} for {key!r}. "
                         "Received: a header this reader does not know")
    shape, _, dtype = readers[version](stream)
    if dtype.kind != "O":
        return np.load(io.BytesIO(data), allow_pickle=False)
    array = _read_pickle(data[stream.tell():])
    if not isinstance(array, np.ndarray) or array.shape != tuple(shape):
        raise ValueError(f"{path}: array {key!r} does not match its header shape {shape}. "
                         f"Received: {type(array).__name__}")
    return array
