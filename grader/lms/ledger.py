"""``grading/<assignment>/passback.json``: what was posted, when, where, and what the LMS answered.

One entry per route and target (an LTI line item, a Canvas or Moodle course) and student: the last score the LMS
took, and the last it refused. It is written again, atomically, after every answer, so that a run stopped half-way
(a network failure) keeps what was posted, and the next run posts only what is missing or changed."""

import datetime
import json
import os
import tempfile

LEDGER = "passback.json"


class Ledger:
    def __init__(self, course):
        self.path = course.grading / LEDGER
        self.data = json.loads(self.path.read_text()) if self.path.exists() else {"posts": {}}

    def _of(self, place):
        return self.data["posts"].setdefault(place, {})

    def unchanged(self, place, score, user):
        """True when the LMS already took this very score for this student, user and progress."""
        last = self.data["posts"].get(place, {}).get(score.student, {}).get("posted")
        return (
            last is not None and last["user"] == user and [last[k] for k in _SAME] == [getattr(score, k) for k in _SAME]
        )

    def record(self, place, score, user, outcome):
        """Keep the LMS's answer to ``score`` posted for ``user``, and write the ledger now."""
        entry = {"user": user, **{k: getattr(score, k) for k in _SAME}, "at": _now(), "answer": outcome.answer}
        kept = self._of(place).setdefault(score.student, {})
        if outcome.ok:
            kept["posted"] = entry
            kept.pop("refused", None)
        else:
            kept["refused"] = entry
        self._write()

    def _write(self):
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile(
            "w", dir=self.path.parent, prefix=".passback-", delete=False, encoding="utf-8"
        ) as file:
            json.dump(self.data, file, indent=1, sort_keys=True, ensure_ascii=False)
        os.replace(file.name, self.path)


_SAME = ("score", "maximum", "activity", "grading")


def _now():
    return datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
