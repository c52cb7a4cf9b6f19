"""Benchmark: stock sequential ``nbgrader autograde`` against the kit's sandboxed parallel autograde.

Builds a class with the demo generator (students without broken submissions, which stock nbgrader
cannot grade correctly), copied up to ``--students`` students, grades it both ways in one run,
checks that every notebook gets the same score and that the kit's kept outputs (every code cell's outputs in
the autograded notebooks) are the same from run to run (and, with ``--outputs-from``, the same as an earlier
run's), and prints notebooks per second, the ratio, the scaling from 1 to 2 workers (and 4, where there are 4
cores), each run's CPU and its cgroup's memory peak (both counted by the kernel, at no cost to the run), and, from
one more 2-worker run of its own, PSS and RSS summed over the processes (bench/memory.py): sampling them reads
every process's memory map five times a second, which slows the processes it reads, so no timed run samples.

    .venv/bin/python bench/autograde_speed.py --students 40
"""

import argparse
import json
import os
import pathlib
import shutil
import subprocess
import sys
import tempfile
import time

import nbformat
from nbgrader.utils import determine_grade, is_grade

if __package__ in (None, ""):  # run as a script: the kit's folder on the path, as ``-m bench...`` would
    sys.path.insert(0, str(pathlib.Path(__file__).resolve().parents[1]))

from bench.cpu import CpuGroup  # noqa: E402
from bench.memory import MemoryGroup, TreeSampler  # noqa: E402
from bench.results import add_option, machine, record  # noqa: E402
from grader.autograde.run import default_workers  # noqa: E402
from grader.course import Course, path_with_venv  # noqa: E402
from grader.demo.generate import make_class  # noqa: E402
from grader.demo.run import ROOT, new_course  # noqa: E402

ASSIGNMENT = "self_attention"
STOCK_CONFIG = """c = get_config()
c.CourseDirectory.source_directory = "solutions"
c.CourseDirectory.release_directory = "exercises"
c.OverwriteCells.add_missing_cells = True
"""


def clean_class(folder, students, notebooks):
    """``students`` submissions without breakage, copied round-robin from the demo class."""
    plan = make_class(folder / "generated")
    sound = [s for s in plan.students if not plan.composition[s]["profile"].startswith(("broken", "missing"))]
    chosen = folder / "class"
    for n in range(students):
        source = folder / "generated" / sound[n % len(sound)]
        target = chosen / f"{source.name}{n // len(sound) or ''}"
        target.mkdir(parents=True)
        for name in notebooks or [p.name for p in source.glob("*.ipynb")]:
            shutil.copy(source / name, target / name)
    return chosen


def make_course(folder, kind, submissions):
    course = new_course(folder / kind)
    if kind == "stock":
        (course / "nbgrader_config.py").write_text(STOCK_CONFIG)
    run(course, [sys.executable, "-m", "nbgrader", "generate_assignment", ASSIGNMENT, "--force"])
    for student in submissions.iterdir():
        shutil.copytree(student, course / "submitted" / student.name / ASSIGNMENT)
    return course


def run(course, command, sample_memory=False):
    """Run a command in the course: (seconds, its peak memory in MiB: {"cgroup": its memory cgroup's peak or None,
    and with ``sample_memory`` "rss": summed resident memory of its process tree, "pss": summed proportional memory,
    else None}; see bench/memory.py; "cpu": the CPU seconds of its process tree or None, bench/cpu.py)."""
    group, cpu = MemoryGroup(), CpuGroup()

    def enter_groups():
        group.enter()
        cpu.enter()

    started = time.monotonic()
    process = subprocess.Popen(
        command,
        cwd=course,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        env={**os.environ, "PATH": path_with_venv()},
        preexec_fn=enter_groups,
    )
    sampler = TreeSampler(process.pid) if sample_memory else None
    _, errors = process.communicate()
    seconds = time.monotonic() - started
    sampled = {"rss": None, "pss": None}
    if sampler:
        sampler.stop()
        sampled = {"rss": sampler.peak_rss / 2**20, "pss": sampler.peak_pss / 2**20}
    peak = {**sampled, "cgroup": group.peak() / 2**20 if group.peak() is not None else None, "cpu": cpu.seconds()}
    group.remove()
    cpu.remove()
    if process.returncode:
        raise SystemExit(f"{command} failed:\n{errors.decode()[-2000:]}")
    return seconds, peak


