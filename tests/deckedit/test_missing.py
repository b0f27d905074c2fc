"""`deckcheck deck missing DECK --have COLLECTION…`: copies add up across files and sections,
artworks count as the card, the exit code says whether anything is missing, and a collection
that does not read is named with its file and line (exit 2, nothing compared)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from deckcheck.cli import main

DM, DM_ART = 46986414, 46986409  # Dark Magician and one of its artworks (sample)
DM_SAME_NAME = 36996508  # "Dark Magician", treated as 46986414, the very same name
HARPIE, HARPIE_2 = 76812113, 27927359  # Harpie Lady; Harpie Lady 2 is treated as it
BEWD, KURIBOH, POT = 89631139, 40640057, 55144522


def _ydk(
    path: Path,
    main_: list[int],
    extra: tuple[int, ...] = (),
    side: list[int] | tuple[int, ...] = (),
) -> Path:
    lines = ["#main", *map(str, main_), "#extra", *map(str, extra), "!side", *map(str, side)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def _run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(["deck", "missing", *args])
    got = capsys.readouterr()
    return code, got.out, got.err


def test_copies_add_up_across_files_and_sections(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = _ydk(tmp_path / "deck.ydk", [BEWD] * 3 + [KURIBOH] * 2, side=[POT])
    a = _ydk(tmp_path / "a.ydk", [BEWD], side=[BEWD])  # 2 copies, two sections
    b = tmp_path / "b.txt"
    b.write_text("1 Blue-Eyes White Dragon\n1 Kuriboh\n", encoding="utf-8")
    code, out, _ = _run(capsys, str(deck), "--have", str(a), "--have", str(b), "-o", "json")
    doc = json.loads(out)
    assert code == 1
    assert doc["missing"] == [
        {"id": KURIBOH, "name": "Kuriboh", "count": 1, "need": 2, "have": 1},
        {"id": POT, "name": "Pot of Greed", "count": 1, "need": 1, "have": 0},
    ]
    assert (doc["cards"], doc["copies"], doc["copies_missing"]) == (3, 6, 2)
    # one more Kuriboh and a Pot: nothing missing, exit 0
    c = tmp_path / "c.txt"
    c.write_text("Kuriboh\nPot of Greed\n", encoding="utf-8")
    code, out, _ = _run(capsys, str(deck), "--have", str(a), "--have", str(b), "--have", str(c))
    assert code == 0
    assert "nothing missing" in out


def test_no_side_leaves_the_side_deck_out(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = _ydk(tmp_path / "deck.ydk", [KURIBOH], side=[POT])
    have = _ydk(tmp_path / "have.ydk", [KURIBOH])
    assert _run(capsys, str(deck), "--have", str(have))[0] == 1
    assert _run(capsys, str(deck), "--have", str(have), "--no-side")[0] == 0


def test_artworks_count_as_the_card_and_treated_as_cards_do_not(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = _ydk(tmp_path / "deck.ydk", [DM, DM, DM_ART, HARPIE])
    have = _ydk(tmp_path / "have.ydk", [DM_ART, DM_SAME_NAME, DM, HARPIE_2])
    code, out, _ = _run(capsys, str(deck), "--have", str(have), "-o", "json")
    doc = json.loads(out)
    # three Dark Magicians owned in three printings cover three in two; Harpie Lady 2 is
    # another card (treated as Harpie Lady only on the field)
    assert doc["missing"] == [
        {"id": HARPIE, "name": "Harpie Lady", "count": 1, "need": 1, "have": 0}
    ]
    assert code == 1
    assert doc["cards"] == 2


def test_text_output_lists_each_card_and_what_is_owned(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = _ydk(tmp_path / "deck.ydk", [BEWD] * 3 + [KURIBOH])
    have = _ydk(tmp_path / "have.ydk", [BEWD])
    code, out, _ = _run(capsys, str(deck), "--have", str(have))
    assert code == 1
    lines = out.splitlines()
    assert lines[0].startswith(f"{deck}: 3 copies of 2 cards still to get")
    assert lines[1:] == [
        f"  2 × Blue-Eyes White Dragon ({BEWD}), have 1 of 3",
        f"  1 × Kuriboh ({KURIBOH})",
    ]


def test_names_in_other_languages_and_a_ydke_link(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deckcheck.decks import read_path
    from deckcheck.decks.write import to_ydke

    deck = _ydk(tmp_path / "deck.ydk", [BEWD] * 2)
    have = tmp_path / "ja.txt"
    have.write_text("2 青眼の白龍\n", encoding="utf-8")
    assert _run(capsys, str(deck), "--have", str(have))[0] == 0
    link = to_ydke(read_path(deck))
    assert link.startswith("ydke://")
    assert _run(capsys, link, "--have", str(have))[0] == 0


def test_an_unreadable_collection_is_named_with_file_and_line(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = _ydk(tmp_path / "deck.ydk", [BEWD])
    bad = tmp_path / "binder.txt"
    bad.write_text("1 Blue-Eyes White Dragon\n2 Nosuchcard Atall\n1000 Kuriboh\n", encoding="utf-8")
    code, out, err = _run(capsys, str(deck), "--have", str(bad))
    assert code == 2
    assert out == ""  # nothing compared
    assert f"{bad}:2: DC102" in err
    assert f"{bad}:3: DC101" in err and "999" in err
    assert err.rstrip().splitlines()[-1].startswith(f"deckcheck: error: {bad}: 2 lines")


def test_a_missing_or_binary_collection_is_one_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = _ydk(tmp_path / "deck.ydk", [BEWD])
    code, out, err = _run(capsys, str(deck), "--have", str(tmp_path / "nope.txt"))
    assert (code, out) == (2, "")
    assert f"deckcheck: error: {tmp_path / 'nope.txt'}: no such file" in err
    junk = tmp_path / "junk.ydk"
    junk.write_bytes(b"\x00\x01binary\xff" * 50)
    code, out, err = _run(capsys, str(deck), "--have", str(junk))
    assert (code, out) == (2, "")
    assert f"deckcheck: error: {junk}: binary file" in err
    assert "Traceback" not in err


def test_an_ambiguous_name_in_the_deck_is_exit_2_with_candidates(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    deck = tmp_path / "deck.txt"
    deck.write_text("3 Harpie Lady\n1 Harpie\n", encoding="utf-8")
    have = _ydk(tmp_path / "have.ydk", [HARPIE] * 3)
    code, out, err = _run(capsys, str(deck), "--have", str(have))
    assert (code, out) == (2, "")
    assert f"{deck}:2: DC10" in err  # ambiguous or unknown: never guessed into a card
    assert "nothing compared" in err


def test_a_collection_bigger_than_a_deck_is_read(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    # 30,000 lines: over a deck's 10,000-line limit, well under a collection's
    deck = _ydk(tmp_path / "deck.ydk", [KURIBOH] * 3)
    big = _ydk(tmp_path / "big.ydk", [BEWD] * 29_990 + [KURIBOH] * 3)
    assert _run(capsys, str(deck), "--have", str(big))[0] == 0


@pytest.mark.realdata
def test_real_deck_against_its_own_cards_in_other_artworks_and_languages(
    real_home: Path, shared_data: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    from deckcheck import decks
    from deckcheck.carddb import open_db
    from deckcheck.lookup import Index

    src = shared_data / "decks" / "ProjectIgnis__windbot" / "AI_DarkMagician.ydk"
    deck = decks.read_path(src)
    db = open_db()
    want: dict[int, int] = {}
    for e in deck.entries():
        if e.card_id is not None and db.get(e.card_id) is not None:
            want[e.card_id] = want.get(e.card_id, 0) + e.count
    # the same cards owned as alternate artworks where one exists, as Japanese names else
    # (one copy short of the first card)
    index = Index.for_db(db)
    arts, names, named = [], [], 0
    first = next(iter(want))
    for cid, n in want.items():
        n -= cid == first
        alt = [a for a in db.alternates(db.canonical(cid)) if a != cid]
        if alt:
            arts += [alt[0]] * n
        elif n:
            ja = db.name(cid, "ja")
            got = index.resolve(ja)
            unique = got.status == "found" and db.name_key(got.card_id) == db.name_key(cid)
            names.append(f"{n} {ja}" if unique else f"{n} {ja} ({cid})")  # else pinned
            named += unique
    assert arts, "the deck has cards with alternate artworks"
    assert named > 5, "most cards are named in Japanese"
    _ydk(tmp_path / "arts.ydk", arts)
    (tmp_path / "ja.txt").write_text("\n".join(names) + "\n", encoding="utf-8")
    code, out, err = _run(
        capsys,
        str(src),
        "--have",
        str(tmp_path / "arts.ydk"),
        "--have",
        str(tmp_path / "ja.txt"),
        "-o",
        "json",
    )
    assert code != 2, err
    doc = json.loads(out)
    assert [(m["id"], m["count"]) for m in doc["missing"]] == [(db.name_key(first), 1)]
    assert code == 1
