"""The attack suite: hostile answers to notebook 01's ``attention_scores`` (3 of its 24 points), each with the
status its exercise must get, and the wall spies, which answer right only where the sandbox's walls hold.

``{course}``, ``{kit}`` and ``{home}`` in an answer stand for the course, the kit's root and the grader's home.
"""

SECRET = "NBGRADER_PROBE_SECRET"  # in the grader's environment; no sandbox may see it
SHM_KEY = 0x4B1740
PROBE_FILE = "attention-kit-probe"

WRONG = "def attention_scores(queries, keys):\n    return queries @ keys\n"
RIGHT = "def attention_scores(queries, keys):\n    return queries @ keys.transpose(-2, -1)\n"

ATTACKS = {  # student: (answer to attention_scores, expected status of attention_scores)
    "memorybomb": ("import torch\nhog = torch.ones(2 * 2**30 // 4)\nhog += 1\n" + RIGHT, "memory"),
    "forker": ("import os, time\nif os.fork() == 0:\n    while True:\n        time.sleep(0.2)\n" + WRONG, "graded"),
    # Two hangs wait and one (stubborn) spins: the deadline stops both kinds alike, and a spinning one takes
    # a core from the other tests until then (the demo's hangs wait too).
    "loopdef": ("import time\nwhile True:\n    time.sleep(1)\n" + RIGHT, "timeout"),
    "loopcall": (
        "import time\ndef attention_scores(queries, keys):\n    while True:\n        time.sleep(1)\n",
        "timeout",
    ),
    "stubborn": (
        "import signal\ndef attention_scores(queries, keys):\n"
        "    for s in (signal.SIGINT, signal.SIGALRM, signal.SIGTERM):\n"
        "        signal.signal(s, signal.SIG_IGN)\n"
        "    while True:\n        try:\n            pass\n        except BaseException:\n            pass\n",
        "timeout",
    ),
    "exiter": ("import os\ndef attention_scores(queries, keys):\n    os._exit(3)\n", "crashed"),
    "recursor": (
        "import sys\nsys.setrecursionlimit(10**7)\ndef attention_scores(queries, keys):\n"
        "    nested = []\n    for _ in range(300_000):\n        nested = [nested]\n    return repr(nested)\n",
        "crashed",
    ),
    "deepheap": (
        "import sys\nsys.setrecursionlimit(10**8)\ndef attention_scores(queries, keys):\n"
        "    def down(n):\n        return down(n + 1) + 1\n    return down(0)\n",
        "memory",
    ),
    "flooder": (
        "def attention_scores(queries, keys):\n    for _ in range(100):\n        print('x' * 1_000_000)\n"
        "    return queries @ keys\n",
        "graded",
    ),
    "reader": (
        "import json, pathlib\nfor path in "
        "[pathlib.Path('{course}/solutions/self_attention/01_attention_basics.ipynb'),\n"
        "             pathlib.Path('{course}/../../main/grader/reference/basics.py')] + "
        "list(pathlib.Path('{kit}').glob('grader/reference/*.py')):\n"
        "    try:\n        exec(path.read_text() if path.suffix == '.py' else '')\n    except OSError:\n        pass\n"
        "if 'attention_scores' not in globals():\n" + "".join("    " + line + "\n" for line in WRONG.splitlines()),
        "graded",
    ),
    "importer": (
        "try:\n    from grader.reference import of\n"
        "    attention_scores = of('01_attention_basics.ipynb').attention_scores\nexcept Exception:\n"
        + "".join("    " + line + "\n" for line in WRONG.splitlines()),
        "graded",
    ),
    "writer": (
        "for path in ['{course}/gradebook.db', '{course}/grading/self_attention/good/01_attention_basics.json']:\n"
        "    try:\n        open(path, 'wb').write(b'garbage')\n    except OSError:\n        pass\n" + WRONG,
        "graded",
    ),
    "patcher": (
        "import numpy, torch, builtins\ntorch.allclose = lambda *a, **k: True\n"
        "torch.equal = lambda *a, **k: True\nnumpy.allclose = lambda *a, **k: True\n"
        "numpy.array_equal = lambda *a, **k: True\nbuiltins.all = lambda *a, **k: True\n" + WRONG,
        "graded",
    ),
    "ipython": (
        "try:\n    from IPython.core.interactiveshell import InteractiveShell\n"
        "    InteractiveShell.run_cell = lambda *a, **k: None\n    InteractiveShell.showtraceback = lambda *a, "
        "**k: None\n"
        "except Exception:\n    pass\n" + WRONG,
        "graded",
    ),
    "forger": (
        "import numpy as np\nimport grader.checks.probes as probes\n"
        "probes.run_probe = lambda obj, probe, params: {'type': 'Tensor', 'dtype': 'float32', 'shape': [3, 3],"
        " 'values': np.array([[2, 4, 4], [4, 16, 12], [4, 12, 10]], dtype=np.float32), 'mutated': False,"
        " 'warnings': []}\n" + WRONG,
        "graded",
    ),
    "spy": (
        "import os\nassert os.getuid() != 0\nassert not [k for k in os.environ if 'NBGRADER' in k or 'JPY' in k]\n"
        "import socket\ntry:\n    socket.create_connection(('127.0.0.1', 22), timeout=1)\n    raise SystemExit\n"
        "except OSError:\n    pass\n" + RIGHT,
        "graded",
    ),
}
# Attacks on the channel back to the grader and on the runner's secrets (the only open file is the channel).
CHANNEL = (
    "import os, json, struct\ndef _send(message):\n    data = json.dumps(message).encode()\n"
    "    for fd in range(3, 64):\n        try:\n            os.fstat(fd)\n        except OSError:\n"
    "            continue\n        os.write(fd, struct.pack('!Q', len(data)) + data)\n"
)
ATTACKS.update(
    {
        "pipe": (CHANNEL + "_send([1, 2, 3])\n" + RIGHT, "malformed"),  # a message that is not an object
        "judge": (
            CHANNEL + "def attention_scores(queries, keys):\n    _send({'outcome': {'__tuple__': [1]}})\n"
            "    os._exit(0)\n",
            "malformed",
        ),  # an outcome that is not a mapping
        "flood": (CHANNEL + "for _ in range(200_000):\n    _send({'outputs': [], 'count': 1})\n" + RIGHT, "malformed"),
        "interrupt": ("def attention_scores(queries, keys):\n    raise KeyboardInterrupt\n", "graded"),
        "stackwalk": (
            "import sys, gc\ndef attention_scores(queries, keys):\n    seen = False\n"
            "    frame = sys._getframe()\n    while frame is not None:\n"
            "        seen |= bool({'job', 'spec', 'units', 'hide'} & set(frame.f_locals))\n"
            "        frame = frame.f_back\n    for obj in gc.get_objects():\n"
            "        if isinstance(obj, dict) and ({'units', 'limits'} <= obj.keys() or {'hide', 'limits'} <= "
            "obj.keys()\n"
            "                                      or {'requests', 'exercise'} <= obj.keys()):\n"
            "            seen = True\n"
            "    return queries @ keys.transpose(-2, -1) if seen else queries @ keys\n",
            "graded",
        ),
    }
)


