"""Helpers for the CI integration tests (issue 16): a tiny upstream mirror built by hand,
served over HTTP on 127.0.0.1, decks for it, a venv with deckcheck installed from this
checkout, and a copy of the checkout as a git repository."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import venv
from pathlib import Path

from tests._http import serving_folder
from tests.builders import MONSTER_ROW, SPELL_ROW, write_cdb

REPO = Path(__file__).resolve().parent.parent.parent

#: 14 normal monsters, both regions (EDOPro ot 3); POT is Forbidden on the mirror's list.
CARDS = {10000 + i: f"Tiny Monster {i}" for i in range(14)}
POT = 55144522
CARDS[POT] = "Pot of Greed"

NAME_FILES = [
    f"mycard/ygopro-database/locales/{lang}/cards.cdb"
    for lang in ("de-DE", "en-US", "es-ES", "fr-FR", "it-IT", "ja-JP", "ko-KR", "pt-PT", "zh-CN")
]
LIST_FILES = [
    f"ProjectIgnis/LFLists/{n}.lflist.conf"
    for n in ("0TCG", "OCG", "Traditional", "World", "Speed", "GOAT", "Rush")
]


def _cdb(path: Path, cards: dict[int, str]) -> None:
    write_cdb(path, cards, kinds={POT: SPELL_ROW}, kind=MONSTER_ROW)


def build_mirror(root: Path) -> Path:
    """The files `deckcheck update` needs, laid out as <owner>/<repo>/<path>, all tiny."""
    _cdb(root / "ProjectIgnis/BabelCDB/cards.cdb", CARDS)
    for rel in NAME_FILES:
        _cdb(root / rel, CARDS)
    for rel in LIST_FILES:
        name = Path(rel).name.split(".")[0]
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        tag = "TCG" if name == "0TCG" else name
        p.write_text(f"#[2026.01 {tag}]\n!2026.01 {tag}\n{POT} 0 -- Pot of Greed\n")
    yg = root / "Fluorohydride/ygopro/lflist.conf"
    yg.parent.mkdir(parents=True, exist_ok=True)
    yg.write_text(f"#[2026.1 TCG]\n!2026.1 TCG\n{POT} 0 --Pot of Greed\n")
    return root


def legal_deck() -> str:
    ids = [cid for cid in list(CARDS)[:13] for _ in range(3)] + [list(CARDS)[13]]
    return "#created by a player\n#main\n" + "\n".join(map(str, ids)) + "\n#extra\n!side\n"


def illegal_deck() -> str:
    """40 cards with Pot of Greed (Forbidden on the mirror's TCG list) on line 42."""
    ids = [cid for cid in list(CARDS)[:13] for _ in range(3)] + [POT]
    return "#created by a player\n#main\n" + "\n".join(map(str, ids)) + "\n#extra\n!side\n"


#: ``with serve(root) as url``: ``root`` over HTTP on 127.0.0.1 (a free port)
serve = serving_folder


def make_venv(path: Path) -> Path:
    """A venv that sees this interpreter's packages (no downloads); returns its bin folder.

    deckcheck itself is installed into it by the caller, from a checkout, as CI would.
    """
    base = Path(sys.prefix)
    # The venv module makes a venv of the running interpreter; site-packages inherited.
    venv.EnvBuilder(system_site_packages=True, with_pip=False, symlinks=True).create(path)
    bindir = path / "bin"
    # pip from the base environment, run with the new venv's interpreter (no ensurepip).
    pth = next((path / "lib").glob("python3*/site-packages"))
    base_site = next((base / "lib").glob("python3*/site-packages"))
    (pth / "_base_site.pth").write_text(str(base_site) + "\n")
    return bindir


def clean_env(**extra: str) -> dict[str, str]:
    """The environment a fresh runner or shell has: no deckcheck of the test run on the path."""
    env = {
        k: v
        for k, v in os.environ.items()
        if not k.startswith(
            ("PYTHON", "DECKCHECK", "GITHUB_", "PIP_", "PRE_COMMIT", "VIRTUAL_ENV", "PYTEST")
        )
    }
    env.update(extra)
    return env


def copy_checkout(dest: Path) -> Path:
    """This checkout's files (tracked and new, as git lists them) copied to ``dest`` and
    committed there as a git repository: what a user's clone of the project holds."""
    files = (
        subprocess.run(
            ["git", "ls-files", "-co", "--exclude-standard", "-z"],
            cwd=REPO,
            capture_output=True,
            check=True,
        )
        .stdout.decode()
        .split("\0")
    )
    for rel in filter(None, files):
        src = REPO / rel
        if src.is_file():
            (dest / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(src, dest / rel)
    git(dest, "init", "-q", "-b", "main")
    git(dest, "add", "-A")
    git(dest, "commit", "-q", "-m", "checkout under test")
    return dest


def git(cwd: Path, *args: str) -> str:
    env = clean_env(
        GIT_AUTHOR_NAME="t",
        GIT_AUTHOR_EMAIL="t@example.invalid",
        GIT_COMMITTER_NAME="t",
        GIT_COMMITTER_EMAIL="t@example.invalid",
        HOME=str(cwd),
    )
    return subprocess.run(
        ["git", *args], cwd=cwd, env=env, capture_output=True, text=True, check=True
    ).stdout
