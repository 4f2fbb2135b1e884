"""Reading and writing the HDF5 attributes Keras files carry, in every encoding.

Keras has stored its string attributes in several ways over the years: numpy
fixed-length byte strings (`|S`), variable-length `str`/`bytes`, a single
string instead of a list, an empty float64 array for an empty list, and lists
split over `name0`, `name1`, ... when they exceed HDF5's 64 KiB object-header
limit. Readers here accept all of them and reject anything else with an error
naming the file and the attribute; writers use Keras's own choice (`|S`
arrays, split when large) so both Keras 2 and Keras 3 read our files.
"""

import json

import numpy as np

from ..serialization import limits
from .file_errors import file_error

HDF5_OBJECT_HEADER_LIMIT = 64512
# Far above any real config or name list; a corrupt header declaring more must
# not make h5py allocate (or page through) gigabytes before we can object.
_MAX_ATTRIBUTE_BYTES = 256 * 2**20


def _read_attribute(attrs, name, where):
    """`attrs[name]`, refusing attributes whose declared size is absurd."""
    attr_id = attrs.get_id(name)
    count = int(np.prod(attr_id.shape, dtype=np.float64)) if attr_id.shape else 1
    declared = count * attr_id.dtype.itemsize
    if declared > _MAX_ATTRIBUTE_BYTES:
        raise file_error(where, f"declares {declared} bytes; the file is corrupt")
    return attrs[name]


def _decode(value, where):
    if isinstance(value, (bytes, np.bytes_)):
        try:
            return bytes(value).decode("utf-8")
        except UnicodeDecodeError:
            raise file_error(where, "holds a name that is not valid UTF-8") from None
    if isinstance(value, str):
        try:  # h5py hands undecodable bytes back as surrogate escapes
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise file_error(where, "holds a name that is not valid UTF-8") from None
        return value
    raise file_error(where, f"holds a {type(value).__name__} where a string was expected")


def read_string_list(group, name, source):
    """A list-of-strings attribute of `group`, joined from `name0`, `name1`, ... if split."""
    attrs = group.attrs
    where = f"The file '{source}': attribute '{name}' of '{group.name}'"
    if name in attrs:
        chunks = [_read_attribute(attrs, name, where)]
    elif f"{name}0" in attrs:
        chunks, i = [], 0
        while f"{name}{i}" in attrs:
            chunks.append(_read_attribute(attrs, f"{name}{i}", where))
            i += 1
    else:
        raise file_error(source, f"has no attribute '{name}' on '{group.name}'")
    out = []
    for chunk in chunks:
        if isinstance(chunk, (str, bytes, np.bytes_)):
            out.append(_decode(chunk, where))
            continue
        if not isinstance(chunk, np.ndarray) or chunk.ndim > 1:
            raise file_error(where, "is not a list of strings")
        if chunk.size == 0:  # Keras writes an empty list as an empty float array
            continue
        if chunk.dtype.kind not in "SUO":
            raise file_error(where, f"has dtype {chunk.dtype}, not strings")
        out.extend(_decode(v, where) for v in chunk.reshape(-1))
    return out


def write_string_list(group, name, values):
    """Writes a list of strings as Keras does: `|S` bytes, split past the header limit."""
    encoded = [v.encode("utf-8") for v in values]
    too_long = [v for v in encoded if len(v) > HDF5_OBJECT_HEADER_LIMIT]
    if too_long:
        raise ValueError(f"Names longer than {HDF5_OBJECT_HEADER_LIMIT} bytes cannot be stored "
                         f"in an HDF5 attribute. Received: {too_long[0][:80]!r}...")
    data = np.asarray(encoded) if encoded else np.asarray([], dtype=np.float64)
    chunks = 1
    while data.nbytes / chunks > HDF5_OBJECT_HEADER_LIMIT:
        chunks += 1
    if chunks == 1:
        group.attrs[name] = data
        return
    for i, part in enumerate(np.array_split(data, chunks)):
        group.attrs[f"{name}{i}"] = part


def read_string(attrs, name, source, default=None):
    """A scalar string attribute (bytes or str), or `default` when absent."""
    if name not in attrs:
        return default
    value = _read_attribute(attrs, name, f"The file '{source}': attribute '{name}'")
    if isinstance(value, np.ndarray) and value.shape == ():
        value = value[()]
    return _decode(value, f"The file '{source}': attribute '{name}'")


def parse_json(text, source, what):
    """JSON text that must decode to an object; depth-limited, errors name the file."""
    depth = 0
    in_string = escaped = False
    for ch in text:  # reject absurd nesting before the recursive parser sees it
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            if depth > limits.MAX_JSON_DEPTH:
                raise file_error(source, f"has {what} nested deeper than "
                                         f"{limits.MAX_JSON_DEPTH} levels (the limit "
                                         "`hikeras.serialization.limits.MAX_JSON_DEPTH`)")
        elif ch in "]}":
            depth -= 1
    try:
        value = json.loads(text)
    except (ValueError, RecursionError) as e:
        raise file_error(source, f"has {what} that is not valid JSON ({e})") from None
    if not isinstance(value, dict):
        raise file_error(source, f"has {what} that is not a JSON object "
                                 f"(found {type(value).__name__})")
    try:
        limits.check_string_sizes(value, f"its {what.removeprefix('a ')}")
    except limits.ResourceLimitError as e:
        raise file_error(source, str(e)) from None
    return value
