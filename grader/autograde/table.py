"""The grade table printed at the end of autograde: a row per student, a column per notebook.

The scores are the gradebook's (late penalties and manual grades included), as ``nbgrader export``.
"""
from ..grades import course_grades
from ..review import notes

LEGEND = ("! = needs attention (not graded, crashed, timed out, tampered, missing or waiting for a manual grade)\n"
          "L = late: the late penalty is taken off")


def grade_table(course, assignment):
    """Scores per student and notebook; '!' marks a score that needs the instructor's attention, 'L' a late one;
    under the table, who needs what."""
    grades = course_grades(course, assignment)
    notebooks = sorted({g.notebook for g in grades})
    maximum = {g.notebook: g.max_score for g in grades}
    by_student = {}
    for grade in grades:
        by_student.setdefault(grade.student, {})[grade.notebook] = grade
    width = max([len("student")] + [len(s) for s in by_student])
    heads = [n.split("_")[0] for n in notebooks]
    rows = [f"{'student':{width}}  " + "  ".join(f"{h:>9}" for h in heads) + f"  {'total':>9}"]
    for student, entries in sorted(by_student.items()):
        cells = [_cell(entries.get(name), maximum[name]) for name in notebooks]
        total = sum(entry.score for entry in entries.values())
        rows.append(f"{student:{width}}  " + "  ".join(cells) + f"  {total:>5g}/{sum(maximum.values()):<3g}")
    to_do = notes(grades)
    return "\n".join(rows + [LEGEND] + (["", "Needs attention:"] + [f"  {line}" for line in to_do] if to_do else []))


def _cell(entry, maximum):
    score = entry.score if entry else 0.0
    flag = "!" if entry is None or entry.needs_attention else "L" if entry.late_penalty else " "
    return f"{score:>5g}/{maximum:<3g}{flag}"
