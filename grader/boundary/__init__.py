"""Where students and the kit meet: what of the kit a student may see (student_safe), what a student
hands in, read as data (uploads, exchange), and what of a submission a page or a result may show (safe_html,
maths, machine_paths)."""