def _if_wall_holds(check):
    """A submission that answers right only when ``check`` (code that sets ``leak``) finds no leak."""
    return (
        check
        + "if leak:\n"
        + "".join("    " + line + "\n" for line in WRONG.splitlines())
        + "else:\n"
        + "".join("    " + line + "\n" for line in RIGHT.splitlines())
    )


WALL_SPIES = {  # student: answer to attention_scores; full marks iff the wall holds
    "procspy": _if_wall_holds(
        "import os\nleak = False\ntry:\n    pids = [p for p in os.listdir('/proc') if p.isdigit()]\nexcept OSError:\n"
        "    pids = []\nfor pid in pids:\n    try:\n        command = open(f'/proc/{pid}/cmdline', 'rb').read()\n"
        "    except OSError:\n        continue\n"
        "    leak = leak or any(word in command for word in (b'autograde', b'pytest', b'nbgrader'))\n"
        "leak = leak or len(pids) > 8\n"
    ),
    "environspy": _if_wall_holds(
        "import ctypes\nctypes.CDLL(None).prctl(4, 1, 0, 0, 0)  # PR_SET_DUMPABLE: /proc/self/environ readable\n"
        "try:\n    environ = open('/proc/self/environ', 'rb').read()\nexcept OSError:\n    environ = b''\n"
        f"leak = b'NBGRADER' in environ or b'{SECRET}' in environ\n"
    ),
    "scribbler": _if_wall_holds(
        "import os\nleak = False\n"
        "for folder in ['/run/lock', '/var/lock', '/run', '/var/cache', '/var/lib', '/var/spool', '/var/mail',\n"
        "               '/opt', '/srv', '/home', '/root', '/dev/mqueue', '{home}', '{course}']:\n"
        f"    try:\n        open(os.path.join(folder, '{PROBE_FILE}'), 'w').write('x')\n        leak = True\n"
        "    except OSError:\n        pass\n"
    ),
    "kitspy": _if_wall_holds(  # of the kit, only the student-safe part (boundary/student_safe.py) is readable, and no
        # instructor-only module is in the sandbox's memory (imported before the walls went up)
        "import sys\n"
        "def _reads(path):\n    try:\n        return bool(open('{kit}/grader/' + path, 'rb').read())\n"
        "    except OSError:\n        return False\n"
        "leak = not (_reads('checks/__init__.py') and _reads('selfcheck/plugin.py')) or any(_reads(path) for path in\n"
        "    ['demo/run.py', 'autograde/jobs.py', 'records/__init__.py', 'sandbox/levels.py', 'hidden/__init__.py',\n"
        "     'reference/__init__.py', 'api.py', 'boundary.py', 'exercises/basics.py', 'exercises/__init__.py'])\n"
        "leak = leak or any(name.startswith(('grader.exercises', 'grader.hidden', 'grader.reference', 'grader.demo'))\n"
        "                   for name in sys.modules)\n"
    ),
}
SHARED_MEMORY = {  # like ATTACKS: a segment that would outlive its creator, to pass answers on
    "shm": (
        "import ctypes\nlibc = ctypes.CDLL(None)\n"
        f"segment = libc.shmget({SHM_KEY}, 1 << 20, 0o1666)  # IPC_CREAT: outlives its creator\n"
        "if segment >= 0:\n    libc.shmat.restype = ctypes.c_void_p\n    address = libc.shmat(segment, None, 0)\n"
        "    if address not in (None, ctypes.c_void_p(-1).value):\n"
        "        ctypes.memmove(address, b'answers of the last student', 27)\n" + WRONG,
        "graded",
    ),
}
