"""Loads the self-check plugin, so that ``pytest <notebook>.ipynb`` checks a notebook."""
pytest_plugins = ["grader.selfcheck.plugin"]
