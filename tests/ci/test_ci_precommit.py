"""The pre-commit hook (.pre-commit-hooks.yaml) with the real ``pre-commit`` package: a
user's repository whose config points at a git copy of this checkout (tagged there), a fresh
machine (no card data: the hook installs it once from a loopback mirror, saying so), a legal
deck commits, an illegal one is blocked with the finding shown, requirements.txt is left
alone, and offline the hook fails with one line naming the fix.

pre-commit builds the hook's own virtualenv and pip-installs this checkout into it, with its
dependencies from the package index (measured: docs/CI.md, "pre-commit"); the test needs
the index the way CI machines reach it.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml

from tests.builders import run_process
from tests.ci.support import (
    build_mirror,
    clean_env,
    copy_checkout,
    git,
    illegal_deck,
    legal_deck,
    serve,
)
from tests.ci.test_ci_docs import block, readme_rev

pytestmark = pytest.mark.slow
TAG = readme_rev()  # the README's revision: the lead tags the release with it


def commit(repo: Path, env: dict[str, str], *files: str) -> subprocess.CompletedProcess[str]:
    subprocess.run(["git", "add", *files], cwd=repo, env=env, check=True)
    return run_process(
        ["git", "commit", "-m", f"add {' '.join(files)}"], cwd=repo, env=env, timeout=900
    )


def test_real_pre_commit_installs_data_once_then_blocks_an_illegal_deck(tmp_path: Path) -> None:
    pytest.importorskip("pre_commit", reason="pip install '.[test]' brings pre-commit")
    src = copy_checkout(tmp_path / "deckcheck")
    git(src, "tag", TAG)  # a revision that exists, as the README's `rev:` names
    repo = tmp_path / "submissions"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    # The config docs/CI.md gives, pointed at the local copy, with an event date, verbose
    # (pre-commit shows a passing hook's output only then).
    cfg = yaml.safe_load(block("pre-commit"))
    assert cfg["repos"][0]["rev"] == TAG
    cfg["repos"][0]["repo"] = str(src)
    cfg["repos"][0]["hooks"][0]["args"] += ["--date", "2026-06-01"]
    cfg["repos"][0]["hooks"][0]["verbose"] = True
    (repo / ".pre-commit-config.yaml").write_text(yaml.safe_dump(cfg))
    mirror = build_mirror(tmp_path / "mirror")
    with serve(mirror) as url:
        env = clean_env(
            PRE_COMMIT_HOME=str(tmp_path / "pre-commit-home"),
            DECKCHECK_HOME=str(tmp_path / "fresh-home"),  # a fresh machine: no card data
            DECKCHECK_SOURCE=url,
            HOME=str(tmp_path),
            GIT_AUTHOR_NAME="t",
            GIT_AUTHOR_EMAIL="t@example.invalid",
            GIT_COMMITTER_NAME="t",
            GIT_COMMITTER_EMAIL="t@example.invalid",
        )
        subprocess.run(
            [sys.executable, "-m", "pre_commit", "install"],
            cwd=repo,
            env=env,
            check=True,
            capture_output=True,
        )
        (repo / "alice.ydk").write_text(legal_deck())
        (repo / "requirements.txt").write_text("click>=8\n")  # not a deck: left alone
        first = commit(repo, env, ".pre-commit-config.yaml", "alice.ydk", "requirements.txt")
        out = first.stdout + first.stderr
        assert first.returncode == 0, out
        assert "no card data is installed: installing it once" in out, out
        assert (tmp_path / "fresh-home" / "cards.sqlite3").is_file()
        assert "deckcheck" in out and "Passed" in out

        (repo / "bob.ydk").write_text(illegal_deck())
        second = commit(repo, env, "bob.ydk")
        out = second.stdout + second.stderr
        assert second.returncode != 0, out
        assert "Failed" in out and "installing it once" not in out  # installed once only
        assert "bob.ydk: illegal" in out
        assert "main:42 error DC402 [forbidden] Pot of Greed (55144522)" in out
        log = run_process(["git", "log", "--oneline"], cwd=repo, env=env).stdout
        assert len(log.splitlines()) == 1  # bob's deck was not committed

    # Offline on a fresh machine: one line naming the fix, nothing committed.
    env["DECKCHECK_HOME"] = str(tmp_path / "offline-home")
    env["DECKCHECK_SOURCE"] = str(tmp_path / "no-such-mirror")
    (repo / "carol.ydk").write_text(legal_deck())
    third = commit(repo, env, "carol.ydk")
    out = third.stdout + third.stderr
    assert third.returncode != 0, out
    errors = [x for x in out.splitlines() if x.startswith("deckcheck: error:")]
    assert len(errors) == 1, out
    assert "no card data is installed and it could not be fetched" in errors[0]
    assert "run `deckcheck update` once with network access" in errors[0]