def kept_outputs(course):
    """{(student, notebook): each code cell's outputs and execution count} of the autograded notebooks."""
    kept = {}
    for path in sorted((course / "autograded").glob(f"*/{ASSIGNMENT}/*.ipynb")):
        cells = json.loads(path.read_text())["cells"]
        kept[(path.parents[1].name, path.name)] = [
            (c.get("outputs"), c.get("execution_count")) for c in cells if c["cell_type"] == "code"
        ]
    return kept


def memory_words(peak):
    cgroup = f"{peak['cgroup']:6.0f} MiB" if peak["cgroup"] is not None else "   n/a"
    if peak["pss"] is None:
        return f"peak: cgroup {cgroup}"
    return f"peak: cgroup {cgroup}, PSS summed {peak['pss']:6.0f} MiB, RSS summed {peak['rss']:6.0f} MiB"


def cpu_words(seconds, peak, count):
    """The run's CPU seconds, per notebook, and the cores it kept busy on average (CPU / wall)."""
    if peak["cpu"] is None:
        return "CPU n/a"
    return (
        f"CPU {peak['cpu']:7.1f} s ({peak['cpu'] / count:5.2f} s a notebook, "
        f"{peak['cpu'] / seconds:4.2f} cores busy on average)"
    )


def kit_autograde(workers):
    return [sys.executable, "-m", "grader", "autograde", "--force", "--workers", str(workers)]


def scores(course):
    with Course.at(course).gradebook() as gradebook:
        return {
            (s.student.id, nb.name): nb.score
            for s in gradebook.assignment_submissions(ASSIGNMENT)
            for nb in s.notebooks
        }


def partial_credit_scores(course):
    """{(student, notebook): score} of the course's autograded notebooks as nbgrader scores them, but with a test
    cell's standard error set aside: stock nbgrader gives 0 to a test cell that writes there, and the kit's test
    cell writes its report there when it gives partial credit (the kit's own grading judges outside the notebook)."""
    found = {}
    for path in sorted((course / "autograded").glob(f"*/{ASSIGNMENT}/*.ipynb")):
        total = 0.0
        for cell in nbformat.read(path, as_version=4).cells:
            if not is_grade(cell):
                continue
            cell.outputs = [o for o in cell.get("outputs", []) if o.get("name") != "stderr"]
            total += determine_grade(cell)[0] or 0.0
        found[(path.parents[1].name, path.stem)] = total
    return found


