import sys, os, pathlib, tempfile, contextlib, cProfile, pstats
sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))
from bench.autograde_speed import clean_class, make_course
from grader.course import Course
folder = pathlib.Path(tempfile.mkdtemp(prefix="cprof-"))
subs = clean_class(folder, 5, None)
root = make_course(folder, "kit", subs)
course = Course.at(root).resolved()
students = sorted(p.name for p in subs.iterdir())
from grader.autograde.nbgrader_pass import autograde_app, warm_up
from grader.worker import start_sandbox, stop_sandbox
os.chdir(course.root)
warm_up(); start_sandbox(course)
with contextlib.redirect_stderr(open(os.devnull, "w")):
    app = autograde_app(course); app.coursedir.student_id = students[0]; app.start()
    pr = cProfile.Profile()
    for s in students[1:]:
        app = autograde_app(course); app.coursedir.student_id = s
        pr.enable(); app.start(); pr.disable()
stop_sandbox()
st = pstats.Stats(pr); st.dump_stats("/tmp/k/students.prof")
st.sort_stats("cumulative").print_stats(70)
