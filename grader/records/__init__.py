"""The grading record of one submitted notebook: statuses, diagnoses and messages, as JSON.

nbgrader's gradebook holds the scores; this record adds what the gradebook cannot say:
why a notebook or a test cell could not be graded, which nbgrader cells the student changed, each
failed part's message and misconception, the sandbox's isolation level (what each status means is in
grader.records.statuses). The verbs join it to the gradebook by (student, notebook, grade_id) (see
grader.course.grades) and take every score from the gradebook; the scores kept here are the sandbox's own
account. None of it holds the source of a hidden test.
"""

import json
import os
import pathlib
from dataclasses import asdict, dataclass, field

from . import statuses
from .statuses import GRADED

TEST_CELL = "test cell"


def changed_cell(change):
    """A ``tampered`` entry in words: 'the answer cell softmax_scores was duplicated'. An entry is {"grade_id",
    "change": edited|deleted|duplicated|relabelled|added, "cell": the cell's kind, absent for a test cell}."""
    return f"the {change.get('cell', TEST_CELL)} {change.get('grade_id') or '(no id)'} was {change.get('change')}"


@dataclass
class PartRecord:
    title: str
    points: float
    score: float
    hidden: bool
    case: str | None = None
    message: str | None = None
    misconception: str | None = None


@dataclass
class ExerciseRecord:
    name: str
    score: float
    max_score: float
    status: str = GRADED
    reason: str | None = None
    parts: list[PartRecord] = field(default_factory=list)
    note: str | None = None
    grade_id: str | None = None  # the test cell's nbgrader grade_id (older records: ``<name>_test``)

    @property
    def cell(self):
        """The grade_id of the test cell: the key that joins this record to the gradebook."""
        return self.grade_id or f"{self.name}_test"


@dataclass
class NotebookRecord:
    student: str
    assignment: str
    notebook: str
    status: str = GRADED
    reason: str | None = None
    seconds: float = 0.0
    isolation: str | None = None  # the sandbox's isolation level (see grader/sandbox)
    tampered: list[dict] = field(default_factory=list)  # see changed_cell
    exercises: list[ExerciseRecord] = field(default_factory=list)

    @property
    def score(self):
        return sum(e.score for e in self.exercises)

    @property
    def needs_attention(self):
        """True when a status or a changed cell leaves the instructor something to do."""
        return statuses.needs_attention(self.status, *(e.status for e in self.exercises)) or bool(self.tampered)


def record_path(course, student, notebook):
    """Where the record of ``student``'s ``notebook`` of a :class:`~grader.course.Course` is kept."""
    return course.grading / student / (pathlib.Path(notebook).stem + ".json")


def write(course, record):
    """Write atomically, so that a killed grader never leaves half a record."""
    path = record_path(course, record.student, record.notebook)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(asdict(record), indent=1))
    os.replace(tmp, path)
    return path


def _from_dict(data):
    exercises = [ExerciseRecord(**{**e, "parts": [PartRecord(**p) for p in e["parts"]]}) for e in data["exercises"]]
    return NotebookRecord(**{**data, "exercises": exercises})


def read(path):
    return _from_dict(json.loads(pathlib.Path(path).read_text()))


def read_all(course):
    """Every record of the course's assignment, sorted by student and notebook."""
    return [read(p) for p in sorted(course.grading.glob("*/*.json")) if not p.parent.name.startswith(".")]
