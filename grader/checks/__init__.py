"""The checks a student may see: the visible half of every exercise, and the machinery."""

from .grade import check

__all__ = ["check"]
