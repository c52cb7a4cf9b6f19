"""nbgrader configuration for the self-attention kit (the course root is this folder)."""
from nbconvert.preprocessors import ClearMetadataPreprocessor, CSSHTMLHeaderPreprocessor
from nbgrader.preprocessors import (AssignLatePenalties, CheckCellMetadata, ClearHiddenTests, ClearMarkScheme,
                                    ClearOutput, ClearSolutions, ComputeChecksums, DeduplicateIds, GetGrades,
                                    IgnorePattern, IncludeHeaderFooter, InstantiateTests, LimitOutput, LockCells,
                                    OverwriteKernelspec, SaveAutoGrades, SaveCells)

from grader.autograde.flags import FlagForReview
from grader.autograde.metadata import CheckCellMetadataOnce
from grader.autograde.preprocessors import DetectTampering, QuietOverwriteCells, SandboxExecute, ValidNotebook
from grader.exchange import RegularFilesCollect
from grader.feedback.exporter import FeedbackExporter
from grader.feedback.preprocessor import KitFeedback
from grader.release.worth import WorthInTitle

c = get_config()  # noqa: F821 (provided by nbgrader)

c.CourseDirectory.course_id = "self_attention_kit"
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
# A notebook that could not be read is set aside as *.ipynb.invalid (grader/autograde/run.py): nbgrader must not
# copy it to the autograded and feedback folders; the feedback verb writes a page that says what to do.
c.CourseDirectory.ignore = [".ipynb_checkpoints", "*.pyc", "__pycache__", "feedback", "*.ipynb.invalid"]

# `nbgrader collect` (nbgrader's exchange) takes a submission's regular files only: a link a student put in the
# exchange, to the course's solutions say, is left out and logged, never followed (see grader/exchange.py).
c.ExchangeFactory.collect = RegularFilesCollect

# The release: nbgrader's steps (its defaults, in its order), after the kit's one: what each notebook is worth,
# written into its title from the cells' points (grader/release/worth.py).
c.GenerateAssignment.preprocessors = [WorthInTitle, IncludeHeaderFooter, InstantiateTests, LockCells, ClearSolutions,
                                      ClearOutput, CheckCellMetadata, ComputeChecksums, SaveCells, ClearHiddenTests,
                                      ClearMarkScheme, ComputeChecksums, CheckCellMetadata]

# Test cells: tampering is detected against the release, then the instructor's copy is graded;
# a student who deletes a test cell is graded on the instructor's copy of it.
c.OverwriteCells.add_missing_cells = True
c.QuietOverwriteCells.add_missing_cells = True
# nbgrader's CheckCellMetadata, its schema checked once per process rather than once per cell (the same verdicts:
# grader/autograde/metadata.py).
c.Autograde.sanitize_preprocessors = [ClearOutput, DetectTampering, DeduplicateIds, OverwriteKernelspec,
                                      QuietOverwriteCells, CheckCellMetadataOnce]

# Submissions run in the kit's sandbox (see grader/sandbox), not in nbgrader's kernel. What needs a person
# (timed out, crashed, changed test cells, files not handed in or not readable) is flagged in the gradebook.
c.Autograde.autograde_preprocessors = [SandboxExecute, IgnorePattern, ClearMetadataPreprocessor, LimitOutput,
                                       ValidNotebook, SaveAutoGrades, FlagForReview, AssignLatePenalties,
                                       CheckCellMetadataOnce]
# In autograde, nbconvert validates a notebook once after all of a pass's steps, not after each (15 validations a
# notebook down to 3, ValidNotebook's among them): a notebook made invalid still stops before SaveAutoGrades.
c.Autograde.Exporter.optimistic_validation = True
c.SandboxExecute.memory_bytes = 2 << 30
c.SandboxExecute.unit_seconds = 10
c.SandboxExecute.notebook_seconds = 60

# Feedback (`nbgrader generate_feedback`, formgrader's button, `python -m grader feedback`): nbgrader's
# page with the gradebook's scores, no hidden test (source or traceback), the kit's diagnosis under each test.
c.GenerateFeedback.preprocessors = [GetGrades, KitFeedback, CSSHTMLHeaderPreprocessor]
c.GenerateFeedback.exporter_class = FeedbackExporter  # nbconvert's, a second pass over each page only where needed
# A notebook never handed in has an autograded stand-in so that formgrader lists it (grader/autograde/missing.py);
# it gets no feedback page.
c.GenerateFeedback.post_convert_hook = "grader.autograde.missing.drop_stand_in_pages"

# Formgrader's view of a submission and the feedback pages (both nbconvert's HTMLExporter) show a student's
# Markdown cells and outputs with nothing that runs in a browser: nbconvert's sanitising, with the kit's
# allow-list (text, tables, images and math stay), and the student's name as text (see grader/safe_html.py).
c.HTMLExporter.sanitize_html = True
c.HTMLExporter.filters = {"clean_html": "grader.safe_html.clean_html",
                          "markdown2html": "grader.safe_html.SafeMarkdown"}
c.HTMLExporter.preprocessors = ["grader.safe_html.SafeNames", "grader.safe_html.SafeOutputs"]