def main(argv=None):
    options = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    options.add_argument("--students", type=int, default=40)
    options.add_argument("--notebooks", nargs="*", help="only these notebook files (default: all five)")
    options.add_argument("--out", default=None, help="keep the courses here (default: a temporary folder)")
    options.add_argument(
        "--outputs-from",
        default=None,
        help="a kit course graded before (--out of an earlier run, its kit folder): its autograded "
        "notebooks' outputs must be the same as this run's",
    )
    add_option(options)
    args = options.parse_args(argv)
    the_machine = machine()
    folder = pathlib.Path(args.out or tempfile.mkdtemp(prefix="bench-"))
    folder.mkdir(parents=True, exist_ok=True)
    submissions = clean_class(folder, args.students, args.notebooks)
    count = sum(1 for _ in submissions.rglob("*.ipynb"))
    stock = make_course(folder, "stock", submissions)
    kit = make_course(folder, "kit", submissions)
    stock_seconds, stock_peak = run(stock, [sys.executable, "-m", "nbgrader", "autograde", ASSIGNMENT])
    kit_runs, outputs = {}, {}
    for workers in (1, 2, 4) if default_workers() >= 4 else (1, 2):
        kit_runs[workers] = run(kit, kit_autograde(workers))
        outputs[workers] = kept_outputs(kit)
    memory_seconds, memory_peak = run(kit, kit_autograde(2), sample_memory=True)
    outputs["sampled"] = kept_outputs(kit)
    stock_scores, kit_scores = scores(stock), scores(kit)
    partial = partial_credit_scores(stock)
    explained = {
        k
        for k in set(stock_scores) | set(kit_scores)
        if stock_scores.get(k) != kit_scores.get(k) and partial.get(k) == kit_scores.get(k)
    }
    disagree = {
        k: (stock_scores.get(k), kit_scores.get(k))
        for k in set(stock_scores) | set(kit_scores)
        if stock_scores.get(k) != kit_scores.get(k) and k not in explained
    }
    before = kept_outputs(pathlib.Path(args.outputs_from)) if args.outputs_from else outputs[1]
    changed = sorted(k for k in outputs[1] if any(o.get(k) != before.get(k) for o in outputs.values()))
    kit_one, kit_two = kit_runs[1][0], kit_runs[2][0]
    print(f"class: {args.students} students, {count} notebooks ({ROOT.name} demo generator, no broken submissions)")
    print(
        f"stock nbgrader autograde (sequential): {stock_seconds:7.1f} s  {count / stock_seconds:6.2f} notebooks/s"
        f"  {memory_words(stock_peak)}"
    )
    print(f"  {cpu_words(stock_seconds, stock_peak, count)}")
    for workers, (seconds, peak) in kit_runs.items():
        print(
            f"kit autograde, {workers} worker{'s' if workers > 1 else ' '}:             {seconds:7.1f} s"
            f"  {count / seconds:6.2f} notebooks/s  {memory_words(peak)}"
        )
        print(f"  {cpu_words(seconds, peak, count)}")
    print(
        f"kit autograde, 2 workers, its processes' memory sampled (a run of its own, {memory_seconds:.1f} s: the "
        f"sampling slows it): {memory_words(memory_peak)}"
    )
    print(
        f"ratio kit (2 workers) / stock: {stock_seconds / kit_two:.1f}x;"
        f" scaling 1 -> 2 workers: {kit_one / kit_two:.2f}x"
        + (f"; 1 -> 4 workers: {kit_one / kit_runs[4][0]:.2f}x" if 4 in kit_runs else "")
    )
    print(
        f"grades agree: {'yes' if not disagree else 'NO'} ({len(stock_scores)} notebooks compared"
        + (
            f"; {len(explained)} of them once stock's partial credit is read past the kit's report, which a test "
            "cell with partial credit writes to standard error for Validate and stock nbgrader scores 0"
            if explained
            else ""
        )
        + ")"
    )
    for key, pair in sorted(disagree.items()):
        print(f"  {key}: stock {pair[0]}, kit {pair[1]}")
    print(
        f"kept outputs the same ({'against ' + args.outputs_from if args.outputs_from else 'from run to run'}): "
        f"{'yes' if not changed else 'NO'} ({len(outputs[1])} notebooks compared)"
    )
    for key in changed:
        print(f"  {key[0]}/{key[1]}: outputs differ")
    figures = {
        "students": args.students,
        "notebooks": count,
        "stock_s": round(stock_seconds, 1),
        **{f"kit_{w}_worker{'s' if w > 1 else ''}_s": round(s, 1) for w, (s, _) in kit_runs.items()},
        "ratio_to_stock": round(stock_seconds / kit_two, 2),
        "scaling_1_to_2": round(kit_one / kit_two, 2),
        "cpu_per_notebook_1_worker_s": _rounded(kit_runs[1][1]["cpu"], count),
        "cpu_per_notebook_2_workers_s": _rounded(kit_runs[2][1]["cpu"], count),
        "peak_cgroup_stock_mib": _rounded(stock_peak["cgroup"]),
        "peak_cgroup_1_worker_mib": _rounded(kit_runs[1][1]["cgroup"]),
        "peak_cgroup_2_workers_mib": _rounded(kit_runs[2][1]["cgroup"]),
        "pss_summed_2_workers_mib": _rounded(memory_peak["pss"]),
        "grades_agree": not disagree,
        "outputs_same": not changed,
    }
    record(args.results, "autograde_speed", figures, the_machine)
    if not args.out:
        shutil.rmtree(folder)
    return 1 if disagree or changed or not stock_scores else 0


def _rounded(value, per=1):
    """``value / per``, rounded for the record; None when the figure could not be measured."""
    return None if value is None else round(value / per, 3 if per > 1 else 1)


if __name__ == "__main__":
    sys.exit(main())
