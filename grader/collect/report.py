"""What a collection did (or, with ``--dry-run``, would do): each file matched, ambiguous, unmatched or skipped."""
from dataclasses import dataclass, field


@dataclass
class Imported:
    student: str
    notebook: str
    source: str
    identity: str = ""


@dataclass
class Skipped:
    source: str
    reason: str


@dataclass
class CollectReport:
    imported: list[Imported] = field(default_factory=list)
    ambiguous: list[Skipped] = field(default_factory=list)
    unmatched: list[Skipped] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)
    dry_run: bool = False
    log: str | None = None

    def __str__(self):
        students = len({i.student for i in self.imported})
        verb = "would import" if self.dry_run else "imported"
        lines = [f"{verb} {len(self.imported)} notebook(s) from {students} student(s)"]
        lines += [f"  {i.student}/{i.notebook}  <-  {i.source}" + (f"  ({i.identity})" if i.identity else "")
                  for i in self.imported]
        for title, items in (("ambiguous", self.ambiguous), ("unmatched", self.unmatched),
                             ("skipped", self.skipped)):
            lines.append(f"{title} {len(items)} file(s)")
            lines += [f"  {s.source}: {s.reason}" for s in items]
        if self.log:
            lines.append(f"log: {self.log}")
        return "\n".join(lines)
