"""Each distinct request is sent once (grader/checks/running.py, Plan.asked): cases that make the same call share
its outcome, each judged on a copy of its own, and every case still gets the outcome of its own request."""

import json

import pytest

from grader.autograde.jobs import planned_checks
from grader.checks.cases import Case, Part
from grader.checks.plain import call
from grader.checks.registry import exercise_names
from grader.checks.running import plan, sandbox_requests, with_source_outcomes


def key(request):
    return json.dumps(request, sort_keys=True)


@pytest.mark.parametrize("name", exercise_names())
def test_every_case_gets_its_own_requests_outcome_and_none_is_sent_twice(name):
    planned = planned_checks(name)
    requests = sandbox_requests(planned)
    assert len({key(r) for r in requests}) == len(requests)
    asked = [case for _, cases in planned for case in cases if case.probe != "source"]
    outcomes = [{"answer to": key(r)} for r in requests]
    merged = with_source_outcomes(planned, outcomes, sources=[])
    got = [
        outcome for outcome, case in zip(merged, (c for _, cases in planned for c in cases)) if case.probe != "source"
    ]
    assert [o["answer to"] for o in got] == [key(case.request()) for case in asked]


def test_the_heatmaps_identity_call_visible_and_hidden_is_made_once():
    planned = planned_checks("show_heatmaps")
    asked = [case for _, cases in planned for case in cases if case.probe != "source"]
    assert len(asked) == 11 and len(sandbox_requests(planned)) == 10


def test_cases_that_share_an_outcome_are_judged_on_copies():
    seen = []

    def judge(outcome):
        seen.append(dict(outcome))
        outcome["changed by a judge"] = True

    planned = plan([Part("shared", 1, lambda: [Case("once", judge, call(1, 2)), Case("again", judge, call(1, 2))])])
    assert len(sandbox_requests(planned)) == 1
    merged = with_source_outcomes(planned, [{"type": "int"}], sources=[])
    for case, outcome in zip(planned[0][1], merged):
        case.judge(outcome)
    assert seen == [{"type": "int"}, {"type": "int"}]
    assert merged[0] is not merged[1]


def test_fewer_outcomes_than_requests_is_an_error_not_a_shifted_verdict():
    planned = plan([Part("two", 1, lambda: [Case("one", print, call(1)), Case("other", print, call(2))])])
    with pytest.raises(IndexError):
        with_source_outcomes(planned, [{"type": "int"}], sources=[])
