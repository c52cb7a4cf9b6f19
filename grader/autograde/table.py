"""The grade table printed at the end of autograde: a row per student, a column per notebook."""
from .. import course as courses


def grade_table(course, assignment):
    """Scores per student and notebook; '!' marks a score that needs the instructor's attention."""
    records = courses.all_records(course, assignment)
    notebooks = sorted({r.notebook for r in records})
    heads = [n.split("_")[0] for n in notebooks]
    rows, by_student = [], {}
    for entry in records:
        by_student.setdefault(entry.student, {})[entry.notebook] = entry
    width = max([len("student")] + [len(s) for s in by_student])
    rows.append(f"{'student':{width}}  " + "  ".join(f"{h:>9}" for h in heads) + f"  {'total':>9}")
    maximum = {}
    for entries in by_student.values():
        for name, entry in entries.items():
            maximum[name] = max(maximum.get(name, 0), sum(e.max_score for e in entry.exercises))
    for student, entries in sorted(by_student.items()):
        cells, total = [], 0.0
        for name in notebooks:
            entry = entries.get(name)
            score = entry.score if entry else 0.0
            total += score
            flag = "!" if entry is None or entry.needs_attention else " "
            cells.append(f"{score:>5g}/{maximum.get(name, 0):<3g}{flag}")
        rows.append(f"{student:{width}}  " + "  ".join(cells) + f"  {total:>5g}/{sum(maximum.values()):<3g}")
    rows.append("! = needs attention (not graded, crashed, timed out, tampered or missing): see the export's status column")
    return "\n".join(rows)
