"""What a collection did: each notebook imported, and each file left out with the reason."""
from dataclasses import dataclass, field


@dataclass
class Imported:
    student: str
    notebook: str
    source: str


@dataclass
class Skipped:
    source: str
    reason: str


@dataclass
class CollectReport:
    imported: list[Imported] = field(default_factory=list)
    skipped: list[Skipped] = field(default_factory=list)

    def __str__(self):
        students = len({i.student for i in self.imported})
        lines = [f"imported {len(self.imported)} notebook(s) from {students} student(s)"]
        lines += [f"  {i.student}/{i.notebook}  <-  {i.source}" for i in self.imported]
        lines.append(f"skipped {len(self.skipped)} file(s)")
        lines += [f"  {s.source}: {s.reason}" for s in self.skipped]
        return "\n".join(lines)
