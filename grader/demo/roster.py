"""Who the demo students are and what each of them submits, drawn from a seed."""

import datetime
import random
import unicodedata
from dataclasses import dataclass, field

from .broken import ANSWER_BREAKERS, NOTEBOOK_BREAKERS
from .mistakes import MISTAKES, Mistake

DUE = datetime.datetime(2025, 3, 14, 17, 0, tzinfo=datetime.UTC)
NAMES = (
    "aisha",
    "bao",
    "carmen",
    "dmitri",
    "elif",
    "farid",
    "greta",
    "hiroshi",
    "ines",
    "jonas",
    "kemal",
    "lucia",
    "mateo",
    "nadia",
    "oskar",
    "priya",
    "quentin",
    "rosa",
    "samir",
    "tamar",
    "umar",
    "vera",
    "wen",
    "ximena",
    "yusuf",
    "zofia",
    "amelie",
    "bilal",
    "chiara",
    "diego",
    "emeka",
    "freya",
)
LAST_NAMES = (
    "Karimi",
    "Nguyen",
    "Ortega",
    "Volkov",
    "Yılmaz",
    "Haddad",
    "Lindqvist",
    "Tanaka",
    "Moreau",
    "Becker",
    "Demir",
    "Romano",
    "Fernández",
    "Petrova",
    "Nowak",
    "Raman",
    "Dubois",
    "Jiménez",
    "Nasser",
    "Cohen",
    "Sheikh",
    "Ivanova",
    "Li",
    "Cruz",
    "Okafor",
    "Wiśniewska",
    "Laurent",
    "Rahman",
    "Bianchi",
    "Morales",
    "Eze",
    "Olsen",
)
ASCII = str.maketrans("ı", "i")  # the one letter of the names that NFKD does not fold
PROFILES = (
    ["full"] * 3
    + ["stubs"] * 2
    + ["partial"] * 18
    + ["missing_all", "missing_some"]
    + [f"broken:{kind}" for kind in NOTEBOOK_BREAKERS + ANSWER_BREAKERS]
)
LATE = 6
CHANCES = (("reference", 0.6), ("stub", 0.2), ("wrong", 0.2))


@dataclass
class Submission:
    """One notebook of one student: an answer per exercise, and how the notebook itself is broken."""

    answers: dict  # exercise -> "reference" | "stub" | a broken-answer kind | a Mistake
    breakage: str | None = None  # "invalid" | "deleted_test" | "edited_test"
    target: str | None = None  # the exercise whose test cell was deleted or edited


@dataclass
class Student:
    id: str
    profile: str
    submitted_at: str | None = None
    notebooks: dict = field(default_factory=dict)  # notebook -> Submission; an absent notebook is missing


def person(student_id):
    """(first name, last name, e-mail) of a demo student, as an instructor's roster has them."""
    first, last = student_id.capitalize(), LAST_NAMES[NAMES.index(student_id)]
    folded = unicodedata.normalize("NFKD", f"{first}.{last}".lower().translate(ASCII)).encode("ascii", "ignore")
    return first, last, f"{folded.decode()}@students.example.edu"


def label(answer):
    return answer.label if isinstance(answer, Mistake) else answer


def _random_answers(rng, exercises):
    answers = {}
    for name in exercises:
        kind = rng.choices([k for k, _ in CHANCES], [w for _, w in CHANCES])[0]
        if kind == "wrong":
            wrong = [m for m in MISTAKES if m.exercise == name]
            kind = rng.choice(wrong) if wrong else "stub"
        answers[name] = kind
    return answers


def _partial(rng, exercises):
    return {nb: Submission(_random_answers(rng, names)) for nb, names in exercises.items()}


def _cover_mistakes(partial, exercises):
    """Give every mistake to two different students, and keep every student partly correct."""
    notebook_of = {name: nb for nb, names in exercises.items() for name in names}
    fixed, turn = set(), 0
    for mistake in (m for m in MISTAKES if m.exercise in notebook_of):
        given = 0
        while given < 2:
            student = partial[turn % len(partial)]
            turn += 1
            if (student.id, mistake.exercise) not in fixed:
                student.notebooks[notebook_of[mistake.exercise]].answers[mistake.exercise] = mistake
                fixed.add((student.id, mistake.exercise))
                given += 1
    for student in partial:
        for kind in ("reference", "stub"):
            answers = {(nb, name): a for nb, sub in student.notebooks.items() for name, a in sub.answers.items()}
            if kind not in answers.values():
                free = sorted(key for key in answers if (student.id, key[1]) not in fixed)
                nb, name = free[len(free) // 2]
                student.notebooks[nb].answers[name] = kind
                fixed.add((student.id, name))


def _break(rng, student, kind, exercises, safe):
    if kind == "invalid":
        student.notebooks[rng.choice(sorted(exercises))].breakage = kind
        return
    targets = sorted(
        safe
        if kind in ("loop_definition", "loop_call", "crash_call")
        else [(nb, name) for nb, names in exercises.items() for name in names]
    )
    nb, name = rng.choice(targets)
    submission = student.notebooks[nb]
    if kind in NOTEBOOK_BREAKERS:
        submission.breakage, submission.target = kind, name
        submission.answers[name] = "reference" if kind == "deleted_test" else "stub"
    else:
        submission.answers[name] = kind


def _submissions(rng, student, exercises, safe):
    profile = student.profile
    if profile in ("full", "stubs"):
        kind = "reference" if profile == "full" else "stub"
        student.notebooks = {nb: Submission({n: kind for n in names}) for nb, names in exercises.items()}
    elif profile != "missing_all":
        student.notebooks = _partial(rng, exercises)
    if profile == "missing_some":
        for nb in rng.sample(sorted(exercises), 2):
            del student.notebooks[nb]
    if profile.startswith("broken:"):
        _break(rng, student, profile.removeprefix("broken:"), exercises, safe)


def _timestamps(rng, students):
    submitters = [s for s in students if s.notebooks]
    late = {s.id for s in rng.sample(submitters, LATE)}
    for student in submitters:
        minutes = rng.randint(1, 3 * 24 * 60)
        delta = datetime.timedelta(minutes=minutes if student.id in late else -minutes)
        student.submitted_at = (DUE + delta).isoformat()


def make_roster(seed, exercises, safe):
    """The students, sorted by id.

    ``exercises`` maps each notebook to its exercises; ``safe`` lists the (notebook, exercise) pairs
    that no other exercise uses, the only ones that may hang or crash.
    """
    if not safe:
        raise ValueError("no exercise is safe to break: every one is used by another exercise")
    rng = random.Random(seed)
    profiles = list(PROFILES)
    rng.shuffle(profiles)
    students = [Student(name, profile) for name, profile in zip(NAMES, profiles)]
    for student in students:
        _submissions(rng, student, exercises, safe)
    _cover_mistakes([s for s in students if s.profile == "partial"], exercises)
    _timestamps(rng, students)
    return sorted(students, key=lambda s: s.id)
