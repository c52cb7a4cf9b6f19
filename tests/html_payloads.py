"""Scripts a malicious student puts in a notebook for the instructor's browser, and how to see which one ran.

Each payload, if it runs, sets its own attribute ``kitxss-ran-<name>`` on the page's root element
(the name is joined at run time, so the payload's text alone never shows it); every payload's text
holds ``kitxss``, so a static look at the HTML finds what of the submission could still run.
"""

import base64
import html.parser
import re

import nbformat

TOKEN = "kitxss"
RAN = re.compile(rf"{TOKEN}-ran-([a-z0-9-]+)=")
URL_ATTRIBUTES = {"href", "src", "action", "formaction", "data", "xlink:href", "background", "poster"}
ACTIVE_TAGS = {"script", "iframe", "frame", "object", "embed", "base", "meta", "link", "form", "svg", "math", "style"}
# Attributes of those that are text: a formula's LaTeX, as its text alternative (grader/boundary/maths.py).
TEXT_ATTRIBUTES = {("math", "alttext")}


def js(name, target="document"):
    """JavaScript that marks the page (``target``'s) as having run payload ``name``."""
    return f"{target}.documentElement.setAttribute('{TOKEN}-ran-'+'{name}','1')"


def _svg(name):
    return (
        f'<svg xmlns="http://www.w3.org/2000/svg" onload="{js(name + "-onload")}">'
        f'<script>{js(name + "-script")}</script><circle r="5"/></svg>'
    )


OUTPUTS_CELL = f'''from IPython.display import HTML, Javascript, Latex, Markdown, SVG, display
display(HTML("""<b>bold</b> <script>{js("html-script")}</script>
<img src="x" onerror="{js("html-onerror")}">
<svg><script>{js("html-svg-script")}</script></svg>
<iframe srcdoc="<script>{js("html-iframe", "parent.document")}</script>"></iframe>
<details open ontoggle="{js("html-ontoggle")}">d</details>
<a href="javascript:{js("html-link")}">link</a>"""))
display(Javascript("""{js("js-output")}"""))
display({{"text/javascript": """{js("text-javascript")}""", "text/plain": "text/javascript"}}, raw=True)
display(Markdown("""Markdown output <img src="x" onerror="{js("md-output-onerror")}"> \
[link](javascript:{TOKEN}_md_link())
<script>{js("md-output-script")}</script>"""))
display(SVG("""{_svg("svg-output")}"""))
display(Latex(r"""$x$ <img src="x" onerror="{js("latex-onerror")}"> \
$\\href{{javascript:{TOKEN}_latex_href()}}{{x}}$"""))
display({{"image/png": "bm90IGEgcG5n", "text/plain": "png"}}, raw=True,
        metadata={{"image/png": {{"width": "1 onerror={js("png-width")}"}}}})
display({{"image/jpeg": "bm90IGEganBlZw==", "text/plain": "jpeg"}}, raw=True,
        metadata={{"filenames": {{"image/jpeg": "javascript:{TOKEN}_jpeg_filename()"}}, "height": "1 \
onload={js("jpeg-height")}"}})
'''

MARKDOWN_CELL = f'''A student's note <img src="x" onerror="{js("mdcell-onerror")}"> \
<script>{js("mdcell-script")}</script>
[a link](javascript:{TOKEN}_mdcell_link()) <svg onload="{js("mdcell-svg-onload")}"></svg>
<iframe srcdoc="<script>{js("mdcell-iframe", "parent.document")}</script>"></iframe>

![a picture](attachment:picture.svg) ![a page](attachment:page.html)
'''

ATTACHMENTS = {
    "picture.svg": {"image/svg+xml": base64.b64encode(_svg("attachment-svg").encode()).decode()},
    "page.html": {"text/html": base64.b64encode(f"<script>{js('attachment-html')}</script>".encode()).decode()},
}

NAMES = {
    "first_name": f'<img src="x" onerror="{js("first-name")}">',  # a name in the roster, from the LMS
    "last_name": f"<script>{js('last-name')}</script>",
}

GOOD_CELL = """import matplotlib.pyplot as plt
print(torch.tensor([[11.25, 22.5]]))
plt.plot([0, 1], [1, 0])
plt.show()"""
GOOD_TENSOR = "tensor([[11.2500, 22.5000]])"


RAW_CELL = f'<p>raw</p><script>{js("raw-script")}</script><img src="x" onerror="{js("raw-onerror")}">'


def with_payloads(nb):
    """``nb`` with the payload cells after its first code cell."""
    first = next(i for i, cell in enumerate(nb.cells) if cell.cell_type == "code")
    markdown = nbformat.v4.new_markdown_cell(MARKDOWN_CELL, attachments=ATTACHMENTS)
    raw = nbformat.v4.new_raw_cell(RAW_CELL, metadata={"raw_mimetype": "text/html"})
    nb.cells[first + 1 : first + 1] = [nbformat.v4.new_code_cell(OUTPUTS_CELL), markdown, raw]
    return nb


def with_good_outputs(nb):
    """``nb`` with a cell that prints a tensor and shows a figure, after its first code cell."""
    first = next(i for i, cell in enumerate(nb.cells) if cell.cell_type == "code")
    nb.cells.insert(first + 1, nbformat.v4.new_code_cell(GOOD_CELL))
    return nb


def ran(dom):
    """The payloads that ran in the browser, by the marks left on the page."""
    return sorted(set(RAN.findall(dom)))


class _Active(html.parser.HTMLParser):
    """Collects the submission's active content: each place where a payload's text could run."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.found, self.inside = [], []

    def handle_starttag(self, tag, attrs):
        for name, value in attrs:
            value = value or ""
            url = re.sub(r"[\x00-\x20]+", "", value).lower()
            if TOKEN in value and (
                name.startswith("on") or (name in URL_ATTRIBUTES and url.startswith("javascript:")) or name == "srcdoc"
            ):
                self.found.append(f"<{tag} {name}={value[:60]!r}>")
            if TOKEN in value and tag in ACTIVE_TAGS and (tag, name) not in TEXT_ATTRIBUTES:
                self.found.append(f"<{tag} {name}=...>")
        self.inside.append(tag)

    def handle_endtag(self, tag):
        if tag in self.inside:
            del self.inside[len(self.inside) - 1 - self.inside[::-1].index(tag) :]

    def handle_data(self, data):
        if TOKEN in data and any(tag in ACTIVE_TAGS for tag in self.inside):
            self.found.append(f"<{next(t for t in self.inside if t in ACTIVE_TAGS)}>{data.strip()[:60]}")


def active_content(page):
    """Where ``page`` (HTML) holds a payload that a browser could run: ``<script>``s and other active elements,
    ``on*`` attributes, ``javascript:`` URLs, frames."""
    parser = _Active()
    parser.feed(page)
    parser.close()
    return parser.found
