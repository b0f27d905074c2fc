"""docs/CI.md: every recipe's code block, taken from the page itself, run as far as this
machine allows (GitHub Actions steps through the test runner of test_ci_action, the GitLab
job's script in bash, the shell loop as written; the pre-commit block is the config the real
pre-commit test uses, see test_ci_precommit)."""

from __future__ import annotations

import re
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.builders import run_process
from tests.ci.support import REPO, build_mirror, clean_env, illegal_deck, legal_deck, serve

pytestmark = pytest.mark.slow
DOC = REPO / "docs" / "CI.md"


def block(name: str) -> str:
    """The code block after ``<!-- ci:NAME -->`` in docs/CI.md."""
    text = DOC.read_text(encoding="utf-8")
    m = re.search(rf"<!-- ci:{re.escape(name)} -->\n```[a-z]*\n(.*?)\n```", text, re.DOTALL)
    assert m, f"docs/CI.md has no ci:{name} block"
    return m.group(1) + "\n"


def readme_rev() -> str:
    text = (REPO / "README.md").read_text(encoding="utf-8")
    m = re.search(r"repo: https://github.com/OWNER/deckcheck\n\s+rev: (\S+)", text)
    assert m, "README names no pre-commit rev"
    return m.group(1)


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = build_mirror(tmp_path_factory.mktemp("mirror"))
    with serve(root) as url:
        yield url


def _decks(folder: Path) -> None:
    folder.mkdir(parents=True)
    (folder / "alice.ydk").write_text(legal_deck())
    (folder / "bob.ydk").write_text(illegal_deck())
    (folder / "notes.txt").write_text("not a deck\n")


def _shim(bindir: Path) -> dict[str, str]:
    """`deckcheck` on PATH running this checkout (what `pip install` gives a job)."""
    bindir.mkdir(parents=True, exist_ok=True)
    exe = bindir / "deckcheck"
    exe.write_text(f'#!/bin/sh\nPYTHONPATH="{REPO}" exec "{sys.executable}" -m deckcheck "$@"\n')
    exe.chmod(0o755)
    return clean_env(PATH=f"{bindir}:/usr/bin:/bin")


def test_github_actions_block_runs_through_the_action(tmp_path: Path, mirror: str) -> None:
    from tests.ci.test_ci_action import Runner, _defaults, _runner

    workflow = yaml.safe_load(block("github"))
    steps = workflow["jobs"]["deckcheck"]["steps"]
    ours = next(s for s in steps if str(s.get("uses", "")).startswith("OWNER/deckcheck@"))
    assert ours["uses"] == f"OWNER/deckcheck@{readme_rev()}"
    action = yaml.safe_load((REPO / "action.yml").read_text())
    assert set(ours["with"]) <= set(action["inputs"])
    documented = re.findall(r"`([a-z-]+)`", block_text_after("Inputs:"))
    assert set(documented) >= set(action["inputs"])  # every input is documented
    given = {k: str(v) for k, v in ours["with"].items()}
    inputs = _defaults(
        action, **given, source=mirror, **{"pip-args": "--no-deps --no-build-isolation --no-index"}
    )
    r: Runner = _runner(tmp_path, inputs)
    _decks(r.workspace / "decks")
    code = r.run(action, tmp_path)
    log = "\n".join(r.log)
    assert code == 1, log
    assert "::error file=decks/bob.ydk,line=42,title=DC402 forbidden::" in log
    assert "| decks/alice.ydk | alice | ✅ legal |" in (tmp_path / "summary.md").read_text()


def block_text_after(marker: str) -> str:
    text = DOC.read_text(encoding="utf-8")
    start = text.index(marker)
    return text[start : text.index("\n\n", start)]


