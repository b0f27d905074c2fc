"""``deckcheck convert`` end to end: .ydk, ydke:// and text in and out, stdin, errors."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import pytest
from click.testing import CliRunner

from deckcheck import decks
from deckcheck.cli import cli, main
from deckcheck.decks import write

FIX = Path(__file__).parent.parent / "fixtures" / "decks"
GOUKI = "ProjectIgnis__Distribution/Gouki.ydk"


def run(args: Sequence[str], stdin: str | None = None) -> tuple[int, str, str]:
    runner = CliRunner()
    res = runner.invoke(cli, list(args), input=stdin, standalone_mode=False, catch_exceptions=False)
    return res.return_value, res.stdout, res.stderr


def flat(deck: decks.Deck) -> list[tuple[str, int | None]]:
    return [(e.section, e.card_id) for e in deck.entries() for _ in range(e.count)]


def test_ydk_to_ydke_stdout() -> None:
    code, out, err = run(["convert", str(FIX / "bom_crlf.ydk"), "--to", "ydke"])
    assert code == 0
    want = write.to_ydke(decks.read_path(FIX / "bom_crlf.ydk"))
    assert out == want + "\n"
    assert "main 2, extra 1, side 1" in err


def test_ydke_url_to_ydk_file(tmp_path: Path) -> None:
    url = (FIX / "url.txt").read_text().strip()
    out = tmp_path / "deck.ydk"
    code, stdout, _ = run(["convert", url, "--to", "ydk", "-o", str(out)])
    assert code == 0 and stdout == ""
    assert out.read_text() == (
        "#created by deckcheck\n#main\n89631139\n89631139\n89631139\n#extra\n23995346\n"
        "!side\n79853073\n"
    )


def test_stdin_input() -> None:
    code, out, _ = run(["convert", "-", "--to", "ydke"], stdin="#main\r\n89631139\r\n")
    assert code == 0
    assert decks.read_string(out).main[0].card_id == 89631139


def test_unreadable_line_writes_nothing(tmp_path: Path) -> None:
    out = tmp_path / "o.ydke"
    code, stdout, err = run(["convert", str(FIX / "messy.ydk"), "--to", "ydke", "-o", str(out)])
    assert code == 1
    assert not out.exists() and stdout == ""
    assert f"{FIX / 'messy.ydk'}:7: DC101" in err
    assert "nothing written" in err


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["convert", "ydke://AAAAA!!!", "--to", "ydk"], "not valid base64"),
        (["convert", "nope.ydk", "--to", "ydk"], "nope.ydk: no such file"),
    ],
)
def test_input_errors_are_one_line_exit_2(
    args: list[str], needle: str, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(args) == 2
    err = capsys.readouterr().err
    assert needle in err
    assert err.count("\n") == 1 and err.startswith("deckcheck: error: ")


@pytest.mark.realdata
def test_text_round_trip_through_the_cli(
    real_home: Path, shared_data: Path, tmp_path: Path
) -> None:
    src = shared_data / "decks" / GOUKI
    code, listing, _ = run(["convert", str(src), "--to", "text", "--lang", "ja"])
    assert code == 0
    assert listing.startswith("Main Deck (40)\n")
    (tmp_path / "l.txt").write_text(listing, encoding="utf-8")
    out = tmp_path / "back.ydk"
    code, _, _ = run(["convert", str(tmp_path / "l.txt"), "--to", "ydk", "--names", "-o", str(out)])
    assert code == 0
    text = out.read_text(encoding="utf-8")
    assert "\n# " in text  # name comments on their own lines
    assert flat(decks.read_path(out)) == flat(decks.read_path(src))


def test_text_merges_a_card_written_twice(isolated_home: Path, tmp_path: Path) -> None:
    # issue 32: a .ydk listing a card in two places gave two "N Card" lines
    src = tmp_path / "twice.ydk"
    src.write_text("#main\n89631139\n55144522\n89631139\n89631139\n#extra\n!side\n55144522\n")
    code, listing, _ = run(["convert", str(src), "--to", "text"])
    assert code == 0
    assert listing == (
        "Main Deck (4)\n3 Blue-Eyes White Dragon\n1 Pot of Greed\n\nSide Deck (1)\n1 Pot of Greed\n"
    )
    back = tmp_path / "l.txt"
    back.write_text(listing, encoding="utf-8")
    code, out, _ = run(["convert", str(back), "--to", "ydk"])
    assert code == 0
    assert sorted(flat(decks.read_string(out, "back.ydk"))) == sorted(flat(decks.read_path(src)))
