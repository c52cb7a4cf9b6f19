"""A cell's top-level ``def`` or ``class``: one pattern, for the grader, the demo and the tests."""

from grader.checks.cells import defines, definition

SOURCE = (
    "import torch\n\n\nclass Head(nn.Module):\n    def forward(self, x):\n        return x\n\n\n"
    "def softmax(x):\n    pass\n"
)


def test_a_cell_defines_a_name_with_def_or_class_at_its_top_level():
    assert defines(SOURCE, "Head") and defines(SOURCE, "softmax")
    assert not defines(SOURCE, "forward")  # a method
    assert not defines(SOURCE, "soft")  # the start of another name
    assert not defines("softmax = torch.softmax\n", "softmax")


def test_every_name_a_cell_defines_in_order():
    assert definition().findall(SOURCE) == ["Head", "softmax"]
