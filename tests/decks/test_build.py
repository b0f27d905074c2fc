"""``deckcheck build``: text lists in several languages and site formats to .ydk on the real
card database; an unresolvable line means exit 1, candidates on stderr and no file."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck import decks
from deckcheck.cli import cli

pytestmark = pytest.mark.realdata

FIX = Path(__file__).parent.parent / "fixtures" / "decks"
ASH, VEILER, POT, TALKER, MAXX = 14558127, 97268402, 55144522, 86066372, 23434538
FULL = {
    "main": [ASH] * 3 + [VEILER] * 2 + [POT],
    "extra": [TALKER],
    "side": [MAXX] * 3,
}


@pytest.fixture(autouse=True)
def _real(real_home: Path) -> Path:
    """Every build test runs on the real card database (session-built, read-only)."""
    return real_home


def run(args: Sequence[str], stdin: str | None = None) -> tuple[int, str, str]:
    res = CliRunner().invoke(
        cli, list(args), input=stdin, standalone_mode=False, catch_exceptions=False
    )
    return res.return_value, res.stdout, res.stderr


def sections(path: Path) -> dict[str, list[int | None]]:
    d = decks.read_path(path)
    assert d.findings == []
    return {s: [e.card_id for e in d.section(s)] for s in ("main", "extra", "side")}


@pytest.mark.parametrize(
    "name", ["zh-CN.txt", "ja.txt", "ygoprodeck.txt", "duelingnexus.txt", "duelingbook.txt"]
)
def test_build_lists_in_languages_and_site_formats(name: str, tmp_path: Path) -> None:
    out = tmp_path / "deck.ydk"
    code, stdout, err = run(["build", str(FIX / name), "-o", str(out)])
    assert code == 0, err
    assert stdout == ""
    assert sections(out) == FULL
    assert "main 6, extra 1, side 3" in err


def test_build_partial_lists(tmp_path: Path) -> None:
    for name in ("zh-TW.txt", "ko.txt"):
        out = tmp_path / f"{name}.ydk"
        code, _, err = run(["build", str(FIX / name), "-o", str(out)])
        assert code == 0, err
        assert sections(out) == {"main": [ASH] * 3, "extra": [TALKER], "side": []}


def test_build_names_in_requested_language(tmp_path: Path) -> None:
    out = tmp_path / "deck.ydk"
    assert run(["build", str(FIX / "ygoprodeck.txt"), "-o", str(out), "--lang", "ja"])[0] == 0
    text = out.read_text(encoding="utf-8")
    assert text.startswith("#created by deckcheck\n#main\n# 灰流うらら\n14558127\n")
    out2 = tmp_path / "plain.ydk"
    assert run(["build", str(FIX / "ygoprodeck.txt"), "-o", str(out2), "--no-names"])[0] == 0
    assert "# " not in out2.read_text()


def test_unresolvable_line_exit_1_and_no_file(tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_text("主卡组\n3 灰流丽\n2 Qwzxv Plorkdragon Nonexistent\n", encoding="utf-8")
    out = tmp_path / "deck.ydk"
    code, stdout, err = run(["build", str(src), "-o", str(out)])
    assert code == 1
    assert not out.exists() and stdout == ""
    assert f"{src}:3: DC102" in err
    assert "no deck written" in err


def test_failed_build_keeps_existing_output(tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_text("3 Ash Blossom & Joyous Spring\n3x\n", encoding="utf-8")
    out = tmp_path / "deck.ydk"
    out.write_text("#main\n1\n")
    code, _, err = run(["build", str(src), "-o", str(out)])
    assert code == 1
    assert f"{src}:2: DC101" in err
    assert out.read_text() == "#main\n1\n"


def test_ambiguous_name_lists_candidates(tmp_path: Path) -> None:
    # "Doppelganger" names two different cards (one of them under another name in English).
    src = tmp_path / "list.txt"
    src.write_text("1 Doppelganger\n", encoding="utf-8")
    code, _, err = run(["build", str(src), "-o", str(tmp_path / "d.ydk")])
    assert code == 1
    assert f"{src}:1: DC103" in err
    assert "Doppelganger (66395299)" in err and "(88032456)" in err


def test_unknown_passcode_is_reported(tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_text("3 14558127\n1 99999998\n", encoding="utf-8")
    code, _, err = run(["build", str(src), "-o", str(tmp_path / "d.ydk")])
    assert code == 1
    assert f"{src}:2: DC102" in err and "99999998" in err


def test_build_from_stdin_to_stdout() -> None:
    code, out, _ = run(["build", "-"], stdin="Main Deck\n2 Pot of Greed\n")
    assert code == 0
    d = decks.read_string(out, "x.ydk")
    assert [e.card_id for e in d.main] == [POT, POT]


def test_number_at_start_of_a_name(tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_text(
        "7 Colored Fish\n2 7 Colored Fish\n4 Ash Blossom & Joyous Spring\n", encoding="utf-8"
    )
    out = tmp_path / "d.ydk"
    code, _, err = run(["build", str(src), "-o", str(out)])
    assert code == 0, err
    # An exact name wins over the count reading; "4 Ash Blossom" stays four copies.
    assert sections(out)["main"] == [23771716] * 3 + [ASH] * 4


def test_candidates_named_in_lang(tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_text("1 Doppelganger\n", encoding="utf-8")
    code, _, err = run(["build", str(src), "-o", str(tmp_path / "d.ydk"), "--lang", "ja"])
    assert code == 1
    assert "ドッペル・ゲイナー (66395299)" in err and "コピーキャット (88032456)" in err
