"""The kit's HTML cleaning: a notebook's text, tables, images and math stay; nothing that runs does."""

import nbformat
import pytest

from grader.autograde.outputs import ran_cell
from grader.boundary.safe_html import SafeNames, clean_html, safe_outputs
from grader.records import ExerciseRecord, PartRecord
from grader.tutor.page import exercise_html

KEPT = [
    '<h2 id="Keys">Keys<a class="anchor-link" href="#Keys">¶</a></h2>',
    "<p>Some <em>text</em>, <strong>bold</strong>, <code>x[0]</code> and $a &lt; b$</p>",
    "<table><thead><tr><th>a</th><th>b</th></tr></thead><tbody><tr><td>1</td><td>2</td></tr></tbody></table>",
    '<img src="data:image/png;base64,iVBORw0KGgo=" alt="a figure">',
    '<a href="https://example.org/attention">a link</a>',
    "<ul><li>one</li></ul><ol><li>two</li></ol><pre>tensor([1., 2.])</pre>",
    '<pre style="white-space: pre-wrap;">a long message</pre>',
]

ACTIVE = [  # (payload, what must not be left of it)
    ("<script>alert(1)</script>", "<script"),
    ('<img src="x" onerror="alert(1)">', "onerror="),
    ('<a href="javascript:alert(1)">x</a>', 'href="javascript'),
    ('<a href="java\tscript:alert(1)">x</a>', "href="),
    ('<a href="&#106;avascript:alert(1)">x</a>', "href="),
    ('<a href="data:text/html,<script>alert(1)</script>">x</a>', "href="),
    ('<img src="data:text/html;base64,PHNjcmlwdD4=">', "src="),
    ('<svg onload="alert(1)"><script>alert(1)</script></svg>', "<svg"),
    ('<iframe srcdoc="<script>alert(1)</script>"></iframe>', "<iframe"),
    ('<object data="javascript:alert(1)"></object>', "<object"),
    ('<details open ontoggle="alert(1)">d</details>', "ontoggle="),
    ('<p style="position:fixed;top:0">cover</p>', "position"),
    ('<form action="https://example.org"><button>go</button></form>', "<form"),
    ('<meta http-equiv="refresh" content="0;url=javascript:alert(1)">', "<meta"),
]


@pytest.mark.parametrize("html", KEPT)
def test_a_notebooks_text_tables_images_and_links_are_kept(html):
    assert clean_html(html) == html


@pytest.mark.parametrize("html, gone", ACTIVE)
def test_nothing_that_runs_is_kept(html, gone):
    assert gone not in clean_html(html)


def test_the_kits_own_diagnosis_is_kept_as_html():
    failed = PartRecord("known outputs", 1, 0, False, "the notebook's example", "expected 1 <got> 2", "softmax_dim0")
    html = exercise_html(ExerciseRecord("softmax_scores", 0, 2, parts=[failed]))
    cleaned = clean_html(html)
    assert "<b>Likely mistake:</b>" in cleaned and 'class="kit-diagnosis"' in cleaned
    assert cleaned.count("&lt;") == html.count("&lt;")  # nothing of the kit's own markup became text


def _display(data):
    return nbformat.v4.new_output("display_data", data=data)


def test_outputs_keep_text_images_and_math_and_lose_what_runs():
    outputs = safe_outputs(
        [
            nbformat.v4.new_output("stream", name="stdout", text="<script>printed</script>"),
            _display({"text/html": "<b>ok</b><script>alert(1)</script>", "text/plain": "ok"}),
            _display({"application/javascript": "alert(1)", "text/javascript": "alert(1)", "text/plain": "js"}),
            _display({"image/svg+xml": "<svg onload='alert(1)'/>", "image/png": "iVBORw0KGgo="}),
            _display({"text/markdown": "<img src=x onerror=alert(1)>", "text/latex": "$x$"}),
            _display({"application/vnd.jupyter.widget-view+json": {"model_id": "1"}, "text/plain": "widget"}),
        ]
    )
    assert outputs[0].text == "<script>printed</script>"  # plain text shows as text
    assert [sorted(output.data) for output in outputs[1:]] == [
        ["text/html", "text/plain"],
        ["text/plain"],
        ["image/png"],
        ["text/latex", "text/markdown"],
        ["text/plain"],
    ]
    assert outputs[1].data["text/html"] == "<b>ok</b>&lt;script&gt;alert(1)&lt;/script&gt;"
    assert "onerror" not in outputs[4].data["text/markdown"]


