"""The pages of the documentation that the kit's own code writes, made when Sphinx starts (``builder-inited``).

Each is written into ``docs/_generated/`` (not a page of its own: the pages that show it include it), and only
when its text changed, so that Sphinx rebuilds only what changed:

- ``statuses.md``: every status a grade can hold, from the kit's one table (``grader/records/statuses.py``), and every
  likely mistake a student can be told, from the misconception catalogue;
- ``test-cell.md``: the lines a test cell prints, made by the kit's own wording functions;
- ``configuration.rst``: every setting of the kit's configurable classes: the classes in ``grader/`` that declare
  a trait with ``.tag(config=True)``, found by reading the source, each described by traitlets'
  ``class_config_rst_doc()``;
- ``export-columns.md``: the columns of the export's CSV (``grader.export.rows.COLUMNS``);
- ``limits.md``: the sandbox's limits (``grader.autograde.jobs.DEFAULT_LIMITS``) and the limits on files read
  from a download or an upload (``grader/boundary/uploads.py``);
- ``benchmarks.md``: the benchmarks' latest records and their trend, from ``bench/results.jsonl``.

A column, a limit or a status that the words below do not describe makes the build warn (and, with ``-W``, fail),
so that the documentation cannot fall behind the code without a test saying so.
"""

import ast
import importlib
import json
import pathlib

from sphinx.util import logging

LOG = logging.getLogger(__name__)
DOCS = pathlib.Path(__file__).resolve().parents[1]
KIT = DOCS.parent
OUT = DOCS / "_generated"

# The export's columns, in words. A column missing here is a warning.
COLUMN_WORDS = {
    "student": "the student's id in the gradebook",
    "notebook": "the notebook's name, without `.ipynb`",
    "exercise": "the exercise (a kit exercise's name, a plain test cell's or written answer's `grade_id`), or "
    "`(whole notebook)` for a notebook with no graded cell, or `(late penalty)`",
    "grade_id": "nbgrader's `grade_id` of the graded cell",
    "kind": "what the cell is (a kit exercise, a plain nbgrader test cell, a written answer, a task), or `late` "
    "for a late penalty's row",
    "score": "the gradebook's score (a manual grade given in formgrader wins); empty when the score is not a real "
    "one (see `status`); negative on a late penalty's row",
    "max_score": "the points the cell is worth",
    "status": "the status in words (the *export word* of the table of statuses): `graded` and `not written` are "
    "real scores, zero included; `timed out`, `not handed in` and the others are not",
    "reason": "why, in words, when the status is not `graded`",
    "misconceptions": "the keys of the likely mistakes found, separated by `;`",
    "needs_attention": "`yes` when a person has something to do for this row (regrade, grade by hand, check a "
    "changed cell), else `no`",
    "isolation": "the sandbox's isolation level and how memory was limited, for example `userns; memory: rlimit`",
    "late": "how late the notebook was handed in (`2 hours 5 minutes`), on every row of a late notebook; empty when "
    "on time",
}

# The sandbox's limits, in words: (what it limits, the setting that changes it or None).
LIMIT_WORDS = {
    "memory_bytes": ("resident memory of all the notebook's processes", "c.SandboxExecute.memory_bytes"),
    "processes": ("processes the notebook may run at once", "c.SandboxExecute.processes"),
    "unit_seconds": ("wall-clock time for one cell, or for one exercise's checks", "c.SandboxExecute.unit_seconds"),
    "notebook_seconds": (
        "wall-clock time for the whole notebook, restarts included",
        "c.SandboxExecute.notebook_seconds",
    ),
    "output_chars": ("characters of printed text kept per cell", None),
    "file_bytes": ("the size of any one file the notebook writes", None),
    "tmp_bytes": ("all that the notebook writes into its private `/tmp` (levels root and userns)", None),
}


def _size(value):
    for unit, shift in (("GiB", 30), ("MiB", 20), ("KiB", 10)):
        if value >= 1 << shift and value % (1 << shift) == 0:
            return f"{value >> shift} {unit}"
    return f"{value:,}"


def _cell(text):
    """Text fit for one cell of a Markdown table."""
    return (text or "").replace("|", "\\|").replace("\n", " ")


