"""Each student's total for the assignment, from nbgrader's gradebook, with the identities the LMSs need."""

from dataclasses import dataclass, field

from ...course.gradebook import assignment_scores
from ...course.identities import identities


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


def totals(course):
    """[Total] for every student of the gradebook, like nbgrader's own CSV export: the score less the late
    penalty (never below zero), zero for a student with no submission."""
    known = identities(course)
    return [
        Total(
            s.student.id,
            s.student.first_name,
            s.student.last_name,
            s.student.email,
            s.student.lms_user_id,
            s.score,
            s.max_score,
            known.get(s.student.id, {}),
        )
        for s in assignment_scores(course)
    ]
