"""The exercises' checks, one module per notebook: each exercise written once, its visible and hidden parts, its
known outputs, its misconceptions' words and its wrong answers side by side (grader/checks/registry.py finds them).

The kit's copy is the instructor's. Students get the copy that the release compiles, with the visible parts and
what they use only (grader/release/compile.py); a sandbox cannot read this folder.
"""
