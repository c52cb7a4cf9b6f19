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
# The exit status of a command that ran to its end but left work for the instructor (passback: scores not posted).
UNFINISHED = 3
# What a command's exit status means, where it says more than "0: done, 1: stopped with a one-line message".
EXIT_STATUSES = {
    "passback": "Exit status: 0 when every score was posted or was already in the LMS (a student who handed in "
    "nothing is listed but not counted: --post-missing-as-zero posts 0 for them); 1 when it stopped before or "
    "while posting (a setting, the key, the LMS's answer: one line says what to fix; what was posted is kept); 2 "
    f"for a wrong option; {UNFINISHED} when it ran but left students for you: a score the LMS refused, a student "
    "matched to no LMS user, or one with no final grade yet (waiting for a manual grade, or not gradable), each "
    "listed, and counted in the last line. --dry-run exits 3 too for what it can tell without posting.",
}
WORKERS_HELP = (
    "students graded at once (default: one per core this process may use, as many as its memory "
    "holds at about 290 MiB each; its CPU affinity and its container's CPU quota and memory limit "
    "count)"
)
# Modules whose warnings are not for instructors.
LIBRARIES = r"(nbformat|nbgrader|nbconvert|sqlalchemy|jupyter_client|traitlets)(\.|$)"


def at_least_one(text):
    """A ``--workers`` count: a whole number, 1 or more."""
    try:
        number = int(text)
    except ValueError:
        number = 0
    if number < 1:
        raise argparse.ArgumentTypeError(f"expected a whole number, 1 or more; got {text!r}")
    return number


def route_options(lti_service):
    """--lti, --canvas and --moodle: which way to the LMS (``route``), LTI 1.3 through ``lti_service``."""
    return [
        (
            "--lti",
            {
                "dest": "route",
                "action": "store_const",
                "const": "lti",
                "help": f"through LTI 1.3's {lti_service} (the course's c.LtiPassback settings)",
            },
        ),
        (
            "--canvas",
            {
                "dest": "route",
                "action": "store_const",
                "const": "canvas",
                "help": "through Canvas's REST API (c.CanvasPassback, the token in $CANVAS_TOKEN)",
            },
        ),
        (
            "--moodle",
            {
                "dest": "route",
                "action": "store_const",
                "const": "moodle",
                "help": "through Moodle's web services (c.MoodlePassback, the token in $MOODLE_TOKEN)",
            },
        ),
    ]


