"""The demo class's plan: who submitted what, when, and the grades each notebook deserves."""

import json
from dataclasses import dataclass

from ..checks.registry import notebooks


@dataclass
class ClassPlan:
    """What was submitted, and the grades it deserves.

    ``expected[(student, notebook)]`` is {"status", "exercises": {name: {"score", "max_score", "status",
    "misconceptions"}}, "tampered": [{"grade_id", "change"}]}, with statuses from grader.autograde.record.
    """

    seed: int
    due: str
    submitted_at: dict  # student -> ISO time of the submission, for every student who submitted
    composition: dict  # student -> {"profile", "notebooks": {notebook: {"answers", "breakage", "target"}}}
    expected: dict

    @property
    def students(self):
        return sorted(self.composition)

    @property
    def late(self):
        return sorted(s for s, time in self.submitted_at.items() if time > self.due)

    @property
    def missing(self):
        """student -> the notebooks they did not submit."""
        return {
            s: [nb for nb in notebooks() if nb not in c["notebooks"]]
            for s, c in self.composition.items()
            if len(c["notebooks"]) < len(notebooks())
        }

    def to_dict(self):
        grades = {}
        for (student, notebook), entry in sorted(self.expected.items()):
            grades.setdefault(student, {})[notebook] = entry
        return {
            "seed": self.seed,
            "due": self.due,
            "submitted_at": self.submitted_at,
            "late": self.late,
            "missing": self.missing,
            "composition": self.composition,
            "expected": grades,
        }

    def to_json(self):
        return json.dumps(self.to_dict(), indent=1, sort_keys=True)
