"""The names that courses' ``nbgrader_config.py`` files hold keep working: the kit's own configuration and the
line ``adopt`` writes used them, so a course set up with an earlier layout of the package still grades."""

import pytest
from traitlets.utils.importstring import import_item

# Every name of the kit that a configuration written by the kit, or shown in its docs, has named.
NAMES_IN_CONFIGS = [
    "grader.course_config.use_the_kit",
    "grader.exchange.RegularFilesCollect",
    "grader.safe_html.SafeMarkdown",
    "grader.safe_html.SafeNames",
    "grader.safe_html.SafeOutputs",
    "grader.safe_html.clean_html",
    "grader.autograde.flags.FlagForReview",
    "grader.autograde.metadata.CheckCellMetadataOnce",
    "grader.autograde.missing.drop_stand_in_pages",
    "grader.autograde.preprocessors.DetectTampering",
    "grader.autograde.preprocessors.QuietOverwriteCells",
    "grader.autograde.preprocessors.SandboxExecute",
    "grader.autograde.preprocessors.ValidNotebook",
    "grader.feedback.exporter.FeedbackExporter",
    "grader.feedback.preprocessor.KitFeedback",
    "grader.release.worth.WorthInTitle",
]
MOVED = {
    "grader.course_config": "grader.course.config",
    "grader.exchange": "grader.boundary.exchange",
    "grader.safe_html": "grader.boundary.safe_html",
}


@pytest.mark.parametrize("name", NAMES_IN_CONFIGS)
def test_a_name_a_course_configuration_holds_is_found_as_nbgrader_finds_it(name):
    assert callable(import_item(name))


@pytest.mark.parametrize("old", sorted(MOVED))
def test_a_moved_module_is_the_same_module_under_its_old_name(old):
    """One module under two names, not a copy: a setting made through one is seen through the other."""
    assert import_item(old) is import_item(MOVED[old])
