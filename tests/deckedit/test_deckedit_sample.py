"""Deck editing of every file kind (.ydk, ydke://, text list) on the built-in sample card set:
the editors, add/remove/move, the session and the ``deck`` commands, with no real data."""

from __future__ import annotations

import ast
import datetime as dt
from pathlib import Path

import pytest

from deckcheck import deckedit, decks
from deckcheck.cli import main
from deckcheck.errors import InputError
from deckcheck.formats import get_format

ASH = 14558127
VEILER = 97268402
ACCESSCODE = 86066372
LINKURIBOH = 41999284
POT = 55144522
DARK_MAGICIAN = 46986414
DM_ART = 46986409  # an alternate artwork of Dark Magician in the sample
TOKEN = 946
KINDS = {"ydk": "d.ydk", "ydke": "d.ydke", "text": "d.txt"}
PACKAGE = Path(deckedit.__file__).parent


@pytest.fixture
def env() -> tuple[object, object]:
    """The sample database (the autouse ``isolated_home`` has no database installed)."""
    from deckcheck.carddb import open_db
    from deckcheck.lookup import Index

    db = open_db()
    assert db.is_sample
    return db, Index.for_db(db)


def new_file(tmp_path: Path, kind: str) -> Path:
    p = tmp_path / KINDS[kind]
    kind_, _ = deckedit.create(p)
    assert kind_ == kind
    return p


def copies(path: Path, env: tuple[object, object]) -> dict[tuple[str, int], int]:
    """What the file holds, read back from disk by a fresh load."""
    db, index = env
    return dict(+deckedit.tally(deckedit.load(path, db, index).deck))


@pytest.mark.parametrize("kind", list(KINDS))
def test_add_move_remove_every_kind(kind: str, tmp_path: Path, env: tuple[object, object]) -> None:
    db, index = env
    fmt = get_format("tcg").at(dt.date(2025, 1, 1))
    p = new_file(tmp_path, kind)
    empty = p.read_bytes()
    df = deckedit.load(p, db, index)
    assert df.kind == kind
    assert isinstance(deckedit.editor_for(df, db, index), deckedit.EDITORS[kind])
    ch = deckedit.add(df, ASH, 3, None, fmt, db, index)
    assert (ch.verb, ch.section, ch.count, ch.now) == ("added", "main", 3, 3)
    assert deckedit.add(df, ACCESSCODE, 1, None, fmt, db, index).section == "extra"
    deckedit.add(df, VEILER, 2, "side", fmt, db, index)
    ch = deckedit.move(df, VEILER, 1, "main", None, fmt, db, index)
    assert (ch.origin, ch.section, ch.now) == ("side", "main", 2)
    ch = deckedit.remove(df, ASH, 1, None, fmt, db, index)
    assert (ch.section, ch.now) == ("main", 2)
    deckedit.save(df)
    assert copies(p, env) == {
        ("main", ASH): 2,
        ("main", VEILER): 1,
        ("side", VEILER): 1,
        ("extra", ACCESSCODE): 1,
    }
    assert decks.read_path(p).kind == kind  # the file stays its kind
    text = p.read_text()
    if kind == "ydke":
        assert text.startswith("ydke://") and text.count("\n") == 1
    elif kind == "ydk":
        assert text.splitlines()[-2:] == ["!side", str(VEILER)]
        assert text.count(str(ASH)) == 2
    else:
        assert "2 Ash Blossom & Joyous Spring" in text.splitlines()  # count changed in place
        assert "1 Accesscode Talker" in text.splitlines()
    # Taking everything out again gives the empty file back, byte for byte.
    df = deckedit.load(p, db, index)
    deckedit.remove(df, ASH, None, "main", fmt, db, index)
    deckedit.remove(df, VEILER, None, "main", fmt, db, index)
    deckedit.remove(df, VEILER, None, "side", fmt, db, index)
    deckedit.remove(df, ACCESSCODE, None, None, fmt, db, index)
    deckedit.save(df)
    assert p.read_bytes() == empty


