"""The misconception catalogue's wrong answers, run on a hidden case's own inputs: what a student who makes the
mistake returns there, for the judges to recognise it (``grader/hidden/wrong_answers.py``)."""

import warnings

import torch

from . import wrong_answers


def diagnosis(key, exercise, name, *args, **kwargs):
    """``[(key, what the wrong answer name to exercise returns on these arguments)]``, its result as a NumPy
    array; ``[]`` when it cannot take them (it raises, as on shapes that do not multiply)."""
    answer = wrong_answers.answer(key, exercise, name)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UserWarning)  # softmax without dim warns, as it does in a notebook
        try:
            result = answer(*args, **kwargs)
        except (RuntimeError, ValueError):
            return []
    return [(key, result.numpy() if isinstance(result, torch.Tensor) else result)]
