"""Sphinx's configuration for the kit's documentation: MyST Markdown pages, the furo theme, and the pages that the
kit's own code writes at build time (docs/_ext/kit_docs.py, sphinx-argparse, autodoc). Offline: no intersphinx, no
image or script from the web.

    .venv/bin/sphinx-build -n -W --keep-going -b html docs build/docs      (make docs)
"""

import pathlib
import sys
import tomllib

DOCS = pathlib.Path(__file__).resolve().parent
KIT = DOCS.parent
sys.path[:0] = [str(KIT), str(DOCS / "_ext")]

project = "Self-attention exercise kit"
author = "The self-attention kit authors"
copyright = "The self-attention kit authors"
release = version = tomllib.loads((KIT / "pyproject.toml").read_text())["project"]["version"]

extensions = ["myst_parser", "sphinx.ext.autodoc", "sphinxarg.ext", "kit_docs"]
source_suffix = {".md": "markdown", ".rst": "restructuredtext"}
exclude_patterns = ["_build", "_generated", "**/.ipynb_checkpoints"]
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 3

# The reference of grader's modules: their docstrings, without type hints (they name PyTorch's and NumPy's types,
# which an offline build cannot link to).
autodoc_typehints = "none"
autodoc_member_order = "bysource"
autodoc_default_options = {"members": True}
# Names in the docstrings that this reference does not document: other libraries' types, and the kit's own
# functions and data outside the authoring modules.
nitpick_ignore_regex = [
    ("py:class", r"(torch|numpy|np|collections|typing|traitlets|nbgrader)\..*"),
    ("py:(func|data|class|meth|attr|mod)", r"(grader\..*|MISCONCEPTIONS)"),
]

html_theme = "furo"
html_title = "Self-attention exercise kit"
html_static_path = ["_static"]
html_show_sourcelink = False
html_theme_options = {"navigation_with_keys": True}
