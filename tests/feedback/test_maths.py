"""A notebook's maths on the pages with no network (grader/boundary/maths.py): the formulas of Markdown cells and
outputs and of LaTeX outputs are MathML written with the page, each with its LaTeX as its alt text, and the page
loads no script; a student's LaTeX or MathML brings nothing that runs and breaks nothing around it."""

import bs4
import nbformat
import pytest
from nbconvert import HTMLExporter
from nbgrader.converters import GenerateFeedback
from traitlets.config.loader import PyFileConfigLoader

from grader.boundary import maths
from grader.boundary.safe_html import SafeMarkdown, clean_html
from grader.feedback.exporter import FeedbackExporter

from .. import html_payloads as payloads
from ..conftest import EXERCISES, ROOT
from ..layout import laid_out

SOFTMAX = r"\mathrm{softmax}(s)_j = \frac{e^{s_j}}{\sum_k e^{s_k}},"  # notebook 01's first formula
LATEX_ATTACKS = {  # a student's formula: what it tries
    "link": r"$\href{javascript:" + payloads.TOKEN + r"_href()}{x}$",
    "script in text": r"$\text{<script>" + payloads.js("text-script") + r"</script>}$",
    "element out of the formula": r"$\text{</math><img src=x onerror=" + payloads.js("text-img") + r">}$",
    "style": r"$\style{background:url(javascript:" + payloads.TOKEN + r"_style())}{x}$",
    "class and colour": r"$\class{kit-diagnosis}{\color{white}{x}\colorbox{white}{y}}$",
    "the page's width": r"$\hspace{1000em}\rule{1000em}{1000em}$",
    "no formula": r"$\frac{1$ and $x^$ and ${{{$",
    "a long one": "$" + "x+" * 4000 + "x$",
}


def render(markdown):
    """A Markdown cell as the kit's markdown2html filter writes it for formgrader's view and the feedback pages."""
    return SafeMarkdown(parent=HTMLExporter())({"cell": {}, "resources": {}}, markdown)


def test_a_markdown_formula_is_mathml_with_its_latex_as_alt_text():
    soup = bs4.BeautifulSoup(render(f"Weights:\n\n$${SOFTMAX}$$\n\nwith $w_j$ for each $j$."), "html.parser")
    block, *inline = soup.find_all("math")
    assert (block["display"], block["alttext"]) == ("block", SOFTMAX)
    assert block.find("mfrac") and "softmax" in block.get_text() and "∑" in block.get_text()
    assert [(m["display"], m["alttext"], m.get_text()) for m in inline] == [
        ("inline", "w_j", "wj"),
        ("inline", "j", "j"),
    ]
    assert "$" not in soup.get_text()


def test_a_latex_output_shows_its_formulas_as_mathml_and_the_rest_as_text():
    soup = bs4.BeautifulSoup(maths.latex2html(r"$\displaystyle \frac{1}{\sqrt{d}}$ <b>and</b> \[x\]"), "html.parser")
    assert [(m["display"], m["alttext"]) for m in soup.find_all("math")] == [
        ("inline", r"\displaystyle \frac{1}{\sqrt{d}}"),
        ("block", "x"),
    ]
    assert soup.find("b") is None and "<b>and</b>" in soup.get_text()


@pytest.mark.parametrize("latex", LATEX_ATTACKS.values(), ids=LATEX_ATTACKS)
def test_a_students_latex_runs_nothing_and_breaks_nothing_around_it(latex):
    page = render(f"Before {latex} after.\n\nThe next paragraph.")
    soup = bs4.BeautifulSoup(page, "html.parser")
    assert [p.get_text()[-6:] for p in soup.find_all("p")] == ["after.", "graph."]  # the formula stayed in its place
    assert soup.find_all(["script", "img", "style"]) == []
    for element in (e for m in soup.find_all("math") for e in [m, *m.find_all(True)]):
        assert element.name in maths.TAGS, element.name
        assert set(element.attrs) <= maths.ATTRIBUTES | {"alttext"}, element
        lengths = [value for name, value in element.attrs.items() if name != "alttext"]
        assert all(float(n) <= maths.LARGEST for v in lengths for n in maths.NUMBER.findall(v)), element
    assert clean_html(page) == page  # as a second cleaning leaves it (a Markdown output is cleaned twice)


def test_a_formula_in_a_heading_an_image_or_a_link_stays_text_in_their_attributes():
    soup = bs4.BeautifulSoup(
        render("## The $QK^T$ scores\n\n![$x<y$](data:image/png;base64,eA==) [$a$](#top)"), "html.parser"
    )
    assert soup.h2.math["alttext"] == "QK^T" and "<" not in soup.h2["id"]
    assert soup.img["alt"] == "x<y" and soup.p.a.math["alttext"] == "a"