@pytest.mark.parametrize("kind", list(KINDS))
def test_refused_edits_change_nothing(
    kind: str, tmp_path: Path, env: tuple[object, object]
) -> None:
    db, index = env
    fmt = get_format("tcg")
    p = new_file(tmp_path, kind)
    df = deckedit.load(p, db, index)
    deckedit.add(df, ASH, 1, None, fmt, db, index)
    deckedit.save(df)
    before, lines = p.read_bytes(), list(df.lines)
    for call, message in (
        (lambda: deckedit.add(df, POT, 1, "extra", fmt, db, index), "not an Extra Deck"),
        (lambda: deckedit.add(df, LINKURIBOH, 1, "main", fmt, db, index), "is an Extra Deck"),
        (lambda: deckedit.add(df, TOKEN, 1, None, fmt, db, index), "token"),
        (lambda: deckedit.add(df, ASH, 0, None, fmt, db, index), "at least 1"),
        (lambda: deckedit.remove(df, ASH, 2, None, fmt, db, index), "holds 1"),
        (lambda: deckedit.remove(df, VEILER, 1, None, fmt, db, index), "no copy"),
        (lambda: deckedit.move(df, ASH, 1, "main", "main", fmt, db, index), "both"),
    ):
        with pytest.raises(deckedit.EditError, match=message):
            call()
        assert df.lines == lines
    assert p.read_bytes() == before
    # --force places a card where it does not belong.
    deckedit.add(df, LINKURIBOH, 1, "main", fmt, db, index, force=True)
    assert ("main", LINKURIBOH) in deckedit.tally(df.deck)


@pytest.mark.parametrize("kind", list(KINDS))
def test_artworks_count_together_unless_exact(
    kind: str, tmp_path: Path, env: tuple[object, object]
) -> None:
    db, index = env
    fmt = get_format("tcg")
    assert deckedit.art_root(DM_ART, db) == DARK_MAGICIAN
    p = new_file(tmp_path, kind)
    df = deckedit.load(p, db, index)
    deckedit.add(df, DARK_MAGICIAN, 1, None, fmt, db, index)
    ch = deckedit.add(df, DM_ART, 1, None, fmt, db, index)
    assert ch.now == 2  # copies of the card, every artwork
    with pytest.raises(deckedit.EditError):
        deckedit.remove(df, DARK_MAGICIAN, 2, None, fmt, db, index, exact=True)
    ch = deckedit.remove(df, DARK_MAGICIAN, 2, None, fmt, db, index)
    assert (ch.count, ch.now) == (2, 0)
    assert deckedit.tally(df.deck) == {}


def test_ydk_name_comments_follow_their_card(tmp_path: Path, env: tuple[object, object]) -> None:
    db, index = env
    fmt = get_format("tcg")
    p = tmp_path / "named.ydk"
    original = f"#main\n# Ash Blossom & Joyous Spring\n{ASH}\n#extra\n!side\n"
    p.write_text(original)
    df = deckedit.load(p, db, index)
    deckedit.add(df, VEILER, 1, None, fmt, db, index)
    assert df.lines[3:5] == ["# Effect Veiler", str(VEILER)]
    deckedit.remove(df, VEILER, 1, None, fmt, db, index)
    assert df.text == original


def test_text_list_keeps_its_wording_language_and_header_counts(
    tmp_path: Path, env: tuple[object, object]
) -> None:
    db, index = env
    fmt = get_format("ocg")
    p = tmp_path / "ja.txt"
    p.write_text("メインデッキ (3)\n・ 灰流うらら ×2\nエフェクト・ヴェーラー\n\nエクストラデッキ\n")
    df = deckedit.load(p, db, index)
    deckedit.add(df, ASH, 1, None, fmt, db, index)
    deckedit.add(df, POT, 1, None, fmt, db, index)
    deckedit.add(df, LINKURIBOH, 1, None, fmt, db, index)
    deckedit.save(df)
    assert p.read_text().splitlines() == [
        "メインデッキ (5)",
        "・ 灰流うらら ×3",
        "エフェクト・ヴェーラー",
        f"1 {db.name(POT, 'ja')}",  # type: ignore[attr-defined]
        "",
        "エクストラデッキ",
        f"1 {db.name(LINKURIBOH, 'ja')}",  # type: ignore[attr-defined]
    ]
    df = deckedit.load(p, db, index)
    deckedit.remove(df, ASH, 2, None, fmt, db, index)
    assert df.lines[:2] == ["メインデッキ (3)", "・ 灰流うらら ×1"]


