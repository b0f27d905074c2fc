"""The GitHub Action (action.yml), its steps run the way a runner runs a composite action:
inputs and ``${{ }}`` expressions substituted, ``GITHUB_ACTION_PATH``, ``GITHUB_STEP_SUMMARY``,
``GITHUB_ENV``, ``GITHUB_OUTPUT`` and ``GITHUB_ACTIONS`` set, each ``run:`` in bash
(``bash --noprofile --norc -eo pipefail``) in a fresh venv, the update served by a loopback
mirror. ``uses:`` steps (actions/cache) cannot run here: they are skipped, and said so."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
import yaml

from tests.builders import run_process
from tests.ci.support import (
    REPO,
    build_mirror,
    clean_env,
    illegal_deck,
    legal_deck,
    make_venv,
    serve,
)

pytestmark = pytest.mark.slow
EXPR = re.compile(r"\$\{\{\s*(.*?)\s*\}\}")


class Runner:
    """Just enough of the runner's expression language for action.yml: contexts
    (inputs, github, runner, env, steps.ID.outputs), string literals, ==, !=, &&, ||."""

    def __init__(self, inputs: dict[str, str], env: dict[str, str], workspace: Path):
        self.inputs = inputs
        self.env = env
        self.workspace = workspace
        self.outputs: dict[str, dict[str, str]] = {}
        self.log: list[str] = []

    def value(self, expr: str) -> Any:
        expr = expr.strip()
        for op in ("||", "&&"):
            if op in expr:
                parts = [self.value(p) for p in expr.split(op)]
                if op == "&&":
                    return all(parts) and parts[-1]
                return next((p for p in parts if p), parts[-1])
        for op in ("==", "!="):
            if op in expr:
                a, b = (str(self.value(p)) for p in expr.split(op, 1))
                return (a == b) if op == "==" else (a != b)
        if expr.startswith("'") and expr.endswith("'"):
            return expr[1:-1].replace("''", "'")
        if expr in ("true", "false"):
            return expr == "true"
        head, _, rest = expr.partition(".")
        if head == "inputs":
            return self.inputs[rest]
        if head == "github":
            return {
                "action_path": self.env["GITHUB_ACTION_PATH"],
                "workspace": str(self.workspace),
            }[rest]
        if head == "runner":
            return {"os": "Linux", "temp": self.env["RUNNER_TEMP"]}[rest]
        if head == "env":
            return self.env.get(rest, "")
        if head == "steps":
            step, _, out = rest.partition(".outputs.")
            return self.outputs.get(step, {}).get(out, "")
        raise AssertionError(f"expression not supported by the test runner: {expr}")

    def sub(self, text: str) -> str:
        return EXPR.sub(lambda m: str(self.value(m.group(1))), text)

    def run(self, action: dict[str, Any], tmp: Path) -> int:
        """Run the composite steps in order; the exit code of the first failing step."""
        for n, step in enumerate(action["runs"]["steps"]):
            name = step.get("name", f"step {n}")
            cond = step.get("if")
            if cond is not None and not self.value(EXPR.sub(r"\1", cond)):
                self.log.append(f"skipped (if false): {name}")
                continue
            if "uses" in step:
                # actions/cache needs the cache service of a real runner.
                self.log.append(f"skipped (uses {step['uses']} needs a real runner): {name}")
                continue
            env = dict(self.env)
            for k, v in (step.get("env") or {}).items():
                env[k] = self.sub(str(v))
            out_file = tmp / f"output-{n}"
            out_file.write_text("")
            env["GITHUB_OUTPUT"] = str(out_file)
            script = tmp / f"step-{n}.sh"
            script.write_text(self.sub(step["run"]))
            assert step["shell"] == "bash"
            proc = run_process(
                ["bash", "--noprofile", "--norc", "-eo", "pipefail", str(script)],
                cwd=self.workspace,
                env=env,
                timeout=600,
            )
            self.log.append(f"ran: {name} -> {proc.returncode}")
            self.log.append(proc.stdout)
            self.log.append(proc.stderr)
            if step.get("id"):
                self.outputs[step["id"]] = _key_values(out_file)
            self.env.update(_key_values(Path(self.env["GITHUB_ENV"])))
            if proc.returncode != 0:
                return proc.returncode
        return 0


def _key_values(path: Path) -> dict[str, str]:
    out = {}
    for line in path.read_text().splitlines():
        if "=" in line:
            k, _, v = line.partition("=")
            out[k] = v
    return out


def _defaults(action: dict[str, Any], **given: str) -> dict[str, str]:
    inputs = {k: str(v.get("default", "")) for k, v in action["inputs"].items()}
    inputs.update(given)
    return inputs


@pytest.fixture(scope="module")
def mirror(tmp_path_factory: pytest.TempPathFactory) -> Any:
    root = build_mirror(tmp_path_factory.mktemp("mirror"))
    with serve(root) as url:
        yield url


def _runner(tmp: Path, inputs: dict[str, str]) -> Runner:
    bindir = make_venv(tmp / "venv")
    (tmp / "runner-temp").mkdir()
    (tmp / "work").mkdir()
    env = clean_env(
        PATH=f"{bindir}:/usr/bin:/bin",
        VIRTUAL_ENV=str(bindir.parent),
        HOME=str(tmp / "home"),
        GITHUB_ACTIONS="true",
        GITHUB_ACTION_PATH=str(REPO),
        GITHUB_WORKSPACE=str(tmp / "work"),
        GITHUB_STEP_SUMMARY=str(tmp / "summary.md"),
        GITHUB_ENV=str(tmp / "env"),
        RUNNER_TEMP=str(tmp / "runner-temp"),
        RUNNER_OS="Linux",
    )
    (tmp / "env").write_text("")
    (tmp / "summary.md").write_text("")
    return Runner(inputs, env, tmp / "work")


def test_action_installs_from_its_checkout_updates_and_annotates(
    tmp_path: Path, mirror: str
) -> None:
    action = yaml.safe_load((REPO / "action.yml").read_text())
    inputs = _defaults(
        action,
        paths="decks/",
        format="tcg",
        date="2026-06-01",
        source=mirror,
        # no downloads in the test: the venv already sees the dependencies
        **{"pip-args": "--no-deps --no-build-isolation --no-index"},
    )
    r = _runner(tmp_path, inputs)
    decks = r.workspace / "decks"
    decks.mkdir()
    (decks / "alice.ydk").write_text(legal_deck())
    (decks / "bob.ydk").write_text(illegal_deck())
    (decks / "requirements.txt").write_text("not a deck\n")
    code = r.run(action, tmp_path)
    log = "\n".join(r.log)
    assert code == 1, log  # bob's deck is illegal: the step (and the job) fails
    assert "skipped (uses actions/cache@v4 needs a real runner): Cache cards and lists" in log
    # installed from the checkout into the job's venv, not from PyPI
    site = next((tmp_path / "venv/lib").glob("python3*/site-packages"))
    assert any(site.glob("deckcheck-*.dist-info")), log
    assert r.env["DECKCHECK_HOME"] == str(tmp_path / "runner-temp" / "deckcheck-data")
    assert (Path(r.env["DECKCHECK_HOME"]) / "cards.sqlite3").is_file()
    assert re.fullmatch(r"\d{4}-W\d{2}", r.outputs["prep"]["week"])
    # annotations on the offending line
    assert (
        "::error file=decks/bob.ydk,line=42,title=DC402 forbidden::Pot of Greed (55144522): "
        "1 copy, but it is Forbidden on 2026.01 TCG" in log
    ), log
    assert "alice.ydk" not in "".join(x for x in log.splitlines() if x.startswith("::"))
    summary = (tmp_path / "summary.md").read_text()
    assert summary.startswith("## deckcheck\n")
    assert "| decks/alice.ydk | alice | ✅ legal | 0 |  |" in summary
    bob = "| decks/bob.ydk | bob | ❌ illegal | 1 | DC402 Pot of Greed (55144522): 1 copy"
    assert bob in summary
