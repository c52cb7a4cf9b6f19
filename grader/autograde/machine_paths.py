"""The grading machine's own paths out of what a student gets: a traceback through PyTorch names
``site-packages/torch/nn/functional.py``, not the grader's virtual environment, home or course."""

import site
import sys
import sysconfig

from ..boundary.student_safe import KIT_ROOT


def _prefixes():
    """(path, what to show instead), longest first, so that a folder inside another is replaced as itself."""
    found = {path: "site-packages" for path in site.getsitepackages()}
    found[sysconfig.get_paths()["stdlib"]] = "python"
    found.update({sys.prefix: "python", sys.base_prefix: "python", str(KIT_ROOT): "grader"})
    return sorted(found.items(), key=lambda item: -len(item[0]))


PREFIXES = _prefixes()


def without_machine_paths(text):
    """``text`` with each of the grading machine's paths replaced by a short name."""
    for path, short in PREFIXES:
        text = text.replace(path, short)
    return text


def scrub_outputs(outputs):
    """The outputs (nbformat nodes), their tracebacks and error values without the grading machine's paths."""
    for output in outputs:
        if output.get("output_type") == "error":
            output["traceback"] = [without_machine_paths(line) for line in output.get("traceback", [])]
            output["evalue"] = without_machine_paths(output.get("evalue", ""))
    return outputs
