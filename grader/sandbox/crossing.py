"""Values that cross between the student's process and the judge (judge.py), as JSON: numbers, strings, lists,
tuples, dicts, arrays and tensors by value, a module by its name, anything else as a handle that stays where it
was made. Never pickle: decoding builds nothing but these, so no code of the other side runs.

Only exact built-in types cross by value: a subclass of ``int``, ``str`` or ``list`` (whose ``__eq__`` could say
anything) crosses as a handle. Arrays and tensors cross as their numbers (``grader/checks/plain.py``).
"""
import types

import numpy as np
import torch

from ..checks import plain

SCALARS = (type(None), bool, int, float, str)
MAX_DEPTH = 20
MAX_ITEMS = 100_000


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
    if kind is slice:
        return {"__slice__": [encode(part, other, depth + 1) for part in (value.start, value.stop, value.step)]}
    if value is Ellipsis:
        return {"__ellipsis__": True}
    if isinstance(value, np.generic) and type(value).__module__ == "numpy" and value.dtype.name in plain.DTYPES:
        return value.item()
    array = _numbers(value)
    if array is not None:
        return plain.to_plain(plain.TensorArg(array) if isinstance(value, torch.Tensor) else array)
    return other(value)


def _numbers(value):
    """The NumPy array of an array or a tensor whose numbers can cross, else None."""
    try:
        if isinstance(value, torch.Tensor):
            tensor = torch.Tensor.detach(value).cpu()
            if tensor.dtype == torch.bfloat16:
                tensor = tensor.float()
            array = tensor.numpy()
        elif isinstance(value, np.ndarray):
            array = np.asarray(value)
        else:
            return None
    except Exception:
        return None
    if type(array) is not np.ndarray or array.dtype.name not in plain.DTYPES or array.size > plain.MAX_ELEMENTS:
        return None
    return array


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
    if set(obj) == {"__slice__"} and type(obj["__slice__"]) is list and len(obj["__slice__"]) == 3:
        return slice(*(decode(part, other, depth + 1) for part in obj["__slice__"]))
    if obj == {"__ellipsis__": True}:
        return Ellipsis
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
