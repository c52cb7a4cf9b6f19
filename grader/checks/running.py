"""Running the cases: planned once, run by a sandbox or here, the source cases read from the notebook's code."""

import copy
import functools
import json

from . import plain
from .scoring import judge_parts

UNREADABLE = {
    "type": "crashed",
    "reason": "the notebook's code cells are not available to read (run the check "
    "in the notebook, or with pytest on the notebook)",
}


def plan(parts):
    """Build every part's cases, in order: [(part, [case, ...]), ...]; built once, they never change."""
    return _plan(tuple(parts))


@functools.cache
def _plan(parts):
    return Plan((part, part.cases()) for part in parts)


class Plan(list):
    """Every part's cases, in order: [(part, [case, ...]), ...]."""

    @functools.cached_property
    def asked(self):
        """(requests, places): what the process that runs the student's code is asked, each distinct request once
        (every case's but the source cases'), and the place in ``requests`` of each of those cases, in plan order:
        cases that make the same call (a visible and a hidden one, say) share its outcome."""
        requests, seen, places = [], {}, []
        for _, cases in self:
            for case in cases:
                if case.probe != "source":
                    request = case.request()
                    place = seen.setdefault(json.dumps(request, sort_keys=True), len(requests))
                    if place == len(requests):
                        requests.append(request)
                    places.append(place)
        return requests, places


def grade_locally(parts, obj, sources=None):
    """Plan, run here and judge every case of ``parts`` on the student's ``obj``: the part results."""
    planned = plan(parts)
    return judge_parts(planned, run_locally(obj, planned, sources))


def sandbox_requests(planned):
    """The requests for the process that runs the student's code: every case's but the source ones', each distinct
    request once (see :attr:`Plan.asked`)."""
    return list(planned.asked[0])


def with_source_outcomes(planned, outcomes, sources):
    """All outcomes in plan order: ``outcomes`` (of :func:`sandbox_requests`) with the source cases'
    outcomes, read from ``sources`` (the notebook's code cells that ran before the test cell; None
    when they are not available, and the source cases then fail, saying why)."""
    from .policy import source_outcome

    merged, places, shared = [], iter(planned.asked[1]), set()
    for _, cases in planned:
        for case in cases:
            if case.probe == "source":
                merged.append(UNREADABLE if sources is None else source_outcome(case.params["name"], sources))
            else:
                place = next(places)
                merged.append(copy.deepcopy(outcomes[place]) if place in shared else outcomes[place])
                shared.add(place)
    return merged


def notebook_sources():
    """The cells run so far in this IPython session (its ``In`` history), or None outside IPython."""
    import sys

    if "IPython" not in sys.modules:
        return None
    shell = sys.modules["IPython"].get_ipython()
    history = getattr(shell, "user_ns", {}).get("In") if shell is not None else None
    return [cell for cell in history if isinstance(cell, str)] if isinstance(history, list) else None


def run_locally(obj, planned, sources=None):
    """Run every case here, round-tripping each outcome through plain data as a sandbox would.

    Source cases read ``sources`` (the code cells that ran, in order); without them, the cells run
    so far in this IPython session; outside IPython they cannot be checked and fail, saying why.
    """
    from .probes import run_probe

    if sources is None:
        sources = notebook_sources()
    outcomes = [run_probe(obj, r["probe"], plain.from_plain(r["params"])) for r in sandbox_requests(planned)]
    return [plain.loads(plain.dumps(o)) for o in with_source_outcomes(planned, outcomes, sources)]
