"""``python -m grader <verb>``: parse the arguments, call the verb of :mod:`grader.api`, print what it returns."""
import argparse
import sys

from . import api
from .sandbox.pool import SandboxUnavailable

# verb: (help, its own arguments as (name, argparse options)); every verb also takes --course and --assignment.
VERBS = {
    "release": ("generate the student notebooks and the student bundle zip", []),
    "collect": ("collect submissions from an LMS download (Canvas, Moodle, Blackboard, Brightspace, Gradescope) "
                "or a <student>/<notebook>.ipynb folder",
                [("source", {"help": "a folder or a zip file"}),
                 ("--roster", {"dest": "roster_csv", "help": "a roster CSV (id,first_name,last_name,email,"
                                                             "lms_user_id; default: the gradebook's students)"}),
                 ("--dry-run", {"action": "store_true", "help": "print what would be collected, copy nothing"}),
                 ("--timezone", {"default": "UTC", "help": "the LMS's time zone, for Blackboard's and "
                                                           "Brightspace's local times (default UTC)"})]),
    "autograde": ("grade every submission in the sandbox, through nbgrader; print the grade table",
                  [("--force", {"action": "store_true", "help": "regrade students already graded"}),
                   ("--workers", {"type": int, "help": "sandbox workers (default: one per core)"})]),
    "feedback": ("write an HTML feedback page per student and notebook", []),
    "export": ("write the grades as CSV, one row per student and exercise, or an LMS's grade import",
               [("--path", {"help": "the CSV file (default reports/<assignment>_grades.csv or _<format>.csv)"}),
                ("--format", {"choices": ["csv", "canvas", "moodle", "blackboard", "brightspace"], "default": "csv"}),
                ("--column", {"help": "the LMS's grade column: Canvas 'Title (assignment id)', Blackboard "
                                      "'Name [Total Pts: N Score] |column id', Brightspace the grade item's name"})]),
    "report": ("write the class report: figures and an HTML page",
               [("--out", {"help": "the folder (default reports/<assignment>/)"})]),
    "demo": ("run a whole course round on the generated demo class and check its grades",
             [("--out", {"default": "build/demo", "help": "where the demo course goes"})]),
}


def parser():
    top = argparse.ArgumentParser(prog="python -m grader", description=__doc__)
    verbs = top.add_subparsers(dest="verb", required=True)
    for verb, (text, arguments) in VERBS.items():
        sub = verbs.add_parser(verb, help=text, description=text)
        for name, options in arguments:
            sub.add_argument(name, **options)
        if verb != "demo":
            sub.add_argument("--course", default=".", help="the nbgrader course folder (default: here)")
            sub.add_argument("--assignment", default="self_attention")
    return top


def main(argv=None):
    arguments = vars(parser().parse_args(argv))
    try:
        result = getattr(api, arguments.pop("verb"))(**arguments)
    except SandboxUnavailable as error:
        sys.exit(f"python -m grader: {error}")
    print("\n".join(map(str, result)) if isinstance(result, list) else result)
