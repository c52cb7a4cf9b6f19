"""formgrader's Manage Submissions in the kit's words: a Jupyter server extension of the kit.

nbgrader's list of an assignment's submissions calls every autograded submission that waits for no manual grade
"graded", a student who handed in nothing (score 0, no timestamp) and one whose nbgrader cells were changed alike.
nbgrader has no setting for formgrader's pages (their Jinja environment reads nbgrader's own templates only, and
the list's script works the status out of two fields), so the kit serves that one page itself: nbgrader's own
handler and template, extended, with a script that puts the kit's words in place of "graded" (grader/formgrader/
words.py: not handed in, changed by the student) and asks for them again whenever nbgrader redraws a row. Nothing
of nbgrader is changed: its other pages, its API and its gradebook are as they are.

``jupyter server extension enable --sys-prefix grader.formgrader`` enables it (``make venv`` does, in the kit's
environment). Jupyter loads its server extensions in alphabetical order, so this page is found before nbgrader's
(``grader.formgrader`` before ``nbgrader.server_extensions.formgrader``); without nbgrader's formgrader, it adds
nothing.
"""

from jupyter_server.utils import url_path_join

FORMGRADER = "nbgrader.server_extensions.formgrader"


def _jupyter_server_extension_points():
    return [{"module": "grader.formgrader"}]


def _load_jupyter_server_extension(serverapp):
    if not serverapp.jpserver_extensions.get(FORMGRADER):
        serverapp.log.info("grader.formgrader: nbgrader's formgrader is not enabled, nothing to add")
        return
    from .handlers import HANDLERS

    web_app = serverapp.web_app
    base_url = web_app.settings["base_url"]
    web_app.add_handlers(".*$", [(url_path_join(base_url, path), *rest) for path, *rest in HANDLERS])
    serverapp.log.info("grader.formgrader: formgrader's Manage Submissions says what 'graded' leaves out")
