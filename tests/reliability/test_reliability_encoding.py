"""Issue 20: text decklists in Shift-JIS or GBK (real card names, real bytes) are read —
detected with charset-normalizer, or named with ``deckcheck --encoding`` — and an edit writes
the file back in its own encoding; what cannot be told apart is refused with the way out."""

from __future__ import annotations

from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.errors import EXIT_ERROR, EXIT_OK

ASH, MAXX, POT = 14558127, 23434538, 55144522
JA = "メインデッキ\n3 灰流うらら\n2 増殖するＧ\n1 強欲な壺\n"
ZH = "主卡组\n3 灰流丽\n1 强欲之壶\n"


def build(capsys, src: Path, *pre: str) -> tuple[int, list[int], str]:
    out = src.with_suffix(".ydk")
    capsys.readouterr()
    rc = main([*pre, "build", str(src), "--out", str(out)])
    err = capsys.readouterr().err
    ids = [int(ln) for ln in out.read_text().split() if ln.isdigit()] if out.exists() else []
    return rc, ids, err


@pytest.mark.parametrize(
    ("text", "encoding", "want", "detected"),
    [
        (JA, "shift_jis", [ASH] * 3 + [MAXX] * 2 + [POT], "cp932"),
        (ZH, "gbk", [ASH] * 3 + [POT], "gb18030"),
    ],
)
def test_legacy_encoding_is_detected(
    capsys, tmp_path: Path, text: str, encoding: str, want: list[int], detected: str
) -> None:
    src = tmp_path / "list.txt"
    src.write_bytes(text.encode(encoding))
    rc, ids, err = build(capsys, src)
    assert rc == EXIT_OK, err
    assert ids == want
    assert f"read as {detected} (detected" in err  # a guess is said, never silent


def test_encoding_option_reads_big5(capsys, tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_bytes("3 灰流麗\n1 強欲之壺\n".encode("big5"))
    rc, ids, err = build(capsys, src, "--encoding", "big5")
    assert rc == EXIT_OK, err
    assert ids == [ASH] * 3 + [POT]
    assert "detected" not in err


def test_unknown_encoding_option(capsys, tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_bytes(ZH.encode("gbk"))
    rc, _, err = build(capsys, src, "--encoding", "klingon")
    assert rc == EXIT_ERROR and "klingon" in err and err.count("deckcheck: error:") == 1


def test_single_byte_text_is_refused_with_the_way_out(capsys, tmp_path: Path) -> None:
    src = tmp_path / "list.txt"
    src.write_bytes("3 Über-Dragon\n".encode("cp1252"))  # reads as Big5 "鈁er": not a guess
    rc, _, err = build(capsys, src)
    assert rc == EXIT_ERROR
    assert "not UTF-8" in err and "--encoding" in err


def test_edit_keeps_the_file_encoding(capsys, tmp_path: Path) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_bytes(JA.encode("shift_jis"))
    capsys.readouterr()
    rc = main(["deck", "add", str(deck), str(ASH), "-f", "ocg"])
    err = capsys.readouterr().err
    assert rc in (0, 1), err
    text = deck.read_bytes().decode("cp932")  # still Shift-JIS, not UTF-8
    assert ("灰流うらら" in text and "4 灰流うらら" in text) or "灰流うらら x4" in text, text
    with pytest.raises(UnicodeDecodeError):
        deck.read_bytes().decode("utf-8")
