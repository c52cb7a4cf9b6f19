"""Reference solutions, for the hidden checks: instructor-only."""
