"""How a student checks a whole notebook, in one wording: the student README (grader/release/student_files.py) and
the instructions at the top of each notebook, which the release writes (:class:`SelfCheckInInstructions`).

The self-check runs from the top of the folder that the student's zip unpacks into (``<assignment>-student/``,
grader/release/bundle.py), where every notebook is ``exercises/<assignment>/<notebook>.ipynb``.
"""

import re

from nbgrader.preprocessors import NbGraderPreprocessor

TOP_FOLDER = "{assignment}-student"
SELF_CHECK = (
    "**Check the whole notebook.** Save it, then in a terminal, in the top folder of the kit you unzipped "
    "(`{top}`, where `README.md` is), run `pytest exercises/{assignment}/{notebook}`."
)
RUN_ALL = (
    "pytest shows every exercise at once, passed or failed. Jupyter's *Run All* stops at the first test cell that "
    "ends in an error, so it does not run the checks below it."
)
# The paragraph SELF_CHECK writes, whatever its words were: from its lead to the next blank line.
PARAGRAPH = re.compile(r"^\*\*Check the whole notebook\.\*\*.*?(?=\n\s*\n|\Z)", re.MULTILINE | re.DOTALL)


def top_folder(assignment):
    """The folder that the student's zip unpacks into."""
    return TOP_FOLDER.format(assignment=assignment)


def self_check(assignment, notebook):
    """The self-check's paragraph for ``notebook`` (its file name, ``<notebook>.ipynb`` in the README)."""
    return SELF_CHECK.format(top=top_folder(assignment), assignment=assignment, notebook=notebook)


class SelfCheckInInstructions(NbGraderPreprocessor):
    """In the notebook's first Markdown cell, the self-check's paragraph written over the one there (a notebook
    without one is left as it is: a course of its own may not use the kit's self-check)."""

    def preprocess(self, nb, resources):
        info = resources.get("nbgrader", {})
        first = next((cell for cell in nb.cells if cell.cell_type == "markdown"), None)
        if first is not None and "assignment" in info and "notebook" in info:
            paragraph = self_check(info["assignment"], f"{info['notebook']}.ipynb")
            first.source = PARAGRAPH.sub(lambda _: paragraph, first.source, count=1)
        return nb, resources
