"""The builders of grader/checks/cases.py make the parts they say."""

from grader.checks.cases import known_random_batches


def known():
    return ["the known case"]


def cases(shapes, seed):
    return [(shape, seed) for shape in shapes]


def test_known_random_batches_makes_the_known_part_the_random_gate_and_the_batch_part():
    parts = known_random_batches(
        ("known", "random", "batches"),
        known,
        cases,
        random=([(2,), (3, 4)], 10),
        batches=([(5, 3, 4)], 20),
        requires={"argument"},
        random_requires={"edge", "shape"},
    )
    assert [(p.title, p.points, p.gate, p.requires, p.cases()) for p in parts] == [
        ("known", 1, False, {"argument"}, ["the known case"]),
        ("random", 1, True, {"argument", "edge", "shape"}, [((2,), 10), ((3, 4), 10)]),
        ("batches", 1, False, {"argument", "batch"}, [((5, 3, 4), 20)]),
    ]
    by_default = known_random_batches(("known", "random", "batches"), known, cases, ([(2,)], 1), ([(3, 2)], 2))
    assert [p.requires for p in by_default] == [set(), {"shape"}, {"batch"}]
