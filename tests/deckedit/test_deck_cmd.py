"""`deckcheck deck new/show/add/remove/move/stats` on real decks with the real card database."""

from __future__ import annotations

import json
import os
import shutil
from pathlib import Path

import pytest

from deckcheck import decks
from deckcheck.cli import main
from tests.builders import run_deckcheck

ASH = 14558127
VEILER = 97268402
ACCESSCODE = 86066372
POT = 55144522


@pytest.fixture
def deck_dir(shared_data: Path) -> Path:
    return shared_data / "decks"


def copy_deck(deck_dir: Path, name: str, tmp_path: Path) -> Path:
    src = deck_dir / name
    dst = tmp_path / Path(name).name.replace(" ", "_")
    shutil.copyfile(src, dst)
    return dst


def ids(path: Path, section: str) -> list[int]:
    d = decks.read_path(path)
    out: list[int] = []
    for e in d.section(section):  # type: ignore[arg-type]
        assert e.card_id is not None
        out.extend([e.card_id] * e.count)
    return out


def test_new_refuses_to_overwrite(
    real_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "n.ydk"
    assert main(["deck", "new", str(p), "--format", "ocg"]) == 0
    text = p.read_text()
    assert "#format ocg" in text and "#main" in text and "!side" in text
    p.write_text("#main\n14558127\n")
    assert main(["deck", "new", str(p)]) == 2
    assert "already exists" in capsys.readouterr().err
    assert p.read_text() == "#main\n14558127\n"
    assert main(["deck", "new", str(p), "--force"]) == 0
    assert decks.read_path(p).entries() == []
    assert main(["deck", "new", str(tmp_path / "x.ydk"), "--format", "nope"]) == 2
    assert not (tmp_path / "x.ydk").exists()


def test_new_kinds_follow_the_suffix(real_home: Path, tmp_path: Path) -> None:
    for name, kind in (("a.txt", "text"), ("b.ydke", "ydke"), ("c.ydk", "ydk")):
        assert main(["deck", "new", str(tmp_path / name)]) == 0
        assert decks.read_path(tmp_path / name).kind == kind


def test_add_by_name_in_japanese_and_chinese_keeps_comments(
    real_home: Path, deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__Distribution/Gouki.ydk", tmp_path)
    original = p.read_text()
    main_before = ids(p, "main")
    assert main(["deck", "add", str(p), "灰流うらら", "-n", "2"]) == 0
    assert main(["deck", "add", str(p), "灰流丽"]) == 0
    out = capsys.readouterr().out
    assert "added 1 × Ash Blossom & Joyous Spring (14558127) to the Main Deck; now 3" in out
    assert ids(p, "main") == main_before + [ASH] * 3
    # Every original line is still there, in order; the new lines end the main section.
    new_lines = p.read_text().splitlines()
    assert new_lines[0] == "#created by Naim"
    assert [ln for ln in new_lines if ln != str(ASH)] == original.splitlines()
    extra_at = new_lines.index("#extra")
    assert new_lines[extra_at - 3 : extra_at] == [str(ASH)] * 3


def test_fourth_copy_reports_the_new_finding_and_exits_0(
    real_home: Path, deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__windbot/AI_Albaz.ydk", tmp_path)
    assert ids(p, "main").count(ASH) + ids(p, "side").count(ASH) == 3
    assert main(["deck", "add", str(p), "Ash Blossom & Joyous Spring"]) == 0
    out = capsys.readouterr().out
    assert "now 4 in the deck" in out
    new = [ln for ln in out.splitlines() if "new:" in ln]
    assert len(new) == 1 and "DC401" in new[0] and "4 copies" in new[0]
    # --strict turns the illegal result into exit 1 (the edit still happens).
    assert main(["deck", "add", str(p), "Ash Blossom & Joyous Spring", "--side", "--strict"]) == 1
    assert ids(p, "side").count(ASH) >= 1
    # Removing brings it back under the limit: the finding is reported as fixed.
    capsys.readouterr()
    assert main(["deck", "remove", str(p), str(ASH), "-n", "2", "--main"]) == 0
    assert "fixed: DC401" in capsys.readouterr().out


def test_extra_deck_monster_goes_to_the_extra_deck(
    real_home: Path, deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__Distribution/Gouki.ydk", tmp_path)
    extra = ids(p, "extra")
    assert main(["deck", "add", str(p), "Accesscode Talker"]) == 0
    assert ids(p, "extra") == [*extra, ACCESSCODE]
    assert "new: extra DC202" in capsys.readouterr().out  # 16 in the Extra Deck now
    before = p.read_bytes()
    assert main(["deck", "add", str(p), "Pot of Greed", "--extra"]) == 2
    assert "not an Extra Deck monster" in capsys.readouterr().err
    assert main(["deck", "add", str(p), "Accesscode Talker", "--main"]) == 2
    assert p.read_bytes() == before
    assert main(["deck", "add", str(p), "Accesscode Talker", "--main", "--force"]) == 0
    assert ACCESSCODE in ids(p, "main")


@pytest.mark.parametrize("query", ["Blue-Eyes", "岩浆龙"])
def test_ambiguous_name_lists_candidates_file_untouched(
    query: str, real_home: Path, deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__Distribution/Gouki.ydk", tmp_path)
    before = p.read_bytes()
    assert main(["deck", "add", str(p), query]) == 1
    err = capsys.readouterr().err
    assert "matches more than one card" in err
    assert (
        len([ln for ln in err.splitlines() if ln.startswith("  ") and ln.strip()[0].isdigit()]) >= 2
    )
    assert p.read_bytes() == before


def test_unknown_name(
    real_home: Path, deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__Distribution/Gouki.ydk", tmp_path)
    before = p.read_bytes()
    assert main(["deck", "add", str(p), "qqqq zzzzz wwww"]) == 1
    assert "unknown card" in capsys.readouterr().err
    assert p.read_bytes() == before


def test_remove_more_than_present_is_an_error(
    real_home: Path, deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__windbot/AI_Albaz.ydk", tmp_path)
    before = p.read_bytes()
    have = ids(p, "main").count(ASH)
    assert (
        main(
            ["deck", "remove", str(p), "Ash Blossom & Joyous Spring", "-n", str(have + 1), "--main"]
        )
        == 2
    )
    assert f"holds {have}" in capsys.readouterr().err
    assert main(["deck", "remove", str(p), "Pot of Greed"]) == 2
    assert "no copy" in capsys.readouterr().err
    assert p.read_bytes() == before


def test_remove_takes_the_last_copies(real_home: Path, tmp_path: Path) -> None:
    p = tmp_path / "d.ydk"
    p.write_text(f"#main\n{ASH}\n# keep me\n{VEILER}\n{ASH}\n{ASH}\n#extra\n!side\n")
    assert main(["deck", "remove", str(p), "Ash Blossom", "-n", "2"]) == 0
    assert p.read_text() == f"#main\n{ASH}\n# keep me\n{VEILER}\n#extra\n!side\n"


def test_move_between_sections(real_home: Path, deck_dir: Path, tmp_path: Path) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__windbot/AI_Albaz.ydk", tmp_path)
    main_ash = ids(p, "main").count(ASH)
    side_ash = ids(p, "side").count(ASH)
    assert (
        main(["deck", "move", str(p), "灰流丽", "--to", "side", "-n", "1", "--from", "main"]) == 0
    )
    assert ids(p, "main").count(ASH) == main_ash - 1
    assert ids(p, "side").count(ASH) == side_ash + 1
    total = sum(len(ids(p, s)) for s in ("main", "extra", "side"))
    assert (
        main(["deck", "move", str(p), "Ash Blossom", "--to", "main", "--from", "side", "--all"])
        == 0
    )
    assert ids(p, "main").count(ASH) == main_ash + side_ash
    assert ids(p, "side").count(ASH) == 0
    assert sum(len(ids(p, s)) for s in ("main", "extra", "side")) == total


def test_interrupted_write_leaves_the_file(
    real_home: Path,
    deck_dir: Path,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__Distribution/Gouki.ydk", tmp_path)
    before = p.read_bytes()

    def boom(src: str, dst: str) -> None:
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(os, "replace", boom)
    assert main(["deck", "add", str(p), "Ash Blossom"]) == 2
    assert "No space left" in capsys.readouterr().err
    assert p.read_bytes() == before
    assert sorted(x.name for x in tmp_path.iterdir()) == [p.name]


def test_ydke_file_stays_ydke(real_home: Path, deck_dir: Path, tmp_path: Path) -> None:
    src = deck_dir / "ProjectIgnis__Distribution/Gouki.ydk"
    ydk_deck = decks.read_path(src)
    p = tmp_path / "g.ydke"
    p.write_text(decks.ydke.encode(ydk_deck) + "\n")
    assert main(["deck", "add", str(p), "Ash Blossom", "-n", "2"]) == 0
    text = p.read_text()
    assert text.startswith("ydke://") and text.count("\n") == 1
    d = decks.ydke.parse(text.strip())
    assert [e.card_id for e in d.main] == [e.card_id for e in ydk_deck.main] + [ASH, ASH]
    assert main(["deck", "remove", str(p), "Ash Blossom", "-n", "2"]) == 0
    assert p.read_text() == decks.ydke.encode(ydk_deck) + "\n"


def test_text_list_stays_a_text_list(real_home: Path, tmp_path: Path) -> None:
    p = tmp_path / "list.txt"
    p.write_text("# 我的卡组\n主卡组\n灰流丽 x2\n1 效果遮蒙者\n\n额外卡组\n1 访问码语者\n")
    assert main(["deck", "add", str(p), "Ash Blossom"]) == 0  # count changed in place
    assert main(["deck", "add", str(p), 'Maxx "C"', "-n", "2"]) == 0  # new line in Chinese
    assert main(["deck", "add", str(p), "灰流丽", "--side"]) == 0  # new section
    assert main(["deck", "remove", str(p), "Effect Veiler"]) == 0
    lines = p.read_text().splitlines()
    assert lines[:3] == ["# 我的卡组", "主卡组", "灰流丽 x3"]
    from deckcheck.carddb import open_db

    assert f"2 {open_db().name(23434538, 'zh-CN')}" in lines  # the list's own language
    assert "1 效果遮蒙者" not in lines
    assert lines[-2:] == ["Side Deck", "1 灰流丽"]
    d = decks.read_path(p)
    assert d.kind == "text"
    counts = {(e.section, e.query): e.count for e in d.entries()}
    assert counts[("main", "灰流丽")] == 3 and counts[("side", "灰流丽")] == 1


def test_crlf_and_bom_are_kept(real_home: Path, deck_dir: Path, tmp_path: Path) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__Distribution/[Structure Deck] Alba Strike.ydk", tmp_path)
    raw = p.read_bytes()
    assert b"\r\n" in raw
    assert main(["deck", "add", str(p), "Ash Blossom", "--side"]) == 0
    new = p.read_bytes()
    assert b"\n" not in new.replace(b"\r\n", b"")  # every line still ends in CRLF
    assert new.startswith(raw[:3])  # BOM or first bytes kept
    assert ids(p, "side")[-1] == ASH
    # The original bytes, then the new copy after "!side": nothing else moved.
    assert new == raw + f"{ASH}\r\n".encode()


def test_show_text_and_json(
    real_home: Path, deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__Distribution/Gouki.ydk", tmp_path)
    assert main(["deck", "show", str(p), "--lang", "ja"]) == 0
    out = capsys.readouterr().out
    assert "Main Deck (40)" in out and "Extra Deck (15)" in out
    assert "Link (15)" in out
    assert ("DC402" in out and "2026" in out) or "legal" in out
    assert main(["deck", "show", str(p), "--output", "json", "--date", "2026-06-01"]) == 0
    doc = json.loads(capsys.readouterr().out)
    assert doc["counts"] == {"main": 40, "extra": 15, "side": 0}
    kinds = {g["kind"]: g["count"] for g in doc["sections"]["main"]}
    assert sum(kinds.values()) == 40 and set(kinds) <= {"monster", "spell", "trap"}
    assert doc["banlist"]["name"].endswith("TCG")
    assert doc["legal"] == (not [f for f in doc["findings"] if f["severity"] == "error"])


def test_show_says_when_no_list_is_in_force(
    real_home: Path, deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__Distribution/Gouki.ydk", tmp_path)
    assert main(["deck", "show", str(p), "--format", "master-duel"]) == 0
    out = capsys.readouterr().out
    assert "the list was not checked" in out
    assert main(["deck", "add", str(p), "Ash Blossom", "--format", "master-duel"]) == 0
    assert "the list was not checked" in capsys.readouterr().out


def test_stats_odds_and_groups(
    real_home: Path, deck_dir: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from fractions import Fraction

    p = copy_deck(deck_dir, "ProjectIgnis__windbot/AI_Albaz.ydk", tmp_path)
    assert (
        main(
            [
                "deck",
                "stats",
                str(p),
                "--hand",
                "6",
                "--output",
                "json",
                "--card",
                "Ash Blossom|Effect Veiler|Infinite Impermanence",
            ]
        )
        == 0
    )
    doc = json.loads(capsys.readouterr().out)
    n = doc["main"]
    main_ids = ids(p, "main")
    assert n == len(main_ids)

    def independent(k: int) -> float:
        # P(no copy) as a product of draws without replacement.
        miss = Fraction(1)
        for i in range(6):
            miss *= Fraction(n - k - i, n - i)
        return float(1 - miss)

    ash = next(c for c in doc["cards"] if c["ids"] == [ASH])
    assert ash["copies"] == main_ids.count(ASH)
    assert ash["p_at_least_one"] == pytest.approx(independent(ash["copies"]), abs=1e-12)
    assert sum(ash["p_exactly"]) == pytest.approx(1.0)
    (group,) = doc["groups"]
    k = sum(main_ids.count(c) for c in (ASH, VEILER, 10045474))
    assert group["copies"] == k
    assert group["p_at_least_one"] == pytest.approx(independent(k), abs=1e-12)
    comp = doc["composition"]
    assert sum(comp["main"].values()) == n
    assert main(["deck", "stats", str(p), "--exact"]) == 0
    out = capsys.readouterr().out
    assert "Opening hand of 5" in out and "P(exactly k)" in out and "0:" in out
    # --card with --exact: the named cards' P(exactly k) too (issue 32: --exact was ignored)
    args = ["deck", "stats", str(p), "--card", "Ash Blossom|Effect Veiler"]
    assert main(args) == 0
    assert "P(exactly k)" not in capsys.readouterr().out
    assert main([*args, "--exact"]) == 0
    out = capsys.readouterr().out
    assert "P(exactly k)" in out and " 0:" in out and " 1:" in out, out


def test_stats_unknown_card_exits_1(real_home: Path, deck_dir: Path, tmp_path: Path) -> None:
    p = copy_deck(deck_dir, "ProjectIgnis__Distribution/Gouki.ydk", tmp_path)
    assert main(["deck", "stats", str(p), "--card", "Blue-Eyes"]) == 1


def test_help_has_examples() -> None:
    from click.testing import CliRunner

    from deckcheck.cli import cli

    for sub in ("new", "show", "add", "remove", "move", "stats"):
        res = CliRunner().invoke(cli, ["deck", sub, "--help"], catch_exceptions=False)
        assert res.exit_code == 0 and "Examples:" in res.output


def test_text_header_counts_follow_the_edit(real_home: Path, tmp_path: Path) -> None:
    p = tmp_path / "list.txt"
    p.write_text("Main Deck (3)\n2 Ash Blossom & Joyous Spring\n1 Effect Veiler\n\nSide Deck: 0\n")
    assert main(["deck", "move", str(p), "Effect Veiler", "--to", "side"]) == 0
    assert main(["deck", "add", str(p), "Ash Blossom & Joyous Spring"]) == 0
    assert p.read_text() == (
        "Main Deck (3)\n3 Ash Blossom & Joyous Spring\n\nSide Deck: 1\n1 Effect Veiler\n"
    )


def test_new_then_edit_every_kind_in_a_subprocess(real_home: Path, tmp_path: Path) -> None:

    for name in ("s.ydk", "s.txt", "s.ydke"):
        p = tmp_path / name
        for args in (["new", str(p)], ["add", str(p), "灰流丽", "-n", "3"]):
            run = run_deckcheck("deck", *args)
            assert run.returncode == 0, run.stderr
            assert "Traceback" not in run.stderr
        d = decks.read_path(p)
        assert d.kind == {"s.ydk": "ydk", "s.txt": "text", "s.ydke": "ydke"}[name]
        if d.kind != "text":
            assert ids(p, "main") == [ASH] * 3
        else:
            assert [(e.query, e.count) for e in d.main] == [("Ash Blossom & Joyous Spring", 3)]


def test_unknown_passcode_in_the_deck_can_be_removed(real_home: Path, tmp_path: Path) -> None:
    p = tmp_path / "u.ydk"
    p.write_bytes(f"\ufeff#main\r\n{ASH}\r\n99999999\r\n#extra\r\n!side\r\n".encode())
    assert main(["deck", "remove", str(p), "99999999"]) == 0
    # BOM and CRLF line ends are kept.
    assert p.read_bytes() == f"\ufeff#main\r\n{ASH}\r\n#extra\r\n!side\r\n".encode()
    assert main(["deck", "add", str(p), "99999998"]) == 1  # not in the deck, not a card


def test_format_line_of_the_deck_is_used(
    real_home: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    p = tmp_path / "o.ydk"
    assert main(["deck", "new", str(p), "--format", "ocg", "--force"]) == 0
    assert main(["deck", "add", str(p), "Ash Blossom", "-n", "3", "--date", "2026-08-01"]) == 0
    out = capsys.readouterr().out
    assert "OCG Advanced" in out and "2026.07 OCG" in out
    assert "new: main:4 DC404" in out  # Semi-Limited on the OCG list, not on the TCG one
    assert main(["deck", "add", str(p), "Effect Veiler", "-f", "tcg", "--date", "2026-08-01"]) == 0
    assert "TCG Advanced" in capsys.readouterr().out  # --format wins over the file's line
