"""The feedback pages' exporter (grader/feedback/exporter.py) makes the page nbconvert's HTMLExporter makes, element
for element, without parsing it a second time; the figures get alt text of the kit's words; a page the second
pass would change (another image, a lab template) still gets it."""

import base64

import pytest
from bs4 import BeautifulSoup
from nbconvert.exporters import HTMLExporter
from nbformat.v4 import new_code_cell, new_markdown_cell, new_notebook, new_output
from traitlets.config import Config

from grader.feedback.exporter import FIGURE_ALT, FeedbackExporter

PNG = base64.b64encode(b"\x89PNG\r\n\x1a\n" + b"\0" * 16).decode()
SVG = base64.b64encode(b'<svg xmlns="http://www.w3.org/2000/svg"/>').decode()
DEFAULT_ALT = "No description has been provided for this image"


def notebook(*extra):
    return new_notebook(
        cells=[
            new_markdown_cell("# Scores\nThe *scores* of `q` against `k`: ![a plot](plot.png)"),
            new_code_cell(
                "plt.imshow(weights)",
                outputs=[
                    new_output("display_data", data={"image/png": PNG, "text/plain": "<Figure>"}),
                    new_output("stream", text="tensor([1., 2.])\n"),
                ],
            ),
            new_code_cell(
                "1 / 0",
                outputs=[
                    new_output(
                        "error",
                        ename="ZeroDivisionError",
                        evalue="division by zero",
                        traceback=["ZeroDivisionError: division by zero"],
                    )
                ],
            ),
            new_code_cell(
                "show()",
                outputs=[
                    new_output("display_data", data={"text/html": "<p>Shape <b>(3, 3)</b></p>", "text/plain": "shape"})
                ],
            ),
            *extra,
        ],
        metadata={"language_info": {"name": "python"}},
    )


def elements(page):
    """Every element of ``page`` (name, attributes in order of name, the figures' alt text as one), and its text."""
    soup = BeautifulSoup(page, features="html.parser")
    return [
        (tag.name, sorted((name, "ALT" if value == FIGURE_ALT else str(value)) for name, value in tag.attrs.items()))
        for tag in soup.find_all(True)
    ], soup.get_text()


def pages(nb, template="classic"):
    config = Config({"HTMLExporter": {"template_name": template}})
    return FeedbackExporter(config=config).from_notebook_node(nb)[0], HTMLExporter(config=config).from_notebook_node(
        nb
    )[0]


def test_the_page_is_htmlexporters_with_the_figures_alt_text():
    fast, full = pages(notebook())
    assert full.count(f'alt="{DEFAULT_ALT}"') == 1
    assert elements(fast) == elements(full.replace(DEFAULT_ALT, FIGURE_ALT))
    assert fast != str(BeautifulSoup(fast, features="html.parser"))  # the fast page was not parsed again


@pytest.mark.parametrize(
    "extra",
    [
        new_code_cell("svg()", outputs=[new_output("display_data", data={"image/svg+xml": SVG, "text/plain": "svg"})]),
        new_markdown_cell('<IMG src="data:image/png;base64,AAAA">'),
        new_code_cell("html()", outputs=[new_output("display_data", data={"text/html": "<img src='x.png'>"})]),
    ],
    ids=["svg output", "img in markdown", "img in html output"],
)
def test_a_page_with_another_image_is_htmlexporters_own(extra):
    fast, full = pages(notebook(extra))
    assert fast == str(BeautifulSoup(fast, features="html.parser"))  # parsed again
    assert elements(fast) == elements(full.replace(DEFAULT_ALT, FIGURE_ALT, 1))
    assert fast.count(f'alt="{DEFAULT_ALT}"') == 1 and fast.count(f'alt="{FIGURE_ALT}"') == 1


def test_a_lab_page_is_htmlexporters_own():  # its template writes no alt text of an output's
    fast, full = pages(notebook(), template="lab")
    assert 'tabindex="0"' in full
    assert fast == full
