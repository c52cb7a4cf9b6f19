"""Grade sheets that an LMS's gradebook import accepts, one module per LMS, totals from nbgrader's gradebook."""

import pathlib
from dataclasses import dataclass, field

from . import blackboard, brightspace, canvas, moodle, sheet
from .totals import totals

LMS = {"canvas": canvas, "moodle": moodle, "blackboard": blackboard, "brightspace": brightspace}


@dataclass
class LmsExport:
    path: pathlib.Path
    omitted: list = field(default_factory=list)  # (student, why)

    def __str__(self):
        return "\n".join([str(self.path)] + [f"  left out {s}: {why}" for s, why in self.omitted])


def export_lms(course, lms, path=None, column=None):
    """Write ``<course>/reports/<assignment>_<lms>.csv`` (or ``path``); ``column`` names the LMS's grade column
    (Canvas ``Title (id)``, Blackboard ``Name [Total Pts: N Score] |id``, Brightspace the item's name;
    Moodle needs none). A student the LMS could not match (no id) is left out and listed."""
    module = LMS[lms]
    module.check_column(column)
    header, rows, omitted = module.sheet(totals(course), column)
    path = pathlib.Path(path or course.reports / f"{course.assignment}_{lms}.csv")
    sheet.write(path, header, rows)
    return LmsExport(path, omitted)
