"""The suite's golden-file convention (tests/conftest.py ``check_golden``): a difference
fails, ``--update-golden`` rewrites the file and still fails, and only a re-run passes."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import check_golden


def test_missing_file_fails(tmp_path: Path) -> None:
    with pytest.raises(pytest.fail.Exception, match=r"out\.golden is missing"):
        check_golden(tmp_path / "out.golden", "new output\n", update=False)
    assert not (tmp_path / "out.golden").exists()


def test_difference_fails_with_a_diff(tmp_path: Path) -> None:
    golden = tmp_path / "out.golden"
    golden.write_text("old output\n")
    with pytest.raises(pytest.fail.Exception, match=r"differs from golden file out\.golden") as e:
        check_golden(golden, "new output\n", update=False)
    assert "-old output" in str(e.value) and "+new output" in str(e.value)
    assert golden.read_text() == "old output\n"


def test_update_writes_then_fails_and_the_rerun_passes(tmp_path: Path) -> None:
    golden = tmp_path / "sub" / "out.golden"
    for before in (None, "old output\n"):
        if before is not None:
            golden.write_text(before)
        with pytest.raises(pytest.fail.Exception, match=r"golden file out\.golden updated, re-run"):
            check_golden(golden, "new output\n", update=True)  # never passes when it wrote
        assert golden.read_text() == "new output\n"
        check_golden(golden, "new output\n", update=False)  # the re-run passes
        check_golden(golden, "new output\n", update=True)  # nothing to update: a real compare


def test_the_fixture_reads_the_option(pytestconfig: pytest.Config) -> None:
    # The one switch is a registered pytest option (an unknown one raises ValueError).
    assert pytestconfig.getoption("--update-golden") in (True, False)
