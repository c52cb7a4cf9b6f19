"""Values that cross between the student's process and the judge (judge.py), as JSON: numbers, strings, lists,
tuples, dicts, NumPy scalars, NumPy arrays of any dtype but ``object`` and tensors by value; anything else as a
handle that stays where it was made. Never pickle: decoding builds nothing but these, so no code of the other side
runs, and no name that crosses picks code to run: a dtype is one of a fixed list (or a string kind with a length),
a module's name is only looked up among the modules the receiving side already has (``other``).

Only exact built-in types cross by value: a subclass of ``int``, ``str`` or ``list`` (whose ``__eq__`` could say
anything) crosses as a handle. Arrays and tensors cross as their numbers (``grader/checks/plain.py``).
"""

import base64
import types

import numpy as np
import torch

from ..checks import plain

SCALARS = (type(None), bool, int, float, str)
MAX_DEPTH = 20
MAX_ITEMS = 100_000
NUMBERS = plain.DTYPES | {"uint16", "uint32", "uint64", "complex64", "complex128"}
STRING_KINDS = {"U": str, "S": bytes}


class _Missing:
    """No such name in the student's namespace, or an iterator's end: said as ``{"missing": true}``."""


MISSING = _Missing()


class CannotCross(TypeError):
    """A value that has no crossing form."""


def encode(value, other, depth=0):
    """``value`` as JSON; ``other(value)`` encodes what is not data (a handle, a module), or raises CannotCross."""
    kind = type(value)
    if kind in SCALARS:
        return value
    if depth > MAX_DEPTH:
        return other(value)
    if kind in (list, tuple) and len(value) <= MAX_ITEMS:
        items = [encode(item, other, depth + 1) for item in value]
        return items if kind is list else {"__tuple__": items}
    if kind is dict and len(value) <= MAX_ITEMS:
        return {"__dict__": [[encode(k, other, depth + 1), encode(v, other, depth + 1)] for k, v in value.items()]}
    if kind is bytes and len(value) <= plain.MAX_ELEMENTS:
        return {"__bytes__": base64.b64encode(value).decode("ascii")}
    if kind is slice:
        return {"__slice__": [encode(part, other, depth + 1) for part in (value.start, value.stop, value.step)]}
    if value is Ellipsis:
        return {"__ellipsis__": True}
    if isinstance(value, np.generic) and type(value).__module__ == "numpy":
        array = _array_form(np.asarray(value))
        if array is not None:
            return {"__scalar__": array}
    if isinstance(value, torch.Tensor):
        array = _tensor_numbers(value)
        return plain.to_plain(plain.TensorArg(array)) if array is not None else other(value)
    if type(value) is np.ndarray:
        array = _array_form(value)
        if array is not None:
            return {"__numpy__": array}
    return other(value)


def _tensor_numbers(value):
    """The NumPy array of a tensor whose numbers can cross, else None."""
    try:
        tensor = torch.Tensor.detach(value).cpu()
        if tensor.dtype == torch.bfloat16:
            tensor = tensor.float()
        array = tensor.numpy()
    except Exception:
        return None
    ok = type(array) is np.ndarray and array.dtype.name in plain.DTYPES and array.size <= plain.MAX_ELEMENTS
    return array if ok else None


def _array_form(array):
    """A NumPy array as JSON: numbers as bytes, strings as a list; None for ``object`` and other dtypes."""
    if array.size > plain.MAX_ELEMENTS:
        return None
    dtype = array.dtype
    if dtype.name in NUMBERS:
        data = np.ascontiguousarray(array).tobytes()
        return {"dtype": dtype.name, "shape": list(array.shape), "data": base64.b64encode(data).decode("ascii")}
    if dtype.kind in STRING_KINDS and dtype.byteorder in ("=", "|", "<"):
        items = array.reshape(-1).tolist()
        if dtype.kind == "S":
            items = [base64.b64encode(item).decode("ascii") for item in items]
        return {
            "dtype": dtype.kind,
            "length": dtype.itemsize // (4 if dtype.kind == "U" else 1),
            "shape": list(array.shape),
            "items": items,
        }
    return None


def _from_array_form(obj):
    """The NumPy array :func:`_array_form` made; ValueError for anything else."""
    if (
        type(obj) is not dict
        or type(obj.get("shape")) is not list
        or not all(type(n) is int and n >= 0 for n in obj["shape"])
    ):
        raise ValueError("not an array")
    shape = obj["shape"]
    if int(np.prod(shape, dtype=np.int64)) > plain.MAX_ELEMENTS:
        raise ValueError("array too large")
    dtype = obj.get("dtype")
    if dtype in NUMBERS and set(obj) == {"dtype", "shape", "data"} and type(obj["data"]) is str:
        return np.frombuffer(base64.b64decode(obj["data"], validate=True), dtype=dtype).reshape(shape).copy()
    if (
        dtype in STRING_KINDS
        and set(obj) == {"dtype", "length", "shape", "items"}
        and type(obj["length"]) is int
        and 0 <= obj["length"] <= 1 << 20
        and type(obj["items"]) is list
        and all(type(item) is str for item in obj["items"])
    ):
        items = obj["items"] if dtype == "U" else [base64.b64decode(item, validate=True) for item in obj["items"]]
        return np.array(items, dtype=f"{dtype}{obj['length'] or 1}").reshape(shape)
    raise ValueError("not an array the judge can read")


def decode(obj, other, depth=0):
    """The value ``obj`` encodes; ``other(obj)`` decodes a handle or a module. Raises ValueError on anything
    that is not a crossing form."""
    if type(obj) in SCALARS:
        return obj
    if depth > MAX_DEPTH + 2:
        raise ValueError("nested too deeply")
    if type(obj) is list:
        return [decode(item, other, depth + 1) for item in obj]
    if type(obj) is not dict or len(obj) > 4:
        raise ValueError("not a crossing form")
    if set(obj) == {"__tuple__"} and type(obj["__tuple__"]) is list:
        return tuple(decode(item, other, depth + 1) for item in obj["__tuple__"])
    if set(obj) == {"__dict__"} and type(obj["__dict__"]) is list:
        pairs = obj["__dict__"]
        if not all(type(pair) is list and len(pair) == 2 for pair in pairs):
            raise ValueError("a dict's items are not pairs")
        return {_key(decode(k, other, depth + 1)): decode(v, other, depth + 1) for k, v in pairs}
    if set(obj) == {"__bytes__"} and type(obj["__bytes__"]) is str:
        return base64.b64decode(obj["__bytes__"], validate=True)
    if set(obj) == {"__slice__"} and type(obj["__slice__"]) is list and len(obj["__slice__"]) == 3:
        return slice(*(decode(part, other, depth + 1) for part in obj["__slice__"]))
    if obj == {"__ellipsis__": True}:
        return Ellipsis
    if set(obj) == {"__numpy__"}:
        return _from_array_form(obj["__numpy__"])
    if set(obj) == {"__scalar__"}:
        return _from_array_form(obj["__scalar__"])[()]
    if set(obj) in ({"__array__"}, {"__tensor__"}):
        array = plain.from_plain(obj)
        return torch.from_numpy(array.array) if isinstance(array, plain.TensorArg) else array
    return other(obj)


def _key(value):
    try:
        hash(value)
    except TypeError:
        raise ValueError("a dict key that cannot be hashed") from None
    return value


def module_name(value):
    """The name a module crosses by, or None for anything that is not a plain module with a name."""
    if type(value) is types.ModuleType:
        name = vars(value).get("__name__")
        if type(name) is str and name.isascii() and len(name) < 200:
            return name
    return None
