"""nbgrader preprocessors: tamper detection before nbgrader restores the test cells, and the sandboxed
executor in place of nbgrader's Execute. Configured in nbgrader_config.py, so that a stock
``nbgrader autograde`` uses them as well as ``python -m grader autograde``."""
import time

import nbformat
from nbgrader.preprocessors import NbGraderPreprocessor, OverwriteCells
from traitlets import Float, Integer, List, Unicode

from .. import records as record
from ..checks.cells import is_test_cell
from ..course import Course
from ..worker import ISOLATION, shared_pool
from .jobs import DEFAULT_LIMITS, build_job, judge_exercise
from .outputs import exercise_record, kit_cell, ran_cell, test_record

METADATA_KEY = "attention_kit"


def _normalised(source):
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def tampering(submitted, released):
    """How the submission's test cells differ from the release's: [{grade_id, change}, ...]."""
    changes = []
    release_tests = {c.metadata["nbgrader"]["grade_id"]: c for c in released.cells if is_test_cell(c)}
    by_id = {}
    for cell in submitted.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id:
            by_id.setdefault(grade_id, []).append(cell)
    sources = {_normalised(c.source) for c in submitted.cells if c.get("cell_type") == "code"}
    for grade_id, original in release_tests.items():
        found = by_id.get(grade_id, [])
        if len(found) > 1:
            changes.append({"grade_id": grade_id, "change": "duplicated"})
        elif not found:
            moved = _normalised(original.source) in sources
            changes.append({"grade_id": grade_id, "change": "relabelled" if moved else "deleted"})
        elif _normalised(found[0].source) != _normalised(original.source):
            changes.append({"grade_id": grade_id, "change": "edited"})
        elif not is_test_cell(found[0]) or found[0].metadata["nbgrader"].get("points") != \
                original.metadata["nbgrader"].get("points"):
            changes.append({"grade_id": grade_id, "change": "relabelled"})
    for grade_id, cells in by_id.items():
        if grade_id not in release_tests and any(is_test_cell(c) for c in cells):
            changes.append({"grade_id": grade_id, "change": "relabelled"})
    return changes


def restore_test_metadata(submitted, released):
    """Undo what would make nbgrader fail the whole submission: a test cell whose nbgrader metadata
    was changed gets the release's back (OverwriteCells then restores its source), and a second copy
    of a test cell becomes a plain code cell (nbgrader's DeduplicateIds leaves it half-labelled)."""
    originals = {c.metadata["nbgrader"]["grade_id"]: c.metadata["nbgrader"] for c in released.cells if is_test_cell(c)}
    seen = set()
    for cell in submitted.cells:
        grade_id = cell.get("metadata", {}).get("nbgrader", {}).get("grade_id")
        if grade_id in seen:
            del cell.metadata["nbgrader"]
        elif grade_id in originals:
            seen.add(grade_id)
            cell.metadata["nbgrader"] = dict(originals[grade_id])


class DetectTampering(NbGraderPreprocessor):
    """Compare the submitted test cells with the released ones, before nbgrader restores them."""

    def preprocess(self, nb, resources):
        released = self._released(resources)
        changes = tampering(nb, released) if released is not None else []
        for change in changes:
            self.log.warning("Test cell %s was %s by the student", change["grade_id"], change["change"])
        if released is not None:
            restore_test_metadata(nb, released)
        nb.metadata[METADATA_KEY] = {"tampered": changes}
        return nb, resources

    def _released(self, resources):
        info = resources["nbgrader"]
        path = Course.running(self.config, info["assignment"]).release / f"{info['notebook']}.ipynb"
        return nbformat.read(path, as_version=4) if path.exists() else None


class QuietOverwriteCells(OverwriteCells):
    """nbgrader's OverwriteCells, without a warning for every untouched test cell: the release's
    test cells differ from the source's by their hidden part, so that warning fires on every
    submission. Real tampering is reported by DetectTampering."""

    def report_change(self, name, attr, old, new):
        self.log.debug("Restored the %s of cell %s from the instructor's copy", attr, name)


class SandboxExecute(NbGraderPreprocessor):
    """Run the submission's code cells in order in the sandbox; grade each test cell where it stands."""

    memory_bytes = Integer(DEFAULT_LIMITS["memory_bytes"], help="Resident memory for one notebook").tag(config=True)
    unit_seconds = Float(DEFAULT_LIMITS["unit_seconds"], help="Time for one cell or one exercise").tag(config=True)
    notebook_seconds = Float(DEFAULT_LIMITS["notebook_seconds"], help="Time for a whole notebook").tag(config=True)
    processes = Integer(DEFAULT_LIMITS["processes"], help="Processes one notebook may run").tag(config=True)
    isolation = Unicode(ISOLATION, help="The sandbox's isolation: auto (the strongest this machine allows), root, "
                        "userns, landlock, or none (no isolation, accepted explicitly)").tag(config=True)
    hidden_folders = List(Unicode(), help="More folders a submission must not read, beside the course and the kit "
                          "(Gradescope's /autograder)").tag(config=True)

    def limits(self):
        return {"memory_bytes": self.memory_bytes, "unit_seconds": self.unit_seconds,
                "notebook_seconds": self.notebook_seconds, "processes": self.processes}

    def preprocess(self, nb, resources):
        started = time.monotonic()
        info = resources["nbgrader"]
        course = Course.running(self.config, info["assignment"])
        job, cells = build_job(nb, course.root, self.limits(), self.hidden_folders)
        result = shared_pool(self.isolation).run(job)
        units = result["units"]
        tests = []
        for position, index in enumerate(cells):
            cell, unit = nb.cells[index], job["units"][position]
            if unit["kind"] == "kit":
                status, reason, results = judge_exercise(job, units, position)
                kit_cell(cell, unit["exercise"], status, reason, results)
                tests.append(exercise_record(cell.metadata["nbgrader"]["grade_id"], unit["exercise"],
                                             float(cell.metadata["nbgrader"]["points"]), status, reason, results))
            else:
                ran_cell(cell, units[position])
                if unit["kind"] == "test":
                    tests.append(test_record(cell, units[position]))
        status = result["status"]
        record.write(course, record.NotebookRecord(
            student=info["student"], assignment=info["assignment"], notebook=f"{info['notebook']}.ipynb",
            status=status, reason=None if status == "graded" else record.NOTEBOOK_STATUSES.get(status),
            seconds=round(time.monotonic() - started, 3), isolation=result.get("isolation"),
            tampered=nb.metadata.get(METADATA_KEY, {}).get("tampered", []), exercises=tests))
        return nb, resources
