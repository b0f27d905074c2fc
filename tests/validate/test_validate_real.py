"""`deckcheck validate` on the 209 real decks with the real card database and lists."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.errors import EXIT_ILLEGAL, EXIT_OK
from tests.builders import run_process

pytestmark = pytest.mark.realdata


def run_json(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, dict, str]:  # type: ignore[type-arg]
    capsys.readouterr()
    code = main(["validate", "--output", "json", *args])
    out, err = capsys.readouterr()
    return code, json.loads(out), err


def test_every_real_deck_is_reported_and_illegal_ones_say_why(
    real_home: Path, shared_data: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    decks = shared_data / "decks"
    expected = sorted(decks.rglob("*.ydk"))
    code, doc, err = run_json(capsys, "--format", "tcg", "--banlist", "2026.05 TCG", str(decks))
    assert len(expected) == 209
    assert [d["input"] for d in doc["decks"]] == [str(p) for p in sorted_walk(decks)]
    assert doc["summary"]["decks"] == 209
    assert doc["banlist"]["name"] == "2026.05 TCG"
    assert code in (EXIT_OK, EXIT_ILLEGAL)
    assert code == (EXIT_ILLEGAL if doc["summary"]["illegal"] else EXIT_OK)
    for deck in doc["decks"]:
        errors = [f for f in deck["findings"] if f["severity"] == "error"]
        assert deck["legal"] == (not errors), deck["input"]
        for f in deck["findings"]:
            assert f["message"] and f["code"].startswith("DC") and f["rule"]
    assert "Traceback" not in err and "209 decks checked" in err


def sorted_walk(root: Path) -> list[Path]:
    """The order the validator promises: files of a folder sorted, then its sub-folders sorted."""
    files = sorted(
        p for p in root.iterdir() if p.is_file() and p.suffix in (".ydk", ".txt", ".ydke")
    )
    out = list(files)
    for sub in sorted(p for p in root.iterdir() if p.is_dir()):
        out += sorted_walk(sub)
    return out


def test_real_list_messages_name_the_list_and_its_date(
    real_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # Maxx "C" x2 plus filler: on the real 2026.05 TCG list Maxx "C" is not Unlimited.
    code, doc, _ = run_json(
        capsys,
        "--format",
        "tcg",
        "--banlist",
        "2026.05 TCG",
        "--date",
        "2026-06-01",
        "ydke://" + _ydke([23434538, 23434538]) + "!!!",
    )
    findings = doc["decks"][0]["findings"]
    maxx = [f for f in findings if f.get("card", {}).get("id") == 23434538]
    assert maxx, findings
    eff = doc["banlist"]["effective"]
    assert all(f"on 2026.05 TCG (effective {eff})" in f["message"] for f in maxx)
    assert maxx[0]["message"].startswith('Maxx "C" (23434538): 2 copies, but it is ')
    assert code == EXIT_ILLEGAL


def _ydke(ids: list[int]) -> str:
    import base64
    import struct

    return base64.b64encode(struct.pack(f"<{len(ids)}I", *ids)).decode()


def test_default_list_is_the_one_in_force(
    real_home: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    code, doc, _ = run_json(capsys, "--date", "2026-06-01", "ydke://" + _ydke([23434538]) + "!!!")
    assert doc["banlist"]["effective"] <= "2026-06-01"
    assert doc["format"]["id"] == "tcg"
    assert code == EXIT_ILLEGAL  # one card is far from 40


def test_validate_path_imports_no_yaml_pydantic_rapidfuzz(
    real_home: Path, shared_data: Path
) -> None:
    import os
    import sys

    deck = min((shared_data / "decks").rglob("*.ydk"))
    probe = (
        "import sys; from deckcheck.cli import main; "
        f"code = main(['validate', '--date', '2026-06-01', {str(deck)!r}]); "
        "heavy = [m for m in ('yaml', 'pydantic', 'rapidfuzz') if m in sys.modules]; "
        "print('HEAVY=' + ','.join(heavy), file=sys.stderr); sys.exit(code)"
    )
    env = {**os.environ, "DECKCHECK_HOME": str(real_home)}
    runs = [
        run_process([sys.executable, "-c", probe], env=env, timeout=120)
        for _ in range(2)  # the first run may compile caches; the second is the everyday path
    ]
    assert runs[1].returncode in (0, 1), runs[1].stderr
    assert "HEAVY=\n" in runs[1].stderr, runs[1].stderr
