"""This process's warm sandbox worker, shared by every notebook it grades, at the course's isolation setting
(``c.SandboxExecute.isolation`` in ``nbgrader_config.py``): each of autograde's grading processes starts it
before its first student, and the Gradescope image's setup checks that it starts."""

import atexit
import os

ISOLATION = "auto"  # the strongest isolation this machine allows
_pool = None
_prestarted = []  # warm workers started here for processes this one forks (prestart_sandboxes)
_early = []  # a warm-up started before this process knew its course (warm_up_early)


def shared_pool(isolation=ISOLATION):
    """One pool of warm workers for this process."""
    global _pool
    if _pool is None:
        from .pool import Pool

        _pool = Pool(1, isolation)  # one warm worker: each grading process takes its own students
        atexit.register(_pool.close)
    return _pool


def stop_sandbox():
    """Stop this process's warm worker now (a process that ends with ``os._exit`` runs no atexit handler)."""
    global _pool
    if _pool is not None:
        atexit.unregister(_pool.close)
        _pool.close()
        _pool = None


def _forget_inherited_pool():
    global _pool
    _pool = None  # the warm worker a forked process inherits is its parent's, never to be used or stopped here


os.register_at_fork(after_in_child=_forget_inherited_pool)


def _isolation(course):
    return course.directory.config.SandboxExecute.get("isolation", ISOLATION)


def start_sandbox(course):
    """This process's warm worker, started before any student, at the course's isolation setting."""
    shared_pool(_isolation(course)).start()


def threads():
    """How many threads this process runs, those Python did not start included (0 where /proc cannot tell). Only a
    process of one thread forks its grading processes (grader/autograde/nbgrader_pass.py), which take the workers
    it prestarts."""
    try:
        return len(os.listdir("/proc/self/task"))
    except OSError:
        return 0


def warm_up_early(most):
    """Start the warm-up of up to ``most`` workers now, before this process imports nbgrader and reads the course's
    configuration: :func:`prestart_sandboxes` takes its workers, ready sooner. Stopped at exit if not taken. Not in
    a process of several threads: its grading processes start anew, and each warms its own worker up."""
    if threads() != 1:
        return
    from .pool import WarmUp

    _early.append(WarmUp(most))
    atexit.register(_stop_early)


def _stop_early():
    while _early:
        _early.pop().close()


def prestart_sandboxes(course, count):
    """``count`` warm workers started now (or taken from :func:`warm_up_early`), for grading processes that this
    process forks later (each adopts one with :func:`adopt_sandbox`): they import PyTorch and warm up, once for all
    of them, while this process does its own work."""
    from .pool import WarmUp

    warm_up = _early.pop() if _early else None
    if warm_up is not None and warm_up.most < count:
        warm_up.close()
        warm_up = None
    _prestarted.extend((warm_up or WarmUp(count)).workers(_isolation(course), count))
    return list(_prestarted)


def adopt_sandbox(worker):
    """In a forked process: ``worker``, which its parent prestarted, becomes this process's warm worker; the
    parent's other prestarted workers are not this process's to use."""
    for other in _prestarted:
        if other is not worker:
            other.forget()
    _prestarted.clear()
    pool = shared_pool(worker.setting)  # a new pool: the one a fork inherits is forgotten
    pool.started.append(worker)
    pool.idle.put(worker)


def stop_prestarted():
    """Stop the workers prestarted here (those a grading process adopted are stopped already, or it died)."""
    while _prestarted:
        _prestarted.pop().close()
