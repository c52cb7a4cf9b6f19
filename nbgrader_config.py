"""nbgrader configuration for the self-attention kit (the course root is this folder).

The kit's steps, exporters and safe HTML come from grader/course/config.py, as for any course brought to the kit
with ``python -m grader adopt``; what follows them is this course's own."""

from grader.course.config import use_the_kit

c = get_config()  # noqa: F821 (provided by nbgrader)

c.CourseDirectory.course_id = "self_attention_kit"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
# A student who deletes a test cell is graded on the instructor's copy of it.
c.OverwriteCells.add_missing_cells = True
c.QuietOverwriteCells.add_missing_cells = True
c.SandboxExecute.memory_bytes = 2 << 30
c.SandboxExecute.unit_seconds = 10
c.SandboxExecute.notebook_seconds = 60
use_the_kit(c)
