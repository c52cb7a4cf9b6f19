"""The feedback pages' exporter: nbconvert's HTMLExporter, less its second pass over pages that do not need it.

nbconvert 7.17's HTMLExporter renders a page, then parses it again with BeautifulSoup to give each ``<img>``
without ``alt`` a default one and to make JupyterLab's cells focusable: half of ``generate_feedback``'s time.
The feedback template is the classic one, which has no JupyterLab cells, and the figures a notebook's code drew
get their alt text from the template here (from the output's metadata: which figure of which cell it is). A page
that may hold another image (an SVG output, or ``<img`` in a Markdown cell or an HTML or Markdown output), or a lab
template's cells, is still made by HTMLExporter's own method.
``nbgrader_config.py`` sets it as ``GenerateFeedback.exporter_class``.

Where nbgrader chose its own feedback template, the page is the kit's (``templates/feedback.html.j2``), which
extends nbgrader's to meet WCAG 2.1 AA; a template the configuration names is used as it is.
"""

import copy
import pathlib

from nbconvert.exporters import HTMLExporter, TemplateExporter
from nbconvert.filters.highlight import Highlight2HTML
from nbconvert.filters.widgetsdatatypefilter import WidgetsDataTypeFilter

from ..boundary.maths import latex2html

PAGE = pathlib.Path(__file__).resolve().parent / "templates" / "feedback.html.j2"
NBGRADER_TEMPLATE = "feedback"  # what nbgrader's GenerateFeedback sets, where the configuration sets none
FIGURE_ALT = "A figure drawn by the code of this cell"
FIGURES = ("image/png", "image/jpeg")
LAB_CELLS = ("jp-Cell-inputWrapper", "jp-OutputArea-output")  # what the pass makes focusable (lab templates)


def needs_second_pass(nb):
    """Whether a page of ``nb`` may hold an image the template gives no alt text."""
    for cell in nb.cells:
        if cell.cell_type == "markdown" and "<img" in cell.source.lower():
            return True
        for output in cell.get("outputs", []):
            data = output.get("data", {})
            if "image/svg+xml" in data or any(
                "<img" in str(data.get(kind, "")).lower() for kind in ("text/html", "text/markdown")
            ):
                return True
    return False


def give_figures_alt(nb):
    """Give the figures of ``nb`` that have no alt text one that names the cell that drew them, which the template
    writes."""
    for cell in nb.cells:
        figures = [
            output
            for output in cell.get("outputs", [])
            if output.get("output_type") in ("display_data", "execute_result")
            and any(kind in output.get("data", {}) for kind in FIGURES)
        ]
        for number, output in enumerate(figures, 1):
            metadata = output.setdefault("metadata", {})
            if not metadata.get("alt") and not any(metadata.get(kind, {}).get("alt") for kind in FIGURES):
                metadata["alt"] = figure_alt(cell, number, len(figures))


def figure_alt(cell, number, count):
    """ "Figure 2 of 3 drawn by the code of cell In [12]": the cell as its prompt on the page names it;
    :data:`FIGURE_ALT` for a cell's one figure where the cell has no prompt number."""
    where = "this cell" if cell.get("execution_count") is None else f"cell In [{cell.execution_count}]"
    which = "A figure" if count == 1 else f"Figure {number} of {count}"
    return f"{which} drawn by the code of {where}"


class FeedbackExporter(HTMLExporter):
    """nbconvert's HTMLExporter with nbgrader's feedback page made the kit's, the figures given alt text."""

    def __init__(self, config=None, **kw):
        super().__init__(config=config, **kw)
        if self.template_name == NBGRADER_TEMPLATE and self.template_file == "index.html.j2":
            self.template_paths = [*self.template_paths, str(PAGE.parent)]  # after nbgrader's: it extends it
            self.template_file = PAGE.name

    def default_filters(self):
        """nbconvert's, and ``latex2html`` for the template's LaTeX outputs (their formulas as MathML)."""
        yield from super().default_filters()
        yield ("latex2html", latex2html)

    def from_notebook_node(self, nb, resources=None, **kw):
        """As ``HTMLExporter.from_notebook_node`` (nbconvert 7.17), less its BeautifulSoup pass where the page,
        as the preprocessors leave it, needs none; where it does, the page is made again by that method."""
        language = nb.metadata.get("language_info", {})
        lexer = language.get("pygments_lexer", language.get("name", None))
        self.register_filter(
            "highlight_code", self.filters.get("highlight_code", Highlight2HTML(pygments_lexer=lexer, parent=self))
        )
        fast_resources = self._init_resources(copy.copy(resources))
        self.register_filter(
            "filter_data_type",
            WidgetsDataTypeFilter(notebook_metadata=self._nb_metadata, parent=self, resources=fast_resources),
        )
        self.second_pass = False
        page = TemplateExporter.from_notebook_node(self, nb, fast_resources, **kw)
        if self.second_pass or any(name in page[0] for name in LAB_CELLS):
            return super().from_notebook_node(nb, resources, **kw)
        return page

    def _preprocess(self, nb, resources):
        nb, resources = super()._preprocess(nb, resources)
        give_figures_alt(nb)
        self.second_pass = self.second_pass or needs_second_pass(nb)
        return nb, resources
