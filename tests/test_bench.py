"""The benchmark script still runs, on a class small enough for CI (its figures are not asserted)."""
import pytest

from bench.autograde_speed import main

pytestmark = [pytest.mark.slow, pytest.mark.sandbox]


def test_benchmark_runs_on_a_tiny_class(capsys):
    assert main(["--students", "1", "--notebooks", "01_attention_basics.ipynb"]) == 0
    printed = capsys.readouterr().out
    for line in ("stock nbgrader autograde (sequential)", "kit autograde, 2 workers", "ratio kit", "peak",
                 "grades agree: yes"):
        assert line in printed
