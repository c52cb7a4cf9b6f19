"""A pytest plugin for a copy of the kit with exercises added (tests/autograde/test_new_exercise.py):
``-p tests.added_exercises --added <exercise> --added <notebook>`` leaves out the instances of a test parametrized by
the kit's own exercises or notebooks, which test the same checks and files as in the checkout (``make test`` runs
them there), and keeps every other test: the added ones' instances, and each test that lists or counts the
exercises, the misconceptions, the notebooks or the kit's files."""

import pathlib

import pytest


def pytest_addoption(parser):
    parser.addoption(
        "--added",
        action="append",
        default=[],
        metavar="NAME",
        help="an exercise or a notebook added to the kit: its instances run, the kit's own do not",
    )


def kits_own(item, own):
    """Whether ``item`` is an instance of a parametrized test one of whose parameters names one of ``own``: an
    exercise, or a notebook by its file name."""
    spec = getattr(item, "callspec", None)
    return spec is not None and any(pathlib.PurePath(part).name in own for part in spec.id.split("-"))


@pytest.hookimpl(trylast=True)
def pytest_collection_modifyitems(config, items):
    added = set(config.getoption("added"))
    if not added:
        return
    from grader.checks.registry import exercise_names, notebooks

    kit = {*exercise_names(), *notebooks()}
    if not added <= kit:
        raise pytest.UsageError(f"--added: {', '.join(sorted(added - kit))} is not in the kit")
    left_out = [item for item in items if kits_own(item, kit - added)]
    if left_out:
        config.hook.pytest_deselected(items=left_out)
        items[:] = [item for item in items if not kits_own(item, kit - added)]
