"""Grading on Gradescope: the autograder zip (:mod:`.build`) and what it runs on each submission (:mod:`.run`).

The zip holds the course itself (configuration, solutions, release, the kit) with a gradebook that
knows the assignment and no student; each submission is graded there by ``python -m grader
autograde``, the same engine and rules as on the instructor's machine, and its grades are written
as Gradescope's ``results.json`` (or PrairieLearn's).
"""
