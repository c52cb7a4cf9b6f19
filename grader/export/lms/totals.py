"""Each student's total for the assignment, from nbgrader's gradebook, with the identities the LMSs need."""
from dataclasses import dataclass, field

from nbgrader.api import Gradebook, MissingEntry

from ... import course as courses
from ...collect.store import identities


@dataclass
class Total:
    student: str
    first_name: str
    last_name: str
    email: str
    lms_user_id: str
    score: float
    max_score: float
    identity: dict = field(default_factory=dict)  # the LMS identity collect parsed, if any

    def lms_id(self, lms):
        """The student's id in ``lms``: the one collect read from that LMS's download (an anonymous id as the
        download gives it), else the roster's."""
        if self.identity.get("lms") == lms and self.identity.get("user_id"):
            return self.identity["user_id"]
        return self.lms_user_id


def totals(course, assignment):
    """[Total] for every student of the gradebook, like nbgrader's own CSV export: the score less the late
    penalty (never below zero), zero for a student with no submission."""
    known = identities(course, assignment)
    found = []
    with courses.venv_on_path(), Gradebook(courses.course_directory(course).db_url) as gradebook:
        max_score = gradebook.find_assignment(assignment).max_score
        for student in gradebook.students:
            try:
                submission = gradebook.find_submission(assignment, student.id)
                score = max(0.0, submission.score - submission.late_submission_penalty)
            except MissingEntry:
                score = 0.0
            found.append(Total(student.id, student.first_name or "", student.last_name or "", student.email or "",
                               student.lms_user_id or "", score, max_score, known.get(student.id, {})))
    return sorted(found, key=lambda t: t.student)
