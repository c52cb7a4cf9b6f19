"""The release writes what each notebook is worth into its title, from nbgrader's metadata: the one place where an
instructor sets a cell's points."""

import re

from nbgrader.preprocessors import NbGraderPreprocessor

from ..checks.cells import cell_points, nbgrader_metadata

WORTH = re.compile(r"This notebook is worth \*\*[\d.]+ points?\*\*\.")


def worth_sentence(nb):
    """'This notebook is worth **N points**.', N the sum of the notebook's graded cells' points."""
    total = sum(cell_points(cell) for cell in nb.cells if nbgrader_metadata(cell).get("grade"))
    return f"This notebook is worth **{total:g} point{'' if total == 1 else 's'}**."


class WorthInTitle(NbGraderPreprocessor):
    """In the notebook's first Markdown cell, its title, the sentence that says what the notebook is worth: written
    over the one there, or added as the cell's last paragraph."""

    def preprocess(self, nb, resources):
        title = next((cell for cell in nb.cells if cell.cell_type == "markdown"), None)
        if title is not None:
            sentence = worth_sentence(nb)
            found = WORTH.search(title.source)
            title.source = (
                WORTH.sub(sentence, title.source, count=1) if found else title.source.rstrip("\n") + "\n\n" + sentence
            )
        return nb, resources
