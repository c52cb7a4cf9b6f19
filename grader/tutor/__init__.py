"""What a student is told about their graded work, in a tutor's words: each exercise's diagnosis and a notebook's
notes (:mod:`.page`), and a test cell with its hidden tests taken out (:mod:`.hidden`). The feedback verb writes
them on nbgrader's feedback pages, and the gradescope verb in Gradescope's and PrairieLearn's results."""
