"""What of a submission a page may show: its HTML and outputs with no active content.

A student's Markdown cells, attachments and outputs, and the roster's names, reach formgrader's
view (inside the instructor's Jupyter session) and the feedback pages. ``nbgrader_config.py`` turns
on nbconvert's own sanitising (``HTMLExporter.sanitize_html``: no JavaScript or widget output, SVG
only as an image) with the kit's filters and preprocessors:

- :func:`clean_html`, nbconvert's ``clean_html`` filter: bleach (nbconvert's sanitiser) with an
  allow-list wide enough for a notebook's text (headings, paragraphs, tables, images, MathML's layout
  of maths) and nothing that runs: no script, event handler, ``javascript:`` URL, frame or inline SVG;
- :class:`SafeMarkdown`, the ``markdown2html`` filter: nbgrader's templates render Markdown cells
  with it alone, so it cleans too; it writes the maths as MathML (:mod:`grader.boundary.maths`);
- :class:`SafeNames`: formgrader's template prints the student's id and name as they are;
- :class:`SafeOutputs`: outputs (and their metadata) cleaned, also as the sandbox's outputs are
  written into the autograded notebook, so any other viewer of that file is safe too.
"""

import html
import re

import bleach
from bleach.css_sanitizer import CSSSanitizer
from jinja2 import pass_context
from nbconvert.preprocessors import Preprocessor
from nbconvert.preprocessors.sanitize import SanitizeHTML
from traitlets.config import LoggingConfigurable

from . import maths

TAGS = frozenset(
    {
        "a",
        "abbr",
        "acronym",
        "b",
        "blockquote",
        "br",
        "caption",
        "cite",
        "code",
        "col",
        "colgroup",
        "dd",
        "del",
        "details",
        "dfn",
        "div",
        "dl",
        "dt",
        "em",
        "figcaption",
        "figure",
        "h1",
        "h2",
        "h3",
        "h4",
        "h5",
        "h6",
        "hr",
        "i",
        "img",
        "ins",
        "kbd",
        "li",
        "mark",
        "ol",
        "p",
        "pre",
        "q",
        "s",
        "samp",
        "small",
        "span",
        "strike",
        "strong",
        "sub",
        "summary",
        "sup",
        "table",
        "tbody",
        "td",
        "tfoot",
        "th",
        "thead",
        "tr",
        "tt",
        "u",
        "ul",
        "var",
    }
)
COMMON = ["class", "id", "title", "lang", "dir", "style"]  # style: bleach's CSS allow-list (no position)
ATTRIBUTES = {
    "*": COMMON,
    "a": [*COMMON, "href", "name"],
    "img": [*COMMON, "src", "alt", "width", "height"],
    "ol": [*COMMON, "start", "type"],
    "td": [*COMMON, "colspan", "rowspan", "align"],
    "th": [*COMMON, "colspan", "rowspan", "align", "scope"],
    "col": [*COMMON, "span"],
    "details": [*COMMON, "open"],
}
PROTOCOLS = frozenset({"http", "https", "mailto", "data"})
IMAGE_DATA = re.compile(r"data:image/(png|jpeg|gif|webp|svg\+xml)[;,]")
INVISIBLE = re.compile(r"[`\x00-\x20\x7f-\xa0\s]+|[^\x00-\x7f]")  # what browsers and bleach ignore in a URL


def _allowed(tag, name, value):
    """An attribute of the allow-list; ``data:`` only as an image's source (an image runs no script)."""
    if tag in maths.TAGS:
        return maths.allowed_attribute(name, value)
    if name not in ATTRIBUTES.get(tag, COMMON):
        return False
    url = INVISIBLE.sub("", value).lower()
    if name in ("href", "src") and url.startswith("data:"):
        return tag == "img" and name == "src" and bool(IMAGE_DATA.match(url))
    return True


def clean_html(text):
    """``text`` (HTML) with every tag outside the allow-list shown as text, every other attribute dropped."""
    text = text.decode() if isinstance(text, bytes) else str(text)
    return bleach.clean(
        text,
        tags=TAGS | maths.TAGS,
        attributes=_allowed,
        protocols=PROTOCOLS,
        strip=False,
        strip_comments=True,
        css_sanitizer=CSSSanitizer(),
    )


class SafeMarkdown(LoggingConfigurable):
    """The ``markdown2html`` filter: the exporter's own (anchors, cell attachments) with its maths as MathML, then
    :func:`clean_html`.

    nbconvert makes a configurable filter with the exporter as its parent; the filter reads the
    template's context (the cell's attachments) as the exporter's does.
    """

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        pass_context(self)  # Jinja passes the template's context to this filter

    def __call__(self, context, source):
        return clean_html(maths.markdown2html(self.parent, context, source))


class SafeNames(Preprocessor):
    """The student's id and name (the roster's, from an LMS) as text in formgrader's view of a submission."""

    keys = ("student", "first_name", "last_name", "notebook_path")

    def preprocess(self, nb, resources):
        for key in self.keys:
            if isinstance(resources.get(key), str):
                resources[key] = html.escape(resources[key])
        return nb, resources


class SafeOutputs(SanitizeHTML):
    """nbconvert's ``SanitizeHTML`` with the kit's allow-list, for code cells' outputs only: HTML and Markdown
    cleaned, plain text, LaTeX, JSON, PNG and JPEG kept, every other type (JavaScript, SVG, widgets) dropped,
    and of each output's metadata only what nbconvert's templates read as an image's size, alt text or frame.

    nbconvert prints an image's width and height unquoted: ``width="1 onerror=..."`` would be an event
    handler. Also an exporter preprocessor (``nbgrader_config.py``), for notebooks graded without it.
    """

    def preprocess_cell(self, cell, resources, index):
        if cell.cell_type == "code":
            cell.outputs = self.sanitize_code_outputs(cell.outputs)
        return cell, resources

    def sanitize_code_outputs(self, outputs):
        """The outputs cleaned; a display left with nothing to show is dropped."""
        for output in super().sanitize_code_outputs(outputs):
            if "metadata" in output:
                output.metadata = _safe_metadata(output.metadata)
        return [output for output in outputs if output.output_type in ("stream", "error") or output.data]

    def sanitize_html_tags(self, html_str):
        return clean_html(html_str)


METADATA = {
    "width": (int, float),
    "height": (int, float),
    "alt": str,
    "unconfined": bool,
    "isolated": bool,
    "needs_background": str,
}


def _safe_metadata(metadata):
    """An output's metadata, top level and per MIME type, with only the keys above, of their type."""

    def kept(values):
        return {key: value for key, value in values.items() if _of_its_type(key, value)}

    return {
        **kept(metadata),
        **{mime: kept(values) for mime, values in metadata.items() if "/" in mime and isinstance(values, dict)},
    }


def _of_its_type(key, value):
    kind = METADATA.get(key)
    return kind is not None and isinstance(value, kind) and (kind is bool or not isinstance(value, bool))


def safe_outputs(outputs):
    """The outputs (nbformat nodes) with no active content."""
    return SafeOutputs().sanitize_code_outputs(outputs)