# verb: (what it is for, its own arguments as (name, argparse options)); all but demo take --course and --assignment.
VERBS = {
    "release": ("make the student notebooks from solutions/ and the zip to hand out to students", []),
    "collect": (
        "take in the students' notebooks from an LMS download (Canvas, Moodle, Blackboard, Brightspace, "
        "Gradescope) or a folder of <student>/<notebook>.ipynb",
        [
            ("source", {"help": "the zip file or the folder"}),
            (
                "--roster",
                {
                    "dest": "roster_csv",
                    "help": "a roster CSV (id,first_name,last_name,email,"
                    "lms_user_id; default: the gradebook's students)",
                },
            ),
            ("--dry-run", {"action": "store_true", "help": "print what would be collected, copy nothing"}),
            (
                "--timezone",
                {
                    "default": "UTC",
                    "help": "the LMS's time zone, for Blackboard's and Brightspace's local times (default UTC)",
                },
            ),
        ],
    ),
    "autograde": (
        "grade every submission, each safely in a sandbox, record the scores in the gradebook and "
        "print the grade table",
        [
            ("--force", {"action": "store_true", "help": "grade again students already graded"}),
            ("--workers", {"type": at_least_one, "help": WORKERS_HELP}),
            (
                "--dask",
                {
                    "metavar": "ADDRESS",
                    "help": "grade on a Dask cluster instead, each student a task: "
                    "its scheduler's address (tcp://scheduler:8786); the gradebook must be PostgreSQL",
                },
            ),
        ],
    ),
    "feedback": ("write each student's feedback pages: scores, what went wrong and why, no hidden test", []),
    "export": (
        "write the grades as a CSV file (a row per student and graded cell, late penalties included), "
        "or an LMS's grade import",
        [
            ("--path", {"help": "the CSV file (default reports/<assignment>_grades.csv or _<format>.csv)"}),
            ("--format", {"choices": ["csv", "canvas", "moodle", "blackboard", "brightspace"], "default": "csv"}),
            (
                "--column",
                {
                    "help": "the LMS's grade column: Canvas 'Title (assignment id)', Blackboard "
                    "'Name [Total Pts: N Score] |column id', Brightspace the grade item's name"
                },
            ),
        ],
    ),
    "report": (
        "write the class report: score histogram, pass rate per exercise, the most common mistakes",
        [("--out", {"help": "the folder (default reports/<assignment>/)"})],
    ),
    "gradescope": (
        "write autograder.zip, to upload to Gradescope: it grades each submission there as autograde "
        "does, in the sandbox, and gives students the same feedback",
        [
            ("--out", {"help": "the zip file (default autograder.zip in the course)"}),
            (
                "--memory-mb",
                {
                    "type": int,
                    "default": 128,
                    "help": "memory for a submission's code (default "
                    "128, for Gradescope's default 768 MB; add as much to Gradescope's setting)",
                },
            ),
        ],
    ),
    "regrade": (
        "grade again whom you name into a new result set, show every changed score before and after and "
        "why, then apply it (or undo the last one applied)",
        [
            (
                "--student",
                {
                    "dest": "students",
                    "metavar": "STUDENT",
                    "action": "append",
                    "default": [],
                    "help": "this student (repeat for more)",
                },
            ),
            (
                "--notebook",
                {
                    "dest": "notebooks",
                    "metavar": "NOTEBOOK",
                    "action": "append",
                    "default": [],
                    "help": "this notebook: its file name, stem or number (repeat for more)",
                },
            ),
            (
                "--exercise",
                {
                    "dest": "exercises",
                    "metavar": "EXERCISE",
                    "action": "append",
                    "default": [],
                    "help": "this exercise or graded cell's grade_id (repeat for more)",
                },
            ),
            (
                "--changed-checks",
                {
                    "action": "store_true",
                    "help": "the notebooks whose exercise module (grader/exercises/) changed since they were graded",
                },
            ),
            (
                "--apply",
                {
                    "action": "store_const",
                    "const": True,
                    "help": "apply the new scores: those of the last preview of the same notebooks, not graded "
                    "again unless something it depends on changed since (without it: asked in a terminal, "
                    "else only shown)",
                },
            ),
            ("--allow-lower", {"action": "store_true", "help": "apply even when a grade goes down"}),
            ("--undo", {"action": "store_true", "help": "put back what the last applied regrade replaced"}),
            ("--workers", {"type": at_least_one, "help": WORKERS_HELP}),
        ],
    ),
    "roster": (
        "put the LMS course's students into the gradebook (ids, names, e-mails, LMS user ids), matching "
        "the students already there by e-mail, then LMS id",
        route_options("Names and Role Provisioning"),
    ),
    "passback": (
        "post each student's total (the export's: less the late penalty) into the LMS's gradebook; "
        "a second run posts only what changed (ledger: grading/<assignment>/passback.json)",
        [
            *route_options("Assignment and Grade Services"),
            ("--dry-run", {"action": "store_true", "help": "print what would be posted, post nothing"}),
            (
                "--force",
                {
                    "action": "store_true",
                    "help": "post every score again, changed or not; with --lti, also set the scoreMaximum of an "
                    "existing line item worth another maximum (otherwise the passback stops)",
                },
            ),
            (
                "--post-missing-as-zero",
                {
                    "action": "store_true",
                    "help": "post 0 for a student who handed in nothing (otherwise listed, not posted)",
                },
            ),
        ],
    ),
    "jwks": (
        "make the kit's LTI key pair (once; the private key stays in the course, mode 0600) and print the "
        "public key set to give the LMS",
        [("--new", {"action": "store_true", "help": "replace the key pair (register the new public key)"})],
    ),
    "similarity": (
        "write a page of the pairs of students whose answers share code that is rare in the class, the released "
        "starter code left out: the pairs beyond chance flagged, their rare code side by side (nothing is run)",
        [
            ("--out", {"help": "the folder (default reports/<assignment>/, beside the class report)"}),
            (
                "--chance",
                {
                    "type": float,
                    "default": 0.1,
                    "help": "flag a pair when at most this share of classes made by shuffling the answers of each "
                    "exercise between the students have any pair that scores as high (default 0.1)",
                },
            ),
        ],
    ),
    "adopt": (
        "make an existing nbgrader course grade in the kit's sandbox: its nbgrader_config.py kept as it is "
        "(and copied to nbgrader_config.py.before-kit), the kit's settings added after the course's own",
        [],
    ),
    "demo": (
        "try every step on a generated class of students and check the grades",
        [
            ("--out", {"default": "build/demo", "help": "where the demo course goes (default build/demo)"}),
            (
                "--lti",
                {
                    "action": "store_true",
                    "help": "then post the grades to a test LTI 1.3 platform started "
                    "on this machine: roster, passback and what it holds",
                },
            ),
        ],
    ),
}


def grades_here(arguments):
    """Whether the command grades notebooks on this machine: autograde (but on Dask), regrade (but its undo, and
    its --apply, which applies a preview made before unless something changed since)."""
    verb = arguments["verb"]
    regrades = verb == "regrade" and not (arguments["undo"] or arguments["apply"])
    return verb == "autograde" and not arguments["dask"] or regrades


def parser():
    top = argparse.ArgumentParser(
        prog="python -m grader",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    verbs = top.add_subparsers(dest="verb", required=True, title="commands", metavar="<command>")
    for verb, (text, arguments) in VERBS.items():
        sub = verbs.add_parser(
            verb, help=text, description=text[0].upper() + text[1:] + ".", epilog=EXIT_STATUSES.get(verb)
        )
        for name, options in arguments:
            sub.add_argument(name, **options)
        if verb != "demo":
            sub.add_argument("--course", default=".", help="the nbgrader course folder (default: here)")
            sub.add_argument("--assignment", default="self_attention", help="the assignment (default self_attention)")
    return top


def main(argv=None):
    arguments = vars(parser().parse_args(argv))
    if grades_here(arguments):  # its warm sandbox workers warm up while this process imports nbgrader and the kit
        from ..sandbox.cgroup import usable_cores
        from ..sandbox.worker import warm_up_early

        warm_up_early(arguments["workers"] or usable_cores())
    warnings.filterwarnings("ignore", module=LIBRARIES)
    from .. import api  # a verb imports its own module only (PyTorch and nbgrader: not for --help)
    from ..sandbox.pool import SandboxUnavailable
    from .errors import NbgraderFailed, UsageError
    from .ready import require
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
    unfinished = getattr(result, "unfinished", "")
    if unfinished:
        print(f"python -m grader {verb}: {unfinished}", file=sys.stderr)
        sys.exit(UNFINISHED)