def test_a_students_own_mathml_keeps_only_its_layout():
    raw = (
        f'<math href="javascript:{payloads.js("math-href")}" style="position:fixed">'
        f'<maction actiontype="statusline"><mi xlink:href="javascript:x" onclick="{payloads.js("mi")}">x</mi></maction>'
        f'<annotation-xml encoding="text/html"><script>{payloads.js("annotation")}</script></annotation-xml>'
        f'<mtext><table><mglyph><style><img src=x onerror="{payloads.js("mglyph")}"></style></mglyph></table></mtext>'
        "</math>"
    )
    soup = bs4.BeautifulSoup(clean_html(raw), "html.parser")
    assert soup.math.attrs == {} and soup.mi.attrs == {}
    assert soup.find_all(["maction", "annotation-xml", "script", "style", "mglyph"]) == []
    assert [element.attrs for element in soup.find_all("img")] == [{"src": "x"}]


def course_config():
    """The kit's course configuration, as nbgrader's generate_feedback sets up its exporter with it."""
    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    config.merge(GenerateFeedback(config=config).config)
    return config


def feedback_page(path, student_markdown=()):
    """The feedback page of the released notebook 01, with the student's Markdown cells after its title, as the
    course's exporter writes it (scores of 0 where the gradebook would give them)."""
    nb = nbformat.read(EXERCISES / "01_attention_basics.ipynb", as_version=4)
    nb.cells[1:1] = [nbformat.v4.new_markdown_cell(text) for text in student_markdown]
    for cell in nb.cells:
        if cell.metadata.get("nbgrader", {}).get("grade"):
            cell.metadata.nbgrader.score = 0
    resources = {"nbgrader": {"notebook": "01_attention_basics", "score": 0, "max_score": 24, "late_penalty": 0}}
    path.write_text(FeedbackExporter(config=course_config()).from_notebook_node(nb, resources)[0], encoding="utf-8")
    return path


def test_the_feedback_page_writes_its_maths_and_loads_no_script(tmp_path):
    soup = bs4.BeautifulSoup(feedback_page(tmp_path / "page.html").read_text(), "html.parser")
    assert soup.find_all("script") == [] and soup.find("math", alttext=SOFTMAX)
    assert "$$" not in soup.get_text()


def test_formgraders_view_shows_the_markdowns_maths_as_mathml_too():
    """nbgrader's own template (it still asks a CDN for MathJax) with the course's filters: the maths needs none."""
    from nbgrader.server_extensions.formgrader import handlers

    config = PyFileConfigLoader("nbgrader_config.py", path=str(ROOT)).load_config()
    config.HTMLExporter.template_name = "formgrade"
    config.HTMLExporter.extra_template_basedirs = [handlers.template_path]
    nb = nbformat.v4.new_notebook(cells=[nbformat.v4.new_markdown_cell(f"$${SOFTMAX}$$ for each $j$")])
    resources = {
        **dict.fromkeys(("student", "first_name", "last_name", "notebook_path", "submission_id", "notebook_id"), "x"),
        **{"assignment_id": "a", "base_url": "", "index": 0, "total": 1},
    }
    soup = bs4.BeautifulSoup(HTMLExporter(config=config).from_notebook_node(nb, resources)[0], "html.parser")
    assert [m["alttext"] for m in soup.find_all("math")] == [SOFTMAX, "j"]


@pytest.mark.slow
def test_a_feedback_page_shows_its_maths_with_no_network(tmp_path):
    """In Chromium with no network: the page asks for nothing but itself, every formula is laid out, none is left
    as LaTeX, and no student's formula ran."""
    attacks = [f"{name}: {latex}" for name, latex in LATEX_ATTACKS.items() if name != "no formula"]  # (as text)
    path = feedback_page(tmp_path / "page.html", [*attacks, "Mine: $$q \\cdot k_{17}$$ and $w_{17}$."])
    page = laid_out(path, "math")
    assert page.requests == [path.as_uri()]
    softmax = next(e for e in page.elements if e["attributes"].get("alttext") == SOFTMAX)
    assert softmax["text"].startswith("softmax(s)j=") and softmax["attributes"]["display"] == "block"
    mine = {e["attributes"]["alttext"]: (e["attributes"]["display"], e["text"]) for e in page.elements}
    assert (mine["q \\cdot k_{17}"], mine["w_{17}"]) == (("block", "q·k17"), ("inline", "w17"))
    shown = [e for e in page.elements if "hspace" not in e["attributes"]["alttext"]]  # an empty space, that one
    assert all(e["width"] > 0 and e["height"] > 0 for e in shown), [e for e in shown if not e["width"]]
    assert all(e["width"] <= 1300 for e in page.elements)  # within the window: none pushes the page wider
    assert "$$" not in page.text and "\\frac" not in page.text and "\\mathrm" not in page.text
    assert payloads.ran(page.dom) == []