def test_gitlab_block_script_writes_junit(tmp_path: Path, mirror: str) -> None:
    job = yaml.safe_load(block("gitlab"))["deckcheck"]
    script = job["script"]
    assert script[0].startswith("pip install ") and f"@{readme_rev()}" in script[0]
    assert job["artifacts"]["reports"]["junit"] == "deckcheck.xml"
    project = tmp_path / "project"
    _decks(project / "decks")
    env = _shim(tmp_path / "bin")
    env["CI_PROJECT_DIR"] = str(project)
    for k, v in job["variables"].items():
        env[k] = v.replace("$CI_PROJECT_DIR", str(project))
    env["DECKCHECK_SOURCE"] = mirror  # the runner's network: our loopback mirror
    # The install line needs the hosted repository: the shim stands for what it installs.
    body = "\n".join(script[1:]) + "\n"
    proc = run_process(["bash", "-eo", "pipefail", "-c", body], cwd=project, env=env, timeout=300)
    assert proc.returncode == 1, proc.stderr  # bob's deck is illegal: the job fails
    assert (project / ".deckcheck-data" / "cards.sqlite3").is_file()  # the cached folder
    root = ET.parse(project / "deckcheck.xml").getroot()
    assert (root.get("tests"), root.get("failures"), root.get("errors")) == ("2", "1", "0")
    failure = root.find("./testsuite/testcase[@name='decks/bob.ydk']/failure")
    assert failure is not None and "DC402 [forbidden] Pot of Greed" in (failure.text or "")


def test_pre_commit_block_names_the_hook_and_the_readme_revision() -> None:
    cfg = yaml.safe_load(block("pre-commit"))
    repo = cfg["repos"][0]
    assert repo["rev"] == readme_rev()
    hooks = yaml.safe_load((REPO / ".pre-commit-hooks.yaml").read_text())
    assert repo["hooks"][0]["id"] in {h["id"] for h in hooks}
    hook = next(h for h in hooks if h["id"] == repo["hooks"][0]["id"])
    assert re.search(hook["files"], "a.ydke") and re.search(hook["files"], "a.ydk")
    assert hook["entry"] == "deckcheck validate --pre-commit"


def test_shell_loop_block_runs(tmp_path: Path, mirror: str) -> None:
    project = tmp_path / "project"
    _decks(project / "decks")
    (project / "decks" / "carol.ydke").write_text("ydke://!!!\n")  # an empty ydke: illegal
    env = _shim(tmp_path / "bin")
    env["DECKCHECK_HOME"] = str(tmp_path / "home")
    subprocess.run(
        ["deckcheck", "update", "--source", mirror], env=env, check=True, capture_output=True
    )
    proc = run_process(["bash", "-c", block("shell")], cwd=project, env=env, timeout=300)
    assert proc.returncode == 1, proc.stderr
    # --only-illegal: only the failing decks are reported, each with its findings
    assert "decks/bob.ydk: illegal" in proc.stdout and "alice" not in proc.stdout
    assert "decks/carol.ydke: illegal" in proc.stdout
    assert proc.stderr.count("1 deck checked") == 3


def test_every_pin_is_the_release_tag_of_the_version_and_the_release_step_is_documented() -> None:
    # issue 32: README and docs/CI.md pinned `v0.1.0`, a tag nothing said how to make; the
    # pins are the release tag of pyproject's version and docs/CI.md documents the release
    # step that makes it (and the commit-SHA pin before a release)
    import tomllib

    version = tomllib.loads((REPO / "pyproject.toml").read_text())["project"]["version"]
    tag = f"v{version}"
    assert readme_rev() == tag
    for doc in (REPO / "README.md", DOC):
        text = doc.read_text(encoding="utf-8")
        # (the placeholders of the SHA pin, `@<sha>` and `rev: <sha>`, are no pins)
        pins = re.findall(r"OWNER/deckcheck@([^<\s\"]+)|rev: ([^<\s]\S*)", text)
        assert pins, doc
        assert {a or b for a, b in pins} == {tag}, doc
    text = DOC.read_text(encoding="utf-8")
    release = text.split("## Pinning a version, and the release step (maintainers)")[1]
    assert "git tag -a v<version>" in release and "git push origin v<version>" in release
    assert "<40-hex" in release  # the commit-SHA pin before a release
    assert "docs/CI.md#pinning-a-version-and-the-release-step-maintainers" in (
        REPO / "README.md"
    ).read_text(encoding="utf-8")
