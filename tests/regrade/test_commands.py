"""The commands regrade prints to run next give back, parsed as a shell and ``python -m grader`` parse them, the
course, the assignment and the options as the instructor gave them: spaces, quotes and a leading dash included."""

import shlex

from grader.cli import parser
from grader.course import Course
from grader.regrade.run import _command, _options


def test_a_printed_command_parses_back_to_the_options_given(tmp_path):
    live = Course.at(tmp_path / "a course's folder", "week 1")
    options = _options(["-x", "ana o'neil"], ["01"], ["softmax_scores"], True, 2)
    argv = shlex.split(_command(live, "regrade", *options, "--apply"))
    assert argv[:3] == ["python", "-m", "grader"]
    given = vars(parser().parse_args(argv[3:]))
    assert given == {
        **given,
        "verb": "regrade",
        "course": str(live.root.resolve()),
        "assignment": "week 1",
        "students": ["-x", "ana o'neil"],
        "notebooks": ["01"],
        "exercises": ["softmax_scores"],
        "changed_checks": True,
        "workers": 2,
        "apply": True,
        "undo": False,
    }
