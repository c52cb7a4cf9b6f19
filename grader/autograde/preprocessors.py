"""nbgrader preprocessors: tamper detection before nbgrader restores the instructor's cells, and the sandboxed
executor in place of nbgrader's Execute. Configured in nbgrader_config.py, so that a stock
``nbgrader autograde`` uses them as well as ``python -m grader autograde``."""

import time

import nbformat
from nbgrader.preprocessors import NbGraderPreprocessor, OverwriteCells
from traitlets import Float, Integer, List, Unicode

from .. import records as record
from ..boundary.machine_paths import scrub_exercise, scrub_outputs
from ..course import Course
from ..records.statuses import STATUSES
from ..sandbox.worker import ISOLATION, shared_pool
from ..tutor.hidden_tests import hidden_lines
from .jobs import DEFAULT_LIMITS, build_job, judge_exercise
from .outputs import exercise_record, kit_cell, ran_cell, test_record
from .tampering import restore_labels, tampering

METADATA_KEY = "attention_kit"


class DetectTampering(NbGraderPreprocessor):
    """Compare the submitted nbgrader cells with the released ones and put the release's labels back, before
    nbgrader's own sanitising (which stops on a copied, added or relabelled cell: see grader/autograde/tampering.py)."""

    def preprocess(self, nb, resources):
        released = self._released(resources)
        changes = tampering(nb, released) if released is not None else []
        for change in changes:
            self.log.warning("In the submission, %s", record.changed_cell(change))
        if released is not None:
            restore_labels(nb, released)
        nb.metadata[METADATA_KEY] = {"tampered": changes}
        return nb, resources

    def _released(self, resources):
        info = resources["nbgrader"]
        path = Course.of_notebook(self, resources).release / f"{info['notebook']}.ipynb"
        return nbformat.read(path, as_version=4) if path.exists() else None


class QuietOverwriteCells(OverwriteCells):
    """nbgrader's OverwriteCells, without a warning for every untouched test cell: the release's
    test cells differ from the source's by their hidden part, so that warning fires on every
    submission. Real tampering is reported by DetectTampering."""

    def report_change(self, name, attr, old, new):
        self.log.debug("Restored the %s of cell %s from the instructor's copy", attr, name)


class ValidNotebook(NbGraderPreprocessor):
    """Validate the notebook against its format's schema, as nbconvert does after every step unless told to be
    optimistic (nbgrader_config.py: once after all of them). Placed before the first step that writes grades to
    the gradebook, so that a notebook an earlier step made invalid stops there, with nothing recorded."""

    def preprocess(self, nb, resources):
        try:
            nbformat.validate(nb, relax_add_props=True)
        except nbformat.ValidationError:
            self.log.error("The notebook is invalid before its grades are saved")
            raise
        return nb, resources


class SandboxExecute(NbGraderPreprocessor):
    """Run the submission's code cells in order in the sandbox; grade each test cell where it stands."""

    memory_bytes = Integer(DEFAULT_LIMITS["memory_bytes"], help="Resident memory for one notebook").tag(config=True)
    unit_seconds = Float(DEFAULT_LIMITS["unit_seconds"], help="Time for one cell or one exercise").tag(config=True)
    notebook_seconds = Float(DEFAULT_LIMITS["notebook_seconds"], help="Time for a whole notebook").tag(config=True)
    processes = Integer(DEFAULT_LIMITS["processes"], help="Processes one notebook may run").tag(config=True)
    isolation = Unicode(
        ISOLATION,
        help="The sandbox's isolation: auto (the strongest this machine allows), root, "
        "userns, landlock, or none (no isolation, accepted explicitly)",
    ).tag(config=True)
    hidden_folders = List(
        Unicode(),
        help="More folders a submission must not read, beside the course and the kit (Gradescope's /autograder)",
    ).tag(config=True)

    def limits(self):
        return {
            "memory_bytes": self.memory_bytes,
            "unit_seconds": self.unit_seconds,
            "notebook_seconds": self.notebook_seconds,
            "processes": self.processes,
        }

    def preprocess(self, nb, resources):
        started = time.monotonic()
        info = resources["nbgrader"]
        course = Course.of_notebook(self, resources)
        folder = resources.get("metadata", {}).get("path") or None
        job, cells = build_job(nb, course.root, self.limits(), self.hidden_folders, folder, course.source)
        result = shared_pool(self.isolation).run(job)
        units = result["units"]
        tests = []
        for position, index in enumerate(cells):
            cell, unit = nb.cells[index], job["units"][position]
            if unit["kind"] == "kit":
                status, reason, results = judge_exercise(job, units, position)
                kit_cell(cell, unit["exercise"], status, reason, results)
                tests.append(
                    exercise_record(
                        cell.metadata["nbgrader"]["grade_id"],
                        unit["exercise"],
                        float(cell.metadata["nbgrader"]["points"]),
                        status,
                        reason,
                        results,
                    )
                )
            else:
                ran_cell(cell, units[position], job["limits"])
                if unit["kind"] in ("test", "judged"):
                    tests.append(test_record(cell, units[position], job["limits"]))
        folders = (folder, course.root, *self.hidden_folders)  # the grading machine's, beside its Python and kit
        for index in cells:
            scrub_outputs(nb.cells[index].outputs, folders, hidden_lines(nb.cells[index]))
        status = result["status"]
        record.write(
            course,
            record.NotebookRecord(
                student=info["student"],
                assignment=info["assignment"],
                notebook=f"{info['notebook']}.ipynb",
                status=status,
                reason=STATUSES[status].notebook,
                seconds=round(time.monotonic() - started, 3),
                isolation=result.get("isolation"),
                tampered=nb.metadata.get(METADATA_KEY, {}).get("tampered", []),
                exercises=[scrub_exercise(test, folders) for test in tests],
            ),
        )
        return nb, resources
