"""The sandbox: student code runs in forked, isolated processes of a warm worker; verdicts are made outside.

Grader's process   pool.py (warm workers, a job each) -> zygote.py (imports torch and picks a level with
                   levels.py once, then forks the warm workers; each runs its jobs' units against a
                   deadline, restarts a sandbox that dies); forkserver.py forks a worker's sandboxes,
                   before any job exists.
Walls              levels.py (root, userns, landlock, none: which walls, in what order), isolation.py
                   (namespaces, covering mounts, read-only mounts, rlimits, nobody), landlock.py,
                   seccomp.py, cgroup.py (memory and processes). What stays readable of the kit is
                   grader/boundary/student_safe.py's allow-list, the same as the student wheel's.
Sandbox process    runner.py (one request at a time) and shell.py (IPython, outputs recorded): student
                   code runs here, behind the walls, and sends back plain evidence only.
Trust boundary     protocol.py (length-prefixed JSON, capped) and evidence.py (each answer checked for
                   form): everything past them is untrusted; grades are decided in the grader's process.
"""
