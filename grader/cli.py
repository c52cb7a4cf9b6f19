"""``python -m grader <verb>``: parse the arguments, call the verb of :mod:`grader.api`, print what it returns."""
import argparse
import sys
import warnings

DESCRIPTION = """Grade the self-attention exercises of an nbgrader course.

A round with a class, in order: release, collect, autograde, feedback, export, report.
Every command works on the course in the current folder (or --course DIR) and on the
assignment self_attention (or --assignment NAME). Scores live in nbgrader's gradebook, so
formgrader and the stock nbgrader commands see the same grades."""

EPILOG = "Run 'python -m grader <command> --help' for a command's options."
# Modules whose warnings are not for instructors.
LIBRARIES = r"(nbformat|nbgrader|nbconvert|sqlalchemy|jupyter_client|traitlets)(\.|$)"

# verb: (what it is for, its own arguments as (name, argparse options)); all but demo take --course and --assignment.
VERBS = {
    "release": ("make the student notebooks from solutions/ and the zip to hand out to students", []),
    "collect": ("take in the students' notebooks from an LMS download (Canvas, Moodle, Blackboard, Brightspace, "
                "Gradescope) or a folder of <student>/<notebook>.ipynb",
                [("source", {"help": "the zip file or the folder"}),
                 ("--roster", {"dest": "roster_csv", "help": "a roster CSV (id,first_name,last_name,email,"
                                                             "lms_user_id; default: the gradebook's students)"}),
                 ("--dry-run", {"action": "store_true", "help": "print what would be collected, copy nothing"}),
                 ("--timezone", {"default": "UTC", "help": "the LMS's time zone, for Blackboard's and "
                                                           "Brightspace's local times (default UTC)"})]),
    "autograde": ("grade every submission, each safely in a sandbox, record the scores in the gradebook and "
                  "print the grade table",
                  [("--force", {"action": "store_true", "help": "grade again students already graded"}),
                   ("--workers", {"type": int, "help": "notebooks graded at once (default: one per core)"})]),
    "feedback": ("write each student's feedback pages: scores, what went wrong and why, no hidden test", []),
    "export": ("write the grades as a CSV file (a row per student and graded cell, late penalties included), "
               "or an LMS's grade import",
               [("--path", {"help": "the CSV file (default reports/<assignment>_grades.csv or _<format>.csv)"}),
                ("--format", {"choices": ["csv", "canvas", "moodle", "blackboard", "brightspace"], "default": "csv"}),
                ("--column", {"help": "the LMS's grade column: Canvas 'Title (assignment id)', Blackboard "
                                      "'Name [Total Pts: N Score] |column id', Brightspace the grade item's name"})]),
    "report": ("write the class report: score histogram, pass rate per exercise, the most common mistakes",
               [("--out", {"help": "the folder (default reports/<assignment>/)"})]),
    "gradescope": ("write autograder.zip, to upload to Gradescope: it grades each submission there as autograde "
                   "does, in the sandbox, and gives students the same feedback",
                   [("--out", {"help": "the zip file (default autograder.zip in the course)"}),
                    ("--memory-mb", {"type": int, "default": 128, "help": "memory for a submission's code (default "
                                     "128, for Gradescope's default 768 MB; add as much to Gradescope's setting)"})]),
    "demo": ("try every step on a generated class of students and check the grades",
             [("--out", {"default": "build/demo", "help": "where the demo course goes (default build/demo)"})]),
}


def parser():
    top = argparse.ArgumentParser(prog="python -m grader", description=DESCRIPTION, epilog=EPILOG,
                                  formatter_class=argparse.RawDescriptionHelpFormatter)
    verbs = top.add_subparsers(dest="verb", required=True, title="commands", metavar="<command>")
    for verb, (text, arguments) in VERBS.items():
        sub = verbs.add_parser(verb, help=text, description=text[0].upper() + text[1:] + ".")
        for name, options in arguments:
            sub.add_argument(name, **options)
        if verb != "demo":
            sub.add_argument("--course", default=".", help="the nbgrader course folder (default: here)")
            sub.add_argument("--assignment", default="self_attention", help="the assignment (default self_attention)")
    return top


def main(argv=None):
    arguments = vars(parser().parse_args(argv))
    warnings.filterwarnings("ignore", module=LIBRARIES)
    from . import api  # the verbs import PyTorch and nbgrader: not needed for --help
    from .errors import NbgraderFailed, UsageError
    from .ready import require
    from .sandbox.pool import SandboxUnavailable
    from .summaries import summary
    verb = arguments.pop("verb")
    course = None
    try:
        if verb != "demo":
            course = arguments["course"] = require(arguments["course"], arguments.pop("assignment"), verb)
        result = getattr(api, verb)(**arguments)
    except (UsageError, SandboxUnavailable, NbgraderFailed) as error:
        sys.exit(f"python -m grader {verb}: {error}")
    print(summary(verb, result, course))
