"""Issue 20: short decklists in Shift-JIS or GBK that several legacy encodings decode (GBK
"灰流丽" is valid Big5, EUC-JP and EUC-KR too) are read in the encoding whose names resolve
best — real card names, real bytes, through `build`, `validate` and `deck add`;
``--encoding`` still names another."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.decks.source import legacy_candidates

ASH, MAXX, POT = 14558127, 23434538, 55144522

CASES = [
    ("3 灰流丽\n", "gbk", [ASH] * 3, "gb18030"),
    ("3 灰流丽\n1 强欲之壶\n", "gbk", [ASH] * 3 + [POT], "gb18030"),
    ("2 强欲之壶\n", "gbk", [POT] * 2, "gb18030"),
    ("3 灰流うらら\n1 強欲な壺\n", "shift_jis", [ASH] * 3 + [POT], "cp932"),
    ("2 増殖するＧ\n", "shift_jis", [MAXX] * 2, "cp932"),
]


@pytest.mark.parametrize(("text", "encoding", "want", "picked"), CASES)
def test_short_lists_are_read_in_the_encoding_whose_names_resolve(
    capsys, tmp_path: Path, text: str, encoding: str, want: list[int], picked: str
) -> None:
    data = text.encode(encoding)
    assert len(legacy_candidates(data)) > 1  # really ambiguous: several encodings decode it
    src = tmp_path / "list.txt"
    src.write_bytes(data)
    out = tmp_path / "list.ydk"
    capsys.readouterr()
    assert main(["build", str(src), "--out", str(out)]) == 0
    err = capsys.readouterr().err
    assert [int(x) for x in out.read_text().split() if x.isdigit()] == want
    assert f"read as {picked} (detected: of " in err and "0 unknown" in err, err


def test_the_detector_alone_misread_them(tmp_path: Path) -> None:
    # what charset-normalizer picks for the GBK lists: not GBK (before: every name unknown)
    from deckcheck.decks.source import _detect

    for text, encoding, _want, picked in CASES[:2]:
        got = _detect(text.encode(encoding))
        assert got is not None and got[1] != picked and got[0] != text


def test_validate_reads_a_short_gbk_list(capsys, tmp_path: Path, isolated_home: Path) -> None:
    from tests.conftest import FIXTURES

    assert main(["banlist", "import", str(FIXTURES / "hostile" / "tiny.lflist.conf")]) == 0
    src = tmp_path / "zh.txt"
    src.write_bytes("主卡组\n3 灰流丽\n".encode("gbk"))
    capsys.readouterr()
    rc = main(["validate", "-o", "json", "--date", "2021-01-01", str(src)])
    out, err = capsys.readouterr()
    assert rc in (0, 1), err
    report = json.loads(out)
    deck = report["decks"][0] if "decks" in report else report
    codes = {f["code"] for f in deck["findings"]}
    assert "DC102" not in codes, deck["findings"]  # the name resolved
    assert "read as gb18030" in err


def test_encoding_option_still_overrides(capsys, tmp_path: Path) -> None:
    src = tmp_path / "zh.txt"
    src.write_bytes("3 灰流丽\n".encode("gbk"))
    out = tmp_path / "o.ydk"
    capsys.readouterr()
    rc = main(["--encoding", "big5", "build", str(src), "--out", str(out)])
    err = capsys.readouterr().err
    assert rc != 0 and "resolve best" not in err  # read as Big5, as asked: the name is unknown


def test_deck_add_on_a_short_gbk_list_writes_gbk_back(capsys, tmp_path: Path) -> None:
    src = tmp_path / "zh.txt"
    src.write_bytes("3 灰流丽\n".encode("gbk"))
    assert main(["deck", "add", str(src), str(POT)]) == 0
    text = src.read_bytes().decode("gb18030")
    assert "灰流丽" in text and text.count("\n") >= 2
    capsys.readouterr()
    out = tmp_path / "o.ydk"
    assert main(["build", str(src), "--out", str(out)]) == 0
    assert sorted(int(x) for x in out.read_text().split() if x.isdigit()) == sorted(
        [ASH] * 3 + [POT]
    )
