"""The documentation: the README stays short, no page tells history, the site builds without a warning, every
``python -m grader`` command line in a code block parses, every Python block compiles, every relative link leads
somewhere, and what the build generates from the code covers all of it (docs/_ext/kit_docs.py)."""

import json
import pathlib
import re
import shlex
import subprocess
import sys

import pytest

from grader.cli import parser

KIT = pathlib.Path(__file__).resolve().parents[1]
DOCS = KIT / "docs"
sys.path.insert(0, str(DOCS / "_ext"))
import kit_docs  # noqa: E402 (docs/_ext is not a package)

README = KIT / "README.md"
# The pages people write (not the ones the build generates into docs/_generated/).
PAGES = sorted(
    [
        README,
        KIT / "CONTRIBUTING.md",
        KIT / "SECURITY.md",
        *(
            p
            for p in DOCS.rglob("*")
            if p.suffix in (".md", ".rst") and "_generated" not in p.parts and "_build" not in p.parts
        ),
    ]
)
MARKDOWN = [*PAGES, KIT / "CHANGELOG.md"]

# A commit hash: 7 to 40 hexadecimal digits with at least one letter and one digit, as a word of its own.
COMMIT = re.compile(r"(?<![\w#])(?=[0-9a-f]*[a-f])(?=[0-9a-f]*[0-9])[0-9a-f]{7,40}(?![\w])")
HISTORY = re.compile(
    r"\b(this|last|earlier|previous|the next) (round|session)s?\b|\brounds? (before|ago)\b|"
    r"\buntil (now|recently)\b|\bthese days\b|\bsince this change\b|\b(before|after) this (change|commit)\b",
    re.IGNORECASE,
)
FENCE = re.compile(
    r"^(?P<indent>[ \t]*)(?P<fence>`{3,}|~{3,})(?P<info>[^\n`]*)\n(?P<body>.*?)^(?P=indent)(?P=fence)[ \t]*$",
    re.MULTILINE | re.DOTALL,
)
COMMAND = re.compile(r"(?:^|[\s;&|(])(?:[\w./-]*/)?python[\d.]* -m grader(?=\s|$)(?P<rest>.*)$")
LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\((?P<target>[^)\s]+)(?:\s+\"[^\"]*\")?\)")
SHELL = {"", "bash", "sh", "shell", "console"}  # a "text" block shows output, not commands


def code_blocks(path):
    """[(info, body)] of the fenced code blocks of a Markdown page, each body dedented to its fence."""
    found = []
    for match in FENCE.finditer(path.read_text(encoding="utf-8")):
        indent = len(match["indent"])
        body = "\n".join(line[indent:] if line[:indent].isspace() else line for line in match["body"].splitlines())
        found.append((match["info"].strip().lower(), body))
    return found


def command_lines():
    """(page, line, arguments) of every ``python -m grader`` command line in a shell or text code block."""
    found = []
    for page in MARKDOWN:
        for info, body in code_blocks(page):
            if info.split(" ")[0] not in SHELL:
                continue
            for line in body.replace("\\\n", " ").splitlines():
                line = line.strip()
                line = line[2:] if line.startswith("$ ") else line
                match = COMMAND.search(line)
                if match:
                    try:
                        arguments = shlex.split(match["rest"], comments=True)
                    except ValueError:  # unbalanced quotes: the test says so
                        arguments = None
                    found.append((page.relative_to(KIT), line, arguments))
    return found


def test_the_readme_is_short():
    assert len(README.read_text(encoding="utf-8").splitlines()) <= 120


@pytest.mark.parametrize("page", PAGES, ids=lambda p: str(p.relative_to(KIT)))
def test_no_page_tells_history(page):
    text = page.read_text(encoding="utf-8")
    assert not COMMIT.findall(text), "a commit hash: the pages describe the kit as it is"
    assert not HISTORY.findall(text), "a history marker: the pages describe the kit as it is"


def test_the_checks_of_history_find_what_they_look_for():
    assert COMMIT.findall("at 6bf62b1 and 255a86029467b9dec02f9752a6bdff5f355ac062")
    assert not COMMIT.findall("2147483648 bytes, #23527c, decade, cafebabe")
    assert HISTORY.findall("On this round's machine") and HISTORY.findall("the last round")


