"""What a collection did (or, with ``--dry-run``, would do): each file matched, ambiguous, unmatched or skipped."""

from collections import Counter
from dataclasses import dataclass, field

from ..cli.counts import count

NAMED_AT_MOST = 10  # students named in the line about who is not in the download


@dataclass
class Imported:
    student: str
    notebook: str
    source: str
    identity: str = ""
    renamed_from: str | None = None


@dataclass
class Skipped:
    """A file not collected. ``kind`` (singular) groups it in the summary; ``listed`` files are named one a line,
    the others (receipts, index pages, the operating system's files) only counted."""

    source: str
    reason: str
    kind: str = "other file"
    listed: bool = True


@dataclass
class CollectReport:
    imported: list[Imported] = field(default_factory=list)
    ambiguous: list[Skipped] = field(default_factory=list)
    unmatched: list[Skipped] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    dry_run: bool = False
    log: str | None = None
    roster: list[str] = field(default_factory=list)  # the student ids matched against, if any

    def __str__(self):
        students = {i.student for i in self.imported}
        verb = "would import" if self.dry_run else "imported"
        lines = [f"{verb} {count(len(self.imported), 'notebook')} from {count(len(students), 'student')}"]
        if self.dry_run:
            lines += [
                f"  {i.student}/{i.notebook}  <-  {i.source}" + (f"  ({i.identity})" if i.identity else "")
                for i in self.imported
            ]
        renamed = [i for i in self.imported if i.renamed_from]
        if renamed:
            lines.append(f"{count(len(renamed), 'notebook')} handed in under another name, taken as the released one:")
            lines += [f"  {i.student}: {i.renamed_from} → {i.notebook}" for i in renamed]
        lines += self._roster_line(students)
        for title, items in (("ambiguous", self.ambiguous), ("not matched to a student", self.unmatched)):
            if items:
                lines.append(f"{count(len(items), 'file')} {title}:")
                lines += [f"  {s.source}: {s.reason}" for s in items]
        if self.skipped:
            kinds = Counter(s.kind for s in self.skipped)
            lines.append(
                f"{count(len(self.skipped), 'file')} skipped: "
                + ", ".join(count(n, kind) for kind, n in kinds.most_common())
            )
            lines += [f"  {s.source}: {s.reason}" for s in self.skipped if s.listed or self.dry_run]
        if self.log:
            lines.append(f"log: {self.log}")
        return "\n".join(lines)

    def _roster_line(self, students):
        absent = sorted(set(self.roster) - students)
        if not self.roster or not absent:
            return []
        named = ", ".join(absent[:NAMED_AT_MOST]) + (
            f" and {len(absent) - NAMED_AT_MOST} more" if len(absent) > NAMED_AT_MOST else ""
        )
        return [
            f"students on the roster in this download: {len(self.roster) - len(absent)} of {len(self.roster)} "
            f"(not in it: {named})"
        ]
