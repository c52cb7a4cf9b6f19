"""What comes back from a sandbox, checked at the trust boundary: anything of the wrong type, size or
shape is the submission's own failure ("malformed"), never the worker's or the grader's."""

from ..checks import plain

MAX_TEXT = 1 << 20


class Malformed(Exception):
    """An answer that the runner could not have sent: the submission tampered with the channel."""


def _text(value, what):
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        value = "".join(value)
    if not isinstance(value, str) or len(value) > MAX_TEXT:
        raise Malformed(f"{what} is not text")
    return value


def _json(value, depth=0):
    """A JSON value, checked all the way down (a display's metadata, application/json data)."""
    if depth > 20:
        raise Malformed("nested too deeply")
    if isinstance(value, dict):
        return {_text(k, "a key"): _json(v, depth + 1) for k, v in value.items()}
    if isinstance(value, list):
        return [_json(v, depth + 1) for v in value]
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    raise Malformed("not JSON data")


def _mime_bundle(data):
    if not isinstance(data, dict):
        raise Malformed("display data is not a mapping")
    return {
        _text(mime, "a MIME type"): (_json(value) if mime.endswith("json") else _text(value, mime))
        for mime, value in data.items()
    }


def clean_output(output):
    """One output, rebuilt from the keys nbformat allows for its type."""
    if not isinstance(output, dict):
        raise Malformed("an output is not a mapping")
    kind = output.get("output_type")
    if kind == "stream" and output.get("name") in ("stdout", "stderr"):
        return {"output_type": kind, "name": output["name"], "text": _text(output.get("text"), "stream text")}
    if kind in ("display_data", "execute_result"):
        clean = {
            "output_type": kind,
            "data": _mime_bundle(output.get("data")),
            "metadata": _json(output.get("metadata") or {}),
        }
        if not isinstance(clean["metadata"], dict):
            raise Malformed("output metadata is not a mapping")
        if kind == "execute_result":
            count = output.get("execution_count")
            if count is not None and (not isinstance(count, int) or isinstance(count, bool)):
                raise Malformed("execution count is not a number")
            clean["execution_count"] = count
        return clean
    if kind == "error":
        traceback = output.get("traceback")
        if not isinstance(traceback, list):
            raise Malformed("a traceback is not a list")
        return {
            "output_type": kind,
            "ename": _text(output.get("ename"), "an error name"),
            "evalue": _text(output.get("evalue"), "an error value"),
            "traceback": [_text(line, "a traceback line") for line in traceback],
        }
    raise Malformed(f"unknown output type {str(kind)[:40]!r}")


def cell_answer(answer):
    """(outputs, execution count) from a cell's answer."""
    if not isinstance(answer, dict) or set(answer) != {"outputs", "count"}:
        raise Malformed("a cell's answer has the wrong form")
    outputs, count = answer["outputs"], answer["count"]
    if not isinstance(outputs, list) or not isinstance(count, int) or isinstance(count, bool):
        raise Malformed("a cell's answer has the wrong form")
    return [clean_output(output) for output in outputs], count


def probe_answer(answer):
    """A probe's outcome as plain data, or None when the exercise was not defined at that point."""
    if answer == {"undefined": True}:
        return None
    if not isinstance(answer, dict) or set(answer) != {"outcome"}:
        raise Malformed("a probe's answer has the wrong form")
    try:
        outcome = plain.from_plain(answer["outcome"])
    except (ValueError, TypeError, KeyError, RecursionError) as error:
        raise Malformed(f"a probe's outcome is not plain data ({error})") from None
    if not isinstance(outcome, dict):
        raise Malformed("a probe's outcome is not a mapping")
    return answer["outcome"]


def count_answer(answer):
    """The execution count the sandbox gave a test cell that the judge runs."""
    count = answer.get("count") if isinstance(answer, dict) and set(answer) == {"count"} else None
    if not isinstance(count, int) or isinstance(count, bool):
        raise Malformed("an execution count has the wrong form")
    return count


def call_back(message):
    """A request of the student's code on an object the judge lent it, checked for its form (the judge decodes
    its values, which are plain data or handles)."""
    request = message.get("call_back") if isinstance(message, dict) and set(message) == {"call_back"} else None
    if (
        not isinstance(request, dict)
        or type(request.get("on")) is not int
        or request.get("do") not in ("call", "attr", "item", "len")
        or not set(request) <= {"on", "do", "args", "kwargs", "name", "key"}
    ):
        raise Malformed("a call back to the judge has the wrong form")
    return request


def _files(files):
    """The files the student's code wrote, as the judge takes them: {"changed": {name: bytes}, "removed": [name]}."""
    if (
        not isinstance(files, dict)
        or set(files) != {"changed", "removed"}
        or not isinstance(files["changed"], dict)
        or not isinstance(files["removed"], list)
    ):
        raise Malformed("the files sent to the judge have the wrong form")
    for data in files["changed"].values():
        if not (isinstance(data, dict) and set(data) == {"__bytes__"} and isinstance(data["__bytes__"], str)):
            raise Malformed("a file sent to the judge is not bytes")
    if not all(isinstance(name, str) for name in files["removed"]):
        raise Malformed("a removed file's name is not text")
    return files


def lent_answer(answer):
    """An answer to one of the judge's requests (handles.py), its outputs cleaned; its value is checked by the
    judge, which decodes nothing but plain data."""
    if not isinstance(answer, dict) or not isinstance(answer.get("outputs"), list):
        raise Malformed("an answer to the judge has the wrong form")
    files = _files(answer["files"]) if "files" in answer else None
    kinds = set(answer) - {"outputs", "files"}
    if kinds not in ({"value"}, {"missing"}, {"raised"}) or answer.get("missing", True) is not True:
        raise Malformed("an answer to the judge has the wrong form")
    clean = {"outputs": [clean_output(output) for output in answer["outputs"]], **({"files": files} if files else {})}
    if "raised" in answer:
        raised = answer["raised"]
        if (
            not isinstance(raised, dict)
            or set(raised) != {"type", "message", "traceback"}
            or not isinstance(raised["traceback"], list)
        ):
            raise Malformed("an error sent to the judge has the wrong form")
        return {
            **clean,
            "raised": {
                "type": _text(raised["type"], "an error's type")[:100],
                "message": _text(raised["message"], "an error's message"),
                "traceback": [_text(line, "a traceback line") for line in raised["traceback"]],
            },
        }
    return {**answer, **clean}
