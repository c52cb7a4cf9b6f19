"""This process's warm sandbox worker, shared by every notebook it grades, at the course's isolation setting
(``c.SandboxExecute.isolation`` in ``nbgrader_config.py``): each of autograde's grading processes starts it
before its first student, and the Gradescope image's setup checks that it starts."""
import atexit
import os

ISOLATION = "auto"  # the strongest isolation this machine allows
_pool = None


def shared_pool(isolation=ISOLATION):
    """One pool of warm workers for this process."""
    global _pool
    if _pool is None:
        from .sandbox.pool import Pool
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


def start_sandbox(course):
    """This process's warm worker, started before any student, at the course's isolation setting."""
    shared_pool(course.directory.config.SandboxExecute.get("isolation", ISOLATION)).start()
