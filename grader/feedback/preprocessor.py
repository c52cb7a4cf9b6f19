"""The kit's part of nbgrader's ``generate_feedback``: nothing hidden on the page, a tutor's words under each test.

Configured in ``nbgrader_config.py`` (``GenerateFeedback.preprocessors``), so that the stock
command, formgrader's Generate Feedback button and ``python -m grader feedback`` make the same pages.
"""

import html

from nbformat.v4 import new_markdown_cell, new_output
from nbgrader import utils
from nbgrader.preprocessors import ClearHiddenTests, NbGraderPreprocessor

from ..checks.notebook import sources_before
from ..checks.policy import source_outcome
from ..checks.registry import graded_exercise
from ..course import Course
from ..course.review import GRADER_NOTE
from ..records import read, record_path
from ..records.statuses import PENDING, STATUSES
from ..tutor.hidden_tests import clear_hidden_tests
from ..tutor.page import exercise_html, exercise_text, notebook_notes
from .invalid import invalid_notice


def _plain_cell_note(exercise):
    """What a plain test cell's page says under its outputs: that it was judged in the student's process, or why
    its score is not final yet."""
    if exercise.note:
        return f"{exercise.note}."
    status = STATUSES[exercise.status]
    return (
        None if status.real or not status.exercise else f"{status.exercise[0].upper()}{status.exercise[1:]}. {PENDING}"
    )


class KitFeedback(NbGraderPreprocessor):
    """Clears the hidden tests (source and outputs); shows the kit's diagnosis under each kit test cell.

    A kit test cell's outputs (the checks' report) are replaced by the diagnosis from the grading
    record, in a tutor's words; any other test cell keeps its outputs, hidden lines taken out (and says so when
    it was judged in the student's process). A notebook whose
    file could not be read shows what was wrong and what to do, in place of its stand-in's cells.
    """

    def preprocess(self, nb, resources):
        info = resources["nbgrader"]
        path = record_path(Course.of_notebook(self, resources), info["student"], info["notebook"])
        record = read(path) if path.exists() else None
        if record is not None and record.status == "invalid":  # the kit's stand-in: say what to do instead
            nb.cells = [new_markdown_cell(invalid_notice(record))]
            return nb, resources
        nb.cells = [
            cell for cell in nb.cells if not cell.metadata.get(GRADER_NOTE)
        ]  # the grader's note is not the student's
        diagnoses = {exercise.cell: exercise for exercise in record.exercises} if record else {}
        by_name = {exercise.name: exercise for exercise in diagnoses.values()}
        clearer = ClearHiddenTests(parent=self, enforce_metadata=False)
        for cell in nb.cells:
            if not (cell.cell_type == "code" and utils.is_grade(cell) and not utils.is_solution(cell)):
                continue  # hidden tests live in test cells, which nbgrader restored from the instructor's copy
            clear_hidden_tests(cell, clearer)
            grade_id = cell.metadata["nbgrader"]["grade_id"]
            exercise = diagnoses.get(grade_id)
            if exercise is not None and graded_exercise(grade_id):  # a plain test cell keeps its outputs
                calls = source_outcome(exercise.name, sources_before(nb, exercise.name))["reaches"]
                cell.outputs = [
                    new_output(
                        "display_data",
                        data={
                            "text/html": exercise_html(exercise, calls, by_name),
                            "text/plain": exercise_text(exercise, calls, by_name),
                        },
                    )
                ]
            elif exercise is not None and (said := _plain_cell_note(exercise)):
                cell.outputs.append(
                    new_output(
                        "display_data",
                        data={"text/html": f"<p class='kit-note'>{html.escape(said)}</p>", "text/plain": said},
                    )
                )
        if record is not None and (notes := notebook_notes(record)):
            nb.cells.insert(0, new_markdown_cell(notes))
        return nb, resources