def test_text_sub_headers_on_the_sample(tmp_path: Path, env: tuple[object, object]) -> None:
    db, index = env
    fmt = get_format("tcg")
    p = tmp_path / "sub.txt"
    p.write_text(
        "Main Deck\nMonsters\n1 Ash Blossom & Joyous Spring\nSpells\n1 Pot of Greed\n"
        "Extra Deck\nXyz\n1 Number 39: Utopia\nLink\n1 Accesscode Talker\n"
    )
    df = deckedit.load(p, db, index)
    for cid in (VEILER, POT, LINKURIBOH):
        deckedit.add(df, cid, 1, None, fmt, db, index)
    assert df.lines == [
        "Main Deck",
        "Monsters",
        "1 Ash Blossom & Joyous Spring",
        "1 Effect Veiler",
        "Spells",
        "2 Pot of Greed",
        "Extra Deck",
        "Xyz",
        "1 Number 39: Utopia",
        "Link",
        "1 Accesscode Talker",
        "1 Linkuriboh",
    ]


def test_a_text_line_that_would_misread_pins_the_passcode(
    tmp_path: Path, env: tuple[object, object]
) -> None:
    db, index = env
    p = new_file(tmp_path, "text")
    df = deckedit.load(p, db, index)
    ed = deckedit.editor_for(df, db, index)
    assert isinstance(ed, deckedit.TextEditor)
    assert ed.text_line(ASH, 2, "en") == "2 Ash Blossom & Joyous Spring"
    # The name of an alternate artwork reads back as the main artwork: the passcode is kept.
    assert ed.text_line(DM_ART, 1, "en") == f"1 Dark Magician ({DM_ART:08d})"


def test_session_resolves_and_checks_an_edit(tmp_path: Path, env: tuple[object, object]) -> None:
    db, index = env
    p = tmp_path / "s.ydk"
    p.write_text("#format ocg\n#main\n12345678\n#extra\n!side\n")
    s = deckedit.Session(db, index, dt.date(2025, 1, 1))
    df = s.load(p)
    assert s.fmt(df).id == "ocg" and deckedit.Session(db, index, s.date, "tcg").fmt(df).id == "tcg"
    # A passcode in the deck is that card even when the database does not know it.
    assert s.card_in(df, "12345678") == 12345678
    with pytest.raises(deckedit.NotResolved) as exc:
        s.card("12345678")
    assert exc.value.exit_code == 1
    assert s.card_in(df, "灰流丽") == ASH
    for _ in range(4):
        done = s.edit(df, s.fmt(df), lambda on: deckedit.add(df, ASH, 1, None, on, db, index))
    assert done.change.now == 4
    assert [f.code for f in done.added] == ["DC401"]  # the fourth copy
    assert p.read_text().count(str(ASH)) == 0  # nothing saved by the session
    done = s.edit(df, s.fmt(df), lambda on: deckedit.remove(df, ASH, 1, None, on, db, index))
    assert [f.code for f in done.fixed] == ["DC401"] and not done.added


def test_create_refuses_to_overwrite_and_notes_a_ydke_format(tmp_path: Path) -> None:
    notes: list[str] = []
    assert deckedit.create(tmp_path / "a.ydk", "ocg") == ("ydk", "ocg")
    assert "#format ocg" in (tmp_path / "a.ydk").read_text()
    with pytest.raises(InputError, match="already exists"):
        deckedit.create(tmp_path / "a.ydk")
    assert deckedit.create(tmp_path / "a.ydk", force=True) == ("ydk", None)
    assert deckedit.create(tmp_path / "b.ydke", "ocg", note=notes.append) == ("ydke", None)
    assert notes == ["a ydke:// file cannot hold the format; not written"]
    assert (tmp_path / "b.ydke").read_text() == "ydke://!!!\n"


