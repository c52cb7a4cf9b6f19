"""Notebooks nbgrader cannot read are set aside before grading, each with its reason in words
(grader/autograde/run.py: set_aside_invalid): cut-off JSON, JSON that is not a notebook, and a notebook the format's
schema refuses. A notebook that reads is left where it is."""

import json

import pytest
from nbformat.v4 import new_code_cell, new_notebook

from grader import records
from grader.autograde.run import NOT_A_NOTEBOOK, NOT_JSON, set_aside_invalid
from grader.course import Course

BASICS = "01_attention_basics.ipynb"
SCHEMA_REFUSES = new_notebook(cells=[new_code_cell("x = 1")])
SCHEMA_REFUSES.cells[0].execution_count = "one"  # an int or null in the format


@pytest.mark.parametrize(
    "text, reason",
    [
        ('{"cells": [', NOT_JSON),
        ('{"cells": "none", "metadata": 3}', NOT_A_NOTEBOOK),
        (json.dumps(SCHEMA_REFUSES), NOT_A_NOTEBOOK),
    ],
    ids=["cut off", "not a notebook", "refused by the schema"],
)
def test_an_unreadable_notebook_is_set_aside_with_its_reason(course_copy, text, reason):
    course = Course.at(course_copy)
    path = course.submitted("ann") / BASICS
    path.parent.mkdir(parents=True)
    path.write_text(text)
    assert set_aside_invalid(course, "ann", path)
    assert not path.exists() and path.with_name(BASICS + ".invalid").read_text() == text
    record = records.read(records.record_path(course, "ann", BASICS))
    assert (record.status, record.reason) == ("invalid", reason)
    assert record.exercises and all(e.score == 0 for e in record.exercises)


def test_a_notebook_that_reads_is_left_in_place(course_copy):
    course = Course.at(course_copy)
    path = course.submitted("ann") / BASICS
    path.parent.mkdir(parents=True)
    path.write_text(json.dumps(new_notebook(cells=[new_code_cell("x = 1")])))
    assert not set_aside_invalid(course, "ann", path)
    assert path.exists() and not records.record_path(course, "ann", BASICS).exists()
