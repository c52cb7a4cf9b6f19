"""Self-check: ``pytest <notebook>.ipynb`` runs the visible checks, one result per exercise."""