def test_the_autograded_notebook_gets_the_cleaned_outputs():
    cell = nbformat.v4.new_code_cell("display(HTML(...))")
    ran_cell(
        cell,
        {
            "status": "ok",
            "count": 3,
            "outputs": [
                {
                    "output_type": "display_data",
                    "metadata": {},
                    "data": {"text/html": "<img src=x onerror=alert(1)>", "application/javascript": "alert(1)"},
                }
            ],
        },
    )
    assert cell.outputs[0].data == {"text/html": '<img src="x">'} and cell.execution_count == 3


def test_formgraders_page_gets_the_students_id_and_name_as_text():
    resources = {
        "student": "<b>id</b>",
        "first_name": "<img src=x onerror=alert(1)>",
        "last_name": None,
        "notebook_path": 'course/autograded/"><script>/01.ipynb',
        "notebook_id": "01_attention_basics",
    }
    _, resources = SafeNames().preprocess(nbformat.v4.new_notebook(), resources)
    assert resources == {
        "student": "&lt;b&gt;id&lt;/b&gt;",
        "first_name": "&lt;img src=x onerror=alert(1)&gt;",
        "last_name": None,
        "notebook_path": "course/autograded/&quot;&gt;&lt;script&gt;/01.ipynb",
        "notebook_id": "01_attention_basics",
    }


def test_image_metadata_keeps_only_a_size_alt_text_and_flags():
    output = _display({"image/png": "iVBORw0KGgo="})
    output.metadata = {
        "width": "1 onerror=alert(1)",
        "height": 30,
        "filenames": {"image/png": "javascript:x"},
        "image/png": {"width": 20.5, "alt": "a figure", "unconfined": True, "height": True},
    }
    assert safe_outputs([output])[0].metadata == {
        "height": 30,
        "image/png": {"width": 20.5, "alt": "a figure", "unconfined": True},
    }


def test_the_course_config_alone_keeps_formgraders_page_safe(root):
    """A notebook graded before the kit cleaned outputs, rendered by formgrader's exporter with the course config."""
    from nbconvert import HTMLExporter
    from nbgrader.server_extensions.formgrader import handlers
    from traitlets.config.loader import PyFileConfigLoader

    from ..html_payloads import ATTACHMENTS, MARKDOWN_CELL, NAMES, TOKEN, active_content, js

    config = PyFileConfigLoader("nbgrader_config.py", path=str(root)).load_config()
    config.HTMLExporter.template_name, config.HTMLExporter.extra_template_basedirs = (
        "formgrade",
        [handlers.template_path],
    )
    code = nbformat.v4.new_code_cell(
        "display(...)",
        outputs=[
            _display({"text/html": f'<img src=x onerror="{js("html")}">', "application/javascript": js("js")}),
            _display({"image/svg+xml": f'<svg onload="{js("svg")}"/>'}),
            nbformat.v4.new_output(
                "display_data",
                data={"image/png": "eA=="},
                metadata={"image/png": {"width": f"1 onerror={js('width')}"}},
            ),
        ],
    )
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(MARKDOWN_CELL, attachments=ATTACHMENTS), code])
    resources = {
        "student": f"<b>{TOKEN}</b>",
        **NAMES,
        "notebook_path": "x",
        "base_url": "",
        "index": 0,
        "total": 1,
        "submission_id": "1",
        "assignment_id": "a",
        "notebook_id": "n",
    }
    page, _ = HTMLExporter(config=config).from_notebook_node(nb, resources=resources)
    assert TOKEN in page and active_content(page) == []
