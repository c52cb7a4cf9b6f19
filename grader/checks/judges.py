"""Building blocks for judges: type and shape first, then values, then the likely mistake."""

import numpy as np

from .cases import Mismatch

KIND_NAMES = {"Tensor": "a torch.Tensor", "ndarray": "a NumPy array"}


def show(array):
    """A short printout of an array for a feedback message."""
    if array is None:
        return "None"
    array = np.asarray(array)
    if array.ndim > 2:
        return f"array of shape {tuple(array.shape)}, starting {show(array.reshape(-1, *array.shape[-2:])[0])}"
    return np.array2string(array, precision=4, suppress_small=True, threshold=40, edgeitems=3, separator=", ").replace(
        "\n", " "
    )


def describe_kind(outcome):
    kind = outcome.get("type")
    if kind in KIND_NAMES and outcome.get("shape") is not None:
        return f"{KIND_NAMES[kind]} of shape {tuple(outcome['shape'])} and dtype {outcome.get('dtype')}"
    return f"a value of type {kind}"


def array_of(outcome, kind, shape, dtype=None, what="the result"):
    """The returned values, once the type, the shape and the dtype are right."""
    if outcome.get("type") != kind:
        raise Mismatch(
            f"{what} should be {KIND_NAMES.get(kind, kind)}.",
            expected=KIND_NAMES.get(kind, kind),
            got=describe_kind(outcome),
        )
    if tuple(outcome["shape"]) != tuple(shape):
        raise Mismatch(
            f"{what} has the wrong shape.", expected=f"shape {tuple(shape)}", got=f"shape {tuple(outcome['shape'])}"
        )
    if dtype is not None and not dtype_matches(outcome.get("dtype"), dtype):
        raise Mismatch(f"{what} has the wrong dtype.", expected=f"dtype {dtype}", got=f"dtype {outcome.get('dtype')}")
    values = outcome.get("values")
    if values is None:
        raise Mismatch(f"{what} could not be read back (too large or not numeric).")
    return np.asarray(values)


def dtype_matches(got, wanted):
    if wanted == "floating":
        return got in ("float16", "float32", "float64", "bfloat16")
    if wanted == "integer":
        return got in ("int8", "int16", "int32", "int64", "uint8")
    return got == wanted


def matches(got, candidate, rtol=1e-5, atol=1e-6):
    """True when a candidate (array, or predicate of the values) describes the answer."""
    if callable(candidate):
        return bool(candidate(got))
    candidate = np.asarray(candidate, dtype=np.float64)
    return candidate.shape == got.shape and bool(np.allclose(got, candidate, rtol=rtol, atol=atol, equal_nan=True))


def diagnose(got, diagnoses, rtol=1e-5, atol=1e-6):
    """The first misconception whose wrong answer matches ``got``, or None."""
    for key, candidate in diagnoses:
        try:
            if matches(got, candidate, rtol, atol):
                return key
        except (ValueError, TypeError, FloatingPointError):
            continue
    return None


def close(got, expected, what, rtol=1e-5, atol=1e-6, diagnoses=()):
    """Compare values of the same shape; on a mismatch, name the misconception it matches."""
    got = np.asarray(got, dtype=np.float64)
    expected = np.asarray(expected, dtype=np.float64)
    if got.shape != expected.shape:
        raise Mismatch(
            f"{what} has the wrong shape.",
            expected=f"shape {expected.shape}",
            got=f"shape {got.shape}",
            misconception=diagnose(got, diagnoses, rtol, atol),
        )
    if np.allclose(got, expected, rtol=rtol, atol=atol, equal_nan=False):
        return
    raise Mismatch(
        f"{what} has the wrong values.",
        expected=show(expected),
        got=show(got),
        misconception=diagnose(got, diagnoses, rtol, atol),
    )


def queries_keys_swapped(got, swapped, expected, what, atol=1e-6):
    """Refuse an answer that is ``swapped``, what making the queries with the key weights and the keys with the query
    weights gives, saying so. The notebook's example scores are symmetric: only other weights show this mistake."""
    if np.allclose(got, swapped, atol=atol) and not np.allclose(got, expected, atol=atol):
        raise Mismatch(
            f"{what} looks computed with the queries and the keys swapped: make the queries with the query weights "
            "and the keys with the key weights. The notebook's example cannot show it, as its scores are symmetric.",
            expected=show(expected),
            got=show(got),
        )


def expect(kind, expected, what, dtype="floating", rtol=1e-5, atol=1e-6, diagnoses=()):
    """A judge: the answer is ``kind`` with ``expected``'s shape and values."""
    expected = np.asarray(expected)

    def judge(outcome):
        got = array_of(outcome, kind, expected.shape, dtype, what)
        close(got, expected, what, rtol, atol, diagnoses)

    return judge


def inputs_unchanged(judge, what):
    """``judge``, after refusing an answer that changed its input tensors in place."""

    def checked(outcome):
        if outcome.get("mutated"):
            raise Mismatch(
                f"{what} changed its input tensors in place; compute a new tensor and leave the inputs as they were."
            )
        judge(outcome)

    return checked


def read_source(outcome, name):
    """A source outcome's findings, once ``name`` is defined and implemented."""
    if outcome.get("type") != "source":
        raise Mismatch(f"the code of {name} could not be read.", got=f"a value of type {outcome.get('type')}")
    if not outcome.get("defined"):
        raise Mismatch(
            f"{name} is not defined by a cell of the notebook: define it with `def {name}(...)` in its answer cell."
        )
    if outcome.get("stub"):
        raise Mismatch("not implemented yet: replace `raise NotImplementedError()` with your code.")
    return outcome


def finite(got, what):
    """Values that are all finite; nan or inf from large scores is the unstable softmax."""
    if not np.all(np.isfinite(got)):
        raise Mismatch(
            f"{what} has nan or inf values on large scores.",
            expected="finite values",
            got=show(got),
            misconception="softmax_unstable",
        )
    return got


def parameters_as_wanted(outcome, wanted, what):
    """Exactly the ``wanted`` parameters (name -> shape), every given weight loaded; any buffers are fine."""
    params = {k: list(v) for k, v in outcome.get("params", {}).items()}
    if params != wanted:
        missing = [name for name in wanted if name not in params]
        extra = [name for name in params if name not in wanted]
        wrong = [f"{name} {tuple(params[name])}" for name in wanted if name in params and params[name] != wanted[name]]
        problems = (
            ([f"missing {', '.join(missing)}"] if missing else [])
            + ([f"unexpected {', '.join(extra)}"] if extra else [])
            + ([f"wrong shape: {', '.join(wrong)}"] if wrong else [])
        )
        raise Mismatch(
            f"{what}: the parameters should be exactly these (buffers, such as a mask, are fine).",
            expected=", ".join(f"{n} {tuple(s)}" for n, s in wanted.items()),
            got="; ".join(problems),
        )
    loaded = outcome.get("loaded", {})
    missing = [k for k in loaded.get("missing", []) if k not in outcome.get("buffers", [])]
    if missing or loaded.get("unexpected"):
        raise Mismatch(
            f"{what}: the given weights did not all load into your module's parameters.",
            expected="every weight loaded",
            got="; ".join(
                ([f"not loaded: {', '.join(missing)}"] if missing else [])
                + ([f"no place for: {', '.join(loaded['unexpected'])}"] if loaded.get("unexpected") else [])
            ),
        )
