"""Mutations of saved files for the fuzz campaign (`fuzz_campaign`).

A mutant is a dict `{relative path: bytes}`: the files of one saved model
(one file, or a sharded index with its shards), changed in one way. Each
mutant is made from its own `random.Random`, so any worker can rebuild mutant
`i` of a source without the others. Kinds:

- bytes: bit flips, a zeroed 4 KiB block, truncation, an overwritten run;
- json: an edit of the JSON inside (an `.h5`'s `model_config`/`training_config`,
  a `.keras`'s `config.json`, a sharded index): a wrong type, a huge size,
  deep nesting, a missing key, a reversed or repeated list, a hostile string;
- h5: a structural edit of an HDF5 file (a deleted object, a dataset of
  another shape or dtype or a huge declared size, an attribute of the wrong type);
- zip: a `.keras` member dropped, renamed, repeated, re-compressed, replaced
  by a mutant (with a valid CRC), or an extra member outside the archive.
"""

import copy
import io
import json
import zipfile

import h5py
import numpy as np

_BLOCK = 4096
_WRONG_TYPES = ["x", 3.5, -1, 0, True, None, [], {}, [1, 2], {"class_name": "Dense"}]
_HUGE = [2**40, 10**18, -(2**63), 1e308, 2**31, 65536 * 65536]
_STRINGS = ["", "../../etc/passwd", "/dev/zero", "é\u0000\udcff", "x" * 100_000,
            "Dense", "__keras_tensor__", "keras.layers"]


