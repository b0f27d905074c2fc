"""``convert --lang`` and ``db import --lang`` fold BCP 47 tags like the card and deck
commands (``lookup.langs``): ``ja``, ``JA``, ``ja-JP`` are one language; an unknown one is
exit 2 listing the known languages."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from deckcheck.cli import main
from deckcheck.lookup.langs import KNOWN

POT, RAIGEKI = 55144522, 12580477


def _names_cdb(path: Path, names: dict[int, str]) -> Path:
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, desc TEXT)")
    conn.executemany("INSERT INTO texts VALUES (?, ?, '')", list(names.items()))
    conn.commit()
    conn.close()
    return path


@pytest.mark.parametrize("command", [["convert", "-", "--to", "text"], ["db", "import", "x.cdb"]])
def test_unknown_lang_is_exit_2_listing_the_known(
    command: list[str], capsys: pytest.CaptureFixture[str]
) -> None:
    assert main([*command, "--lang", "xx-YY"]) == 2
    err = capsys.readouterr().err
    assert err.startswith("deckcheck: error: --lang: unknown language 'xx-YY'")
    assert all(k in err for k in KNOWN)


def test_convert_lang_folds_bcp47_tags(
    real_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "d.ydk"
    deck.write_text(f"#main\n{POT}\n{RAIGEKI}\n#extra\n!side\n")
    outs = {}
    for tag in ("ja", "JA", "ja-JP", "ja_JP", "zh-Hant", "zh-TW"):
        assert main(["convert", str(deck), "--to", "text", "--lang", tag]) == 0
        outs[tag] = capsys.readouterr().out
    assert outs["ja"] == outs["JA"] == outs["ja-JP"] == outs["ja_JP"]
    assert "強欲な壺" in outs["ja"]
    assert outs["zh-Hant"] == outs["zh-TW"] and outs["zh-TW"] != outs["ja"]


def test_db_import_lang_folds_bcp47_tags(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    home = tmp_path / "home"
    monkeypatch.setenv("DECKCHECK_HOME", str(home))
    cards = tmp_path / "cards.cdb"
    conn = sqlite3.connect(cards)
    conn.execute(
        "CREATE TABLE datas (id INTEGER PRIMARY KEY, ot INTEGER, alias INTEGER, "
        "type INTEGER, atk INTEGER, def INTEGER, level INTEGER, race INTEGER, "
        "attribute INTEGER)"
    )
    conn.execute("CREATE TABLE texts (id INTEGER PRIMARY KEY, name TEXT, desc TEXT)")
    conn.execute("INSERT INTO datas VALUES (?, 3, 0, 2, 0, 0, 0, 0, 0)", (POT,))
    conn.execute("INSERT INTO texts VALUES (?, 'Pot of Greed', '')", (POT,))
    conn.commit()
    conn.close()
    assert main(["db", "import", str(cards)]) == 0
    assert (
        main(
            [
                "db",
                "import",
                "--lang",
                "JA-jp",
                str(_names_cdb(tmp_path / "a.cdb", {POT: "強欲な壺"})),
            ]
        )
        == 0
    )
    assert (
        main(
            [
                "db",
                "import",
                "--lang",
                "zh-Hant",
                str(_names_cdb(tmp_path / "b.cdb", {POT: "強欲之壺"})),
            ]
        )
        == 0
    )
    conn = sqlite3.connect(home / "cards.sqlite3")
    rows = set(conn.execute("SELECT lang, name FROM names WHERE card_id = ?", (POT,)))
    conn.close()
    assert {("ja", "強欲な壺"), ("zh-TW", "強欲之壺")} <= rows