def statuses():
    from grader.records.statuses import PENDING, STATUSES

    lines = [
        "| status | export word | real score? | a person grades it? | what the student reads |",
        "|---|---|---|---|---|",
    ]
    for key, status in STATUSES.items():
        said = "; ".join(
            f"*{part}*: {_cell(getattr(status, part))}" for part in ("exercise", "notebook") if getattr(status, part)
        )
        lines.append(
            f"| `{key}` | {status.csv} | {'yes' if status.real else 'no'} | "
            f"{'yes' if status.manual else 'no'} | {said or '(nothing: the score speaks)'} |"
        )
    lines += [
        "",
        "(status-details)=",
        "## When the code could not finish",
        "",
        "When a cell or a check could not finish, the feedback page says what happened, what usually "
        "causes it and what to try, and adds:",
        "",
        f"> {PENDING}",
        "",
    ]
    for key, status in STATUSES.items():
        if status.happened:
            lines += [
                f"### {status.csv[0].upper()}{status.csv[1:]} (`{key}`)",
                "",
                f"**What the feedback says happened:** {status.happened}.",
                "",
            ]
            if status.cause:
                lines += [f"**What usually causes it:** {status.cause}.", ""]
            if status.to_try:
                lines += [f"**What to try:** {status.to_try[0].upper()}{status.to_try[1:]}", ""]
    return "\n".join(lines) + "\n"


def misconceptions():
    from grader.checks.misconceptions import MISCONCEPTIONS

    lines = []
    for key in MISCONCEPTIONS:
        entry = MISCONCEPTIONS[key]
        lines += [f"`{key}`", f": **{entry.title[0].upper()}{entry.title[1:]}.** {entry.explanation}", ""]
    return "\n".join(lines)


def test_cell():
    from grader.checks import wording

    return "\n".join(
        [
            "In the student's notebook (visible checks only):",
            "",
            "```text",
            wording.wrap(wording.headline("softmax_scores", ((1, 1), None), 4)),
            wording.wrap(wording.headline("softmax_scores", ((0, 1), None), 4)),
            "```",
            "",
            "In the feedback page, once graded (visible and hidden checks):",
            "",
            "```text",
            wording.wrap(wording.headline("softmax_scores", ((1, 1), (3, 3)), 4, score=4)),
            wording.wrap(wording.headline("softmax_scores", ((1, 1), (1, 3)), 4, score=2)),
            "```",
            "",
            "A check's line starts with its mark: "
            + ", ".join(f"`{mark.strip()}`" for mark in wording.MARKS)
            + " (passed, failed, and *not applicable*: the grader could not check it).",
            "",
        ]
    )


def configurables():
    """[(module, class name)] of every class in grader/ that declares a setting (``.tag(config=True)``)."""
    found = []
    for path in sorted((KIT / "grader").rglob("*.py")):
        source = path.read_text(encoding="utf-8")
        if "config=True" not in source:
            continue
        module = ".".join(path.relative_to(KIT).with_suffix("").parts)
        for node in ast.parse(source).body:
            if isinstance(node, ast.ClassDef) and "config=True" in ast.get_source_segment(source, node):
                found.append((module, node.name))
    return found


def configuration():
    parts = []
    for module, name in configurables():
        cls = getattr(importlib.import_module(module), name)
        doc = (cls.__doc__ or "").strip().splitlines()
        parts += [
            name,
            "-" * len(name),
            "",
            f"``{module}.{name}``" + (f": {doc[0]}" if doc else ""),
            "",
            cls.class_config_rst_doc(),
            "",
        ]
    return "\n".join(parts) + "\n"


def export_columns():
    from grader.export.rows import COLUMNS

    lines = ["| column | what it holds |", "|---|---|"]
    for column in COLUMNS:
        if column not in COLUMN_WORDS:
            LOG.warning(f"the export's column {column!r} is not described in docs/_ext/kit_docs.py (COLUMN_WORDS)")
        lines.append(f"| `{column}` | {_cell(COLUMN_WORDS.get(column, ''))} |")
    return "\n".join(lines) + "\n"


def limits():
    from grader.autograde.jobs import DEFAULT_LIMITS
    from grader.boundary import uploads

    lines = ["| limit | default | what it limits | setting |", "|---|---|---|---|"]
    for key, value in DEFAULT_LIMITS.items():
        if key not in LIMIT_WORDS:
            LOG.warning(f"the sandbox's limit {key!r} is not described in docs/_ext/kit_docs.py (LIMIT_WORDS)")
        words, setting = LIMIT_WORDS.get(key, ("", None))
        shown = _size(value) if key.endswith("bytes") else f"{value:g} s" if key.endswith("seconds") else f"{value:,}"
        lines.append(f"| `{key}` | {shown} | {words} | {f'`{setting}`' if setting else '(fixed)'} |")
    lines += [
        "",
        "Files read from a download, an upload or nbgrader's exchange:",
        "",
        "| limit | value |",
        "|---|---|",
        f"| one file (a zip member) | {_size(uploads.MAX_BYTES)} |",
        f"| a zip, unpacked, in all | {_size(uploads.MAX_TOTAL_BYTES)} |",
        f"| compression of a member over {_size(uploads.RATIO_FROM)} | {uploads.MAX_RATIO} to 1 |",
        f"| folders within folders | {uploads.MAX_DEPTH} |",
    ]
    return "\n".join(lines) + "\n"