def test_group_odds_helpers(env: tuple[object, object]) -> None:
    assert deckedit.split_group(" Ash Blossom | |Effect Veiler ") == [
        "Ash Blossom",
        "Effect Veiler",
    ]
    copies = {1: 3, 2: 1}
    per = deckedit.card_odds(40, copies, 5, lambda cid: f"c{cid}")
    assert [(o.label, o.copies) for o in per] == [("c1", 3), ("c2", 1)]
    assert per[0].p_any == deckedit.p_at_least_one(40, 3, 5)
    grp = deckedit.named_group_odds(40, copies, [2, 1, 2], 5, lambda cid: f"c{cid}")
    assert (grp.label, grp.copies) == ("c2 | c1", 4)


@pytest.mark.parametrize("kind", list(KINDS))
def test_deck_commands_on_the_sample(
    kind: str, tmp_path: Path, env: tuple[object, object], capsys: pytest.CaptureFixture[str]
) -> None:
    p = str(tmp_path / KINDS[kind])
    assert main(["deck", "new", p]) == 0
    assert main(["deck", "add", p, "灰流丽", "-n", "3"]) == 0
    assert main(["deck", "add", p, "Effect Veiler", "--side", "-n", "2"]) == 0
    assert main(["deck", "move", p, "Effect Veiler", "--to", "main", "-n", "1"]) == 0
    assert main(["deck", "remove", p, str(ASH), "-n", "1"]) == 0
    out = capsys.readouterr().out
    assert (
        f"{p}: moved 1 × Effect Veiler (97268402) from the Side Deck to the Main Deck; "
        "now 2 in the deck\n" in out
    )
    assert (
        f"{p}: removed 1 × Ash Blossom & Joyous Spring (14558127) from the Main Deck; "
        "now 2 in the deck\n" in out
    )
    assert copies(Path(p), env) == {("main", ASH): 2, ("main", VEILER): 1, ("side", VEILER): 1}
    before = Path(p).read_bytes()
    assert main(["deck", "remove", p, "Effect Veiler", "-n", "1"]) == 0  # from where it belongs
    assert main(["deck", "add", p, "Blue-Eyes"]) == 1  # ambiguous: candidates, file untouched
    assert main(["deck", "move", p, "Ash Blossom & Joyous Spring", "--to", "extra"]) == 2
    assert "not an Extra Deck monster" in capsys.readouterr().err
    assert copies(Path(p), env) == {("main", ASH): 2, ("side", VEILER): 1}
    assert Path(p).read_bytes() != before


def test_deckedit_modules_are_small_and_use_no_private_names() -> None:
    files = [*sorted(PACKAGE.glob("*.py")), PACKAGE.parent / "commands" / "deck.py"]
    assert {f.stem for f in files} >= {"files", "editors", "operations", "stats", "check"}
    for f in files:
        src = f.read_text()
        assert len(src.splitlines()) <= 600, f.name
        tree = ast.parse(src)
        modules = set()
        for node in ast.walk(tree):
            if isinstance(node, ast.ImportFrom) and node.module != "__future__":
                for a in node.names:
                    assert not a.name.startswith("_"), (f.name, node.module, a.name)
                    modules.add(a.asname or a.name)
            elif isinstance(node, ast.Import):
                modules.update(a.asname or a.name.split(".")[0] for a in node.names)
        for node in ast.walk(tree):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.value, ast.Name)
                and node.value.id in modules
                and node.attr.startswith("_")
            ):
                pytest.fail(f"{f.name}: {node.value.id}.{node.attr}")
    # The editors switch on no file kind: each kind is a class.
    editors = (PACKAGE / "editors.py").read_text()
    assert "kind ==" not in editors and ".kind ==" not in editors