def byte_mutant(data, rng):
    """One of: bit flips, a zeroed 4 KiB block, truncation, an overwritten run."""
    buf = bytearray(data)
    kind = rng.randrange(4)
    if kind == 0:
        for _ in range(rng.randint(1, 8)):
            i = rng.randrange(len(buf))
            buf[i] ^= 1 << rng.randrange(8)
        return bytes(buf), "bit flips"
    if kind == 1:
        start = _BLOCK * rng.randrange(max(1, -(-len(buf) // _BLOCK)))
        buf[start:start + _BLOCK] = bytes(len(buf[start:start + _BLOCK]))
        return bytes(buf), f"zeroed block at {start}"
    if kind == 2:
        return bytes(buf[:rng.randrange(len(buf))]), "truncated"
    i = rng.randrange(len(buf))
    n = min(rng.randint(1, 64), len(buf) - i)
    buf[i:i + n] = bytes(rng.randrange(256) for _ in range(n))
    return bytes(buf), "overwritten run"


def json_mutant(text, rng):
    """The JSON `text` with one hostile edit, as text."""
    value = json.loads(text)
    slots = list(_slots(value))
    if not slots:
        return "[]", "json replaced"
    container, key = rng.choice(slots)
    kind = rng.randrange(7)
    if kind == 0:
        container[key] = copy.deepcopy(rng.choice(_WRONG_TYPES))
        what = "wrong type"
    elif kind == 1:
        container[key] = rng.choice(_HUGE)
        what = "huge size"
    elif kind == 2:
        depth = rng.choice([50, 99, 150, 2000])
        return (text.replace(json.dumps(container[key]), "[" * depth + "1" + "]" * depth, 1),
                "deep nesting")
    elif kind == 3:
        del container[key]
        what = "missing key"
    elif kind == 4 and isinstance(container[key], list):
        container[key] = list(reversed(container[key]))
        what = "reversed list"
    elif kind == 5 and isinstance(container[key], list) and container[key]:
        container[key] = container[key] + container[key][:1]
        what = "repeated entry"
    else:
        container[key] = rng.choice(_STRINGS)
        what = "hostile string"
    return json.dumps(value), what


def _slots(value):
    """Every `(container, key)` below `value`, in a fixed order."""
    stack = [value]
    while stack:
        node = stack.pop()
        items = node.items() if isinstance(node, dict) else enumerate(node)
        for key, child in items:
            yield node, key
            if isinstance(child, (dict, list)):
                stack.append(child)


def h5_mutant(data, rng, json_attributes=()):
    """The HDF5 file `data` with one structural edit (or a JSON attribute edited)."""
    with h5py.File(io.BytesIO(data), "r") as f:
        objects = []
        f.visititems(lambda name, obj: objects.append((name, isinstance(obj, h5py.Dataset))))
        present = [a for a in json_attributes if a in f.attrs]
    buffer = io.BytesIO(data)
    with h5py.File(buffer, "r+") as f:
        if present and rng.random() < 0.5:
            name = rng.choice(present)
            text = f.attrs[name]
            text = text.decode("utf-8") if isinstance(text, bytes) else str(text)
            mutated, what = json_mutant(text, rng)
            f.attrs[name] = mutated
            what = f"{name}: {what}"
        else:
            what = _edit_h5_object(f, objects, rng)
    return buffer.getvalue(), what


def _edit_h5_object(f, objects, rng):
    name, is_dataset = rng.choice(objects)
    kind = rng.randrange(6)
    parent, _, leaf = name.rpartition("/")
    group = f[parent] if parent else f
    if kind == 0:
        del group[leaf]
        return f"deleted {name}"
    if kind == 1 and is_dataset:
        shape = f[name].shape
        del group[leaf]
        new_shape = rng.choice([(), (1,), tuple(d + 1 for d in shape), shape[::-1] + (2,)])
        group.create_dataset(leaf, data=np.ones(new_shape, "f4"))
        return f"{name}: shape {new_shape}"
    if kind == 2 and is_dataset:
        data = f[name][()]
        del group[leaf]
        dtype = rng.choice(["i8", "f2", "f8", "u8", "?", "S4"])
        group.create_dataset(leaf, data=np.asarray(data).astype(dtype))
        return f"{name}: dtype {dtype}"
    if kind == 3 and is_dataset:
        del group[leaf]
        group.create_dataset(leaf, shape=rng.choice([(10**9,), (2**20, 2**20)]), dtype="f4",
                             chunks=True)
        return f"{name}: huge declared shape"
    if kind == 4:
        del group[leaf]
        group[leaf] = h5py.SoftLink(rng.choice(["/nowhere", "/" + name]))
        return f"{name}: dangling or looping soft link"
    obj = f[name]
    attrs = list(obj.attrs) or list(f.attrs)
    target = obj if obj.attrs else f
    if not attrs:
        return f"{name}: unchanged"
    attribute = rng.choice(attrs)
    target.attrs[attribute] = rng.choice([np.arange(3), np.zeros((2, 2)), b"\xff\xfe", 7,
                                          "x" * 70_000, np.array([b"a", b""])])
    return f"{name}: attribute {attribute} retyped"


def zip_mutant(data, rng, json_members=("config.json",), h5_members=("model.weights.h5",)):
    """The `.keras` archive `data` with one member-level edit; CRCs stay valid."""
    with zipfile.ZipFile(io.BytesIO(data)) as z:
        members = [(info, z.read(info)) for info in z.infolist()]
    kind = rng.randrange(7)
    index = rng.randrange(len(members))
    info, content = members[index]
    if kind == 0:
        del members[index]
        what = f"dropped {info.filename}"
    elif kind == 1:
        members[index] = (_renamed(info, rng.choice(["../evil", "/abs", "x\\y", "Config.json",
                                                     info.filename + "/"])), content)
        what = f"renamed {info.filename}"
    elif kind == 2:
        members.append(members[index])
        what = f"repeated {info.filename}"
    elif kind == 3:
        info = _renamed(info, info.filename)
        info.compress_type = rng.choice([zipfile.ZIP_DEFLATED, zipfile.ZIP_BZIP2,
                                         zipfile.ZIP_LZMA])
        members[index] = (info, content)
        what = f"recompressed {info.filename}"
    elif kind == 4 and info.filename in json_members:
        text, what = json_mutant(content.decode("utf-8"), rng)
        members[index] = (info, text.encode("utf-8"))
        what = f"{info.filename}: {what}"
    elif kind == 5 and info.filename in h5_members:
        content, what = (h5_mutant(content, rng) if rng.random() < 0.5
                         else byte_mutant(content, rng))
        members[index] = (info, content)
        what = f"{info.filename}: {what}"
    else:
        extra = zipfile.ZipInfo(rng.choice(["../outside.txt", "assets/../../x", "assets/a/b"]))
        members.append((extra, b"payload"))
        what = f"extra member {extra.filename}"
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as z:
        for member, content in members:
            z.writestr(member, content)
    return out.getvalue(), what


def _renamed(info, name):
    new = zipfile.ZipInfo(name, date_time=info.date_time)
    new.compress_type = info.compress_type
    return new
