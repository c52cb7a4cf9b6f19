"""``passback``: each student's total, as ``export`` writes it, posted into the LMS's gradebook; safe to repeat.

Only what the ledger does not show as taken is posted (``force``: all); every student left out is listed with
why: no grade yet, not in the LMS's roster, refused by the LMS. All but "handed in nothing" are for the
instructor to act on: the report's ``unfinished`` line counts them, and ``python -m grader`` then exits 3."""

from dataclasses import dataclass, field

from ..cli.counts import count
from ..cli.errors import UsageError
from ..course import Course
from ..course.gradebook import graded_cells
from .ledger import Ledger
from .lti import LmsUnreachable
from .matching import match
from .routes import open_route
from .scores import plan


@dataclass
class PassbackReport:
    route: str
    where: str
    maximum: float
    ledger: object
    dry_run: bool = False
    posted: list = field(default_factory=list)  # (Score, user, answer)
    unchanged: int = 0
    no_grade: list = field(default_factory=list)  # NoScore
    unmatched: list = field(default_factory=list)  # (student, why)
    refused: list = field(default_factory=list)  # (Score, user, answer)

    def __str__(self):
        head = f"passback --{self.route}"
        if self.dry_run:
            lines = [
                f"{head} --dry-run: would post {count(len(self.posted), 'score')} to {self.where}, out of "
                f"{_number(self.maximum)} (nothing posted); {self.unchanged} unchanged since the last passback"
            ]
            width = max([len(s.student) for s, _, _ in self.posted] + [7])
            lines += [f"  {'student':<{width}}  LMS user  score / maximum"] + [
                f"  {s.student:<{width}}  {user}  {_number(s.score)} / {_number(s.maximum)}"
                for s, user, _ in self.posted
            ]
        else:
            lines = [
                f"{head}: posted {count(len(self.posted), 'score')} to {self.where}, out of "
                f"{_number(self.maximum)}; {self.unchanged} unchanged since the last passback; "
                f"ledger {self.ledger}"
            ]
        lines += _listed(
            "refused by the LMS", [(s.student, f"{answer} (user {user})") for s, user, answer in self.refused]
        )
        lines += _listed("not posted, no grade yet", [(n.student, n.reason) for n in self.no_grade])
        lines += _listed("not posted, not matched to an LMS user", self.unmatched)
        return "\n".join(lines)

    @property
    def unfinished(self):
        """One line counting the students left out for the instructor to act on (refused by the LMS, matched to no
        LMS user, no final grade yet), or "" when every score was posted or was already in the LMS."""
        parts = [
            (len(self.refused), "refused by the LMS"),
            (len(self.unmatched), "not matched to an LMS user"),
            (sum(n.handed_in for n in self.no_grade), "with no final grade yet"),
        ]
        left = sum(n for n, _ in parts)
        if not left:
            return ""
        posted = "would not be posted" if self.dry_run else "not posted"
        listed = ", ".join(f"{n} {why}" for n, why in parts if n)
        return f"{count(left, 'student')} {posted}, for you to act on: {listed} (listed above)"


def _listed(title, pairs):
    return [f"  {title}: {count(len(pairs), 'student')}"] + [f"    {s}: {why}" for s, why in pairs] if pairs else []


def _number(value):
    return f"{value:g}"


def passback(
    course=".", assignment="self_attention", route=None, dry_run=False, force=False, post_missing_as_zero=False
):
    """Post every student's total (the gradebook's, less the late penalty) to the LMS by ``route`` ('lti',
    'canvas' or 'moodle'); return a :class:`PassbackReport`. ``dry_run``: post nothing, say what would be
    posted. ``force``: post again what the ledger shows as taken, and set the scoreMaximum of an LTI line item worth
    another maximum (otherwise refused). ``post_missing_as_zero``: a student who handed in nothing gets 0
    (otherwise listed, not posted)."""
    course = Course.at(course, assignment)
    cells = graded_cells(course)
    if not cells:
        raise UsageError(f"{course.assignment} is not in the course's gradebook: run python -m grader release first")
    maximum = sum(c.max_score for c in cells)
    ready, no_grade = plan(course, post_missing_as_zero)
    lms = open_route(course, route)
    found, unmatched = match([s.total for s in ready], lms.users(), route)
    target = lms.target(course.assignment, maximum, create=not dry_run, force=force)
    place = f"{route} {target}"
    ledger = Ledger(course)
    report = PassbackReport(
        route,
        lms.describe(target),
        maximum,
        ledger.path,
        dry_run,
        no_grade=no_grade,
        unmatched=sorted(unmatched.items()),
    )
    entries = []
    for score in ready:
        if score.student not in found:
            continue
        user = found[score.student][0].user_id
        if not force and target and ledger.unchanged(place, score, user):
            report.unchanged += 1
        else:
            entries.append((score, user))
    if dry_run:
        report.posted = [(score, user, None) for score, user in entries]
        return report
    try:
        for (score, user), outcome in lms.post(course.assignment, maximum, entries):
            ledger.record(place, score, user, outcome)
            (report.posted if outcome.ok else report.refused).append((score, user, outcome.answer))
    except LmsUnreachable as error:
        raise LmsUnreachable(
            f"{error}: {len(report.posted)} of {len(entries)} scores were posted and are kept in "
            f"{ledger.path}; run passback again to post the rest"
        ) from None
    return report
