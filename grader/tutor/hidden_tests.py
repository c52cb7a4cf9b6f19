"""Take the hidden tests out of an autograded notebook's test cells: their source and every trace of it in outputs.

nbgrader's ``ClearHiddenTests`` removes the ``### BEGIN HIDDEN TESTS`` blocks from the source; a
failed hidden assert can still show its line in the cell's traceback, and its message in the
error's value. Those lines go too.
"""

import re

from nbgrader.preprocessors import ClearHiddenTests

ANSI = re.compile(r"\x1b\[[0-9;]*[A-Za-z]")
HIDDEN_FAILED = "a hidden test failed"


def hidden_lines(cell, begin="BEGIN HIDDEN TESTS", end="END HIDDEN TESTS"):
    """The non-blank lines (stripped) of the cell's hidden test blocks."""
    found, inside = [], False
    for line in cell.source.splitlines():
        if begin in line:
            inside = True
        elif end in line:
            inside = False
        elif inside and line.strip():
            found.append(line.strip())
    return found


def clear_hidden_tests(cell, clearer=None):
    """Remove the hidden blocks from the cell's source and their traces from its outputs; True if it had any."""
    clearer = clearer or ClearHiddenTests(enforce_metadata=False)
    secrets = hidden_lines(cell, clearer.begin_test_delimeter, clearer.end_test_delimeter)
    if not secrets:
        return False
    clearer._remove_hidden_test_region(cell)
    secrets += [clearer.begin_test_delimeter, clearer.end_test_delimeter]  # a traceback's context lines show them
    cell.outputs = [out for out in (_scrub(output, secrets) for output in cell.get("outputs", [])) if out]
    return True


def leaks(text, secrets):
    """True if ``text`` shows a hidden line, or a part of one long enough to matter (an assert's message)."""
    text = ANSI.sub("", str(text)).strip()
    return any(secret in text for secret in secrets) or (len(text) >= 8 and any(text in s for s in secrets))


def _scrub(output, secrets):
    if output.output_type == "stream":
        output.text = "".join(line for line in output.text.splitlines(keepends=True) if not leaks(line, secrets))
        return output if output.text else None
    if output.output_type == "error":
        evalue = HIDDEN_FAILED if leaks(output.evalue, secrets) else output.evalue
        last = f"{output.ename}: "
        frames = [
            line
            for entry in output.traceback
            for line in ANSI.sub("", entry).splitlines()
            if not leaks(line, secrets) and not line.startswith(last)
        ]
        output.evalue, output.traceback = evalue, frames + [f"{output.ename}: {evalue}"]
        return output
    shown = [value for value in output.get("data", {}).values() if isinstance(value, str)]
    return None if any(leaks(line, secrets) for value in shown for line in value.splitlines()) else output