# The figures a benchmark's record holds that the trend table shows, by benchmark: (key, heading).
TREND = {
    "autograde_speed": [
        ("ratio_to_stock", "times stock"),
        ("scaling_1_to_2", "1 → 2 workers"),
        ("kit_2_workers_s", "kit, 2 workers (s)"),
        ("peak_cgroup_2_workers_mib", "memory, 2 workers (MiB)"),
    ],
    "selfcheck_speed": [
        ("import_torch_s", "import torch (s)"),
        ("worst_beyond_torch_s", "worst notebook beyond it (s)"),
    ],
    "similarity_speed": [("students", "students"), ("wall_s", "wall (s)"), ("page_kib", "page (KiB)")],
}


def _figure(value):
    if isinstance(value, dict):
        return ", ".join(f"{key} {_figure(item)}" for key, item in value.items())
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.3g}" if abs(value) < 100 else f"{value:.1f}"
    return "" if value is None else str(value)


def _day(record):
    return (record.get("date") or "?")[:10]


def benchmarks(path=KIT / "bench" / "results.jsonl"):
    records = []
    if path.exists():
        for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
            if line.strip():
                try:
                    records.append(json.loads(line))
                except json.JSONDecodeError as error:
                    LOG.warning(f"bench/results.jsonl, line {number}: not JSON ({error})")
    if not records:
        return "No benchmark has recorded a run yet: run one (below) and build the documentation again.\n"
    lines = []
    for name in sorted({record.get("benchmark", "?") for record in records}):
        runs = [record for record in records if record.get("benchmark") == name]
        latest = runs[-1]
        lines += [
            f"## `{name}`",
            "",
            f"Latest run: {_day(latest)}, commit `{(latest.get('commit') or 'unknown')[:12]}`, "
            f"{latest.get('cores', '?')} cores, `import torch` {_figure(latest.get('import_torch_s'))} s, "
            f"load average {_figure(latest.get('load_before'))} before"
            + (f", recorded from {latest['source']}" if latest.get("source") else "")
            + ".",
            "",
            "| figure | value |",
            "|---|---|",
        ]
        lines += [f"| `{key}` | {_cell(_figure(value))} |" for key, value in latest.get("figures", {}).items()]
        columns = TREND.get(name) or [(key, key) for key in list(latest.get("figures", {}))[:4]]
        lines += [
            "",
            f"Trend (the last {min(len(runs), 20)} of {len(runs)} runs, oldest first):",
            "",
            "| date | commit | cores | import torch (s) | " + " | ".join(h for _, h in columns) + " |",
            "|---" * (4 + len(columns)) + "|",
        ]
        for record in runs[-20:]:
            figures = record.get("figures", {})
            lines.append(
                f"| {_day(record)} | `{(record.get('commit') or 'unknown')[:12]}` | "
                f"{record.get('cores', '?')} | {_figure(record.get('import_torch_s'))} | "
                + " | ".join(_figure(figures.get(key)) for key, _ in columns)
                + " |"
            )
        lines.append("")
    return "\n".join(lines)


def cli_parser():
    """``grader.cli.parser()`` for sphinx-argparse, which reads each help text as reStructuredText: a ``|`` (in
    Blackboard's column name) is escaped so that it shows as itself."""
    from grader.cli import parser

    top = parser()
    for action in _actions(top):
        if action.help:
            action.help = action.help.replace("|", "\\|")
    return top


def _actions(parser):
    import argparse

    for action in parser._actions:
        yield action
        if isinstance(action, argparse._SubParsersAction):
            for sub in action.choices.values():
                yield from _actions(sub)


PAGES = {
    "statuses.md": statuses,
    "misconceptions.md": misconceptions,
    "test-cell.md": test_cell,
    "configuration.rst": configuration,
    "export-columns.md": export_columns,
    "limits.md": limits,
    "benchmarks.md": benchmarks,
}


def write_pages(app):
    OUT.mkdir(exist_ok=True)
    for name, make in PAGES.items():
        text = make()
        path = OUT / name
        if not path.exists() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")


def setup(app):
    app.connect("builder-inited", write_pages)
    return {"version": "1", "parallel_read_safe": True, "parallel_write_safe": True}
