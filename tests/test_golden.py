"""The suite's golden-file convention (tests/conftest.py ``golden``): a difference fails,
``--update-golden`` rewrites the file and still fails, and only a re-run passes."""

from __future__ import annotations

import pytest

pytest_plugins = ["pytester"]

INNER = """
from pathlib import Path

def test_out(golden):
    golden(Path(__file__).parent / "out.golden", Path("output.txt").read_text())
"""


def test_golden_convention(pytester: pytest.Pytester) -> None:
    pytester.makeconftest("from tests.conftest import golden, pytest_addoption  # noqa: F401")
    pytester.makepyfile(test_inner=INNER)
    (pytester.path / "output.txt").write_text("new output\n")
    golden = pytester.path / "out.golden"

    def run(*args: str) -> pytest.RunResult:
        return pytester.runpytest("-p", "no:cacheprovider", *args)

    res = run()
    res.assert_outcomes(failed=1)
    res.stdout.fnmatch_lines(["*golden file*out.golden is missing*"])
    assert not golden.exists()

    golden.write_text("old output\n")
    res = run()
    res.assert_outcomes(failed=1)
    res.stdout.fnmatch_lines(["*differs from golden file out.golden*", "*-old output*",
                              "*+new output*"])
    assert golden.read_text() == "old output\n"

    res = run("--update-golden")
    res.assert_outcomes(failed=1)  # never passes in the run that wrote the file
    res.stdout.fnmatch_lines(["*golden file out.golden updated, re-run*"])
    assert golden.read_text() == "new output\n"
    run().assert_outcomes(passed=1)
    # Nothing to update: --update-golden compares with the committed file and passes.
    run("--update-golden").assert_outcomes(passed=1)
