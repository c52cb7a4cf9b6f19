"""The demo class: one folder of submitted notebooks per student, and the grades each deserves."""

import contextlib
import pathlib

import nbformat

from ..checks.registry import notebooks
from . import expected
from .broken import ANSWER_STATUS, broken_answer, comment_out_demos, tamper, truncate
from .cells import answer_cells, grade_id, isolated, pasted_cells
from .fill import fill, reference_answers
from .mistakes import Mistake
from .plan import ClassPlan
from .roster import DUE, label, make_roster

ROOT = pathlib.Path(__file__).resolve().parents[2]
RELEASE = ROOT / "exercises" / "self_attention"
SOLUTIONS = ROOT / "solutions" / "self_attention"
CALL_BREAKERS = ("loop_call", "crash_call")


class DemoNotebooks:
    """The release and solution notebooks, and what the generator needs from them."""

    def __init__(self, release, solutions):
        self.release = pathlib.Path(release)
        self.notebooks = {nb: nbformat.read(str(self.release / nb), as_version=4) for nb in notebooks()}
        self.solutions = {nb: nbformat.read(str(pathlib.Path(solutions) / nb), as_version=4) for nb in notebooks()}
        self.cells = {nb: answer_cells(self.notebooks[nb]) for nb in self.notebooks}
        self.pasted = {nb: pasted_cells(self.notebooks[nb]) for nb in self.notebooks}
        self.references = {}
        for nb, solution in self.solutions.items():
            by_id = reference_answers(solution)
            cells = {**answer_cells(solution), **pasted_cells(solution)}
            self.references[nb] = {name: by_id[grade_id(cell)] for name, cell in cells.items()}

    def exercises(self):
        return {nb: list(cells) for nb, cells in self.cells.items()}

    def safe(self):
        """(notebook, exercise) pairs no other exercise depends on: safe to hang or crash."""
        return [(nb, name) for nb, cells in self.cells.items() for name in cells if isolated(self.solutions[nb], name)]

    def source(self, nb, name, answer):
        if isinstance(answer, Mistake):
            return answer.source
        if answer == "reference":
            return self.references[nb][name]
        return broken_answer(answer, name, self.cells[nb][name].source, self.references[nb][name])


def _submission(course, nb, submission, correct):
    """The student's notebook, and the grades it deserves.

    ``correct`` holds the exercises the student answered correctly in any notebook: those they paste
    where another notebook asks for them.
    """
    sources = {
        grade_id(course.cells[nb][name]): course.source(nb, name, answer)
        for name, answer in submission.answers.items()
        if answer != "stub"
    }
    sources.update(
        {grade_id(cell): course.references[nb][name] for name, cell in course.pasted[nb].items() if name in correct}
    )
    filled = fill(course.notebooks[nb], sources)
    declared = {
        name: ANSWER_STATUS[a] for name, a in submission.answers.items() if a in ANSWER_STATUS and a != "undefined"
    }
    for name, answer in submission.answers.items():
        if answer in CALL_BREAKERS:
            comment_out_demos(filled, name)
    if submission.breakage == "invalid":
        return truncate(nbformat.writes(filled)), expected.unreadable(filled, "invalid")
    grades = expected.graded(filled, course.release, declared)
    if submission.breakage:
        grades["tampered"] = tamper(filled, submission.breakage, submission.target)
    return nbformat.writes(filled), grades


def _composition(student):
    return {
        "profile": student.profile,
        "notebooks": {
            nb: {
                "answers": {name: label(a) for name, a in s.answers.items()},
                "breakage": s.breakage,
                "target": s.target,
            }
            for nb, s in student.notebooks.items()
        },
    }


def make_class(out_dir, seed=0, release=RELEASE, solutions=SOLUTIONS):
    """Write ``<out_dir>/<student>/<notebook>.ipynb`` (and nbgrader's ``timestamp.txt``); return the plan."""
    out_dir = pathlib.Path(out_dir)
    if out_dir.exists() and any(out_dir.iterdir()):
        raise FileExistsError(f"{out_dir} is not empty")
    with one_torch_thread():
        return _make_class(out_dir, seed, release, solutions)


@contextlib.contextmanager
def one_torch_thread():
    """PyTorch on one thread while the expected grades are computed here, as the sandbox runs students' code: a
    second thread costs more CPU than it saves on arrays this small, and a process that has started one can no
    longer fork (the demo's autograde then starts each grading process as a new interpreter)."""
    import torch

    threads = torch.get_num_threads()
    torch.set_num_threads(1)
    try:
        yield
    finally:
        torch.set_num_threads(threads)


def _make_class(out_dir, seed, release, solutions):
    course = DemoNotebooks(release, solutions)
    students = make_roster(seed, course.exercises(), course.safe())
    grades = {}
    for student in students:
        correct = {name for s in student.notebooks.values() for name, a in s.answers.items() if a == "reference"}
        for nb in notebooks():
            if nb not in student.notebooks:
                grades[student.id, nb] = expected.unreadable(course.notebooks[nb], "missing")
                continue
            text, grades[student.id, nb] = _submission(course, nb, student.notebooks[nb], correct)
            path = out_dir / student.id / nb
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_text(text)
        if student.submitted_at:
            (out_dir / student.id / "timestamp.txt").write_text(student.submitted_at + "\n")
    return ClassPlan(
        seed,
        DUE.isoformat(),
        {s.id: s.submitted_at for s in students if s.submitted_at},
        {s.id: _composition(s) for s in students},
        grades,
    )
