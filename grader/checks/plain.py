"""Plain data that can cross a process boundary: JSON with arrays as raw bytes, never pickle."""

import base64
import json

import numpy as np

DTYPES = frozenset({"bool", "int8", "int16", "int32", "int64", "uint8", "float16", "float32", "float64"})
MAX_ELEMENTS = 4_000_000


class TensorArg:
    """An array that the probe hands to the student's code as a ``torch.Tensor``."""

    def __init__(self, array):
        self.array = np.asarray(array)

    def __eq__(self, other):
        return isinstance(other, TensorArg) and np.array_equal(self.array, other.array)


def call(*args, **kwargs):
    """A case's parameters for calling the student's function: each NumPy array is handed over as a torch.Tensor."""
    return {"args": tuple(TensorArg(a) if isinstance(a, np.ndarray) else a for a in args), "kwargs": kwargs}


def numpy_call(*args, **kwargs):
    """A case's parameters for calling the student's function with NumPy arrays as they are (notebook 03)."""
    return {"args": args, "kwargs": kwargs}


def _encode_array(array):
    if array.dtype.name not in DTYPES:
        raise TypeError(f"unsupported dtype {array.dtype.name}")
    array = np.ascontiguousarray(array)
    return {
        "dtype": array.dtype.name,
        "shape": list(array.shape),
        "data": base64.b64encode(array.tobytes()).decode("ascii"),
    }


def _decode_array(obj):
    dtype, shape = obj["dtype"], obj["shape"]
    if dtype not in DTYPES or not all(isinstance(n, int) and n >= 0 for n in shape):
        raise ValueError("not an array the grader can read")
    if int(np.prod(shape, dtype=np.int64)) > MAX_ELEMENTS:
        raise ValueError("array too large")
    data = base64.b64decode(obj["data"], validate=True)
    return np.frombuffer(data, dtype=dtype).reshape(shape).copy()


def to_plain(value):
    """Turn arrays, tensors-to-be, tuples and dicts into JSON-ready values."""
    if isinstance(value, TensorArg):
        return {"__tensor__": _encode_array(value.array)}
    if isinstance(value, np.ndarray):
        return {"__array__": _encode_array(value)}
    if isinstance(value, np.generic):
        return value.item()
    if isinstance(value, tuple):
        return {"__tuple__": [to_plain(v) for v in value]}
    if isinstance(value, list):
        return [to_plain(v) for v in value]
    if isinstance(value, dict):
        return {"__dict__": {str(k): to_plain(v) for k, v in value.items()}}
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise TypeError(f"not plain data: {type(value).__name__}")


def from_plain(obj):
    """The inverse of :func:`to_plain`; rejects anything it does not know."""
    if isinstance(obj, list):
        return [from_plain(v) for v in obj]
    if isinstance(obj, dict):
        if set(obj) == {"__tensor__"}:
            return TensorArg(_decode_array(obj["__tensor__"]))
        if set(obj) == {"__array__"}:
            return _decode_array(obj["__array__"])
        if set(obj) == {"__tuple__"}:
            return tuple(from_plain(v) for v in obj["__tuple__"])
        if set(obj) == {"__dict__"}:
            return {str(k): from_plain(v) for k, v in obj["__dict__"].items()}
        raise ValueError("not plain data")
    if obj is None or isinstance(obj, (bool, int, float, str)):
        return obj
    raise ValueError("not plain data")


def dumps(value):
    return json.dumps(to_plain(value))


def loads(text):
    return from_plain(json.loads(text))
