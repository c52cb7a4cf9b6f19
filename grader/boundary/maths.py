"""A notebook's maths as MathML, made when a page is written: the page needs no script and no network to show it.

nbconvert's Markdown parser finds the maths of a Markdown cell or output (``$...$``, ``$$...$$``, ``\\(...\\)``,
``\\[...\\]``, ``\\begin{env}...\\end{env}``) and leaves it as LaTeX for MathJax, a script from a CDN. Here each
formula becomes MathML (latex2mathml), which the browser lays out itself, with its LaTeX as its text alternative
(``alttext``). The LaTeX may be a student's: latex2mathml's MathML is read back as XML and kept only when it is
made of the elements of ``TAGS`` alone, with only the attributes :func:`allowed_attribute` lets through (no link,
style, class or colour); any other formula is shown as its LaTeX, as text. ``clean_html``
(:mod:`grader.boundary.safe_html`) holds every page to the same vocabulary.
"""

import html
import re
from xml.etree import ElementTree

from nbconvert.filters.markdown_mistune import IPythonRenderer, MarkdownWithMath

# MathML Core's layout elements, and menclose (a box or a strike, for \boxed and \cancel); not semantics,
# annotation or annotation-xml (which may hold HTML), maction or mglyph.
TAGS = frozenset(
    {
        "math",
        "merror",
        "menclose",
        "mfrac",
        "mi",
        "mmultiscripts",
        "mn",
        "mo",
        "mover",
        "mpadded",
        "mphantom",
        "mprescripts",
        "mroot",
        "mrow",
        "ms",
        "mspace",
        "msqrt",
        "mstyle",
        "msub",
        "msubsup",
        "msup",
        "mtable",
        "mtd",
        "mtext",
        "mtr",
        "munder",
        "munderover",
        "none",
    }
)
# How a formula is laid out: words and small numbers only (no URL, no style, no colour).
ATTRIBUTES = frozenset(
    {
        "accent",
        "accentunder",
        "columnalign",
        "columnlines",
        "columnspacing",
        "columnspan",
        "depth",
        "display",
        "displaystyle",
        "fence",
        "form",
        "height",
        "largeop",
        "linethickness",
        "lspace",
        "mathsize",
        "mathvariant",
        "maxsize",
        "minsize",
        "movablelimits",
        "notation",
        "rowalign",
        "rowlines",
        "rowspacing",
        "rowspan",
        "rspace",
        "scriptlevel",
        "separator",
        "stretchy",
        "symmetric",
        "voffset",
        "width",
    }
)
VALUE = re.compile(r"[A-Za-z0-9.% -]{0,64}\Z")
NUMBER = re.compile(r"\d+(?:\.\d*)?|\.\d+")
LARGEST = 20  # a length or level past it (\hspace{1000em}) would push the page's text out of sight
LONGEST_LATEX = 5000  # characters: a longer formula is shown as its LaTeX
# The formulas of a text/latex output, as nbconvert's Markdown parser finds them in a Markdown cell.
FORMULA = re.compile(
    r"(?<!\\)\$\$(?P<block>.+?)(?<!\\)\$\$|(?<!\\)\\\[(?P<bracket>.+?)(?<!\\)\\\]"
    r"|(?<![$\\])\$(?P<inline>.+?)(?<![$\\])\$|(?<!\\)\\\((?P<paren>.+?)(?<!\\)\\\)"
    r"|(?P<environment>\\begin\{(?P<name>[a-z]*\*?)\}.*?\\end\{(?P=name)\})",
    re.DOTALL,
)


def allowed_attribute(name, value):
    """Whether a MathML element may keep the attribute: the formula's LaTeX as its text alternative, or one of
    ``ATTRIBUTES`` whose value is short, plain and holds no number past ``LARGEST``."""
    if name == "alttext":
        return True
    return (
        name in ATTRIBUTES
        and bool(VALUE.match(value))
        and all(float(number) <= LARGEST for number in NUMBER.findall(value))
    )


def mathml(latex, display):
    """The MathML of the formula ``latex``, shown as a block or inline; None if it cannot be shown as MathML."""
    if len(latex) > LONGEST_LATEX:
        return None
    from latex2mathml.converter import convert  # 0.05 s to import: only where a page shows maths

    try:
        tree = ElementTree.fromstring(convert(latex, display="block" if display else "inline"))
    except Exception:  # latex2mathml's errors of syntax, or MathML that is not XML (\text{<})
        return None
    for element in tree.iter():
        element.tag = element.tag.rpartition("}")[2]
        if element.tag not in TAGS:
            return None
        kept = {name: value for name, value in element.attrib.items() if allowed_attribute(name, value)}
        element.attrib.clear()
        element.attrib.update(kept)
    tree.set("alttext", latex.strip())
    return ElementTree.tostring(tree, encoding="unicode")


class MathMLRenderer(IPythonRenderer):
    """nbconvert's renderer of a notebook's Markdown, with each formula as MathML (as LaTeX where it cannot be)."""

    def block_math(self, body):
        return mathml(body, display=True) or super().block_math(body)

    def inline_math(self, body):
        return mathml(body, display=False) or super().inline_math(body)

    def latex_environment(self, name, body):
        return mathml(f"\\begin{{{name}}}{body}\\end{{{name}}}", display=True) or super().latex_environment(name, body)


def markdown2html(exporter, context, source):
    """``HTMLExporter.markdown2html`` (nbconvert 7.17) of ``exporter``, its formulas as MathML."""
    cell = context.get("cell", {})
    renderer = MathMLRenderer(
        escape=False,
        attachments=cell.get("attachments", {}),
        embed_images=exporter.embed_images,
        path=context.get("resources", {}).get("metadata", {}).get("path", ""),
        anchor_link_text=exporter.anchor_link_text,
        exclude_anchor_links=exporter.exclude_anchor_links,
        **exporter.lexer_options,
    )
    return MarkdownWithMath(renderer=renderer).render(source)


def latex2html(text):
    """A text/latex output as HTML: each formula in it as MathML (as text where it cannot be), the rest as text."""
    parts, end = [], 0
    for found in FORMULA.finditer(text):
        latex = next(found[group] for group in ("block", "bracket", "inline", "paren", "environment") if found[group])
        shown = mathml(latex, display=not found["inline"] and not found["paren"])
        parts += [html.escape(text[end : found.start()]), shown or html.escape(found[0])]
        end = found.end()
    return "".join([*parts, html.escape(text[end:])])
