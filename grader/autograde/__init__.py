"""Autograde: nbgrader's autograde with the kit's sandboxed executor, for every student."""
