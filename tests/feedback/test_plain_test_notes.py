"""A plain test cell judged in the student's process says so on the student's feedback page (issue 24)."""

import nbformat
from nbformat.v4 import new_code_cell, new_notebook
from traitlets.config import Config

from grader import records
from grader.autograde.plain_tests import judged_inside_note
from grader.course import Course
from grader.feedback.preprocessor import KitFeedback

INSIDE, OUTSIDE = "assert 'double' in get_ipython().user_ns\n", "assert double(2) == 4\n"


def graded_test(source, grade_id):
    cell = new_code_cell(source, outputs=[nbformat.v4.new_output("stream", name="stdout", text="ran\n")])
    cell.metadata["nbgrader"] = {
        "grade_id": grade_id,
        "grade": True,
        "solution": False,
        "locked": True,
        "points": 1,
        "schema_version": 3,
    }
    return cell


def test_only_a_test_cell_judged_in_the_students_process_carries_the_note(tmp_path):
    config = Config()
    config.CourseDirectory.root = str(tmp_path)
    course = Course.running(config, "self_attention")
    records.write(
        course,
        records.NotebookRecord(
            "ada",
            "self_attention",
            "01_attention_basics.ipynb",
            exercises=[
                records.ExerciseRecord(
                    "inside_test", 1.0, 1.0, note=judged_inside_note(INSIDE), grade_id="inside_test"
                ),
                records.ExerciseRecord(
                    "outside_test", 1.0, 1.0, note=judged_inside_note(OUTSIDE), grade_id="outside_test"
                ),
            ],
        ),
    )
    nb = new_notebook(cells=[graded_test(INSIDE, "inside_test"), graded_test(OUTSIDE, "outside_test")])
    resources = {"nbgrader": {"assignment": "self_attention", "student": "ada", "notebook": "01_attention_basics"}}
    nb, _ = KitFeedback(config=config).preprocess(nb, resources)
    inside, outside = nb.cells
    assert inside.outputs[0]["text"] == "ran\n"
    note = inside.outputs[-1]["data"]["text/plain"]
    assert "judged in the student's process: this test cell uses get_ipython()" in note
    assert [o["output_type"] for o in outside.outputs] == ["stream"]
