"""The feedback pages of some students, written again in one process: nbgrader's generate_feedback app set up once
(its configuration read, its folders found) and pointed at each student in turn, as autograde's grading processes
point theirs (grader/autograde/nbgrader_pass.py). A regrade writes its changed students' pages this way: a process
per student cost each of them a new interpreter importing nbgrader and the checks.

Run in the course's folder; a student's failure is reported and the others' pages are still written:

    python -m grader.feedback.students <assignment> -- <student>...
"""

import argparse
import glob
import sys

from nbgrader.apps.generatefeedbackapp import GenerateFeedbackApp


def write_pages(assignment, students):
    """Write each student's feedback pages (again: ``--force``); return the students nbgrader failed for."""
    app = GenerateFeedbackApp.instance()
    app.initialize([f"--assignment={assignment}", "--force", "--log-level=ERROR"])
    failed = []
    for student in students:
        app.coursedir.student_id = glob.escape(student)  # nbgrader reads it as a pattern: this student only
        try:
            app.start()
        except (Exception, SystemExit):  # nbgrader has logged why; the other students' pages are still written
            failed.append(student)
    return failed


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("assignment")
    options.add_argument("students", nargs="*")
    args = options.parse_args(argv)
    failed = write_pages(args.assignment, args.students)
    if failed:
        print("nbgrader's generate_feedback failed for " + ", ".join(failed), file=sys.stderr)
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