def test_the_pages_have_command_lines_to_check():
    pages = {page for page, _, _ in command_lines()}
    assert pathlib.Path("README.md") in pages and len(pages) >= 5


@pytest.mark.parametrize("page, line, arguments", command_lines(), ids=lambda x: str(x)[:60])
def test_every_command_line_parses(page, line, arguments):
    """A renamed verb or flag fails here until the pages say it as the command line does."""
    assert arguments is not None, f"{page}: `{line}` is not a shell command line (its quotes do not close)"
    try:
        parser().parse_args(arguments)
    except SystemExit as stop:
        assert stop.code == 0, f"{page}: `{line}` does not parse with grader.cli.parser()"


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda p: str(p.relative_to(KIT)))
def test_every_python_block_compiles(page):
    for info, body in code_blocks(page):
        if info.split(" ")[0] in ("python", "py", "python3"):
            compile(body, f"{page.relative_to(KIT)}: a python block", "exec")


@pytest.mark.parametrize("page", MARKDOWN, ids=lambda p: str(p.relative_to(KIT)))
def test_every_relative_link_leads_somewhere(page):
    """Links between pages and to files of the kit; their anchors are Sphinx's to check (the site's build)."""
    text = FENCE.sub("", page.read_text(encoding="utf-8"))
    for match in LINK.finditer(text):
        target = match["target"].split("#")[0]
        if not target or re.match(r"[a-z][a-z0-9+.-]*:", target):
            continue
        assert (page.parent / target).exists(), f"{page.relative_to(KIT)}: the link to {target} leads nowhere"


def test_the_generated_pages_describe_everything_the_code_has():
    """A status, an export column or a limit added to the code without words in the docs fails `make check`, not
    only the site's build."""
    from grader.autograde.jobs import DEFAULT_LIMITS
    from grader.export.rows import COLUMNS
    from grader.records.statuses import STATUSES

    assert set(COLUMNS) <= set(kit_docs.COLUMN_WORDS)
    assert set(DEFAULT_LIMITS) <= set(kit_docs.LIMIT_WORDS)
    statuses = kit_docs.statuses()
    assert all(f"`{key}`" in statuses and status.csv in statuses for key, status in STATUSES.items())
    assert ("grader.autograde.preprocessors", "SandboxExecute") in kit_docs.configurables()


def test_the_benchmark_records_are_data_the_page_can_show(tmp_path):
    path = KIT / "bench" / "results.jsonl"
    for line in path.read_text(encoding="utf-8").splitlines():
        entry = json.loads(line)
        assert {"benchmark", "date", "commit", "cores", "import_torch_s", "figures"} <= set(entry)
    assert "## `autograde_speed`" in kit_docs.benchmarks(path)
    assert "No benchmark has recorded a run yet" in kit_docs.benchmarks(tmp_path / "none.jsonl")


@pytest.mark.slow
def test_the_site_builds_without_a_warning(tmp_path):
    """Sphinx with -n (every cross-reference resolved) and -W (a warning fails the build), as `make docs` runs it."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "sphinx",
            "-n",
            "-W",
            "--keep-going",
            "-q",
            "-b",
            "html",
            "-d",
            str(tmp_path / "doctrees"),
            str(DOCS),
            str(tmp_path / "html"),
        ],
        cwd=KIT,
        capture_output=True,
        text=True,
        timeout=600,
    )
    assert done.returncode == 0, done.stderr[-4000:]
    assert (tmp_path / "html" / "instructors" / "cli.html").exists()


def test_the_architecture_page_names_every_package_and_nothing_else():
    """The table of packages on the architecture page and the folders of ``grader/`` say the same thing."""
    page = (DOCS / "extending" / "architecture.md").read_text(encoding="utf-8")
    named = set(re.findall(r"`(grader/[\w/.]*)`", page.split("## The packages")[1].split("\n## ")[0]))
    package = KIT / "grader"
    layout = {f"grader/{p.name}/" for p in package.iterdir() if (p / "__init__.py").is_file()}
    layout |= {f"grader/{p.name}" for p in package.glob("*.py") if p.name not in ("__init__.py", "__main__.py")}
    assert {name for name in named if name.count("/") <= 2 and (name.endswith("/") or name.endswith(".py"))} >= layout
    assert [name for name in named if not (KIT / name).exists()] == []
