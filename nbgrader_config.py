"""nbgrader configuration for the self-attention kit (the course root is this folder)."""
c = get_config()  # noqa: F821 (provided by nbgrader)

c.CourseDirectory.course_id = "self_attention_kit"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"

# A student who deletes a test cell is graded on the instructor's copy of it.
c.OverwriteCells.add_missing_cells = True
